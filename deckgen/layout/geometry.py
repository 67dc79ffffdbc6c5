"""Sheet geometry in millimetres, origin at the page's lower-left corner (as in PDF).

:func:`plan_sheet` turns paper, margin, card size, bleed and gap into a grid of card slots
(the block centred on the page), the cut lines, and the crop marks that sit outside the
block on every cut line. With a gap of 0 neighbouring cards share their cut line: each
card image keeps its full bleed but is clipped to its trim on inner edges, so only the outer
edges of the block carry bleed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from deckgen.errors import DeckgenError, error

EPS = 1e-6


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, left: float, right: float, bottom: float, top: float) -> Rect:
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def mirrored_x(self, page_w: float) -> Rect:
        return Rect(page_w - self.right, self.y, self.w, self.h)

    def mirrored_y(self, page_h: float) -> Rect:
        return Rect(self.x, page_h - self.top, self.w, self.h)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True)
class MarkStyle:
    """Crop marks: length, stroke width and the distance kept from the block's bleed edge."""

    length_mm: float = 5.0
    stroke_mm: float = 0.3
    offset_mm: float = 1.0


@dataclass(frozen=True)
class SheetSpec:
    paper_mm: tuple[float, float]
    card_mm: tuple[float, float]      # trim size
    bleed_mm: float = 3.0
    gap_mm: float = 0.0
    margin_mm: float = 5.0
    marks: MarkStyle = field(default_factory=MarkStyle)


@dataclass(frozen=True)
class Slot:
    index: int          # row-major, from the top-left
    row: int
    col: int
    trim: Rect          # the cut rectangle
    image: Rect         # where the face image (trim + bleed on every side) is placed
    clip: Rect          # the part of the image that is shown


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Sheet:
    spec: SheetSpec
    cols: int
    rows: int
    slots: tuple[Slot, ...]
    cut_x: tuple[float, ...]          # vertical cut lines
    cut_y: tuple[float, ...]          # horizontal cut lines
    marks: tuple[Line, ...]
    block: Rect                       # trim block
    outer_bleed: tuple[float, float]  # bleed kept on the block's left/right and bottom/top edges
    notes: tuple[str, ...] = ()       # what had to give way (shown as warnings)
    label_band: Rect | None = None    # free strip left of the block for a sheet label, if any
    edges: tuple = ()                 # how bleed, mark offset and mark length were shared (x, y)

    @property
    def per_page(self) -> int:
        return self.cols * self.rows


def _fit(avail: float, size: float, gap: float) -> int:
    """How many cards of ``size`` fit in ``avail`` with ``gap`` between them (1e-9 mm slack)."""
    n = max(0, math.floor((avail + gap) / (size + gap) + 1e-9))
    while n and n * size + (n - 1) * gap > avail + 1e-9:
        n -= 1
    return n


@dataclass(frozen=True)
class _Edge:
    bleed: float
    offset: float
    length: float


def _allocate(space: float, bleed: float, marks: MarkStyle) -> _Edge:
    """Share the room between the block and the margin among bleed, mark offset and mark.

    Full values when they fit. Otherwise the marks keep 2.5 mm (or their set length) and a
    0.5 mm offset, the bleed gets what is left, and only then do the offset (down to 0.3 mm)
    and the mark shrink. A mark shorter than 0.5 mm is dropped (length 0).
    """
    if space + 1e-9 >= bleed + marks.offset_mm + marks.length_mm:
        return _Edge(bleed, marks.offset_mm, marks.length_mm)
    keep = min(marks.length_mm, 2.5)
    b = min(bleed, max(0.0, space - min(marks.offset_mm, 0.5) - keep))
    rest = space - b
    off = min(marks.offset_mm, max(min(0.3, rest / 4), rest - keep))
    length = min(marks.length_mm, rest - off)
    return _Edge(b, off, length if length >= 0.5 else 0.0)


def plan_sheet(spec: SheetSpec) -> Sheet:
    pw, ph = spec.paper_mm
    cw, ch = spec.card_mm
    gap, margin, bleed = spec.gap_mm, spec.margin_mm, spec.bleed_mm
    aw, ah = pw - 2 * margin, ph - 2 * margin
    cols, rows = _fit(aw, cw, gap), _fit(ah, ch, gap)
    if cols < 1 or rows < 1:
        raise DeckgenError(error(
            "paper-too-small", "--paper",
            f"a {cw:g} × {ch:g} mm card does not fit on {pw:g} × {ph:g} mm paper inside a {margin:g} mm margin",
            hint="use larger paper or a smaller --margin"))
    bw, bh = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    ex, ey = _allocate((aw - bw) / 2, bleed, spec.marks), _allocate((ah - bh) / 2, bleed, spec.marks)
    block = Rect((pw - bw) / 2, (ph - bh) / 2, bw, bh)
    inner = min(bleed, gap / 2)
    slots = []
    for r in range(rows):
        for c in range(cols):
            trim = Rect(block.x + c * (cw + gap), block.top - (r + 1) * ch - r * gap, cw, ch)
            clip = trim.grow(ex.bleed if c == 0 else inner, ex.bleed if c == cols - 1 else inner,
                             ey.bleed if r == rows - 1 else inner, ey.bleed if r == 0 else inner)
            slots.append(Slot(len(slots), r, c, trim, trim.grow(bleed, bleed, bleed, bleed), clip))
    cut_x = _lines([block.x + c * (cw + gap) for c in range(cols)], cw)
    cut_y = _lines([block.y + r * (ch + gap) for r in range(rows)], ch)
    marks = _marks(block, cut_x, cut_y, ex, ex, ey, ey)
    return Sheet(spec, cols, rows, tuple(slots), cut_x, cut_y, marks, block, (ex.bleed, ey.bleed),
                 _notes(spec, ex, ey), _label_band(spec, block, ex), (ex, ey))


