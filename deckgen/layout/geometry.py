"""Sheet geometry in millimetres, origin at the page's lower-left corner (as in PDF).

:func:`plan_sheet` turns paper, margin, card size, bleed and gap into a grid of card slots
(the block centred on the page, or on the front half of a fold sheet), the cut lines, and
the crop marks that sit outside the block on every cut line. It chooses portrait or
landscape and the number of rows and columns; the default gap (twice the bleed) gives every
card its full bleed, and bleed, mark offset and mark length are never reduced below what
was asked: fewer cards go on the sheet instead. With a smaller gap each card shows half
the gap towards its neighbours (with 0 they share their cut line), and the sheet's notes
say so.
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
    gap_mm: float | None = None       # None: twice the bleed, so every card keeps its full bleed
    margin_mm: float = 5.0
    marks: MarkStyle = field(default_factory=MarkStyle)
    orientation: str = "auto"         # auto | portrait | landscape
    fold: bool = False                # fronts on one half, backs mirrored on the other

    @property
    def gap(self) -> float:
        return 2 * self.bleed_mm if self.gap_mm is None else self.gap_mm

    @property
    def edge_mm(self) -> float:
        """Room each outer edge of the block needs: bleed, then the mark offset, then the mark."""
        return self.bleed_mm + self.marks.offset_mm + self.marks.length_mm


ORIENTATIONS = ("auto", "portrait", "landscape")


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
    page_mm: tuple[float, float]      # the page as laid out (the paper, turned if landscape won)
    cols: int
    rows: int
    slots: tuple[Slot, ...]
    cut_x: tuple[float, ...]          # vertical cut lines
    cut_y: tuple[float, ...]          # horizontal cut lines
    marks: tuple[Line, ...]
    block: Rect                       # trim block
    gap_mm: float                     # the gap between neighbouring cards
    inner_bleed_mm: float             # bleed each card shows towards a neighbour (outer edges: the full bleed)
    fold: str = ""                    # "" | "vertical" | "horizontal": where the fold line runs
    fold_at: float = 0.0              # x (vertical) or y (horizontal) of the fold line
    notes: tuple[str, ...] = ()       # trade-offs the user asked for (shown in the build summary)
    label_band: Rect | None = None    # free strip left of the block for a sheet label, if any

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.page_mm[0] > self.page_mm[1]

    @property
    def fold_line(self) -> Line | None:
        w, h = self.page_mm
        m = self.spec.margin_mm
        if self.fold == "vertical":
            return Line(self.fold_at, m, self.fold_at, h - m)
        if self.fold == "horizontal":
            return Line(m, self.fold_at, w - m, self.fold_at)
        return None

    def describe(self) -> str:
        """One line with the sheet's real figures, for summaries."""
        b, g = self.spec.bleed_mm, self.gap_mm
        turn = "landscape" if self.landscape else "portrait"
        bleed = (f"bleed {b:g} mm around every card" if self.inner_bleed_mm + EPS >= b
                 else f"bleed {b:g} mm outside, {self.inner_bleed_mm:g} mm between cards")
        fold = ", folded" if self.fold else ""
        return (f"{turn}{fold}, {self.cols} × {self.rows} = {self.per_page} cards per sheet, {bleed}, "
                f"gap {g:g} mm, crop marks {self.spec.marks.length_mm:g} mm")


def _count(avail: float, size: float, gap: float, edge: float) -> int:
    """How many cards fit in ``avail`` with ``gap`` between them and ``edge`` outside both ends."""
    room = avail - 2 * edge
    n = max(0, math.floor((room + gap) / (size + gap) + 1e-9))
    while n and n * size + (n - 1) * gap > room + 1e-9:
        n -= 1
    return n


@dataclass(frozen=True)
class _Choice:
    page: tuple[float, float]
    cols: int
    rows: int
    fold: str
    area: Rect          # where the (front) block is centred


