"""Drawing one face from its :class:`~deckgen.render.faces.FaceSpec` and its layout
(:mod:`deckgen.render.layout`) with Pillow.

Every face, the default UNO look included, is drawn by the same code: the layout's elements in
order, each in its box. Drawing is two passes: :func:`plan_face` places every element and fits
every text at the face's pixel size with the real font (a text that meets its box's smallest size
only by overlapping something else is shrunk, and what still does not fit is a :class:`Misfit`);
:func:`draw_face` then paints the plan. ``deckgen check`` reads the same plan
(:mod:`deckgen.render.fit`). Elements marked ``twin`` (the corner index, the Flex badge) are
drawn again turned half round in the opposite corner.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from deckgen.fonts import pil_font
from deckgen.images import picture
from deckgen.model import ImageRef
from deckgen.render.faces import RGB, Emblem, FaceSpec, InlineIcon
from deckgen.render.geometry import Frame
from deckgen.render.layout import Box, Element
from deckgen.render.symbols import oval_extent, oval_mask, symbol_mask, wedge_mask
from deckgen.render.text import DARK, WHITE, Font, TextStyle, draw_text, fit, ink_box, paint, split_lines

TILT = 28.0           # degrees the default oval leans: its long axis runs bottom-left to top-right
GUIDE = (150, 150, 150)
RULES_MAX_PT = 9.0    # the rules text starts at this size and shrinks ...
RULES_MIN_PT = 6.0    # ... down to this (a layout's rules ``size`` may say otherwise)
RULES_LEADING = 1.18
Rect = tuple[float, float, float, float]
CaptionFit = tuple[Font, list[tuple[float, float]], int]     # a caption's font, line centres and stroke
Drawer = Callable[[Image.Image, ImageDraw.ImageDraw, "Plan", "Placed"], None]


# ---------------------------------------------------------------- fonts and images of a face

def font_file(spec: FaceSpec, role: str) -> str:
    """The font file of a role (``display``, ``text``, or ``bold``: the deck's bold font when its
    ``fonts.toml`` names one, else the display font) for this face."""
    if role == "bold":
        role = "bold" if len(spec.fonts) > 2 else "display"
    i = {"display": 0, "text": 1, "bold": 2}[role]
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
        paint(img, DARK, (x + round(shadow), y + round(shadow)), alpha)
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


# ---------------------------------------------------------------- the frame: the oval or panel


@dataclass(frozen=True)
class Shape:
    """The frame element placed on one face: an oval (tilted) or a rounded panel, or none."""

    kind: str                      # "oval", "rounded" or "none"
    cx: float
    cy: float
    rx: float                      # semi-axes (oval) or half the box (rounded, none)
    ry: float
    tilt: float
    radius: float = 0.0            # rounded: the corner radius in px

    def along(self, t: float) -> tuple[float, float]:
        """The point ``t`` px along the long axis from the centre (positive: towards the top)."""
        th = math.radians(self.tilt)
        return self.cx + t * math.sin(th), self.cy - t * math.cos(th)

    def chord(self, dy: float) -> tuple[float, float]:
        """Left and right x (image px) of the shape at ``dy`` px below its centre."""
        if self.kind != "oval":
            return self.cx - self.rx, self.cx + self.rx
        c, s = math.cos(math.radians(self.tilt)), math.sin(math.radians(self.tilt))
        rx, ry = self.rx, self.ry
        qa = c * c / rx ** 2 + s * s / ry ** 2
        qb = 2 * dy * c * s * (1 / rx ** 2 - 1 / ry ** 2)
        qc = dy * dy * (s * s / rx ** 2 + c * c / ry ** 2) - 1
        disc = max(0.0, qb * qb - 4 * qa * qc)
        return self.cx + (-qb - math.sqrt(disc)) / (2 * qa), self.cx + (-qb + math.sqrt(disc)) / (2 * qa)

    def mask(self, inset: float = 0.0) -> Image.Image:
        """The shape less ``inset`` px all round, as a mask centred on (cx, cy)."""
        if self.kind == "oval":
            return oval_mask(self.rx - inset, self.ry - inset, -self.tilt)
        return _rounded_mask(round(2 * (self.rx - inset)), round(2 * (self.ry - inset)),
                             max(0, round(self.radius - inset)))

    def inscribed(self, aspect: float, inset: float = 0.0) -> tuple[int, int]:
        """The largest w x h box of aspect w/h inside the shape less ``inset``."""
        rx, ry = self.rx - inset, self.ry - inset
        if self.kind != "oval":
            w = min(2 * rx, 2 * ry * aspect)
            return max(1, int(w)), max(1, int(w / aspect))
        return inscribed(rx, ry, aspect, self.tilt)

    def extent(self, inset: float = 0.0) -> tuple[int, int]:
        if self.kind == "oval":
            return oval_extent(self.rx - inset, self.ry - inset, -self.tilt)
        return round(2 * (self.rx - inset)), round(2 * (self.ry - inset))

    def rect(self) -> Rect:
        w, h = self.extent()
        return self.cx - w / 2 + 2, self.cy - h / 2 + 2, self.cx + w / 2 - 2, self.cy + h / 2 - 2


@functools.lru_cache(maxsize=32)
def _rounded_mask(w: int, h: int, radius: int) -> Image.Image:
    ss = 4
    w, h, radius = max(1, w), max(1, h), max(0, min(radius, w // 2, h // 2))
    big = Image.new("L", (max(1, w) * ss, max(1, h) * ss), 0)
    ImageDraw.Draw(big).rounded_rectangle([0, 0, w * ss - 1, h * ss - 1], radius=radius * ss, fill=255)
    return big.reduce(ss)


def inscribed(rx: float, ry: float, aspect: float, tilt: float = TILT) -> tuple[int, int]:
    """The largest w x h box of aspect w/h inside the tilted oval of semi-axes rx, ry."""
    th = math.radians(tilt)
    c, s = math.cos(th), math.sin(th)
    qa = c * c / rx ** 2 + s * s / ry ** 2
    qc = s * s / rx ** 2 + c * c / ry ** 2
    qb = abs(c * s * (1 / rx ** 2 - 1 / ry ** 2))
    aw, ah = aspect, 1.0
    k = 1 / math.sqrt(qa * aw * aw + qc * ah * ah + 2 * qb * aw * ah)
    return max(1, int(2 * k * aw)), max(1, int(2 * k * ah))


@functools.lru_cache(maxsize=64)
def shape_of(el: Element | None, frame: Frame) -> Shape:
    """Where a frame (or back pattern) element sits on a face of this frame."""
    box = (el.box if el is not None else None)
    l, t, r, b = box.resolve(frame) if box is not None else frame.safe_box
    kind = el.opt("shape", "oval") if el is not None else "oval"
    tilt = float(el.opt("tilt", TILT if kind == "oval" else 0.0)) if el is not None else TILT
    cx, cy = (l + r) / 2, (t + b) / 2
    if kind != "oval":
        radius = frame.unit() * float(el.opt("radius", 6.0)) if el is not None else 0.0
        return Shape(kind, cx, cy, (r - l) / 2, (b - t) / 2, tilt, radius)
    shw, shh = (r - l) / 2 - 2, (b - t) / 2 - 2
    th = math.radians(tilt)
    a, bb = 1.0, 2.05
    hw = math.sqrt((a * math.cos(th)) ** 2 + (bb * math.sin(th)) ** 2)
    hh = math.sqrt((a * math.sin(th)) ** 2 + (bb * math.cos(th)) ** 2)
    k = min(shw * 0.97 / hw, shh * 0.86 / hh)
    return Shape("oval", cx, cy, a * k, bb * k, tilt)


def oval_axes(frame: Frame) -> tuple[float, float]:
    """Semi-axes (px) of the default layout's oval on this frame."""
    s = shape_of(None, frame)
    return s.rx, s.ry


def along(frame: Frame, t: float) -> tuple[float, float]:
    """The point ``t`` px along the default oval's long axis from the centre."""
    return shape_of(None, frame).along(t)


