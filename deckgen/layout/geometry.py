"""Sheet geometry in millimetres, origin at the page's lower-left corner (as in PDF).

:func:`plan_sheet` turns paper, margin, card size, bleed and gap into a grid of card slots
(the block centred on the page, or on the front half of a fold sheet), the cut lines, and
the crop marks that sit outside the block on every cut line. It chooses portrait or
landscape and the number of rows and columns.

Two ways to fill a sheet (``SheetSpec.fit``):

- ``most`` (the default): the most cards the printable area holds. When separate bleeds
  would cost cards, the cards sit edge to edge on shared cut lines and the block's outer
  edges keep as much bleed as fits before the margin (down to none). Crop marks keep their
  length where they fit, are shortened where only a shorter one fits (at least
  :data:`MIN_MARK`), and where not even that fits the cut lines of that direction are
  printed across the block instead (:attr:`Sheet.rules`), so every cut line has a guide.
- ``full-bleed``: the default gap (twice the bleed) gives every card its full bleed, and
  bleed, mark offset and mark length are never reduced below what was asked: fewer cards
  go on the sheet instead. A fold sheet tries shorter crop marks (down to
  :data:`MIN_MARK`) before it drops a card.

An explicit gap always lays out like ``full-bleed`` with that gap: each card shows half the
gap towards its neighbours (with 0 they share their cut line), and the sheet's notes say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from deckgen.errors import DeckgenError, error
from deckgen.layout.marks import MarkStyle

EPS = 1e-6
MIN_MARK = 2.0          # mm: the shortest crop mark worth printing; below it, cut lines are printed instead
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
    edge_bleed: tuple[float, float] = (-1.0, -1.0)   # bleed outside the block (left/right, top/bottom); <0: full
    mark_mm: tuple[float, float] = (-1.0, -1.0)      # crop-mark length on the left/right and top/bottom edges
    rules: tuple[Line, ...] = ()      # cut lines printed across the block where their crop marks do not fit

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
        b, g = self.spec.bleed_mm, self.gap_mm
        turn = "landscape" if self.landscape else "portrait"
        bleed = (f"bleed {b:g} mm around every card" if self.inner_bleed_mm + EPS >= b
                 else f"bleed {b:g} mm outside, {self.inner_bleed_mm:g} mm between cards")
        if self.bleed_lr + EPS < b or self.bleed_tb + EPS < b:
            bleed = (f"bleed {self.bleed_lr:g} mm left and right, {self.bleed_tb:g} mm top and bottom, "
                     f"{self.inner_bleed_mm:g} mm between cards")
        fold = ", folded" if self.fold else ""
        marks = _marks_phrase(self.mark_lr, self.mark_tb)
        return (f"{turn}{fold}, {self.cols} × {self.rows} = {self.per_page} cards per sheet, {bleed}, "
                f"gap {g:g} mm, {marks}")


def _marks_phrase(lr: float, tb: float) -> str:
    if abs(lr - tb) < EPS:
        return f"crop marks {lr:g} mm" if lr > 0 else "cut lines printed across the block (no room for crop marks)"
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
    gap: float
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


def _choices(spec: SheetSpec, length: float | None = None) -> list[_Choice]:
    """Separate bleeds (or the gap asked for) and crop marks of ``length`` (default: as asked)."""
    cw, ch = spec.card_mm
    length = spec.marks.length_mm if length is None else length
    m, g, b = spec.margin_mm, spec.gap, spec.bleed_mm
    e = b + spec.marks.offset_mm + length
    out = []
    for w, h in _pages(spec):
        def choice(area: Rect, fold: str, w: float = w, h: float = h) -> _Choice:
            return _Choice((w, h), _count(area.w, cw, g, e), _count(area.h, ch, g, e), fold, area, g,
                           (b, b), (length, length))

        if not spec.fold:
            out.append(choice(Rect(m, m, w - 2 * m, h - 2 * m), ""))
            continue
        # the fold side needs no margin: the front half's marks end at the fold line
        out.append(choice(Rect(m, m, w / 2 - m, h - 2 * m), "vertical"))
        out.append(choice(Rect(m, h / 2, w - 2 * m, h / 2 - m), "horizontal"))
    return out


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


def _tight_choices(spec: SheetSpec) -> list[_Choice]:
    """Cards edge to edge on shared cut lines, as many as fit inside the margin."""
    cw, ch = spec.card_mm
    m, b, off, length = spec.margin_mm, spec.bleed_mm, spec.marks.offset_mm, spec.marks.length_mm
    out = []
    for w, h in _pages(spec):
        area = Rect(m, m, w - 2 * m, h - 2 * m)
        cols, rows = _count(area.w, cw, 0.0, 0.0), _count(area.h, ch, 0.0, 0.0)
        room_x, room_y = (area.w - cols * cw) / 2, (area.h - rows * ch) / 2
        bx, by = max(0.0, min(b, room_x)), max(0.0, min(b, room_y))
        mx, my = _fit_mark(room_x - bx - off, length), _fit_mark(room_y - by - off, length)
        out.append(_Choice((w, h), cols, rows, "", area, 0.0, (bx, by), (mx, my)))
    return out


def _tight_score(c: _Choice) -> tuple[int, int, float, float]:
    return c.count, (c.mark[0] > 0) + (c.mark[1] > 0), c.mark[0] + c.mark[1], c.bleed[0] + c.bleed[1]


def plan_sheet(spec: SheetSpec) -> Sheet:
    """The grid with the most cards, laid out as ``spec.fit`` says (see the module docstring).

    Portrait and landscape (and, folded, both fold directions) are tried; ties keep the paper
    as given. If not even one card fits the answer is an error naming what to change.
    """
    if spec.orientation not in ORIENTATIONS:
        raise DeckgenError(error("orientation", "--orientation", f"unknown orientation '{spec.orientation}'",
                                 hint="use auto, portrait or landscape"))
    if spec.fit not in FITS:
        raise DeckgenError(error("fit", "--fit", f"unknown fit '{spec.fit}'", hint="use most or full-bleed"))
    cw, ch = spec.card_mm
    choices = _fold_choices(spec) if spec.fold else _choices(spec)
    best = max(choices, key=lambda c: c.count) if choices else None
    separate = best.count if best else 0
    edge_to_edge = False
    if spec.fit == "most" and spec.gap_mm is None and not spec.fold:
        tight = max(_tight_choices(spec), key=_tight_score, default=None)
        if tight is not None and tight.count > separate:
            best, edge_to_edge = tight, True
    if best is None or best.count == 0:
        pw, ph = spec.paper_mm
        fold = " folded in half," if spec.fold else ""
        raise DeckgenError(error(
            "paper-too-small", "--paper",
            f"a {cw:g} × {ch:g} mm card with {spec.bleed_mm:g} mm bleed and {spec.marks.length_mm:g} mm crop marks "
            f"{spec.marks.offset_mm:g} mm out does not fit on {pw:g} × {ph:g} mm paper,{fold} inside a "
            f"{spec.margin_mm:g} mm margin",
            hint="use larger paper, or a smaller --margin, --bleed, --mark-length or --mark-offset"))
    gap = best.gap
    cols, rows, area = best.cols, best.rows, best.area
    bw, bh = cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap
    block = Rect(area.x + (area.w - bw) / 2, area.y + (area.h - bh) / 2, bw, bh)
    bleed = spec.bleed_mm
    bx, by = best.bleed
    inner = min(bleed, gap / 2)
    slots: list[Slot] = []
    for r in range(rows):
        for c in range(cols):
            trim = Rect(block.x + c * (cw + gap), block.top - (r + 1) * ch - r * gap, cw, ch)
            clip = trim.grow(bx if c == 0 else inner, bx if c == cols - 1 else inner,
                             by if r == rows - 1 else inner, by if r == 0 else inner)
            slots.append(Slot(len(slots), r, c, trim, trim.grow(bleed, bleed, bleed, bleed), clip))
    cut_x = _lines([block.x + c * (cw + gap) for c in range(cols)], cw)
    cut_y = _lines([block.y + r * (ch + gap) for r in range(rows)], ch)
    mx, my = best.mark
    edges = _Edges((bx, bx, by, by), (mx, mx, my, my), spec.marks.length_mm > 0)
    marks, rules = _guides(block, cut_x, cut_y, spec.marks.offset_mm, edges)
    fold_at = 0.0
    if best.fold == "vertical":
        fold_at = best.page[0] / 2
    elif best.fold == "horizontal":
        fold_at = best.page[1] / 2
    notes = _notes(spec) + _fit_notes(spec, best, separate, edge_to_edge)
    return Sheet(spec, best.page, cols, rows, tuple(slots), cut_x, cut_y, marks, block, gap, inner,
                 best.fold, fold_at, notes, _label_band(spec, block, bx + (spec.marks.offset_mm + mx if mx else 0)),
                 (bx, by), (mx, my), rules)


def _lines(starts: list[float], size: float) -> tuple[float, ...]:
    out: list[float] = []
    for s in starts:
        for v in (s, s + size):
            if not out or abs(v - out[-1]) > EPS:
                out.append(v)
    return tuple(out)


@dataclass(frozen=True)
class _Edges:
    bleed: tuple[float, float, float, float]     # outer bleed: left, right, bottom, top
    mark: tuple[float, float, float, float]      # crop-mark length on each edge (0: none)
    rules: bool                                  # print cut lines where a crop mark does not fit


def _guides(block: Rect, cut_x: tuple[float, ...], cut_y: tuple[float, ...], offset: float,
            edges: _Edges) -> tuple[tuple[Line, ...], tuple[Line, ...]]:
    """Crop marks outside the block on every cut line, and cut lines across it where no mark fits."""
    bl, br, bb, bt = edges.bleed
    ml, mr, mb, mt = edges.mark
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
    if edges.rules and (mb <= 0 or mt <= 0):
        rules.extend(Line(x, block.y - bb, x, block.top + bt) for x in cut_x)
    if edges.rules and (ml <= 0 or mr <= 0):
        rules.extend(Line(block.x - bl, y, block.right + br, y) for y in cut_y)
    return tuple(marks), tuple(rules)


def partial(sheet: Sheet, used: int) -> tuple[tuple[Slot, ...], tuple[Line, ...], tuple[Line, ...]]:
    """Slots, crop marks and printed cut lines of a page that fills only its first ``used`` slots.

    Cards keep their places; an edge that faces an empty slot gets its full bleed, and the
    marks frame the cards that are there instead of the whole grid.
    """
    if used >= sheet.per_page:
        return sheet.slots, sheet.marks, sheet.rules
    spec, cols = sheet.spec, sheet.cols
    bleed, inner = spec.bleed_mm, sheet.inner_bleed_mm
    rows_used = math.ceil(used / cols)
    cols_used = cols if rows_used > 1 else used

    def side(r: int, c: int) -> float:
        if not 0 <= c < cols:
            return sheet.bleed_lr
        if not 0 <= r < sheet.rows:
            return sheet.bleed_tb
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
    full = spec.marks.length_mm
    inside_r, inside_b = cols_used < cols, rows_used < sheet.rows     # edges facing empty slots
    edges = _Edges((sheet.bleed_lr, bleed if inside_r else sheet.bleed_lr, bleed if inside_b else sheet.bleed_tb,
                    sheet.bleed_tb),
                   (sheet.mark_lr, full if inside_r else sheet.mark_lr, full if inside_b else sheet.mark_tb,
                    sheet.mark_tb), full > 0)
    marks, rules = _guides(block, cut_x, cut_y, spec.marks.offset_mm, edges)
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


def _fit_notes(spec: SheetSpec, best: _Choice, separate: int, edge_to_edge: bool) -> tuple[str, ...]:
    """What the chosen layout traded, in words for the build summary."""
    out = []
    b, length = spec.bleed_mm, spec.marks.length_mm
    if edge_to_edge:
        out.append(f"cards sit edge to edge on shared cut lines: {best.count} per sheet instead of {separate} with "
                   f"separate bleeds (--fit full-bleed keeps them); a slightly missed cut shows a sliver of the "
                   f"neighbouring card")
        for where, v in (("left and right", best.bleed[0]), ("top and bottom", best.bleed[1])):
            if v + EPS < b:
                out.append(f"the block's {where} edges keep {v:g} mm of bleed instead of {b:g} mm: the printable "
                           f"area ends there")
    for where, v, lines in (("left and right", best.mark[0], "horizontal"), ("top and bottom", best.mark[1], "vertical")):
        if length > 0 and v <= 0:
            out.append(f"no room for crop marks on the {where} edges: the {lines} cut lines are printed across "
                       f"the cards instead")
        elif 0 < v + EPS < length:
            out.append(f"crop marks on the {where} edges are {v:g} mm long instead of {length:g} mm (no room for more)")
    return tuple(out)


def guide_lines(sheet: Sheet) -> tuple[Line, ...]:
    """Optional cut-line guides: every cut line drawn across the block."""
    b = sheet.block
    return tuple([Line(x, b.y, x, b.top) for x in sheet.cut_x] + [Line(b.x, y, b.right, y) for y in sheet.cut_y])
