"""`deckgen simulate`: the report, its JSON, and determinism regardless of cores."""

import json

import pytest
from click.testing import CliRunner

from deckgen import manifest
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.rules.simulate import PlayOptions, parse_players, run, simulate
from deckgen.rules.table import compile_deck


def test_cli_json_report_per_table_size():
    res = CliRunner().invoke(main, ["simulate", "no-mercy", "--players", "2-3", "--games", "12", "--seed", "4",
                                    "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["deck"] == "no-mercy" and data["agent"] == "random" and data["seed"] == 4
    assert [t["players"] for t in data["tables"]] == [2, 3]
    t = data["tables"][0]
    assert t["games"] == 12 and t["finished"] + t["stalled"] + t["capped"] == 12
    assert set(t["turns"]) == {"mean", "median", "p90"}
    assert t["turns"]["median"] <= t["turns"]["p90"]
    assert len(t["win_rate_by_seat"]) == 2
    for key in ("draws_per_game", "reshuffles_per_game", "knockouts_per_game", "largest_stack", "largest_hand",
                "plays_by_kind"):
        assert key in t
    assert sum(t["plays_by_kind"].values()) > 0


def test_cli_flex_spectrum_reports_flex_plays_and_power_flips():
    res = CliRunner().invoke(main, ["simulate", "flex-spectrum", "--players", "3", "--games", "6", "--json",
                                    "--agent", "greedy"])
    assert res.exit_code == 0, res.output
    t = json.loads(res.output)["tables"][0]
    assert "flex_plays_per_game" in t and "power_flips_per_game" in t
    assert "knockouts_per_game" not in t


def test_cli_text_report():
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "4", "--games", "10"])
    assert res.exit_code == 0
    assert "turns mean/med/p90" in res.output and "win rate by seat" in res.output


def test_cli_bad_players_is_a_usage_error():
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "ten"])
    assert res.exit_code == 2 and "--players" in res.output


def test_same_seed_same_json_and_any_number_of_workers():
    deck = manifest.load_deck("classic")
    one = simulate(deck, [2, 5], PlayOptions(games=30, seed=9, workers=1))
    two = simulate(deck, [2, 5], PlayOptions(games=30, seed=9, workers=2))
    assert json.dumps(one.to_json()) == json.dumps(two.to_json())
    other = simulate(deck, [2, 5], PlayOptions(games=30, seed=10, workers=1))
    assert json.dumps(one.to_json()) != json.dumps(other.to_json())


def test_turn_budget_keeps_games_in_order_regardless_of_workers():
    table = compile_deck(manifest.load_deck("no-mercy"))
    a = run(table, [3], PlayOptions(games=40, seed=2, workers=1, turn_budget=1500))
    b = run(table, [3], PlayOptions(games=40, seed=2, workers=2, turn_budget=1500))
    assert a == b
    full = run(table, [3], PlayOptions(games=40, seed=2, workers=1))
    assert a[3] == full[3][:len(a[3])] and 0 < len(a[3]) < 40
    assert sum(r.turns for r in a[3][:-1]) < 1500


def test_parse_players():
    assert parse_players("4") == [4]
    assert parse_players("2-5") == [2, 3, 4, 5]
    with pytest.raises(DeckgenError):
        parse_players("5-2")
    with pytest.raises(DeckgenError):
        parse_players("1")
