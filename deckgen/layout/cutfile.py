"""Print-then-cut files: for every sheet, the card outlines at the page's size, each outline exactly
where the cards PDF prints that card's trim (rounded corners), for the cutting software of
Silhouette, Cricut or a laser cutter: SVG (Silhouette Studio's paid editions, Cricut Design
Space, Inkscape, LightBurn) or DXF (the free Silhouette Studio opens DXF but not SVG).

The outlines come from the same sheet plan as the PDF, so they line up with the print as long as
the cutter is registered to the page. Every edge is cut once: where two cards share a cut line
(no gap between them) the line is in the file once, not once per card. Both files are at true
size in millimetres, origin and orientation as on the printed page; besides the cut paths (red
hairlines, no fill) they hold only what lines them up with the print: the registration marks,
and in the DXF the page's outline, each on a layer of its own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from deckgen.layout.geometry import Rect
from deckgen.layout.imposition import PagePlan

CUT_FORMATS = ("none", "svg", "dxf")


def default_corner_radius(trim_mm: tuple[float, float]) -> float:
    """5 % of the card's shorter side: 1/8 in (3.175 mm) on a poker card, 2.8 mm on an UNO card."""
    return round(min(trim_mm) * 0.05, 3)


def _n(v: float) -> str:
    out = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if out in ("-0", "") else out


@dataclass(frozen=True)
class Segment:
    """A piece of a cut outline in page millimetres, y up: a straight line from ``a`` to ``b``, or (with
    ``centre``) a quarter circle from ``a`` to ``b`` counter-clockwise about ``centre``."""

    a: tuple[float, float]
    b: tuple[float, float]
    centre: tuple[float, float] | None = None
    radius: float = 0.0


def outline(trim: Rect, radius: float) -> list[Segment]:
    """A card's cut outline counter-clockwise from its bottom edge: four sides and, with a radius,
    four quarter-circle corners."""
    x0, y0, x1, y1, r = trim.x, trim.y, trim.right, trim.top, radius
    sides = [Segment((x0 + r, y0), (x1 - r, y0)), Segment((x1, y0 + r), (x1, y1 - r)),
             Segment((x1 - r, y1), (x0 + r, y1)), Segment((x0, y1 - r), (x0, y0 + r))]
    if r <= 0:
        return sides
    corners = [Segment((x1 - r, y0), (x1, y0 + r), (x1 - r, y0 + r), r),
               Segment((x1, y1 - r), (x1 - r, y1), (x1 - r, y1 - r), r),
               Segment((x0 + r, y1), (x0, y1 - r), (x0 + r, y1 - r), r),
               Segment((x0, y0 + r), (x0 + r, y0), (x0 + r, y0 + r), r)]
    return [seg for pair in zip(sides, corners) for seg in pair]


def _line_key(seg: Segment) -> tuple[tuple[float, float], ...]:
    return tuple(sorted((round(p[0], 4), round(p[1], 4)) for p in (seg.a, seg.b)))


def cut_paths(trims: Sequence[Rect], radius_mm: float) -> list[list[Segment]]:
    """Every card's outline, less each straight edge an earlier card's outline already has (cut once)."""
    r = max(0.0, min(radius_mm, min((min(t.w, t.h) for t in trims), default=0.0) / 2))
    seen: set[tuple[tuple[float, float], ...]] = set()
    out = []
    for t in trims:
        path = []
        for seg in outline(t, r):
            if seg.centre is None:
                key = _line_key(seg)
                if key in seen:
                    continue
                seen.add(key)
            path.append(seg)
        out.append(path)
    return out


