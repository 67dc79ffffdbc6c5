"""The cutting order, followed on a model of the printed sheet that knows nothing of the layout code.

Each default sheet (A4 and Letter, UNO and poker cards, ``--fit most``, ``--fit full-bleed`` and
``--layout fold``) is written as a PDF; the test reads back what a person holds: the cards (image
boxes less the bleed), the crop marks and grey cut lines (pdfplumber's strokes, with their widths),
and the cover's English cutting order ("First make the N vertical cuts ..."). It then cuts the
sheet as a guillotine trimmer does, in that order (tests/cutsim.py): every cut runs right across
the piece it is made in and must have a guide printed on that piece, and every card must come out
exactly at its trim. The rulebook's printing page must print the same order.
"""

from __future__ import annotations

import io
import re

import pdfplumber
import pypdf
import pytest
from cutsim import cut_sheet
from pdfsheet import drawn_images
from test_layout import POKER, UNO, make_faces

from deckgen import manifest
from deckgen.layout import LayoutOptions, cards_pdf_for_deck
from deckgen.selection import select

MM = 72 / 25.4
TOL = 0.01 * MM          # 0.01 mm


@pytest.fixture(scope="module")
def deck():
    return select(manifest.load_deck("no-mercy"), "red-1x9,wild-draw-six x4")     # a full sheet and a partial one


@pytest.fixture(scope="module")
def faces(deck, tmp_path_factory):
    return {name: make_faces(deck, tmp_path_factory.mktemp(name), card=card)
            for name, card in (("uno", UNO), ("poker", POKER))}


def _strokes(page, dashed: bool = False) -> list[tuple[str, float, float, float, float]]:
    """Every solid (or, with ``dashed``, every dashed) straight stroke as (axis, position, start, end, width)
    in points, y up: axis "x" for a vertical stroke at x = position."""
    h = float(page.height)
    out = []
    for ln in page.lines:
        if bool(ln.get("dash")) != dashed:
            continue
        w = float(ln.get("linewidth") or 0)
        if abs(ln["x0"] - ln["x1"]) < 1e-6:
            out.append(("x", float(ln["x0"]), h - float(ln["bottom"]), h - float(ln["top"]), w))
        elif abs(ln["top"] - ln["bottom"]) < 1e-6:
            out.append(("y", h - float(ln["top"]), float(ln["x0"]), float(ln["x1"]), w))
    return out


def _order(cover: str) -> tuple[str, int, int]:
    """(axis cut first, how many first cuts, how many second cut lines) from the cover's English text."""
    first = re.search(r"First make the (\d+) (vertical|horizontal) cuts right across the sheet", cover)
    second = re.search(r"thin grey (vertical|horizontal) lines printed on it \((\d+) cut lines\)", cover)
    assert first and second, cover
    assert first.group(2) != second.group(1)
    return ("x" if first.group(2) == "vertical" else "y"), int(first.group(1)), int(second.group(2))


def _simulate(page, raw, order, fold: bool, where: str) -> int:
    w, h = float(page.width), float(page.height)
    b = 3.0 * MM
    drawn = drawn_images(raw)
    if fold:                        # the fronts come first; the folded sheet is cut as its front half
        drawn = drawn[: len(drawn) // 2]
    cards = [(x0 + b, y0 + b, x1 - b, y1 - b) for x0, y0, x1, y1 in (d.box for d in drawn)]
    strokes = _strokes(page)
    sheet = (0.0, 0.0, w, h)
    if fold:                        # the printed fold line halves the page: cut the half with the fronts
        ((axis, at, *_),) = _strokes(page, dashed=True)
        halves = [(0.0, 0.0, at, h), (at, 0.0, w, h)] if axis == "x" else [(0.0, 0.0, w, at), (0.0, at, w, h)]
        sheet = next(p for p in halves if all(p[0] - TOL <= c[0] and c[2] <= p[2] + TOL and
                                              p[1] - TOL <= c[1] and c[3] <= p[3] + TOL for c in cards))
    return cut_sheet(sheet, cards, strokes, order[0], TOL, where)


SHEETS = [(paper, card, how) for paper in ("a4", "letter") for card in ("uno", "poker")
          for how in ("most", "full-bleed", "fold")]


@pytest.mark.parametrize("paper,card,how", SHEETS)
def test_the_cutting_order_keeps_a_guide_for_every_cut(deck, faces, paper, card, how):
    size = UNO if card == "uno" else POKER
    opts = LayoutOptions(paper=paper, fit="full-bleed" if how == "full-bleed" else "most",
                         layout="fold" if how == "fold" else "sheets")
    pdf = cards_pdf_for_deck(deck, faces[card], size, 3.0, opts)
    reader = pypdf.PdfReader(io.BytesIO(pdf.data))
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        cover = doc.pages[1].extract_text().replace("\n", " ")
        order = _order(cover)
        step = 1 if how == "fold" else 2
        freed = 0
        for i in range(2, len(doc.pages), step):
            freed += _simulate(doc.pages[i], reader.pages[i], order, how == "fold", f"{paper} {card} {how} page {i + 1}")
    assert freed == pdf.cards
    b = 3.0 * MM            # the cover counts the first cuts of a full sheet
    boxes = [d.box for d in drawn_images(reader.pages[2])[: pdf.sheet.per_page]]
    edges = {round(v, 1) for x0, y0, x1, y1 in boxes
             for v in ((x0 + b, x1 - b) if order[0] == "x" else (y0 + b, y1 - b))}
    assert order[1] == len(edges)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rulebook_prints_the_covers_cutting_order(paper):
    """The printing page and the cards PDF's cover print the same steps for the default sheet."""
    from deckgen.layout.cutplan import cut_plan, cutting_steps
    from deckgen.rulebook.printing import default_sheet, printing_items

    classic = manifest.load_deck("classic")
    plan = cut_plan(default_sheet(classic, paper))
    for lang in ("en", "es"):
        page = " ".join(i.text for i in printing_items(classic, lang, paper))
        for step in cutting_steps(plan, lang):
            assert step in page
    assert "First make the" in " ".join(cutting_steps(plan, "en"))
