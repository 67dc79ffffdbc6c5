"""Print-and-play sheets: paper, grid, crop marks, duplex backs, and the PDF itself.

Public API::

    parse_paper("a4") -> Paper              load_papers() -> {id: Paper}
    plan_sheet(SheetSpec(...)) -> Sheet     impose(copies, sheet, duplex, back_offset, backs) -> [PagePlan]
    sheet_flip(sheet, duplex) -> Flip       the physical turn that brings each back behind its front
    offset_limits(sheet, duplex)            the --back-offset range that keeps backs inside the margin
    cards_pdf_for_deck(deck, images, trim_mm, bleed_mm, LayoutOptions(...)) -> CardsPdf
    calibration_pdf(paper, duplex) -> bytes
    printready.prepare(canvas)              PDF 1.4, ICC images, distinct font subset tags
    write_bytes(path, data)                 (atomic)

The PDF writing (ReportLab) is imported by the functions that write one: a build whose card
sheets come from the cache never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.atomic import write_bytes, write_text
from deckgen.layout.cards import CardsPdf, LayoutOptions, cards_pdf_for_deck
from deckgen.layout.marks import MarkStyle
from deckgen.layout.papers import Paper, load_papers, parse_paper

if TYPE_CHECKING:
    from deckgen.layout.calibrate import calibration_pdf
    from deckgen.layout.geometry import Line, Rect, Sheet, SheetSpec, Slot, guide_lines, partial, plan_sheet
    from deckgen.layout.imposition import (
        DUPLEX_MODES,
        CardCopy,
        Flip,
        PagePlan,
        Placement,
        back_rect,
        card_copies,
        impose,
        offset_limits,
        page_flip,
        sheet_flip,
    )

_GEOMETRY = ("Line", "Rect", "Sheet", "SheetSpec", "Slot", "guide_lines", "partial", "plan_sheet")
_IMPOSITION = ("DUPLEX_MODES", "CardCopy", "Flip", "PagePlan", "Placement", "back_rect", "card_copies", "impose",
               "offset_limits", "page_flip", "sheet_flip")

__all__ = [
           "DUPLEX_MODES",
           "CardCopy",
           "CardsPdf",
           "Flip",
           "LayoutOptions",
           "Line",
           "MarkStyle",
           "PagePlan",
           "Paper",
           "Placement",
           "Rect",
           "Sheet",
           "SheetSpec",
           "Slot",
           "back_rect",
           "calibration_pdf",
           "card_copies",
           "cards_pdf_for_deck",
           "guide_lines",
           "impose",
           "load_papers",
           "offset_limits",
           "page_flip",
           "parse_paper",
           "partial",
           "plan_sheet",
           "sheet_flip",
           "write_bytes",
           "write_text",
]


def __getattr__(name: str) -> object:
    """``calibration_pdf`` (its module imports ReportLab's canvas), the sheet planner's and the
    imposition's names (a build of cached card sheets lays none out), imported when first used."""
    if name == "calibration_pdf":
        from deckgen.layout.calibrate import calibration_pdf

        return calibration_pdf
    if name in _GEOMETRY:
        from deckgen.layout import geometry

        return getattr(geometry, name)
    if name in _IMPOSITION:
        from deckgen.layout import imposition

        return getattr(imposition, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
