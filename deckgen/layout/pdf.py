"""Assembling the cards PDF with ReportLab: cover pages, card pages, crop marks.

Every distinct face image is embedded once (see :mod:`deckgen.layout.pdfimage`) and drawn
on every slot that shows it, clipped to its visible rectangle. The canvas runs with
``invariant=1`` so the same inputs give a byte-identical file.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping, Sequence

from reportlab.pdfgen.canvas import Canvas

from deckgen import __version__
from deckgen.errors import DeckgenError, error
from deckgen.layout.cover import CoverInfo, cover_languages, draw_cover
from deckgen.layout.fonts import register_fonts
from deckgen.layout.geometry import Line, Rect
from deckgen.layout.imposition import PagePlan
from deckgen.layout.pdfimage import draw_image, read_png, register_image
from deckgen.units import mm_to_pt

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class PdfMeta:
    title: str
    subject: str = ""
    keywords: str = ""
    author: str = "deckgen"
    language: str = "en"


def new_canvas(buf, paper_mm: tuple[float, float], meta: PdfMeta) -> Canvas:
    regular, _ = register_fonts()     # the initial font too, so no unembedded Helvetica is listed
    c = Canvas(buf, pagesize=(mm_to_pt(paper_mm[0]), mm_to_pt(paper_mm[1])), invariant=1,
               pageCompression=1, lang=meta.language, initialFontName=regular)
    c.setTitle(meta.title)
    c.setAuthor(meta.author)
    c.setSubject(meta.subject)
    c.setKeywords(meta.keywords)
    c.setCreator(f"deckgen {__version__}")
    c.setProducer(f"deckgen {__version__} (ReportLab)")
    return c


def draw_marks(c: Canvas, lines: Sequence[Line], stroke_mm: float, dash: bool = False) -> None:
    if not lines:
        return
    c.saveState()
    c.setLineWidth(mm_to_pt(stroke_mm))
    c.setLineCap(0)
    c.setStrokeGray(0.55 if dash else 0)
    if dash:
        c.setDash(2, 2)
    path = c.beginPath()
    for ln in lines:
        path.moveTo(mm_to_pt(ln.x1), mm_to_pt(ln.y1))
        path.lineTo(mm_to_pt(ln.x2), mm_to_pt(ln.y2))
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def _clip(c: Canvas, r: Rect) -> None:
    path = c.beginPath()
    path.rect(mm_to_pt(r.x), mm_to_pt(r.y), mm_to_pt(r.w), mm_to_pt(r.h))
    c.clipPath(path, stroke=0, fill=0)


def draw_page(c: Canvas, page: PagePlan, names: Mapping[str, str], stroke_mm: float,
              guides: Sequence[Line] = ()) -> None:
    for p in page.placements:
        c.saveState()
        _clip(c, p.clip)
        draw_image(c, names[p.face], mm_to_pt(p.image.x), mm_to_pt(p.image.y),
                   mm_to_pt(p.image.w), mm_to_pt(p.image.h))
        c.restoreState()
    draw_marks(c, page.marks, stroke_mm)
    if guides and page.side == "front":
        draw_marks(c, guides, min(stroke_mm, 0.1), dash=True)


def cards_pdf(pages: Sequence[PagePlan], images: Mapping[str, Path], paper_mm: tuple[float, float],
              meta: PdfMeta, *, cover: CoverInfo | None = None, margin_mm: float = 5.0,
              stroke_mm: float = 0.3, guides: Sequence[Line] = (), progress: Progress | None = None) -> bytes:
    """The whole PDF as bytes (written to disk atomically by the caller)."""
    missing = sorted({p.face for page in pages for p in page.placements} - set(images))
    if missing:
        raise DeckgenError(error("faces", "", "no rendered image for face(s): " + ", ".join(missing)))
    buf = io.BytesIO()
    c = new_canvas(buf, paper_mm, meta)
    fonts = register_fonts()
    if cover is not None:
        for lang in cover_languages(meta.language):
            draw_cover(c, cover, lang, paper_mm, margin_mm, fonts)
            c.showPage()
    names: dict[str, str] = {}
    total = len(pages)
    for i, page in enumerate(pages):
        for p in page.placements:
            if p.face not in names:
                names[p.face] = register_image(c, read_png(images[p.face]))
        draw_page(c, page, names, stroke_mm, guides)
        c.showPage()
        if progress:
            progress("writing PDF", i + 1, total)
    c.save()
    return buf.getvalue()
