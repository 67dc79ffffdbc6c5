"""deckgen render / preview / palette check through click's CliRunner: exit codes and messages."""

import json

from click.testing import CliRunner
from PIL import Image

from deckgen.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args), prog_name="deckgen")


def test_render_writes_one_png_per_face(tmp_path):
    out = tmp_path / "out"
    res = run("render", "classic", "-o", str(out), "--dpi", "40", "-j", "1")
    assert res.exit_code == 0, res.output
    assert "55 faces" in res.output and "40 dpi" in res.output
    names = {p.name for p in out.glob("*.png")}
    assert {"red-0.png", "wild-draw-four.png", "back.png"} <= names and len(names) == 55


def test_render_components_and_card_size(tmp_path):
    out = tmp_path / "spec"
    res = run("render", "flex-spectrum", "-o", str(out), "--dpi", "30", "--card-size", "poker", "--bleed", "0.125in")
    assert res.exit_code == 0, res.output
    with Image.open(out / "power-red.png") as im:
        assert im.size == (75 + 2 * 4, 105 + 2 * 4)


def test_render_palette_override(tmp_path):
    out = tmp_path / "o"
    res = run("render", "classic", "-o", str(out), "--dpi", "30", "--color", "red=#102030")
    assert res.exit_code == 0, res.output
    with Image.open(out / "red-5.png") as im:
        assert im.convert("RGB").getpixel((1, 1)) == (0x10, 0x20, 0x30)


def test_render_bad_input_exits_2_with_a_hint(tmp_path):
    res = run("render", "classic", "-o", str(tmp_path), "--card-size", "pokr")
    assert res.exit_code == 2 and "did you mean 'poker'" in res.output
    res = run("render", "classic", "-o", str(tmp_path), "--color", "rojo=#FF0000")
    assert res.exit_code == 2 and "no colour 'rojo'" in res.output
    res = run("render", "classic", "-o", str(tmp_path), "--bleed", "3ft")
    assert res.exit_code == 2 and "--bleed" in res.output
    res = run("render", "nonexistent-deck", "-o", str(tmp_path))
    assert res.exit_code == 2
    res = run("render", "classic")
    assert res.exit_code == 2 and "-o" in res.output


def test_render_deck_with_errors_exits_1(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace('kind = "skip"', 'kind = "skip"\npoints = -5'))
    res = run("render", str(path), "-o", str(tmp_path / "o"))
    assert res.exit_code == 1


def test_preview_contact_sheet(tmp_path):
    out = tmp_path / "sheet.png"
    res = run("preview", "no-mercy", "-o", str(out), "--dpi", "40")
    assert res.exit_code == 0, res.output
    with Image.open(out) as im:
        assert im.width > 1000 and im.height > 1000


def test_palette_check_spectrum_passes():
    res = run("palette", "check", "spectrum")
    assert res.exit_code == 0, res.output
    assert "passes normal vision" in res.output and "deuteranopia" in res.output
    assert "told apart by shapes" in res.output


def test_palette_check_names_clashing_pairs(tmp_path):
    res = run("palette", "check", "classic", "--color", "yellow=#2F9F49")
    assert res.exit_code == 1
    assert "yellow" in res.output and "green" in res.output and "FAILS normal vision" in res.output
    res = run("palette", "check", "spectrum", "--json")
    data = json.loads(res.output)
    assert data["passes_normal_vision"] and "minimum" in data and data["warnings"] == []


def test_palette_check_unknown_palette_exits_2():
    res = run("palette", "check", "spectrun")
    assert res.exit_code == 2 and "did you mean 'spectrum'" in res.output


def test_manifest_card_size_error_names_file_and_key(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace('palette = "classic"', 'palette = "classic"\ncard_size = "brige"'))
    res = run("render", str(path), "-o", str(tmp_path / "o"))
    assert res.exit_code == 2
    assert str(path) in res.output and "deck.card_size" in res.output and "did you mean 'bridge'" in res.output


def test_render_into_a_file_path_is_unusable_input(tmp_path):
    target = tmp_path / "file.txt"
    target.write_text("x", "utf-8")
    res = run("render", "classic", "-o", str(target), "--dpi", "30")
    assert res.exit_code == 2 and "Traceback" not in res.output
