"""The game stepped one decision at a time (docs/engine.md): every seat's questions go through
one door, bots see only their observation, an illegal, stale or misplaced answer changes
nothing, and a hand played from outside is the very hand the bots would have played."""

import gc
import re
import types

import pytest

from deckgen import manifest
from deckgen.rules.agents import Agent, GreedyAgent, RandomAgent
from deckgen.rules.decision import Decision, DecisionKind, IllegalAnswer, Observation
from deckgen.rules.engine import Game
from deckgen.rules.scenario import move, situation
from deckgen.rules.state import State
from deckgen.rules.table import compile_deck
from tests.conftest import ROOT

DECKS = ("classic", "no-mercy", "flex-spectrum")
TABLES = {d: compile_deck(manifest.load_deck(d)) for d in DECKS}


@pytest.mark.parametrize("deck", DECKS)
def test_a_hand_answered_from_outside_is_the_hand_the_bots_play(deck):
    """Seat 0 driven from outside, answered with the random bot's own choice on the game's
    generator: the same log, table, counters and generator state as the all-bot game."""
    t = TABLES[deck]
    kinds = set()
    for seed in range(12):
        g = Game(t, 4, seed, [None, RandomAgent(), GreedyAgent(), RandomAgent()]).start()
        ref = Game(t, 4, seed, [RandomAgent(), RandomAgent(), GreedyAgent(), RandomAgent()]).run()
        me = RandomAgent()
        while (d := g.decision) is not None:
            assert d.player == 0 and d.options
            kinds.add(d.kind)
            g.apply(me.choose(d, g.rng), 0, d.serial)
        assert g.over and g.log == ref.log and g.snapshot() == ref.snapshot()
    assert DecisionKind.PLAY in kinds and DecisionKind.UNO in kinds


@pytest.mark.parametrize("bad", ["a card", 10_000, True, None])
def test_an_illegal_answer_is_refused_and_changes_nothing(bad):
    g = situation("classic", [["red-5", "red-6", "blue-9"], ["blue-1", "blue-2"]], top="red-2",
                  agents=[None, RandomAgent()], options={"may_draw_instead": False})
    g.turn()
    d = g.decision
    assert d.kind is DecisionKind.PLAY and not d.passable
    before, log = g.snapshot(), list(g.log)
    with pytest.raises(IllegalAnswer, match="not a legal answer"):
        g.apply(bad, 0)
    assert not g.legal(bad, 0)
    assert g.snapshot() == before and g.log == log and g.decision == d


def test_the_wrong_player_and_a_stale_answer_are_refused():
    g = situation("classic", [["red-5", "red-6", "blue-9"], ["blue-1", "blue-2"]], top="red-2",
                  agents=[None, None])
    g.turn()
    d = g.decision
    before = g.snapshot()
    with pytest.raises(IllegalAnswer, match="waits for player 1"):
        g.apply(d.options[0], 1)
    with pytest.raises(IllegalAnswer, match="pending decision is"):
        g.apply(d.options[0], 0, serial=d.serial + 1)
    assert g.snapshot() == before and g.decision == d
    events = g.apply(move(g.table, "red-5"), 0, serial=d.serial)
    assert events and g.decision.player == 1
    with pytest.raises(IllegalAnswer, match="pending decision is"):
        g.apply(g.decision.options[0], 1, serial=d.serial)


def test_every_decision_kind_reaches_a_seat_driven_from_outside():
    """Over many hands of the three decks (jump-in and the 7-0 swap on), seat 0 is asked every
    kind of decision; each answer it gives is among the decision's options."""
    seen = set()
    for deck in DECKS:
        base = manifest.load_deck(deck)
        t = compile_deck(base, base.rule_options.replace(jump_in=True, seven_zero=True))
        for seed in range(25):
            g = Game(t, 3, f"kinds:{seed}", [None, RandomAgent(), RandomAgent()], bot_rng=None).start()
            me = RandomAgent()
            while (d := g.decision) is not None:
                seen.add(d.kind)
                assert all(d.legal(o) for o in d.options), d       # every option offered is a legal answer
                a = me.choose(d, g.rng)
                assert d.legal(a)
                g.apply(a, 0)
    missing = set(DecisionKind) - seen - {DecisionKind.STEAL, DecisionKind.TARGET}
    assert not missing, missing


