"""Sheet geometry in millimetres, origin at the page's lower-left corner (as in PDF).

:func:`plan_sheet` turns paper, margin, card size, bleed and gap into a grid of card slots
(the block centred on the page, or on the front half of a fold sheet), the cut lines, and
the crop marks that sit outside the block on every cut line. It chooses portrait or
landscape and the number of rows and columns.

Two ways to fill a sheet (``SheetSpec.fit``):

- ``most`` (the default): the most cards the printable area holds with at least
  :data:`MIN_OUTER_BLEED` of bleed round the block (or the bleed asked, if less), so a sheet
  fed a little off shows no white edge. When separate bleeds would cost cards, the cards sit
  edge to edge on shared cut lines and the block's outer edges keep as much bleed as fits
  before the margin. Crop marks keep their length where they fit, are shortened where only a
  shorter one fits (at least :data:`MIN_MARK`), or are left out where not even that fits.
  With ``SheetSpec.cut_gaps`` (print-then-cut) the cards are moved apart, each direction on
  its own, as far as the same grid allows, so a machine's cut has bleed on both sides.
- ``full-bleed``: the default gap (twice the bleed) gives every card its full bleed, and
  bleed, mark offset and mark length are never reduced below what was asked: fewer cards
  go on the sheet instead. A fold sheet tries shorter crop marks (down to
  :data:`MIN_MARK`) before it drops a card.

An explicit gap always lays out like ``full-bleed`` with that gap: each card shows half the
gap towards its neighbours (with 0 they share their cut line), and the sheet's notes say so.

Every sheet has a cutting order (:attr:`Sheet.first_cut`): the cut lines of one direction are
cut first, right across the sheet, on their crop marks; the pieces that leaves have lost the
marks of the other direction, so those cut lines are printed along the cards as thin grey
lines (:attr:`Sheet.rules`), on the waste side of the cut where there is one. Where a
direction has no room for crop marks, its lines are printed the same way.
:mod:`deckgen.layout.cutplan` turns the order into the steps the cover and the rulebook print.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from deckgen.errors import DeckgenError, error
from deckgen.layout.marks import MarkStyle

EPS = 1e-6
MIN_MARK = 2.0          # mm: the shortest crop mark worth printing; below it, cut lines are printed instead
MIN_OUTER_BLEED = 1.5   # mm of bleed kept round the block by --fit most (the bleed asked, if less)
RULE_MM = 0.12          # stroke of the grey cut lines printed along the cards
GAP_STEP = 0.05         # mm: print-then-cut gaps are whole multiples of this
FITS = ("most", "full-bleed")


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

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


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
    fit: str = "most"                 # most | full-bleed (see the module docstring)
    cut_gaps: bool = False            # print-then-cut: gaps with bleed between cards wherever no card is lost

    @property
    def gap(self) -> float:
        return 2 * self.bleed_mm if self.gap_mm is None else self.gap_mm

    @property
    def edge_mm(self) -> float:
        """Room each outer edge of the block needs: bleed, then the mark offset, then the mark."""
        return self.bleed_mm + self.marks.offset_mm + self.marks.length_mm

    @property
    def outer_min(self) -> float:
        """The least room kept outside the block by edge-to-edge sheets: MIN_OUTER_BLEED (or the bleed
        asked, if less), and never less than a printed line needs, so no stroke enters the margin: half
        a crop mark's, and the whole of a cut line's, which an outer edge prints on its waste side."""
        return max(min(self.bleed_mm, MIN_OUTER_BLEED), self.marks.stroke_mm / 2, RULE_MM)


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
    gaps: tuple[float, float]         # the gap between neighbouring cards: between columns, between rows
    fold: str = ""                    # "" | "vertical" | "horizontal": where the fold line runs
    fold_at: float = 0.0              # x (vertical) or y (horizontal) of the fold line
    notes: tuple[str, ...] = ()       # trade-offs the user asked for (shown in the build summary)
    label_band: Rect | None = None    # free strip left of the block for a sheet label, if any
    edge_bleed: tuple[float, float] = (-1.0, -1.0)   # bleed outside the block (left/right, top/bottom); <0: full
    mark_mm: tuple[float, float] = (-1.0, -1.0)      # crop-mark length on the left/right and top/bottom edges
    rules: tuple[Line, ...] = ()      # cut lines printed along the cards where no crop mark guides the cut
    first_cut: str = "x"              # "x": the vertical cut lines are cut first; "y": the horizontal ones

    @property
    def gap_mm(self) -> float:
        """The narrower of the two gaps."""
        return min(self.gaps)

    @property
    def inner_bleeds(self) -> tuple[float, float]:
        """Bleed each card shows towards its neighbours: left/right, top/bottom."""
        b = self.spec.bleed_mm
        return min(b, self.gaps[0] / 2), min(b, self.gaps[1] / 2)

    @property
    def inner_bleed_mm(self) -> float:
        return min(self.inner_bleeds)

    @property
    def bleed_lr(self) -> float:
        return self.spec.bleed_mm if self.edge_bleed[0] < 0 else self.edge_bleed[0]

    @property
    def bleed_tb(self) -> float:
        return self.spec.bleed_mm if self.edge_bleed[1] < 0 else self.edge_bleed[1]

    @property
    def mark_lr(self) -> float:
        """Length of the crop marks on the block's left and right (they mark the horizontal cut lines)."""
        return self.spec.marks.length_mm if self.mark_mm[0] < 0 else self.mark_mm[0]

    @property
    def mark_tb(self) -> float:
        """Length of the crop marks above and below the block (they mark the vertical cut lines)."""
        return self.spec.marks.length_mm if self.mark_mm[1] < 0 else self.mark_mm[1]

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
        b = self.spec.bleed_mm
        turn = "landscape" if self.landscape else "portrait"
        ix, iy = self.inner_bleeds
        if ix + EPS >= b and iy + EPS >= b:
            between = ""
        elif abs(ix - iy) < EPS:
            between = f", {ix:g} mm between cards"
        else:
            between = f", {ix:g} mm between columns and {iy:g} mm between rows"
        if self.bleed_lr + EPS < b or self.bleed_tb + EPS < b or abs(self.bleed_lr - self.bleed_tb) > EPS:
            bleed = f"bleed {self.bleed_lr:g} mm left and right, {self.bleed_tb:g} mm top and bottom{between}"
        else:
            bleed = f"bleed {b:g} mm outside{between}" if between else f"bleed {b:g} mm around every card"
        gx, gy = self.gaps
        gap = f"gap {gx:g} mm" if abs(gx - gy) < EPS else f"gaps {gx:g} mm between columns, {gy:g} mm between rows"
        fold = ", folded" if self.fold else ""
        marks = _marks_phrase(self.mark_lr, self.mark_tb)
        return f"{turn}{fold}, {self.cols} × {self.rows} = {self.per_page} cards per sheet, {bleed}, {gap}, {marks}"