def _choices(spec: SheetSpec) -> list[_Choice]:
    pw, ph = spec.paper_mm
    pages = [(pw, ph), (ph, pw)] if abs(pw - ph) > EPS else [(pw, ph)]
    if spec.orientation == "portrait":
        pages = [p for p in pages if p[0] <= p[1] + EPS]
    elif spec.orientation == "landscape":
        pages = [p for p in pages if p[0] + EPS >= p[1]]
    cw, ch = spec.card_mm
    m, g, e = spec.margin_mm, spec.gap, spec.edge_mm
    out = []
    for w, h in pages:
        if not spec.fold:
            area = Rect(m, m, w - 2 * m, h - 2 * m)
            out.append(_Choice((w, h), _count(area.w, cw, g, e), _count(area.h, ch, g, e), "", area))
            continue
        # the fold side needs no margin: the front half's marks end at the fold line
        left = Rect(m, m, w / 2 - m, h - 2 * m)
        out.append(_Choice((w, h), _count(left.w, cw, g, e), _count(left.h, ch, g, e), "vertical", left))
        top = Rect(m, h / 2, w - 2 * m, h / 2 - m)
        out.append(_Choice((w, h), _count(top.w, cw, g, e), _count(top.h, ch, g, e), "horizontal", top))
    return out


def plan_sheet(spec: SheetSpec) -> Sheet:
    """The grid with the most cards that keeps the full bleed, mark offset and mark length.

    Portrait and landscape (and, folded, both fold directions) are tried; ties keep the paper
    as given. Nothing the user asked for is reduced: if the cards do not fit, fewer go on the
    sheet, and if not even one fits the answer is an error naming what to change.
    """
    if spec.orientation not in ORIENTATIONS:
        raise DeckgenError(error("orientation", "--orientation", f"unknown orientation '{spec.orientation}'",
                                 hint="use auto, portrait or landscape"))
    cw, ch = spec.card_mm
    choices = _choices(spec)
    best = max(choices, key=lambda c: c.cols * c.rows) if choices else None
    if best is None or best.cols * best.rows == 0:
        pw, ph = spec.paper_mm
        fold = " folded in half," if spec.fold else ""
        raise DeckgenError(error(
            "paper-too-small", "--paper",
            f"a {cw:g} × {ch:g} mm card with {spec.bleed_mm:g} mm bleed and {spec.marks.length_mm:g} mm crop marks "
            f"{spec.marks.offset_mm:g} mm out does not fit on {pw:g} × {ph:g} mm paper,{fold} inside a "
            f"{spec.margin_mm:g} mm margin",
            hint="use larger paper, or a smaller --margin, --bleed, --mark-length or --mark-offset"))
    gap = spec.gap
    cols, rows, area = best.cols, best.rows, best.area
    bw, bh = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    block = Rect(area.x + (area.w - bw) / 2, area.y + (area.h - bh) / 2, bw, bh)
    bleed = spec.bleed_mm
    inner = min(bleed, gap / 2)
    slots: list[Slot] = []
    for r in range(rows):
        for c in range(cols):
            trim = Rect(block.x + c * (cw + gap), block.top - (r + 1) * ch - r * gap, cw, ch)
            clip = trim.grow(bleed if c == 0 else inner, bleed if c == cols - 1 else inner,
                             bleed if r == rows - 1 else inner, bleed if r == 0 else inner)
            slots.append(Slot(len(slots), r, c, trim, trim.grow(bleed, bleed, bleed, bleed), clip))
    cut_x = _lines([block.x + c * (cw + gap) for c in range(cols)], cw)
    cut_y = _lines([block.y + r * (ch + gap) for r in range(rows)], ch)
    marks = _marks(block, cut_x, cut_y, spec)
    fold_at = 0.0
    if best.fold == "vertical":
        fold_at = best.page[0] / 2
    elif best.fold == "horizontal":
        fold_at = best.page[1] / 2
    return Sheet(spec, best.page, cols, rows, tuple(slots), cut_x, cut_y, marks, block, gap, inner,
                 best.fold, fold_at, _notes(spec), _label_band(spec, block))


