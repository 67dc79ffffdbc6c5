"""Vector symbols drawn as antialiased masks: action icons and colour-blind shape cues.

Every symbol is a function drawing white (255) shapes on a square ``L`` canvas of side ``s``
(already supersampled). :func:`symbol_mask` draws at 4x and reduces, and memoises the result,
so a face is mostly paste operations with ready masks.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:               # Pillow is imported by the masks that draw: naming the symbols needs none
    from PIL import Image, ImageDraw

SS = 4  # supersampling factor for masks
ON, OFF = 255, 0

Point = tuple[float, float]


@dataclass(frozen=True)
class Pen:
    """The canvas a symbol is drawn on and its side ``s`` in pixels; symbols give points as fractions of s."""

    d: ImageDraw.ImageDraw
    s: int


def _rot(points: Sequence[Point], cx: float, cy: float, deg: float) -> list[Point]:
    a = math.radians(deg)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + (x - cx) * ca - (y - cy) * sa, cy + (x - cx) * sa + (y - cy) * ca) for x, y in points]


def _bar(p: Pen, a: Point, b: Point, w: float, fill: int = ON) -> None:
    """A thick straight bar between two points (fractions of s), width w (fraction)."""
    s = p.s
    (x0, y0), (x1, y1) = a, b
    dx, dy = (x1 - x0) * s, (y1 - y0) * s
    n = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / n * w * s / 2, dx / n * w * s / 2
    pts = [(x0 * s + ox, y0 * s + oy), (x1 * s + ox, y1 * s + oy), (x1 * s - ox, y1 * s - oy), (x0 * s - ox, y0 * s - oy)]
    p.d.polygon(pts, fill=fill)


def _ring(p: Pen, c: Point, r: float, w: float, fill: int = ON) -> None:
    d, s = p.d, p.s
    cx, cy = c
    d.ellipse([(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s], fill=fill)
    ri = r - w
    d.ellipse([(cx - ri) * s, (cy - ri) * s, (cx + ri) * s, (cy + ri) * s], fill=OFF)


def _arrow(p: Pen, start: Point, tip: Point, w: float, head: float = 2.2, fill: int = ON) -> None:
    """A straight arrow from ``start`` to ``tip``."""
    s = p.s
    (x0, y0), (x1, y1) = start, tip
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    hl = w * head * 0.9
    bx, by = x1 - ux * hl, y1 - uy * hl
    _bar(p, (x0, y0), (bx + ux * 0.01, by + uy * 0.01), w, fill)
    px, py = -uy, ux
    hw = w * head / 2
    p.d.polygon([(x1 * s, y1 * s), ((bx + px * hw) * s, (by + py * hw) * s), ((bx - px * hw) * s, (by - py * hw) * s)],
                fill=fill)


def _arc_arrow(p: Pen, c: Point, r: float, span: tuple[float, float], w: float, fill: int = ON,
               clockwise: bool = True) -> None:
    """A circular arc from ``span[0]`` to ``span[1]`` (degrees; clockwise in image space, or
    anticlockwise from the start) ending in an arrow head at the end."""
    d, s = p.d, p.s
    (cx, cy), (start, end) = c, span
    box = [(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s]
    head_deg = math.degrees(w * 1.6 / r)
    sign = 1 if clockwise else -1
    if clockwise:
        d.arc(box, start, end - head_deg * 0.6, fill=fill, width=max(1, int(w * s)))
    else:
        d.arc(box, end + head_deg * 0.6, start, fill=fill, width=max(1, int(w * s)))
    a = math.radians(end - sign * head_deg)
    bx, by = cx + r * math.cos(a), cy + r * math.sin(a)
    t = math.radians(end)
    tx, ty = cx + r * math.cos(t), cy + r * math.sin(t)
    # tangent direction at the head base, and the tip slightly past the arc end
    ux, uy = tx - bx, ty - by
    n = math.hypot(ux, uy) or 1.0
    ux, uy = ux / n, uy / n
    tip = (tx + ux * w * 0.6, ty + uy * w * 0.6)
    nx, ny = math.cos(a), math.sin(a)
    hw = w * 1.15
    d.polygon([(tip[0] * s, tip[1] * s), ((bx + nx * hw) * s, (by + ny * hw) * s),
               ((bx - nx * hw) * s, (by - ny * hw) * s)], fill=fill)


def _card(p: Pen, c: Point, size: Point, deg: float, fill: int = ON, gap: float = 0.0) -> None:
    d, s = p.d, p.s
    (cx, cy), (w, h) = c, size
    pts = [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]
    if gap:
        g = [(cx - w / 2 - gap, cy - h / 2 - gap), (cx + w / 2 + gap, cy - h / 2 - gap),
             (cx + w / 2 + gap, cy + h / 2 + gap), (cx - w / 2 - gap, cy + h / 2 + gap)]
        d.polygon([(x * s, y * s) for x, y in _rot(g, cx, cy, deg)], fill=OFF)
    d.polygon([(x * s, y * s) for x, y in _rot(pts, cx, cy, deg)], fill=fill)


# ---------------------------------------------------------------- action symbols

def skip(p: Pen) -> None:
    _ring(p, (0.5, 0.5), 0.46, 0.15)
    _bar(p, (0.2, 0.8), (0.8, 0.2), 0.15)


def reverse(p: Pen) -> None:
    dx, dy = 0.56, -0.83                      # the arrows' direction (towards the top right)
    px, py = 0.83, 0.56                       # perpendicular
    off, back, ahead = 0.13, 0.08, 0.42
    _arrow(p, (0.5 + px * off - dx * back, 0.5 + py * off - dy * back),
           (0.5 + px * off + dx * ahead, 0.5 + py * off + dy * ahead), 0.14)
    _arrow(p, (0.5 - px * off + dx * back, 0.5 - py * off + dy * back),
           (0.5 - px * off - dx * ahead, 0.5 - py * off - dy * ahead), 0.14)


def skip_all(p: Pen) -> None:
    _ring(p, (0.5, 0.5), 0.27, 0.09)
    _bar(p, (0.34, 0.66), (0.66, 0.34), 0.09)
    _arc_arrow(p, (0.5, 0.5), 0.43, (200, 335), 0.08)
    _arc_arrow(p, (0.5, 0.5), 0.43, (20, 155), 0.08)


def discard_all(p: Pen) -> None:
    for deg, cx, cy in ((-26, 0.27, 0.42), (0, 0.5, 0.34), (26, 0.73, 0.42)):
        _card(p, (cx, cy), (0.28, 0.42), deg, gap=0.04)
    _bar(p, (0.5, 0.58), (0.5, 0.72), 0.2, fill=OFF)
    _arrow(p, (0.5, 0.62), (0.5, 0.98), 0.11)


def flip(p: Pen) -> None:
    """A card being turned over: the card, and two round arrows chasing each other round it."""
    _card(p, (0.5, 0.5), (0.34, 0.48), -12)
    _card(p, (0.5, 0.5), (0.2, 0.34), -12, fill=OFF)
    _arc_arrow(p, (0.5, 0.5), 0.43, (200, 330), 0.09)
    _arc_arrow(p, (0.5, 0.5), 0.43, (20, 150), 0.09)


def duel(p: Pen) -> None:
    d, s = p.d, p.s
    for deg in (45, -45):
        pts = [(0.455, 0.08), (0.5, 0.0), (0.545, 0.08), (0.545, 0.64), (0.455, 0.64)]   # blade
        guard = [(0.33, 0.64), (0.67, 0.64), (0.67, 0.72), (0.33, 0.72)]
        grip = [(0.465, 0.72), (0.535, 0.72), (0.535, 0.87), (0.465, 0.87)]
        for poly in (pts, guard, grip):
            d.polygon([(x * s, y * s) for x, y in _rot(poly, 0.5, 0.5, deg)], fill=ON)
        cx, cy = _rot([(0.5, 0.92)], 0.5, 0.5, deg)[0]
        d.ellipse([(cx - 0.055) * s, (cy - 0.055) * s, (cx + 0.055) * s, (cy + 0.055) * s], fill=ON)


def check(p: Pen) -> None:
    d, s = p.d, p.s
    d.line([(0.12 * s, 0.52 * s), (0.4 * s, 0.8 * s), (0.9 * s, 0.2 * s)], fill=ON, width=int(0.17 * s), joint="curve")


def cross(p: Pen) -> None:
    _bar(p, (0.15, 0.15), (0.85, 0.85), 0.18)
    _bar(p, (0.15, 0.85), (0.85, 0.15), 0.18)


def target(p: Pen) -> None:
    d, s = p.d, p.s
    _ring(p, (0.5, 0.5), 0.4, 0.08)
    d.ellipse([0.41 * s, 0.41 * s, 0.59 * s, 0.59 * s], fill=ON)
    for x0, y0, x1, y1 in ((0.5, 0.0, 0.5, 0.26), (0.5, 0.74, 0.5, 1.0), (0.0, 0.5, 0.26, 0.5), (0.74, 0.5, 1.0, 0.5)):
        _bar(p, (x0, y0), (x1, y1), 0.07)


def everyone(p: Pen) -> None:
    d, s = p.d, p.s
    for cx, cy, r in ((0.2, 0.42, 0.11), (0.8, 0.42, 0.11), (0.5, 0.36, 0.14)):
        d.ellipse([(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s], fill=ON)
        bw = r * 1.9
        d.pieslice([(cx - bw) * s, (cy + r * 1.3) * s, (cx + bw) * s, (cy + r * 1.3 + 2 * bw) * s], 180, 360, fill=ON)


def swap(p: Pen) -> None:
    _arrow(p, (0.15, 0.33), (0.9, 0.33), 0.13)
    _arrow(p, (0.85, 0.67), (0.1, 0.67), 0.13)


def pass_hands(p: Pen) -> None:
    _arc_arrow(p, (0.5, 0.5), 0.38, (130, 400), 0.12)
    _card(p, (0.5, 0.5), (0.22, 0.32), 15)


def pass_side(p: Pen, way: int) -> None:
    """Every hand goes one way round the table: a fanned hand over an arrow pointing left (-1) or right (+1)."""
    for deg, cx, cy in ((-22, 0.3, 0.36), (0, 0.5, 0.3), (22, 0.7, 0.36)):
        _card(p, (cx, cy), (0.26, 0.38), deg, gap=0.035)
    x0, x1 = (0.88, 0.06) if way < 0 else (0.12, 0.94)
    _arrow(p, (x0, 0.8), (x1, 0.8), 0.13)


def pass_left(p: Pen) -> None:
    pass_side(p, -1)


def pass_right(p: Pen) -> None:
    pass_side(p, 1)


def steal(p: Pen) -> None:
    """Take one card from another player: a card lifted out of a hand and carried over by an arrow."""
    for deg, cx, cy in ((-8, 0.66, 0.64), (14, 0.83, 0.68)):
        _card(p, (cx, cy), (0.24, 0.36), deg, gap=0.04)
    _card(p, (0.2, 0.66), (0.25, 0.38), -20)
    _arc_arrow(p, (0.46, 0.5), 0.3, (330, 200), 0.12, clockwise=False)


def play_again(p: Pen) -> None:
    """Your turn again: a loop arrow round a play triangle."""
    _arc_arrow(p, (0.5, 0.5), 0.4, (290, 600), 0.11)
    _poly(p, [(0.4, 0.3), (0.72, 0.5), (0.4, 0.7)])


def plus(p: Pen) -> None:
    _bar(p, (0.5, 0.12), (0.5, 0.88), 0.22)
    _bar(p, (0.12, 0.5), (0.88, 0.5), 0.22)


# ---------------------------------------------------------------- colour-blind shape cues

def _poly(p: Pen, pts: Sequence[Point]) -> None:
    d, s = p.d, p.s
    d.polygon([(x * s, y * s) for x, y in pts], fill=ON)


def _regular(n: int, r: float, start: float, cx: float = 0.5, cy: float = 0.5) -> list[Point]:
    return [(cx + r * math.cos(math.radians(start + i * 360 / n)), cy + r * math.sin(math.radians(start + i * 360 / n)))
            for i in range(n)]


def circle(p: Pen) -> None:
    d, s = p.d, p.s
    d.ellipse([0.06 * s, 0.06 * s, 0.94 * s, 0.94 * s], fill=ON)


def triangle(p: Pen) -> None:
    _poly(p, [(0.5, 0.04), (0.97, 0.9), (0.03, 0.9)])


def square(p: Pen) -> None:
    _poly(p, [(0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)])


def diamond(p: Pen) -> None:
    _poly(p, [(0.5, 0.02), (0.95, 0.5), (0.5, 0.98), (0.05, 0.5)])


def star(p: Pen) -> None:
    outer = _regular(5, 0.5, -90, cy=0.54)
    inner = _regular(5, 0.2, -54, cy=0.54)
    _poly(p, [q for pair in zip(outer, inner) for q in pair])


def hexagon(p: Pen) -> None:
    _poly(p, _regular(6, 0.48, 0))


def heart(p: Pen) -> None:
    d, s = p.d, p.s
    d.ellipse([0.04 * s, 0.1 * s, 0.52 * s, 0.58 * s], fill=ON)
    d.ellipse([0.48 * s, 0.1 * s, 0.96 * s, 0.58 * s], fill=ON)
    _poly(p, [(0.07, 0.45), (0.93, 0.45), (0.5, 0.94)])


def plus_shape(p: Pen) -> None:
    """The "cross" cue: a cross pattée (arms widening outwards), unlike a plus sign."""
    d, s = p.d, p.s
    for deg in (0, 90, 180, 270):
        arm = [(0.5, 0.5), (0.36, 0.04), (0.64, 0.04)]
        _poly(p, _rot(arm, 0.5, 0.5, deg))
    d.ellipse([0.38 * s, 0.38 * s, 0.62 * s, 0.62 * s], fill=ON)


def crescent(p: Pen) -> None:
    d, s = p.d, p.s
    d.ellipse([0.04 * s, 0.04 * s, 0.96 * s, 0.96 * s], fill=ON)
    d.ellipse([0.3 * s, -0.04 * s, 1.1 * s, 0.76 * s], fill=OFF)


def drop(p: Pen) -> None:
    d, s = p.d, p.s
    d.ellipse([0.18 * s, 0.36 * s, 0.82 * s, 1.0 * s], fill=ON)
    _poly(p, [(0.5, 0.0), (0.8, 0.56), (0.2, 0.56)])


SYMBOLS: dict[str, Callable[[Pen], None]] = {
    "skip": skip, "reverse": reverse, "skip-all": skip_all, "discard-all": discard_all, "flip": flip,
    "duel": duel, "check": check, "cross": cross, "target": target, "everyone": everyone, "swap": swap,
    "pass": pass_hands, "plus": plus, "pass-left": pass_left, "pass-right": pass_right, "steal": steal,
    "play-again": play_again,
}
SHAPES: dict[str, Callable[[Pen], None]] = {
    "circle": circle, "triangle": triangle, "square": square, "diamond": diamond, "star": star,
    "hexagon": hexagon, "heart": heart, "cross": plus_shape, "crescent": crescent, "drop": drop,
}


@functools.lru_cache(maxsize=512)
def symbol_mask(name: str, size: int, shape: bool = False) -> Image.Image:
    """An antialiased square mask (``L``, ``size`` px) of a symbol or shape cue."""
    from PIL import Image, ImageDraw

    table = SHAPES if shape or name not in SYMBOLS else SYMBOLS   # a kind may name a shape ("star")
    big = Image.new("L", (size * SS, size * SS), 0)
    table[name](Pen(ImageDraw.Draw(big), size * SS))
    return big.reduce(SS)


def oval_extent(rx: float, ry: float, deg: float) -> tuple[int, int]:
    """The pixel size of a mask that holds the tilted ellipse with a 2 px margin."""
    a = math.radians(deg)
    hw = math.sqrt((rx * math.cos(a)) ** 2 + (ry * math.sin(a)) ** 2)
    hh = math.sqrt((rx * math.sin(a)) ** 2 + (ry * math.cos(a)) ** 2)
    return math.ceil(hw) * 2 + 4, math.ceil(hh) * 2 + 4


@functools.lru_cache(maxsize=64)
def oval_mask(rx: float, ry: float, deg: float, size: tuple[int, int] | None = None) -> Image.Image:
    """A tilted ellipse (semi-axes rx, ry px, turned ``deg`` anticlockwise), centred in its mask."""
    from PIL import Image, ImageDraw

    w, h = size or oval_extent(rx, ry, deg)
    big = Image.new("L", (w * SS, h * SS), 0)
    cx, cy = w * SS / 2, h * SS / 2
    pts = [(cx + rx * SS * math.cos(math.radians(i / 2)), cy + ry * SS * math.sin(math.radians(i / 2)))
           for i in range(720)]
    ImageDraw.Draw(big).polygon(_rot(pts, cx, cy, -deg), fill=ON)
    return big.reduce(SS)


@functools.lru_cache(maxsize=128)
def wedge_mask(w: int, h: int, n: int, i: int, start: float = -90.0) -> Image.Image:
    """The i-th of n equal pie wedges covering a w x h box (centred), for palette wheels."""
    from PIL import Image, ImageDraw

    ss = 2
    big = Image.new("L", (w * ss, h * ss), 0)
    r = math.hypot(w, h) * ss
    cx, cy = w * ss / 2, h * ss / 2
    a0 = start + i * 360.0 / n
    ImageDraw.Draw(big).pieslice([cx - r, cy - r, cx + r, cy + r], a0, a0 + 360.0 / n, fill=ON)
    return big.reduce(ss)