def _marks_phrase(lr: float, tb: float) -> str:
    if abs(lr - tb) < EPS:
        return f"crop marks {lr:g} mm" if lr > 0 else "cut lines printed along the cards (no room for crop marks)"
    part = []
    for where, v in (("left and right", lr), ("top and bottom", tb)):
        part.append(f"crop marks {v:g} mm {where}" if v > 0 else f"cut lines instead of crop marks {where}")
    return ", ".join(part)


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
    gap: tuple[float, float]        # between columns, between rows
    bleed: tuple[float, float]      # outer bleed: left/right, top/bottom
    mark: tuple[float, float]       # crop-mark length: left/right, top/bottom (0: cut lines instead)

    @property
    def count(self) -> int:
        return self.cols * self.rows


def _pages(spec: SheetSpec) -> list[tuple[float, float]]:
    pw, ph = spec.paper_mm
    pages = [(pw, ph), (ph, pw)] if abs(pw - ph) > EPS else [(pw, ph)]
    if spec.orientation == "portrait":
        pages = [p for p in pages if p[0] <= p[1] + EPS]
    elif spec.orientation == "landscape":
        pages = [p for p in pages if p[0] + EPS >= p[1]]
    return pages


def _areas(spec: SheetSpec) -> list[tuple[tuple[float, float], Rect, str]]:
    """(page, area the block is centred in, fold) for every page turn and fold direction tried."""
    m = spec.margin_mm
    out = []
    for w, h in _pages(spec):
        if not spec.fold:
            out.append(((w, h), Rect(m, m, w - 2 * m, h - 2 * m), ""))
            continue
        # the fold side needs no margin: the front half's marks end at the fold line
        out.append(((w, h), Rect(m, m, w / 2 - m, h - 2 * m), "vertical"))
        out.append(((w, h), Rect(m, h / 2, w - 2 * m, h / 2 - m), "horizontal"))
    return out


