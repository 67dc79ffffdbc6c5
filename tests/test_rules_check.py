"""The rules engine's part of `deckgen check`: rules against cards, and simulated play."""

import pytest

from deckgen.check import check
from deckgen.stages import CheckOptions

HEAD = '''
[deck]
id = "home"
name = "Home"
language = "en"
players = {{ min = {lo}, max = {hi} }}
hand_size = {hand}
palette = "classic"

[rules]
preset = "{preset}"
{options}

[scoring]
target = 100
[scoring.points]
number = "face"
skip = 20
reverse = 20
draw-two = 20
wild = 50
wild-draw-four = 50
wild-all-flip = 50
'''

NUMBERS = '''
[[cards]]
kind = "number"
colors = "all"
values = [{values}]
count = {count}
'''

WILDS = '''
[[cards]]
kind = "wild-draw-four"
count = 4

[[cards]]
kind = "draw-two"
colors = "all"
count = 2
'''


def deck_text(values="1, 2, 3, 4, 5, 6, 7, 8, 9", count=2, lo=2, hi=4, options="", extra=WILDS):
    return HEAD.format(lo=lo, hi=hi, hand=7, preset="classic", options=options) + \
        NUMBERS.format(values=values, count=count) + extra


def codes(rep, errors=True):
    return {f.code for f in (rep.errors if errors else rep.warnings)}


def run(write_manifest, text, **kw):
    kw.setdefault("games", 20)
    return check(write_manifest(text), CheckOptions(**kw))


def test_a_sound_homemade_deck_passes_and_gets_a_simulation_section(write_manifest):
    rep = run(write_manifest, deck_text())
    assert not rep.errors
    sim = rep.sections["simulation"]
    assert [t["players"] for t in sim["tables"]] == [2, 3, 4]
    assert all(t["games"] == 20 for t in sim["tables"])
    assert "games" in sim["summary"]


def test_no_sim_skips_simulation(write_manifest):
    rep = run(write_manifest, deck_text(), simulate=False)
    assert "simulation" not in rep.sections


def test_twenty_cards_for_ten_players_is_reported(write_manifest):
    rep = run(write_manifest, deck_text(values="1, 2, 3, 4, 5", count=1, lo=2, hi=10, extra=""))
    assert "too-few-cards" in codes(rep)


def test_no_number_card_under_a_rule_that_needs_one_to_start(write_manifest):
    extra = '''
[[cards]]
kind = "skip"
colors = "all"
count = 10
'''
    text = HEAD.format(lo=2, hi=4, hand=7, preset="no-mercy", options="") + extra
    rep = run(write_manifest, text)
    assert "no-start-card" in codes(rep)


def test_seven_zero_rule_without_sevens_and_zeros_is_an_error(write_manifest):
    rep = run(write_manifest, deck_text(values="1, 2, 3, 4, 5, 6, 8, 9",
                                        options="[rules.options]\nseven_zero = true"))
    errs = [f for f in rep.errors if f.code == "rule-needs-card"]
    assert errs and errs[0].where == "rules.options.seven_zero"
    assert "7" in errs[0].message and "0" in errs[0].message


def test_stacking_without_draw_cards_is_an_error(write_manifest):
    rep = run(write_manifest, deck_text(options="[rules.options]\nstacking = \"same-kind\"\nchallenge = false",
                                        extra=""))
    assert any(f.where == "rules.options.stacking" for f in rep.errors)


def test_challenge_without_a_challenge_card_is_reported(write_manifest):
    # the challenge is on by library default: without a Wild Draw Four it never applies (a warning)
    rep = run(write_manifest, deck_text(extra=""))
    assert any(f.where == "rules.options.challenge" for f in rep.warnings)
    assert not any(f.where == "rules.options.challenge" for f in rep.errors)


def test_flip_icon_card_without_power_rule_cannot_be_played(write_manifest):
    extra = WILDS + '''
[[cards]]
kind = "number"
colors = "all"
value = 3
count = 1
flip_icon = true
'''
    rep = run(write_manifest, deck_text(extra=extra))
    assert "effect-not-playable" in codes(rep)


def test_duel_effect_on_a_card_without_a_number_cannot_be_played(write_manifest):
    extra = WILDS + '''
[kinds.duel-skip]
category = "action"
name = "Duel Skip"
effects = ["skip", "duel"]

[[cards]]
kind = "duel-skip"
color = "red"
count = 1
points = 20
'''
    rep = run(write_manifest, deck_text(extra=extra))
    found = [f for f in rep.errors if f.code == "effect-not-playable"]
    assert [f.message for f in found] == ["'red Duel Skip' starts a duel but has no number to duel on"]


def test_mercy_limit_at_or_below_hand_size_is_an_error(write_manifest):
    rep = run(write_manifest, deck_text(options="[rules.options]\nmercy_limit = 7"))
    assert any(f.where == "rules.options.mercy_limit" for f in rep.errors)


@pytest.mark.parametrize("deck", ["classic", "no-mercy", "flex-spectrum"])
def test_bundled_decks_pass_the_rule_checks(deck):
    rep = check(deck, CheckOptions(simulate=False))
    assert not [f for f in rep.errors if f.code in ("rule-needs-card", "effect-not-playable")]


def test_check_cli_json_has_a_simulation_section():
    import json

    from click.testing import CliRunner

    from deckgen.cli import main

    res = CliRunner().invoke(main, ["check", "classic", "--json", "--games", "5"])
    assert res.exit_code == 0, res.output
    sim = json.loads(res.output)["simulation"]
    assert sim["games_per_table_size"] == 5 and len(sim["tables"]) == 9
    assert sim["summary"]


def test_duel_and_uno_options_that_cannot_apply_are_warned_about(write_manifest):
    rep = run(write_manifest, deck_text(options="[rules.options]\nduel_penalty_max = 4\nduel_penalty = 6\n"
                                                "uno_penalty = 0\nuno_catch = \"until-next-turn-ends\""), simulate=False)
    where = {f.where for f in rep.warnings}
    assert {"rules.options.duel_penalty_max", "rules.options.uno_catch", "rules.options.duel_penalty"} <= where
    assert not rep.errors