def paste_mask(img: Image.Image, color: Sequence[int], mask: Image.Image, cx: float, cy: float) -> None:
    paint(img, tuple(color), (round(cx - mask.width / 2), round(cy - mask.height / 2)), mask)


@dataclass(frozen=True)
class Spot:
    """Where a centred mark (a symbol, an icon) goes: its centre and the side of its square, in image px."""

    cx: float
    cy: float
    size: int


@functools.lru_cache(maxsize=16)
def segment_masks(shape: Shape, inset: float, n: int, start: float) -> tuple[Image.Image, ...]:
    m = shape.mask(inset)
    w, h = m.size
    return tuple(ImageChops.multiply(m, wedge_mask(w, h, n, i, start)) for i in range(n))


# ---------------------------------------------------------------- planning a face


@dataclass
class Misfit:
    """An element whose content does not fit its box at the smallest size the layout allows."""

    element: str
    message: str


@dataclass
class Placed:
    """One element placed on one face: the rectangles it covers and what its drawer needs."""

    el: Element
    rects: list[Rect] = field(default_factory=list)   # where it draws (image px), twins included
    data: dict[str, Any] = field(default_factory=dict)   # what the element's drawer reads (by element type)
    text: bool = False             # a text element: checked against every other element
    twin_at: int | None = None     # rects from this index on are the turned copy (a twin element)

    def copy_of(self, i: int) -> str:
        """Which copy ``rects[i]`` is: "" for the element, "turned copy" for its twin."""
        return "turned copy" if self.twin_at is not None and i >= self.twin_at else ""

    def twin(self, frame: Frame) -> None:
        """Add the turned copy of every rect (a ``twin`` element drawn again in the opposite corner)."""
        if self.el.twin:
            self.twin_at = len(self.rects)
            self.rects.extend([turned(rc, frame) for rc in self.rects])


@dataclass
class Plan:
    spec: FaceSpec
    frame: Frame
    shape: Shape
    placed: list[Placed] = field(default_factory=list)
    misfits: list[Misfit] = field(default_factory=list)

    def get(self, type_: str) -> Placed | None:
        return next((p for p in self.placed if p.el.type == type_), None)


def turned(rect: Rect, frame: Frame) -> Rect:
    """A rectangle turned half round about the face's centre."""
    w, h = frame.full
    x0, y0, x1, y1 = rect
    return w - x1, h - y1, w - x0, h - y0


def overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def pt_px(pt: float, frame: Frame) -> int:
    return max(1, round(pt * frame.dpi / 72))


def plan_face(spec: FaceSpec, frame: Frame) -> Plan:
    """Every shown element of the face's layout, placed and fitted (no pixels drawn)."""
    layout = spec.lay()
    frame_el = next((e for e in layout.elements if e.type in ("frame", "pattern") and spec.shows(e.name)), None)
    plan = Plan(spec, frame, shape_of(frame_el, frame))
    later = []
    for el in layout.elements:
        if not spec.shows(el.name):
            continue
        planner = PLANNERS.get(el.type)
        p = Placed(el)
        plan.placed.append(p)
        if el.type in ("symbol", "caption"):
            later.append(p)                 # the centre and the caption go where the fixed elements leave room
        elif planner is not None:
            planner(plan, p)
    for p in sorted(later, key=lambda q: q.el.type != "symbol"):
        PLANNERS[p.el.type](plan, p)
    return plan


def _has_area(el: Element, frame: Frame) -> bool:
    """Whether the element's box covers at least a pixel each way (left and right past each other,
    or a negative height, leave it none)."""
    x0, y0, x1, y1 = el.box.resolve(frame)
    return x1 - x0 >= 1 and y1 - y0 >= 1


def _obstacles(plan: Plan, p: Placed) -> list[Rect]:
    """What an element placed late must keep clear of: every other element but the containers."""
    return [rc for q in plan.placed if q is not p and q.el.type not in ("background", "frame", "art")
            for rc in q.rects]


def _clear(plan: Plan, rects: list[Rect], others: list[Rect], margin: float = 0.0) -> bool:
    """Whether ``rects`` stay in the safe zone and ``margin`` px clear of every one of ``others``."""
    l, t, r, b = plan.frame.safe_box
    inside = all(x0 >= l - 1 and y0 >= t - 1 and x1 <= r + 1 and y1 <= b + 1 for x0, y0, x1, y1 in rects)
    grown = [(x0 - margin, y0 - margin, x1 + margin, y1 + margin) for x0, y0, x1, y1 in others]
    return inside and not any(overlaps(a, o) for a in rects for o in grown)


FRAME_RIM = 1.6     # card units: the white border inside the frame, around a wild's colours and the art


def frame_rim(plan: Plan) -> float:
    """The frame's white rim in card units: its layout's ``rim``, else FRAME_RIM (read from the
    frame placed on this face: the shared base drawing's spec carries no layout)."""
    for q in plan.placed:
        if q.el.type == "frame":
            return float(q.el.opt("rim", FRAME_RIM))
    return FRAME_RIM


def _plan_frame(plan: Plan, p: Placed) -> None:
    if p.el.opt("shape", "oval") != "none":
        p.rects.append(plan.shape.rect())


def _plan_art(plan: Plan, p: Placed) -> None:
    spec, frame = plan.spec, plan.frame
    if spec.art is None:
        plan.placed.remove(p)
        return
    place = p.el.opt("place", "frame")
    fit_ = p.el.opt("fit") or spec.art_fit
    if place == "bleed":
        p.data.update(mode="bleed", box=frame.full, fit=fit_)
        return
    if place == "box":
        x0, y0, x1, y1 = p.el.box.resolve(frame)
        size = (max(1, round(x1 - x0)), max(1, round(y1 - y0)))
        if fit_ == "contain":
            w, h = spec.art.size
            k = min(size[0] / w, size[1] / h)
            size = (max(1, int(w * k)), max(1, int(h * k)))
        p.data.update(mode="box", box=size, fit=fit_, centre=((x0 + x1) / 2, (y0 + y1) / 2))
        p.rects.append((x0, y0, x1, y1))
        return
    shape = plan.shape
    rim = frame.unit() * (frame_rim(plan) + (3.0 if spec.oval == "segments" else 0.0))
    if fit_ == "contain":
        w, h = spec.art.size
        size = shape.inscribed(w / h, rim)
    else:
        size = shape.extent(rim)
    p.data.update(mode="frame", box=size, fit=fit_, rim=rim, centre=(shape.cx, shape.cy))


def _box_scale(p: Placed, frame: Frame, w: float, h: float) -> tuple[Rect, float]:
    """The element's box and its size against the default's (w x h units): how much its parts scale."""
    x0, y0, x1, y1 = p.el.box.resolve(frame)
    u = frame.unit()
    return (x0, y0, x1, y1), round(min((x1 - x0) / (u * w), (y1 - y0) / (u * h)), 6)