def _lines(starts: list[float], size: float) -> tuple[float, ...]:
    out: list[float] = []
    for s in starts:
        for v in (s, s + size):
            if not out or abs(v - out[-1]) > EPS:
                out.append(v)
    return tuple(out)


def _marks(block: Rect, cut_x, cut_y, spec: SheetSpec) -> tuple[Line, ...]:
    out = []
    out_by = spec.bleed_mm + spec.marks.offset_mm
    length = spec.marks.length_mm
    if length <= 0:
        return ()
    lo, hi = block.y - out_by, block.top + out_by
    for x in cut_x:
        out.append(Line(x, lo - length, x, lo))
        out.append(Line(x, hi, x, hi + length))
    lo, hi = block.x - out_by, block.right + out_by
    for y in cut_y:
        out.append(Line(lo - length, y, lo, y))
        out.append(Line(hi, y, hi + length, y))
    return tuple(out)


def partial(sheet: Sheet, used: int) -> tuple[tuple[Slot, ...], tuple[Line, ...]]:
    """Slots and crop marks of a page that fills only its first ``used`` slots (the last sheet).

    Cards keep their places; an edge that faces an empty slot gets its full bleed, and the
    marks frame the cards that are there instead of the whole grid.
    """
    if used >= sheet.per_page:
        return sheet.slots, sheet.marks
    spec, cols = sheet.spec, sheet.cols
    bleed, inner = spec.bleed_mm, sheet.inner_bleed_mm
    rows_used = math.ceil(used / cols)
    cols_used = cols if rows_used > 1 else used

    def side(r: int, c: int) -> float:
        if not (0 <= r < sheet.rows and 0 <= c < cols):
            return bleed
        return inner if r * cols + c < used else bleed

    slots: list[Slot] = []
    for s in sheet.slots[:used]:
        r, c = s.row, s.col
        clip = s.trim.grow(side(r, c - 1), side(r, c + 1), side(r + 1, c), side(r - 1, c))
        slots.append(Slot(s.index, r, c, s.trim, s.image, clip))
    bottom = sheet.slots[(rows_used - 1) * cols].trim.y
    right = sheet.slots[cols_used - 1].trim.right
    block = Rect(sheet.block.x, bottom, right - sheet.block.x, sheet.block.top - bottom)
    cw, ch = spec.card_mm
    cut_x = _lines([block.x + c * (cw + sheet.gap_mm) for c in range(cols_used)], cw)
    cut_y = _lines([bottom + r * (ch + sheet.gap_mm) for r in range(rows_used)], ch)
    return tuple(slots), _marks(block, cut_x, cut_y, spec)


def _label_band(spec: SheetSpec, block: Rect) -> Rect | None:
    """The strip between the margin and the left crop marks, if at least 3 mm wide."""
    right = block.x - spec.edge_mm - 0.5
    x = spec.margin_mm + 0.5
    if right - x < 3.0:
        return None
    return Rect(x, block.y, right - x, block.h)


def _notes(spec: SheetSpec) -> tuple[str, ...]:
    b, g = spec.bleed_mm, spec.gap
    if g + EPS >= 2 * b:
        return ()
    if g <= EPS:
        return (f"--gap 0: neighbouring cards share their cut lines, so only the block's outer edges carry "
                f"the {b:g} mm bleed; a slightly missed cut leaves a sliver of the neighbouring card's colour "
                f"(the default gap, {2 * b:g} mm, gives every card its own bleed)",)
    return (f"--gap {g:g}mm leaves {g / 2:g} mm of bleed between cards instead of {b:g} mm "
            f"(the default gap, {2 * b:g} mm, gives every card its full bleed)",)


def guide_lines(sheet: Sheet) -> tuple[Line, ...]:
    """Optional cut-line guides: every cut line drawn across the block."""
    b = sheet.block
    return tuple([Line(x, b.y, x, b.top) for x in sheet.cut_x] + [Line(b.x, y, b.right, y) for y in sheet.cut_y])