def sheet_svg(trims: Sequence[Rect], page_mm: tuple[float, float], radius_mm: float, title: str,
              registration: Sequence[Rect] = ()) -> bytes:
    """One sheet's cut paths as SVG bytes, y measured from the top; ``registration``: the printed
    registration marks, in a group of their own (black fill, not cut)."""
    w, h = page_mm
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
             f'viewBox="0 0 {_n(w)} {_n(h)}">',
             f"  <title>{_escape(title)}</title>",
             '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">']
    lines += [f'    <path d="{_svg_d(path, h)}"/>' for path in cut_paths(trims, radius_mm)]
    lines.append("  </g>")
    if registration:
        lines.append('  <g id="registration" fill="#000000" stroke="none">')
        lines += [f'    <rect x="{_n(m.x)}" y="{_n(h - m.top)}" width="{_n(m.w)}" height="{_n(m.h)}"/>'
                  for m in registration]
        lines.append("  </g>")
    lines += ["</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def _svg_d(path: Sequence[Segment], h: float) -> str:
    """Path data with y turned to run down the page, where a corner drawn counter-clockwise (y up) is an
    arc with sweep flag 0; a new subpath (M) wherever an edge was left out."""
    out: list[str] = []
    at: tuple[float, float] | None = None
    for seg in path:
        if at is None or abs(at[0] - seg.a[0]) > 1e-9 or abs(at[1] - seg.a[1]) > 1e-9:
            out.append(f"M {_n(seg.a[0])} {_n(h - seg.a[1])}")
        x, y = _n(seg.b[0]), _n(h - seg.b[1])
        out.append(f"L {x} {y}" if seg.centre is None else f"A {_n(seg.radius)} {_n(seg.radius)} 0 0 0 {x} {y}")
        at = seg.b
    return " ".join(out)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def sheet_dxf(trims: Sequence[Rect], page_mm: tuple[float, float], radius_mm: float,
              registration: Sequence[Rect] = ()) -> bytes:
    """One sheet's cut paths as an ASCII DXF (AutoCAD R12, the version cutting software reads): LINE and
    ARC entities on layer CUT, in millimetres, y up from the page's lower-left corner; the page's
    outline on layer PAGE and the registration marks (filled) on layer REGISTRATION, to place the
    drawing on the page and then delete before cutting. R12 itself has no unit: the header also
    carries $INSUNITS 4 (millimetres) and $MEASUREMENT 1 (metric) for the readers that look."""
    w, h = page_mm
    ents: list[str] = []
    for path in cut_paths(trims, radius_mm):
        for seg in path:
            if seg.centre is None:
                ents += _dxf("LINE", "CUT", (10, seg.a[0]), (20, seg.a[1]), (11, seg.b[0]), (21, seg.b[1]))
                continue
            cx, cy = seg.centre
            start = round(math.degrees(math.atan2(seg.a[1] - cy, seg.a[0] - cx))) % 360
            end = round(math.degrees(math.atan2(seg.b[1] - cy, seg.b[0] - cx))) % 360
            ents += _dxf("ARC", "CUT", (10, cx), (20, cy), (40, seg.radius), (50, start), (51, end))
    for (ax, ay), (bx, by) in (((0, 0), (w, 0)), ((w, 0), (w, h)), ((w, h), (0, h)), ((0, h), (0, 0))):
        ents += _dxf("LINE", "PAGE", (10, ax), (20, ay), (11, bx), (21, by))
    for m in registration:        # a SOLID's corners go 1, 2, then 4 before 3
        ents += _dxf("SOLID", "REGISTRATION", (10, m.x), (20, m.y), (11, m.right), (21, m.y),
                     (12, m.x), (22, m.top), (13, m.right), (23, m.top))
    header = ["0", "SECTION", "2", "HEADER", "9", "$ACADVER", "1", "AC1009", "9", "$INSUNITS", "70", "4",
              "9", "$MEASUREMENT", "70", "1", "9", "$EXTMIN", "10", "0", "20", "0", "30", "0", "9", "$EXTMAX",
              "10", _n(w), "20", _n(h), "30", "0", "0", "ENDSEC"]
    ltype = ["0", "TABLE", "2", "LTYPE", "70", "1", "0", "LTYPE", "2", "CONTINUOUS", "70", "0", "3", "Solid line",
             "72", "65", "73", "0", "40", "0", "0", "ENDTAB"]
    layers = ["0", "TABLE", "2", "LAYER", "70", "3"]
    for name, colour in (("CUT", 1), ("PAGE", 8), ("REGISTRATION", 7)):
        layers += ["0", "LAYER", "2", name, "70", "0", "62", str(colour), "6", "CONTINUOUS"]
    tables = ["0", "SECTION", "2", "TABLES", *ltype, *layers, "0", "ENDTAB", "0", "ENDSEC"]
    body = ["0", "SECTION", "2", "ENTITIES", *ents, "0", "ENDSEC", "0", "EOF"]
    return ("\r\n".join(header + tables + body) + "\r\n").encode("ascii")


def _dxf(kind: str, layer: str, *codes: tuple[int, float]) -> list[str]:
    out = ["0", kind, "8", layer]
    for code, value in codes:
        out += [str(code), _n(value)]
    return out


def front_trims(page: PagePlan) -> list[Rect]:
    """The trims printed face up on a page: every placement of a front page, the front half of a fold page."""
    if page.side == "fold":
        return [p.trim for p in page.placements[: len(page.placements) // 2]]
    return [p.trim for p in page.placements]


def cut_files(pages: Sequence[PagePlan], page_mm: tuple[float, float], radius_mm: float,
              title: str, registration: Sequence[Rect] = (), fmt: str = "svg") -> list[tuple[int, bytes]]:
    """(sheet number, SVG or DXF bytes) for every sheet with cards printed face up."""
    out = []
    for page in pages:
        if page.side not in ("front", "fold"):
            continue
        trims = front_trims(page)
        if fmt == "dxf":
            out.append((page.sheet_no, sheet_dxf(trims, page_mm, radius_mm, registration)))
        else:
            out.append((page.sheet_no, sheet_svg(trims, page_mm, radius_mm,
                                                 f"{title}: sheet {page.sheet_no} cut lines", registration)))
    return out


@dataclass(frozen=True)
class IdLabel:
    """A card id printed in the gutter under its card: centred on (x, y), ``size_pt`` high."""

    text: str
    x: float
    y: float
    size_pt: float


ID_SIZE_PT = 4.5          # small: read it while sorting, cut it away with the gutter


def id_labels(page: PagePlan, gap_mm: float, bleed_mm: float) -> list[IdLabel]:
    """Every face-up card's id in the gutter under it (the strip the cut removes): halfway across the
    gap between rows, and under the bottom row no further out than its bleed."""
    placements = page.placements[: len(page.placements) // 2] if page.side == "fold" else page.placements
    bottom = min((p.trim.y for p in placements), default=0.0)
    out = []
    for p in placements:
        room = min(gap_mm, 2 * bleed_mm) if abs(p.trim.y - bottom) < 1e-6 else gap_mm
        size = min(ID_SIZE_PT, room * 0.8 * 72 / 25.4)
        out.append(IdLabel(p.face, p.trim.x + p.trim.w / 2, p.trim.y - room / 2, size))
    return out
