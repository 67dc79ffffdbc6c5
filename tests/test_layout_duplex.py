"""Duplex, glue and fold sheets, checked by turning the printed sheet over like a person would.

The test reads where every front and back image is drawn (and which way up) from the PDF,
applies the physical turn of the sheet (about the long or short edge, whatever the page's
orientation; about the fold line for a fold sheet), and checks that each back lands behind
its own front, the same way up. Nothing of the layout code is used to compute where backs
should be: only the deck (which back belongs to which front) and the physics of the turn.
"""

from __future__ import annotations

import io

import pdfplumber
import pytest
from pdfsheet import MM, FaceColours, drawn_images, reader_of
from PIL import Image

from deckgen import manifest
from deckgen.layout import LayoutOptions, cards_pdf_for_deck
from deckgen.selection import select

DPI = 40
UNO = (56.0, 87.0)
POKER = (63.5, 88.9)


REPRINT = "red-1x3,yellow-2x2,blue-3x3,green-4x3,power x4"     # 15 cards: every sheet size leaves a partial one


@pytest.fixture(scope="module")
def flex():
    """Flex Spectrum cut down to 15 cards, four of them two-sided Power cards (fast, partial last sheets)."""
    return select(manifest.load_deck("flex-spectrum"), REPRINT)


def flat_faces(deck, folder, card, bleed=3.0):
    """One flat colour per face id; returns (paths, colour -> face)."""
    ids = [c.id for c in deck.cards] + ["back"] + [f for comp in deck.components for f in comp.faces]
    px = tuple(round((s + 2 * bleed) * DPI / 25.4) for s in card)
    paths, colours = {}, {}
    for i, face in enumerate(ids):
        colour = (20 + (i * 7) % 230, 20 + (i * 53) % 230, 20 + (i // 33) * 40)
        assert colour not in colours
        path = folder / f"{face}.png"
        Image.new("RGB", px, colour).save(path)
        paths[face] = path
        colours[colour] = face
    return paths, colours


def expected_backs(deck) -> dict[str, str]:
    """Which face is printed behind which: the deck back behind every card, a component's second face
    behind its first."""
    out = {c.id: "back" for c in deck.cards}
    for comp in deck.components:
        out[comp.faces[0]] = comp.faces[1] if len(comp.faces) > 1 else "back"
    return out


def turn(point, vector, page, axis):
    """Turn the sheet over about a vertical (``"v"``) or horizontal (``"h"``) axis through the page
    centre: a point on the back page -> where it is on the front page, and a direction likewise."""
    w, h = page
    (x, y), (dx, dy) = point, vector
    if axis == "v":
        return (w - x, y), (-dx, dy)
    return (x, h - y), (dx, -dy)


def axis_for(page, edge):
    """Physics of duplex printing: a long-edge flip turns the sheet about its long edges."""
    w, h = page
    long_edges_vertical = h >= w
    if edge == "long":
        return "v" if long_edges_vertical else "h"
    return "h" if long_edges_vertical else "v"


def _fronts_and_backs(reader, colours, pages):
    faces = FaceColours(reader, colours)
    out = []
    for page in pages:
        out.append([(faces.face(page, d.name), d) for d in drawn_images(page)])
    return out


def _assert_behind(front, back, to_front, pairs):
    """Every back, turned over, lies on a front of its own card, the same way up; one back per front."""
    assert len(front) == len(back)
    matched = set()
    power = 0
    for face, d in back:
        centre, up = to_front(d.centre, d.up)
        hits = [i for i, (_, f) in enumerate(front)
                if abs(f.centre[0] - centre[0]) < 0.05 and abs(f.centre[1] - centre[1]) < 0.05]
        assert len(hits) == 1, f"back {face} at {d.centre} lands on no front"
        i = hits[0]
        f_face, f = front[i]
        assert face == pairs[f_face], f"{face} behind {f_face}"
        assert up == f.up, f"back {face} upside down or sideways behind {f_face}: {up} vs {f.up}"
        fw, fh = f.box[2] - f.box[0], f.box[3] - f.box[1]
        bw, bh = d.box[2] - d.box[0], d.box[3] - d.box[1]
        assert (abs(fw - bw), abs(fh - bh)) < (0.05, 0.05)
        matched.add(i)
        power += face == "power-red"
    assert len(matched) == len(front)
    return power


CASES = [  # paper, card, orientation asked, fit, the page orientation it must give
    ("a4", POKER, "auto", "most", "portrait"),
    ("a4", UNO, "auto", "most", "landscape"),
    ("letter", UNO, "auto", "most", "portrait"),
    ("letter", UNO, "auto", "full-bleed", "landscape"),
    ("11inx8.5in", UNO, "auto", "full-bleed", "landscape"),
    ("11inx8.5in", UNO, "landscape", "most", "landscape"),
    ("11inx8.5in", UNO, "portrait", "most", "portrait"),
    ("letter", POKER, "portrait", "most", "portrait"),
]


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1][0]:g}x{c[1][1]:g}-{c[2]}-{c[3]}" for c in CASES])
def test_every_back_lands_behind_its_front_the_right_way_up(flex, tmp_path, case, edge):
    paper, card, orientation, fit, expect = case
    paths, colours = flat_faces(flex, tmp_path, card)
    pdf = cards_pdf_for_deck(flex, paths, card, 3.0, LayoutOptions(paper=paper, duplex=edge, orientation=orientation,
                                                                   fit=fit))
    reader = reader_of(pdf.data)
    page0 = reader.pages[2]
    size = (float(page0.mediabox.width), float(page0.mediabox.height))
    assert (size[0] > size[1]) == (expect == "landscape")
    cards = reader.pages[2:]
    assert len(cards) % 2 == 0
    sides = _fronts_and_backs(reader, colours, cards)
    axis = axis_for(size, edge)
    pairs = expected_backs(flex)
    power = 0
    for front, back in zip(sides[0::2], sides[1::2]):
        power += _assert_behind(front, back, lambda p, v: turn(p, v, size, axis), pairs)
    assert power == 4                            # every Power card: green front, red back
    assert len(sides[-1]) < len(sides[0])        # the last sheet is a partial one
    assert sum(len(s) for s in sides[0::2]) == 15


