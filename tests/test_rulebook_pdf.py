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


def _text(data: bytes) -> tuple[pypdf.PdfReader, str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return reader, re.sub(r"[ \t]+", " ", text)


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
    entries = re.findall(r"^(.+?) × (\d+) · " + ENTRY[lang] + ":", text, flags=re.M)
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
    deck = manifest.load_deck("classic")
    a = build_rulebook(deck, "en", image_dpi=40)
    b = build_rulebook(deck, "en", image_dpi=40)
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
