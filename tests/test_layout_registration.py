"""Print-then-cut registration marks (--registration): read back from the cards PDF and the cut SVG."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pdfplumber
import pypdf
import pytest
from pdfsheet import drawn_images
from test_layout import POKER, UNO, make_faces

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.layout import LayoutOptions, cards_pdf_for_deck
from deckgen.selection import select

MM = 72 / 25.4
NS = {"s": "http://www.w3.org/2000/svg"}


@pytest.fixture(scope="module")
def deck():
    return select(manifest.load_deck("no-mercy"), "red-1x9,wild-draw-six x4")


def _filled_rects(plumber_page) -> list[tuple[float, float, float, float]]:
    """Solid black filled rectangles (x0, y0, x1, y1 in mm from the bottom-left), as pdfplumber reads them."""
    h = float(plumber_page.height)
    out = []
    for r in plumber_page.rects:
        colour = r.get("non_stroking_color")
        if r.get("fill") and (colour == 0 or colour in ((0,), (0, 0, 0), [0], [0, 0, 0])):
            out.append(tuple(round(v / MM, 2) for v in (r["x0"], h - r["bottom"], r["x1"], h - r["top"])))
    return sorted(out)


def _svg_marks(svg: bytes, page_h: float) -> list[tuple[float, float, float, float]]:
    root = ET.fromstring(svg)
    group = root.find("s:g[@id='registration']", NS)
    assert group is not None
    out = []
    for r in group.findall("s:rect", NS):
        x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        out.append((round(x, 2), round(page_h - y - h, 2), round(x + w, 2), round(page_h - y, 2)))
    return sorted(out)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("paper,card,fit", [("a4", POKER, "most"), ("letter", POKER, "most"),
                                            ("a4", UNO, "full-bleed"), ("letter", UNO, "most")])
def test_silhouette_marks_same_in_pdf_and_svg_and_clear_of_every_card(deck, tmp_path, paper, card, fit):
    faces = make_faces(deck, tmp_path, card=card)
    pdf = cards_pdf_for_deck(deck, faces, card, 3.0, LayoutOptions(paper=paper, fit=fit, cut_file="svg",
                                                                   registration="silhouette"))
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        fronts, backs = doc.pages[2::2], doc.pages[3::2]
        assert len(fronts) == len(pdf.cut_files)
        for (_, svg), page, raw in zip(pdf.cut_files, fronts, reader.pages[2::2]):
            w, h = float(page.width) / MM, float(page.height) / MM
            marks = _filled_rects(page)
            assert len(marks) == 5                                   # the square and the two L's two arms
            assert marks == _svg_marks(svg, h)                       # the cut file has them in the same places
            inset = 10.0
            # the square at the top-left corner, 10 mm in; the L's at top-right and bottom-left
            assert any(abs(m[0] - inset) < 0.02 and abs(m[3] - (h - inset)) < 0.02 and abs(m[2] - m[0] - 5) < 0.02
                       and abs(m[3] - m[1] - 5) < 0.02 for m in marks)
            assert any(abs(m[2] - (w - inset)) < 0.02 and abs(m[3] - (h - inset)) < 0.02 for m in marks)
            assert any(abs(m[0] - inset) < 0.02 and abs(m[1] - inset) < 0.02 for m in marks)
            for m in marks:                                          # inside the printable margin
                assert m[0] >= 5 and m[1] >= 5 and m[2] <= w - 5 and m[3] <= h - 5
            bleed_boxes = [tuple(v / MM for v in d.box) for d in drawn_images(raw)]
            assert bleed_boxes
            for m in marks:
                zone = (m[0] - 1, m[1] - 1, m[2] + 1, m[3] + 1)
                assert not any(_overlap(zone, b) for b in bleed_boxes)
        for page in backs:
            assert _filled_rects(page) == []                         # the cutter reads the fronts only


def test_fewer_cards_is_said_and_full_bleed_keeps_its_count(deck, tmp_path):
    faces = make_faces(deck, tmp_path, card=POKER)
    marked = cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(paper="a4", registration="silhouette"))
    plain = cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(paper="a4"))
    assert plain.sheet.per_page == 9 and marked.sheet.per_page == 6
    assert any("--registration silhouette" in n and "6 cards" in n and "instead of 9" in n for n in marked.notes)
    with pdfplumber.open(io.BytesIO(marked.data)) as doc:          # the cover says so (the deck is Spanish first)
        cover = " ".join((p.extract_text() or "") for p in doc.pages[:2]).replace("\n", " ")
    assert "6 cards instead of 9" in cover and "10 mm in" in cover and "6 cartas en vez de 9" in cover
    same = cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(paper="a4", fit="full-bleed",
                                                                     registration="silhouette"))
    assert same.sheet.per_page == 4 and not any("--registration" in n for n in same.notes)


def test_cricut_and_fold_are_refused_with_the_reason(deck, tmp_path):
    faces = make_faces(deck, tmp_path, card=POKER)
    with pytest.raises(DeckgenError) as err:
        cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(registration="cricut"))
    text = str(err.value.findings[0].message) + err.value.findings[0].hint
    assert "Design Space adds its own registration marks" in text and "leave --registration out" in text
    with pytest.raises(DeckgenError) as err:
        cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(registration="silhouette", layout="fold"))
    assert "--layout sheets" in err.value.findings[0].hint