def _choices(spec: SheetSpec, length: float | None = None) -> list[_Choice]:
    """Separate bleeds (or the gap asked for) and crop marks of ``length`` (default: as asked)."""
    cw, ch = spec.card_mm
    length = spec.marks.length_mm if length is None else length
    g, b = spec.gap, spec.bleed_mm
    e = b + spec.marks.offset_mm + length
    return [_Choice(page, _count(area.w, cw, g, e), _count(area.h, ch, g, e), fold, area, (g, g), (b, b),
                    (length, length)) for page, area, fold in _areas(spec)]


def _fold_choices(spec: SheetSpec) -> list[_Choice]:
    """Fold sheets: crop marks as asked, or the longest shorter ones (down to MIN_MARK) that fit one more card."""
    full = _choices(spec)
    length = spec.marks.length_mm
    if length <= MIN_MARK:
        return full
    most = max(c.count for c in _choices(spec, MIN_MARK))
    if most <= max(c.count for c in full):
        return full
    steps = int((length - MIN_MARK) / 0.25 + 1e-9)
    for k in range(1, steps + 1):
        shorter = _choices(spec, length - k * 0.25)
        if max(c.count for c in shorter) == most:
            return shorter
    return _choices(spec, MIN_MARK)


def _fit_mark(room: float, length: float) -> float:
    """The crop mark that fits in ``room`` mm: as asked, shorter (to 0.1 mm) down to MIN_MARK, or none."""
    if length <= 0 or room + EPS >= length:
        return max(length, 0.0)
    short = math.floor(room * 10 + 1e-6) / 10
    return short if short + EPS >= MIN_MARK else 0.0


def _tight_axis(avail: float, size: float, bleed: float, need: float, open_gaps: bool) -> tuple[int, float, float, float]:
    """Cards along one side of the area with ``need`` mm outside them at least: (count, gap, outer bleed,
    room left beyond the outer bleed for the crop marks). With ``open_gaps`` the spare room is shared
    so every card gets the same bleed on both sides (up to the bleed asked), in GAP_STEP steps."""
    n = _count(avail, size, 0.0, need)
    if n == 0:
        return 0, 0.0, 0.0, 0.0
    spare = avail - n * size
    gap = 0.0
    if open_gaps and n > 1:
        share = min(bleed, spare / (2 * n))
        gap = 2 * share if share + EPS >= need else min(2 * bleed, (spare - 2 * need) / (n - 1))
        gap = max(0.0, math.floor(gap / GAP_STEP + 1e-6) * GAP_STEP)
    outer = max(0.0, min(bleed, (spare - (n - 1) * gap) / 2))
    return n, gap, outer, (spare - (n - 1) * gap) / 2 - outer


