// Where to point the mouse for element `id`: scrolls it into view if needed and returns its centre in viewport
// pixels, and whether the centre hits the element itself (not something covering it).
// Returns {error} when the element is gone or has no box.
(id) => {
  const el = document.querySelector('[data-halo-id="' + CSS.escape(id) + '"]');
  if (!el) return { error: 'gone' };
  let r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return { error: 'nobox', tag: el.tagName.toLowerCase() };
  const W = window.innerWidth, H = window.innerHeight;
  const cx0 = r.left + r.width / 2, cy0 = r.top + r.height / 2;
  if (cx0 < 0 || cy0 < 0 || cx0 >= W || cy0 >= H) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    r = el.getBoundingClientRect();
  }
  const x = Math.min(Math.max(r.left + r.width / 2, 0), W - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 0), H - 1);
  const hit = document.elementFromPoint(x, y);
  const ok = !!hit && (hit === el || el.contains(hit) || (hit.control && hit.control === el) ||
    (el.labels && Array.from(el.labels).some((l) => l === hit || l.contains(hit))));
  let cover = '';
  if (!ok && hit) {
    cover = hit.tagName.toLowerCase() + (hit.id ? '#' + hit.id : '') +
      (hit.getAttribute('data-halo-id') ? ' [' + hit.getAttribute('data-halo-id') + ']' : '');
  }
  return { x, y, ok, cover, tag: el.tagName.toLowerCase() };
}