def _plan_index(plan: Plan, p: Placed) -> None:
    """The corner index: the number (or symbol, or the kind's icon) with the shape cue and marks below."""
    spec, frame = plan.spec, plan.frame
    (l, t, r, b), k = _box_scale(p, frame, 20, 17)
    u = frame.unit() * k
    em = spec.index
    light = spec.index_ink == WHITE
    stroke = max(1, int(u * 0.9)) if light else 0
    box_w, box_h = int(r - l), int(b - t)
    cx = l + box_w / 2 + u
    d = p.data
    if em.text:
        f, _ = fit(font_file(spec, p.el.font), em.text, box_w, box_h - (int(u * 2) if em.underline else 0), 0.05)
        bl_, bt_, br_, bb_ = ink_box(f, em.text, stroke)
        pad = u * 0.8 + 1
        x, y = l + pad + (br_ - bl_) / 2, t + pad + (bb_ - bt_) / 2
        d.update(mode="text", font=f, at=(x, y), stroke=stroke)
        ix0, iy0 = round(x - (bl_ + br_) / 2), round(y - (bt_ + bb_) / 2)
        rect: Rect = (ix0 + bl_, iy0 + bt_, ix0 + br_, iy0 + bb_)
        bottom: float = rect[3] + (int(u * 3) if em.underline else 0)
        cx = (rect[0] + rect[2]) / 2
        p.text = True
        if f.size <= 6 and (br_ - bl_ > box_w or bb_ - bt_ > box_h):
            plan.misfits.append(Misfit(p.el.name, f"'{em.text}' does not fit its {box_w}x{box_h} px box "
                                                  "even at 6 px"))
    elif spec.icon is not None or em.symbol:
        size = min(box_w, box_h)
        x0, y0 = l + u * 0.5, t + u * 0.5
        d.update(mode="icon" if spec.icon is not None else "symbol", size=size, at=(x0, y0))
        rect = (x0, y0, x0 + size + (u * 0.8 if light else 0), y0 + size + (u * 0.8 if light else 0))
        bottom = t + size + u
    else:
        rect = (l, t, l, t)
        bottom = t
    p.rects.append(rect)
    cues = ([spec.shape] if spec.shape else []) + list(spec.marks) if p.el.opt("cues", True) else []
    cx = max(cx, l + u * 5.5 + 2)           # a narrow index ("1") must not push the cue out of the safe box
    size = int(u * 9)
    y = bottom + u * 2.5
    d["cues"] = [(cue, size, cx, y + size / 2 + i * (size + u * 2), i == 0 and spec.shape is not None)
                 for i, cue in enumerate(cues)]
    for _, sz, ccx, ccy, _ in d["cues"]:
        p.rects.append((ccx - sz / 2, ccy - sz / 2, ccx + sz / 2 + u * 0.6, ccy + sz / 2 + u * 0.6))
    d["u"] = u
    d["light"] = light
    p.twin(frame)


def _plan_flex(plan: Plan, p: Placed) -> None:
    spec, frame = plan.spec, plan.frame
    if spec.flex is None:
        plan.placed.remove(p)
        return
    fb = spec.flex
    (x0, y0, x1, y1), k = _box_scale(p, frame, 40, 21)
    u = frame.unit() * k
    bw, bh = int(x1 - x0), int(y1 - y0)
    x1 -= 1
    x0, y1 = x1 - bw, y0 + bh
    f, _ = fit(font_file(spec, "text"), fb.label, int(u * 16), int(u * 4.2))
    lx, ly = (x0 + x1) / 2, y1 + u * 3.6
    lw = ink_box(f, fb.label)[2] + u * 3
    # the badge's inside: its emblem's text, symbol (or the flex kind's icon) and shape cue side by side
    inner = (x0 + u * 2.2, y0 + u * 2.2, x1 - u * 2.2, y1 - u * 2.2)
    iw, ih = inner[2] - inner[0], inner[3] - inner[1]
    em = fb.emblem
    kinds = [q for q in (em.text and "text", (em.symbol or fb.icon) and "symbol", fb.shape and "shape") if q]
    slot = iw / max(1, len(kinds))
    parts: list[tuple[str, float, float, Any]] = []
    for i, part in enumerate(kinds):
        cx = inner[0] + slot * (i + 0.5)
        cy = inner[1] + ih / 2 - (u * 0.6 if fb.color is None else 0)
        if part == "text":
            size: Any = fit(font_file(spec, "display"), em.text, int(slot - u * 2),
                            int(ih - u * (5 if em.underline else 3)), 0.05)[0]
        else:
            size = int(min(slot - u * 2, ih - u * 3.5))
        parts.append((part, cx, cy, size))
    p.data.update(box=(x0, y0, x1, y1), u=u, label=(f, lx, ly, lw), inner=inner, parts=parts)
    p.rects.extend([(x0, y0, x1, y1), (lx - lw / 2, ly - u * 3, lx + lw / 2, ly + u * 3)])
    p.twin(frame)


def _plan_symbol(plan: Plan, p: Placed) -> None:
    """The big centre emblem at the largest scale (down to half its box) at which it keeps clear of
    the corners, the badges and the safe zone's edge."""
    (bx0, by0, bx1, by1), k = _box_scale(p, plan.frame, 64, 60)
    others = _obstacles(plan, p)
    if plan.spec.caption:                       # a caption in its own box keeps that box
        others += [q.el.box.resolve(plan.frame) for q in plan.placed
                   if q.el.type == "caption" and q.el.opt("place", "frame") == "box"]
    scale = 1.0
    while True:
        p.rects, p.data = [], {}
        _place_symbol(plan, p, k * scale, ((bx0 + bx1) / 2, (by0 + by1) / 2))
        if _clear(plan, p.rects, others):
            return
        if scale <= 0.5:
            plan.misfits.append(Misfit(p.el.name, "overlaps another element or leaves the safe zone even at half "
                                                  "its size"))
            return
        scale = max(0.5, round(scale - 0.05, 2))


def _place_symbol(plan: Plan, p: Placed, k: float, centre: tuple[float, float]) -> None:
    """The big centre emblem: the number or label, the symbols above it, the card's marks."""
    spec, frame = plan.spec, plan.frame
    u = frame.unit() * k
    cx0, cy0 = centre
    axis = Shape("oval", cx0, cy0, 1, 1, float(p.el.opt("tilt", TILT)))
    em = spec.centre
    # the kind's icon stands for its symbol in the centre, unless the kind says symbol = "none"
    symbol = "icon" if spec.icon is not None and "no-symbol" not in spec.tags else em.symbol
    on_frame = spec.shows("frame") and plan.shape.kind != "none"
    if not symbol and not em.text and spec.oval == "segments" and not on_frame and "no-symbol" not in spec.tags:
        symbol = "wheel"        # a plain wild's look is its oval of colours: without a frame, the colour wheel
    ink = spec.ink if on_frame else spec.index_ink
    d = p.data
    d.update(u=u, ink=ink, halo=int(u * float(p.el.opt("halo", HALO))) if spec.art is not None else 0, items=[])
    if em.text:
        ty = 0.0 if not symbol else -u * 9
        max_h = int(u * (60 if not symbol else 42))
        max_w = int(u * (50 if len(em.text) <= 2 else 64))
        f, _ = fit(font_file(spec, p.el.font), em.text, max_w, max_h)
        cx, cy = axis.along(ty)
        stroke = max(2, int(u * 1.1))
        d["items"].append(("text", em.text, f, cx, cy, stroke))
        l_, t_, r_, b_ = ink_box(f, em.text, stroke)
        x, y = round(cx - (l_ + r_) / 2), round(cy - (t_ + b_) / 2)
        p.rects.append((x + l_, y + t_, x + r_, y + b_))
        p.text = True
        tops = [name for name in (symbol, em.extra) if name]
        sx, sy = axis.along(u * 35)
        size = int(u * (26 if len(tops) == 1 else 21))
        for i, name in enumerate(tops):          # small symbols above the text, side by side
            dx = 0 if len(tops) == 1 else (i - 0.5) * u * 24
            d["items"].append(("symbol", name, size, sx + dx, sy, 0.6))
            p.rects.extend(_symbol_rects(spec, name, size, sx + dx, sy))
    elif symbol:
        size = int(u * (70 if symbol == "wheel" else 60))
        d["items"].append(("symbol", symbol, size, cx0, cy0, 1.0))
        p.rects.extend(_symbol_rects(spec, symbol, size, cx0, cy0))
    for i, mark in enumerate(spec.marks):       # flip-icon and duel numbers: the mark, large, in the oval
        mx, my = axis.along(u * 44)
        mx += (i - (len(spec.marks) - 1) / 2) * u * 22
        d["items"].append(("mark", mark, int(u * 20), mx, my, 0.5))
        p.rects.append((mx - u * 10, my - u * 10, mx + u * 10, my + u * 10))


