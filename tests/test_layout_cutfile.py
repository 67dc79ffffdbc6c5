"""Print-then-cut files read back with parsers that are not deckgen's: svgelements for the SVG, ezdxf for
the DXF, pypdf for where the PDF prints each card. Every card's outline (four sides and four corners of
the --corner-radius) lies on the printed trim to 0.01 mm, every edge is in the file once, the files are
at the page's true size, and the cards keep bleed between them wherever that costs no card."""

from __future__ import annotations

import io
import math

import ezdxf
import pdfplumber
import pypdf
import pytest
from pdfsheet import drawn_images
from svgelements import SVG, Arc, Line, Move, Path
from test_layout import POKER, UNO, make_faces

from deckgen import manifest
from deckgen.layout import LayoutOptions, cards_pdf_for_deck
from deckgen.selection import select

MM = 72 / 25.4
TOL = 0.01      # mm
BLEED = 3.0


@pytest.fixture(scope="module")
def deck():
    return select(manifest.load_deck("no-mercy"), "red-1x9,wild-draw-six x4")


@pytest.fixture(scope="module")
def faces(deck, tmp_path_factory):
    return {"uno": make_faces(deck, tmp_path_factory.mktemp("uno"), card=UNO),
            "poker": make_faces(deck, tmp_path_factory.mktemp("poker"), card=POKER)}


def _trims(page) -> list[tuple[float, float, float, float]]:
    """The cards printed on a page, in mm (y up): each image box less the bleed."""
    return [((x0 / MM) + BLEED, (y0 / MM) + BLEED, (x1 / MM) - BLEED, (y1 / MM) - BLEED)
            for x0, y0, x1, y1 in (d.box for d in drawn_images(page))]


def _expected(trims, r) -> tuple[list, list]:
    """Each card's four sides (between its corners' arcs), shared sides once, and its four corners (centre, radius)."""
    sides, corners = [], []
    for x0, y0, x1, y1 in trims:
        for a, b in (((x0 + r, y0), (x1 - r, y0)), ((x1, y0 + r), (x1, y1 - r)),
                     ((x1 - r, y1), (x0 + r, y1)), ((x0, y1 - r), (x0, y0 + r))):
            if not any(_same((a, b), s) for s in sides):
                sides.append((a, b))
        corners += [((x0 + r, y0 + r), r), ((x1 - r, y0 + r), r), ((x1 - r, y1 - r), r), ((x0 + r, y1 - r), r)]
    return sides, corners


def _same(s, t) -> bool:
    """Two straight cuts with the same ends (either way round) to 0.01 mm."""
    (a, b), (c, d) = s, t
    return (math.dist(a, c) <= TOL and math.dist(b, d) <= TOL) or (math.dist(a, d) <= TOL and math.dist(b, c) <= TOL)


def _assert_outlines(lines, arcs, trims, r, where):
    """``lines``: (a, b) endpoints, ``arcs``: (centre, radius, a, b), all in mm with y up."""
    sides, corners = _expected(trims, r)
    for i, s in enumerate(lines):
        assert not any(_same(s, t) for t in lines[i + 1:]), f"{where}: the edge {s} is cut twice"
        match = [t for t in sides if _same(s, t)]
        assert match, f"{where}: the cut {s} is on no printed trim"
        sides.remove(match[0])
    assert not sides, f"{where}: printed trims not cut: {sides}"
    assert len(arcs) == len(corners), where
    for centre, radius, a, b in arcs:
        match = [c for c in corners if math.dist(c[0], centre) <= TOL and abs(c[1] - radius) <= TOL]
        assert match, f"{where}: a corner arc at {centre} off every printed corner"
        corners.remove(match[0])
        for p in (a, b):              # the arc meets the card's sides
            assert abs(math.dist(p, centre) - radius) <= TOL


