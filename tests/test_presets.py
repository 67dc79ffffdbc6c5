"""Presets of your own: card sizes, papers, print-shop presets, palettes and kinds read from the
user data folder and from beside the manifest, listed with where they come from."""

import json

import pytest
from click.testing import CliRunner

from deckgen import presets
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.export import get_service, load_services
from deckgen.layout import parse_paper
from deckgen.manifest import load
from deckgen.manifest.palettes import find_palette
from deckgen.render import card_size_mm


@pytest.fixture
def user(tmp_path, monkeypatch):
    folder = tmp_path / "user-data"
    folder.mkdir()
    monkeypatch.setenv("DECKGEN_DATA", str(folder))
    return folder


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_user_folder_defaults_to_the_platform_data_folder(monkeypatch):
    import platformdirs

    monkeypatch.delenv("DECKGEN_DATA", raising=False)
    assert presets.user_dir() == presets.Path(platformdirs.user_data_dir("deckgen", appauthor=False))


def test_user_card_size_paper_and_service_are_found(user):
    (user / "card-sizes.toml").write_text('[sizes.square]\nwidth = "70mm"\nheight = "70mm"\n', "utf-8")
    (user / "papers.toml").write_text('[b4]\nname = "B4"\nsize = "250mm x 353mm"\n', "utf-8")
    (user / "services.toml").write_text('[myshop]\nname = "My shop"\ndpi = 350\nbleed = "2mm"\n', "utf-8")
    assert card_size_mm("square") == (70.0, 70.0)
    assert parse_paper("B4").size_mm == (250.0, 353.0)
    shop = get_service("myshop")
    assert (shop.dpi, shop.bleed_mm) == (350, 2.0)
    assert "tgc-poker" in load_services()          # the bundled ones are still there


def test_user_entry_with_a_bundled_name_overrides_it_with_a_note(user):
    (user / "card-sizes.toml").write_text('[sizes.poker]\nwidth = "64mm"\nheight = "89mm"\n', "utf-8")
    from deckgen.render.geometry import CARD_SIZES

    cat = presets.catalogue(CARD_SIZES)
    assert card_size_mm("poker") == (64.0, 89.0)
    assert cat.entries["poker"].origin == "user"
    assert cat.entries["poker"].replaces is not None and cat.entries["poker"].replaces.origin == "bundled"
    [note] = cat.notes
    assert note.severity == "note" and "replaces the bundled one" in note.message
    assert note.file == str(user / "card-sizes.toml") and note.line == 1


def test_presets_beside_the_manifest_are_read(tmp_path, user, write_manifest, minimal_text):
    deck_dir = tmp_path
    (deck_dir / "card-sizes.toml").write_text('[sizes.long]\nwidth = "50"\nheight = "100"\n', "utf-8")
    (deck_dir / "palettes").mkdir()
    classic = find_palette("classic").read_text("utf-8")
    (deck_dir / "palettes" / "mine.toml").write_text(classic.replace('id = "classic"', 'id = "mine"'), "utf-8")
    path = write_manifest(minimal_text.replace('palette = "classic"', 'palette = "mine"\ncard_size = "long"'))
    result = load(path)
    assert result.errors == []
    assert result.deck.palette.id == "mine"
    assert card_size_mm("long", base=deck_dir) == (50.0, 100.0)
    with pytest.raises(DeckgenError):
        card_size_mm("long")                    # not found without the manifest's folder


def test_user_kind_is_usable_in_a_manifest(user, write_manifest, minimal_text):
    (user / "kinds.toml").write_text('[kinds.zap]\ncategory = "action"\nname = { en = "Zap", es = "Zas" }\n'
                                     'effects = ["skip"]\n', "utf-8")
    text = minimal_text + '\n[[cards]]\nkind = "zap"\ncolor = "red"\ncount = 2\npoints = 20\n'
    result = load(write_manifest(text))
    assert result.errors == []
    assert result.deck.kinds["zap"].names.get("es") == "Zas"


def test_a_broken_user_file_is_left_out_with_every_problem_said(user, caplog):
    """Your own file with a mistake does not stop every build: it is not used, each problem is a
    warning (with its key and line), and one line on stderr says so."""
    (user / "papers.toml").write_text('[a4]\nsize = "big"\n[b]\nname = "B"\ncolour = 1\n', "utf-8")
    result = run("list", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0
    wheres = {w["where"] for w in data["warnings"]}
    assert {"a4.size", "b.colour"} <= wheres
    assert all(w["file"] == str(user / "papers.toml") and w["line"] for w in data["warnings"])
    assert next(p for p in data["papers"] if p["name"] == "a4")["origin"] == "bundled"
    warned = [r.getMessage() for r in caplog.records if r.name == "deckgen.presets"]
    assert len(warned) == 1 and str(user / "papers.toml") in warned[0] and "is not used" in warned[0]


def test_list_shows_where_each_entry_comes_from(user):
    (user / "card-sizes.toml").write_text('[sizes.poker]\nwidth = "64mm"\nheight = "89mm"\n'
                                          '[sizes.square]\nwidth = "70mm"\nheight = "70mm"\n', "utf-8")
    (user / "palettes").mkdir()
    (user / "palettes" / "mono.toml").write_text('[palette]\n[[palette.colors]]\nid = "ink"\nhex = "#111111"\n'
                                                 'name = "Ink"\n', "utf-8")
    result = run("list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    square = next(line for line in lines if line.strip().startswith("square"))
    assert f"user: {user / 'card-sizes.toml'}" in square
    assert "bundled" in next(line for line in lines if line.strip().startswith("bridge"))
    assert f"user: {user / 'palettes' / 'mono.toml'}" in next(line for line in lines if line.strip().startswith("mono"))
    assert "replaces the bundled one" in result.stderr
    data = json.loads(run("list", "--json").stdout)
    sizes = {e["name"]: e for e in data["card_sizes"]}
    assert sizes["poker"]["origin"] == "user" and sizes["poker"]["replaces"].endswith("card-sizes.toml")
    assert sizes["bridge"]["origin"] == "bundled"
    assert {p["name"] for p in data["palettes"]} >= {"classic", "spectrum", "mono"}
    assert data["user_data_folder"] == str(user)
    assert [n["code"] for n in data["notes"]] == ["override"]


def test_check_notes_an_override_the_deck_uses(user, write_manifest, minimal_text):
    classic = find_palette("classic").read_text("utf-8")
    (user / "palettes").mkdir()
    (user / "palettes" / "classic.toml").write_text(classic.replace("Clásico", "Mío"), "utf-8")
    result = run("check", str(write_manifest(minimal_text)), "--no-sim", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0
    assert [n["code"] for n in data["notes"]] == ["override"]
    assert "palette 'classic'" in data["notes"][0]["message"]


def test_list_with_deck_adds_the_manifest_folder(tmp_path, user, write_manifest, minimal_text):
    (tmp_path / "services.toml").write_text('[local]\nname = "Corner shop"\ndpi = 300\nbleed = "3"\n', "utf-8")
    path = write_manifest(minimal_text)
    data = json.loads(run("list", "--deck", str(path), "--json").stdout)
    local = next(e for e in data["print_shop_presets"] if e["name"] == "local")
    assert local["origin"] == "deck"
    assert "local" not in {e["name"] for e in json.loads(run("list", "--json").stdout)["print_shop_presets"]}
