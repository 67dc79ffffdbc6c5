"""The engine's inlined loop for the common rules (no log, no stacking, jump-in, Flex or Mercy)
plays exactly the game the general loop plays: same seed, same table at the end, same counters.

A recorded game (``record=True``) always takes the general loop, whose every step is logged and
replayed by the property tests; this test ties the fast loop to it, so the rules live in one
meaning whichever loop runs them (docs/rules.md, "The game state and its log").
"""

import dataclasses
import itertools

import pytest

from deckgen import manifest
from deckgen.rules.agents import make_agent
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


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fast_loop_plays_the_same_game_as_the_logged_loop(variant):
    table = compile_deck(CLASSIC, VARIANTS[variant])
    for agent, players, i in itertools.product(("random", "greedy"), (2, 4, 7), range(8)):
        seed = f"fast:{variant}:{players}:{i}"
        fast = Game(table, players, seed, make_agent(agent), record=False).run()
        logged = Game(table, players, seed, make_agent(agent), record=True).run()
        assert fast.log is None and logged.log, "the two games must take the two different loops"
        assert fast.snapshot() == logged.snapshot(), (agent, players, i)
        assert record_of(fast) == record_of(logged), (agent, players, i)
