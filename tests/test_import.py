"""deckgen import: a Squib data sheet and a nanDECK linked CSV of a UNO-style deck become a deck that checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen import manifest
from deckgen.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def _import(tmp_path: Path, *args: str):
    result = CliRunner().invoke(main, ["import", *args, "-o", str(tmp_path / "deck"), "--json"])
    return result


def test_a_squib_csv_imports_to_a_deck_that_checks(tmp_path):
    result = _import(tmp_path, str(EXAMPLES / "squib" / "data.csv"))
    assert result.exit_code == 0, result.output
    deck = manifest.load_deck(tmp_path / "deck" / "deck.toml")
    assert deck.total == 108 and deck.count_by_kind() == {"number": 76, "skip": 8, "reverse": 8, "draw-two": 8,
                                                          "wild": 4, "wild-draw-four": 4}
    assert '"qty": "count"' in result.output and '"flavor"' in result.output     # mapped, and left


def test_a_squib_xlsx_with_its_qty_column_imports_the_same(tmp_path):
    import csv

    from openpyxl import Workbook

    wb = Workbook()
    with open(EXAMPLES / "squib" / "data.csv", newline="") as fh:
        for row in csv.reader(fh):
            wb.active.append([int(c) if c.isdigit() else c for c in row])
    wb.save(tmp_path / "data.xlsx")
    result = _import(tmp_path, str(tmp_path / "data.xlsx"))
    assert result.exit_code == 0, result.output
    assert manifest.load_deck(tmp_path / "deck" / "deck.toml").total == 108


def test_a_nandeck_script_names_its_linked_csv_and_copies_column(tmp_path):
    result = CliRunner().invoke(main, ["import", str(EXAMPLES / "nandeck" / "uno.nde"), "-o", str(tmp_path / "uno"),
                                       "--lang", "es"])
    assert result.exit_code == 0, result.output
    assert "Copias -> count" in result.output and "left: Imagen" in result.output
    deck = manifest.load_deck(tmp_path / "uno" / "uno.toml")
    assert deck.total == 108 and deck.language == "es" and deck.palette.id == "classic"
    check = CliRunner().invoke(main, ["check", str(tmp_path / "uno" / "uno.toml"), "--games", "20"])
    assert check.exit_code == 0, check.output


def test_map_and_unknown_kinds_are_reported(tmp_path):
    data = tmp_path / "data.csv"
    data.write_text("Colour,Rank,Copies,Rule\npurple,7,2,Play it\nteal,Swap,1,\nteal,3,1,\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(data), "--from", "nandeck", "--count", "Copies",
                                       "--map", "Rank=value", "--map", "Rule=text", "-o", str(tmp_path / "x")])
    assert result.exit_code == 1, result.output          # 3 cards: the whole check says they cannot be dealt
    assert "row 3: 'Swap' is not a standard card kind" in result.output
    assert "check: not ready to print: 1 error (too-few-cards)" in result.output
    deck = manifest.load_deck(tmp_path / "x" / "x.toml")
    assert deck.palette.ids() == ("purple", "teal") and deck.card("purple-7").text.get("en") == "Play it"
    bad = CliRunner().invoke(main, ["import", str(data), "--map", "Nope=value", "-o", str(tmp_path / "y")])
    assert bad.exit_code == 2 and "no column 'Nope'" in bad.output


@pytest.mark.parametrize("name", ["squib/deck.rb", "nandeck/uno.nde"])
def test_the_worked_examples_are_in_the_docs(name):
    doc = (EXAMPLES.parent / "import.md").read_text("utf-8")
    assert f"docs/examples/{name}" in doc


def test_the_import_s_verdict_is_deckgen_check_s(tmp_path):
    """The import runs the whole check (it printed "passes" for a deck that check stopped): a
    name that says the kind makes the card (Salta, Comodín), players.max is what the cards can
    deal, the challenge rule is off without a Wild Draw Four, and the verdict is check's."""
    data = tmp_path / "cartas.csv"
    rows = ["nombre,color,valor,cantidad"] + [f"{n},{c},{v},2" for c in ("rojo", "azul") for n, v in
                                              (("Uno", 1), ("Dos", 2), ("Tres", 3), ("Cuatro", 4), ("Cinco", 5))]
    rows += ["Salta,rojo,,2", "Salta,azul,,2", "Comodín,,,4", "Misterio,azul,,1"]
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(data), "--lang", "es", "-o", str(tmp_path / "m")])
    assert "row 15: the row has no kind or value, and its name 'Misterio' is not a standard card kind" in result.output
    path = tmp_path / "m" / "m.toml"
    deck = manifest.load_deck(path)
    assert deck.total == 28 and deck.players_max == 3         # 3 x 7 + 2 = 23 <= 28 < 4 x 7 + 2
    assert sorted(deck.kinds) == ["number", "skip", "wild"] and deck.rule_options.challenge is False
    check = CliRunner().invoke(main, ["check", str(path)])
    verdict = next(line for line in check.output.splitlines() if line.startswith("verdict: "))[len("verdict: "):]
    assert f"check: {verdict} (deckgen check {path})" in result.output
    assert result.exit_code == check.exit_code == 0, result.output


def test_the_decks_language_is_the_one_its_data_is_written_in_unless_lang_says(tmp_path):
    # a Spanish sheet (rojo, Salta, Comodín) made an English deck unless --lang es was given
    spanish = tmp_path / "datos.csv"
    spanish.write_bytes("Color;Valor;Copias\r\nrojo;0;1\r\nrojo;5;20\r\nazul;Salta;20\r\nnegro;Comodín;4\r\n"
                        "negro;Comodín +4;4\r\n".encode("cp1252"))           # as Excel in Spanish saves a CSV
    said = CliRunner().invoke(main, ["import", str(spanish), "-o", str(tmp_path / "es")])
    assert "language: es, as the data's colours and kinds are written (--lang en for an English deck)" in said.output
    assert manifest.load_deck(tmp_path / "es" / "es.toml").language == "es"
    english = CliRunner().invoke(main, ["import", str(spanish), "--lang", "en", "-o", str(tmp_path / "en"), "--json"])
    assert '"language": "en"' in english.output and manifest.load_deck(tmp_path / "en" / "en.toml").language == "en"
    squib = _import(tmp_path / "squib", str(EXAMPLES / "squib" / "data.csv"))      # red, Skip: English
    assert '"language": "en"' in squib.output and "language: es" not in squib.output
    CliRunner().invoke(main, ["import", str(EXAMPLES / "nandeck" / "uno.nde"), "-o", str(tmp_path / "uno")])
    assert manifest.load_deck(tmp_path / "uno" / "uno.toml").language == "es"
