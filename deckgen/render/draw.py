"""Drawing one face from its :class:`~deckgen.render.faces.FaceSpec` with Pillow.

Layout (all lengths scale with the card): the coloured field fills the whole image, bleed
included; a tilted white oval; the big centre emblem; corner indices top-left and, turned
half round, bottom-right; on Flex cards a badge top-right (and bottom-left) in the flex colour.
Everything but the field stays inside the safe box.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from deckgen.fonts import pil_font
from deckgen.images import picture
from deckgen.model import ImageRef
from deckgen.render.faces import BACK_FIELD, Emblem, FaceSpec
from deckgen.render.geometry import Frame
from deckgen.render.symbols import oval_extent, oval_mask, symbol_mask, wedge_mask
from deckgen.render.text import DARK, WHITE, draw_text, fit, ink_box, split_lines

TILT = 28.0           # degrees the oval leans: its long axis runs bottom-left to top-right
GUIDE = (150, 150, 150)
RULES_MAX_PT = 9.0    # the rules line starts at this size and shrinks ...
RULES_MIN_PT = 6.0    # ... down to this; below it ``check`` warns
RULES_LEADING = 1.18


# ---------------------------------------------------------------- fonts and images of a face

def font_file(spec: FaceSpec, role: str) -> str:
    """The font file of a role (``display`` or ``text``) for this face."""
    i = 0 if role == "display" else 1
    if len(spec.fonts) > i:
        return spec.fonts[i].path
    from deckgen.fonts import font_set

    return str(font_set(None).path(role))


def image_fonts(spec: FaceSpec) -> tuple[str, ...]:
    """The fonts an SVG's text is drawn with: the face's text font, then its display font."""
    return font_file(spec, "text"), font_file(spec, "display")


def paste_picture(img: Image.Image, pic: Image.Image, cx: float, cy: float, shadow: float = 0.0) -> None:
    """An RGBA picture centred on (cx, cy), over what is there (with a dark drop shadow if asked)."""
    x, y = round(cx - pic.width / 2), round(cy - pic.height / 2)
    alpha = pic.getchannel("A")
    if shadow:
        img.paste(DARK, (x + round(shadow), y + round(shadow)), alpha)
    img.paste(pic.convert("RGB"), (x, y), alpha)


ICON_BASE = 512        # icons are drawn once at this size and scaled down for every smaller use


def icon_picture(spec: FaceSpec, ref: ImageRef, size: int) -> Image.Image:
    """A kind's icon contained in a ``size`` square: from one drawing at ICON_BASE when smaller."""
    if size >= ICON_BASE:
        return picture(ref, (size, size), "contain", image_fonts(spec))
    return _icon_scaled(ref, size, image_fonts(spec)).copy()


@functools.lru_cache(maxsize=32)
def _icon_scaled(ref: ImageRef, size: int, fonts: tuple[str, ...]) -> Image.Image:
    base = picture(ref, (ICON_BASE, ICON_BASE), "contain", fonts)
    k = size / ICON_BASE
    return base.resize((max(1, round(base.width * k)), max(1, round(base.height * k))), Image.Resampling.LANCZOS)


def draw_icon(img: Image.Image, spec: FaceSpec, ref: ImageRef, size: int, cx: float, cy: float,
              shadow: float = 0.0) -> None:
    """A kind's own icon (contained in a ``size`` square) instead of a generated symbol."""
    paste_picture(img, icon_picture(spec, ref, size), cx, cy, shadow)


def inscribed(rx: float, ry: float, aspect: float) -> tuple[int, int]:
    """The largest w x h box of aspect w/h inside the tilted oval of semi-axes rx, ry."""
    th = math.radians(TILT)
    c, s = math.cos(th), math.sin(th)
    qa = c * c / rx ** 2 + s * s / ry ** 2
    qc = s * s / rx ** 2 + c * c / ry ** 2
    qb = abs(c * s * (1 / rx ** 2 - 1 / ry ** 2))
    aw, ah = aspect, 1.0
    k = 1 / math.sqrt(qa * aw * aw + qc * ah * ah + 2 * qb * aw * ah)
    return max(1, int(2 * k * aw)), max(1, int(2 * k * ah))


def art_oval(spec: FaceSpec, frame: Frame) -> tuple[float, float]:
    """Semi-axes of the oval the art fills: the face's oval less a rim (white, or white + colours)."""
    rx, ry = oval_axes(frame)
    rim = frame.unit() * (4.6 if spec.oval == "segments" else 1.6)
    return rx - rim, ry - rim


