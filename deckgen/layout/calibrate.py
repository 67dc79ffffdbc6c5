"""``deckgen calibrate``: one duplex sheet to measure how far a printer shifts the backs.

The front carries a target in each of the four corners, a 100 mm ruler (to confirm printing
at actual size) and two cut lines. The back carries, behind every target, two scales whose
ticks are labelled with the correction itself: held against the light, the tick that the
front's line shows through gives X (horizontal scale) and Y (vertical scale) for
``--back-offset X,Y``. Four corners show skew and scale errors as well as the offset: the
readings differ from corner to corner.

For cardstock, which no light shines through, the back also carries edge scales across the
front's two cut lines: cut the sheet on those lines, turn it over and read the tick that
sits on the cut edge. Two scales on each line show skew (one, on a page too narrow for two).

Every back mark sits where the physical turn of the sheet (:func:`page_flip`, the same as
the card sheets use) brings its front mark. Positive X moves the backs right, positive Y
moves them down, as seen on the back.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.utils import simpleSplit

from deckgen.errors import DeckgenError, error
from deckgen.fonts import register_fonts
from deckgen.layout.imposition import Flip, page_flip
from deckgen.layout.papers import Paper, parse_paper
from deckgen.layout.pdf import PdfMeta, finish, new_canvas
from deckgen.units import mm_to_pt as pt

SPAN = 6.0          # mm either side of zero on the scales
INSET = 15.0        # mm from the margin's corner to each corner target's centre
ARM_OUT = 8.0       # mm: the target's arms towards the page edges
ARM_IN = 24.0       # mm: the arms towards the page centre (they cross the back's scales)
SCALE_AT = 15.0     # mm from a target's centre to its scales, towards the page centre
CUT_IN = 45.0       # mm from the margin to the two cut lines (right and bottom)
EDGE_SCALES_AT = 30.0   # mm from each end of a cut line to its two edge scales
LABEL_INSET = 2.0       # mm every label keeps inside the printable margin
CUT_LABEL = "CUT / CORTA"

FRONT = [
    "deckgen: calibration sheet (front) / hoja de calibración (frente)",
    "Use the same paper and the same tray you will print the cards on: the shift changes with them.",
    "Usa el mismo papel y la misma bandeja con los que imprimirás las cartas: el desfase cambia con ellos.",
    "1. Print this PDF double-sided at actual size (100 %), flipping on the {edge} edge.",
    "   Imprime a doble cara, tamaño real (100 %), con giro por el borde {edge_es}.",
    "2. The bar below must measure exactly 100 mm. / La barra debe medir 100 mm.",
    "3. Thin paper: hold the sheet against the light and read the back's scales at the four corners.",
    "   Papel fino: mira la hoja a contraluz y lee las escalas del dorso en las cuatro esquinas.",
    "4. Cardstock: cut on the two CUT lines, turn the sheet over and read the edge scales at the cut edge.",
    "   Cartulina: corta por las dos líneas CUT, da la vuelta a la hoja y lee las escalas en el borde cortado.",
]
BACK = [
    "deckgen: calibration sheet (back) / hoja de calibración (dorso)",
    "Read X on the horizontal scales and Y on the vertical ones where the front's lines show through "
    "(thin paper) or at the cut edge (cardstock), then build with --back-offset X,Y.",
    "Lee X en las escalas horizontales e Y en las verticales donde se transparentan las líneas del frente "
    "(papel fino) o en el borde cortado (cartulina), y genera con --back-offset X,Y.",
    "The same reading everywhere: that is the offset. Readings that differ from corner to corner: the "
    "printer skews or scales the back; use their average, the cards near the edges keep the difference.",
    "Si las lecturas no coinciden entre esquinas, la impresora tuerce o escala el dorso: usa la media.",
    "X > 0 moves the backs right, Y > 0 moves them down (as seen here). Current: {x:g},{y:g} mm",
]
BACK_SHORT = [      # the back's words where the full text has no room (a small page): what a reading needs
    "deckgen: back / dorso",
    "Read X and Y where the front's lines show through or at the cut edge: --back-offset X,Y.",
    "Lee X e Y donde se ven las líneas del frente o en el borde cortado: --back-offset X,Y.",
    "X > 0: right / derecha; Y > 0: down / abajo. Now / ahora: {x:g},{y:g} mm",
]


def _para(c: Any, lines: list[str], x: float, y: float, width: float, fonts: tuple[str, str],
          size: float = 8.0) -> float:
    c.setFont(fonts[1], size + 2)
    for part in simpleSplit(lines[0], fonts[1], size + 2, width):      # the title wraps too: no cut line crossed
        y -= (size + 2) * 1.2
        c.drawString(x, y, part)
    c.setFont(fonts[0], size)
    for line in lines[1:]:
        for part in simpleSplit(line, fonts[0], size, width):
            y -= size * 1.35
            c.drawString(x, y, part)
    return y


SIZES = (8.0, 7.5, 7.0, 6.5, 6.0, 5.5)    # pt: the text's sizes tried, largest first, until it fits its room


def _para_height(lines: list[str], width: float, fonts: tuple[str, str], size: float) -> float:
    """The height in points that :func:`_para` takes for these lines at this size and width."""
    title = len(simpleSplit(lines[0], fonts[1], size + 2, width))
    body = sum(len(simpleSplit(line, fonts[0], size, width)) for line in lines[1:])
    return title * (size + 2) * 1.2 + body * size * 1.35


def _fitting(lines: list[str], width: float, room: float, fonts: tuple[str, str]) -> float | None:
    """The largest of SIZES at which the lines fit ``room`` points of height in a column ``width``
    points wide (None: none does; a small page)."""
    if width < pt(25):
        return None
    return next((size for size in SIZES if _para_height(lines, width, fonts, size) <= room), None)


def _ruler(page_mm: tuple[float, float], margin: float) -> tuple[float, float]:
    """The 100 mm ruler's left end (mm), inside the margin, and the lowest its bar may sit (mm):
    above the horizontal cut line, and clear of the vertical cut line's label where the ruler
    crosses that line (a narrow page)."""
    w = page_mm[0]
    cx, cy = cut_lines(page_mm, margin)
    x0 = min(max((margin + cx) / 2 - 50, margin + 2), w - margin - 102)
    if x0 + 100 <= cx - 2:
        return x0, cy + 14
    while (cx - x0) % 10 < 3 or (cx - x0) % 10 > 7:       # no centimetre's number on the cut line
        if x0 + 0.5 > w - margin - 102:
            break
        x0 += 0.5
    return x0, cy + 30


def _front_text(page_mm: tuple[float, float], margin: float, fonts: tuple[str, str],
                edge: str) -> tuple[list[str], float, float, float, float] | None:
    """The front's text: its lines, left edge, top, width (points) and size, between the targets,
    the vertical cut line and room for the ruler above the horizontal one (None: it does not fit)."""
    h = page_mm[1]
    cx = cut_lines(page_mm, margin)[0]
    lines = [ln.format(edge=edge, edge_es="largo" if edge == "long" else "corto") for ln in FRONT]
    left, top = margin + 2 * INSET + 12, h - margin - INSET - 5
    size = _fitting(lines, pt(cx - 6 - left), pt(top - (_ruler(page_mm, margin)[1] + 14)), fonts)
    return None if size is None else (lines, pt(left), pt(top), pt(cx - 6 - left), size)


def _back_text(page_mm: tuple[float, float], margin: float, flip: Flip, fonts: tuple[str, str],
               offset: tuple[float, float]) -> tuple[list[str], float, float, float, float] | None:
    """The back's text: its lines, left edge, top, width (points) and size. It goes in a column
    between the scales: the one clear of the cut lines' scales or, where that has no room (a
    small page), the gap between the scales nearest the middle; from a little above the middle
    (below any scale it would sit in) down to the next scale; the short text where the whole one
    does not fit (None: nothing fits)."""
    w, h = page_mm
    boxes = scale_boxes(page_mm, margin, flip)
    left = margin + CUT_IN + SPAN + 2
    middle = (max([b[2] for b in boxes if b[2] <= w / 2] + [margin]) + 2,
              min([b[0] for b in boxes if b[0] >= w / 2] + [w - margin]) - 2)
    columns = []
    for x0, x1 in ((left, w - left), middle):
        across = [b for b in boxes if b[0] < x1 and b[2] > x0]
        top = min(h / 2 + 20, h - margin - 2)
        for b in sorted(across, key=lambda b: -b[3]):          # a scale the top would sit in: start below it
            if b[1] - 2 < top < b[3] + 2:
                top = b[1] - 2
        bottom = max([b[3] + 2 for b in across if b[3] + 2 <= top] + [margin + 2])
        columns.append((x0, x1, top, bottom))
    for text in (BACK, BACK_SHORT):
        lines = [ln.format(x=offset[0], y=offset[1]) for ln in text]
        for x0, x1, top, bottom in columns:
            size = _fitting(lines, pt(x1 - x0), pt(top - bottom), fonts)
            if size is not None:
                return lines, pt(x0), pt(top), pt(x1 - x0), size
    return None


def targets(page_mm: tuple[float, float], margin: float) -> list[tuple[float, float, int, int]]:
    """(x, y, sx, sy) of the four corner targets in mm; (sx, sy) point towards the page centre."""
    w, h = page_mm
    a = margin + INSET
    return [(a, a, 1, 1), (w - a, a, -1, 1), (a, h - a, 1, -1), (w - a, h - a, -1, -1)]


def cut_lines(page_mm: tuple[float, float], margin: float) -> tuple[float, float]:
    """(x of the vertical cut line, y of the horizontal one), in mm on the front."""
    w, _ = page_mm
    return w - margin - CUT_IN, margin + CUT_IN


def _front(c: Any, page_mm: tuple[float, float], margin: float, fonts: tuple[str, str],
           text: tuple[list[str], float, float, float, float]) -> None:
    w, h = page_mm
    c.setLineWidth(pt(0.25))
    for x, y, sx, sy in targets(page_mm, margin):
        c.line(pt(x - sx * ARM_OUT), pt(y), pt(x + sx * ARM_IN), pt(y))
        c.line(pt(x), pt(y - sy * ARM_OUT), pt(x), pt(y + sy * ARM_IN))
        c.circle(pt(x), pt(y), pt(2.5), stroke=1, fill=0)
    cx, cy = cut_lines(page_mm, margin)
    c.setLineWidth(pt(0.2))
    c.line(pt(cx), pt(margin), pt(cx), pt(h - margin))
    c.line(pt(margin), pt(cy), pt(w - margin), pt(cy))
    c.setFont(fonts[1], 7)
    label = c.stringWidth(CUT_LABEL, fonts[1], 7)
    # the vertical line's two labels run up its left side: one above the horizontal cut line, one
    # ending LABEL_INSET inside the top margin
    for start in (pt(cy + 4), pt(h - margin - LABEL_INSET) - label):
        c.saveState()
        c.translate(pt(cx) - 3, start)
        c.rotate(90)
        c.drawString(0, 0, CUT_LABEL)
        c.restoreState()
    c.drawString(pt(margin + 2 * INSET + 12), pt(cy) + 3, CUT_LABEL)
    lines, left, top, width, size = text
    y = _para(c, lines, left, top, width, fonts, size)
    ruler, lowest = _ruler(page_mm, margin)
    x0, y0 = pt(ruler), max(pt(lowest), y - pt(14))
    c.setLineWidth(pt(0.25))
    c.line(x0, y0, x0 + pt(100), y0)
    for i in range(0, 101):
        tick = 4 if i % 10 == 0 else (2.5 if i % 5 == 0 else 1.5)
        c.line(x0 + pt(i), y0, x0 + pt(i), y0 + pt(tick))
    c.setFont(fonts[0], 7)
    for i in range(0, 101, 10):
        c.drawCentredString(x0 + pt(i), y0 - pt(3.5), str(i))
    c.drawCentredString(x0 + pt(50), y0 - pt(7.5), "100 mm")


def _scale(c: Any, font: str, horizontal: bool, at: tuple[float, float], toward: int) -> None:
    """Ticks every 0.5 mm from -SPAN to +SPAN around ``at`` (mm); labels (every 2 mm) are the
    correction. ``toward``: the side (+1/-1) the ticks grow to, away from the target."""
    cx, cy = pt(at[0]), pt(at[1])
    c.setLineWidth(pt(0.12))
    steps = int(SPAN * 2)
    c.setFont(font, 5)
    for k in range(-steps, steps + 1):
        v = k / 2
        length = pt(5 if k % 4 == 0 else (3.5 if k % 2 == 0 else 2)) * toward
        label = f"{v:+g}" if v else "0"
        if horizontal:
            x = cx + pt(v)
            c.line(x, cy, x, cy + length)
            if k % 4 == 0:
                c.saveState()
                c.translate(x + 1.8, cy + length + (pt(1) if toward > 0 else -pt(1)))
                c.rotate(90)
                (c.drawString if toward > 0 else c.drawRightString)(0, 0, label)
                c.restoreState()
        else:
            y = cy - pt(v)
            c.line(cx, y, cx + length, y)
            if k % 4 == 0:
                if toward > 0:
                    c.drawString(cx + length + pt(1), y - 1.8, label)
                else:
                    c.drawRightString(cx + length - pt(1), y - 1.8, label)


def back_marks(page_mm: tuple[float, float], margin: float, flip: Flip) -> list[tuple[bool, tuple[float, float], int]]:
    """Every scale on the back: (horizontal?, zero point in mm on the back page, side the ticks grow to)."""
    w, h = page_mm
    out = []
    for x, y, sx, sy in targets(page_mm, margin):
        # the front's vertical arm crosses a horizontal scale SCALE_AT towards the centre, and vice versa
        hx, hy = flip.point(x, y + sy * SCALE_AT)
        vx, vy = flip.point(x + sx * SCALE_AT, y)
        out.append((True, (hx, hy), 1 if hy < h / 2 else -1))
        out.append((False, (vx, vy), 1 if vx < w / 2 else -1))
    cx, cy = cut_lines(page_mm, margin)
    for y in (margin + CUT_IN + EDGE_SCALES_AT, h - margin - EDGE_SCALES_AT):
        px, py = flip.point(cx, y)
        out.append((True, (px, py), 1))
    along = [margin + EDGE_SCALES_AT + 2 * INSET, cx - EDGE_SCALES_AT]
    if along[1] - along[0] < 2 * (SPAN + SCALE_END) + 2:     # a narrow page: room for one scale, not two
        along = along[:1]
    for x in along:
        px, py = flip.point(x, cy)
        out.append((False, (px, py), 1))
    return out


SCALE_REACH = 10.0      # mm a scale's ticks, labels and letter reach across it, towards its side
SCALE_END = 5.0         # mm its letter and labels reach past either end of its ticks


def scale_boxes(page_mm: tuple[float, float], margin: float, flip: Flip) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1) in mm round every scale on the back, its labels and its X or Y included."""
    out = []
    for horizontal, (x, y), toward in back_marks(page_mm, margin, flip):
        along, across = (x, y) if horizontal else (y, x)
        lo, hi = sorted((across - toward, across + toward * SCALE_REACH))
        a0, a1 = along - SPAN - SCALE_END, along + SPAN + SCALE_END
        out.append((a0, lo, a1, hi) if horizontal else (lo, a0, hi, a1))
    return out


