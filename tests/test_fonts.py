"""One font lookup (deckgen/fonts.py) for card faces, the cards PDF and the rulebook:
deck.fonts, then the user folder ($DECKGEN_FONTS or the platform's user data folder), then the
bundled fonts. Errors name the fonts.toml and the role; nothing falls back silently."""

from __future__ import annotations

import importlib
import io
import shutil
from pathlib import Path

import pytest
import reportlab
from pypdf import PdfReader

from deckgen import fonts, manifest
from deckgen.errors import DeckgenError
from deckgen.render import RenderSettings, render_face
from deckgen.render.faces import face_spec
from tests.conftest import MINIMAL, ROOT

RL = Path(reportlab.__file__).resolve().parent / "fonts"
EXAMPLE_FONTS = ROOT / "decks" / "examples" / "woodland" / "fonts"


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """No user fonts from this machine: an empty user data folder, caches cleared."""
    monkeypatch.delenv("DECKGEN_FONTS", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    fonts.clear_caches()
    yield monkeypatch
    fonts.clear_caches()


def folder_with(tmp_path: Path, name: str, conf: str, files: dict[str, Path]) -> Path:
    folder = tmp_path / name
    folder.mkdir(parents=True)
    for target, source in files.items():
        shutil.copy(source, folder / target)
    (folder / "fonts.toml").write_text(conf, "utf-8")
    return folder


@pytest.mark.parametrize("old", ["deckgen.render.fonts", "deckgen.layout.fonts", "deckgen.rulebook.fonts"])
def test_the_three_old_font_modules_are_gone(old):
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)


def test_bundled_fonts(fresh):
    fs = fonts.font_set()
    assert fs.path("display").name == "LeagueSpartan-Black.otf" and fs.path("text").name == "LeagueSpartan-Bold.otf"
    assert fs.path("body").name == "Vera.ttf" and fs.path("bold_italic").name == "VeraBI.ttf"
    assert all(fonts.covers_spanish(fs.path(role)) for role in fonts.ROLES)
    assert fonts.register_pdf(fs).family == "DeckgenSans"


def test_order_is_deck_then_user_then_bundled(fresh, tmp_path):
    deck = folder_with(tmp_path, "deck", 'text = "Mine.ttf"\n', {"Mine.ttf": RL / "VeraBd.ttf"})
    user = folder_with(tmp_path, "user", 'text = "User.ttf"\ndisplay = "UserD.ttf"\n',
                       {"User.ttf": RL / "Vera.ttf", "UserD.ttf": RL / "VeraBI.ttf"})
    fresh.setenv("DECKGEN_FONTS", str(user))
    fs = fonts.font_set(deck)
    assert fs.path("text") == deck / "Mine.ttf"             # the deck's folder wins
    assert fs.path("display") == user / "UserD.ttf"         # then the user's
    assert fs.path("body").name == "Vera.ttf"               # then the bundled ones
    assert fonts.font_set(None).path("text") == user / "User.ttf"


def test_platform_user_data_folder_is_searched(fresh, tmp_path):
    folder = folder_with(tmp_path / "xdg", "deckgen/fonts", 'display = "Plat.ttf"\n', {"Plat.ttf": RL / "VeraBd.ttf"})
    assert fonts.user_fonts_dir() == folder
    assert fonts.font_path("display") == folder / "Plat.ttf"


def test_body_styles_default_to_the_folders_body_font(fresh, tmp_path):
    deck = folder_with(tmp_path, "deck", 'body = "B.ttf"\n', {"B.ttf": RL / "Vera.ttf"})
    fs = fonts.font_set(deck)
    assert {fs.path(r) for r in ("body", "bold", "italic", "bold_italic")} == {deck / "B.ttf"}


def test_deckgen_fonts_pointing_nowhere_is_an_error_not_a_fallback(fresh, tmp_path):
    from click.testing import CliRunner

    from deckgen.cli import main

    fresh.setenv("DECKGEN_FONTS", str(tmp_path / "nope"))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    assert exc.value.findings[0].where == "DECKGEN_FONTS"
    result = CliRunner().invoke(main, ["render", "classic", "-o", str(tmp_path / "out"), "--dpi", "30", "--no-cache"])
    assert result.exit_code == 2 and "DECKGEN_FONTS" in result.stderr


def test_missing_named_font_names_the_file_and_the_fonts_there(fresh, tmp_path):
    folder = folder_with(tmp_path, "user", 'display = "Mien.ttf"\n', {"Mine.ttf": RL / "Vera.ttf"})
    fresh.setenv("DECKGEN_FONTS", str(folder))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    f = exc.value.findings[0]
    assert (f.file, f.where) == (str(folder / "fonts.toml"), "display")
    assert "no font file 'Mien.ttf'" in f.message and f.hint == "fonts there: Mine.ttf"


