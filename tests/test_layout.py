"""Print-and-play sheets, inspected with pypdf / pdfplumber (never ReportLab).

Faces here are plain coloured PNGs drawn by the test at 50 dpi, one colour per face, so the
layout is tested on its own, quickly; test_build.py runs the real renderer.
"""

import hashlib
import io

import pdfplumber
import pypdf
import pytest
from PIL import Image

from deckgen import manifest
from deckgen.layout import LayoutOptions, MarkStyle, SheetSpec, cards_pdf_for_deck, parse_paper, plan_sheet
from deckgen.units import mm_to_pt

DPI = 50
UNO = (56.0, 87.0)
POKER = (63.5, 88.9)
TOL = 0.01  # points


def make_faces(deck, folder, bleed=3.0, card=UNO, mode="RGB"):
    """One flat-coloured PNG per face id, trim + bleed at 50 dpi."""
    ids = [c.id for c in deck.cards] + ["back"] + [f for comp in deck.components for f in comp.faces]
    px = tuple(round((s + 2 * bleed) * DPI / 25.4) for s in card)
    paths = {}
    for i, face in enumerate(ids):
        colour = (40 + i % 200, 40 + (i // 200) * 60, 128)     # unique per face
        path = folder / f"{face}.png"
        Image.new(mode, px, colour).save(path)
        paths[face] = path
    return paths


@pytest.fixture(scope="module")
def no_mercy():
    return manifest.load_deck("no-mercy")


@pytest.fixture(scope="module")
def flex():
    return manifest.load_deck("flex-spectrum")


@pytest.fixture(scope="module")
def nm_faces(no_mercy, tmp_path_factory):
    return make_faces(no_mercy, tmp_path_factory.mktemp("nm"))


@pytest.fixture(scope="module")
def flex_faces(flex, tmp_path_factory):
    return make_faces(flex, tmp_path_factory.mktemp("flex"))


def digest_names(faces):
    """XObject name each face gets (the layout names images by content)."""
    return {"FormXob.face" + hashlib.sha1(p.read_bytes()).hexdigest()[:16]: f for f, p in faces.items()}


def card_pages(pdf):
    return pdf.pages[2:]


def boxes(page):
    """Image rectangles in PDF coordinates (y up)."""
    return [(round(i["x0"], 2), round(i["y0"], 2), round(i["x1"], 2), round(i["y1"], 2)) for i in page.images]


# ------------------------------------------------------------------ geometry

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", [UNO, POKER], ids=["uno", "poker"])
def test_three_by_three_fits_at_gap_zero_when_asked(paper, card):
    margin = parse_paper(paper).margin_mm
    sheet = plan_sheet(SheetSpec(parse_paper(paper).size_mm, card, 3.0, 0.0, margin, MarkStyle(3.0, 0.3, 0.5)))
    assert sheet.per_page >= 6
    assert len(sheet.cut_x) == sheet.cols + 1 and len(sheet.cut_y) == sheet.rows + 1     # shared cut lines
    assert sheet.notes and "share their cut lines" in sheet.notes[0]


def test_gap_gives_every_card_its_own_cut_lines():
    sheet = plan_sheet(SheetSpec((210, 297), UNO, 3.0, 4.0, 5.0))
    assert len(sheet.cut_x) == 2 * sheet.cols and len(sheet.cut_y) == 2 * sheet.rows
    for slot in sheet.slots:       # inner bleed is clipped at the middle of the gap
        assert slot.clip.w <= UNO[0] + 2 * 3.0 + 1e-9


def test_paper_too_small_is_a_clear_error():
    from deckgen.errors import DeckgenError

    with pytest.raises(DeckgenError) as exc:
        plan_sheet(SheetSpec((80, 120), UNO, 3.0, 0.0, 5.0))
    message = str(exc.value)
    assert "does not fit" in message and "3 mm bleed" in message and "5 mm crop marks" in message
    assert "--mark-length" in exc.value.findings[0].hint


def test_custom_paper_and_units():
    assert parse_paper("8.5in x 11in").size_mm == pytest.approx((215.9, 279.4))
    assert parse_paper("Letter").id == "letter"
    assert parse_paper("letter").margin_mm == pytest.approx(6.35)          # 1/4 in on US papers
    assert parse_paper("11inx8.5in").margin_mm == pytest.approx(6.35)      # Letter turned keeps it
    assert parse_paper("a4").margin_mm == 5.0 and parse_paper("200mmx280mm").margin_mm == 5.0
    from deckgen.errors import DeckgenError

    with pytest.raises(DeckgenError) as exc:
        parse_paper("a44")
    assert "did you mean 'a4'" in str(exc.value)


# ------------------------------------------------------------------ the PDF


@pytest.fixture(scope="module")
def nm_pdf(no_mercy, nm_faces):
    return cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions())


def test_every_image_is_card_plus_bleed_and_fronts_match_count(no_mercy, nm_pdf, nm_faces):
    names = digest_names(nm_faces)
    with pdfplumber.open(io.BytesIO(nm_pdf.data)) as pdf:
        assert not pdf.pages[0].images and not pdf.pages[1].images      # cover pages
        fronts = []
        for n, page in enumerate(card_pages(pdf)):
            for im in page.images:
                assert im["width"] == pytest.approx(mm_to_pt(UNO[0] + 6), abs=TOL)
                assert im["height"] == pytest.approx(mm_to_pt(UNO[1] + 6), abs=TOL)
                if n % 2 == 0:
                    fronts.append(names[im["name"]])
                else:
                    assert names[im["name"]] == "back"
    assert len(fronts) == no_mercy.total == 168
    expected = {c.id: c.count for c in no_mercy.cards}
    assert {f: fronts.count(f) for f in expected} == expected


def test_back_offset_shifts_backs_only(no_mercy, nm_faces):
    base = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions()).data
    moved = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(back_offset_mm=(1.0, 2.0))).data
    with pdfplumber.open(io.BytesIO(base)) as a, pdfplumber.open(io.BytesIO(moved)) as b:
        assert boxes(a.pages[2]) == boxes(b.pages[2])
        for (x0, y0, _, _), (u0, v0, _, _) in zip(boxes(a.pages[3]), boxes(b.pages[3])):
            assert u0 - x0 == pytest.approx(mm_to_pt(1.0), abs=0.02)
            assert v0 - y0 == pytest.approx(-mm_to_pt(2.0), abs=0.02)   # down on the page