def _tight_choices(spec: SheetSpec, need: float | None = None) -> list[_Choice]:
    """Cards edge to edge on shared cut lines (or apart, with ``spec.cut_gaps``), as many as fit inside
    the margin with ``need`` mm (default: :attr:`SheetSpec.outer_min`) round the block."""
    cw, ch = spec.card_mm
    b, off, length = spec.bleed_mm, spec.marks.offset_mm, spec.marks.length_mm
    need = spec.outer_min if need is None else need
    out = []
    for page, area, fold in _areas(spec):
        cols, gx, bx, room_x = _tight_axis(area.w, cw, b, need, spec.cut_gaps)
        rows, gy, by, room_y = _tight_axis(area.h, ch, b, need, spec.cut_gaps)
        mx, my = _fit_mark(room_x - off, length), _fit_mark(room_y - off, length)
        out.append(_Choice(page, cols, rows, fold, area, (gx, gy), (bx, by), (mx, my)))
    return out


def _tight_score(c: _Choice) -> tuple[int, float, int, float, float]:
    return (c.count, min(c.gap), (c.mark[0] > 0) + (c.mark[1] > 0), c.mark[0] + c.mark[1],
            c.bleed[0] + c.bleed[1])


def _check_spec(spec: SheetSpec) -> None:
    if spec.orientation not in ORIENTATIONS:
        raise DeckgenError(error("orientation", "--orientation", f"unknown orientation '{spec.orientation}'",
                                 hint="use auto, portrait or landscape"))
    if spec.fit not in FITS:
        raise DeckgenError(error("fit", "--fit", f"unknown fit '{spec.fit}'", hint="use most or full-bleed"))


def _best(spec: SheetSpec) -> tuple[_Choice | None, int, bool]:
    """The chosen grid, the cards separate bleeds would give, and whether the cards sit edge to edge."""
    choices = _fold_choices(spec) if spec.fold else _choices(spec)
    best = max(choices, key=lambda c: c.count) if choices else None
    separate = best.count if best else 0
    if spec.fit == "most" and spec.gap_mm is None:
        tight = max(_tight_choices(spec), key=_tight_score, default=None)
        if tight is not None and tight.count > separate:
            return tight, separate, True
    return best, separate, False


def _too_small(spec: SheetSpec) -> DeckgenError:
    cw, ch = spec.card_mm
    pw, ph = spec.paper_mm
    fold = " folded in half," if spec.fold else ""
    return DeckgenError(error(
        "paper-too-small", "--paper",
        f"a {cw:g} × {ch:g} mm card with {spec.bleed_mm:g} mm bleed and {spec.marks.length_mm:g} mm crop marks "
        f"{spec.marks.offset_mm:g} mm out does not fit on {pw:g} × {ph:g} mm paper,{fold} inside a "
        f"{spec.margin_mm:g} mm margin",
        hint="use larger paper, or a smaller --margin, --bleed, --mark-length or --mark-offset"))


def first_cut(area: Rect, mark: tuple[float, float]) -> str:
    """Which cut lines to cut first: those with crop marks at both ends ("x": the vertical lines, marked
    above and below the block; "y": the horizontal ones); with marks on both or neither, the long cuts
    (the lines that run along the longer side of the area the cards fill)."""
    mx, my = mark
    if (my > 0) != (mx > 0):
        return "x" if my > 0 else "y"
    return "x" if area.h >= area.w else "y"


