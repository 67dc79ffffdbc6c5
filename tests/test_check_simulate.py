"""`deckgen simulate` says what it cannot do: a table size that cannot be dealt is an error naming
the cards it would take, never rows of zeros."""

import json

from click.testing import CliRunner

from deckgen.cli import main


def test_thirty_hands_of_seven_cannot_be_dealt_from_a_small_deck():
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "30"])
    assert res.exit_code == 2
    assert "108 cards cannot be dealt to 30 players" in res.output and "at least 212 cards" in res.output
    assert "win rate" not in res.output


def test_a_range_reaching_past_the_deal_is_an_error_as_json():
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "14-16", "--json"])
    data = json.loads(res.output)
    assert res.exit_code == 2 and data["exit_code"] == 2
    assert [e["message"].split(":")[0] for e in data["errors"]] == ["108 cards cannot be dealt to 16 players"]


def test_a_deck_whose_own_range_cannot_be_dealt_has_errors(write_manifest):
    from test_check_claims import HEAD

    path = write_manifest(HEAD.replace("max = 4", "max = 12"))
    res = CliRunner().invoke(main, ["simulate", str(path), "--games", "2"])
    assert res.exit_code == 1 and "cannot be dealt to 12 players" in res.output