@pytest.mark.parametrize("paper,card", [("a4", UNO), ("letter", UNO), ("a3", POKER), ("letter", POKER)])
def test_fold_sheets_put_each_back_behind_its_front_across_the_fold_line(flex, tmp_path, paper, card):
    paths, colours = flat_faces(flex, tmp_path, card)
    pdf = cards_pdf_for_deck(flex, paths, card, 3.0, LayoutOptions(paper=paper, layout="fold"))
    reader = reader_of(pdf.data)
    cards = reader.pages[2:]
    pairs = expected_backs(flex)
    fronts_total = power = 0
    plumber = pdfplumber.open(io.BytesIO(pdf.data))
    for page, drawn, lines in zip(cards, _fronts_and_backs(reader, colours, cards), plumber.pages[2:]):
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        dashed = [ln for ln in lines.lines if ln.get("dash") and ln["dash"][0]]
        assert len(dashed) == 1, "one dashed fold line per page"
        fold = dashed[0]
        vertical = abs(fold["x0"] - fold["x1"]) < 0.01
        at = fold["x0"] if vertical else fold["y0"]
        assert at == pytest.approx(w / 2 if vertical else h / 2, abs=0.01)     # the fold halves the sheet

        def across(p, v, vertical=vertical, at=at):
            return ((2 * at - p[0], p[1]), (-v[0], v[1])) if vertical else ((p[0], 2 * at - p[1]), (v[0], -v[1]))

        front = [(f, d) for f, d in drawn if f in pairs]          # card fronts and Power-card green sides
        back = [(f, d) for f, d in drawn if f not in pairs]

        def side(d, vertical=vertical, at=at):
            return (d.centre[0] if vertical else d.centre[1]) > at

        assert len({side(d) for _, d in front}) == 1 and len({side(d) for _, d in back}) == 1
        assert {side(d) for _, d in front} != {side(d) for _, d in back}    # fronts and backs on either half
        for _, d in drawn:                       # nothing crosses the fold line
            lo, hi = (d.visible[0], d.visible[2]) if vertical else (d.visible[1], d.visible[3])
            assert hi <= at + 0.01 or lo >= at - 0.01
        power += _assert_behind(front, back, across, pairs)
        fronts_total += len(front)
    plumber.close()
    assert power == 4
    assert fronts_total == 15


