"""Fonts come from fonts/ (users may add their own) and the dependencies; never downloaded."""

import shutil
from pathlib import Path

import pytest
import reportlab

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.render import RenderSettings, fonts, render_face

VERA = Path(reportlab.__file__).resolve().parent / "fonts" / "VeraBd.ttf"


@pytest.fixture
def fresh_fonts(monkeypatch):
    fonts.font_path.cache_clear()
    fonts.font.cache_clear()
    yield monkeypatch
    fonts.font_path.cache_clear()
    fonts.font.cache_clear()


def test_bundled_display_font_is_league_spartan_with_spanish_letters(fresh_fonts):
    path = fonts.font_path("display")
    assert path.name == "LeagueSpartan-Black.otf"
    assert (path.parent / "LeagueSpartan-OFL.txt").is_file()
    assert fonts.covers_spanish(path)


def test_user_font_folder_and_fonts_toml(fresh_fonts, tmp_path):
    shutil.copy(VERA, tmp_path / "Mine.ttf")
    (tmp_path / "fonts.toml").write_text('display = "Mine.ttf"\n', "utf-8")
    fresh_fonts.setenv("DECKGEN_FONTS", str(tmp_path))
    assert fonts.font_path("display") == tmp_path / "Mine.ttf"
    assert fonts.font_path("text").name == "LeagueSpartan-Bold.otf"     # not configured: the bundled one
    assert "Mine.ttf" in fonts.fonts_signature()


def test_chosen_font_without_spanish_letters_is_an_error(fresh_fonts, tmp_path):
    hb = Path(reportlab.__file__).resolve().parent / "fonts" / "hb-test.ttf"
    shutil.copy(hb, tmp_path / "Tiny.ttf")
    (tmp_path / "fonts.toml").write_text('display = "Tiny.ttf"\n', "utf-8")
    fresh_fonts.setenv("DECKGEN_FONTS", str(tmp_path))
    assert not fonts.covers_spanish(tmp_path / "Tiny.ttf")
    with pytest.raises(DeckgenError) as exc:
        fonts.font_path("display")
    finding = exc.value.findings[0]
    assert (finding.file, finding.where) == (str(tmp_path / "fonts.toml"), "display")
    assert "lacks Spanish letters" in finding.message


def test_missing_chosen_font_names_the_file_and_the_fonts_there(fresh_fonts, tmp_path):
    shutil.copy(VERA, tmp_path / "Mine.ttf")
    (tmp_path / "fonts.toml").write_text('display = "Mien.ttf"\n', "utf-8")
    fresh_fonts.setenv("DECKGEN_FONTS", str(tmp_path))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_path("display")
    finding = exc.value.findings[0]
    assert finding.where == "display" and "no font file 'Mien.ttf'" in finding.message
    assert finding.hint == "fonts there: Mine.ttf"


def test_missing_font_is_a_usage_error_on_the_command_line(fresh_fonts, tmp_path):
    from click.testing import CliRunner

    from deckgen.cli import main

    (tmp_path / "fonts.toml").write_text('text = "Gone.otf"\n', "utf-8")
    fresh_fonts.setenv("DECKGEN_FONTS", str(tmp_path))
    result = CliRunner().invoke(main, ["render", "classic", "-o", str(tmp_path / "out"), "--dpi", "40", "--no-cache"])
    assert result.exit_code == 2
    assert "fonts.toml:1: text: no font file 'Gone.otf'" in result.stderr


def test_bad_fonts_toml_names_the_file(fresh_fonts, tmp_path):
    (tmp_path / "fonts.toml").write_text('dispaly = "x.ttf"\n', "utf-8")
    fresh_fonts.setenv("DECKGEN_FONTS", str(tmp_path))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_path("display")
    assert "fonts.toml" in str(exc.value) and "dispaly" in str(exc.value)


def test_corner_guide_marks_the_trim_line():
    deck = manifest.load_deck("classic")
    s = RenderSettings(dpi=60, corner_guide=True)
    img = render_face(deck, "red-3", s)
    frame = s.frame(deck)
    w, h = img.size
    b = frame.bleed
    assert img.getpixel((w // 2, b)) == (150, 150, 150)
    assert img.getpixel((w // 2, b - 2)) == deck.palette.get("red").rgb
