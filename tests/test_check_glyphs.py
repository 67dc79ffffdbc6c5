"""Every character printable (deckgen/glyphs.py, docs/checks.md "Printable text")."""

import pytest
from PIL import ImageFont
from test_check_claims import HEAD

from deckgen.check import check
from deckgen.fonts import font_set
from deckgen.glyphs import font_chars
from deckgen.stages import CheckOptions


@pytest.mark.parametrize("role", ["display", "text", "body", "bold"])
def test_the_cmap_reader_agrees_with_the_font_drawing_its_glyphs(role):
    path = font_set(None).path(role)
    chars = font_chars(path)
    font = ImageFont.truetype(str(path), 40)
    notdef = font.getmask("\U0010FFFD").getbbox()
    for ch in "AZaz09+áñÑ¿¡ü€·×":
        assert ord(ch) in chars, (path.name, ch)
    for ch in "\U0001F680\U0001F573":
        assert ord(ch) not in chars
        assert font.getmask(ch).getbbox() == notdef      # Pillow draws the empty box for it


def test_an_emoji_in_a_kind_name_is_an_error_naming_character_font_and_card(write_manifest):
    text = HEAD.replace('name = { en = "Grab", es = "Agarra" }', 'name = { en = "Black Hole 🕳️🚀", es = "Agujero 🕳️🚀" }')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    found = [f for f in rep.errors if f.code == "missing-glyph"]
    assert {f.where for f in found} == {"cards[1]", "kinds.grab.name"}
    face = next(f for f in found if f.where == "cards[1]")
    assert "'🚀' (U+1F680 ROCKET)" in face.message and "U+1F573 HOLE" in face.message
    assert "LeagueSpartan" in face.message and "face 'red-grab'" in face.message
    assert "FE0F" not in face.message                   # the variation selector draws nothing
    assert "icon" in face.hint
    book = next(f for f in found if f.where == "kinds.grab.name")
    assert "Vera.ttf (body)" in book.message and "rulebook" in book.message


def test_a_letter_no_font_has_is_named_without_the_emoji_hint(write_manifest):
    text = HEAD.replace('name = { en = "Grab", es = "Agarra" }', 'name = { en = "Grab ꙮ", es = "Agarra" }')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    (f,) = [f for f in rep.errors if f.code == "missing-glyph" and f.where == "cards[1]"]
    assert "U+A66E CYRILLIC LETTER MULTIOCULAR O" in f.message and "deck.fonts" in f.hint


@pytest.mark.parametrize("deck", ["classic", "no-mercy", "flex-spectrum", "woodland"])
def test_bundled_and_example_decks_print_every_character(deck):
    rep = check(deck, CheckOptions(simulate=False))
    assert not [f for f in rep.findings if f.code == "missing-glyph"]


def test_a_word_wider_than_its_rulebook_column_is_a_warning_and_is_broken_in_the_pdf(write_manifest, tmp_path):
    import pypdf

    from deckgen.rulebook import write_rulebook

    word = "Superextraordinariamentegrandísimo"
    path = write_manifest(HEAD.replace('name = { en = "Grab", es = "Agarra" }', f'name = {{ en = "Grab", es = "{word}" }}'))
    rep = check(path, CheckOptions(simulate=False))
    (f,) = [f for f in rep.warnings if f.code == "rulebook-text-fit"]
    assert f.where == "kinds.grab.name" and f"'{word}' (es)" in f.message and "card table column" in f.message
    out = write_rulebook(rep.deck, "es", tmp_path / "book.pdf")
    lines = "\n".join(p.extract_text() for p in pypdf.PdfReader(out).pages).splitlines()
    assert any(line.strip() and word.startswith(line.strip()) and line.strip() != word for line in lines)


# ---------------------------------------------------------------- scripts deckgen cannot set

@pytest.mark.parametrize("word, script, how", [
    ("سلام", "Arabic", "backwards"),            # right to left, letters joined
    ("שלום", "Hebrew", "backwards"),            # right to left
    ("नमस्ते", "Devanagari", "with its letters apart"),   # shaped: conjuncts, a vowel sign drawn before its letter
])
def test_text_in_a_script_set_right_to_left_or_shaped_is_an_error_where_it_is_printed(write_manifest, word, script, how):
    # The rulebook's ReportLab sets text left to right, letter by letter (seen: 'سلام' printed as
    # the letters of 'مالس', unjoined); the faces come out right only where Pillow has raqm.
    text = HEAD.replace('name = { en = "Grab", es = "Agarra" }', f'name = {{ en = "Grab", es = "{word}" }}')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    found = {f.where: f for f in rep.errors if f.code == "unset-script"}
    assert set(found) == {"cards[1]", "kinds.grab.name"}
    book, face = found["kinds.grab.name"], found["cards[1]"]
    assert f"'{word}' is {script} text" in book.message and f"in the rulebook it prints {how}" in book.message
    assert "card faces" not in book.message                 # the rulebook key: its own use only
    assert f"on the card faces it prints {how} wherever Pillow lacks its raqm" in face.message
    assert "Latin" in book.hint and "icon" in book.hint


@pytest.mark.parametrize("word", ["Agarra ¡ya! ñandú, pingüino", "Αρπαγή", "Хватай", "Grab ǅ ﬁ", "Zoë’s «Grab»"])
def test_latin_greek_and_cyrillic_text_is_set_as_written(write_manifest, word):
    text = HEAD.replace('name = { en = "Grab", es = "Agarra" }', f'name = {{ en = "Grab", es = "{word}" }}')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    assert not [f for f in rep.findings if f.code == "unset-script"]


@pytest.mark.parametrize("deck", ["classic", "no-mercy", "flex-spectrum", "woodland"])
def test_bundled_and_example_decks_are_in_scripts_deckgen_sets(deck):
    rep = check(deck, CheckOptions(simulate=False))
    assert not [f for f in rep.findings if f.code == "unset-script"]


def test_an_emoji_beside_a_letter_no_font_has_gets_both_hints(write_manifest):
    text = HEAD.replace('name = { en = "Grab", es = "Agarra" }', 'name = { en = "Grab 🚀 ꙮ", es = "Agarra" }')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    (f,) = [f for f in rep.errors if f.code == "missing-glyph" and f.where == "cards[1]"]
    assert "icon" in f.hint and "for the other characters, use a font that has them (deck.fonts)" in f.hint


def test_the_decks_description_on_the_rulebooks_cover_is_held_to_its_font_and_script(write_manifest):
    # seen: description = "Un juego casero 🎉 de שלום" printed empty boxes on the cover; check said 0 errors
    text = HEAD.replace('hand_size = 7\n', 'hand_size = 7\ndescription = "Un juego casero 🎉 de שלום"\n', 1)
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    glyph = [f for f in rep.errors if f.code == "missing-glyph" and f.where == "deck.description"]
    script = [f for f in rep.errors if f.code == "unset-script" and f.where == "deck.description"]
    assert len(glyph) == 1 and len(script) == 1
    assert "U+1F389 PARTY POPPER" in glyph[0].message and "rulebook" in glyph[0].message
    # a description is no card: the advice is to write it without, not to draw a kind's icon
    assert "write the text without it" in glyph[0].hint and "icon" not in glyph[0].hint
    assert "icon" not in script[0].hint and "in the rulebook it prints backwards" in script[0].message
    plain = HEAD.replace('hand_size = 7\n', 'hand_size = 7\ndescription = "Un juego casero, ¡rápido!"\n', 1)
    assert not check(write_manifest(plain), CheckOptions(simulate=False)).errors
