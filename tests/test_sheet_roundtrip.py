"""deckgen export sheet: the three bundled decks as CSV, XLSX and ODS read back to the same deck,
with the same faces and card PDF bytes; and art by pattern."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen import manifest
from deckgen.cli import main
from deckgen.manifest.tosheet import manifest_with_sheet, write

DECKS = ["classic", "no-mercy", "flex-spectrum"]


def placeless(deck):
    return dataclasses.replace(deck, source=None, palette=dataclasses.replace(deck.palette, source=None),
                               cards=tuple(dataclasses.replace(c, where="") for c in deck.cards))


def from_sheet(ref: str, fmt: str, folder: Path) -> Path:
    """The bundled deck's manifest and palette copied to ``folder``, its cards in a sheet."""
    src = Path(manifest.find_deck(ref))
    deck = manifest.load_deck(src)
    (folder / f"cards.{fmt}").write_bytes(write(deck, fmt))
    path = folder / f"{ref}.toml"
    path.write_text(manifest_with_sheet(src.read_text("utf-8"), f"cards.{fmt}"), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["csv", "xlsx", "ods"])
@pytest.mark.parametrize("ref", DECKS)
def test_a_bundled_deck_reads_back_from_its_sheet(tmp_path, ref, fmt):
    path = from_sheet(ref, fmt, tmp_path)
    back = manifest.load(path)
    assert not back.errors, [f.format() for f in back.errors]
    assert placeless(back.deck) == placeless(manifest.load_deck(ref))
    assert write(back.deck, fmt) == write(manifest.load_deck(ref), fmt)          # the same bytes again


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_card_pdf_from_a_sheet_is_byte_identical(tmp_path, fmt):
    only = ["--only", "red-1,purple-5-flex,red-skip-flex-skip-all,wild-flex-everyone-draws-2"]
    args = ["--dpi", "40", "--no-rulebook", "-j", "1", *only]
    path = from_sheet("flex-spectrum", fmt, tmp_path)
    runner = CliRunner()
    a = runner.invoke(main, ["build", "flex-spectrum", "-o", str(tmp_path / "a"), *args])
    b = runner.invoke(main, ["build", str(path), "-o", str(tmp_path / "b"), *args])
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    pdf = Path("flex-spectrum") / "flex-spectrum-cards-only.pdf"
    assert (tmp_path / "a" / pdf).read_bytes() == (tmp_path / "b" / pdf).read_bytes()


def test_export_sheet_writes_the_sheet_and_a_manifest_that_reads_it(tmp_path):
    src = Path(manifest.find_deck("woodland"))
    folder = tmp_path / "w"
    import shutil

    shutil.copytree(src.parent, folder)
    result = CliRunner().invoke(main, ["export", "sheet", str(folder / "woodland.toml"), "--format", "xlsx",
                                       "-o", str(folder / "all.xlsx"), "--manifest", str(folder / "again.toml")])
    assert result.exit_code == 0, result.output
    again = manifest.load(folder / "again.toml")
    assert not again.errors and placeless(again.deck) == placeless(manifest.load_deck(folder / "woodland.toml"))


ART = '''[deck]
id = "shells"
name = "Shells"
language = "en"
players = { min = 2, max = 4 }
hand_size = 5
palette = "classic"
[rules]
preset = "classic"
options = { challenge = false }
[scoring]
target = 100
[scoring.points]
number = "face"
[kinds.number]
art = "art/shell-{value}.png"
[[cards]]
kind = "number"
colors = "all"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2
'''


def test_art_by_pattern_fills_each_card_and_names_missing_files(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    for v in range(9):                       # no shell-9.png
        Image.new("RGB", (60, 84), (20 * v, 80, 120)).save(tmp_path / "art" / f"shell-{v}.png")
    (tmp_path / "deck.toml").write_text(ART, encoding="utf-8")
    result = manifest.load(tmp_path / "deck.toml")
    missing = [f for f in result.errors if f.code == "art"]
    # one error for the missing file, naming the four cards that need it (not one error per card)
    assert len(missing) == 1 and "4 cards need the file art/shell-9.png" in missing[0].message
    assert all(f"'{c}-9'" in missing[0].message for c in ("red", "yellow", "green", "blue"))
    assert missing[0].where == "kinds.number.art" and missing[0].line == 16
    assert missing[0].hint == "add the picture, or give these cards their own art"
    listing = next(f for f in result.findings if f.code == "art-pattern")
    assert "expects 10 files, 9 found" in listing.message and "art/shell-9.png (missing)" in listing.message
    Image.new("RGB", (60, 84)).save(tmp_path / "art" / "shell-9.png")
    deck = manifest.load_deck(tmp_path / "deck.toml")
    assert deck.card("red-3").art == deck.card("blue-3").art != deck.card("red-4").art
    assert Path(deck.card("green-9").art.path).name == "shell-9.png"


def test_a_missing_pattern_file_with_a_picture_of_the_same_name_beside_it_says_so(tmp_path):
    """A pattern that names .png where the designer saved .jpg: the error points at the picture
    that is there and says what to do, once for the file."""
    from PIL import Image

    (tmp_path / "art").mkdir()
    for v in range(10):
        Image.new("RGB", (60, 84), (20 * v, 80, 120)).save(tmp_path / "art" / f"shell-{v}.png")
    (tmp_path / "art" / "shell-9.png").unlink()
    Image.new("RGB", (60, 84)).save(tmp_path / "art" / "shell-9.jpg")
    (tmp_path / "deck.toml").write_text(ART, encoding="utf-8")
    [missing] = [f for f in manifest.load(tmp_path / "deck.toml").errors if f.code == "art"]
    assert missing.hint == ("art/shell-9.jpg is there, but the pattern names .png: save the picture as "
                            'art/shell-9.png, or give these cards their own art = "art/shell-9.jpg"')


def test_a_pattern_with_an_unknown_placeholder_or_a_field_a_card_lacks(tmp_path):
    text = ART.replace("shell-{value}", "shell-{valeu}")
    (tmp_path / "deck.toml").write_text(text, encoding="utf-8")
    error = next(f for f in manifest.load(tmp_path / "deck.toml").errors if f.code == "art")
    assert "{valeu}" in error.message and "did you mean 'value'" in error.hint
    text = ART + '[[cards]]\nkind = "wild"\ncount = 4\nart = "art/{color}.png"\n'
    text = text.replace("[scoring.points]\n", "[scoring.points]\nwild = 50\n")
    (tmp_path / "deck.toml").write_text(text, encoding="utf-8")
    errors = [f.message for f in manifest.load(tmp_path / "deck.toml").errors if f.code == "art"]
    assert any("card 'wild' has no color" in m for m in errors)


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_a_sheet_written_at_another_time_has_the_same_bytes(monkeypatch, fmt):
    """openpyxl stamps the time of saving into the workbook's properties and every zip entry:
    deckgen writes fixed times in their place, so the clock never shows in the file."""
    import datetime
    import io
    import zipfile

    import openpyxl.writer.excel as excel

    deck = manifest.load_deck("classic")
    first = write(deck, fmt)

    class Later(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.datetime(2031, 7, 9, 13, 37, 11, tzinfo=tz)

    monkeypatch.setattr(excel.datetime, "datetime", Later)
    monkeypatch.setattr(zipfile.time, "time", lambda: 1_940_000_000.0)
    assert write(deck, fmt) == first
    if fmt == "xlsx":
        core = zipfile.ZipFile(io.BytesIO(first)).read("docProps/core.xml")
        assert b"2000-01-01T00:00:00Z</dcterms:modified>" in core
