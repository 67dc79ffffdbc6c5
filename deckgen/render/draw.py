"""Drawing one face from its :class:`~deckgen.render.faces.FaceSpec` with Pillow.

Layout (all lengths scale with the card): the coloured field fills the whole image, bleed
included; a tilted white oval; the big centre emblem; corner indices top-left and, turned
half round, bottom-right; on Flex cards a badge top-right (and bottom-left) in the flex colour.
Everything but the field stays inside the safe box.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageChops, ImageDraw

from deckgen.render.faces import FaceSpec
from deckgen.render.geometry import Frame
from deckgen.render.symbols import oval_mask, symbol_mask, wedge_mask
from deckgen.render.text import DARK, WHITE, draw_text, fit, ink_box, split_lines

TILT = 28.0           # degrees the oval leans: its long axis runs bottom-left to top-right
GUIDE = (150, 150, 150)


# ---------------------------------------------------------------- geometry helpers

@functools.lru_cache(maxsize=16)
def oval_axes(frame: Frame) -> tuple[float, float]:
    """Semi-axes (px) of the tilted oval, as large as fits in the safe box with a margin."""
    l, t, r, b = frame.safe_box
    shw, shh = (r - l) / 2 - 2, (b - t) / 2 - 2
    th = math.radians(TILT)
    a, bb = 1.0, 2.05
    hw = math.sqrt((a * math.cos(th)) ** 2 + (bb * math.sin(th)) ** 2)
    hh = math.sqrt((a * math.sin(th)) ** 2 + (bb * math.cos(th)) ** 2)
    k = min(shw * 0.97 / hw, shh * 0.86 / hh)
    return a * k, bb * k


def along(frame: Frame, t: float) -> tuple[float, float]:
    """The point ``t`` px along the oval's long axis from the centre (positive: towards the top)."""
    cx, cy = frame.center
    th = math.radians(TILT)
    return cx + t * math.sin(th), cy - t * math.cos(th)


def paste_mask(img: Image.Image, color, mask: Image.Image, cx: float, cy: float) -> None:
    img.paste(tuple(color), (round(cx - mask.width / 2), round(cy - mask.height / 2)), mask)


@functools.lru_cache(maxsize=16)
def segment_masks(rx: float, ry: float, n: int) -> tuple[Image.Image, ...]:
    oval = oval_mask(rx, ry, -TILT)
    w, h = oval.size
    return tuple(ImageChops.multiply(oval, wedge_mask(w, h, n, i, -90 - TILT)) for i in range(n))


def chord(frame: Frame, dy: float) -> tuple[float, float]:
    """Left and right x (image px) of the oval at ``dy`` px below the centre."""
    rx, ry = oval_axes(frame)
    c, s = math.cos(math.radians(TILT)), math.sin(math.radians(TILT))
    qa = c * c / rx ** 2 + s * s / ry ** 2
    qb = 2 * dy * c * s * (1 / rx ** 2 - 1 / ry ** 2)
    qc = dy * dy * (s * s / rx ** 2 + c * c / ry ** 2) - 1
    disc = max(0.0, qb * qb - 4 * qa * qc)
    cx = frame.center[0]
    return cx + (-qb - math.sqrt(disc)) / (2 * qa), cx + (-qb + math.sqrt(disc)) / (2 * qa)

# ---------------------------------------------------------------- pieces

def draw_symbol(img: Image.Image, name: str, size: int, cx: float, cy: float, ink, shadow: float,
                segments=()) -> None:
    if name == "wheel":
        draw_wheel(img, size, cx, cy, segments)
        return
    mask = symbol_mask(name, max(4, int(size)))
    if shadow:
        paste_mask(img, DARK, mask, cx + shadow, cy + shadow)
    paste_mask(img, ink, mask, cx, cy)


