"""`deckgen check` on broken manifests: every error class, its message and the exit code."""

import json

import pytest
from click.testing import CliRunner

from deckgen.cli import main


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def check_json(path):
    result = run("check", str(path), "--json", "--no-sim")
    return result, json.loads(result.stdout)


def codes(data):
    return [e["code"] for e in data["errors"]]


def test_minimal_deck_passes(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text))
    assert result.exit_code == 0, data["errors"]
    assert data["cards_total"] == 48
    assert data["errors"] == []


def test_toml_syntax_error_names_line_and_column(write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace('hand_size = 5', 'hand_size = = 5'))
    result = run("check", str(path))
    assert result.exit_code == 2
    assert str(path) in result.stderr
    assert "line 7, column" in result.stderr
    assert "TOML syntax error" in result.stderr


def test_missing_file_is_unusable_input(tmp_path):
    result = run("check", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2
    assert "no such file" in result.stderr


def test_unknown_deck_name_suggests_bundled(tmp_path):
    result = run("check", "clasic")
    assert result.exit_code == 2
    assert "did you mean 'classic'" in result.stderr


def test_unknown_key_with_did_you_mean(write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace("hand_size = 5", "hand_size = 5\nhand_sise = 6"))
    result, data = check_json(path)
    assert result.exit_code == 1
    err = data["errors"][0]
    assert (err["code"], err["where"]) == ("unknown-key", "deck.hand_sise")
    assert "did you mean 'hand_size'" in err["hint"]
    assert err["file"] == str(path)


def test_wrong_type(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace("hand_size = 5", 'hand_size = "five"')))
    assert result.exit_code == 1
    assert data["errors"][0]["where"] == "deck.hand_size"
    assert "expected an integer" in data["errors"][0]["message"]


def test_missing_required_key(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace('language = "en"\n', "")))
    assert result.exit_code == 1
    assert ("missing-key", "deck.language") in [(e["code"], e["where"]) for e in data["errors"]]


@pytest.mark.parametrize("count, expected", [("0", "from 1 to 1000"), ("-3", "from 1 to 1000"),
                                             ("2.5", "a positive whole number"), ("100000", "from 1 to 1000")])
def test_bad_counts(write_manifest, minimal_text, count, expected):
    text = minimal_text.replace("kind = \"skip\"\ncolors = \"all\"\ncount = 1", f"kind = \"skip\"\ncolors = \"all\"\ncount = {count}")
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    err = data["errors"][0]
    assert err["where"] == "cards[1].count" and expected in err["message"]
    assert err["line"] == text.splitlines().index("[[cards]]", 25) + 1


def test_duplicate_card_ids(write_manifest, minimal_text):
    text = minimal_text + '\n[[cards]]\nkind = "skip"\ncolor = "red"\ncount = 1\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    assert "duplicate-id" in codes(data)
    assert "'red-skip' is already used by cards[1]" in data["errors"][0]["message"]


def test_colour_not_in_palette_suggests_id_for_a_colour_name(write_manifest, minimal_text):
    text = minimal_text + '\n[[cards]]\nid = "extra"\nkind = "skip"\ncolor = "rojo"\ncount = 1\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    err = data["errors"][0]
    assert err["where"] == "cards[3].color" and "not in the palette" in err["message"]
    assert "write its id, 'red'" in err["hint"]


def test_flex_colour_equal_to_own_colour(write_manifest, minimal_text):
    text = minimal_text + '\n[[cards]]\nid = "f"\nkind = "skip"\ncolor = "red"\ncount = 1\nflex = { color = "red", kind = "skip" }\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    assert data["errors"][0]["code"] == "flex-color"
    assert data["errors"][0]["where"] == "cards[3].flex.color"


def test_effect_outside_vocabulary(write_manifest, minimal_text):
    text = minimal_text + '\n[kinds.mega]\ncategory = "wild"\nname = "Mega"\neffects = [{ op = "draw", n = 20 }, "chose_color"]\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    err = data["errors"][0]
    assert err["where"] == "kinds.mega.effects[1].op"
    assert "did you mean 'choose_color'" in err["hint"]


def test_players_min_greater_than_max(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace("min = 2, max = 4", "min = 6, max = 4")))
    assert result.exit_code == 1
    assert data["errors"][0]["where"] == "deck.players"