def _svg_shapes(data: bytes, page_h: float):
    svg = SVG.parse(io.BytesIO(data), ppi=25.4)         # 25.4 px per inch: one user unit is a millimetre
    lines, arcs = [], []

    def up(p):
        return (p.x, page_h - p.y)

    for el in svg.elements():
        if isinstance(el, Path) and el.values.get("id") != "registration" and el.stroke is not None and el.stroke.value:
            for seg in el:
                if isinstance(seg, Line):
                    lines.append((up(seg.start), up(seg.end)))
                elif isinstance(seg, Arc):
                    arcs.append((up(seg.center), seg.rx, up(seg.start), up(seg.end)))
                else:
                    assert isinstance(seg, Move), seg
    return svg, lines, arcs


def _dxf_shapes(data: bytes):
    doc = ezdxf.read(io.TextIOWrapper(io.BytesIO(data), encoding="ascii"))     # CR LF line ends, as DXF has them
    msp = doc.modelspace()
    lines = [((e.dxf.start.x, e.dxf.start.y), (e.dxf.end.x, e.dxf.end.y)) for e in msp.query('LINE[layer=="CUT"]')]
    arcs = []
    for e in msp.query('ARC[layer=="CUT"]'):
        c, r = (e.dxf.center.x, e.dxf.center.y), e.dxf.radius
        a, b = (math.radians(e.dxf.start_angle), math.radians(e.dxf.end_angle))
        arcs.append((c, r, (c[0] + r * math.cos(a), c[1] + r * math.sin(a)), (c[0] + r * math.cos(b), c[1] + r * math.sin(b))))
    return doc, lines, arcs


CASES = [(paper, card, fmt, reg) for paper in ("a4", "letter") for card in ("uno", "poker")
         for fmt, reg in (("svg", "none"), ("dxf", "none"), ("dxf", "silhouette"))]


@pytest.mark.parametrize("paper,card,fmt,reg", CASES)
def test_cut_outlines_match_the_printed_trims(deck, faces, paper, card, fmt, reg):
    size = UNO if card == "uno" else POKER
    r = round(min(size) * 0.05, 3)
    pdf = cards_pdf_for_deck(deck, faces[card], size, BLEED, LayoutOptions(paper=paper, cut_file=fmt, registration=reg))
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    fronts = reader.pages[2::2]
    assert len(pdf.cut_files) == len(fronts) and pdf.cut_format == fmt
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        marks = [(m["x0"] / MM, m["y0"] / MM, m["x1"] / MM, m["y1"] / MM)            # filled black rectangles
                 for m in doc.pages[2].rects if m.get("fill") and not m.get("stroke")]
    for (no, data), page in zip(pdf.cut_files, fronts):
        w, h = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        trims = _trims(page)
        where = f"{paper} {card} {fmt} sheet {no}"
        if fmt == "svg":
            svg, lines, arcs = _svg_shapes(data, h)
            assert (svg.width, svg.height) == pytest.approx((w, h), abs=TOL)        # true size: the page, in mm
        else:
            doc, lines, arcs = _dxf_shapes(data)
            assert (doc.header["$INSUNITS"], doc.header["$MEASUREMENT"]) == (4, 1)     # millimetres, metric
            page_lines = list(doc.modelspace().query('LINE[layer=="PAGE"]'))
            xs = sorted({round(v, 3) for e in page_lines for v in (e.dxf.start.x, e.dxf.end.x)})
            ys = sorted({round(v, 3) for e in page_lines for v in (e.dxf.start.y, e.dxf.end.y)})
            assert xs == pytest.approx([0, w], abs=TOL) and ys == pytest.approx([0, h], abs=TOL)
            solids = doc.modelspace().query('SOLID[layer=="REGISTRATION"]')
            got = sorted((round(min(v.x for v in s.vertices()), 2), round(min(v.y for v in s.vertices()), 2))
                         for s in solids)
            assert got == sorted((round(m[0], 2), round(m[1], 2)) for m in marks)
            assert bool(got) == (reg == "silhouette")
        _assert_outlines(lines, arcs, trims, r, where)