def art_box(spec: FaceSpec, frame: Frame) -> tuple[int, int]:
    """The pixel box the art is drawn into: the oval's bounds (cover) or the box inside it (contain)."""
    rx, ry = art_oval(spec, frame)
    if spec.art_fit == "contain" and spec.art is not None:
        w, h = spec.art.size
        return inscribed(rx, ry, w / h)
    return oval_extent(rx, ry, -TILT)


def logo_box(spec: FaceSpec, frame: Frame) -> tuple[int, int]:
    """Inside the back's oval; over a back image (no oval), a box 70 % of the card's width."""
    w, h = spec.logo.size if spec.logo else (1, 1)
    if spec.back_image is not None:
        side = frame.trim[0] * 0.7
        return (int(side), int(side * h / w)) if w >= h else (int(side * w / h), int(side))
    rx, ry = oval_axes(frame)
    rim = frame.unit() * 4.0
    return inscribed(rx - rim, ry - rim, w / h)


def placements(spec: FaceSpec, frame: Frame) -> list[tuple[ImageRef, tuple[int, int], str]]:
    """Every image a face shows with the pixel box it fills and how (for the resolution check)."""
    out = []
    if spec.back_image is not None:
        out.append((spec.back_image, frame.full, "cover"))
    if spec.logo is not None:
        out.append((spec.logo, logo_box(spec, frame), "contain"))
    if spec.art is not None:
        out.append((spec.art, art_box(spec, frame), spec.art_fit))
    if spec.icon is not None:
        size = icon_size(spec, frame)
        out.append((spec.icon, (size, size), "contain"))
    return out


def icon_size(spec: FaceSpec, frame: Frame) -> int:
    """The largest size an icon is drawn at on a face (centre)."""
    return int(frame.unit() * (60 if not spec.centre.text else 26))


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
    halo = int(u * 2.2) if spec.art is not None else 0     # over art: a white halo keeps it readable
    symbol = "icon" if spec.icon is not None else em.symbol
    if em.text:
        ty = 0.0 if not symbol else -u * 9
        max_h = int(u * (60 if not symbol else 42))
        max_w = int(u * (50 if len(em.text) <= 2 else 64))
        f, _ = fit(font_file(spec, "display"), em.text, max_w, max_h)
        cx, cy = along(frame, ty)
        if halo:
            draw_text(img, em.text, f, cx, cy, WHITE, stroke + halo, WHITE, 0, em.underline)
        draw_text(img, em.text, f, cx, cy, ink, stroke, DARK, sh, em.underline)
        tops = [name for name in (symbol, em.extra) if name]
        sx, sy = along(frame, u * 35)
        size = int(u * (26 if len(tops) == 1 else 21))
        for i, name in enumerate(tops):          # small symbols above the text, side by side
            dx = 0 if len(tops) == 1 else (i - 0.5) * u * 24
            _centre_symbol(img, spec, name, size, sx + dx, sy, ink, sh * 0.6, halo)
    elif symbol:
        size = int(u * (70 if symbol == "wheel" else 60))
        _centre_symbol(img, spec, symbol, size, *frame.center, ink, sh, halo)
    for i, mark in enumerate(spec.marks):       # flip-icon and duel numbers: the mark, large, in the oval
        mx, my = along(frame, u * 44)
        mx += (i - (len(spec.marks) - 1) / 2) * u * 22
        draw_symbol(img, mark, int(u * 20), mx, my, ink, sh * 0.5)


def _centre_symbol(img, spec: FaceSpec, name: str, size: int, cx: float, cy: float, ink, shadow: float,
                   halo: int) -> None:
    """A symbol (or the kind's icon) in the oval, with a white halo when it sits on art."""
    if name == "icon" and spec.icon is not None:
        pic = icon_picture(spec, spec.icon, size)
        if halo:
            paste_mask(img, WHITE, _grown(pic.getchannel("A"), halo), cx, cy)
        paste_picture(img, pic, cx, cy, shadow * 0.6)
        return
    if halo and name != "wheel":
        paste_mask(img, WHITE, _grown(symbol_mask(name, max(4, int(size))), halo), cx, cy)
    draw_symbol(img, name, size, cx, cy, ink, shadow, spec.segments)