def test_too_few_cards_for_max_players(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace("max = 4", "max = 10")))
    assert result.exit_code == 1
    assert "too-few-cards" in codes(data)
    assert "needs at least 52" in data["errors"][0]["message"]


def test_no_legal_start_card(write_manifest, minimal_text):
    text = minimal_text.replace('preset = "classic"', 'preset = "classic"\n[rules.options]\nstart_card = "number-only"')
    text = text.replace('kind = "number"\ncolors = "all"\nvalues = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\ncount = 1',
                        'kind = "skip"\ncolors = ["red"]\ncount = 1\nid = "red-skip-2"')
    text = text.replace("hand_size = 5", "hand_size = 1")
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    assert "no-start-card" in codes(data)


def test_card_without_point_value(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace("skip = 20\n", "")))
    assert result.exit_code == 1
    err = data["errors"][0]
    assert err["code"] == "no-points" and err["where"] == "cards[1].points"
    assert "scoring.points.skip" in err["hint"]


def test_too_few_power_cards(tmp_path):
    from tests.conftest import ROOT
    text = (ROOT / "decks" / "flex-spectrum.toml").read_text("utf-8").replace("count = 10\nname = { es = \"Carta de poder\"",
                                                                            "count = 6\nname = { es = \"Carta de poder\"")
    path = tmp_path / "flex.toml"
    path.write_text(text, "utf-8")
    result, data = check_json(path)
    assert result.exit_code == 1
    assert "power-cards" in codes(data)
    assert "6 for up to 8 players" in next(e for e in data["errors"] if e["code"] == "power-cards")["message"]


def test_every_problem_reported_at_once(write_manifest, minimal_text):
    text = minimal_text.replace("hand_size = 5", "hand_size = 0").replace('language = "en"', 'language = 7')
    text = text.replace('preset = "classic"', 'preset = "clasic"')
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    assert {"deck.hand_size", "deck.language", "rules.preset"} <= {e["where"] for e in data["errors"]}
    assert "did you mean 'classic'" in next(e for e in data["errors"] if e["where"] == "rules.preset")["hint"]


def test_human_output_has_summary_and_findings(write_manifest, minimal_text):
    result = run("check", str(write_manifest(minimal_text.replace("skip = 20\n", ""))), "--no-sim")
    assert result.exit_code == 1
    assert "Mini (mini): 48 cards" in result.stdout
    assert "error[no-points]" in result.stdout
    assert "1 error" in result.stdout


def test_bad_option_is_usage_error():
    result = run("check", "classic", "--games", "0")
    assert result.exit_code == 2


def test_json_shape_of_a_bundled_deck():
    result = run("check", "flex-spectrum", "--json", "--no-sim")
    data = json.loads(result.stdout)
    assert result.exit_code == 0
    assert {"deck", "name", "cards_total", "components", "cards", "errors", "warnings"} <= set(data)
    assert data["components"] == {"power": 10}
    card = next(c for c in data["cards"] if c["id"] == "red-skip-flex-skip-all")
    assert card == {"id": "red-skip-flex-skip-all", "name": "Salta rojo / Salta todo verde", "kind": "skip",
                    "color": "red", "value": None, "count": 1, "points": 20,
                    "flex": {"color": "green", "kind": "skip-all"}}


def test_list_shows_bundled_decks_and_palettes():
    result = run("list")
    assert result.exit_code == 0
    assert "classic" in result.stdout and "108 cards" in result.stdout
    assert "no-mercy" in result.stdout and "168 cards" in result.stdout
    assert "236 cards + 10 printed extras" in result.stdout
    assert "spectrum" in result.stdout and "10 colours" in result.stdout


def test_palette_override_restyles_colours_without_changing_the_cards():
    from deckgen import manifest

    spectrum = manifest.load_palette("spectrum")
    deck = manifest.load_deck("classic", palette=spectrum)
    assert deck.total == 108 and len(deck.cards) == 54
    assert deck.palette.ids() == ("red", "yellow", "green", "blue")
    assert deck.palette.get("red").hex == spectrum.get("red").hex
    assert deck.palette.get("red").hex != manifest.load_deck("classic").palette.get("red").hex


def test_palette_override_missing_deck_colours_is_a_usage_error():
    result = run("check", "flex-spectrum", "--palette", "classic", "--no-sim")
    assert result.exit_code == 2
    assert "palette 'classic' lacks colours orange, purple, pink, cyan, brown, lime" in result.stderr