def plan_sheet(spec: SheetSpec, hints: bool = True) -> Sheet:
    """The grid with the most cards, laid out as ``spec.fit`` says (see the module docstring).

    Portrait and landscape (and, folded, both fold directions) are tried; ties keep the paper
    as given. If not even one card fits the answer is an error naming what to change. ``hints``:
    the notes may suggest a smaller --margin (not for a sheet planned inside registration marks).
    """
    _check_spec(spec)
    cw, ch = spec.card_mm
    best, separate, edge_to_edge = _best(spec)
    if best is None or best.count == 0:
        raise _too_small(spec)
    gx, gy = best.gap
    cols, rows, area = best.cols, best.rows, best.area
    bw, bh = cols * cw + (cols - 1) * gx, rows * ch + (rows - 1) * gy
    block = Rect(area.x + (area.w - bw) / 2, area.y + (area.h - bh) / 2, bw, bh)
    bleed = spec.bleed_mm
    bx, by = best.bleed
    ix, iy = min(bleed, gx / 2), min(bleed, gy / 2)
    slots: list[Slot] = []
    for r in range(rows):
        for c in range(cols):
            trim = Rect(block.x + c * (cw + gx), block.top - (r + 1) * ch - r * gy, cw, ch)
            clip = trim.grow(bx if c == 0 else ix, bx if c == cols - 1 else ix,
                             by if r == rows - 1 else iy, by if r == 0 else iy)
            slots.append(Slot(len(slots), r, c, trim, trim.grow(bleed, bleed, bleed, bleed), clip))
    grid = _Grid(tuple(block.x + c * (cw + gx) for c in range(cols)), cw,
                 tuple(block.y + r * (ch + gy) for r in range(rows)), ch)
    mx, my = best.mark
    first = first_cut(area, best.mark)
    edges = _Edges((bx, bx, by, by), (mx, mx, my, my), spec.marks.length_mm > 0, first)
    marks, rules = _guides(block, grid, spec.marks.offset_mm, edges)
    fold_at = 0.0
    if best.fold == "vertical":
        fold_at = best.page[0] / 2
    elif best.fold == "horizontal":
        fold_at = best.page[1] / 2
    notes = _notes(spec) + _fit_notes(spec, best, separate, edge_to_edge, hints)
    return Sheet(spec, best.page, cols, rows, tuple(slots), grid.cut_x, grid.cut_y, marks, block, (gx, gy),
                 best.fold, fold_at, notes, _label_band(spec, block, bx + (spec.marks.offset_mm + mx if mx else 0)),
                 (bx, by), (mx, my), rules, first)


def _lines(starts: tuple[float, ...], size: float) -> tuple[float, ...]:
    out: list[float] = []
    for s in starts:
        for v in (s, s + size):
            if not out or abs(v - out[-1]) > EPS:
                out.append(v)
    return tuple(out)


@dataclass(frozen=True)
class _Grid:
    """Where the cards on a page are: the left edge of each column and the bottom of each row."""

    col_x: tuple[float, ...]
    card_w: float
    row_y: tuple[float, ...]
    card_h: float

    @property
    def cut_x(self) -> tuple[float, ...]:
        return _lines(self.col_x, self.card_w)

    @property
    def cut_y(self) -> tuple[float, ...]:
        return _lines(self.row_y, self.card_h)


def _waste_side(v: float, starts: tuple[float, ...], size: float) -> float:
    """Where a printed cut line goes so that the cut leaves it with the waste: half its stroke before
    ``v`` when only a card's low edge (left or bottom) lies on it, after when only a high edge does,
    centred on a line two cards share."""
    low = any(abs(v - s) < EPS for s in starts)
    high = any(abs(v - s - size) < EPS for s in starts)
    if low and high:
        return v
    return v - RULE_MM / 2 if low else v + RULE_MM / 2


@dataclass(frozen=True)
class _Edges:
    bleed: tuple[float, float, float, float]     # outer bleed: left, right, bottom, top
    mark: tuple[float, float, float, float]      # crop-mark length on each edge (0: none)
    rules: bool                                  # print cut lines where a crop mark will not guide the cut
    first: str                                   # "x" | "y": the cut lines cut first (Sheet.first_cut)


