"""Text on cards: fitting a text into a box, cached glyph masks, centred drawing with outline,
shadow and underline (6 and 9)."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from deckgen.fonts import pil_font

DARK = (17, 17, 17)
WHITE = (255, 255, 255)
MIN_PX = 4             # the smallest font size asked for (deckgen.fonts.pil_font's floor)

Font = ImageFont.FreeTypeFont
Ink = int | tuple[int, ...]     # an RGB colour, or a grey level on an ``L`` layer
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TextStyle:
    """How :func:`draw_text` paints a text: its fill, an outline of ``stroke`` px, a drop shadow
    ``shadow`` px down and right, and an underline (6 and 9)."""

    fill: Ink
    stroke: int = 0
    stroke_fill: Ink = DARK
    shadow: float = 0.0
    underline: bool = False


@functools.lru_cache(maxsize=2048)
def ink_box(f: Font, text: str, stroke: int = 0) -> Box:
    """The ink box of ``text`` drawn at the origin (side bearings left out)."""
    l, t, r, b = f.getbbox(text, stroke_width=stroke)
    mb = f.getmask(text).getbbox()
    if mb is None:
        return l, t, r, b
    return l + mb[0] - stroke, t, l + mb[2] + stroke, b


@functools.lru_cache(maxsize=1024)
def fit(font_file: str, text: str, max_w: int, max_h: int, stroke_frac: float = 0.0,
        floor: int = 6) -> tuple[Font, int]:
    """The largest font of a file (and its stroke width) whose ink box of ``text`` fits max_w x max_h;
    never smaller than ``floor`` px (at least 4, Pillow's smallest here), where it may not fit."""
    floor = max(MIN_PX, floor)
    size = max(floor, int(max_h * 1.45))
    for _ in range(40):
        f = pil_font(font_file, size)
        sw = round(size * stroke_frac)
        l, t, r, b = ink_box(f, text, sw)
        if (r - l) <= max_w and (b - t) <= max_h:
            return f, sw
        if size == floor:
            break
        size = max(floor, int(size * min(0.95, max(0.5, min(max_w / max(1, r - l), max_h / max(1, b - t))))))
    return pil_font(font_file, floor), 0


@functools.lru_cache(maxsize=1024)
def text_masks(f: Font, text: str, stroke: int) -> tuple[Image.Image, Image.Image | None, tuple[float, float]]:
    """Cached masks of ``text``: (fill, stroke or None, offset of the masks from the text origin)."""
    l, t, r, b = f.getbbox(text, stroke_width=stroke)
    size = (int(r - l + 4), int(b - t + 4))
    origin = (-l + 2, -t + 2)
    fill = Image.new("L", size, 0)
    ImageDraw.Draw(fill).text(origin, text, font=f, fill=255)
    outline = None
    if stroke:
        outline = Image.new("L", size, 0)
        ImageDraw.Draw(outline).text(origin, text, font=f, fill=255, stroke_width=stroke, stroke_fill=255)
    return fill, outline, (l - 2, t - 2)


def paint(img: Image.Image, ink: Ink, at: tuple[int, int], mask: Image.Image) -> None:
    """Paint ``ink`` through ``mask`` with the mask's top left corner at ``at``: the same pixels as
    ``img.paste(ink, at, mask)``, in about 60 % of the time. Pillow blends a solid image through a
    mask with the same rounding as a colour (one blend per channel), but its loop for an image
    is tighter than its loop for a colour; the solid image costs a fill, a small share of the blend."""
    img.paste(Image.new(img.mode, mask.size, ink), at, mask)


def draw_text(img: Image.Image, text: str, f: Font, at: tuple[float, float], style: TextStyle) -> Box:
    """Draw ``text`` with its ink box centred on ``at``; returns that box."""
    cx, cy = at
    stroke, stroke_fill, fill = style.stroke, style.stroke_fill, style.fill
    l, t, r, b = ink_box(f, text, stroke)
    x, y = round(cx - (l + r) / 2), round(cy - (t + b) / 2)
    fill_m, stroke_m, (ox, oy) = text_masks(f, text, stroke)
    outer = stroke_m or fill_m
    d = ImageDraw.Draw(img)
    ul = None
    if style.underline:
        ulh = max(2, int((b - t) * 0.075))
        uy = y + b + ulh * 0.6
        ul = [x + l + stroke, uy, x + r - stroke, uy + ulh]
    if style.shadow:
        sh = round(style.shadow)
        if ul:
            d.rectangle([ul[0] + sh - stroke, ul[1] + sh - stroke, ul[2] + sh + stroke, ul[3] + sh + stroke], fill=DARK)
        paint(img, DARK if img.mode == "RGB" else 255, (int(x + ox + sh), int(y + oy + sh)), outer)
    if ul:
        if stroke:
            d.rectangle([ul[0] - stroke, ul[1] - stroke, ul[2] + stroke, ul[3] + stroke], fill=stroke_fill)
        d.rectangle(ul, fill=fill)
    if stroke_m is not None:
        paint(img, stroke_fill, (int(x + ox), int(y + oy)), stroke_m)
    paint(img, fill, (int(x + ox), int(y + oy)), fill_m)
    return x + l, y + t, x + r, y + b


def split_lines(text: str, max_chars: int, max_lines: int = 2) -> list[str]:
    """One line, or balanced lines when the text is long and has a space: two, or more (up to
    ``max_lines``, one word a line at most) while the longest line is still over ``max_chars``."""
    words = text.split()
    if len(text) <= max_chars or len(words) < 2 or max_lines < 2:
        return [text]
    best = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    lines = [" ".join(words[:best]), " ".join(words[best:])]
    k = 2
    while max(map(len, lines)) > max_chars and k < min(max_lines, len(words)):
        k += 1
        lines = _balanced(words, k)
    return lines


def _balanced(words: list[str], k: int) -> list[str]:
    """The words in k lines, in order, whose longest line is the shortest it can be (then the
    lines closest to one length; then the earliest breaks)."""
    def split(cuts: tuple[int, ...]) -> list[str]:
        bounds = (0, *cuts, len(words))
        return [" ".join(words[a:b]) for a, b in itertools.pairwise(bounds)]

    def cost(cuts: tuple[int, ...]) -> tuple[int, int]:
        sizes = [len(x) for x in split(cuts)]
        return max(sizes), max(sizes) - min(sizes)

    return split(min(itertools.combinations(range(1, len(words)), k - 1), key=cost))
