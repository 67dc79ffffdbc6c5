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
    assert f"{path}:7: TOML syntax error" in result.stderr
    assert "(column " in result.stderr
    assert result.stderr.count("7") == 1 + str(path).count("7"), "the line is shown once"


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


def test_a_required_key_written_under_another_name_is_pointed_at_from_both_sides(write_manifest, minimal_text):
    """rules.base = "classic" where rules.preset is required: the names are not alike, so no "did
    you mean" by spelling; one unknown key beside one missing required key is most likely the same
    key, and both findings say so."""
    result, data = check_json(write_manifest(minimal_text.replace('preset = "classic"', 'base = "classic"')))
    assert result.exit_code == 1
    found = {(e["code"], e["where"]): e for e in data["errors"]}
    assert found[("unknown-key", "rules.base")]["hint"] == "did you mean 'preset'? it is required here and missing"
    assert found[("missing-key", "rules.preset")]["hint"] == "is 'base' meant as 'preset'?"
    # two unknown keys: no guess, the accepted keys as before
    result, data = check_json(write_manifest(minimal_text.replace('preset = "classic"', 'base = "classic"\nx = 1')))
    assert "accepted keys" in {(e["code"], e["where"]): e for e in data["errors"]}[("unknown-key", "rules.base")]["hint"]


def test_wrong_type(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace("hand_size = 5", 'hand_size = "five"')))
    assert result.exit_code == 1
    assert data["errors"][0]["where"] == "deck.hand_size"
    assert "expected an integer" in data["errors"][0]["message"]


def test_missing_required_key(write_manifest, minimal_text):
    result, data = check_json(write_manifest(minimal_text.replace('language = "en"\n', "")))
    assert result.exit_code == 1
    assert ("missing-key", "deck.language") in [(e["code"], e["where"]) for e in data["errors"]]


def test_a_missing_table_is_reported_once(write_manifest):
    result, data = check_json(write_manifest('[deck]\nid = "x"\n'))
    assert result.exit_code == 1
    where = [e["where"] for e in data["errors"]]
    for table in ("rules", "scoring", "cards"):
        assert where.count(table) == 1, data["errors"]
        assert [e["code"] for e in data["errors"] if e["where"] == table] == ["missing-key"]
    assert not any("NoneType" in e["message"] for e in data["errors"])


@pytest.mark.parametrize("count, expected", [("0", "from 1 to 1000"), ("-3", "from 1 to 1000"),
                                             ("2.5", "a positive whole number"), ("100000", "from 1 to 1000")])
def test_bad_counts(write_manifest, minimal_text, count, expected):
    text = minimal_text.replace("kind = \"skip\"\ncolors = \"all\"\ncount = 1", f"kind = \"skip\"\ncolors = \"all\"\ncount = {count}")
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    err = data["errors"][0]
    assert err["where"] == "cards[1].count" and expected in err["message"]
    lines = text.splitlines()                # the line of the count key itself, not its [[cards]] header
    assert err["line"] == lines.index(f"count = {count}", lines.index("[[cards]]", 25)) + 1


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


def test_a_card_entry_s_colours_are_checked_even_when_its_kind_or_count_is_wrong(write_manifest, minimal_text):
    """One entry with an unknown kind, a count of 0 and two colours not in the palette: all four
    errors in one run (the colours were only reported once the kind and count were mended)."""
    text = minimal_text + '\n[[cards]]\nkind = "skipp"\ncolors = ["rojo", "naranja"]\ncount = 0\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    found = [(e["where"], e["code"]) for e in data["errors"]]
    assert ("cards[3].kind", "kind") in found and ("cards[3].count", "range") in found
    colours = [e["message"] for e in data["errors"] if e["where"] == "cards[3].colors"]
    assert len(colours) == 2 and "'rojo'" in colours[0] and "'naranja'" in colours[1]


def test_a_flex_side_is_checked_even_when_its_card_s_kind_is_wrong(write_manifest, minimal_text):
    text = minimal_text + '\n[[cards]]\nkind = "skipp"\ncolor = "red"\ncount = 1\nflex = { color = "purple", kind = "skipz" }\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    assert {"cards[3].kind", "cards[3].flex.kind", "cards[3].flex.color"} <= {e["where"] for e in data["errors"]}


