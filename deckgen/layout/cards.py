"""From a deck and its rendered faces to the bytes of a print-and-play PDF.

The options (:class:`LayoutOptions`) are all a build of cached card sheets needs from here: the
imposition, the cut files and the registration marks are imported by the functions that lay
sheets out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen.errors import DeckgenError, error
from deckgen.layout.marks import MarkStyle
from deckgen.layout.papers import Paper, parse_paper

if TYPE_CHECKING:
    from deckgen.layout.geometry import Sheet
    from deckgen.layout.imposition import CardCopy, PagePlan
    from deckgen.model import Deck
    from deckgen.progress import Progress

LAYOUTS = ("sheets", "fold")
BACKS = ("deck", "none")


@dataclass(frozen=True)
class LayoutOptions:
    paper: str | Paper = "a4"
    margin_mm: float | None = None            # None: the paper preset's margin
    gap_mm: float | None = None               # None: twice the bleed (full bleed around every card)
    duplex: str = "long"                      # long | short | none
    back_offset_mm: tuple[float, float] = (0.0, 0.0)   # (right, down) applied to backs
    marks: MarkStyle = field(default_factory=MarkStyle)
    guides: bool = False
    cover: bool = True
    layout: str = "sheets"                    # sheets: fronts and backs on their own pages | fold
    backs: str = "deck"                       # deck: every card's back | none: fronts only
    orientation: str = "auto"                 # auto | portrait | landscape
    forced: tuple[str, ...] = ()              # built with --force despite these check errors (said on the cover)
    fit: str = "most"                         # most: the most cards the printable area holds | full-bleed
    cut_file: str = "none"                    # none | svg | dxf: print-then-cut outlines of the cards, one file per sheet
    corner_radius_mm: float | None = None     # the cut outlines' corners; None: 5 % of the card's shorter side
    back_style: str = "full"                  # full: the rendered back | light: ink-saving outline (lightback.py)
    corner_guides: bool = False               # the rounded cut outline drawn faintly on every front
    card_ids: bool = False                    # each card's id in the gutter under it (needs a gap)
    registration: str = "none"                # none | silhouette: print-then-cut marks (registration.py) | cricut: refused


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
    cut_files: tuple[tuple[int, bytes], ...] = ()     # (sheet number, SVG or DXF) with --cut-file
    cut_format: str = "none"                          # the cut files' format: svg or dxf


def _check(options: LayoutOptions) -> None:
    from deckgen.layout.cutfile import CUT_FORMATS
    from deckgen.layout.lightback import BACK_STYLES
    from deckgen.layout.registration import check_registration

    problems = []
    if options.layout not in LAYOUTS:
        problems.append(error("layout", "--layout", f"unknown layout '{options.layout}'", hint="use sheets or fold"))
    if options.cut_file not in CUT_FORMATS:
        problems.append(error("cut-file", "--cut-file", f"unknown cut file '{options.cut_file}'", hint="use none, svg or dxf"))
    if options.corner_radius_mm is not None and options.corner_radius_mm < 0:
        problems.append(error("corner-radius", "--corner-radius", "a corner radius cannot be negative",
                              hint="0 cuts square corners"))
    if options.back_style not in BACK_STYLES:
        problems.append(error("back-style", "--back-style", f"unknown back style '{options.back_style}'",
                              hint="use full or light"))
    problems += check_registration(options.registration, options.layout)
    if options.backs not in BACKS:
        problems.append(error("backs", "--backs", f"unknown backs '{options.backs}'", hint="use deck or none"))
    if options.layout == "fold" and options.backs == "none":
        problems.append(error("layout", "--layout", "--layout fold folds each back behind its front, and "
                              "--backs none prints no backs", hint="leave out one of the two"))
    if problems:
        raise DeckgenError(problems)


def cards_pdf_for_deck(deck: Deck, images: Mapping[str, Path], trim_mm: tuple[float, float], bleed_mm: float,
                       options: LayoutOptions = LayoutOptions(), progress: Progress | None = None) -> CardsPdf:
    """The cards PDF; with ``back_style="light"`` the deck back is the ink-saving outline back."""
    import tempfile

    from deckgen.layout.imposition import BACK
    from deckgen.layout.lightback import write_light_back

    _check(options)
    if options.back_style == "light" and BACK in images:
        with tempfile.TemporaryDirectory(prefix="deckgen-back-") as tmp:
            light = write_light_back(deck, Path(images[BACK]), (trim_mm[0], trim_mm[1]), bleed_mm, Path(tmp))
            return _cards_pdf(deck, {**images, BACK: light}, trim_mm, bleed_mm, options, progress)
    return _cards_pdf(deck, images, trim_mm, bleed_mm, options, progress)


def _cards_pdf(deck: Deck, images: Mapping[str, Path], trim_mm: tuple[float, float], bleed_mm: float,
               options: LayoutOptions, progress: Progress | None) -> CardsPdf:
    from deckgen.layout.cover import CoverInfo, Cutting, cover_languages, sheet_label
    from deckgen.layout.cutfile import cut_files, default_corner_radius, id_labels
    from deckgen.layout.cutplan import cut_plan
    from deckgen.layout.geometry import SheetSpec, guide_lines, plan_sheet
    from deckgen.layout.imposition import card_copies, impose, into_margin, two_sided
    from deckgen.layout.pdf import PdfMeta, SheetExtras, cards_pdf
    from deckgen.layout.registration import band_clear, plan_for_marks, silhouette_marks
    from deckgen.words import COVER_TEXT

    paper = parse_paper(options.paper)
    margin = paper.margin_mm if options.margin_mm is None else options.margin_mm
    fold = options.layout == "fold"
    marked = options.registration == "silhouette"
    machine = marked or options.cut_file != "none"          # print-then-cut: bleed between cards where it costs none
    spec = SheetSpec(paper.size_mm, (trim_mm[0], trim_mm[1]), bleed_mm, options.gap_mm, margin,
                     options.marks, options.orientation, fold, options.fit, machine)
    sheet, reg_notes, unmarked = plan_for_marks(spec) if marked else (plan_sheet(spec), (), 0)
    registration = silhouette_marks(sheet.page_mm) if marked else ()
    if options.card_ids and sheet.gaps[1] <= 0:
        raise DeckgenError(error(
            "card-ids", "--card-ids", f"--card-ids prints each id in the gutter between cards, and this sheet "
            f"({sheet.cols} × {sheet.rows}, --fit {options.fit}) puts the cards edge to edge with no gutter",
            hint="add --fit full-bleed (or a --gap such as 4mm) for gutters, with fewer cards per sheet"))
    radius = default_corner_radius(trim_mm) if options.corner_radius_mm is None else options.corner_radius_mm
    backs = options.backs == "deck"
    duplex = options.duplex if backs and not fold else "none"
    copies = card_copies(deck)
    if not backs and options.back_offset_mm != (0.0, 0.0):
        raise DeckgenError(error("back-offset", "--back-offset", "--back-offset does nothing with --backs none",
                                 hint="it corrects a duplex printer's shift of the backs; leave it out here"))
    pages = impose(copies, sheet, duplex, options.back_offset_mm, backs)
    notes = list(sheet.notes) + list(reg_notes)
    clipped = into_margin(sheet, duplex, options.back_offset_mm)
    if clipped > 0.05:
        notes.append(f"--back-offset pushes the backs up to {clipped:.1f} mm into the {margin:g} mm margin, where "
                     f"nothing is printed: backs on the sheet's edge may show that much white at their edge")
    glued = [c for c in copies if two_sided(c)] if not backs else []
    if glued:
        fronts = {c.front for c in glued}
        names = ", ".join(comp.id for comp in deck.components if comp.faces and comp.faces[0] in fronts)
        glue_sheets = len({p.sheet_no for p in pages if any(two_sided_face(p, glued))})
        notes.append(f"--backs none: the {len(glued)} two-sided cards ({names}) are printed on both sides: "
                     f"their fronts and then their second sides on {glue_sheets} sheet(s) after the other "
                     f"fronts, each second-side page to glue behind the page before it")
    extras = sum(1 for c in copies if c.component)
    sheets = len({p.sheet_no for p in pages})
    paper_sheets = sheets if duplex in ("long", "short") and backs else len(pages)   # one-sided: a sheet a page
    lang = deck.language
    title = deck.name(lang)
    cover = None
    if options.cover:
        mode = "fold" if fold else (options.duplex if backs else "fronts")
        cover = CoverInfo(title, len(copies) - extras, extras, paper_sheets, len(pages), paper.describe(),
                          (trim_mm[0], trim_mm[1]), bleed_mm, mode, sheet.gaps, sheet.inner_bleeds,
                          sheet.cols, sheet.rows, sheet.landscape, forced=options.forced,
                          cutting=Cutting(sheet.bleed_lr, sheet.bleed_tb, sheet.mark_lr, sheet.mark_tb,
                                          options.marks.length_mm, cut_plan(sheet)),
                          glued=len(glued), calibrate=calibrate_command(paper, sheet, options),
                          registration=(sheet.per_page, unmarked) if marked else None)
    words = COVER_TEXT[cover_languages(lang)[0]]
    meta = PdfMeta(title=words["meta_title"].format(deck=title),
                   subject=words["meta_subject"].format(cards=len(copies), paper=paper.name),
                   keywords=f"deckgen, print and play, {deck.id}", language=lang, fonts=deck.fonts)
    band = band_clear(sheet.label_band, sheet.page_mm) if marked else sheet.label_band
    decor = SheetExtras(cover=cover, margin_mm=margin, stroke_mm=options.marks.stroke_mm,
                        guides=guide_lines(sheet) if options.guides else (),
                        label_band=band, label=sheet_label(title, lang),
                        fold_text=words["fold_word"], registration=registration,
                        corner_radius_mm=radius if options.corner_guides else None,
                        card_ids=(lambda page: id_labels(page, sheet.gaps[1], bleed_mm)) if options.card_ids else None)
    data = cards_pdf(pages, images, sheet.page_mm, meta, decor, progress)
    faces = len({p.face for page in pages for p in page.placements})
    cuts: tuple[tuple[int, bytes], ...] = ()
    if options.cut_file != "none":
        cuts = tuple(cut_files(pages, sheet.page_mm, radius, title, registration, options.cut_file))
    return CardsPdf(data, len(pages) + (2 if cover else 0), paper_sheets + (1 if cover else 0), len(copies),
                    faces, sheet, paper, tuple(notes), cuts, options.cut_file)


def two_sided_face(page: PagePlan, glued: list[CardCopy]) -> list[bool]:
    faces = {c.front for c in glued}
    return [p.face in faces for p in page.placements]


def calibrate_command(paper: Paper, sheet: Sheet, options: LayoutOptions) -> str:
    """The ``deckgen calibrate`` call that measures the back offset in this sheet's frame."""
    if options.layout == "fold" or options.backs == "none" or options.duplex == "none":
        return ""
    turn = "landscape" if sheet.landscape else "portrait"
    name = paper.id if paper.id != "custom" else f"{paper.width_mm:g}mmx{paper.height_mm:g}mm"
    margin = f" --margin {options.margin_mm:g}mm" if options.margin_mm is not None else ""
    return f"deckgen calibrate --paper {name}{margin} --orientation {turn} --duplex {options.duplex}"