def _guides(block: Rect, grid: _Grid, offset: float, edges: _Edges) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """Crop marks outside the block on every cut line, and cut lines printed along the cards wherever the
    cutting order leaves no crop mark to guide a cut: every line of the direction cut second (its marks
    went with the first cuts' waste), and those of the first direction when they lack a mark at either end."""
    bl, br, bb, bt = edges.bleed
    ml, mr, mb, mt = edges.mark
    cut_x, cut_y = grid.cut_x, grid.cut_y
    marks: list[Line] = []
    lo, hi = block.y - bb - offset, block.top + bt + offset
    for x in cut_x:
        if mb > 0:
            marks.append(Line(x, lo - mb, x, lo))
        if mt > 0:
            marks.append(Line(x, hi, x, hi + mt))
    lo, hi = block.x - bl - offset, block.right + br + offset
    for y in cut_y:
        if ml > 0:
            marks.append(Line(lo - ml, y, lo, y))
        if mr > 0:
            marks.append(Line(hi, y, hi + mr, y))
    rules: list[Line] = []
    if edges.rules and (edges.first != "x" or mb <= 0 or mt <= 0):
        for x in cut_x:
            at = _waste_side(x, grid.col_x, grid.card_w)
            rules.append(Line(at, block.y - bb, at, block.top + bt))
    if edges.rules and (edges.first != "y" or ml <= 0 or mr <= 0):
        for y in cut_y:
            at = _waste_side(y, grid.row_y, grid.card_h)
            rules.append(Line(block.x - bl, at, block.right + br, at))
    return tuple(marks), tuple(rules)


def partial(sheet: Sheet, used: int) -> tuple[tuple[Slot, ...], tuple[Line, ...], tuple[Line, ...]]:
    """Slots, crop marks and printed cut lines of a page that fills only its first ``used`` slots.

    Cards keep their places; an edge that faces an empty slot gets its full bleed, and the
    marks frame the cards that are there instead of the whole grid.
    """
    if used >= sheet.per_page:
        return sheet.slots, sheet.marks, sheet.rules
    spec, cols = sheet.spec, sheet.cols
    bleed = spec.bleed_mm
    ix, iy = sheet.inner_bleeds
    rows_used = math.ceil(used / cols)
    cols_used = cols if rows_used > 1 else used

    def side(r: int, c: int, inner: float) -> float:
        if not 0 <= c < cols:
            return sheet.bleed_lr
        if not 0 <= r < sheet.rows:
            return sheet.bleed_tb
        return inner if r * cols + c < used else bleed

    slots: list[Slot] = []
    for s in sheet.slots[:used]:
        r, c = s.row, s.col
        clip = s.trim.grow(side(r, c - 1, ix), side(r, c + 1, ix), side(r + 1, c, iy), side(r - 1, c, iy))
        slots.append(Slot(s.index, r, c, s.trim, s.image, clip))
    bottom = sheet.slots[(rows_used - 1) * cols].trim.y
    right = sheet.slots[cols_used - 1].trim.right
    block = Rect(sheet.block.x, bottom, right - sheet.block.x, sheet.block.top - bottom)
    cw, ch = spec.card_mm
    gx, gy = sheet.gaps
    grid = _Grid(tuple(block.x + c * (cw + gx) for c in range(cols_used)), cw,
                 tuple(bottom + r * (ch + gy) for r in range(rows_used)), ch)
    full = spec.marks.length_mm
    inside_r, inside_b = cols_used < cols, rows_used < sheet.rows     # edges facing empty slots
    edges = _Edges((sheet.bleed_lr, bleed if inside_r else sheet.bleed_lr, bleed if inside_b else sheet.bleed_tb,
                    sheet.bleed_tb),
                   (sheet.mark_lr, full if inside_r else sheet.mark_lr, full if inside_b else sheet.mark_tb,
                    sheet.mark_tb), full > 0, sheet.first_cut)
    marks, rules = _guides(block, grid, spec.marks.offset_mm, edges)
    return tuple(slots), marks, rules


def _label_band(spec: SheetSpec, block: Rect, edge: float) -> Rect | None:
    """The strip between the margin and the left crop marks (``edge`` mm left of the block), if 3 mm wide."""
    right = block.x - edge - 0.5
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


