"""``deckgen calibrate``: one duplex sheet to measure how far a printer shifts the backs.

The front carries a cross at the page centre and a 100 mm ruler (to confirm printing at
actual size). The back carries two scales whose ticks are labelled with the correction
itself: held against the light, the tick that the front's line shows through gives X (the
horizontal scale) and Y (the vertical scale) for ``--back-offset X,Y``.
Positive X moves the backs right, positive Y moves them down, as seen on the back.
"""

from __future__ import annotations

import io

from deckgen.fonts import register_fonts
from deckgen.layout.papers import Paper, parse_paper
from deckgen.layout.pdf import PdfMeta, finish, new_canvas
from deckgen.units import mm_to_pt as pt

SPAN = 6.0        # mm either side of zero on the scales
CROSS = 35.0      # mm: half-length of the front's cross
SCALE_AT = 22.0   # mm from the centre where each scale sits

FRONT = [
    "deckgen: calibration sheet (front) / hoja de calibración (frente)",
    "1. Print this PDF double-sided at actual size (100 %), flipping on the {edge} edge.",
    "   Imprime a doble cara, tamaño real (100 %), con giro por el borde {edge_es}.",
    "2. The bar below must measure exactly 100 mm. / La barra debe medir 100 mm.",
    "3. Turn the sheet over and read the scales on the back.",
    "   Da la vuelta a la hoja y lee las escalas del dorso.",
]
BACK = [
    "deckgen: calibration sheet (back) / hoja de calibración (dorso)",
    "Hold this sheet against the light. Where the front's lines show through the scales,",
    "read X on the horizontal scale and Y on the vertical one, then build with --back-offset X,Y",
    "Mira la hoja a contraluz. Donde las líneas del frente cruzan las escalas, lee X en la",
    "escala horizontal e Y en la vertical, y genera con --back-offset X,Y",
    "X > 0 moves the backs right, Y > 0 moves them down (as seen here). Current: {x:g},{y:g} mm",
]


def _text(c, lines, x, y, fonts, size=9.0):
    c.setFont(fonts[1], size + 2)
    c.drawString(x, y, lines[0])
    c.setFont(fonts[0], size)
    for line in lines[1:]:
        y -= size * 1.5
        c.drawString(x, y, line)


def _front(c, w, h, margin, fonts, edge):
    edge_es = "largo" if edge == "long" else "corto"
    lines = [ln.format(edge=edge, edge_es=edge_es) for ln in FRONT]
    _text(c, lines, pt(margin + 10), h - pt(margin + 15), fonts)
    c.setLineWidth(pt(0.3))
    c.line(w / 2, h / 2 - pt(CROSS), w / 2, h / 2 + pt(CROSS))
    c.line(w / 2 - pt(CROSS), h / 2, w / 2 + pt(CROSS), h / 2)
    c.circle(w / 2, h / 2, pt(3), stroke=1, fill=0)
    x0, y0 = w / 2 - pt(50), pt(margin + 30)
    c.setLineWidth(pt(0.25))
    c.line(x0, y0, x0 + pt(100), y0)
    for i in range(0, 101):
        tick = 4 if i % 10 == 0 else (2.5 if i % 5 == 0 else 1.5)
        c.line(x0 + pt(i), y0, x0 + pt(i), y0 + pt(tick))
    c.setFont(fonts[0], 8)
    for i in range(0, 101, 10):
        c.drawCentredString(x0 + pt(i), y0 - pt(3.5), str(i))
    c.drawCentredString(w / 2, y0 - pt(8), "100 mm")


def _scale(c, fonts, horizontal, cx, cy):
    """Ticks every 0.5 mm from -SPAN to +SPAN; each tick labelled (every 2 mm) with its correction."""
    c.setLineWidth(pt(0.12))
    steps = int(SPAN * 2)
    c.setFont(fonts[0], 5.5)
    for k in range(-steps, steps + 1):
        v = k / 2
        length = 5 if k % 4 == 0 else (3.5 if k % 2 == 0 else 2)
        if horizontal:
            x = cx + pt(v)
            c.line(x, cy, x, cy + pt(length))
            if k % 4 == 0:
                c.saveState()
                c.translate(x + 2, cy - pt(1))
                c.rotate(90)
                c.drawRightString(0, 0, f"{v:+g}" if v else "0")
                c.restoreState()
        else:
            y = cy - pt(v)
            c.line(cx, y, cx + pt(length), y)
            if k % 4 == 0:
                c.drawString(cx + pt(6), y - 2, f"{v:+g}" if v else "0")


def _back(c, w, h, margin, fonts, offset):
    c.saveState()
    c.translate(pt(offset[0]), -pt(offset[1]))
    _text(c, [ln.format(x=offset[0], y=offset[1]) for ln in BACK], pt(margin + 10), h - pt(margin + 15), fonts)
    _scale(c, fonts, True, w / 2, h / 2 + pt(SCALE_AT))
    _scale(c, fonts, False, w / 2 + pt(SCALE_AT), h / 2)
    c.setFont(fonts[1], 9)
    c.drawCentredString(w / 2, h / 2 + pt(SCALE_AT + 7), "X")
    c.drawString(w / 2 + pt(SCALE_AT + 14), h / 2 + pt(SPAN + 4), "Y")
    c.restoreState()


def calibration_pdf(paper: str | Paper = "a4", duplex: str = "long", margin_mm: float = 5.0,
                    back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The two-page calibration PDF as bytes."""
    paper = parse_paper(paper)
    buf = io.BytesIO()
    c = new_canvas(buf, paper.size_mm, PdfMeta(title="deckgen duplex calibration sheet",
                                               subject=f"{paper.name}, {duplex}-edge flip"))
    fonts = register_fonts()
    w, h = pt(paper.width_mm), pt(paper.height_mm)
    _front(c, w, h, margin_mm, fonts, duplex)
    c.showPage()
    _back(c, w, h, margin_mm, fonts, back_offset_mm)
    c.showPage()
    return finish(c, buf)
