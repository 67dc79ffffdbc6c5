"""The rulebook PDF of every bundled game, read back with pypdf (not ReportLab)."""

import functools
import io
import re

import pypdf
import pytest

from deckgen import manifest
from deckgen.rulebook import build_rulebook, write_rulebook

GAMES = ["classic", "no-mercy", "flex-spectrum"]
LANGS = ["es", "en"]
ENTRY = {"es": "Puntos", "en": "Points"}


@functools.lru_cache(maxsize=16)        # the same rulebook is read by several tests: its text extracted once
def _text(data: bytes) -> tuple[pypdf.PdfReader, str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return reader, re.sub(r"[ \t\u00a0]+", " ", text)


@functools.cache
def _book(game, lang):
    deck = manifest.load_deck(game)
    return deck, build_rulebook(deck, lang, image_dpi=40)


@pytest.fixture(scope="module")
def books():
    class Books:
        def __getitem__(self, key):
            return _book(*key)
    return Books()


def _kind_of_entry(deck, name, lang):
    """The kind a card entry's title belongs to: the longest kind name in its regular side."""
    regular = name.split(" / ")[0].lower()
    found = [k for k, v in deck.kinds.items() if v.names.get(lang).lower() in regular]
    found = found or [c.kind for c in deck.cards if c.name(lang).lower() == regular]   # one card: its own name
    return max(found, key=lambda k: len(deck.kinds[k].names.get(lang)))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_pdf_names_every_kind_and_counts_match_the_manifest(books, game, lang):
    deck, data = books[game, lang]
    reader, text = _text(data)
    assert len(reader.pages) >= 5
    for kind in deck.kinds.values():
        assert kind.names.get(lang) in text, kind.id
    # every card entry: "<name> × <copies> · Points: <n>"; per kind they add up to the manifest's count
    # a long entry title wraps: its "× N · Points" then starts the next line
    joined = re.sub(r"\n(× \d+ · )", r" \1", text)
    entries = re.findall(r"^(.+?) × (\d+) · " + ENTRY[lang] + ":", joined, flags=re.M)
    assert entries
    seen: dict[str, int] = {}
    for name, n in entries:
        kind = _kind_of_entry(deck, name.strip(), lang)
        seen[kind] = seen.get(kind, 0) + int(n)
    expected = {}
    for card in deck.cards:
        expected[card.kind] = expected.get(card.kind, 0) + card.count
    assert seen == expected
    total = re.search(r"^ ?Total\s*\n?\s*(\d+)\s*$", text, flags=re.M)
    assert total and int(total.group(1)) == deck.total
    assert f"{deck.scoring.target}" in text


@pytest.mark.parametrize("game", GAMES)
def test_pdf_has_contents_outline_page_numbers_and_embedded_fonts(books, game):
    deck, data = books[game, "es"]
    reader, text = _text(data)
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    for heading in ("Componentes", "Preparación", "Las cartas", "Puntuación y victoria", "Glosario"):
        assert heading in titles
    assert "Índice" in reader.pages[1].extract_text()
    last = reader.pages[-1].extract_text()
    assert re.search(rf"\b{len(reader.pages)}\b", last)
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            desc = font.get_object().get("/FontDescriptor") or \
                font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert "/FontFile2" in desc.get_object(), font.get_object()["/BaseFont"]
            fonts.add(font.get_object()["/BaseFont"])
    assert fonts
    assert "¿" in text or "ñ" in text or "ó" in text
    # images: the components table shows each group's card
    assert sum(len(p.images) for p in reader.pages) >= len({c.kind for c in deck.cards})


def test_rulebook_is_deterministic_and_written_atomically(tmp_path, monkeypatch):
    monkeypatch.setattr("deckgen.rulebook.images.DPI", 40)
    deck, a = _book("classic", "en")              # the other tests' rulebook, built earlier in this process
    b = build_rulebook(manifest.load_deck("classic"), "en", image_dpi=40)
    assert a == b
    out = write_rulebook(deck, "en", tmp_path / "sub" / "rules.pdf")
    assert out.read_bytes()[:5] == b"%PDF-"
    assert [p.name for p in out.parent.iterdir()] == ["rules.pdf"]


def test_letter_paper(books):
    deck = manifest.load_deck("classic")
    reader = pypdf.PdfReader(io.BytesIO(build_rulebook(deck, "en", paper="letter", image_dpi=40)))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_build_step_writes_one_rulebook_per_language(tmp_path, monkeypatch):
    monkeypatch.setattr("deckgen.rulebook.images.DPI", 40)
    from deckgen.rulebook.step import write_rulebooks

    deck = manifest.load_deck("no-mercy")
    outputs, notes = write_rulebooks(deck, tmp_path, use_cache=False)
    assert sorted(o.path.name for o in outputs) == ["no-mercy-rulebook-en.pdf", "no-mercy-rulebook-es.pdf"]
    assert notes == []
    for o in outputs:
        assert o.pages == len(pypdf.PdfReader(o.path).pages)


# ---------------------------------------------------------------- the rulebook as a printed object

@functools.cache
def _booklet(game, lang):
    deck = manifest.load_deck(game)
    return deck, build_rulebook(deck, lang, image_dpi=40, booklet=True)


@functools.lru_cache(maxsize=4)       # a booklet's halves are read by several tests: extracted once
def _half_lines(data: bytes) -> list[tuple[int, str, list[dict]]]:
    """Each booklet page as (side index, 'left'/'right', its text lines as pdfplumber gives them)."""
    import pdfplumber

    out = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for i, page in enumerate(pdf.pages):
            w, h = page.width, page.height
            for name, box in (("left", (0, 0, w / 2, h)), ("right", (w / 2, 0, w, h))):
                out.append((i, name, page.crop(box).extract_text_lines()))
    return out


def _halves(data: bytes) -> list[tuple[int, str, list[str]]]:
    """Each booklet page as (side index, 'left'/'right', its text lines), read with pdfplumber."""
    return [(i, name, [ln["text"] for ln in lines]) for i, name, lines in _half_lines(data)]


def _footer_number(lines: list[str]) -> int | None:
    if not lines:
        return None
    m = re.search(r"Rulebook (\d+)$|Reglamento (\d+)$", lines[-1])
    return int(m.group(1) or m.group(2)) if m else None


@pytest.mark.parametrize("game,lang", [("classic", "en"), pytest.param("flex-spectrum", "es", marks=pytest.mark.slow)])
def test_booklet_pages_are_imposed_for_saddle_stitching(game, lang):
    deck, data = _booklet(game, lang)
    reader = pypdf.PdfReader(io.BytesIO(data))
    for page in reader.pages:          # landscape A4 sheets, two A5 pages side by side
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (842, 595)
    halves = _halves(data)
    numbers = {(i, side): _footer_number(lines) for i, side, lines in halves}
    printed = [n for n in numbers.values() if n]
    last = max(printed)
    total = 2 * len(reader.pages)                 # pages in the booklet, blanks included
    assert total % 4 == 0 and last <= total < last + 4
    # sheet k: front = (total - 2k, 2k + 1), back = (2k + 2, total - 2k - 1), worked out here
    for k in range(total // 4):
        front, back = 2 * k, 2 * k + 1
        want = {(front, "left"): total - 2 * k, (front, "right"): 2 * k + 1,
                (back, "left"): 2 * k + 2, (back, "right"): total - 2 * k - 1}
        for where, page_no in want.items():
            got = numbers[where]
            if page_no == 1:             # the cover has no footer: it carries the title
                text = " ".join(dict(((i, s), ln) for i, s, ln in halves)[where])
                assert deck.name(lang) in text and got is None
            elif page_no > last:         # padding: a blank page
                assert dict(((i, s), ln) for i, s, ln in halves)[where] == []
            else:
                assert got == page_no, (where, got, page_no)
    assert sorted(printed) == list(range(2, last + 1))


def test_booklet_is_deterministic_and_half_size_pages_fit_their_half():
    import pdfplumber

    deck, data = _booklet("classic", "en")
    assert build_rulebook(deck, "en", image_dpi=40, booklet=True) == data
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            w = page.width
            for c in page.chars:            # nothing crosses the fold, and 10 mm stays clear of it
                assert c["x1"] <= w / 2 - 28 or c["x0"] >= w / 2 + 28, c["text"]


def _body_lines(lines_of_pages, size: float) -> list[int]:
    return [len(ln["text"]) for lines in lines_of_pages for ln in lines
            if ln["chars"] and all(abs(c["size"] - size) < 0.01 for c in ln["chars"])]


@pytest.mark.parametrize("game", GAMES)
def test_text_lines_hold_about_75_characters(books, game):
    import pdfplumber

    _, data = books[game, "en"]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        lengths = _body_lines([p.extract_text_lines() for p in pdf.pages], 10.5)
    assert len(lengths) > 40
    full = sorted(lengths)[len(lengths) // 2:]           # the longer half: lines that end at the measure
    assert 62 <= full[len(full) // 2] <= 80 and max(lengths) <= 82
    _, booklet = _booklet("classic", "en") if game == "classic" else (None, None)
    if booklet:
        lengths = _body_lines([lines for _, _, lines in _half_lines(booklet)], 9.45)
        full = sorted(lengths)[len(lengths) // 2:]
        assert 62 <= full[len(full) // 2] <= 80 and max(lengths) <= 82


def _norm(text: str) -> str:
    from deckgen.rulebook.markup import plain

    return re.sub(r"\s+", "", plain(text))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_no_list_item_is_split_across_pages_and_setup_stays_whole(books, game, lang):
    from deckgen.rulebook.markup import parse
    from deckgen.rulebook.text import checked_text

    deck, data = books[game, lang]
    reader = pypdf.PdfReader(io.BytesIO(data))
    pages = [_norm(p.extract_text()) for p in reader.pages]
    items = parse(checked_text(deck, lang)[0])
    lists, run = [], []
    for item in items:
        if item.kind in ("bullet", "num"):
            run.append(item)
        elif run:
            lists.append(run)
            run = []
    assert lists
    for run in lists:
        where = []
        for item in run:
            text = _norm(item.text)
            found = [i for i, p in enumerate(pages) if text in p]
            assert found, f"list item split across pages: {item.text[:70]}"
            where.append(found)
        if all(i.kind == "num" for i in run):        # a numbered list (the setup) is on one page
            assert set.intersection(*(set(w) for w in where)), run[0].text[:60]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_players_never_see_file_keys(books, game, lang):
    _, data = books[game, lang]
    _, text = _text(data)
    assert not re.search(r"\b[a-z_]+\.[a-z_]+\.[a-z_]+\b", text)      # scoring.points.wild
    assert not re.search(r"\[[a-z_]+\.[a-z_]+\]", text)                # [rules.options]
    for phrase in ("deck file", "archivo del mazo", ".toml", "manifest"):
        assert phrase not in text


def test_colour_table_draws_the_shape_marks(books):
    import pdfplumber

    from deckgen.words import SYMBOL_NAMES as SYMBOLS

    deck, data = books["flex-spectrum", "es"]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = next(p for p in pdf.pages if "Marca para" in (p.extract_text() or ""))
        text = page.extract_text()
        marks = [im for im in page.images if abs(im["width"] - 5.5 * 72 / 25.4) < 0.5
                 and abs(im["height"] - im["width"]) < 0.01]
    assert len(marks) == len(deck.palette.colors) == 10
    # one per row, in the colour table's mark column, top to bottom in palette order
    assert len({round(m["x0"]) for m in marks}) == 1
    assert [m["top"] for m in marks] == sorted(m["top"] for m in marks)
    for color in deck.palette.colors:
        assert SYMBOLS["es"][color.symbol] not in text.split()      # drawn, not named
    classic, cdata = books["classic", "en"]
    assert "Colour-blind mark" not in _text(cdata)[1]               # 4 colours: no marks on the cards


@pytest.mark.parametrize("lang", LANGS)
def test_last_page_says_what_to_print_on_cardstock_and_how_to_cut(books, lang):
    deck, data = books["no-mercy", lang]
    reader = pypdf.PdfReader(io.BytesIO(data))
    last = re.sub(r"\s+", " ", reader.pages[-1].extract_text())
    assert "no-mercy-cards.pdf" in last and "250–300 g/m²" in last and "80–100 g/m²" in last
    # which pages: the cards PDF opens with two instruction pages (test_build counts them: 2 + 2 x sheets),
    # so the first page for cardstock is page 3
    assert {"en": "odd pages from page 3 on", "es": "páginas impares desde la 3"}[lang] in last
    heading = {"en": "Cutting order", "es": "Orden de corte"}[lang]
    assert heading in last
    steps = re.findall(r"(?:^|\s)([1-4])\. ", last.split(heading, 1)[1])
    assert steps[:3] == ["1", "2", "3"]           # the sheet's cutting order (test_layout_cutting), then the corners
    assert {"en": "First make the", "es": "Primero haz los"}[lang] in last
    assert f"{deck.total} " in last
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert {"en": "Printing and making the game", "es": "Imprimir y montar el juego"}[lang] in titles
    _, booklet = _booklet("flex-spectrum", "es")
    assert "borde corto" in re.sub(r"\s+", " ", _text(booklet)[1])


def test_booklet_keeps_list_items_on_one_page():
    from deckgen.rulebook.markup import parse
    from deckgen.rulebook.text import checked_text

    deck, data = _booklet("classic", "en")
    pages = [_norm(" ".join(lines)) for _, _, lines in _halves(data)]
    for item in parse(checked_text(deck, "en")[0]):
        if item.kind in ("bullet", "num"):
            assert any(_norm(item.text) in p for p in pages), item.text[:70]


def test_build_step_writes_booklets_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr("deckgen.rulebook.images.DPI", 40)
    from deckgen.rulebook.step import write_rulebooks

    deck = manifest.load_deck("classic")
    outputs, _ = write_rulebooks(deck, tmp_path, booklet=True, use_cache=False)
    names = sorted(o.path.name for o in outputs)
    assert names == ["classic-rulebook-en-booklet.pdf", "classic-rulebook-en.pdf",
                     "classic-rulebook-es-booklet.pdf", "classic-rulebook-es.pdf"]
    sheet = pypdf.PdfReader(tmp_path / "classic-rulebook-en-booklet.pdf").pages[0]
    assert float(sheet.mediabox.width) > float(sheet.mediabox.height)


@pytest.mark.parametrize("booklet", [False, True])
def test_kept_line_breaks_give_the_same_pdf_as_breaking_lines_every_time(monkeypatch, booklet):
    """The rulebook's paragraphs keep their line breaks between layout passes (blocks.Paragraph):
    the bytes must be those of ReportLab breaking every line again, and each page count right."""
    from reportlab.platypus import Paragraph as Plain

    from deckgen.rulebook import blocks

    deck, kept = (_booklet if booklet else _book)("flex-spectrum", "es")      # the other tests' rulebook
    monkeypatch.setattr(blocks.Paragraph, "wrap", Plain.wrap)
    again = build_rulebook(deck, "es", image_dpi=40, booklet=booklet)
    assert kept == again
    assert kept.pages == len(pypdf.PdfReader(io.BytesIO(kept)).pages)       # counted as typeset