def draw_wheel(img: Image.Image, size: int, cx: float, cy: float, segments) -> None:
    """A colour-roulette wheel: one wedge per palette colour, dark rim, hub and pointer."""
    n = max(1, len(segments))
    top = cy - size / 2
    size = int(size * 0.84)                      # the wheel; its pointer sits above it, inside ``size``
    cy = top + size * 0.5 + size * 0.19
    rim = symbol_mask("circle", size, True)
    paste_mask(img, DARK, rim, cx, cy)
    inner = symbol_mask("circle", int(size * 0.86), True)
    for color, m in zip(segments, _wheel_segments(inner.width, n)):
        paste_mask(img, color, m, cx, cy)
    paste_mask(img, DARK, symbol_mask("circle", int(size * 0.3), True), cx, cy)
    paste_mask(img, WHITE, symbol_mask("circle", int(size * 0.2), True), cx, cy)
    pointer = symbol_mask("triangle", int(size * 0.24), True).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    paste_mask(img, DARK, pointer, cx, top + size * 0.12)


@functools.lru_cache(maxsize=16)
def _wheel_segments(w: int, n: int):
    circ = symbol_mask("circle", w, True)
    return tuple(ImageChops.multiply(circ, wedge_mask(w, w, n, i, -90 - 180.0 / n)) for i in range(n))


def draw_emblem(img, d, spec: FaceSpec, frame: Frame) -> None:
    """The big centre number or symbol inside the oval."""
    u = frame.unit()
    em = spec.centre
    sh = u * 1.6
    ink, stroke = spec.ink, max(2, int(u * 1.1))
    if em.text:
        ty = 0.0 if not em.symbol else -u * 9
        max_h = int(u * (60 if not em.symbol else 42))
        max_w = int(u * (50 if len(em.text) <= 2 else 64))
        f, _ = fit("display", em.text, max_w, max_h)
        cx, cy = along(frame, ty)
        draw_text(img, em.text, f, cx, cy, ink, stroke, DARK, sh, em.underline)
        tops = [name for name in (em.symbol, em.extra) if name]
        sx, sy = along(frame, u * 35)
        size = int(u * (26 if len(tops) == 1 else 21))
        for i, name in enumerate(tops):          # small symbols above the text, side by side
            dx = 0 if len(tops) == 1 else (i - 0.5) * u * 24
            draw_symbol(img, name, size, sx + dx, sy, ink, sh * 0.6, spec.segments)
    elif em.symbol:
        size = int(u * (70 if em.symbol == "wheel" else 60))
        draw_symbol(img, em.symbol, size, *frame.center, ink, sh, spec.segments)
    for i, mark in enumerate(spec.marks):       # flip-icon and duel numbers: the mark, large, in the oval
        mx, my = along(frame, u * 44)
        mx += (i - (len(spec.marks) - 1) / 2) * u * 22
        draw_symbol(img, mark, int(u * 20), mx, my, ink, sh * 0.5)


def draw_oval(img: Image.Image, oval: str, segments: tuple, frame: Frame) -> None:
    rx, ry = oval_axes(frame)
    cx, cy = frame.center
    if oval == "segments":
        border = frame.unit() * 1.6
        outer = oval_mask(rx, ry, -TILT)
        paste_mask(img, WHITE, outer, cx, cy)
        for color, m in zip(segments, segment_masks(rx - border, ry - border, len(segments))):
            paste_mask(img, color, m, cx, cy)
    elif oval == "white":
        paste_mask(img, WHITE, oval_mask(rx, ry, -TILT), cx, cy)
    elif segments:                                # the card back: a coloured oval with a white rim
        rim = frame.unit() * 1.6
        paste_mask(img, WHITE, oval_mask(rx, ry, -TILT), cx, cy)
        paste_mask(img, segments[0], oval_mask(rx - rim, ry - rim, -TILT), cx, cy)