def _grown(mask: Image.Image, by: int) -> Image.Image:
    """A mask grown by ``by`` px on every side (for halos)."""
    grown = Image.new("L", (mask.width + 2 * by, mask.height + 2 * by), 0)
    grown.paste(mask, (by, by))
    return grown.filter(ImageFilter.GaussianBlur(by / 2)).point(_HALO_LUT)


_HALO_LUT = [min(255, v * 10) for v in range(256)]


def draw_art(img: Image.Image, spec: FaceSpec, frame: Frame) -> None:
    """The illustration in the centre oval: covering it, or contained in it."""
    if spec.art is None:
        return
    rx, ry = art_oval(spec, frame)
    cx, cy = frame.center
    box = art_box(spec, frame)
    pic = picture(spec.art, box, spec.art_fit, image_fonts(spec))
    if spec.art_fit == "contain":
        paste_picture(img, pic, cx, cy)
        return
    mask = oval_mask(rx, ry, -TILT)
    if pic.size != mask.size:              # the box is the mask's size; guard against rounding
        pic = pic.resize(mask.size, Image.Resampling.BILINEAR)
    alpha = ImageChops.multiply(mask, pic.getchannel("A"))
    img.paste(pic.convert("RGB"), (round(cx - mask.width / 2), round(cy - mask.height / 2)), alpha)


def rules_area(frame: Frame, flex: bool = False) -> tuple[float, float, float, float]:
    """The box the rules line may use: along the bottom of the safe zone, clear of the turned index
    (and above the turned flex badge on a Flex card)."""
    u = frame.unit()
    l, _, r, safe_bottom = frame.safe_box
    b = safe_bottom - (u * 31 if flex else 0.0)
    return l, b - u * 30, r - u * 27, b


