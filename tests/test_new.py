"""``deckgen new``: a starting deck that checks clean, teaches its keys in comments, never overwrites."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from deckgen.check import check
from deckgen.cli import main
from deckgen.manifest import load_deck
from deckgen.scaffold import manifest_text, new_deck
from deckgen.stages import CheckOptions


def test_new_writes_name_slash_name_toml_that_checks_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["new", "my-game"])
    assert result.exit_code == 0, result.output
    path = tmp_path / "my-game" / "my-game.toml"
    assert "wrote my-game/my-game.toml" in result.output
    report = check(path, CheckOptions(simulate=False))
    assert report.findings == [], [f.format() for f in report.findings]
    deck = report.deck
    assert deck.id == "my-game" and deck.name() == "My Game" and deck.language == "en"
    assert deck.palette.source is None or deck.palette.source == str(path)       # the palette is inline
    assert "wild-swap" in deck.kinds and deck.kinds["wild-swap"].effects[0].op == "swap_hands"


@pytest.mark.slow
def test_the_new_deck_passes_the_whole_check_with_simulated_games(tmp_path):
    path = new_deck("family-night", tmp_path)
    report = check(path)
    assert report.errors == [] and report.warnings == [], [f.format() for f in report.findings]
    assert report.sections["simulation"]


def test_spanish_deck(tmp_path):
    deck = load_deck(new_deck("juego", tmp_path, lang="es"))
    assert deck.language == "es" and deck.card("wild-swap").name("es") == "Comodín intercambio"


def test_every_key_is_explained_by_a_comment():
    text = manifest_text("my-game")
    lines = text.splitlines()
    repeated = ("kind =", "count =", "colors =", "values =", "value =", "effects =", "category =", "id =", "hex =",
                "name =", "symbol =")                # explained at their first use
    table = ""
    for before, line in zip(["", *lines], lines):
        if line.startswith("["):
            table = line.split("]")[0]
        if table == "[scoring.points" and not line.startswith("number"):
            continue                                   # the other keys are kind ids, not manifest keys
        if re.match(r"^[a-z_]+ = ", line) and not line.startswith(repeated):
            assert "#" in line or before.startswith("#"), f"no comment on {line!r}"
    for table in ("[deck]", "[palette]", "[rules]", "[scoring]", "[kinds.", "[[cards]]"):
        start = text.index(table)
        assert "#" in text[max(0, start - 400):start + 400], table


def test_the_commented_out_examples_are_valid_when_switched_on(tmp_path):
    text = manifest_text("my-game").replace("# points = 40", "points = 40").replace('# name = "Trade!"', 'name = "Trade!"')
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    report = check(path, CheckOptions(simulate=False))
    assert report.findings == []
    assert report.deck.card("wild-swap").name("en") == "Trade!"


def test_new_never_overwrites_and_rejects_a_bad_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["new", "mine"]).exit_code == 0
    (tmp_path / "mine" / "mine.toml").write_text("# my edits", encoding="utf-8")
    again = runner.invoke(main, ["new", "mine"])
    assert again.exit_code == 2 and "never overwrites" in again.output
    assert (tmp_path / "mine" / "mine.toml").read_text(encoding="utf-8") == "# my edits"
    bad = runner.invoke(main, ["new", "My Game!"])
    assert bad.exit_code == 2 and "deckgen new my-game" in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize("n", [0, 1, 2])
def test_the_effect_examples_in_the_comments_are_valid(tmp_path, n):
    text = manifest_text("my-game")
    examples = re.findall(r"^# (effects = .*?)\s{2,}#", text, re.M)
    assert len(examples) == 3
    path = tmp_path / "deck.toml"
    text = text.replace('effects = ["swap_hands", "choose_color"]', examples[n])
    text = re.sub(r'name = \{ en = "Wild Swap", es = "[^"]*" \}', 'name = { en = "Wild Trick", es = "Comodín truco" }', text)
    path.write_text(text, encoding="utf-8")         # named after what it does no more: a name of no claim
    report = check(path, CheckOptions(simulate=False))
    assert report.errors == [], [f.format() for f in report.errors]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_colour_shapes_the_starter_names_are_printed_once_its_symbols_line_is_switched_on(tmp_path, lang):
    # the palette's `symbol` comment says the shape is printed "with symbols = true": a 4-colour
    # deck prints none by default, and the commented-out line under [deck] switches them on
    text = manifest_text("my-game", lang)
    assert text.count("# symbols = true") == 1 and "symbols = true)" in text
    assert load_deck(_written(tmp_path / "off.toml", text)).shape_cues is False
    on = load_deck(_written(tmp_path / "on.toml", text.replace("# symbols = true", "symbols = true")))
    assert on.shape_cues is True
    assert check(tmp_path / "on.toml", CheckOptions(simulate=False)).findings == []


def _written(path, text):
    path.write_text(text, encoding="utf-8")
    return path