def _reachable(root):
    """Every object reachable from root through data (not through functions, classes or modules,
    which reach the whole interpreter)."""
    seen, todo = {}, [root]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, (types.FunctionType, types.ModuleType, type, types.BuiltinFunctionType,
                                           types.MethodType)):
            continue
        seen[id(o)] = o
        todo.extend(gc.get_referents(o))
    return list(seen.values())


def test_a_bot_given_an_observation_cannot_reach_another_hand():
    t = TABLES["classic"]
    got = []

    class Peeker(Agent):
        name = "peeker"

        def play(self, d, o, rng):
            got.append(o)
            return d.options[0]

    g = Game(t, 3, 5, [Peeker(), RandomAgent(), RandomAgent()])
    g.setup()
    g.turn()
    obs = got[0]
    assert isinstance(obs, Observation) and obs.player == 0 and len(obs.hand) >= 7
    reach = _reachable(obs)
    assert not any(isinstance(o, State) for o in reach), "the game is reachable from an observation"
    others = [g.hands[1], g.hands[2], g.draw_pile]
    assert not any(o is h for o in reach for h in others), "another hand is reachable"
    assert obs.hand_sizes[1] == len(g.hands[1]) and not hasattr(obs, "hands")


def test_an_observation_hides_what_other_players_drew():
    g = Game(TABLES["classic"], 3, 2, [None, RandomAgent(), RandomAgent()]).start()
    while (d := g.decision) is not None and g.turns < 30:
        g.apply(d.options[0])
    o = g.observation(0)
    draws = [e for e in o.events if type(e).__name__ == "Draw"]
    assert all(e.face == -1 for e in draws if e.player != 0)
    assert all(e.face >= 0 for e in draws if e.player == 0)


def test_a_bot_that_answers_illegally_is_named():
    class Rogue(Agent):
        name = "rogue"

        def play(self, d, o, rng):
            return -5

    with pytest.raises(IllegalAnswer, match="bot 'rogue' of player 1"):
        Game(TABLES["classic"], 2, 1, [Rogue(), RandomAgent()]).run()


def test_decision_legal_tells_true_from_one():
    d = Decision(0, DecisionKind.TARGET, (1, 2))
    assert d.legal(1) and not d.legal(True) and not d.legal(None)
    y = Decision(0, DecisionKind.UNO, (True, False))
    assert y.legal(True) and y.legal(False) and not y.legal(1)