def back_offset_limits(page_mm: tuple[float, float], margin: float,
                       flip: Flip) -> tuple[tuple[float, float], tuple[float, float]]:
    """((min X, max X), (min Y, max Y)): the --back-offset that keeps every scale of the back inside the
    printable margin (X moves the back right, Y down)."""
    w, h = page_mm
    boxes = scale_boxes(page_mm, margin, flip)
    x = (max(margin - b[0] for b in boxes), min(w - margin - b[2] for b in boxes))
    y = (max(b[3] - (h - margin) for b in boxes), min(b[1] - margin for b in boxes))
    return x, y


def shows(page_mm: tuple[float, float], margin: float, flip: Flip, offset: tuple[float, float] = (0.0, 0.0)) -> bool:
    """Whether the back's scales, moved by ``offset``, lie inside the printable margin of this page."""
    (x_lo, x_hi), (y_lo, y_hi) = back_offset_limits(page_mm, margin, flip)
    return x_lo - 1e-9 <= offset[0] <= x_hi + 1e-9 and y_lo - 1e-9 <= offset[1] <= y_hi + 1e-9


def check_back_offset(page_mm: tuple[float, float], margin: float, flip: Flip, offset: tuple[float, float]) -> None:
    """An offset that would push a scale of the back past the printable margin cannot be shown: refused."""
    if shows(page_mm, margin, flip, offset):
        return
    (x_lo, x_hi), (y_lo, y_hi) = back_offset_limits(page_mm, margin, flip)
    x, y = offset
    raise DeckgenError(error(
        "back-offset", "--back-offset",
        f"--back-offset {x:g},{y:g} mm would push the calibration sheet's back scales past the {margin:g} mm "
        f"margin, where they are not printed: on this sheet X must stay between {x_lo:+.1f} and {x_hi:+.1f} mm "
        f"and Y between {y_lo:+.1f} and {y_hi:+.1f} mm",
        hint="a printer's shift is a few millimetres: measure without --back-offset first"))


