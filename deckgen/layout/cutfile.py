"""Print-then-cut files: for every sheet, an SVG of the card outlines at the page's size, each
outline exactly where the cards PDF prints that card's trim (rounded corners), for the cutting
software of Silhouette, Cricut or a laser cutter (Silhouette Studio, Cricut Design Space,
Inkscape, LightBurn all read SVG in millimetres).

The outlines come from the same sheet plan as the PDF, so they line up with the print as long as
the cutter is registered to the page; the SVG holds nothing but the cut paths (red hairlines,
no fill) and a title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deckgen.layout.geometry import Rect
from deckgen.layout.imposition import PagePlan

CUT_FORMATS = ("none", "svg")


def default_corner_radius(trim_mm: tuple[float, float]) -> float:
    """5 % of the card's shorter side: 1/8 in (3.175 mm) on a poker card, 2.8 mm on an UNO card."""
    return round(min(trim_mm) * 0.05, 3)


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def sheet_svg(trims: Sequence[Rect], page_mm: tuple[float, float], radius_mm: float, title: str,
              registration: Sequence[Rect] = ()) -> bytes:
    """One sheet's cut paths (trim rectangles with rounded corners) as SVG bytes, y measured from the top;
    ``registration``: the printed registration marks, in a group of their own (black fill, not cut)."""
    w, h = page_mm
    r = max(0.0, min(radius_mm, min((min(t.w, t.h) for t in trims), default=0.0) / 2))
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
             f'viewBox="0 0 {_n(w)} {_n(h)}">',
             f"  <title>{_escape(title)}</title>",
             '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">']
    for t in trims:
        lines.append(f'    <rect x="{_n(t.x)}" y="{_n(h - t.top)}" width="{_n(t.w)}" height="{_n(t.h)}" '
                     f'rx="{_n(r)}" ry="{_n(r)}"/>')
    lines.append("  </g>")
    if registration:
        lines.append('  <g id="registration" fill="#000000" stroke="none">')
        lines += [f'    <rect x="{_n(m.x)}" y="{_n(h - m.top)}" width="{_n(m.w)}" height="{_n(m.h)}"/>'
                  for m in registration]
        lines.append("  </g>")
    lines += ["</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def front_trims(page: PagePlan) -> list[Rect]:
    """The trims printed face up on a page: every placement of a front page, the front half of a fold page."""
    if page.side == "fold":
        return [p.trim for p in page.placements[: len(page.placements) // 2]]
    return [p.trim for p in page.placements]


def cut_files(pages: Sequence[PagePlan], page_mm: tuple[float, float], radius_mm: float,
              title: str, registration: Sequence[Rect] = ()) -> list[tuple[int, bytes]]:
    """(sheet number, SVG bytes) for every sheet with cards printed face up."""
    out = []
    for page in pages:
        if page.side in ("front", "fold"):
            out.append((page.sheet_no, sheet_svg(front_trims(page), page_mm, radius_mm,
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