def test_cards_colours_are_checked_against_an_inline_palette_with_a_bad_hex(write_manifest, minimal_text):
    """A bad hex in the deck's own palette and a card colour it does not have: both in one run."""
    palette = ('[palette]\nid = "own"\nname = "Own"\n'
               '[[palette.colors]]\nid = "red"\nhex = "#E5393"\nname = { en = "red", es = "rojo" }\n'
               '[[palette.colors]]\nid = "blue"\nhex = "#1E5FBF"\nname = "blue"\n')
    text = minimal_text.replace('palette = "classic"\n', "").replace("[rules]", palette + "\n[rules]", 1)
    text += '\n[[cards]]\nid = "extra"\nkind = "skip"\ncolors = ["rojo", "green"]\ncount = 1\n'
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    where = [(e["where"], e["message"]) for e in data["errors"]]
    assert any(w == "palette.colors[0].hex" for w, _ in where)
    colours = [m for w, m in where if w == "cards[3].colors"]
    assert len(colours) == 2 and "'rojo'" in colours[0] and "'green'" in colours[1]
    assert "write its id, 'red'" in next(e["hint"] for e in data["errors"] if "'rojo'" in e["message"])


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


# ---------------------------------------------------------------- what check used to miss

@pytest.mark.slow
def test_text_too_long_for_a_card_is_an_error_and_render_never_tracebacks(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace("hand_size = 5", 'hand_size = 5\nback_text = "' + "A" * 6_000_000 + '"'))
    result, data = check_json(path)
    assert result.exit_code == 1
    [err] = data["errors"]
    assert (err["code"], err["where"], err["line"]) == ("too-long", "deck.back_text", 8)
    assert "6000000 characters" in err["message"]
    rendered = run("render", str(path), "-o", str(tmp_path / "faces"))
    assert rendered.exit_code == 1 and isinstance(rendered.exception, SystemExit)
    assert "too-long" in rendered.stderr


def test_a_900_character_kind_name_is_not_clipped_silently(write_manifest, minimal_text):
    text = minimal_text + ('\n[kinds.long]\ncategory = "action"\nname = "' + "N" * 900 + '"\neffects = ["skip"]\n'
                           '\n[[cards]]\nkind = "long"\ncolor = "red"\ncount = 1\npoints = 20\n')
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    assert [(e["code"], e["where"]) for e in data["errors"]] == [("too-long", "kinds.long.name")]


def test_a_text_too_long_says_where_it_prints(write_manifest, minimal_text):
    """The description is the rulebook's introduction, not a card's words: its limit says so (it
    said "too long for a card ... a card has room for a few words")."""
    text = minimal_text.replace("hand_size = 5", 'hand_size = 5\ndescription = "' + "x" * 2001 + '"').replace(
        'name = "Mini"', 'name = "' + "N" * 61 + '"')
    result, data = check_json(write_manifest(text))
    assert result.exit_code == 1
    found = {e["where"]: e["message"] for e in data["errors"]}
    assert "too long for the rulebook's introduction (at most 2000)" in found["deck.description"]
    assert "card" not in found["deck.description"]
    assert "too long for a game's name (at most 60)" in found["deck.name"]


INLINE_PALETTE = '''
[palette]
id = "mine"
[[palette.colors]]
id = "red"
hex = "#D7263D"
name = "Red"
symbol = "{symbol}"
[[palette.colors]]
id = "yellow"
hex = "#F4D35E"
name = "Yellow"
[[palette.colors]]
id = "green"
hex = "#2A9D8F"
name = "Green"
[[palette.colors]]
id = "blue"
hex = "#1D4E89"
name = "Blue"
'''


def inline(minimal_text, symbol="circle"):
    return minimal_text.replace('palette = "classic"\n', "") + INLINE_PALETTE.format(symbol=symbol)


def test_unknown_palette_symbol_is_an_error_with_the_list(write_manifest, minimal_text):
    path = write_manifest(inline(minimal_text, "banana"))
    result, data = check_json(path)
    assert result.exit_code == 1
    [err] = data["errors"]
    assert (err["where"], err["line"]) == ("palette.colors[0].symbol", path.read_text().splitlines().index('symbol = "banana"') + 1)
    assert "'banana'" in err["message"] and "circle" in err["hint"] and "triangle" in err["hint"]


