"""The ink-saving card back (``--back-style light``): the deck's back as an outline on white.

A full back is a solid field of colour edge to edge, the most ink a home printer spends on any
page. This variant keeps what tells the cards apart from the table and from each other (a frame
in the back's colour inside the cut line, the oval outline and the deck's logo, or its name,
drawn in that colour) and leaves the rest white. It is drawn here, at the rendered back's pixel
size, from the same deck data the renderer's back uses (:func:`deckgen.render.faces.back_face`),
so the two variants name the deck alike.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from deckgen.model import Deck

BACK_STYLES = ("full", "light")
WHITE = (255, 255, 255)


def light_back(deck: Deck, size_px: tuple[int, int], trim_mm: tuple[float, float], bleed_mm: float) -> bytes:
    """PNG bytes of the light back, ``size_px`` (trim + bleed) like the rendered back."""
    from deckgen.fonts import deck_fonts
    from deckgen.images import picture
    from deckgen.render.faces import back_face

    spec = back_face(deck)
    ink = tuple(spec.ink)                          # the colour of the full back's oval
    w, h = size_px
    px_mm = w / (trim_mm[0] + 2 * bleed_mm)
    im = Image.new("RGB", (w, h), WHITE)
    draw = ImageDraw.Draw(im)
    b = bleed_mm * px_mm
    inset = b + 2.5 * px_mm                       # the frame sits 2.5 mm inside the cut line
    stroke = max(1, round(0.6 * px_mm))
    draw.rounded_rectangle((inset, inset, w - inset, h - inset), radius=3 * px_mm, outline=ink, width=stroke)
    cx, cy = w / 2, h / 2
    ow, oh = (w - 2 * b) * 0.36, (h - 2 * b) * 0.42      # the oval of the full back, as an outline
    oval = Image.new("L", (w, h), 0)
    ImageDraw.Draw(oval).ellipse((cx - ow, cy - oh, cx + ow, cy + oh), outline=255, width=stroke)
    oval = oval.rotate(-28, resample=Image.Resampling.BICUBIC, center=(cx, cy))
    im.paste(Image.new("RGB", (w, h), ink), mask=oval)
    fonts = deck_fonts(deck)
    if deck.logo is not None:
        box = (round(ow * 1.1), round(oh * 1.1))
        logo = picture(deck.logo, box, "contain", (str(fonts.path("text")), str(fonts.path("display"))))
        im.paste(logo, (round(cx - logo.width / 2), round(cy - logo.height / 2)), logo)
    else:
        title = spec.title or deck.name().upper()
        size = round(ow * 0.5)
        font = ImageFont.truetype(str(fonts.path("display")), size)
        while size > 8 and draw.textlength(title, font=font) > ow * 1.7:
            size = round(size * 0.9)
            font = ImageFont.truetype(str(fonts.path("display")), size)
        draw.text((cx, cy), title, fill=ink, font=font, anchor="mm")
    out = io.BytesIO()
    im.save(out, "PNG", compress_level=6)
    return out.getvalue()


def write_light_back(deck: Deck, back_png: Path, trim_mm: tuple[float, float], bleed_mm: float, folder: Path) -> Path:
    """The light back beside the rendered one's size, written into ``folder``; returns its path."""
    with Image.open(back_png) as im:
        size = im.size
    path = Path(folder) / "back-light.png"
    path.write_bytes(light_back(deck, size, trim_mm, bleed_mm))
    return path
