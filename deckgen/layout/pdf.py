"""Assembling the cards PDF with ReportLab: cover pages, card pages, crop marks.

Every distinct face image is embedded once (see :mod:`deckgen.layout.pdfimage`) and drawn
on every slot that shows it, clipped to its visible rectangle. The canvas runs with
``invariant=1`` so the same inputs give a byte-identical file.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from deckgen import __version__
from deckgen.errors import DeckgenError, error
from deckgen.fonts import register_fonts
from deckgen.layout.cover import CoverInfo, cover_languages, draw_cover
from deckgen.layout.cutfile import IdLabel, front_trims
from deckgen.layout.geometry import RULE_MM, Line, Rect
from deckgen.layout.imposition import PagePlan
from deckgen.layout.pdfimage import read_png, register_image
from deckgen.pdfkit import OutputIntent, PrintCanvas
from deckgen.progress import Progress
from deckgen.units import mm_to_pt


@dataclass(frozen=True)
class PdfMeta:
    title: str
    subject: str = ""
    keywords: str = ""
    author: str = "deckgen"
    language: str = "en"
    fonts: str | None = None        # the deck's own fonts folder (deck.fonts)


def new_canvas(buf: io.BytesIO, paper_mm: tuple[float, float], meta: PdfMeta, intent: OutputIntent | None = None,
               pdfx: str | None = None) -> Canvas:
    """A canvas for one of deckgen's PDFs: no output intent unless ``intent`` gives one, with the PDF/X
    version key ``pdfx`` (the caller keeps to that standard's rules)."""
    regular, _ = register_fonts(meta.fonts)     # the initial font too, so no unembedded Helvetica is listed
    c = PrintCanvas(buf, pagesize=(mm_to_pt(paper_mm[0]), mm_to_pt(paper_mm[1])), invariant=1,
                    pageCompression=1, lang=meta.language, initialFontName=regular, intent=intent, pdfx=pdfx)
    c.setTitle(meta.title)
    c.setAuthor(meta.author)
    c.setSubject(meta.subject)
    c.setKeywords(meta.keywords)
    c.setCreator(f"deckgen {__version__}")
    c.setProducer(f"deckgen {__version__} (ReportLab)")
    return c            # PDF 1.4, ICC-tagged images (deckgen/pdfkit.py)


def finish(c: Canvas, buf: io.BytesIO) -> bytes:
    """Save the canvas with plain Flate page streams (ReportLab's ASCII85 layer off: smaller, faster)."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        c.save()
    finally:
        rl_config.useA85 = saved
    return buf.getvalue()


def _n(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".")


def place(c: Canvas, name: str, image: Rect, clip: Rect | None = None, rotate: int = 0) -> None:
    """Draw a registered image into ``image`` (mm), clipped to ``clip``: one q ... Q group.

    ``rotate=180`` draws it upside down in the same rectangle."""
    ops = ["q"]
    if clip is not None:
        ops.append(" ".join(_n(mm_to_pt(v)) for v in (clip.x, clip.y, clip.w, clip.h)) + " re W n")
    w, h, x, y = (mm_to_pt(v) for v in (image.w, image.h, image.x, image.y))
    if rotate == 180:
        ops.append(f"{_n(-w)} 0 0 {_n(-h)} {_n(x + w)} {_n(y + h)} cm")
    else:
        ops.append(f"{_n(w)} 0 0 {_n(h)} {_n(x)} {_n(y)} cm")
    c.addLiteral(" ".join(ops))
    c.doForm(name)
    c.addLiteral("Q")


def draw_marks(c: Canvas, lines: Sequence[Line], stroke_mm: float, dash: bool = False, grey: float = 0.0) -> None:
    """Straight strokes (crop marks, guides or printed cut lines), written as one path."""
    if not lines:
        return
    ops = ["q", f"{_n(mm_to_pt(stroke_mm))} w 0 J", "0.55 G [2 2] 0 d" if dash else f"{_n(grey)} G"]
    for ln in lines:
        ops.append(f"{_n(mm_to_pt(ln.x1))} {_n(mm_to_pt(ln.y1))} m {_n(mm_to_pt(ln.x2))} {_n(mm_to_pt(ln.y2))} l")
    ops.append("S Q")
    c.addLiteral("\n".join(ops))


def draw_label(c: Canvas, band: Rect | None, text: str, font: str) -> None:
    """A small grey sheet label, turned to run up the free strip left of the cards."""
    if band is None or not text:
        return
    size = min(7.0, mm_to_pt(band.w) * 0.8)
    c.saveState()
    c.setFillGray(0.35)
    c.setFont(font, size)
    c.translate(mm_to_pt(band.x + band.w / 2) + size * 0.35, mm_to_pt(band.y + band.h / 2))
    c.rotate(90)
    c.drawCentredString(0, 0, text)
    c.restoreState()


def draw_fold(c: Canvas, line: Line, font: str, text: str) -> None:
    """The fold line: dashed, with its word at both ends (outside the cards, inside the margin)."""
    c.addLiteral("q 0.25 w 0.35 G [4 2] 0 d " + f"{_n(mm_to_pt(line.x1))} {_n(mm_to_pt(line.y1))} m "
                 f"{_n(mm_to_pt(line.x2))} {_n(mm_to_pt(line.y2))} l S Q")
    c.saveState()
    c.setFillGray(0.35)
    c.setFont(font, 6)
    vertical = abs(line.x1 - line.x2) < 1e-9
    for (x, y), sign in (((line.x1, line.y1), 1), ((line.x2, line.y2), -1)):
        c.saveState()
        c.translate(mm_to_pt(x), mm_to_pt(y))
        if vertical:
            c.rotate(90)
        c.drawString(2 if sign > 0 else -2 - c.stringWidth(text, font, 6), 2, text)
        c.restoreState()
    c.restoreState()


def draw_registration(c: Canvas, rects: Sequence[Rect]) -> None:
    """Print-then-cut registration marks: solid black rectangles (one filled path)."""
    if rects:
        c.addLiteral("q 0 g " + " ".join(" ".join(_n(mm_to_pt(v)) for v in (r.x, r.y, r.w, r.h)) + " re"
                                          for r in rects) + " f Q")


CORNER_GUIDE_MM = 0.1    # corner-radius guides: a hairline in light grey, faint on the card


def draw_corner_guides(c: Canvas, trims: Sequence[Rect], radius_mm: float) -> None:
    """The cut outline with its rounded corners drawn faintly on every face-up card."""
    if not trims:
        return
    c.saveState()
    c.setStrokeGray(0.6)
    c.setLineWidth(mm_to_pt(CORNER_GUIDE_MM))
    for t in trims:
        r = max(0.0, min(radius_mm, t.w / 2, t.h / 2))
        c.roundRect(mm_to_pt(t.x), mm_to_pt(t.y), mm_to_pt(t.w), mm_to_pt(t.h), mm_to_pt(r), stroke=1, fill=0)
    c.restoreState()


def draw_card_ids(c: Canvas, labels: Sequence[IdLabel], font: str) -> None:
    """Card ids in the gutters (:func:`deckgen.layout.cutfile.id_labels`): dark grey on a white patch."""
    for lab in labels:
        width = c.stringWidth(lab.text, font, lab.size_pt)
        x, y = mm_to_pt(lab.x), mm_to_pt(lab.y)
        c.saveState()
        c.setFillGray(1.0)
        c.rect(x - width / 2 - 0.8, y - lab.size_pt * 0.45, width + 1.6, lab.size_pt * 0.9, stroke=0, fill=1)
        c.setFillGray(0.25)
        c.setFont(font, lab.size_pt)
        c.drawCentredString(x, y - lab.size_pt * 0.35, lab.text)
        c.restoreState()


def draw_page(c: Canvas, page: PagePlan, names: Mapping[str, str], stroke_mm: float,
              guides: Sequence[Line] = (), registration: Sequence[Rect] = ()) -> None:
    for p in page.placements:
        place(c, names[p.face], p.image, p.clip, p.rotate)
    draw_marks(c, page.marks, stroke_mm)
    draw_marks(c, page.rules, RULE_MM, grey=0.4)       # printed cut lines: thin, mid grey
    if guides and page.side in ("front", "fold"):
        draw_marks(c, guides, min(stroke_mm, 0.1), dash=True)
    if page.side == "front":
        draw_registration(c, registration)


@dataclass(frozen=True)
class SheetExtras:
    """What a cards PDF prints besides the cards: the cover, the crop marks' stroke, cut-line
    guides, the sheet label in its band, the fold word, registration marks, rounded-corner guides
    (their radius) and the card ids in the gutters."""

    cover: CoverInfo | None = None
    margin_mm: float = 5.0
    stroke_mm: float = 0.3
    guides: Sequence[Line] = ()
    label_band: Rect | None = None
    label: Callable[[PagePlan, int], str] | None = None
    fold_text: str = "fold"
    registration: Sequence[Rect] = ()
    corner_radius_mm: float | None = None
    card_ids: Callable[[PagePlan], Sequence[IdLabel]] | None = None


def cards_pdf(pages: Sequence[PagePlan], images: Mapping[str, Path], paper_mm: tuple[float, float],
              meta: PdfMeta, extras: SheetExtras | None = None, progress: Progress | None = None) -> bytes:
    """The whole PDF as bytes (written to disk atomically by the caller)."""
    x = extras or SheetExtras()
    cover, stroke_mm, guides, registration = x.cover, x.stroke_mm, x.guides, x.registration
    missing = sorted({p.face for page in pages for p in page.placements} - set(images))
    if missing:
        raise DeckgenError(error("faces", "", "no rendered image for face(s): " + ", ".join(missing)))
    buf = io.BytesIO()
    c = new_canvas(buf, paper_mm, meta)
    fonts = register_fonts(meta.fonts)
    if cover is not None:
        for lang in cover_languages(meta.language):
            draw_cover(c, cover, lang, paper_mm, x.margin_mm, fonts)
            c.showPage()
    names: dict[str, str] = {}
    total = len(pages)
    sheets = len({page.sheet_no for page in pages})
    for i, page in enumerate(pages):
        for p in page.placements:
            if p.face not in names:
                names[p.face] = register_image(c, read_png(images[p.face]))
        draw_page(c, page, names, stroke_mm, guides, registration)
        if x.corner_radius_mm is not None and page.side in ("front", "fold"):
            draw_corner_guides(c, front_trims(page), x.corner_radius_mm)
        if x.card_ids is not None and page.side in ("front", "fold"):
            draw_card_ids(c, x.card_ids(page), fonts[0])
        if page.fold_line is not None:
            draw_fold(c, page.fold_line, fonts[0], x.fold_text)
        if x.label is not None:
            draw_label(c, x.label_band, x.label(page, sheets), fonts[0])
        c.showPage()
        if progress:
            progress("writing PDF", i + 1, total)
    return finish(c, buf)