def _lines(starts: list[float], size: float) -> tuple[float, ...]:
    out: list[float] = []
    for s in starts:
        for v in (s, s + size):
            if not out or abs(v - out[-1]) > EPS:
                out.append(v)
    return tuple(out)


def _marks(block: Rect, cut_x, cut_y, left: _Edge, right: _Edge, bottom: _Edge, top: _Edge) -> tuple[Line, ...]:
    out = []
    lo, hi = block.y - bottom.bleed - bottom.offset, block.top + top.bleed + top.offset
    for x in cut_x:
        if bottom.length:
            out.append(Line(x, lo - bottom.length, x, lo))
        if top.length:
            out.append(Line(x, hi, x, hi + top.length))
    lo, hi = block.x - left.bleed - left.offset, block.right + right.bleed + right.offset
    for y in cut_y:
        if left.length:
            out.append(Line(lo - left.length, y, lo, y))
        if right.length:
            out.append(Line(hi, y, hi + right.length, y))
    return tuple(out)


def partial(sheet: Sheet, used: int) -> tuple[tuple[Slot, ...], tuple[Line, ...]]:
    """Slots and crop marks of a page that fills only its first ``used`` slots (the last sheet).

    Cards keep their places; an edge that faces an empty slot gets its full bleed, and the
    marks frame the cards that are there instead of the whole grid.
    """
    if used >= sheet.per_page:
        return sheet.slots, sheet.marks
    spec, cols = sheet.spec, sheet.cols
    ex, ey = sheet.edges
    full = _Edge(spec.bleed_mm, spec.marks.offset_mm, spec.marks.length_mm)
    inner = min(spec.bleed_mm, spec.gap_mm / 2)
    rows_used = math.ceil(used / cols)
    cols_used = cols if rows_used > 1 else used

    def side(r: int, c: int, outer: float) -> float:
        if not (0 <= r < sheet.rows and 0 <= c < cols):
            return outer
        return inner if r * cols + c < used else spec.bleed_mm

    slots = []
    for s in sheet.slots[:used]:
        r, c = s.row, s.col
        clip = s.trim.grow(side(r, c - 1, ex.bleed), side(r, c + 1, ex.bleed),
                           side(r + 1, c, ey.bleed), side(r - 1, c, ey.bleed))
        slots.append(Slot(s.index, r, c, s.trim, s.image, clip))
    bottom = sheet.slots[(rows_used - 1) * cols].trim.y
    right = sheet.slots[cols_used - 1].trim.right
    block = Rect(sheet.block.x, bottom, right - sheet.block.x, sheet.block.top - bottom)
    cw, ch = spec.card_mm
    cut_x = _lines([block.x + c * (cw + spec.gap_mm) for c in range(cols_used)], cw)
    cut_y = _lines([bottom + r * (ch + spec.gap_mm) for r in range(rows_used)], ch)
    marks = _marks(block, cut_x, cut_y, ex, ex if cols_used == cols else full,
                   ey if rows_used == sheet.rows else full, ey)
    return tuple(slots), marks


def _label_band(spec: SheetSpec, block: Rect, ex: _Edge) -> Rect | None:
    """The strip between the margin and the left crop marks, if at least 3 mm wide."""
    right = block.x - ex.bleed - (ex.offset + ex.length if ex.length else 0.0) - 0.5
    x = spec.margin_mm + 0.5
    if right - x < 3.0:
        return None
    return Rect(x, block.y, right - x, block.h)


def _notes(spec: SheetSpec, ex: _Edge, ey: _Edge) -> tuple[str, ...]:
    notes = []
    for edge, sides in ((ex, "left and right"), (ey, "top and bottom")):
        if edge.bleed + EPS < spec.bleed_mm:
            notes.append(f"the card block nearly fills the printable area: the bleed on the {sides} edges of the "
                         f"block is {edge.bleed:.1f} mm instead of {spec.bleed_mm:g} mm")
        if edge.length + EPS < spec.marks.length_mm:
            what = "dropped" if not edge.length else f"shortened to {edge.length:.1f} mm"
            notes.append(f"crop marks on the {sides} edges are {what} (a smaller --margin gives them room)")
    return tuple(notes)


def guide_lines(sheet: Sheet) -> tuple[Line, ...]:
    """Optional cut-line guides: every cut line drawn across the block."""
    b = sheet.block
    return tuple([Line(x, b.y, x, b.top) for x in sheet.cut_x] + [Line(b.x, y, b.right, y) for y in sheet.cut_y])