def test_every_broken_font_file_is_reported_at_once(fresh, tmp_path):
    """A missing file and a file that is no font, in one folder: both reported in one go (a
    style that falls back on a broken file is not reported again)."""
    folder = folder_with(tmp_path, "user", 'display = "Gone.ttf"\nbody = "Fake.ttf"\n', {"Mine.ttf": RL / "Vera.ttf"})
    (folder / "Fake.ttf").write_bytes(b"not a font at all")
    fresh.setenv("DECKGEN_FONTS", str(folder))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    assert [(f.where, f.message.split(" ")[0]) for f in exc.value.findings] == [("display", "no"), ("body", "'Fake.ttf'")]


def test_a_font_without_spanish_letters_is_an_error(fresh, tmp_path):
    folder = folder_with(tmp_path, "user", 'text = "Tiny.ttf"\n', {"Tiny.ttf": RL / "hb-test.ttf"})
    fresh.setenv("DECKGEN_FONTS", str(folder))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    assert "lacks Spanish letters" in exc.value.findings[0].message


def test_a_cff_font_for_the_pdfs_is_an_error(fresh, tmp_path):
    folder = folder_with(tmp_path, "user", 'body = "Spartan.otf"\n',
                         {"Spartan.otf": ROOT / "fonts" / "LeagueSpartan-Bold.otf"})
    fresh.setenv("DECKGEN_FONTS", str(folder))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    assert exc.value.findings[0].where == "body" and "CFF" in exc.value.findings[0].message


def test_fonts_without_a_fonts_toml_are_an_error(fresh, tmp_path):
    folder = tmp_path / "user"
    folder.mkdir()
    shutil.copy(RL / "Vera.ttf", folder)
    fresh.setenv("DECKGEN_FONTS", str(folder))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    assert "no fonts.toml" in exc.value.findings[0].message and "Vera.ttf" in exc.value.findings[0].hint


def test_bad_role_in_fonts_toml_names_the_file(fresh, tmp_path):
    folder = folder_with(tmp_path, "user", 'dispaly = "x.ttf"\n', {})
    fresh.setenv("DECKGEN_FONTS", str(folder))
    with pytest.raises(DeckgenError) as exc:
        fonts.font_set()
    f = exc.value.findings[0]
    assert f.file.endswith("fonts.toml") and f.where == "dispaly" and "display" in f.hint


def test_deck_fonts_problems_are_check_errors(fresh, write_manifest, tmp_path):
    folder_with(tmp_path, "myfonts", 'text = "Gone.ttf"\n', {})
    path = write_manifest(MINIMAL.replace('palette = "classic"', 'palette = "classic"\nfonts = "myfonts"'))
    result = manifest.load(path)
    assert result.deck is None
    assert [f.where for f in result.errors] == ["text"] and result.errors[0].file.endswith("fonts.toml")
    bad = write_manifest(MINIMAL.replace('palette = "classic"', 'palette = "classic"\nfonts = "../elsewhere"'),
                         name="bad.toml")
    assert [f.where for f in manifest.load(bad).errors] == ["deck.fonts"]


@pytest.mark.slow
def test_deck_fonts_reach_the_faces_the_cards_pdf_and_the_rulebook(fresh, tmp_path):
    from deckgen.build import BuildOptions, build_deck

    deck = manifest.load_deck("woodland")
    spec = face_spec(deck, "owl-skip", False)
    text_font = EXAMPLE_FONTS / "DejaVuSerifCondensed-Bold.ttf"
    assert spec.fonts[1] == fonts._ref(text_font) and spec.fonts[0] == fonts.font_set().ref("display")
    plain = render_face(manifest.load_deck("classic"), "red-skip", RenderSettings(dpi=40))
    assert render_face(deck, "owl-skip", RenderSettings(dpi=40)).size == plain.size
    result = build_deck("woodland", BuildOptions(out_dir=tmp_path / "out", dpi=40))      # the session's cache
    for out in result.outputs:
        reader = PdfReader(io.BytesIO(out.path.read_bytes()))
        names = set()
        for page in reader.pages[:2]:
            for font in (page["/Resources"].get("/Font") or {}).values():
                names.add(str(font.get_object()["/BaseFont"]))
        assert any("DejaVuSerifCondensed" in n for n in names), (out.kind, names)


def test_face_cache_key_follows_the_font_content_not_its_path(fresh, tmp_path):
    a = folder_with(tmp_path, "a", 'text = "X.ttf"\n', {"X.ttf": RL / "VeraBd.ttf"})
    b = folder_with(tmp_path, "b", 'text = "Y.ttf"\n', {"Y.ttf": RL / "VeraBd.ttf"})
    assert repr(fonts.font_set(a).ref("text")) == repr(fonts.font_set(b).ref("text"))
    shutil.copy(RL / "Vera.ttf", b / "Y.ttf")
    fonts.clear_caches()
    assert repr(fonts.font_set(a).ref("text")) != repr(fonts.font_set(b).ref("text"))