def test_the_documented_example_runs():
    text = (ROOT / "docs" / "engine.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, "docs/engine.md", "exec"), {})


def test_bots_may_draw_from_a_generator_of_their_own():
    """bot_rng: the bots' choices no longer touch the game's generator, so the deal is the same
    whatever the bots draw, and the same two seeds give the same hand."""
    import random

    t = TABLES["classic"]
    a = Game(t, 3, 8, RandomAgent(), bot_rng=random.Random(1)).run()
    b = Game(t, 3, 8, RandomAgent(), bot_rng=random.Random(2)).run()
    c = Game(t, 3, 8, RandomAgent(), bot_rng=random.Random(1)).run()
    assert a.log[:2] == b.log[:2] and a.log != b.log
    assert a.log == c.log


def test_a_game_has_no_thread_and_a_copy_steps_on_by_itself():
    """clone() at any decision, then the same answers: the same hand; answering the copy leaves
    the original as it was."""
    import random
    import threading

    t = TABLES["flex-spectrum"]
    before = threading.active_count()
    g = Game(t, 3, 0, [None, RandomAgent(), RandomAgent()]).start()
    pick = random.Random(9)

    def answer(d):
        opts = [*d.options, *([None] if d.passable else [])]
        return opts[pick.randrange(len(opts))]

    for _ in range(12):
        g.apply(answer(g.decision))
        assert g.decision is not None
    copy = g.clone()
    snap = g.snapshot()
    copy.apply(copy.decision.options[-1])
    assert g.snapshot() == snap and threading.active_count() == before
    copy = g.clone()
    while (d := g.decision) is not None:
        a = answer(d)
        g.apply(a)
        copy.apply(a)
    assert copy.log == g.log and copy.snapshot() == g.snapshot()


def test_an_observation_shows_a_waiting_penalty_but_not_whether_it_was_played_fairly():
    from deckgen.rules.state import Pending

    g = situation("classic", [["red-1"], ["blue-1", "blue-2"], ["green-1"]], top="wild-draw-four",
                  options={"stacking": "same-kind"})
    g.op_pending(Pending(1, 4, 4, g.table.kinds.index("wild-draw-four"), 1, (0, True)))
    o = g.observation(1)
    assert o.penalty.victim == 1 and o.penalty.total == 4 and o.penalty.offender == 0
    assert not hasattr(o.penalty, "challenge") and o.power == (True, True, True) and o.duel is None


@pytest.mark.parametrize("deck", ["classic", "no-mercy", "flex-spectrum"])
def test_a_hand_arranged_without_a_trace_plays_the_same_and_samples_nothing(deck):
    """arrange(trace=False) (a searcher's play-out): the same hand to the same end, the turn cap
    included, with no hand-size samples taken."""
    t = compile_deck(manifest.load_deck(deck))
    ends = set()
    for seed in range(6):
        source = Game(t, 4, seed, [GreedyAgent()] * 4, record=False)
        source.setup()
        source.turn()
        position, turns = source.position(), source.turns
        played = []
        for trace in (True, False):
            g = Game(t, 4, seed, [GreedyAgent()] * 4, record=False, turn_cap=turns + 3 + seed * 7)
            g.arrange(position, turns=turns, trace=trace).run()
            played.append((g.outcome, g.winner, g.turns, [list(h) for h in g.hands], len(g.trace) > 0))
        (o1, w1, n1, h1, sampled), (o2, w2, n2, h2, sampled_without) = played
        assert (o1, w1, n1, h1) == (o2, w2, n2, h2)
        assert sampled and not sampled_without
        ends.add(str(o2))
    assert "capped" in ends            # the cap still ends a hand arranged without a trace


def test_a_game_seeded_with_a_generator_draws_from_it():
    """Game(..., seed) takes a generator too (the expert's imagined hands are given one that is
    seeded only if drawn from): the same hand as the seed it was made from, drawn from that object."""
    import random

    t = compile_deck(manifest.load_deck("classic"))
    rng = random.Random(5)
    g = Game(t, 4, rng, [GreedyAgent()] * 4, record=True).run()
    assert g.rng is rng
    assert g.log == Game(t, 4, 5, [GreedyAgent()] * 4, record=True).run().log


def test_a_hand_ended_by_an_answer_from_outside_asks_nothing_more_of_the_card():
    """A wild [roulette, choose_color]: the victim, answering the roulette's colour from outside,
    turns cards until the mercy limit knocks them out and the hand ends; the card's player was
    then still asked for the colour, a decision pending in a hand that was over (the validity
    check refused the state). Played by bots the card stopped there; now so does a stepped game."""
    import dataclasses

    from deckgen.effects import Effect
    from deckgen.rules.scenario import table_for

    deck = manifest.load_deck("classic")
    kinds = dict(deck.kinds)
    kinds["wild"] = dataclasses.replace(kinds["wild"], effects=(Effect("roulette"), Effect("choose_color")))
    t = table_for(dataclasses.replace(deck, kinds=kinds), mercy_limit=4)
    g = situation(None, [["wild", "red-1"], ["blue-1"]], top="red-5", draw=["green-1", "green-2", "yellow-1"],
                  table=t, agents=[None, None])
    g.turn()
    g.apply(move(t, "wild"), 0)
    assert g.decision.kind is DecisionKind.ROULETTE_COLOR and g.decision.player == 1
    g.apply(t.colors.index("red"), 1)
    assert g.over and g.outcome == "finished" and g.winner == 0
    assert g.decision is None
    g.check()