def test_utf8_byte_order_mark_is_accepted(tmp_path, minimal_text):
    path = tmp_path / "notepad.toml"
    path.write_text(minimal_text, encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    result, data = check_json(path)
    assert result.exit_code == 0, data["errors"]


def test_an_unknown_effect_is_reported_once(write_manifest, minimal_text):
    text = minimal_text.replace("wild = 50", "wild = 50\nzap = 20") + (
        '\n[kinds.zap]\ncategory = "action"\nname = "Zap"\neffects = ["zapp"]\n'
        '\n[[cards]]\nkind = "zap"\ncolor = "red"\ncount = 1\n')
    path = write_manifest(text)
    result, data = check_json(path)
    assert result.exit_code == 1
    assert [(e["code"], e["where"]) for e in data["errors"]] == [("effect", "kinds.zap.effects[0].op")]


def test_every_finding_has_a_line(write_manifest, minimal_text):
    text = minimal_text.replace("hand_size = 5", "hand_size = 5\nhand_sise = 6").replace(
        "target = 100", "target = 100\nknockout_bonus = -1").replace('preset = "classic"', 'preset = "classic"\n'
                                                                       '[rules.options]\nstackin = "off"')
    path = write_manifest(text)
    lines = path.read_text().splitlines()
    result, data = check_json(path)
    assert result.exit_code == 1
    found = {e["where"]: e["line"] for e in data["errors"] + data["warnings"]}
    assert found["deck.hand_sise"] == lines.index("hand_sise = 6") + 1
    assert found["scoring.knockout_bonus"] == lines.index("knockout_bonus = -1") + 1
    assert found["rules.options.stackin"] == lines.index('stackin = "off"') + 1
    assert all(isinstance(e.get("line"), int) for e in data["errors"] + data["warnings"])


def test_deck_wide_findings_have_a_line_too(write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace("max = 4", "max = 10"))
    result, data = check_json(path)
    err = next(e for e in data["errors"] if e["code"] == "too-few-cards")
    assert err["line"] == path.read_text().splitlines().index("[[cards]]") + 1


def test_missing_palette_file_and_missing_templates_both_exit_2(write_manifest, minimal_text):
    no_palette = write_manifest(minimal_text.replace('palette = "classic"', 'palette = "colours/mine.toml"'), "a.toml")
    no_templates = write_manifest(minimal_text.replace('palette = "classic"', 'palette = "classic"\ntemplates = "tpl"'),
                                  "b.toml")
    for path, where in ((no_palette, "deck.palette"), (no_templates, "deck.templates")):
        result, data = check_json(path)
        assert result.exit_code == 2 and data["exit_code"] == 2, data["errors"]
        assert [(e["code"], e["where"]) for e in data["errors"]] == [("file", where)]
        assert run("check", str(path), "--no-sim").exit_code == 2
    assert run("render", str(no_palette), "-o", str(no_palette.parent / "x"), "--json").exit_code == 2


def test_palette_check_accepts_a_manifest_with_an_inline_palette(write_manifest, minimal_text):
    result = run("palette", "check", str(write_manifest(inline(minimal_text))), "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["palette"] == "mine"
    assert "Palette mine" in run("palette", "check", str(write_manifest(inline(minimal_text)))).stdout
    named = run("palette", "check", str(write_manifest(minimal_text, "named.toml")))
    assert named.exit_code == 0 and "Palette classic" in named.stdout


def test_simulate_outside_the_decks_player_range_warns(write_manifest, minimal_text):
    path = write_manifest(minimal_text)
    result = run("simulate", str(path), "--players", "3-6", "--games", "2")
    assert result.exit_code == 0
    assert "warning[players]" in result.stderr and "2-4 players" in result.stderr and "5, 6" in result.stderr
    data = json.loads(run("simulate", str(path), "--players", "3-6", "--games", "2", "--json").stdout)
    assert [w["code"] for w in data["warnings"]] == ["players"]
    assert "warning" not in run("simulate", str(path), "--players", "2-4", "--games", "2").stderr


def test_tens_of_thousands_of_cards_warns(write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace("values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\ncount = 1",
                                               "values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\ncount = 1000"))
    result, data = check_json(path)
    assert data["cards_total"] == 40_008
    assert [w["code"] for w in data["warnings"] if w["code"] == "many-cards"] == ["many-cards"]
    small, small_data = check_json(write_manifest(minimal_text, "small.toml"))
    assert "many-cards" not in [w["code"] for w in small_data["warnings"]]


def test_check_names_cards_by_display_name(write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace("skip = 20\n", ""))
    result = run("check", str(path), "--no-sim")
    assert result.exit_code == 1
    line = next(line for line in result.stdout.splitlines() if "no-points" in line)
    from deckgen.manifest import load

    card = load(path).deck.card("red-skip")
    assert f"'{card.name('en')}'" in line and "red-skip" not in line