def rules_layout(text: str, font: str, frame: Frame, flex: bool = False) -> tuple[int, list[str], bool]:
    """(font px, lines, fits): the largest size from 9 pt down to 6 pt at which ``text`` fits the
    rules area; when even 6 pt does not fit, 6 pt with the lines that fit (the last one cut)."""
    x0, y0, x1, y1 = rules_area(frame, flex)
    pad = frame.unit() * 2.0
    avail_w, avail_h = x1 - x0 - 2 * pad, y1 - y0 - 2 * pad
    pt = RULES_MAX_PT
    while True:
        px = max(4, round(pt * frame.dpi / 72))
        f = pil_font(font, px)
        lines, ok = wrap(text, f, avail_w)
        if ok and len(lines) * px * RULES_LEADING <= avail_h:
            return px, lines, True
        if pt <= RULES_MIN_PT:
            keep = max(1, int(avail_h // (px * RULES_LEADING)))
            if len(lines) > keep:
                lines = [*lines[:keep - 1], lines[keep - 1].rstrip(" .,;") + "…"]
            return px, lines, False
        pt = max(RULES_MIN_PT, pt - 0.5)


def wrap(text: str, f, width: float) -> tuple[list[str], bool]:
    """Greedy word wrap; ``ok`` is False when a single word is wider than ``width``."""
    lines: list[str] = []
    ok = True
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}".strip()
            if line and f.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
            ok &= f.getlength(word) <= width
        lines.append(line)
    return lines, ok


def draw_rules(img: Image.Image, d: ImageDraw.ImageDraw, spec: FaceSpec, frame: Frame) -> None:
    """The card's rules line: a white panel at the bottom of the safe zone, dark text centred."""
    if not spec.rules:
        return
    u = frame.unit()
    font = font_file(spec, "text")
    px, lines, _ = rules_layout(spec.rules, font, frame, spec.flex is not None)
    f = pil_font(font, px)
    x0, _, x1, y1 = rules_area(frame, spec.flex is not None)
    pad = u * 2.0
    lh = px * RULES_LEADING
    y0 = y1 - len(lines) * lh - 2 * pad
    d.rounded_rectangle([x0, y0, x1, y1], radius=int(u * 3), fill=WHITE, outline=DARK, width=max(1, int(u * 0.6)))
    for i, line in enumerate(lines):
        cy = y0 + pad + lh * (i + 0.5)
        d.text(((x0 + x1) / 2, cy), line, font=f, fill=DARK, anchor="mm")


def draw_back(img: Image.Image, spec: FaceSpec, frame: Frame) -> None:
    """The card back's logo, in the centre (over the oval or the back image)."""
    if spec.logo is None:
        return
    pic = picture(spec.logo, logo_box(spec, frame), "contain", image_fonts(spec))
    paste_picture(img, pic, *frame.center)


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
        f, _ = fit(font_file(spec, "display"), em.text, box_w, box_h - (int(u * 2) if em.underline else 0), 0.05)
        bl_, bt_, br_, bb_ = ink_box(f, em.text, stroke)
        pad = u * 0.8 + 1
        bx = draw_text(img, em.text, f, l + pad + (br_ - bl_) / 2, t + pad + (bb_ - bt_) / 2, ink, stroke,
                       DARK, sh, em.underline)
        bottom: float = bx[3] + (int(u * 3) if em.underline else 0)
        cx = (bx[0] + bx[2]) / 2
    elif spec.icon is not None:                  # the kind's own icon on a white chip: its colours stay readable
        size = int(u * 17)
        x0, y0 = l + u * 0.5, t + u * 0.5
        if sh:
            d.rounded_rectangle([x0 + sh, y0 + sh, x0 + size + sh, y0 + size + sh], radius=int(u * 4), fill=DARK)
        d.rounded_rectangle([x0, y0, x0 + size, y0 + size], radius=int(u * 4), fill=WHITE, outline=DARK,
                            width=max(1, int(u * 0.6)))
        draw_icon(img, spec, spec.icon, int(size * 0.8), x0 + size / 2, y0 + size / 2)
        bottom = t + size + u
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


def corner_rows(spec: FaceSpec, frame: Frame) -> int:
    """How many rows from the top :func:`draw_corner` may draw on, with room to spare: the index
    (at most 17 units, an underline and its padding), the shape cue and marks below it (9 units
    each and a gap of 2, with their shadow), and the flex badge with its label (about 28 units).
    Turning only that band of the face for the bottom-right corner gives the same pixels as
    turning the whole face, at a fraction of the cost."""
    u = frame.unit()
    _, t, _, _ = frame.safe_box
    cues = (1 if spec.shape else 0) + len(spec.marks)
    index = 24 + 11 * cues
    badge = 29 if spec.flex is not None else 0
    return int(t + u * (max(index, badge) + 4)) + 4


def draw_flex_badge(img, d, spec: FaceSpec, frame: Frame) -> None:
    u = frame.unit()
    fb = spec.flex
    assert fb is not None
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
    parts = [p for p in (em.text and "text", (em.symbol or fb.icon) and "symbol", fb.shape and "shape") if p]
    slot = iw / max(1, len(parts))
    for i, part in enumerate(parts):
        cx = inner[0] + slot * (i + 0.5)
        cy = inner[1] + ih / 2 - (u * 0.6 if fb.color is None else 0)
        if part == "text":
            f, _ = fit(font_file(spec, "display"), em.text, int(slot - u * 2), int(ih - u * (5 if em.underline else 3)), 0.05)
            draw_text(img, em.text, f, cx, cy, fill, stroke, DARK, 0, em.underline)
        elif part == "symbol" and fb.icon is not None:
            draw_icon(img, spec, fb.icon, int(min(slot - u * 2, ih - u * 3.5)), cx, cy)
        else:
            size = int(min(slot - u * 2, ih - u * 3.5))
            mask = symbol_mask(em.symbol if part == "symbol" else fb.shape, size, part == "shape")
            paste_mask(img, fill, mask, cx, cy)
    f, _ = fit(font_file(spec, "text"), fb.label, int(u * 16), int(u * 4.2))
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
    # low in the oval; above a rules panel; on a Flex card with a rules panel, high in the oval
    _, cy = along(frame, u * 40 if spec.flex and spec.rules else -u * (37 if spec.flex else 36 if spec.rules else 43))
    ys = [cy + (i - (len(lines) - 1) / 2) * line_h * 1.35 for i in range(len(lines))]
    chords = [chord(frame, max(y - frame.center[1] - line_h, y - frame.center[1] + line_h, key=abs)) for y in ys]
    fonts = [fit(font_file(spec, "text"), line, int(x1 - x0 - u * 7), int(line_h))[0] for line, (x0, x1) in zip(lines, chords)]
    f = min(fonts, key=lambda ft: ft.size)       # one size for every line
    stroke = max(1, int(u * 1.0))
    if any(ink_box(f, line)[2] - ink_box(f, line)[0] + 2 * stroke > x1 - x0 for line, (x0, x1) in zip(lines, chords)):
        # on a tiny face even the smallest readable size leaves the oval: smaller still, to stay in it
        f = min((fit(font_file(spec, "text"), line, int(x1 - x0 - 2 * stroke), int(line_h), floor=0)[0]
                 for line, (x0, x1) in zip(lines, chords)), key=lambda ft: ft.size)
    for line, y, (x0, x1) in zip(lines, ys, chords):
        if spec.oval == "segments":
            draw_text(img, line, f, (x0 + x1) / 2, y, WHITE, max(1, int(u * 0.7)), DARK)
        elif spec.art is not None:
            draw_text(img, line, f, (x0 + x1) / 2, y, DARK, max(1, int(u * 1.0)), WHITE)
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
        f, _ = fit(font_file(spec, "display"), line, int(rx * 2.3), line_h, 0.0)
        draw_text(layer, line, f, layer.width / 2, layer.height / 2 + (i - (len(lines) - 1) / 2) * line_h * 1.25, 255)
    layer = layer.rotate(90 - TILT, resample=Image.Resampling.BICUBIC, expand=True)
    bbox = layer.getbbox()
    if bbox:
        layer = layer.crop(bbox)
    cx, cy = frame.center
    grow = dilate(layer, max(3, int(u * 1.6)) | 1)
    paste_mask(img, DARK, grow, cx + u, cy + u)
    paste_mask(img, DARK, grow, cx, cy)
    paste_mask(img, spec.title_ink, layer, cx, cy)


def dilate(mask: Image.Image, size: int) -> Image.Image:
    """The same pixels as ``mask.filter(ImageFilter.MaxFilter(size))`` (an odd ``size``), ~20x faster:
    a square maximum is a row maximum then a column maximum, each the lighter of shifted copies
    (``crop`` beyond the edge reads 0, which never raises a maximum of the pixels inside)."""
    r = size // 2
    w, h = mask.size
    out = mask
    for axis in (0, 1):
        src = out
        for d in range(1, r + 1):
            for s in (d, -d):
                out = ImageChops.lighter(out, src.crop((s, 0, w + s, h) if axis == 0 else (0, s, w, h + s)))
    return out


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


@functools.lru_cache(maxsize=16)
def art_base(frame: Frame, field: tuple, oval: str, segments: tuple, art: ImageRef, art_fit: str,
             fonts: tuple) -> Image.Image:
    """The field, oval and art: shared by every face of one colour with the same art."""
    img = base_image(frame, field, oval, segments).copy()
    draw_art(img, FaceSpec("", field, oval, segments, WHITE, Emblem(), Emblem(), WHITE, fonts=fonts, art=art,
                           art_fit=art_fit), frame)
    return img


def back_base(spec: FaceSpec, frame: Frame) -> Image.Image:
    """A back image covering the whole face, bleed included, over the back's dark field."""
    assert spec.back_image is not None
    img = Image.new("RGB", frame.full, BACK_FIELD)
    pic = picture(spec.back_image, frame.full, "cover", image_fonts(spec))
    img.paste(pic.convert("RGB"), (0, 0), pic.getchannel("A"))
    return img


def draw_face(spec: FaceSpec, frame: Frame, corner_guide: bool = False) -> Image.Image:
    if spec.back_image is not None:
        img = back_base(spec, frame)
    elif spec.art is not None:
        img = art_base(frame, tuple(spec.field), spec.oval, tuple(spec.segments), spec.art, spec.art_fit,
                       tuple(spec.fonts)).copy()
    else:
        img = base_image(frame, tuple(spec.field), spec.oval, tuple(spec.segments)).copy()
    draw_back(img, spec, frame)
    draw_corner(img, ImageDraw.Draw(img), spec, frame)          # top-left (and the flex badge top-right)
    w, h = img.size
    rows = min(corner_rows(spec, frame), h)      # bottom-right: the same corner on the bottom band, turned
    band = img.crop((0, h - rows, w, h)).transpose(Image.Transpose.ROTATE_180)
    draw_corner(band, ImageDraw.Draw(band), spec, frame)
    img.paste(band.transpose(Image.Transpose.ROTATE_180), (0, h - rows))
    d = ImageDraw.Draw(img)
    if spec.title:
        draw_title(img, spec, frame)
    draw_emblem(img, d, spec, frame)
    draw_caption(img, spec, frame)
    draw_rules(img, d, spec, frame)
    if corner_guide:
        draw_guide(d, frame)
    return img