def _fit_notes(spec: SheetSpec, best: _Choice, separate: int, edge_to_edge: bool, hints: bool) -> tuple[str, ...]:
    """What the chosen layout traded, in words for the build summary."""
    out = list(_denser_note(spec, best)) if edge_to_edge and hints else []
    b, length = spec.bleed_mm, spec.marks.length_mm
    if edge_to_edge:
        out += _gap_notes(spec, best, separate)
        for where, v in (("left and right", best.bleed[0]), ("top and bottom", best.bleed[1])):
            if v + EPS < b:
                out.append(f"the block's {where} edges keep {v:g} mm of bleed instead of {b:g} mm: the printable "
                           f"area ends there")
    for where, v, lines in (("left and right", best.mark[0], "horizontal"), ("top and bottom", best.mark[1], "vertical")):
        if length > 0 and v <= 0:
            out.append(f"no room for crop marks on the {where} edges: the {lines} cut lines are printed along "
                       f"the cards as thin grey lines instead")
        elif 0 < v + EPS < length:
            out.append(f"crop marks on the {where} edges are {v:g} mm long instead of {length:g} mm (no room for more)")
    return tuple(out)


def _gap_notes(spec: SheetSpec, best: _Choice, separate: int) -> list[str]:
    """Cards edge to edge, or (print-then-cut) apart with less than the full bleed: what it costs."""
    gx, gy = best.gap
    if not spec.cut_gaps:
        return [f"cards sit edge to edge on shared cut lines: {best.count} per sheet instead of {separate} with "
                f"separate bleeds (--fit full-bleed keeps them); a slightly missed cut shows a sliver of the "
                f"neighbouring card"]
    out = []
    for what, g in (("columns", gx), ("rows", gy)):
        count = best.cols if what == "columns" else best.rows
        if count < 2 or g + EPS >= 2 * spec.bleed_mm:
            continue
        if g <= EPS:
            out.append(f"print-then-cut: no room for a gap between the {what} without losing a card, so "
                       f"neighbouring {what} share a cut line and a cut a little off shows a sliver of the "
                       f"neighbouring card ({separate} per sheet with --fit full-bleed keep a full bleed)")
        else:
            out.append(f"print-then-cut: {g:g} mm between the {what} ({g / 2:g} mm of bleed each side of the "
                       f"cut) is as much as fits without losing a card ({separate} per sheet with --fit "
                       f"full-bleed keep the full {spec.bleed_mm:g} mm)")
    return out


def _denser_note(spec: SheetSpec, best: _Choice) -> tuple[str, ...]:
    """The grid that would fit with less than MIN_OUTER_BLEED round the block, when it holds more cards."""
    need = spec.outer_min
    relaxed = max(_tight_choices(spec, 0.0), key=_tight_score, default=None)
    if relaxed is None or relaxed.count <= best.count:
        return ()
    cw, ch = spec.card_mm
    area = relaxed.area
    room = ((area.w - relaxed.cols * cw) / 2, (area.h - relaxed.rows * ch) / 2)
    edges = " and ".join(where for where, v in zip(("left and right", "top and bottom"), room) if v + EPS < need)
    least = max(0.0, min(room))
    margin = math.floor((spec.margin_mm + least - need) * 20 + 1e-6) / 20
    hint = (f"; --margin {margin:g}mm fits {relaxed.count} with {need:g} mm, if your printer prints that close to "
            f"the paper's edge") if margin > 0 and not relaxed.fold else ""
    return (f"{relaxed.cols} × {relaxed.rows} = {relaxed.count} cards would fit only with {least:g} mm of bleed "
            f"at the {edges} edges of the block; at least {need:g} mm is kept there, so that a sheet fed a little "
            f"off shows no white edge: {best.cols} × {best.rows} = {best.count} per sheet{hint}",)


def guide_lines(sheet: Sheet) -> tuple[Line, ...]:
    """Optional cut-line guides: every cut line drawn across the block."""
    b = sheet.block
    return tuple([Line(x, b.y, x, b.top) for x in sheet.cut_x] + [Line(b.x, y, b.right, y) for y in sheet.cut_y])
