"""Which face goes where: card copies onto slots, fronts and backs onto pages.

Fronts fill the slots row by row from the top-left; each front page is followed by its
back page. The backs go where the physical turn of the sheet (:func:`sheet_flip`) brings
them: mirrored left-right when the sheet turns about a vertical axis (long edge of a
portrait page, short edge of a landscape one), top-bottom and upside down when it turns
about a horizontal axis, so every back lies behind its own front, the same way up.
``none`` (single-sided, glue the sheets back to back) turns left-right; ``fold`` puts the
backs on the same page, mirrored across the fold line.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.errors import DeckgenError, error
from deckgen.layout.geometry import EPS, Line, Rect, Sheet, partial
from deckgen.model import Deck

DUPLEX_MODES = ("long", "short", "none")
BACK = "back"


@dataclass(frozen=True)
class CardCopy:
    """One physical card: the face printed on its front and the one on its back."""

    front: str
    back: str
    component: bool = False


@dataclass(frozen=True)
class Placement:
    face: str
    image: Rect     # full image rectangle: trim + bleed on every side
    clip: Rect      # what is shown of it
    trim: Rect
    rotate: int = 0  # 180: the image is drawn upside down in its rectangle


@dataclass(frozen=True)
class PagePlan:
    side: str                      # "front", "back" or "fold" (fronts and backs on one page)
    sheet_no: int                  # 1-based sheet of paper
    placements: tuple[Placement, ...]
    marks: tuple[Line, ...]
    fold_line: Line | None = None
    rules: tuple[Line, ...] = ()   # cut lines printed across the cards where crop marks do not fit


def card_copies(deck: Deck) -> list[CardCopy]:
    """Every card to print: each playing card ``count`` times, then the components
    (a component's first face is its front, its second face its back)."""
    out = [CardCopy(card.id, BACK) for card in deck.cards for _ in range(card.count)]
    for comp in deck.components:
        if not comp.faces:
            continue
        back = comp.faces[1] if len(comp.faces) > 1 else BACK
        out.extend(CardCopy(comp.faces[0], back, True) for _ in range(comp.count))
    return out


@dataclass(frozen=True)
class Flip:
    """How a point on the front of the sheet reaches the page the back is printed from.

    ``axis`` "x": the sheet turns about a vertical line (a mirror left-right about ``at``);
    "y": about a horizontal line (top-bottom about ``at``), which also turns each back
    upside down on its page, so it stands the same way up as its front once turned over.
    """

    axis: str
    at: float

    @property
    def rotate(self) -> int:
        return 180 if self.axis == "y" else 0

    def point(self, x: float, y: float) -> tuple[float, float]:
        return (2 * self.at - x, y) if self.axis == "x" else (x, 2 * self.at - y)

    def rect(self, r: Rect) -> Rect:
        if self.axis == "x":
            return Rect(2 * self.at - r.right, r.y, r.w, r.h)
        return Rect(r.x, 2 * self.at - r.top, r.w, r.h)

    def line(self, ln: Line) -> Line:
        if self.axis == "x":
            return Line(2 * self.at - ln.x1, ln.y1, 2 * self.at - ln.x2, ln.y2)
        return Line(ln.x1, 2 * self.at - ln.y1, ln.x2, 2 * self.at - ln.y2)


def sheet_flip(sheet: Sheet, duplex: str) -> Flip:
    """The physical turn that brings each back behind its front.

    A long-edge flip turns the sheet about its long edges: a vertical axis on a portrait page,
    a horizontal one on a landscape page; a short-edge flip the other way round. Sheets glued
    back to back (``none``) are turned left-right; a fold sheet folds on its fold line.
    """
    if sheet.fold:
        return Flip("x" if sheet.fold == "vertical" else "y", sheet.fold_at)
    return page_flip(sheet.page_mm, duplex)


def page_flip(page_mm: tuple[float, float], duplex: str) -> Flip:
    """The turn of a whole page of this size for ``long``, ``short`` or ``none`` (left-right)."""
    w, h = page_mm
    if duplex == "none":
        return Flip("x", w / 2)
    long_is_vertical = h >= w
    about_vertical = long_is_vertical if duplex == "long" else not long_is_vertical
    return Flip("x", w / 2) if about_vertical else Flip("y", h / 2)


def back_rect(rect: Rect, sheet: Sheet, duplex: str, offset: tuple[float, float]) -> Rect:
    """Where a front rectangle's back goes on the back page; ``offset`` is (right, down) in mm."""
    r = sheet_flip(sheet, duplex).rect(rect)
    if duplex == "none" or sheet.fold:
        return r
    return r.shifted(offset[0], -offset[1])


def offset_limits(sheet: Sheet, duplex: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """((min X, max X), (min Y, max Y)): the --back-offset that keeps every back's trim on the paper.

    Backs are clipped at the margin wherever the offset pushes them into it (see :func:`impose`)."""
    w, h = sheet.page_mm
    flip = sheet_flip(sheet, duplex)
    trims = [flip.rect(s.trim) for s in sheet.slots]
    x_lo = max(-t.x for t in trims)
    x_hi = min(w - t.right for t in trims)
    y_lo = max(t.top - h for t in trims)           # Y is down: the back moves by -Y
    y_hi = min(t.y for t in trims)
    return (x_lo, x_hi), (y_lo, y_hi)


def check_offset(sheet: Sheet, duplex: str, offset: tuple[float, float]) -> None:
    """A --back-offset that would push a back off the paper is an error naming the limits."""
    if duplex == "none" or sheet.fold:
        if offset != (0.0, 0.0):
            what = "--layout fold" if sheet.fold else "--duplex none"
            raise DeckgenError(error("back-offset", "--back-offset", f"--back-offset does nothing with {what}",
                                     hint="it corrects a duplex printer's shift; leave it out here"))
        return
    (x_lo, x_hi), (y_lo, y_hi) = offset_limits(sheet, duplex)
    x, y = offset
    if x_lo - EPS <= x <= x_hi + EPS and y_lo - EPS <= y <= y_hi + EPS:
        return
    m = sheet.spec.margin_mm
    raise DeckgenError(error(
        "back-offset", "--back-offset",
        f"--back-offset {x:g},{y:g} mm would push backs off the paper, past the {m:g} mm margin: on this sheet "
        f"X must stay between {x_lo:+.1f} and {x_hi:+.1f} mm and Y between {y_lo:+.1f} and {y_hi:+.1f} mm",
        hint="measure the offset again with deckgen calibrate (a printer's shift is a few millimetres at most)"))


def into_margin(sheet: Sheet, duplex: str, offset: tuple[float, float]) -> float:
    """How far (mm) the offset pushes the backs' visible area into the margin, where it is clipped."""
    if duplex == "none" or sheet.fold or offset == (0.0, 0.0):
        return 0.0
    box = _printable(sheet)
    flip = sheet_flip(sheet, duplex)
    worst = 0.0
    for s in sheet.slots:
        r = flip.rect(s.clip).shifted(offset[0], -offset[1])
        worst = max(worst, box.x - r.x, r.right - box.right, box.y - r.y, r.top - box.top)
    return max(0.0, worst)


def _printable(sheet: Sheet) -> Rect:
    w, h = sheet.page_mm
    m = sheet.spec.margin_mm
    return Rect(m, m, w - 2 * m, h - 2 * m)


def _inside(r: Rect, box: Rect) -> Rect:
    """``r`` cut down to ``box`` (unchanged when it is inside already)."""
    if r.x >= box.x - EPS and r.y >= box.y - EPS and r.right <= box.right + EPS and r.top <= box.top + EPS:
        return r
    x0, y0 = max(r.x, box.x), max(r.y, box.y)
    x1, y1 = min(r.right, box.right), min(r.top, box.top)
    return Rect(x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0))


def two_sided(copy: CardCopy) -> bool:
    """A component whose second face is its own (a Power card's red side), not the deck back."""
    return copy.component and copy.back != BACK


def impose(copies: list[CardCopy], sheet: Sheet, duplex: str = "long",
           back_offset: tuple[float, float] = (0.0, 0.0), backs: bool = True) -> list[PagePlan]:
    """Pages of fronts and backs.

    Double-sided (``long``/``short``) and glued (``none``): a page of fronts, then its page of
    backs. A fold sheet: one page with both, the backs mirrored across the fold line.
    ``backs=False``: pages of fronts only, except for two-sided components (:func:`two_sided`):
    they come last, on sheets of their own, each sheet of their fronts followed by the sheet
    of their second sides placed for gluing behind them (as with ``none``).
    """
    if duplex not in DUPLEX_MODES:
        raise DeckgenError(error("duplex", "--duplex", f"unknown duplex mode '{duplex}'",
                                 hint="use long, short or none"))
    check_offset(sheet, duplex, back_offset)
    if not backs:
        plain = [c for c in copies if not two_sided(c)]
        pages = _pages(plain, sheet, "none", (0.0, 0.0), False, 0)
        glued = _pages([c for c in copies if two_sided(c)], sheet, "none", (0.0, 0.0), True,
                       len({p.sheet_no for p in pages}))
        return pages + glued
    return _pages(copies, sheet, duplex, back_offset, True, 0)


def _pages(copies: list[CardCopy], sheet: Sheet, duplex: str, back_offset: tuple[float, float], backs: bool,
           first_no: int) -> list[PagePlan]:
    flip = sheet_flip(sheet, duplex)
    shifted = duplex != "none" and not sheet.fold and back_offset != (0.0, 0.0)
    shift = (back_offset[0], -back_offset[1]) if shifted else (0.0, 0.0)
    box = _printable(sheet)

    def back(r: Rect, clip: bool = False) -> Rect:
        out = flip.rect(r).shifted(*shift) if shifted else flip.rect(r)
        return _inside(out, box) if clip and shifted else out

    pages: list[PagePlan] = []
    n = sheet.per_page
    for first in range(0, len(copies), n):
        chunk = copies[first:first + n]
        slots, marks, rules = partial(sheet, len(chunk))
        fronts, backs_ = [], []
        for copy, slot in zip(chunk, slots):
            fronts.append(Placement(copy.front, slot.image, slot.clip, slot.trim))
            backs_.append(Placement(copy.back, back(slot.image), back(slot.clip, True), back(slot.trim),
                                    flip.rotate))
        no = first_no + first // n + 1
        mirrored = tuple(flip.line(ln) for ln in marks)
        if not backs:
            pages.append(PagePlan("front", no, tuple(fronts), marks, rules=rules))
        elif sheet.fold:
            pages.append(PagePlan("fold", no, tuple(fronts + backs_), marks + mirrored, sheet.fold_line,
                                  rules=rules))
        else:
            glue = duplex == "none"
            pages.append(PagePlan("front", no, tuple(fronts), marks, rules=rules))
            pages.append(PagePlan("back", no, tuple(backs_), mirrored if glue else (),
                                  rules=tuple(flip.line(ln) for ln in rules) if glue else ()))
    return pages