def _trims(page, bleed_pt):
    return [(i["x0"] + bleed_pt, i["y0"] + bleed_pt, i["x1"] - bleed_pt, i["y1"] - bleed_pt)
            for i in page.images]


@pytest.mark.parametrize("paper,gap", [("a4", 0.0), ("letter", 0.0), ("a4", 4.0), ("letter", 4.0), ("letter", None)])
def test_crop_marks_on_every_cut_line_and_outside_every_card(no_mercy, nm_faces, paper, gap):
    data = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(paper=paper, gap_mm=gap,
                                                                         fit="full-bleed")).data
    bleed = mm_to_pt(3.0)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in (pdf.pages[2], pdf.pages[-2]):      # a full sheet and the last, partial one
            _check_marks(page, bleed, paper)


BLACK = ((0,), [0], 0, (0.0,), 0.0)


def crop_marks(page):
    """The crop marks: black strokes (the grey ones are cut lines printed along the cards)."""
    return [ln for ln in page.lines if ln["stroking_color"] in BLACK]


def _check_marks(page, bleed, paper):
    """Two marks on every cut line of the cards on the page, none crossing the card block."""
    trims = _trims(page, bleed)
    cut_x = sorted({round(v, 2) for t in trims for v in (t[0], t[2])})
    cut_y = sorted({round(v, 2) for t in trims for v in (t[1], t[3])})
    marks = crop_marks(page)
    vertical = [ln for ln in marks if abs(ln["x0"] - ln["x1"]) < 1e-6]
    horizontal = [ln for ln in marks if abs(ln["top"] - ln["bottom"]) < 1e-6]
    for x in cut_x:
        assert sum(1 for ln in vertical if abs(ln["x0"] - x) < 0.02) == 2, f"cut line x={x}"
    for y in cut_y:
        assert sum(1 for ln in horizontal if abs(ln["y0"] - y) < 0.02) == 2, f"cut line y={y}"
    assert len(marks) == 2 * (len(cut_x) + len(cut_y)), "marks only for the cards on the page"
    # bleed and marks are never traded: the marks stay clear of the block's full bleed and out of
    # the paper's margin (1/4 in on Letter), and keep their full 5 mm
    block = (min(t[0] for t in trims) - bleed, min(t[1] for t in trims) - bleed,
             max(t[2] for t in trims) + bleed, max(t[3] for t in trims) + bleed)
    margin = mm_to_pt(parse_paper(paper).margin_mm)
    w, h = float(page.width), float(page.height)
    for ln in page.lines:
        half = ln["linewidth"] / 2
        assert min(ln["x0"] - half * (ln["x0"] == ln["x1"]), ln["y0"] - half * (ln["y0"] == ln["y1"]),
                   w - ln["x1"] - half * (ln["x0"] == ln["x1"]), h - ln["y1"] - half * (ln["y0"] == ln["y1"])) >= margin - 0.01
    for ln in marks:
        assert ln["linewidth"] >= mm_to_pt(0.25)
        assert max(ln["width"], ln["height"]) == pytest.approx(mm_to_pt(5.0), abs=0.01)
        inside = block[0] < ln["x1"] and ln["x0"] < block[2] and block[1] < ln["y1"] and ln["y0"] < block[3]
        assert not inside, "a crop mark crosses the card block"