def _back(c: Any, page_mm: tuple[float, float], margin: float, fonts: tuple[str, str], flip: Flip,
          offset: tuple[float, float], text: tuple[list[str], float, float, float, float]) -> None:
    c.saveState()
    c.translate(pt(offset[0]), -pt(offset[1]))
    for horizontal, at, toward in back_marks(page_mm, margin, flip):
        _scale(c, fonts[0], horizontal, at, toward)
        c.setFont(fonts[1], 7)
        if horizontal:
            c.drawCentredString(pt(at[0]) - pt(SPAN + 3), pt(at[1]) + (pt(2) if toward > 0 else -pt(4)), "X")
        else:
            c.drawCentredString(pt(at[0]) + (pt(3) if toward > 0 else -pt(3)), pt(at[1]) + pt(SPAN + 2), "Y")
    lines, left, top, width, size = text
    _para(c, lines, left, top, width, fonts, size)
    c.restoreState()


def calibration_pdf(paper: str | Paper = "a4", duplex: str = "long", margin_mm: float | None = None,
                    back_offset_mm: tuple[float, float] = (0.0, 0.0), orientation: str | None = None) -> bytes:
    """The two-page calibration PDF as bytes (``duplex``: long or short).

    ``orientation`` turns the page like the card sheets it calibrates (``portrait`` or
    ``landscape``; None: the paper as given): the printer and its driver treat the sheet the
    same way as the cards, so the reading is the ``--back-offset`` for sheets of that paper,
    orientation and duplex."""
    paper = parse_paper(paper)
    if orientation not in (None, "portrait", "landscape"):
        raise DeckgenError(error("orientation", "--orientation", f"unknown orientation '{orientation}'",
                                 hint="use portrait or landscape, as the card sheets are printed"))
    if duplex not in ("long", "short"):
        raise DeckgenError(error("duplex", "--duplex", f"unknown duplex mode '{duplex}'", hint="use long or short"))
    margin = paper.margin_mm if margin_mm is None else margin_mm
    w, h = paper.size_mm
    page = {"landscape": (max(w, h), min(w, h)), "portrait": (min(w, h), max(w, h))}.get(orientation or "", (w, h))
    turn = "landscape" if page[0] > page[1] else "portrait"
    flip = page_flip(page, duplex)
    fonts = register_fonts()

    def texts(margin: float) -> tuple[Any, Any] | None:
        if not shows(page, margin, flip):
            return None
        front, back = _front_text(page, margin, fonts, duplex), _back_text(page, margin, flip, fonts, back_offset_mm)
        return None if front is None or back is None else (front, back)

    planned = texts(margin)
    if planned is None:
        blame = "--margin" if margin_mm is not None and texts(paper.margin_mm) is not None else "--paper"
        raise DeckgenError(error(
            "option", blame, f"a {page[0]:g} x {page[1]:g} mm page with a {margin:g} mm margin is too small for the "
            f"calibration sheet: its targets, scales and words do not fit inside the margin",
            hint="print it on the paper the card sheets use, such as A4 or Letter, with a margin of a few millimetres"))
    check_back_offset(page, margin, flip, back_offset_mm)
    buf = io.BytesIO()
    c = new_canvas(buf, page, PdfMeta(title="deckgen duplex calibration sheet",
                                      subject=f"{paper.name} {turn}, {duplex}-edge flip"))
    _front(c, page, margin, fonts, planned[0])
    c.showPage()
    _back(c, page, margin, fonts, flip, back_offset_mm, planned[1])
    c.showPage()
    return finish(c, buf)