def draw_corner(img: Image.Image, d: ImageDraw.ImageDraw, spec: FaceSpec, frame: Frame) -> None:
    """The top-left index (with shape cue and marks) and the top-right flex badge."""
    u = frame.unit()
    l, t, _, _ = frame.safe_box
    ink = spec.index_ink
    light = ink == WHITE
    stroke = max(1, int(u * 0.9)) if light else 0
    sh = u * 0.8 if light else 0
    em = spec.index
    box_w, box_h = int(u * 20), int(u * 17)
    cx = l + box_w / 2 + u
    if em.text:
        f, _ = fit("display", em.text, box_w, box_h - (int(u * 2) if em.underline else 0), 0.05)
        bl_, bt_, br_, bb_ = ink_box(f, em.text, stroke)
        pad = u * 0.8 + 1
        bx = draw_text(img, em.text, f, l + pad + (br_ - bl_) / 2, t + pad + (bb_ - bt_) / 2, ink, stroke,
                       DARK, sh, em.underline)
        bottom = bx[3] + (int(u * 3) if em.underline else 0)
        cx = (bx[0] + bx[2]) / 2
    elif em.symbol:
        size = int(u * 17)
        draw_symbol(img, em.symbol, size, l + size / 2 + u * 0.5, t + size / 2 + u * 0.5, ink, sh, spec.segments)
        bottom = t + size + u
    else:
        bottom = t
    y = bottom + u * 2.5
    cues = ([spec.shape] if spec.shape else []) + list(spec.marks)
    cx = max(cx, l + u * 5.5 + 2)           # a narrow index ("1") must not push the cue out of the safe box
    for i, cue in enumerate(cues):
        size = int(u * 9)
        cy = y + size / 2 + i * (size + u * 2)
        is_shape = i == 0 and spec.shape is not None
        mask = symbol_mask(cue, size, is_shape)
        if sh:
            paste_mask(img, DARK, mask, cx + sh * 0.7, cy + sh * 0.7)
        paste_mask(img, ink, mask, cx, cy)
    if spec.flex is not None:
        draw_flex_badge(img, d, spec, frame)


def draw_flex_badge(img, d, spec: FaceSpec, frame: Frame) -> None:
    u = frame.unit()
    fb = spec.flex
    _, t, r, _ = frame.safe_box
    bw, bh = int(u * 40), int(u * 21)
    x1, y0 = r - 1, t
    x0, y1 = x1 - bw, y0 + bh
    d.rounded_rectangle([x0, y0, x1, y1], radius=int(u * 5), fill=DARK)
    d.rounded_rectangle([x0 + u * 0.8, y0 + u * 0.8, x1 - u * 0.8, y1 - u * 0.8], radius=int(u * 4.4), fill=WHITE)
    inner = [x0 + u * 2.2, y0 + u * 2.2, x1 - u * 2.2, y1 - u * 2.2]
    if fb.color is None:
        d.rounded_rectangle(inner, radius=int(u * 3.4), fill=DARK)
        n = len(spec.segments)
        sw = (inner[2] - inner[0]) / max(1, n)
        for i, c in enumerate(spec.segments):   # a strip of the palette: "any colour"
            d.rectangle([inner[0] + i * sw + u * 3.4 * (i == 0), inner[3] - u * 2.2,
                         inner[0] + (i + 1) * sw - u * 3.4 * (i == n - 1), inner[3] - u * 0.9], fill=c)
        fill = fb.ink
    else:
        d.rounded_rectangle(inner, radius=int(u * 3.4), fill=fb.color)
        fill = fb.ink
    light = fill == WHITE
    stroke = max(1, int(u * 0.6)) if light else 0
    iw, ih = inner[2] - inner[0], inner[3] - inner[1]
    em = fb.emblem
    parts = [p for p in (em.text and "text", em.symbol and "symbol", fb.shape and "shape") if p]
    slot = iw / max(1, len(parts))
    for i, part in enumerate(parts):
        cx = inner[0] + slot * (i + 0.5)
        cy = inner[1] + ih / 2 - (u * 0.6 if fb.color is None else 0)
        if part == "text":
            f, _ = fit("display", em.text, int(slot - u * 2), int(ih - u * (5 if em.underline else 3)), 0.05)
            draw_text(img, em.text, f, cx, cy, fill, stroke, DARK, 0, em.underline)
        else:
            size = int(min(slot - u * 2, ih - u * 3.5))
            mask = symbol_mask(em.symbol if part == "symbol" else fb.shape, size, part == "shape")
            paste_mask(img, fill, mask, cx, cy)
    f, _ = fit("text", fb.label, int(u * 16), int(u * 4.2))
    lx = (x0 + x1) / 2
    ly = y1 + u * 3.6
    lw = ink_box(f, fb.label)[2] + u * 3
    d.rounded_rectangle([lx - lw / 2, ly - u * 3, lx + lw / 2, ly + u * 3], radius=int(u * 3), fill=DARK)
    draw_text(img, fb.label, f, lx, ly, WHITE)


