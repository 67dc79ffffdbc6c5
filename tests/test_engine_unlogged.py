"""A game without a log (``record=False``, what simulation plays) is exactly the game a recorded
one is: same seed, same table at the end, same counters and generator state, same record.

There is one turn (docs/engine.md); what differs without a log is only how cards move (several
penalty cards drawn at once, ``op_draw_n``, where a log has one Draw event per card). A recorded
game's every step is logged and replayed by the property tests; this test ties the unlogged game
to it (docs/rules.md, "The game state and its log").
"""

import dataclasses
import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.options import OPTIONS
from deckgen.rules.bots import make as make_agent
from deckgen.rules.engine import Game
from deckgen.rules.simulate import record_of
from deckgen.rules.table import compile_deck

CLASSIC = manifest.load_deck("classic")
BASE = CLASSIC.rule_options
VARIANTS = {
    "classic": BASE,
    "draw-until-playable": dataclasses.replace(BASE, no_playable_card="draw-until-playable"),
    "must-play": dataclasses.replace(BASE, play_drawn="must", may_draw_instead=False),
    "no-bluff, no playable card": dataclasses.replace(BASE, challenge=False, wild_draw_four_legal="no-playable-card"),
    "seven-zero, long UNO window": dataclasses.replace(BASE, seven_zero=True, uno_catch="until-next-turn-ends"),
    "no UNO call, plain reverse": dataclasses.replace(BASE, uno_penalty=0, two_player_reverse="reverse"),
}


def _variants():
    out = {("classic", name): opts for name, opts in VARIANTS.items()}
    for deck in ("no-mercy", "flex-spectrum"):
        base = manifest.load_deck(deck).rule_options
        out[(deck, "bundled")] = base
        out[(deck, "draw-until-playable, must play")] = dataclasses.replace(
            base, no_playable_card="draw-until-playable", play_drawn="must", may_draw_instead=False)
        out[(deck, "no-playable-card, long UNO window")] = dataclasses.replace(
            base, wild_draw_four_legal="no-playable-card", uno_catch="until-next-turn-ends", seven_zero=True)
    out[("no-mercy", "mercy 12, equal-or-higher")] = dataclasses.replace(
        manifest.load_deck("no-mercy").rule_options, mercy_limit=12, stacking="equal-or-higher")
    out[("flex-spectrum", "no Power cards, stacking")] = dataclasses.replace(
        manifest.load_deck("flex-spectrum").rule_options, power_cards=False, stacking="same-kind")
    return out


ALL_VARIANTS = _variants()


@pytest.mark.parametrize("deck,variant", sorted(ALL_VARIANTS))
def test_a_game_without_a_log_is_the_logged_game(deck, variant):
    table = compile_deck(manifest.load_deck(deck), ALL_VARIANTS[(deck, variant)])
    for agent, players, i in itertools.product(("random", "greedy"), (2, 4, 7), range(8)):
        seed = f"fast:{variant}:{players}:{i}"
        fast = Game(table, players, seed, make_agent(agent), record=False).run()
        logged = Game(table, players, seed, make_agent(agent), record=True).run()
        assert fast.log is None and logged.log
        assert fast.snapshot() == logged.snapshot(), (agent, players, i)
        assert record_of(fast) == record_of(logged), (agent, players, i)


@cache
def _deck(name):
    return manifest.load_deck(name)


def _value(opt):
    if opt.type is bool:
        return st.booleans()
    if opt.choices:
        return st.sampled_from(opt.choices)
    lo = opt.minimum if opt.minimum is not None else 0
    return st.integers(lo, min(opt.maximum if opt.maximum is not None else lo + 10, lo + 12))


# random rule options (the turn cap kept low so capped games are tried too), and half the time
# jump-in turned off (whose chains of out-of-turn plays would otherwise be in most games)
OPTION_VALUES = st.fixed_dictionaries({name: _value(opt) for name, opt in OPTIONS.items() if name != "turn_cap"})
FAST_RULES = {"jump_in": False}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["classic", "no-mercy", "flex-spectrum"]), OPTION_VALUES, st.booleans(),
       st.integers(2, 7), st.integers(0, 2**32), st.sampled_from(["random", "greedy"]), st.integers(60, 400))
def test_any_deck_under_random_options_plays_the_same_game_with_or_without_a_log(deck, options, fast, players, seed, agent, cap):
    """On the three bundled decks, under random rule options: a log changes nothing: same table,
    counters and generator state at the end, same record."""
    d = _deck(deck)
    if fast:
        options = {**options, **FAST_RULES}
    opts = dataclasses.replace(d.rule_options, **options, turn_cap=cap)
    table = compile_deck(d, opts)
    plain = Game(table, players, seed, make_agent(agent), record=False).run()
    logged = Game(table, players, seed, make_agent(agent), record=True).run()
    assert plain.snapshot() == logged.snapshot()
    assert record_of(plain) == record_of(logged)