def rasterize(pdf_path, dpi: int, page_indexes) -> list[Image.Image]:
    """PDF pages as images, drawn by PDFium (an independent renderer, shipped in its wheel)."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(pdf_path))
    try:
        return [doc[i].render(scale=dpi / 72).to_pil() for i in page_indexes]
    finally:
        doc.close()


def _margin_is_blank(png: Image.Image, margin_px: int) -> bool:
    g = png.convert("L")
    w, h = g.size
    bands = [(0, 0, w, margin_px), (0, h - margin_px, w, h), (0, 0, margin_px, h), (w - margin_px, 0, w, h)]
    return all(g.crop(b).getextrema()[0] >= 250 for b in bands)


@pytest.mark.parametrize("paper,card", [("a4", UNO), ("letter", UNO), ("letter", POKER)])
def test_nothing_enters_the_printable_margin(no_mercy, tmp_path, paper, card):
    faces = make_faces(no_mercy, tmp_path, card=card)
    data = cards_pdf_for_deck(no_mercy, faces, card, 3.0, LayoutOptions(paper=paper)).data
    pdf_path = tmp_path / "x.pdf"
    pdf_path.write_bytes(data)
    margin_mm = 5.0 if paper == "a4" else 6.35
    margin_px = int(margin_mm / 25.4 * 100) - 1      # at 100 dpi, less a pixel of antialiasing
    pages = rasterize(pdf_path, 100, range(4))
    assert len(pages) == 4
    for i, im in enumerate(pages):
        assert _margin_is_blank(im, margin_px), f"page {i + 1}"
    assert pages[2].convert("L").getextrema()[0] < 200      # and the cards are really there


def test_each_face_embedded_once_fonts_embedded_and_metadata(no_mercy, nm_pdf, nm_faces):
    reader = pypdf.PdfReader(io.BytesIO(nm_pdf.data))
    images, fonts = set(), {}
    for page in reader.pages:
        res = page.get("/Resources") or {}
        for ref in (res.get("/XObject") or {}).values():
            images.add(ref.idnum)
        for ref in (res.get("/Font") or {}).values():
            fonts[ref.idnum] = ref.get_object()
    distinct = {c.id for c in no_mercy.cards} | {"back"}
    assert len(images) == len(distinct) == nm_pdf.faces
    assert fonts
    for font in fonts.values():
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]
    meta = reader.metadata
    assert "No Mercy" in meta.title and meta.author == "deckgen"
    cover = reader.pages[0].extract_text()
    assert "UNO Show 'em No Mercy" in cover and "168" in cover and "100 %" in cover and "A4" in cover
    assert "TAMAÑO REAL" in cover
    assert "ACTUAL SIZE" in reader.pages[1].extract_text()
    assert "5 × 2 = 10 cartas por hoja" in cover and "las cartas vecinas comparten la línea de corte" in cover
    sheets = -(-168 // 10)
    assert len(reader.pages) == 2 + 2 * sheets


def test_alpha_faces_are_flattened_and_still_embedded_once(no_mercy, tmp_path):
    faces = make_faces(no_mercy, tmp_path, mode="RGBA")
    data = cards_pdf_for_deck(no_mercy, faces, UNO, 3.0, LayoutOptions()).data
    reader = pypdf.PdfReader(io.BytesIO(data))
    ids = {ref.idnum for p in reader.pages for ref in ((p["/Resources"].get("/XObject")) or {}).values()}
    assert len(ids) == len({c.id for c in no_mercy.cards}) + 1


def test_pass_through_images_decode_to_the_original_pixels(no_mercy, nm_faces, nm_pdf):
    reader = pypdf.PdfReader(io.BytesIO(nm_pdf.data))
    names = digest_names(nm_faces)
    for name, ref in reader.pages[2]["/Resources"]["/XObject"].items():
        img = ref.get_object().decode_as_image()
        with Image.open(nm_faces[names[name.lstrip("/")]]) as orig:
            assert img.convert("RGB").tobytes() == orig.convert("RGB").tobytes()
        break


def test_same_inputs_byte_identical(no_mercy, nm_faces):
    opts = LayoutOptions(paper="letter", duplex="short", guides=True, marks=MarkStyle(4.0, 0.4, 1.5))
    a = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, opts).data
    b = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, opts).data
    assert a == b


def test_duplex_none_pairs_sheets_for_gluing_with_marks_on_both(no_mercy, nm_faces):
    from deckgen.errors import DeckgenError

    data = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(duplex="none")).data
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        front, back = pdf.pages[2], pdf.pages[3]
        w = float(front.width)
        assert back.lines, "backs carry crop marks to line the sheets up when gluing"
        mirrored = sorted((w - b[2], b[1]) for b in boxes(back))
        for m, f in zip(mirrored, sorted((b[0], b[1]) for b in boxes(front))):
            assert m == pytest.approx(f, abs=0.02)
        cover = pdf.pages[0].extract_text() + pdf.pages[1].extract_text()
        assert "--back-offset" not in cover and "calibrate" not in cover     # no advice that does nothing here
    with pytest.raises(DeckgenError) as exc:                                 # an offset here does nothing: said so
        cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(duplex="none", back_offset_mm=(3.0, 3.0)))
    assert "does nothing with --duplex none" in str(exc.value)


def test_gap_zero_shows_bleed_only_on_the_outer_edges(no_mercy, tmp_path):
    """Faces whose bleed is magenta: after rendering a sheet, magenta may appear only in the ring
    outside the trim block, never between neighbouring cards (they share the cut line)."""
    bleed = 3.0
    px = tuple(round((s + 2 * bleed) * DPI / 25.4) for s in UNO)
    b = round(bleed * DPI / 25.4)
    faces = {}
    ids = [c.id for c in no_mercy.cards] + ["back"]
    for i, face in enumerate(ids):
        im = Image.new("RGB", px, (255, 0, 255))
        im.paste((40 + i % 200, 200, 40), (b, b, px[0] - b, px[1] - b))
        faces[face] = tmp_path / f"{face}.png"
        im.save(faces[face])
    opts = LayoutOptions(gap_mm=0.0)
    data = cards_pdf_for_deck(no_mercy, faces, UNO, bleed, opts).data
    sheet = plan_sheet(SheetSpec((210, 297), UNO, bleed, 0.0, 5.0))
    ph = sheet.page_mm[1]
    (tmp_path / "s.pdf").write_bytes(data)
    page = rasterize(tmp_path / "s.pdf", 100, [2])[0].convert("RGB")
    scale = 100 / 25.4
    blk = sheet.block
    inner = (blk.x * scale + 2, (ph - blk.top) * scale + 2, blk.right * scale - 2, (ph - blk.y) * scale - 2)
    magenta_inside = magenta_ring = 0
    for y in range(0, page.height, 2):
        for x in range(0, page.width, 2):
            r, g, bl = page.getpixel((x, y))
            if r > 200 and g < 60 and bl > 200:
                if inner[0] < x < inner[2] and inner[1] < y < inner[3]:
                    magenta_inside += 1
                else:
                    magenta_ring += 1
    assert magenta_inside == 0
    assert magenta_ring > 0


def test_bad_papers_file_reports_every_problem(tmp_path):
    from deckgen.errors import DeckgenError
    from deckgen.layout import load_papers

    bad = tmp_path / "papers.toml"
    bad.write_text('[a]\nsize = "210 by 297"\n[b]\nsize = "1in x 2in"\ncolour = 1\n[c]\nname = "C"\n'
                   '[d]\nsize = "4in x 6in"\nmargin = "wide"\n', encoding="utf-8")
    with pytest.raises(DeckgenError) as exc:
        load_papers(bad)
    assert {"a.size", "b.colour", "c.size", "d.margin"} <= {f.where for f in exc.value.findings}
    assert all(f.file == str(bad) for f in exc.value.findings)


# ------------------------------------------------------------------ the figures a print review measures

FIGURES = {  # paper, card -> (page orientation, cards per sheet) with full bleed and full marks
    ("a4", "uno"): ("landscape", 8), ("a4", "poker"): ("portrait", 4),
    ("letter", "uno"): ("landscape", 8), ("letter", "poker"): ("landscape", 6),
}


def measure(data: bytes, card) -> dict:
    """Bleed shown around every card, gaps between trims, crop-mark lengths and their distance from
    the page edge, read from the PDF (pypdf content streams for images and clips, pdfplumber for lines)."""
    from pdfsheet import MM, drawn_images, reader_of

    reader = reader_of(data)
    cw, ch = card[0] * MM, card[1] * MM
    bleed, gaps, per_sheet = [], [], []
    for page in reader.pages[2::2]:                      # the front pages
        drawn = drawn_images(page)
        per_sheet.append(len(drawn))
        trims = []
        for d in drawn:
            cx, cy = d.centre
            t = (cx - cw / 2, cy - ch / 2, cx + cw / 2, cy + ch / 2)
            v = d.visible
            bleed.append(min(t[0] - v[0], t[1] - v[1], v[2] - t[2], v[3] - t[3]) / MM)
            trims.append(t)
        for a in trims:
            for b in trims:
                if a is not b and abs(a[1] - b[1]) < 0.01 and b[0] > a[0]:
                    gaps.append((b[0] - a[2]) / MM)
    marks, edge = [], []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages[2::2]:
            w, h = float(page.width), float(page.height)
            for ln in page.lines:
                if ln["stroking_color"] in BLACK:
                    marks.append(max(ln["width"], ln["height"]) / MM)
                edge.append(min(ln["x0"], ln["y0"], w - ln["x1"], h - ln["y1"]) / MM)
    p0 = reader.pages[2].mediabox
    return {"bleed": min(bleed), "gap": min(gaps) if gaps else None, "mark": min(marks), "mark_max": max(marks),
            "edge": min(edge), "per_sheet": max(per_sheet),
            "orientation": "landscape" if p0.width > p0.height else "portrait"}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card,name", [(UNO, "uno"), (POKER, "poker")], ids=["uno", "poker"])
def test_full_bleed_and_marks_on_every_paper(no_mercy, tmp_path, paper, card, name):
    from deckgen.selection import select

    deck = select(no_mercy, "red-1x9,wild-draw-six x4")          # 13 cards: full sheets and a partial one
    faces = make_faces(no_mercy, tmp_path, card=card)
    data = cards_pdf_for_deck(deck, faces, card, 3.0, LayoutOptions(paper=paper, fit="full-bleed")).data
    m = measure(data, card)
    assert m["bleed"] >= 3.0 - 0.01                      # 3 mm (1/8 in) around every card
    assert m["gap"] == pytest.approx(6.0, abs=0.01)      # twice the bleed: the bleeds meet, never overlap
    assert m["mark"] == pytest.approx(5.0, abs=0.01) and m["mark_max"] == pytest.approx(5.0, abs=0.01)
    assert m["edge"] >= (6.35 if paper == "letter" else 5.0) - 0.01     # 1/4 in from every edge on Letter
    assert (m["orientation"], m["per_sheet"]) == FIGURES[(paper, name)]
    with pdfplumber.open(io.BytesIO(data)) as pdf:       # the cover states the same figures
        cover = pdf.pages[1].extract_text().replace("\n", " ")
    per = FIGURES[(paper, name)][1]
    assert f"= {per} cards per sheet" in cover and "Bleed: 3 mm around every card; gap between cards 6 mm" in cover


def test_gap_zero_is_named_on_the_cover_and_in_the_notes(no_mercy, nm_faces):
    pdf = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(paper="letter", gap_mm=0.0))
    assert any("share their cut lines" in n for n in pdf.notes)
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        cover = doc.pages[1].extract_text().replace("\n", " ")
    assert "neighbouring cards share their cut lines (gap 0)" in cover


def test_back_offset_past_the_margin_is_an_error_naming_the_limit(no_mercy, nm_faces):
    from deckgen.errors import DeckgenError

    ok = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(paper="letter", back_offset_mm=(2.0, -2.0)))
    assert ok.pages > 2
    with pytest.raises(DeckgenError) as exc:
        cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(paper="letter", back_offset_mm=(30.0, 0.0)))
    message = str(exc.value)
    assert "off the paper" in message and "6.35 mm margin" in message and "X must stay between" in message


def test_backs_none_prints_fronts_only(no_mercy, nm_faces):
    pdf = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(backs="none"))
    back_name = digest_names({"back": nm_faces["back"]})
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        assert len(doc.pages) == 2 + -(-168 // pdf.sheet.per_page)
        assert all(im["name"] not in back_name for page in doc.pages for im in page.images)
        assert "fronts only" in doc.pages[1].extract_text()


@pytest.mark.parametrize("backs,duplex", [("none", "long"), ("deck", "none"), ("deck", "long")])
def test_the_cover_counts_the_sheets_of_paper_printed(flex, flex_faces, backs, duplex):
    """Single-sided, every card page is a sheet of paper (with --backs none that includes the Power cards'
    second sides, glued behind their fronts); double-sided, a sheet holds a page of fronts and its backs."""
    import re

    pdf = cards_pdf_for_deck(flex, flex_faces, UNO, 3.0, LayoutOptions(backs=backs, duplex=duplex))
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        cover = doc.pages[1].extract_text().replace("\n", " ")
        card_pages = len(doc.pages) - 2
    sheets, pages = (int(v) for v in re.search(r"Sheets: (\d+) \((\d+) card pages\)", cover).groups())
    assert pages == card_pages
    assert sheets == (card_pages // 2 if (backs, duplex) == ("deck", "long") else card_pages)


def test_a_custom_papers_size_is_said_once(no_mercy, nm_faces):
    pdf = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(paper="200mmx280mm"))
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        cover = doc.pages[1].extract_text().replace("\n", " ")
    assert "Paper: 200 × 280 mm, double-sided" in cover and cover.count("200 × 280") == 1


MOST = {  # paper, card -> (page orientation, cards per sheet) by default (--fit most)
    ("a4", "uno"): ("landscape", 10), ("a4", "poker"): ("portrait", 9),
    ("letter", "uno"): ("portrait", 9), ("letter", "poker"): ("landscape", 8),     # 9 would leave 0 mm of bleed
}


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card,name", [(UNO, "uno"), (POKER, "poker")], ids=["uno", "poker"])
def test_most_cards_per_sheet_with_a_guide_on_every_cut_line(no_mercy, tmp_path, paper, card, name):
    """By default: edge to edge, 9 poker cards on A4 (8 on Letter, where 9 leave no bleed at top and
    bottom); every cut line read from the card positions in the PDF has two crop marks outside the
    cards or a grey cut line printed on it, nothing in the margin, and the cover says how to cut."""
    from deckgen.selection import select

    deck = select(no_mercy, "red-1x9,wild-draw-six x4")          # 13 cards: a full sheet and a partial one
    faces = make_faces(no_mercy, tmp_path, card=card)
    data = cards_pdf_for_deck(deck, faces, card, 3.0, LayoutOptions(paper=paper)).data
    m = measure(data, card)
    assert (m["orientation"], m["per_sheet"]) == MOST[(paper, name)]
    assert m["gap"] == pytest.approx(0.0, abs=0.01)
    margin = mm_to_pt(parse_paper(paper).margin_mm)
    reader = pypdf.PdfReader(io.BytesIO(data))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for index in (2, len(pdf.pages) - 2):                      # a full sheet of fronts and the partial one
            page = pdf.pages[index]
            w, h = float(page.width), float(page.height)
            from pdfsheet import drawn_images

            trims = []
            for d in drawn_images(reader.pages[index]):
                x0, y0, x1, y1 = d.box
                trims.append((x0 + mm_to_pt(3.0), y0 + mm_to_pt(3.0), x1 - mm_to_pt(3.0), y1 - mm_to_pt(3.0)))
            cut_x = sorted({round(v, 2) for t in trims for v in (t[0], t[2])})
            cut_y = sorted({round(v, 2) for t in trims for v in (t[1], t[3])})
            lines = page.lines
            black = crop_marks(page)
            grey = [ln for ln in lines if ln not in black]
            for x in cut_x:
                marks = [ln for ln in black if abs(ln["x0"] - x) < 0.02 and abs(ln["x0"] - ln["x1"]) < 1e-6]
                rules = [ln for ln in grey if abs(ln["x0"] - x) < ln["linewidth"] / 2 + 0.02
                         and abs(ln["x0"] - ln["x1"]) < 1e-6]
                assert len(marks) == 2 or rules, f"cut line x={x} has no guide"
            for y in cut_y:
                marks = [ln for ln in black if abs(ln["y0"] - y) < 0.02 and abs(ln["y0"] - ln["y1"]) < 1e-6]
                rules = [ln for ln in grey if abs(ln["y0"] - y) < ln["linewidth"] / 2 + 0.02
                         and abs(ln["y0"] - ln["y1"]) < 1e-6]
                assert len(marks) == 2 or rules, f"cut line y={y} has no guide"
            for ln in lines:
                assert min(ln["x0"], ln["y0"], w - ln["x1"], h - ln["y1"]) >= margin - 0.01
            for ln in black:                               # crop marks never cross a card
                for t in trims:
                    assert not (t[0] < ln["x1"] - 0.01 and ln["x0"] < t[2] - 0.01 and
                                t[1] < ln["y1"] - 0.01 and ln["y0"] < t[3] - 0.01)
        cover = pdf.pages[1].extract_text().replace("\n", " ")
    assert f"= {MOST[(paper, name)][1]} cards per sheet" in cover
    assert "First make the" in cover and "along the thin grey" in cover
    assert "deckgen calibrate --paper " + paper in cover


def test_fit_full_bleed_keeps_separate_bleeds(no_mercy, nm_faces):
    most = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions())
    full = cards_pdf_for_deck(no_mercy, nm_faces, UNO, 3.0, LayoutOptions(fit="full-bleed"))
    assert (most.sheet.per_page, full.sheet.per_page) == (10, 8)
    assert any("edge to edge" in n and "--fit full-bleed" in n for n in most.notes)
    assert not full.notes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rulebook_printing_page_gives_the_cards_pdf_cover_figures(flex, flex_faces, paper):
    """Every printed card counted (the Power cards too), and the same sheets and cards per sheet as the
    cover of the cards PDF built with the defaults."""
    import re

    from deckgen.rulebook.printing import printing_items

    pdf = cards_pdf_for_deck(flex, flex_faces, UNO, 3.0, LayoutOptions(paper=paper))
    with pdfplumber.open(io.BytesIO(pdf.data)) as doc:
        cover = doc.pages[1].extract_text().replace("\n", " ")
    cards, extras = re.search(r"Cards: (\d+) \+ (\d+) component cards", cover).groups()
    sheets, per = re.search(r"Sheets: (\d+) \(\d+ card pages\), \d+ × \d+ = (\d+) cards per sheet", cover).groups()
    page = " ".join(i.text for i in printing_items(flex, "en", paper))
    assert f"{cards} playing cards and {extras} component cards" in page
    assert f"{int(cards) + int(extras)} in all" in page and int(extras) == 10
    assert f"{per} a sheet on {parse_paper(paper).name}: {sheets} sheets" in page
    assert "160–220 g/m²" in page and "print the odd pages (the fronts)" in page


def test_cli_build_writes_a_cut_file_per_sheet(tmp_path):
    from click.testing import CliRunner

    from deckgen.cli import main

    res = CliRunner().invoke(main, ["build", "classic", "--only", "red-1x12", "--dpi", "30", "--no-rulebook",
                                    "--cut-file", "svg", "--corner-radius", "2mm", "-o", str(tmp_path)])
    assert res.exit_code == 0, res.output
    cuts = sorted((tmp_path / "classic").glob("*-cut-*.svg"))
    assert [c.name for c in cuts] == ["classic-cards-only-cut-01.svg", "classic-cards-only-cut-02.svg"]
    assert " A 2 2 0 0 0 " in cuts[0].read_text("utf-8") and "classic-cards-only-cut-01.svg" in res.output


def test_light_back_saves_ink(no_mercy, nm_faces):
    """--back-style light: the deck back drawn as an outline on white (mostly paper, some of the back's
    colour), the fronts untouched, and the same bytes every time."""
    from deckgen.render.faces import back_face
    from deckgen.selection import select

    deck = select(no_mercy, "red-1x3")
    full = cards_pdf_for_deck(deck, nm_faces, UNO, 3.0, LayoutOptions())
    light = cards_pdf_for_deck(deck, nm_faces, UNO, 3.0, LayoutOptions(back_style="light"))
    again = cards_pdf_for_deck(deck, nm_faces, UNO, 3.0, LayoutOptions(back_style="light"))
    assert light.data == again.data and light.pages == full.pages
    reader = pypdf.PdfReader(io.BytesIO(light.data))
    back_page = reader.pages[3]
    (ref,) = back_page["/Resources"]["/XObject"].values()
    im = ref.get_object().decode_as_image().convert("RGB")
    px = [im.getpixel((x, y)) for y in range(0, im.height, 2) for x in range(0, im.width, 2)]
    white = sum(1 for p in px if min(p) > 245) / len(px)
    ink = back_face(deck).ink
    inked = sum(1 for p in px if max(abs(a - b) for a, b in zip(p, ink)) < 40) / len(px)
    assert white > 0.85 and inked > 0.01, (white, inked)
    front = pypdf.PdfReader(io.BytesIO(full.data)).pages[2]["/Resources"]["/XObject"]
    assert set(front) == set(reader.pages[2]["/Resources"]["/XObject"])        # the fronts are the same images