def draw_caption(img: Image.Image, spec: FaceSpec, frame: Frame) -> None:
    """The kind's name in the deck's language, low in the oval, kept inside it."""
    if not spec.caption:
        return
    u = frame.unit()
    lines = split_lines(spec.caption, 14)
    line_h = u * 5.2
    _, cy = along(frame, -u * (37 if spec.flex else 43))
    ys = [cy + (i - (len(lines) - 1) / 2) * line_h * 1.35 for i in range(len(lines))]
    chords = [chord(frame, max(y - frame.center[1] - line_h, y - frame.center[1] + line_h, key=abs)) for y in ys]
    fonts = [fit("text", line, int(x1 - x0 - u * 7), int(line_h))[0] for line, (x0, x1) in zip(lines, chords)]
    f = min(fonts, key=lambda ft: ft.size)       # one size for every line
    for line, y, (x0, x1) in zip(lines, ys, chords):
        if spec.oval == "segments":
            draw_text(img, line, f, (x0 + x1) / 2, y, WHITE, max(1, int(u * 0.7)), DARK)
        else:
            draw_text(img, line, f, (x0 + x1) / 2, y, DARK)


def draw_title(img: Image.Image, spec: FaceSpec, frame: Frame) -> None:
    """The card back's deck name, leaning with the oval."""
    u = frame.unit()
    lines = split_lines(spec.title, 7)
    rx, ry = oval_axes(frame)
    line_h = int(u * (30 if len(lines) == 1 else 20))
    layer = Image.new("L", (int(ry * 2), int(line_h * len(lines) * 1.6)), 0)
    for i, line in enumerate(lines):
        f, _ = fit("display", line, int(rx * 2.3), line_h, 0.0)
        draw_text(layer, line, f, layer.width / 2, layer.height / 2 + (i - (len(lines) - 1) / 2) * line_h * 1.25, 255)
    layer = layer.rotate(90 - TILT, resample=Image.Resampling.BICUBIC, expand=True)
    bbox = layer.getbbox()
    if bbox:
        layer = layer.crop(bbox)
    cx, cy = frame.center
    grow = layer.filter(_grow_filter(max(3, int(u * 1.6)) | 1))
    paste_mask(img, DARK, grow, cx + u, cy + u)
    paste_mask(img, DARK, grow, cx, cy)
    paste_mask(img, spec.title_ink, layer, cx, cy)


def _grow_filter(size: int):
    from PIL import ImageFilter

    return ImageFilter.MaxFilter(size)


def draw_guide(d: ImageDraw.ImageDraw, frame: Frame) -> None:
    """A thin rounded-corner cutting guide on the trim line (3 mm radius)."""
    bl = frame.bleed
    w, h = frame.full
    d.rounded_rectangle([bl, bl, w - bl - 1, h - bl - 1], radius=frame.px(3.0), outline=GUIDE,
                        width=max(1, frame.px(0.15)))


@functools.lru_cache(maxsize=16)
def base_image(frame: Frame, field: tuple, oval: str, segments: tuple) -> Image.Image:
    """The field with its oval: shared by every face of one colour, so drawn once per process."""
    img = Image.new("RGB", frame.full, tuple(field))
    draw_oval(img, oval, segments, frame)
    return img


def draw_face(spec: FaceSpec, frame: Frame, corner_guide: bool = False) -> Image.Image:
    img = base_image(frame, tuple(spec.field), spec.oval, tuple(spec.segments)).copy()
    for _ in range(2):                       # top-left, then (turned half round) bottom-right
        draw_corner(img, ImageDraw.Draw(img), spec, frame)
        img = img.transpose(Image.Transpose.ROTATE_180)
    d = ImageDraw.Draw(img)
    if spec.title:
        draw_title(img, spec, frame)
    draw_emblem(img, d, spec, frame)
    draw_caption(img, spec, frame)
    if corner_guide:
        draw_guide(d, frame)
    return img
