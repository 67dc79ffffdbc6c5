"""--corner-guides and --card-ids, read back from the cards PDF (pdfplumber's text and drawings)."""

from __future__ import annotations

import io

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


@pytest.fixture(scope="module")
def deck():
    return select(manifest.load_deck("no-mercy"), "red-1x5,blue-2x3,wild-draw-six x2")


def _trims(raw_page) -> list[tuple[float, float, float, float]]:
    """Each card's trim (x0, y0, x1, y1 in points from the bottom-left): its image box less the 3 mm bleed."""
    b = 3.0 * MM
    return [(x0 + b, y0 + b, x1 - b, y1 - b) for x0, y0, x1, y1 in (d.box for d in drawn_images(raw_page))]


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01 and b[1] < a[3] - 0.01


@pytest.mark.parametrize("paper,card", [("a4", UNO), ("letter", POKER)])
def test_card_ids_sit_in_the_gutter_under_their_cards(deck, tmp_path, paper, card):
    faces = make_faces(deck, tmp_path, card=card)
    pdf = cards_pdf_for_deck(deck, faces, card, 3.0, LayoutOptions(paper=paper, fit="full-bleed", card_ids=True))
    assert pdf.sheet.gap_mm > 0
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    ids = {c.id for c in deck.cards}
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        fronts = list(zip(doc.pages[2::2], reader.pages[2::2]))
        seen = 0
        for page, raw in fronts:
            h = float(page.height)
            trims = _trims(raw)
            words = [w for w in page.extract_words() if w["text"] in ids]
            assert len(words) == len(trims)
            for w in words:
                box = (w["x0"], h - w["bottom"], w["x1"], h - w["top"])
                assert not any(_overlap(box, t) for t in trims)           # in the gutter, on no card
                below = [t for t in trims if t[0] <= (box[0] + box[2]) / 2 <= t[2] and t[1] >= box[3]]
                assert below, w                                            # under a card ...
                nearest = min(below, key=lambda t: t[1] - box[3])
                assert nearest[1] - box[1] <= pdf.sheet.gap_mm * MM + 0.01     # ... within its gutter
            seen += len(words)
        assert seen == pdf.cards
        for page in doc.pages[3::2]:                                       # backs: no ids
            assert not [w for w in page.extract_words() if w["text"] in ids]


def test_card_ids_refused_without_a_gutter(deck, tmp_path):
    faces = make_faces(deck, tmp_path, card=POKER)
    with pytest.raises(DeckgenError) as err:
        cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(paper="a4", card_ids=True))   # 9 edge to edge
    f = err.value.findings[0]
    assert "no gutter" in f.message and "--fit full-bleed" in f.hint


@pytest.mark.parametrize("fit", ["most", "full-bleed"])
def test_corner_guides_are_the_rounded_trim_of_every_front(deck, tmp_path, fit):
    faces = make_faces(deck, tmp_path, card=POKER)
    pdf = cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(paper="letter", fit=fit, corner_guides=True,
                                                                     corner_radius_mm=3.0))
    plain = cards_pdf_for_deck(deck, faces, POKER, 3.0, LayoutOptions(paper="letter", fit=fit))
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc, pdfplumber.open(io.BytesIO(plain.data)) as doc0:
        for page, raw, page0 in zip(doc.pages[2::2], reader.pages[2::2], doc0.pages[2::2]):
            h = float(page.height)
            guides = [c for c in page.curves if c.get("stroke") and c.get("stroking_color") in (0.6, (0.6,), [0.6])]
            assert not [c for c in page0.curves if c.get("stroking_color") in (0.6, (0.6,), [0.6])]
            boxes = sorted((round(c["x0"], 1), round(h - c["bottom"], 1), round(c["x1"], 1), round(h - c["top"], 1))
                           for c in guides)
            assert boxes == sorted(tuple(round(v, 1) for v in t) for t in _trims(raw))
            for c in guides:                                   # rounded: the path has points off the corners
                xs = {round(x, 1) for x, _ in c["pts"]}
                assert len(xs) > 2
        for page in doc.pages[3::2]:
            assert not [c for c in page.curves if c.get("stroking_color") in (0.6, (0.6,), [0.6])]