def _symbol_rects(spec: FaceSpec, name: str, size: int, cx: float, cy: float) -> list[Rect]:
    """Where a centred symbol's ink is: its mask's bounds (the kind's icon: its picture's); the
    round wheel as two crossed bands, so what sits beside its curve is not counted as on it."""
    if name == "wheel":
        w = int(size * 0.84)
        wy = cy - size / 2 + w * 0.69
        a, c = w * 0.43, w * 0.31
        return [(cx - a, wy - c, cx + a, wy + c), (cx - c, wy - a, cx + c, wy + a),
                (cx - w * 0.13, cy - size / 2, cx + w * 0.13, wy)]           # the pointer
    if name == "icon" and spec.icon is not None:
        pic = icon_picture(spec, spec.icon, size)
        b = pic.getchannel("A").getbbox() or (0, 0, 0, 0)
        ox, oy = round(cx - pic.width / 2), round(cy - pic.height / 2)
    else:
        b = _mask_bbox(name, max(4, int(size)))
        ox, oy = round(cx - max(4, int(size)) / 2), round(cy - max(4, int(size)) / 2)
    return [(ox + b[0], oy + b[1], ox + b[2], oy + b[3])]


@functools.lru_cache(maxsize=256)
def _mask_bbox(name: str, size: int) -> tuple[int, int, int, int]:
    return symbol_mask(name, size).getbbox() or (0, 0, 0, 0)


def rules_box(plan: Plan, p: Placed) -> Rect:
    """The rules panel's box: its layout box, raised above what it must avoid (the turned Flex badge)."""
    x0, y0, x1, y1 = p.el.box.resolve(plan.frame)
    gap = plan.frame.unit() * float(p.el.opt("gap", 3.0))
    for other in plan.placed:
        if other.el.type in p.el.opt("avoid", ()) or other.el.name in p.el.opt("avoid", ()):
            for rc in other.rects:
                if overlaps(rc, (x0, y0, x1, y1)) or (rc[1] >= y0 - gap and rc[1] < y1 and rc[0] < x1 and x0 < rc[2]):
                    shift = y1 - (rc[1] - gap)
                    y0, y1 = y0 - shift, y1 - shift
    return x0, y0, x1, y1


def _plan_rules(plan: Plan, p: Placed) -> None:
    spec, frame = plan.spec, plan.frame
    if not spec.rules:
        plan.placed.remove(p)
        return
    area = rules_box(plan, p)
    lo, hi = p.el.size or (RULES_MIN_PT, RULES_MAX_PT)
    px, lines, fits = rules_layout(spec, p.el.font, frame, area, (lo, hi))
    u = frame.unit()
    pad = u * 2.0
    lh = px * RULES_LEADING
    x0, _, x1, y1 = area
    y0 = y1 - len(lines) * lh - 2 * pad
    p.data.update(px=px, lines=lines, box=(x0, y0, x1, y1), pad=pad, lh=lh, panel=p.el.opt("panel", True))
    p.rects.append((x0, y0, x1, y1))
    p.text = True
    if not fits:
        plan.misfits.append(Misfit(p.el.name, f"does not fit at {lo:g} pt or more, so it is cut"))


HALO = 2.2                  # the white halo around the centre number or symbol on art, in card units (`halo`)
CAPTION_LINE_CHARS = 14     # a caption longer than this breaks into lines (as many as its layout's `lines`)


def caption_lines(caption: str, most: int) -> list[str]:
    """A caption's lines: balanced, at most ``most`` of them, as few as keep each within
    CAPTION_LINE_CHARS characters."""
    return split_lines(caption, CAPTION_LINE_CHARS, most)


def _plan_caption(plan: Plan, p: Placed) -> None:
    """The kind's name: low in the frame (or in its own box), one size for every line, shrunk
    until it clears every other element."""
    spec, frame = plan.spec, plan.frame
    if not spec.caption:
        plan.placed.remove(p)
        return
    u = frame.unit()
    font = font_file(spec, p.el.font)
    lines = caption_lines(spec.caption, int(p.el.opt("lines", 2)))
    lo_pt = (p.el.size or (4.0, 12.0))[0]
    others = _obstacles(plan, p)
    in_frame = p.el.opt("place", "frame") == "frame" and plan.shape.kind != "none"
    if in_frame:
        # low in the oval; above a rules panel; on a Flex card with a rules panel, high in the oval.
        # Where that meets another element (a turned badge on a wide card), the next place that is
        # clear: a little higher, then high in the oval.
        rules = spec.rules and spec.shows("rules")
        first = u * 40 if spec.flex and rules else -u * (37 if spec.flex else 36 if rules else 43)
        tries = [first] + ([first + u * 6, first + u * 12, u * 40, u * 46] if first < 0 else [u * 46, u * 34])
        gap = u * 1.5                         # a caption reads as its own line, not run into a badge
        first_try = _frame_caption(plan, font, lines, tries[0])
        f, centres, stroke = first_try
        for t in tries:                       # tried one by one: most captions fit where they first go
            c = first_try if t == tries[0] else _frame_caption(plan, font, lines, t)
            if _clear(plan, _caption_rects(c, lines), others, gap):
                f, centres, stroke = c
                break
    else:
        x0, y0, x1, y1 = p.el.box.resolve(frame)
        line_h = (y1 - y0) / (len(lines) * 1.35)
        f = min((fit(font, line, int(x1 - x0), int(line_h))[0] for line in lines), key=lambda ft: ft.size)
        ys = [(y0 + y1) / 2 + (i - (len(lines) - 1) / 2) * line_h * 1.35 for i in range(len(lines))]
        align = p.el.align
        centres = []
        for line, y in zip(lines, ys):
            w = _width(f, line)
            cx = x0 + w / 2 if align == "left" else x1 - w / 2 if align == "right" else (x0 + x1) / 2
            centres.append((cx, y))
        stroke = max(1, int(u * 1.0))
    floor_px = pt_px(lo_pt, frame)
    start_px = int(f.size)
    while True:
        rects = [_text_rect(f, line, cx, cy, stroke) for line, (cx, cy) in zip(lines, centres)]
        hit = [rc for rc in rects if any(overlaps(rc, o) for o in others)]
        if not hit or f.size <= max(4, floor_px):
            break
        f = _font(font, f.size - 1)
    if hit and in_frame:                    # a last place: between the centre and a badge, smaller
        smallest = max(floor_px, pt_px(SQUEEZE_MIN_PT, frame), SQUEEZE_MIN_PX)
        squeezed = _squeezed_caption(plan, font, lines, others, (smallest, start_px), tries[0])
        if squeezed is not None:
            f, centres, stroke = squeezed
            rects, hit = _caption_rects(squeezed, lines), []
    if hit:
        what = next(q.el.name for q in plan.placed if q is not p and q.el.type not in ("background", "frame", "art")
                    and any(overlaps(rc, o) for rc in hit for o in q.rects))
        plan.misfits.append(Misfit(p.el.name, f"'{spec.caption}' would overlap the {what} even at {f.size} px "
                                              f"({lo_pt:g} pt, the smallest its layout allows), so it is left out"))
        plan.placed.remove(p)               # never drawn over another element
        return
    p.data.update(font=f, lines=list(zip(lines, centres)), stroke=stroke)
    p.rects.extend(rects)
    p.text = True


SQUEEZE_MIN_PT = 6.0     # a caption moved off its places along the frame is never smaller than this (the
SQUEEZE_MIN_PX = 12      # rules text's floor) nor than this many pixels, below which no text reads on screen


def _squeezed_caption(plan: Plan, font: str, lines: list[str], others: list[Rect], sizes: tuple[int, int],
                      near: float) -> CaptionFit | None:
    """Where a frame caption goes when every place tried meets another element (a narrow oval
    between two Flex badges): the largest size from ``sizes`` (smallest, largest px) down, at
    any point along the frame's axis (the nearest to ``near`` first), that stays inside the
    frame and the safe zone and 1.5 u clear of every other element; None if there is none."""
    u = plan.frame.unit()
    shape = plan.shape
    stroke = max(1, int(u * 1.0))
    offsets = sorted((k * u / 2 for k in range(-100, 101)), key=lambda t: (abs(t - near), t))
    for px in range(sizes[1], sizes[0] - 1, -1):
        f = _font(font, px)
        step = px * 1.15
        for t in offsets:
            _, cy = shape.along(t)
            centres = []
            for i, line in enumerate(lines):
                y = cy + (i - (len(lines) - 1) / 2) * step
                x0, x1 = shape.chord(max(y - shape.cy - px / 2, y - shape.cy + px / 2, key=abs))
                if _width(f, line) + 2 * stroke + u * 2 > x1 - x0:
                    break
                centres.append(((x0 + x1) / 2, y))
            else:
                placed = (f, centres, stroke)
                if _clear(plan, _caption_rects(placed, lines), others, u * 1.5):
                    return placed
    return None


