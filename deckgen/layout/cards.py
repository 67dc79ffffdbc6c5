"""From a deck and its rendered faces to the bytes of a print-and-play PDF."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from deckgen.layout.cover import TEXT, CoverInfo, cover_languages, sheet_label
from deckgen.layout.geometry import MarkStyle, Sheet, SheetSpec, guide_lines, plan_sheet
from deckgen.layout.imposition import card_copies, impose
from deckgen.layout.papers import Paper, parse_paper
from deckgen.layout.pdf import PdfMeta, cards_pdf
from deckgen.model import Deck
from deckgen.progress import Progress


@dataclass(frozen=True)
class LayoutOptions:
    paper: str | Paper = "a4"
    margin_mm: float = 5.0
    gap_mm: float = 0.0
    duplex: str = "long"                      # long | short | none
    back_offset_mm: tuple[float, float] = (0.0, 0.0)   # (right, down) applied to backs
    marks: MarkStyle = field(default_factory=MarkStyle)
    guides: bool = False
    cover: bool = True


@dataclass(frozen=True)
class CardsPdf:
    data: bytes
    pages: int
    sheets: int
    cards: int               # physical cards laid out (components included)
    faces: int               # distinct images embedded
    sheet: Sheet
    paper: Paper
    notes: tuple[str, ...]


def cards_pdf_for_deck(deck: Deck, images: Mapping[str, Path], trim_mm: tuple[float, float], bleed_mm: float,
                       options: LayoutOptions = LayoutOptions(), progress: Progress | None = None) -> CardsPdf:
    paper = parse_paper(options.paper)
    sheet = plan_sheet(SheetSpec(paper.size_mm, tuple(trim_mm), bleed_mm, options.gap_mm, options.margin_mm,
                                 options.marks))
    copies = card_copies(deck)
    pages = impose(copies, sheet, options.duplex, options.back_offset_mm)
    extras = sum(1 for c in copies if c.component)
    lang = deck.language
    title = deck.name(lang)
    cover = None
    if options.cover:
        cover = CoverInfo(title, len(copies) - extras, extras, len(pages) // 2, len(pages),
                          paper.describe(), tuple(trim_mm), bleed_mm,
                          options.duplex, options.gap_mm)
    words = TEXT[cover_languages(lang)[0]]
    meta = PdfMeta(title=words["meta_title"].format(deck=title),
                   subject=words["meta_subject"].format(cards=len(copies), paper=paper.name),
                   keywords=f"deckgen, print and play, {deck.id}", language=lang, fonts=deck.fonts)
    data = cards_pdf(pages, images, paper.size_mm, meta, cover=cover, margin_mm=options.margin_mm,
                     stroke_mm=options.marks.stroke_mm, guides=guide_lines(sheet) if options.guides else (),
                     progress=progress, label_band=sheet.label_band, label=sheet_label(title, lang))
    faces = len({p.face for page in pages for p in page.placements})
    return CardsPdf(data, len(pages) + (2 if cover else 0), len(pages) // 2 + (1 if cover else 0), len(copies),
                    faces, sheet, paper, sheet.notes)
