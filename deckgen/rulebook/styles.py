"""Paragraph styles and colours of the rulebook."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

INK = colors.HexColor("#1F2430")
MUTED = colors.HexColor("#5B6270")
RULE = colors.HexColor("#D5D9E0")
SHADE = colors.HexColor("#F2F4F7")
NOTE = colors.HexColor("#FFF6D6")


@dataclass(frozen=True)
class Footer:
    """A page footer's text and type: ``gap`` points below the rule, in ``font`` at ``size``."""

    text: str
    font: str
    size: float
    gap: float


def page_footer(canvas: Canvas, x0: float, x1: float, y: float, footer: Footer, page: int) -> None:
    """A page's footer: a thin rule from ``x0`` to ``x1`` at ``y``, the footer's text below it on
    the left and the page number on the right (the rulebook's and the balance report's pages)."""
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.5)
    canvas.line(x0, y, x1, y)
    canvas.setFont(footer.font, footer.size)
    canvas.setFillColor(MUTED)
    canvas.drawString(x0, y - footer.gap, footer.text)
    canvas.drawRightString(x1, y - footer.gap, str(page))
    canvas.restoreState()


def make(font: str, accent: colors.Color, scale: float = 1.0) -> dict[str, ParagraphStyle]:
    """The styles at ``scale`` (0.9 on a booklet's half-size pages): every size, leading and space."""
    s = _make(font, accent)
    if scale != 1.0:
        for style in s.values():
            for attr in ("fontSize", "leading", "spaceBefore", "spaceAfter", "leftIndent", "bulletIndent",
                         "borderPadding", "bulletFontSize"):
                value = getattr(style, attr, None)
                if isinstance(value, (int, float)) and value:
                    setattr(style, attr, round(value * scale, 2))
    return s


def _make(font: str, accent: colors.Color) -> dict[str, ParagraphStyle]:
    base = ParagraphStyle("body", fontName=font, bulletFontName=font, fontSize=10.5, leading=14.5, textColor=INK,
                          spaceAfter=6)
    s = {"body": base}
    s["h1"] = ParagraphStyle("h1", base, fontName=font + "-Bold", fontSize=19, leading=23, spaceBefore=6,
                             spaceAfter=10, textColor=accent)
    s["h2"] = ParagraphStyle("h2", base, fontName=font + "-Bold", fontSize=13.5, leading=17, spaceBefore=10,
                             spaceAfter=5)
    s["h3"] = ParagraphStyle("h3", base, fontName=font + "-Bold", fontSize=11.5, leading=15, spaceBefore=6,
                             spaceAfter=3)
    s["bullet"] = ParagraphStyle("bullet", base, leftIndent=14, bulletIndent=3, spaceAfter=3)
    s["num"] = ParagraphStyle("num", base, leftIndent=18, bulletIndent=2, spaceAfter=4)
    s["note"] = ParagraphStyle("note", base, backColor=NOTE, borderPadding=6, spaceBefore=6, spaceAfter=10)
    s["small"] = ParagraphStyle("small", base, fontSize=8.5, leading=10.5, spaceAfter=0, textColor=MUTED)
    s["cell"] = ParagraphStyle("cell", base, fontSize=9.5, leading=12, spaceAfter=0)
    s["cellb"] = ParagraphStyle("cellb", s["cell"], fontName=font + "-Bold")
    s["head"] = ParagraphStyle("head", s["cell"], fontName=font + "-Bold", textColor=colors.white)
    s["entry"] = ParagraphStyle("entry", base, fontName=font + "-Bold", fontSize=11.5, leading=14, spaceAfter=1)
    s["entry_text"] = ParagraphStyle("entry_text", base, fontSize=10, leading=13.5, spaceAfter=3)
    s["title"] = ParagraphStyle("title", base, fontName=font + "-Bold", fontSize=34, leading=40,
                                alignment=TA_CENTER, textColor=accent, spaceAfter=8)
    s["subtitle"] = ParagraphStyle("subtitle", base, fontSize=16, leading=20, alignment=TA_CENTER,
                                   textColor=MUTED, spaceAfter=6)
    s["facts"] = ParagraphStyle("facts", base, fontSize=12, leading=16, alignment=TA_CENTER, spaceAfter=4)
    s["toc1"] = ParagraphStyle("toc1", base, fontName=font + "-Bold", fontSize=11, leading=15, spaceAfter=1)
    s["toc2"] = ParagraphStyle("toc2", base, fontSize=10, leading=13, leftIndent=16, spaceAfter=0)
    return s