def _frame_caption(plan: Plan, font: str, lines: list[str], offset: float) -> CaptionFit:
    """(font, line centres, stroke) of a caption ``offset`` px along the frame's axis, each line
    kept inside the frame at one size for every line."""
    u = plan.frame.unit()
    shape = plan.shape
    line_h = u * 5.2
    _, cy = shape.along(offset)
    ys = [cy + (i - (len(lines) - 1) / 2) * line_h * 1.35 for i in range(len(lines))]
    chords = [shape.chord(max(y - shape.cy - line_h, y - shape.cy + line_h, key=abs)) for y in ys]
    fonts = [fit(font, line, int(x1 - x0 - u * 7), int(line_h))[0] for line, (x0, x1) in zip(lines, chords)]
    f = min(fonts, key=lambda ft: ft.size)
    stroke = max(1, int(u * 1.0))
    if any(_width(f, line) + 2 * stroke > x1 - x0 for line, (x0, x1) in zip(lines, chords)):
        # on a tiny face even the smallest readable size leaves the oval: smaller still, to stay in it
        f = min((fit(font, line, int(x1 - x0 - 2 * stroke), int(line_h), floor=0)[0]
                 for line, (x0, x1) in zip(lines, chords)), key=lambda ft: ft.size)
    return f, [((x0 + x1) / 2, y) for (x0, x1), y in zip(chords, ys)], stroke


def _caption_rects(placed: CaptionFit, lines: list[str]) -> list[Rect]:
    f, centres, stroke = placed
    return [_text_rect(f, line, cx, cy, stroke) for line, (cx, cy) in zip(lines, centres)]


def _width(f: Font, text: str) -> float:
    l_, _, r_, _ = ink_box(f, text)
    return r_ - l_


def _text_rect(f: Font, text: str, cx: float, cy: float, stroke: int) -> Rect:
    l_, t_, r_, b_ = ink_box(f, text, stroke)
    x, y = round(cx - (l_ + r_) / 2), round(cy - (t_ + b_) / 2)
    return x + l_, y + t_, x + r_, y + b_


def _plan_icons(plan: Plan, p: Placed) -> None:
    """A row of small icons in the box: the colour's shape cue, then the kind's symbol or icon."""
    spec, frame = plan.spec, plan.frame
    x0, y0, x1, y1 = p.el.box.resolve(frame)
    size = int(min(y1 - y0, x1 - x0))
    items = [(n, True) for n in ([spec.shape] if spec.shape else [])]
    sym = spec.centre.symbol or spec.index.symbol
    if spec.icon is not None:
        items.append(("icon", False))
    elif sym and sym != "wheel":
        items.append((sym, False))
    gap = frame.unit() * 2
    cx = x0 + size / 2 if p.el.align != "right" else x1 - size / 2 - (len(items) - 1) * (size + gap)
    at = []
    for i, (name, is_shape) in enumerate(items):
        x = cx + i * (size + gap)
        at.append((name, is_shape, x, (y0 + y1) / 2))
        p.rects.append((x - size / 2, y0, x + size / 2, y0 + size))
    p.data.update(items=at, size=size)
    p.twin(frame)


def _plan_logo(plan: Plan, p: Placed) -> None:
    spec, frame = plan.spec, plan.frame
    if spec.logo is None:
        plan.placed.remove(p)
        return
    w, h = spec.logo.size
    if p.el.box != p.el.box.__class__():
        x0, y0, x1, y1 = p.el.box.resolve(frame)
        k = min((x1 - x0) / w, (y1 - y0) / h)
        box = (max(1, int(w * k)), max(1, int(h * k)))
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    elif plan.get("pattern") is not None:
        box = plan.shape.inscribed(w / h, frame.unit() * 4.0)
        centre = (plan.shape.cx, plan.shape.cy)
    else:                                   # over a back image: 70 % of the card's width
        side = frame.trim[0] * 0.7
        box = (int(side), int(side * h / w)) if w >= h else (int(side * w / h), int(side))
        centre = frame.center
    p.data.update(box=box, centre=centre)
    p.rects.append((centre[0] - box[0] / 2, centre[1] - box[1] / 2, centre[0] + box[0] / 2, centre[1] + box[1] / 2))


def _plan_title(plan: Plan, p: Placed) -> None:
    if not plan.spec.title:
        plan.placed.remove(p)


def _plan_fixed(plan: Plan, p: Placed) -> None:
    """Background, back image, pattern: nothing to fit."""
    if p.el.type == "image" and plan.spec.back_image is None:
        plan.placed.remove(p)
    elif p.el.type == "image":
        # the whole back, bleed included; with a box, that box (the field shows round it)
        x0, y0, x1, y1 = (0.0, 0.0, *map(float, plan.frame.full)) if p.el.box == Box() else p.el.box.resolve(plan.frame)
        p.data.update(at=(round(x0), round(y0)), box=(max(1, round(x1 - x0)), max(1, round(y1 - y0))))
        if p.el.box != Box():
            p.rects.append((x0, y0, x1, y1))
    elif p.el.type == "pattern":
        p.rects.append(plan.shape.rect())


PLANNERS: dict[str, Callable[[Plan, Placed], None]] = {
    "background": _plan_fixed, "frame": _plan_frame, "art": _plan_art, "index": _plan_index, "flex": _plan_flex,
    "symbol": _plan_symbol, "caption": _plan_caption, "rules": _plan_rules, "icons": _plan_icons,
    "image": _plan_fixed, "pattern": _plan_fixed, "logo": _plan_logo, "title": _plan_title,
}


def placements(spec: FaceSpec, frame: Frame, plan: Plan | None = None) -> list[tuple[ImageRef, tuple[int, int], str]]:
    """Every image a face shows with the pixel box it fills and how (for the resolution check)."""
    plan = plan or plan_face(spec, frame)
    out = []
    for p in plan.placed:
        if p.el.type == "image" and spec.back_image is not None:
            out.append((spec.back_image, p.data["box"], "cover"))
        elif p.el.type == "logo" and spec.logo is not None:
            out.append((spec.logo, p.data["box"], "contain"))
        elif p.el.type == "art" and spec.art is not None:
            out.append((spec.art, p.data["box"], p.data["fit"]))
        elif p.el.type == "symbol" and spec.icon is not None:
            sizes = [it[2] for it in p.data["items"] if it[0] == "symbol" and it[1] == "icon"]
            if sizes:
                out.append((spec.icon, (max(sizes), max(sizes)), "contain"))
    return out


@dataclass(frozen=True)
class Token:
    """One word of a rules text in one style (0 regular, 1 bold, 2 italic, 3 both), or an icon."""

    text: str
    style: int = 0
    icon: str | None = None
    width: float = 0.0
    space: bool = True             # a space before it (not at a line's start)


ITALIC_SLANT = 0.2      # italic words: the upright font sheared by this much (x += slant * height)


def style_font(spec: FaceSpec, role: str, style: int, px: int) -> Font:
    """The font of a style: bold words in the deck's bold font (``fonts.toml``'s ``bold``; without
    one, the display font, the heavier cut of the card's lettering), the others in the element's
    font; italic is that font slanted when drawn."""
    return _font(font_file(spec, "bold" if style & 1 else role), px)


@functools.lru_cache(maxsize=256)
def _font(path: str, px: int) -> Font:
    """A font file at a pixel size, loaded once per process (planning asks for the same ones often)."""
    return pil_font(path, px)


