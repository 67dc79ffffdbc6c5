"""The greedy bot's cheap path (GreedyAgent.quick with a Glance, docs/engine.md): it answers every
decision exactly as the bot's decide() does with the whole observation, the Glance shows exactly
what the observation shows in its fields, and nothing hidden is reachable from it."""

import dataclasses

import pytest

from deckgen import manifest
from deckgen.rules import agents as A
from deckgen.rules.agents import GREEDY_BLIND, VALUES, GreedyAgent, View
from deckgen.rules.decision import DecisionKind, Glance, Observation
from deckgen.rules.engine import Game
from deckgen.rules.state import State
from deckgen.rules.table import WLD, compile_deck
from tests.test_engine_decisions import _reachable

DECKS = ("classic", "no-mercy", "flex-spectrum")
# beside each deck's own rules: the ones that ask the rarer questions (jump-in, stacking, seven-zero)
EXTRA = {"classic": {"stacking": "same-kind", "jump_in": True, "seven_zero": True},
         "no-mercy": {"jump_in": True},
         "flex-spectrum": {"stacking": "equal-or-higher", "jump_in": True}}
GLANCE_FIELDS = Glance._fields


def _tables(deck):
    base = manifest.load_deck(deck)
    yield compile_deck(base)
    yield compile_deck(dataclasses.replace(base, rule_options=base.rule_options.replace(**EXTRA[deck])))


def _glance_of(o: Observation) -> Glance:
    return Glance(*(getattr(o, name) for name in GLANCE_FIELDS))


def _reference_play(d, o):
    """The greedy valuation written out plainly, with no table precomputed: every effect of every
    option valued through VALUES at the decision, the first best option played."""
    t = o.table
    rivals = [q for q in range(len(o.alive)) if q != o.player and o.alive[q]]
    leader = min(rivals, key=lambda q: (o.hand_sizes[q], q)) if rivals else o.player
    view = View(o, -1, leader, leader == o.next_player())
    best, best_score = d.options[0], None
    for m in d.options:
        score = t.points[m >> 1] * A.POINTS_WEIGHT + (A.KEEP_WILD if t.move_category[m] == WLD else 0)
        score += A.KEEP_POWER if m & 1 else 0
        score += sum(VALUES[e.op](view._replace(move=m), e) for e in t.effects[m])
        if best_score is None or score > best_score:
            best, best_score = m, score
    return best


class BothWays(GreedyAgent):
    """A subclass, so the engine asks it through decide() with the whole observation; it checks
    that quick() with the observation's Glance gives the same answer."""

    def __init__(self, kinds):
        self.kinds = kinds

    def decide(self, d, o, rng):
        state = rng.getstate()
        full = super().decide(d, o, rng)
        seen = None if d.kind in GREEDY_BLIND or len(d.options) < 2 else _glance_of(o)
        fast = GreedyAgent.quick(self, d.kind, d.options, d.about, seen)
        assert fast == full and type(fast) is type(full), (d, full, fast)
        if d.kind is DecisionKind.PLAY:
            assert full == _reference_play(d, o), d
        assert rng.getstate() == state, "the greedy bot never draws on its generator"
        self.kinds.add(d.kind)
        return full


@pytest.mark.parametrize("deck", DECKS)
def test_quick_answers_every_decision_as_decide_does_and_plays_the_same_games(deck):
    kinds = set()
    for table in _tables(deck):
        for players in (2, 3, 5):
            for i in range(6):
                seed = f"glance:{players}:{i}"
                full = Game(table, players, seed, BothWays(kinds), record=True).run()
                fast = Game(table, players, seed, GreedyAgent(), record=True).run()
                assert fast.log == full.log and fast.snapshot() == full.snapshot(), (players, i)
    assert {DecisionKind.PLAY, DecisionKind.COLOR, DecisionKind.UNO} <= kinds, kinds


def test_the_engine_hands_the_greedy_bot_the_fields_of_its_observation(monkeypatch):
    """The Glance the engine builds equals the observation's fields, at every decision it gets
    one (its play, through best_play; the rest through quick); decisions with one option or of a
    blind kind get none."""
    table = compile_deck(manifest.load_deck("flex-spectrum"))
    seen_kinds = set()
    real_play = A.best_play
    for seed in range(6):
        bot = GreedyAgent()
        g = Game(table, 4, seed, bot, record=False)
        real = bot.quick

        def check(seen, kind, g=g):
            assert seen == _glance_of(g.observation(seen.player))
            assert seen.n_players == 4 and seen.next_player() == g.observation(seen.player).next_player()
            seen_kinds.add(kind)

        def spy(kind, options, about, seen, real=real):
            if seen is None:
                assert kind in GREEDY_BLIND or len(options) < 2
            else:
                check(seen, kind)
            return real(kind, options, about, seen)

        def spy_play(moves, seen):
            assert len(moves) > 1
            check(seen, DecisionKind.PLAY)
            return real_play(moves, seen)

        bot.quick = spy
        monkeypatch.setattr(A, "best_play", spy_play)
        g.run()
    assert DecisionKind.PLAY in seen_kinds and DecisionKind.COLOR in seen_kinds


def test_no_other_hand_is_reachable_from_a_glance():
    table = compile_deck(manifest.load_deck("classic"))
    got = []
    bot = GreedyAgent()
    g = Game(table, 3, 5, bot)
    real = bot.quick

    def keep(kind, options, about, seen):
        if seen is not None:
            got.append(seen)
        return real(kind, options, about, seen)

    bot.quick = keep
    g.setup()
    while not got and g.outcome is None:
        g.turn()
    glance = got[0]
    reach = _reachable(glance)
    assert not any(isinstance(o, State) for o in reach), "the game is reachable from a glance"
    others = [h for q, h in enumerate(g.hands) if q != glance.player] + [g.draw_pile, g.hands[glance.player]]
    assert not any(o is h for o in reach for h in others), "a hand or the pile itself is reachable"


def test_below_draws_what_randrange_draws():
    """agents.below(n, rng) is rng.randrange(n): the same number and the same generator state
    after it, for every n, and a generator of another class is asked itself."""
    import random

    from deckgen.rules.agents import below

    a, b = random.Random(7), random.Random(7)
    for n in list(range(1, 70)) * 20 + [2**k for k in range(1, 40)] + [2**k + 1 for k in range(1, 40)]:
        assert below(n, a) == b.randrange(n)
        assert a.getstate() == b.getstate()
    with pytest.raises(ValueError):
        below(0, a)

    class Counted(random.Random):
        calls = 0

        def randrange(self, *args, **kw):
            Counted.calls += 1
            return super().randrange(*args, **kw)

    below(5, Counted(1))
    assert Counted.calls == 1


def test_the_leader_is_the_first_rival_with_fewest_cards():
    """agents._leader against its plain definition, on every kind of table: ties, seats out,
    the player alone."""
    import random

    from deckgen.rules.agents import _leader

    table = compile_deck(manifest.load_deck("classic"))
    rng = random.Random(3)
    for _ in range(3000):
        n = rng.randrange(1, 8)
        sizes = tuple(rng.randrange(0, 4) for _ in range(n))
        alive = tuple(rng.random() < 0.8 for _ in range(n))
        p = rng.randrange(n)
        rivals = [q for q in range(n) if q != p and alive[q]]
        want = min(rivals, key=lambda q: (sizes[q], q)) if rivals else p
        assert _leader(Glance(p, (), sizes, alive, 1, table)) == want, (p, sizes, alive)