GAPS = {  # paper, card -> (cards per sheet, gap between columns, gap between rows) with --cut-file, mm
    ("a4", "uno"): (10, 1.0, 6.0), ("a4", "poker"): (9, 3.15, 6.0),
    ("letter", "uno"): (9, 6.0, 1.35), ("letter", "poker"): (8, 3.15, 6.0),
}


@pytest.mark.parametrize("paper,card", sorted(GAPS))
def test_print_then_cut_keeps_bleed_between_cards_without_losing_one(deck, faces, paper, card):
    """--cut-file holds as many cards as the plain sheet and moves them apart: the PDF shows bleed between
    neighbouring cards (half the gap each side of the cut), as far as the printable area allows."""
    size = UNO if card == "uno" else POKER
    plain = cards_pdf_for_deck(deck, faces[card], size, BLEED, LayoutOptions(paper=paper))
    cut = cards_pdf_for_deck(deck, faces[card], size, BLEED, LayoutOptions(paper=paper, cut_file="svg"))
    per, gx, gy = GAPS[(paper, card)]
    assert plain.sheet.per_page == cut.sheet.per_page == per
    page = pypdf.PdfReader(io.BytesIO(cut.data)).pages[2]
    drawn = drawn_images(page)
    trims = _trims(page)
    gaps = {"x": set(), "y": set()}
    for (t, d) in zip(trims, drawn):
        for (u, e) in zip(trims, drawn):
            if abs(t[1] - u[1]) < TOL and u[0] > t[2] - TOL and not any(v[0] > t[2] - TOL and v[2] < u[0] + TOL
                                                                           for v in trims if abs(v[1] - t[1]) < TOL and v is not u):
                gaps["x"].add(round(u[0] - t[2], 2))
                shown = (d.visible[2] / MM - t[2], u[0] - e.visible[0] / MM)       # bleed either side of the cut
                assert shown == pytest.approx((min(BLEED, (u[0] - t[2]) / 2),) * 2, abs=TOL)
            if abs(t[0] - u[0]) < TOL and t[1] > u[3] - TOL and not any(v[1] > u[3] - TOL and v[3] < t[1] + TOL
                                                                           for v in trims if abs(v[0] - t[0]) < TOL and v is not u):
                gaps["y"].add(round(t[1] - u[3], 2))
    assert gaps["x"] == {gx} and gaps["y"] == {gy}
    with pdfplumber.open(io.BytesIO(cut.data)) as doc:
        margin = 5.0 if paper == "a4" else 6.35
        w, h = float(doc.pages[2].width) / MM, float(doc.pages[2].height) / MM
        for d in drawn:                                    # everything still inside the printable margin
            x0, y0, x1, y1 = (v / MM for v in d.visible)
            assert min(x0, y0, w - x1, h - y1) >= margin - TOL


@pytest.mark.parametrize("paper,card,per,gaps", [("a4", "uno", 8, (0.0, 0.0)), ("a4", "poker", 6, (6.0, 6.0)),
                                                 ("letter", "poker", 6, (6.0, 6.0))])
def test_registration_sheets_keep_bleed_between_cards_or_say_why_not(deck, faces, paper, card, per, gaps):
    """Between Silhouette's marks the layout takes the most cards, then the widest gaps; where the cards must
    sit edge to edge to keep their number, the summary says so."""
    size = UNO if card == "uno" else POKER
    pdf = cards_pdf_for_deck(deck, faces[card], size, BLEED, LayoutOptions(paper=paper, registration="silhouette"))
    assert pdf.sheet.per_page == per and pdf.sheet.gaps == pytest.approx(gaps)
    said = [n for n in pdf.notes if n.startswith("print-then-cut: neighbouring")]
    assert bool(said) == (min(gaps) == 0)
