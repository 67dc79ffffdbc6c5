"""The rulebook's last page: printing and making the game (paper, cardstock, cutting order).

Written here rather than in the templates so that every deck, bundled or not, tells its
players what to print on which paper and in what order to cut (its words:
:data:`deckgen.words.PRINTING_TEXT` and the tables after it). The cutting order is the one the
cards PDF's cover prints for the same sheet (:func:`deckgen.layout.cutplan.cutting_steps`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.layout.imposition import card_copies
from deckgen.layout.papers import parse_paper
from deckgen.model import Deck
from deckgen.rulebook.markup import Item, parse
from deckgen.words import PRINTING_BOOKLET, PRINTING_CORNERS, PRINTING_COUNTED, PRINTING_FLIP, PRINTING_TEXT

if TYPE_CHECKING:
    from deckgen.layout.geometry import Sheet

DEFAULT_BLEED_MM = 3.0      # deckgen build's --bleed default


def printing_items(deck: Deck, lang: str, paper: str = "a4", booklet: bool = False) -> list[Item]:
    """The printing page as markup items, in ``lang`` (English for a language without text)."""
    from deckgen.layout.cover import cover_languages
    from deckgen.layout.cutplan import cut_plan, cutting_steps
    from deckgen.render import card_size_mm

    code = lang if lang in PRINTING_TEXT else "en"
    w, h = card_size_mm(deck.card_size)
    covers = len(cover_languages(deck.language))      # the cards PDF's instruction pages, before the sheets
    extra = PRINTING_BOOKLET[code] if booklet else {"paper": "", "steps": ""}
    sheet = default_sheet(deck, paper)
    copies = card_copies(deck)
    extras = [c for c in copies if c.component]
    one, both = PRINTING_COUNTED[code]
    names = ", ".join(dict.fromkeys(comp.names.get(code) for comp in deck.components if comp.count))
    counted = (both if extras else one).format(cards=len(copies) - len(extras), extras=len(extras),
                                               names=names, total=len(copies))
    flip = PRINTING_FLIP["landscape" if sheet.landscape else "portrait"]
    paper_name = parse_paper(paper).name
    steps = [*cutting_steps(cut_plan(sheet), code), PRINTING_CORNERS[code]]
    cutting = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
    text = PRINTING_TEXT[code].format(cards_pdf=f"{deck.id}-cards.pdf", covers=covers, first_sheet=covers + 1,
                             counted=counted, per=sheet.per_page, paper=paper_name,
                             sheets=-(-len(copies) // sheet.per_page), total_cards=len(copies),
                             flip_name=flip[0], flip_how=flip[1], flip_name_es=flip[2], flip_how_es=flip[3],
                             size=f"{w:g} × {h:g} mm", cutting=cutting, booklet_paper=extra["paper"],
                             booklet_steps=extra["steps"])
    return parse(text)


def default_sheet(deck: Deck, paper: str = "a4") -> Sheet:
    """The card sheet ``deckgen build`` lays out by default for this deck on ``paper`` (the same
    figures as the cards PDF's cover)."""
    from deckgen.layout import LayoutOptions, SheetSpec, parse_paper, plan_sheet
    from deckgen.render import card_size_mm

    options = LayoutOptions(paper=paper)
    p = parse_paper(paper)
    trim = card_size_mm(deck.card_size)
    return plan_sheet(SheetSpec(p.size_mm, trim, DEFAULT_BLEED_MM, None, p.margin_mm, options.marks,
                                options.orientation, False, options.fit))
