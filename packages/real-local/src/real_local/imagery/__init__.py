"""Photo-like pictures for REAL-local's sites, drawn offline with Pillow and numpy (no third-party images, no network).

REAL's sites and the apps they clone show photographs; flat icons would teach a VLM that every product is an icon.
These are procedural scenes instead: a backdrop (a white studio sweep, a tinted paper backdrop, or a wall over a
wooden table), an object built of shaded parts (soft edges, a directional light, a specular highlight), its soft
contact shadow, a vignette and sensor grain. Every picture is a pure function of its arguments: the same seed gives
the same bytes, two seeds give two pictures.

Modules (import from them; this package re-exports nothing):

- ``canvas``: the primitives for any scene: ``Canvas`` (a float RGB image with ``mask_*`` builders, ``paint`` of a
  shaded part, ``shadow``, ``gradient``, ``finish``), ``rng_for(*seed)``, ``rgb(colour)``, ``hsv``, ``shift``, the
  blur and sensor grain, and the backdrops products stand on.
- ``products``: a drawer for each of ``KINDS`` ("laptop", "phone", "headphones", "sofa", ...);
  ``product_image(kind, seed, size=320, color=None)`` -> ``PIL.Image.Image`` (uncached); ``kind_for(text)`` picks a
  kind from a product's title or category.
- ``houses``: ``house_image(seed, w=640, h=420, style=None)`` -> ``PIL.Image.Image`` (uncached), a street-side photo
  of a home; ``style`` is one of ``HOUSE_STYLES`` ("house", "townhouse", "condo"), else drawn from the seed.
- ``hotels``: ``hotel_image(seed, kind="exterior", w=720, h=440, style=None)`` -> ``PIL.Image.Image`` (uncached):
  a hotel's exterior (``HOTEL_STYLES``: a glass city "tower", a stucco "resort" with palms, a "midrise" with an
  entrance canopy), its "pool", "lobby", or a guest "room" (one king), "room2" (two queens), "suite" (bed and sofa).
- ``people``: ``avatar_image(seed, size=160, long_hair=None)`` (a head-and-shoulders portrait photo) and
  ``logo_image(name, size=96)`` (a company's logo tile with its initials), uncached.
- ``food``: ``dish_image(kind, seed, w, h, name)`` (an overhead photo of a dish on a table, ``DISH_KINDS``;
  ``dish_kind(name, category)`` picks the kind from a menu item) and ``storefront_image(name, seed, w, h, color)``
  (a restaurant's street front with its name on the sign), uncached.
- ``maps``: ``route_map_image(points, w, h)``: a street map (blocks, a park, the bay, arterials) with a ride's route
  from a pickup pin to a drop-off pin, uncached.
- ``cache``: the encoded, cached pictures (stable API; other sites build on it):
  ``product_photo(kind, seed, size=320, color=None, fmt="jpeg") -> bytes`` (``color`` "#rrggbb" is the object's
  main colour, else drawn from the seed), ``house_photo(seed, w=640, h=420, style=None, fmt="jpeg") -> bytes``,
  ``hotel_photo(seed, kind, w, h, style=None, fmt="jpeg")``, ``avatar_photo(seed, size=160, long_hair=None)``,
  ``company_logo(name, size=96)``, ``dish_photo(kind, seed, w, h, name)``, ``storefront_photo(name, seed, w, h,
  color)``, ``route_map(points, w, h)`` (``FOOD_MAPS_VERSION`` for those three), ``encode``, ``cache_dir``, ``VERSION`` (``PEOPLE_HOTELS_VERSION`` for hotels,
  portraits and logos), and ``CONTENT_TYPES`` (maps ``fmt``, "jpeg" or "webp", to the HTTP
  content type).

Encoded pictures are cached in memory (LRU) and on disk under ``cache.cache_dir()``: ``$HALO_IMAGE_CACHE`` if set
("off" disables the disk cache), else ``$XDG_CACHE_HOME/halo/imagery`` or ``~/.cache/halo/imagery``, one folder per
``cache.VERSION`` (bump it when a drawing changes). A first drawing takes a few milliseconds; a cached one
microseconds.
"""
