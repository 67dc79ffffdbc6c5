"""The logo on the rulebook's cover: which one, whether it stands out from the page, and what
it is drawn on.

The cover shows ``deck.cover_logo`` when the manifest gives one, else ``deck.logo`` (the card
back's). A logo made for the dark card back may vanish on the white page: a white logo on a
transparent background is invisible there. What the page changes is only what shows through
the logo, so a logo is judged by its outline, the opaque pixels beside transparent ones (or
beside the edge of the picture): when their median WCAG 2.1 contrast against the page is below
3:1 (WCAG's least contrast for graphics), ``deckgen check`` warns with the figure, and the
cover draws the logo on a rounded panel of the colour it sits on on the card back (the back's
oval, or the back image's average colour there), so it looks as it does on the cards. A logo
with no transparent pixel carries its own background and looks the same on any page.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageFilter, ImageStat

from deckgen.errors import Finding, warning
from deckgen.model import Deck, ImageRef

RGB = tuple[int, int, int]

PAGE: RGB = (255, 255, 255)      # the cover is the white page
MIN_CONTRAST = 3.0               # WCAG 2.1, 1.4.11: graphics need 3:1 against what is around them
SAMPLE_PX = 256                  # the logo is judged at this size (its longer side), in pixels
OPAQUE = 128                     # alpha from which a pixel counts as the logo's, not the page's


@dataclass(frozen=True)
class CoverLogo:
    """The cover's logo and how it stands out from the page."""

    ref: ImageRef
    where: str                   # the manifest key it comes from: "deck.cover_logo" or "deck.logo"
    contrast: float | None       # median contrast of its outline against the page; None: no transparency
    backing: RGB                 # the colour behind it on the card back

    @property
    def needs_panel(self) -> bool:
        return self.contrast is not None and self.contrast < MIN_CONTRAST


def cover_logo(deck: Deck) -> CoverLogo | None:
    """The logo the cover shows, judged against the page, or None when the deck has none."""
    if deck.cover_logo is not None:
        ref, where = deck.cover_logo, "deck.cover_logo"
    elif deck.logo is not None:
        ref, where = deck.logo, "deck.logo"
    else:
        return None
    fonts = _fonts(deck)
    return CoverLogo(ref, where, outline_contrast(_picture(ref, SAMPLE_PX, fonts), PAGE), _backing(deck, fonts))


def outline_contrast(pic: Image.Image, page: RGB) -> float | None:
    """The median WCAG contrast against ``page`` of the outline of an RGBA picture: its opaque
    pixels that touch a transparent one or the picture's edge. None when no pixel is transparent."""
    alpha = pic.getchannel("A")
    solid = alpha.point(lambda a: 255 if a >= OPAQUE else 0)
    if solid.getextrema()[0] == 255:
        return None                                  # an opaque rectangle: its own background
    if solid.getextrema()[1] == 0:
        return 1.0                                   # nothing opaque at all: the logo is not there
    framed = Image.new("L", (pic.width + 2, pic.height + 2), 0)
    framed.paste(solid, (1, 1))                      # the picture's edge counts as transparent
    edge = ImageChops.subtract(framed, framed.filter(ImageFilter.MinFilter(3))).crop((1, 1, pic.width + 1,
                                                                                      pic.height + 1))
    on_page = Image.new("RGB", pic.size, page)
    on_page.paste(pic.convert("RGB"), (0, 0), alpha)     # what the reader sees: the logo over the page
    lum_page = _luminance(page)
    rgb, marks = on_page.tobytes(), edge.tobytes()
    ratios = sorted(_ratio(_luminance(tuple(rgb[3 * i:3 * i + 3])), lum_page) for i, e in enumerate(marks) if e)
    return ratios[len(ratios) // 2]


def cover_findings(deck: Deck) -> list[Finding]:
    """``deckgen check``'s warning when the cover's logo would vanish on the white page."""
    logo = cover_logo(deck)
    if logo is None or not logo.needs_panel:
        return []
    assert logo.contrast is not None
    if logo.where == "deck.cover_logo":
        hint = ("the cover draws it on a panel of the card back's colour; for a logo that stands on the page "
                "by itself, draw deck.cover_logo with a dark outline or dark ink")
    else:
        hint = ("the cover draws it on a panel of the card back's colour; or give deck.cover_logo a version of "
                "the logo for a light page (dark ink, or a dark outline)")
    return [warning("cover-logo-contrast", logo.where,
                    f"the rulebook cover's logo has a contrast of {logo.contrast:.1f}:1 against the white page "
                    f"(its outline, median; {MIN_CONTRAST:.0f}:1 or more stands out), so it would vanish there",
                    file=str(deck.source) if deck.source else None, hint=hint)]


def _fonts(deck: Deck) -> tuple[str, ...]:
    from deckgen.fonts import deck_fonts

    fonts = deck_fonts(deck)
    return (str(fonts.path("text")), str(fonts.path("display")))


def _picture(ref: ImageRef, longest: int, fonts: tuple[str, ...]) -> Image.Image:
    from deckgen.images import picture

    w, h = ref.size
    box = (longest, max(1, round(longest * h / w))) if w >= h else (max(1, round(longest * w / h)), longest)
    return picture(ref, box, "contain", fonts).convert("RGBA")


def _backing(deck: Deck, fonts: tuple[str, ...]) -> RGB:
    """What the logo sits on on the card back: the back image's average colour in the middle of
    the card, or the back's coloured oval."""
    from deckgen.render.faces import back_face

    spec = back_face(deck)
    if spec.back_image is None:
        r, g, b = spec.segments[0]
        return (int(r), int(g), int(b))
    pic = _picture(spec.back_image, 90, fonts)
    w, h = pic.size
    middle = pic.crop((round(w * 0.15), round(h * 0.3), round(w * 0.85), round(h * 0.7)))
    r, g, b = (round(v) for v in ImageStat.Stat(middle.convert("RGB"), middle.getchannel("A")).mean[:3])
    return (r, g, b)


@functools.lru_cache(maxsize=4096)
def _luminance(rgb: tuple[int, ...]) -> float:
    from deckgen.palette import luminance

    return luminance(rgb)


def _ratio(a: float, b: float) -> float:
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)
