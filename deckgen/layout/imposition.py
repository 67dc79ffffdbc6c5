"""Which face goes where: card copies onto slots, fronts and backs onto pages.

Fronts fill the slots row by row from the top-left; each front page is followed by its
back page. For a long-edge flip the backs are mirrored left-right, for a short-edge flip
top-bottom, so that after the printer turns the sheet every back lies behind its front.
``none`` (single-sided, glue the sheets back to back) mirrors like a long-edge flip.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckgen.errors import DeckgenError, error
from deckgen.layout.geometry import Line, Rect, Sheet, partial
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


@dataclass(frozen=True)
class PagePlan:
    side: str                      # "front" or "back"
    sheet_no: int                  # 1-based sheet of paper
    placements: tuple[Placement, ...]
    marks: tuple[Line, ...]


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


def back_rect(rect: Rect, sheet: Sheet, duplex: str, offset: tuple[float, float]) -> Rect:
    """Where a front rectangle's back goes on the back page; ``offset`` is (right, down) in mm."""
    pw, ph = sheet.spec.paper_mm
    if duplex == "short":
        r = rect.mirrored_y(ph)
    else:
        r = rect.mirrored_x(pw)
    if duplex == "none":
        return r
    return r.shifted(offset[0], -offset[1])


def impose(copies: list[CardCopy], sheet: Sheet, duplex: str = "long",
           back_offset: tuple[float, float] = (0.0, 0.0)) -> list[PagePlan]:
    if duplex not in DUPLEX_MODES:
        raise DeckgenError(error("duplex", "--duplex", f"unknown duplex mode '{duplex}'",
                                 hint="use long, short or none"))
    pages: list[PagePlan] = []
    n = sheet.per_page
    pw = sheet.spec.paper_mm[0]
    for first in range(0, len(copies), n):
        chunk = copies[first:first + n]
        slots, marks = partial(sheet, len(chunk))
        fronts, backs = [], []
        for copy, slot in zip(chunk, slots):
            fronts.append(Placement(copy.front, slot.image, slot.clip, slot.trim))
            backs.append(Placement(copy.back, back_rect(slot.image, sheet, duplex, back_offset),
                                   back_rect(slot.clip, sheet, duplex, back_offset),
                                   back_rect(slot.trim, sheet, duplex, back_offset)))
        back_marks = tuple(Line(pw - ln.x1, ln.y1, pw - ln.x2, ln.y2) for ln in marks) if duplex == "none" else ()
        no = first // n + 1
        pages.append(PagePlan("front", no, tuple(fronts), marks))
        pages.append(PagePlan("back", no, tuple(backs), back_marks))
    return pages