def test_glued_sheets_turn_left_to_right(flex, tmp_path):
    paths, colours = flat_faces(flex, tmp_path, UNO)
    pdf = cards_pdf_for_deck(flex, paths, UNO, 3.0, LayoutOptions(paper="letter", duplex="none"))
    reader = reader_of(pdf.data)
    page0 = reader.pages[2]
    size = (float(page0.mediabox.width), float(page0.mediabox.height))
    sides = _fronts_and_backs(reader, colours, reader.pages[2:])
    power = sum(_assert_behind(f, b, lambda p, v: turn(p, v, size, "v"), expected_backs(flex))
                for f, b in zip(sides[0::2], sides[1::2]))
    assert power == 4


def test_back_offset_moves_backs_in_back_page_coordinates(flex, tmp_path):
    paths, colours = flat_faces(flex, tmp_path, UNO)
    base = reader_of(cards_pdf_for_deck(flex, paths, UNO, 3.0, LayoutOptions(paper="letter")).data)
    moved = reader_of(cards_pdf_for_deck(flex, paths, UNO, 3.0,
                                         LayoutOptions(paper="letter", back_offset_mm=(1.0, 2.0))).data)
    for a, b in zip(drawn_images(base.pages[3]), drawn_images(moved.pages[3])):
        assert b.centre[0] - a.centre[0] == pytest.approx(1.0 * MM, abs=0.01)
        assert b.centre[1] - a.centre[1] == pytest.approx(-2.0 * MM, abs=0.01)   # down on the back page
    assert [d.centre for d in drawn_images(base.pages[2])] == [d.centre for d in drawn_images(moved.pages[2])]


def test_backs_none_still_prints_the_second_side_of_two_sided_cards(tmp_path):
    """Flex Spectrum's Power cards cannot be played one-sided: with --backs none their red sides are
    printed after the fronts, each page of them behind its page of green sides once turned left to right."""
    deck = manifest.load_deck("flex-spectrum")
    paths, colours = flat_faces(deck, tmp_path, UNO)
    pdf = cards_pdf_for_deck(deck, paths, UNO, 3.0, LayoutOptions(paper="a4", backs="none"))
    reader = reader_of(pdf.data)
    sides = _fronts_and_backs(reader, colours, reader.pages[2:])
    faces = [f for page in sides for f, _ in page]
    assert faces.count("power-green") == 10 and faces.count("power-red") == 10
    assert "back" not in faces                               # the deck's back is still left out
    red_pages = [i for i, page in enumerate(sides) if any(f == "power-red" for f, _ in page)]
    assert red_pages and min(red_pages) > max(i for i, page in enumerate(sides) for f, _ in page
                                              if f not in ("power-green", "power-red"))    # after the fronts
    size = (float(reader.pages[2].mediabox.width), float(reader.pages[2].mediabox.height))
    pairs = {"power-green": "power-red"}
    for i in red_pages:                                      # glued behind the page before it
        assert _assert_behind(sides[i - 1], sides[i], lambda p, v: turn(p, v, size, "v"), pairs) == len(sides[i])
    assert any("two-sided" in n and "10" in n for n in pdf.notes)