def draw_word(img: Image.Image, d: ImageDraw.ImageDraw, text: str, f: Font, at: tuple[float, float], ink: RGB,
              italic: bool) -> None:
    """A word with its left edge at x, centred on cy (``at``); slanted when italic."""
    x, cy = at
    if not italic:
        d.text((x, cy), text, font=f, fill=ink, anchor="lm")
        return
    l, t, r, b = f.getbbox(text, anchor="lm")
    h = b - t
    extra = int(abs(ITALIC_SLANT) * h) + 2
    mask = Image.new("L", (int(r - l + extra + 2), int(h + 2)), 0)
    ImageDraw.Draw(mask).text((1 - l + extra // 2, 1 - t), text, font=f, fill=255, anchor="lm")
    # x' = x + slant * (y - centre): the top leans right
    sheared = mask.transform(mask.size, Image.Transform.AFFINE,
                             (1, ITALIC_SLANT, -ITALIC_SLANT * mask.height / 2, 0, 1, 0), Image.Resampling.BICUBIC)
    paint(img, tuple(ink), (round(x + l - 1 - extra // 2), round(cy + t - 1)), sheared)


def tokens(spec: FaceSpec, text: str, role: str, px: int) -> list[list[Token]]:
    """The rules text as paragraphs of measured tokens (inline markup read by
    :func:`deckgen.rulebook.markup.runs`); a token has a space before it when the text has one."""
    from deckgen.rulebook.markup import runs

    icons = dict(spec.rules_icons)
    paras: list[list[Token]] = [[]]
    gap = False
    for run in runs(text):
        style = (1 if run.bold else 0) + (2 if run.italic else 0)
        f = style_font(spec, role, style, px)
        if run.icon is not None:
            icon = icons.get(run.icon, ("text", run.icon))
            width = f.getlength(str(icon[1])) if icon[0] in ("text", "unknown") else px * 1.05
            paras[-1].append(Token(run.icon, style, run.icon, width, gap and bool(paras[-1])))
            gap = False
            continue
        for i, part in enumerate(run.text.split("\n")):
            if i:
                paras.append([])
                gap = False
            gap = gap or part[:1].isspace()
            words = part.split()
            for j, word in enumerate(words):
                paras[-1].append(Token(word, style, None, f.getlength(word), (gap or j > 0) and bool(paras[-1])))
            if words:
                gap = part[-1:].isspace()
            else:
                gap = gap or bool(part)
    return paras


def wrap_tokens(paras: list[list[Token]], space_w: float, width: float) -> tuple[list[list[Token]], bool]:
    """Greedy word wrap; ``ok`` is False when a single word is wider than ``width``."""
    lines: list[list[Token]] = []
    ok = True
    for para in paras:
        line: list[Token] = []
        w = 0.0
        for tok in para:
            add = tok.width + (space_w if line and tok.space else 0.0)
            if line and w + add > width:
                lines.append(line)
                line, w = [replace(tok, space=False)], tok.width
            else:
                line.append(tok if line else replace(tok, space=False))
                w += add if len(line) > 1 else tok.width
            ok &= tok.width <= width
        lines.append(line)
    return lines, ok


def line_width(line: list[Token], space_w: float) -> float:
    return sum(t.width + (space_w if t.space else 0.0) for t in line)


def rules_layout(spec: FaceSpec, role: str, frame: Frame, area: Rect,
                 size: tuple[float, float] = (RULES_MIN_PT, RULES_MAX_PT)) -> tuple[int, list[list[Token]], bool]:
    """(font px, lines, fits): the largest size from ``size``'s largest down to its smallest at which
    the rules text fits ``area``; when even the smallest does not fit, that size with the lines that
    fit (the last one cut)."""
    x0, y0, x1, y1 = area
    pad = frame.unit() * 2.0
    avail_w, avail_h = x1 - x0 - 2 * pad, y1 - y0 - 2 * pad
    lo, pt = size
    while True:
        px = max(4, round(pt * frame.dpi / 72))
        space_w = style_font(spec, role, 0, px).getlength(" ")
        lines, ok = wrap_tokens(tokens(spec, spec.rules, role, px), space_w, avail_w)
        if ok and len(lines) * px * RULES_LEADING <= avail_h:
            return px, lines, True
        if pt <= lo:
            keep = max(1, int(avail_h // (px * RULES_LEADING)))
            if len(lines) > keep:
                last = lines[keep - 1]
                while last and line_width(last, space_w) + px > avail_w:
                    last = last[:-1]
                lines = [*lines[:keep - 1], [*last, Token("…", 0, None, px * 0.8, False)]]
            return px, lines, False
        pt = max(lo, pt - 0.5)


# ---------------------------------------------------------------- drawing a plan

def draw_symbol(img: Image.Image, name: str, spot: Spot, ink: RGB, shadow: float,
                segments: tuple[RGB, ...] = ()) -> None:
    size, cx, cy = spot.size, spot.cx, spot.cy
    if name == "wheel":
        draw_wheel(img, size, cx, cy, segments)
        return
    mask = symbol_mask(name, max(4, int(size)))
    if shadow:
        paste_mask(img, DARK, mask, cx + shadow, cy + shadow)
    paste_mask(img, ink, mask, cx, cy)


def draw_wheel(img: Image.Image, size: int, cx: float, cy: float, segments: Sequence[RGB]) -> None:
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
    # the pointer: white on a dark outline, so it shows on the white oval and on a wild's dark field
    # alike (drawn dark only, it was a faint dark triangle above the wheel on the corner indices)
    outline = symbol_mask("triangle", int(size * 0.30), True).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    pointer = symbol_mask("triangle", int(size * 0.20), True).transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    paste_mask(img, DARK, outline, cx, top + size * 0.13)
    paste_mask(img, WHITE, pointer, cx, top + size * 0.12)


@functools.lru_cache(maxsize=16)
def _wheel_segments(w: int, n: int) -> tuple[Image.Image, ...]:
    circ = symbol_mask("circle", w, True)
    return tuple(ImageChops.multiply(circ, wedge_mask(w, w, n, i, -90 - 180.0 / n)) for i in range(n))


def _grown(mask: Image.Image, by: int) -> Image.Image:
    """A mask grown by ``by`` px on every side (for halos)."""
    grown = Image.new("L", (mask.width + 2 * by, mask.height + 2 * by), 0)
    grown.paste(mask, (by, by))
    return grown.filter(ImageFilter.GaussianBlur(by / 2)).point(_HALO_LUT)


_HALO_LUT = [min(255, v * 10) for v in range(256)]


def _draw_symbol_el(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec = plan.spec
    u, ink, halo = p.data["u"], p.data["ink"], p.data["halo"]
    sh = u * 1.6
    for item in p.data["items"]:
        if item[0] == "text":
            _, text, f, cx, cy, stroke = item
            if halo:
                draw_text(img, text, f, (cx, cy), TextStyle(WHITE, stroke + halo, WHITE, 0, spec.centre.underline))
            draw_text(img, text, f, (cx, cy), TextStyle(ink, stroke, DARK, sh, spec.centre.underline))
        elif item[0] == "symbol":
            _, name, size, cx, cy, shadow = item
            _centre_symbol(img, spec, name, Spot(cx, cy, size), ink, sh * shadow, halo)
        else:
            _, mark, size, cx, cy, shadow = item
            draw_symbol(img, mark, Spot(cx, cy, size), ink, sh * shadow)


def _centre_symbol(img: Image.Image, spec: FaceSpec, name: str, spot: Spot, ink: RGB, shadow: float,
                   halo: int) -> None:
    """A symbol (or the kind's icon) in the centre, with a white halo when it sits on art."""
    size, cx, cy = spot.size, spot.cx, spot.cy
    if name == "icon" and spec.icon is not None:
        pic = icon_picture(spec, spec.icon, size)
        if halo:
            paste_mask(img, WHITE, _grown(pic.getchannel("A"), halo), cx, cy)
        paste_picture(img, pic, cx, cy, shadow * 0.6)
        return
    if halo and name != "wheel":
        paste_mask(img, WHITE, _grown(symbol_mask(name, max(4, int(size))), halo), cx, cy)
    draw_symbol(img, name, spot, ink, shadow, spec.segments)


def _draw_art(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec = plan.spec
    assert spec.art is not None
    mode, box, fit_ = p.data["mode"], p.data["box"], p.data["fit"]
    pic = picture(spec.art, box, fit_, image_fonts(spec))
    if mode == "bleed":
        img.paste(pic.convert("RGB"), (0, 0), pic.getchannel("A"))
        return
    cx, cy = p.data["centre"]
    if mode == "box" or fit_ == "contain":
        paste_picture(img, pic, cx, cy)
        return
    mask = plan.shape.mask(p.data["rim"])
    if pic.size != mask.size:              # the box is the mask's size; guard against rounding
        pic = pic.resize(mask.size, Image.Resampling.BILINEAR)
    alpha = ImageChops.multiply(mask, pic.getchannel("A"))
    img.paste(pic.convert("RGB"), (round(cx - mask.width / 2), round(cy - mask.height / 2)), alpha)


def _draw_rules(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    """The rules text: on a white panel (or straight on the face), dark text centred."""
    spec, frame = plan.spec, plan.frame
    u = frame.unit()
    f = _font(font_file(spec, p.el.font), p.data["px"])
    x0, y0, x1, y1 = p.data["box"]
    ink = DARK
    if p.data["panel"]:
        d.rounded_rectangle([x0, y0, x1, y1], radius=int(u * 3), fill=WHITE, outline=DARK, width=max(1, int(u * 0.6)))
    else:
        ink = spec.index_ink
    pad, lh, px = p.data["pad"], p.data["lh"], p.data["px"]
    space_w = f.getlength(" ")
    icons = dict(spec.rules_icons)
    for i, line in enumerate(p.data["lines"]):
        cy = y0 + pad + lh * (i + 0.5)
        w = line_width(line, space_w)
        x = x0 + pad if p.el.align == "left" else x1 - pad - w if p.el.align == "right" else (x0 + x1 - w) / 2
        for tok in line:
            x += space_w if tok.space else 0.0
            if tok.icon is not None:
                draw_inline_icon(img, d, spec, icons.get(tok.icon, ("text", tok.icon)),
                                 Spot(x + tok.width / 2, cy, int(px * 0.95)), ink, f)
            else:
                draw_word(img, d, tok.text, style_font(spec, p.el.font, tok.style, px), (x, cy), ink, bool(tok.style & 2))
            x += tok.width


def draw_inline_icon(img: Image.Image, d: ImageDraw.ImageDraw, spec: FaceSpec, icon: InlineIcon, spot: Spot, ink: RGB,
                     f: Font) -> None:
    """An icon in a line of rules text: a colour's chip, a kind's icon, a symbol, or a word."""
    cx, cy = spot.cx, spot.cy
    size = max(4, spot.size)
    if icon[0] == "color":
        _, rgb, shape = icon
        rim = symbol_mask(shape or "circle", size, True)
        paste_mask(img, DARK, rim, cx, cy)
        paste_mask(img, rgb, symbol_mask(shape or "circle", max(2, size - 2 * max(1, size // 8)), True), cx, cy)
    elif icon[0] == "image":
        draw_icon(img, spec, icon[1], size, cx, cy)
    elif icon[0] == "symbol":
        paste_mask(img, ink, symbol_mask(icon[1], size), cx, cy)
    else:
        d.text((cx, cy), str(icon[1]), font=f, fill=ink, anchor="mm")


def _draw_logo(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec = plan.spec
    assert spec.logo is not None
    pic = picture(spec.logo, p.data["box"], "contain", image_fonts(spec))
    paste_picture(img, pic, *p.data["centre"])


def _draw_frame(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec, shape = plan.spec, plan.shape
    if shape.kind == "none":
        return
    u = plan.frame.unit()
    if spec.oval == "segments":
        border = u * frame_rim(plan)
        paste_mask(img, WHITE, shape.mask(), shape.cx, shape.cy)
        for color, m in zip(spec.segments, segment_masks(shape, border, len(spec.segments), -90 - shape.tilt)):
            paste_mask(img, color, m, shape.cx, shape.cy)
    elif spec.oval == "white":
        paste_mask(img, WHITE, shape.mask(), shape.cx, shape.cy)


def _draw_pattern(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    """The back's oval: the palette's first colour with a white rim."""
    spec, shape = plan.spec, plan.shape
    if not spec.segments:
        return
    rim = plan.frame.unit() * float(p.el.opt("rim", 1.6))
    paste_mask(img, WHITE, shape.mask(), shape.cx, shape.cy)
    paste_mask(img, spec.segments[0], shape.mask(rim), shape.cx, shape.cy)


def _draw_index(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec = plan.spec
    data = p.data
    u, light = data["u"], data["light"]
    ink = spec.index_ink
    sh = u * 0.8 if light else 0
    em = spec.index
    mode = data.get("mode")
    if mode == "text":
        x, y = data["at"]
        draw_text(img, em.text, data["font"], (x, y), TextStyle(ink, data["stroke"], DARK, sh, em.underline))
    elif mode == "icon":                         # the kind's own icon on a white chip: its colours stay readable
        size = data["size"]
        x0, y0 = data["at"]
        if sh:
            d.rounded_rectangle([x0 + sh, y0 + sh, x0 + size + sh, y0 + size + sh], radius=int(u * 4), fill=DARK)
        d.rounded_rectangle([x0, y0, x0 + size, y0 + size], radius=int(u * 4), fill=WHITE, outline=DARK,
                            width=max(1, int(u * 0.6)))
        assert spec.icon is not None
        draw_icon(img, spec, spec.icon, int(size * 0.8), x0 + size / 2, y0 + size / 2)
    elif mode == "symbol":
        size = data["size"]
        x0, y0 = data["at"]
        draw_symbol(img, em.symbol or "wheel", Spot(x0 + size / 2, y0 + size / 2, size), ink, sh, spec.segments)
    for cue, size, cx, cy, is_shape in data["cues"]:
        mask = symbol_mask(cue, size, is_shape)
        if sh:
            paste_mask(img, DARK, mask, cx + sh * 0.7, cy + sh * 0.7)
        paste_mask(img, ink, mask, cx, cy)


def _draw_icons(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec = plan.spec
    size = p.data["size"]
    ink = spec.index_ink
    for name, is_shape, cx, cy in p.data["items"]:
        if name == "icon" and spec.icon is not None:
            draw_icon(img, spec, spec.icon, size, cx, cy)
        else:
            paste_mask(img, ink, symbol_mask(name, max(4, size), is_shape), cx, cy)


def _draw_flex(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    spec = plan.spec
    fb = spec.flex
    assert fb is not None
    u = p.data["u"]
    x0, y0, x1, y1 = p.data["box"]
    d.rounded_rectangle([x0, y0, x1, y1], radius=int(u * 5), fill=DARK)
    d.rounded_rectangle([x0 + u * 0.8, y0 + u * 0.8, x1 - u * 0.8, y1 - u * 0.8], radius=int(u * 4.4), fill=WHITE)
    inner = list(p.data["inner"])
    if fb.color is None:
        d.rounded_rectangle(inner, radius=int(u * 3.4), fill=DARK)
        n = len(spec.segments)
        sw = (inner[2] - inner[0]) / max(1, n)
        for i, c in enumerate(spec.segments):   # a strip of the palette: "any colour"
            d.rectangle([inner[0] + i * sw + u * 3.4 * (i == 0), inner[3] - u * 2.2,
                         inner[0] + (i + 1) * sw - u * 3.4 * (i == n - 1), inner[3] - u * 0.9], fill=c)
    else:
        d.rounded_rectangle(inner, radius=int(u * 3.4), fill=fb.color)
    fill = fb.ink
    light = fill == WHITE
    stroke = max(1, int(u * 0.6)) if light else 0
    em = fb.emblem
    for part, cx, cy, size in p.data["parts"]:
        if part == "text":
            draw_text(img, em.text, size, (cx, cy), TextStyle(fill, stroke, DARK, 0, em.underline))
        elif part == "symbol" and fb.icon is not None:
            draw_icon(img, spec, fb.icon, size, cx, cy)
        else:
            mask = symbol_mask(em.symbol if part == "symbol" else fb.shape, size, part == "shape")
            paste_mask(img, fill, mask, cx, cy)
    f, lx, ly, lw = p.data["label"]
    d.rounded_rectangle([lx - lw / 2, ly - u * 3, lx + lw / 2, ly + u * 3], radius=int(u * 3), fill=DARK)
    draw_text(img, fb.label, f, (lx, ly), TextStyle(WHITE))


def caption_style(plan: Plan, p: Placed) -> TextStyle:
    """How a caption is painted: white on a dark outline over the wild's oval of colours (or when
    its layout says ``outlined``), dark with a white outline over art, dark on the frame (a caption
    in its own box that lies on the frame's white panel too), else in the field's text colour."""
    spec = plan.spec
    style = p.el.opt("style", "auto")
    framed = plan.get("frame") is not None and plan.shape.kind != "none"
    in_box = p.el.opt("place", "frame") == "box" or plan.shape.kind == "none"
    on_frame = framed and (not in_box or any(overlaps(rc, plan.shape.rect()) for rc in p.rects))
    if style == "outlined" or (style == "auto" and spec.oval == "segments" and on_frame):
        return TextStyle(WHITE, max(1, int(plan.frame.unit() * 0.7)), DARK)
    if style == "auto" and spec.art is not None:
        return TextStyle(DARK, p.data["stroke"], WHITE)
    if style == "auto" and in_box and not on_frame:
        return TextStyle(spec.index_ink)
    return TextStyle(DARK)


def _draw_caption(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    f = p.data["font"]
    style = caption_style(plan, p)
    for line, (cx, cy) in p.data["lines"]:
        draw_text(img, line, f, (cx, cy), style)


def _draw_title(img: Image.Image, d: ImageDraw.ImageDraw, plan: Plan, p: Placed) -> None:
    """The card back's deck name, leaning with the oval."""
    spec, frame = plan.spec, plan.frame
    u = frame.unit()
    lines = split_lines(spec.title, 7)
    rx, ry = plan.shape.rx, plan.shape.ry
    tilt = float(p.el.opt("tilt", TILT))
    line_h = int(u * (30 if len(lines) == 1 else 20))
    oval = plan.shape.kind == "oval"
    width = int(rx * 2.3) if oval else int(rx * 1.7)      # along the oval's long axis, or across a panel
    layer = Image.new("L", (int(ry * 2) if oval else int(rx * 2), int(line_h * len(lines) * 1.6)), 0)
    for i, line in enumerate(lines):
        f, _ = fit(font_file(spec, p.el.font), line, width, line_h, 0.0)
        draw_text(layer, line, f, (layer.width / 2, layer.height / 2 + (i - (len(lines) - 1) / 2) * line_h * 1.25),
                  TextStyle(255))
    layer = layer.rotate(90 - tilt, resample=Image.Resampling.BICUBIC, expand=True)
    bbox = layer.getbbox()
    if bbox:
        layer = layer.crop(bbox)
    cx, cy = plan.shape.cx, plan.shape.cy
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
        for dd in range(1, r + 1):
            for s in (dd, -dd):
                out = ImageChops.lighter(out, src.crop((s, 0, w + s, h) if axis == 0 else (0, s, w, h + s)))
    return out


def draw_guide(d: ImageDraw.ImageDraw, frame: Frame) -> None:
    """A thin rounded-corner cutting guide on the trim line (3 mm radius)."""
    bl = frame.bleed
    w, h = frame.full
    d.rounded_rectangle([bl, bl, w - bl - 1, h - bl - 1], radius=frame.px(3.0), outline=GUIDE,
                        width=max(1, frame.px(0.15)))


DRAWERS: dict[str, Drawer] = {
    "frame": _draw_frame, "art": _draw_art, "index": _draw_index, "flex": _draw_flex, "symbol": _draw_symbol_el,
    "caption": _draw_caption, "rules": _draw_rules, "icons": _draw_icons, "pattern": _draw_pattern,
    "logo": _draw_logo, "title": _draw_title,
}
BASE_TYPES = ("background", "frame", "art", "image", "pattern")


def corner_rows(spec: FaceSpec, frame: Frame, plan: Plan | None = None) -> int:
    """How many rows from the top the twin elements (index, Flex badge) may draw on, with room to
    spare: turning only that band of the face for the opposite corner gives the same pixels as
    turning the whole face, at a fraction of the cost."""
    plan = plan or plan_face(spec, frame)
    h = frame.full[1]
    bottom = 0.0
    for p in plan.placed:
        if p.el.twin:
            for rc in p.rects:
                if rc[1] < h / 2:                 # the top copies (the turned ones are below the middle)
                    bottom = max(bottom, rc[3])
    return int(bottom + frame.unit() * 4) + 4


def _base(plan: Plan, n: int) -> Image.Image:
    """The face's first ``n`` elements when they are all base elements (field, frame, art, back image,
    pattern): shared by every face of one colour and art, so drawn once per process."""
    spec = plan.spec
    els = tuple(p.el for p in plan.placed[:n])
    # only what the base elements draw from: the cache key of the drawing
    base = FaceSpec("", spec.field, spec.oval, tuple(spec.segments), WHITE, Emblem(), Emblem(), WHITE,
                    fonts=tuple(spec.fonts), art=spec.art, art_fit=spec.art_fit, back_image=spec.back_image)
    return _base_cached(plan.frame, els, plan.shape, base)


@functools.lru_cache(maxsize=16)
def _base_cached(frame: Frame, els: tuple[Element, ...], shape: Shape, spec: FaceSpec) -> Image.Image:
    back_image = spec.back_image
    plan = Plan(spec, frame, shape)
    img = Image.new("RGB", frame.full, tuple(spec.field))
    d = ImageDraw.Draw(img)
    for el in els:
        p = Placed(el)
        plan.placed.append(p)
        PLANNERS[el.type](plan, p)
        if p not in plan.placed or not _has_area(el, frame):
            continue
        if el.type == "image":
            assert back_image is not None
            pic = picture(back_image, p.data["box"], "cover", image_fonts(spec))
            img.paste(pic.convert("RGB"), p.data["at"], pic.getchannel("A"))
        elif el.type in DRAWERS:
            DRAWERS[el.type](img, d, plan, p)
    return img


def draw_face(spec: FaceSpec, frame: Frame, corner_guide: bool = False, plan: Plan | None = None) -> Image.Image:
    """The face, drawn element by element from its plan."""
    plan = plan or plan_face(spec, frame)
    placed = plan.placed
    n = 0
    while n < len(placed) and placed[n].el.type in BASE_TYPES:
        n += 1
    img = _base(plan, n).copy()
    d = ImageDraw.Draw(img)
    i = n
    while i < len(placed):
        p = placed[i]
        if not _has_area(p.el, frame):          # a box with no area is not drawn (the audit says so)
            i += 1
            continue
        if not p.el.twin:
            if p.el.type in DRAWERS:
                DRAWERS[p.el.type](img, d, plan, p)
            i += 1
            continue
        run = []                               # consecutive twin elements: drawn, then drawn turned
        while i < len(placed) and placed[i].el.twin:
            if _has_area(placed[i].el, frame):
                run.append(placed[i])
            i += 1
        for q in run:
            DRAWERS[q.el.type](img, d, plan, q)
        w, h = img.size
        rows = min(corner_rows(spec, frame, plan), h)
        band = img.crop((0, h - rows, w, h)).transpose(Image.Transpose.ROTATE_180)
        bd = ImageDraw.Draw(band)
        for q in run:
            DRAWERS[q.el.type](band, bd, plan, q)
        img.paste(band.transpose(Image.Transpose.ROTATE_180), (0, h - rows))
    if corner_guide:
        draw_guide(d, frame)
    return img
