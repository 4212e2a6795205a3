"""An observation for policy tests without a browser (a synthetic 1280x720 screenshot)."""

from __future__ import annotations

import io

from halo.env.types import Element, Observation


def make_obs() -> Observation:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (1280, 720), (240, 240, 240))
    ImageDraw.Draw(img).rectangle([500, 300, 780, 360], fill=(30, 144, 255))
    buf = io.BytesIO()
    img.save(buf, format="JPEG")
    return Observation(screenshot=buf.getvalue(), image_format="jpeg", axtree='[12] button "Sign in"',
                       elements={"12": Element("12", "button", "Sign in", (500, 300, 280, 60))},
                       url="http://127.0.0.1:9000/login", goal="Sign in", step=0, task_id="test.login")
