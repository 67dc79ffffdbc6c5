"""``deckgen new --lang es`` writes every word in Spanish (deckgen/scaffold.py)."""

import re

import pytest

from deckgen.check import check
from deckgen.scaffold import manifest_text, new_deck
from deckgen.stages import CheckOptions

ENGLISH = re.compile(r"\b(the|and|every|cards?|colours?|players?|shedding|match|first|homemade|instead|"
                     r"words|instead|to try)\b", re.I)
CODE = re.compile(r"`[^`]*`|\"[^\"]*\"|\S+\.(md|toml)\b|\S+/\S*|\b[a-z_]+ ?[=:]|\{[^}]*\}")


def test_the_spanish_deck_has_no_english_comment_or_printed_word():
    text = manifest_text("juego", "es")
    for line in text.splitlines():
        comment = line.split("#", 1)[1] if "#" in line else ""
        # comments are Spanish; quoted English appears only as the en entry of a two-language text
        assert not ENGLISH.search(CODE.sub("", comment)), line
    assert ENGLISH.search(CODE.sub("", manifest_text("game", "en")))      # the test can fail
    assert 'description = { es = "Un juego casero: iguala' in text
    assert '# label = { es = "CAMBIO", en = "SWAP" }' in text
    assert 'name = "Colores de Juego"' in text


def test_the_label_example_switched_on_is_true_to_the_effects(tmp_path):
    for lang in ("en", "es"):
        path = tmp_path / f"{lang}.toml"
        path.write_text(manifest_text("juego", lang).replace("# label = ", "label = "), encoding="utf-8")
        rep = check(path, CheckOptions(simulate=False))
        assert rep.findings == [], [f.format() for f in rep.findings]


def test_the_spanish_deck_checks_clean_and_prints_spanish(tmp_path):
    path = new_deck("juego", tmp_path, lang="es")
    rep = check(path, CheckOptions(simulate=False))
    assert rep.findings == [], [f.format() for f in rep.findings]
    deck = rep.deck
    assert deck.description.get("es").startswith("Un juego casero")
    assert deck.kinds["wild-swap"].names.get("es") == "Comodín intercambio"
    assert deck.palette.colors[0].names.get("es") == "rojo"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_both_starting_decks_have_the_same_keys(lang):
    keys = [re.match(r"^(\[\[?[a-z.\-]+\]?\]|[a-z_\-]+) ?=?", line).group(1)
            for line in manifest_text("x", lang).splitlines() if re.match(r"^(\[|[a-z_\-]+ =)", line)]
    other = [re.match(r"^(\[\[?[a-z.\-]+\]?\]|[a-z_\-]+) ?=?", line).group(1)
             for line in manifest_text("x", "en").splitlines() if re.match(r"^(\[|[a-z_\-]+ =)", line)]
    assert keys == other
