"""The game as a state anyone steps (docs/engine.md): random answers from outside, 100,000
decisions and more on each bundled deck and the woodland example, the validity check after
every step; a copy answered the same way plays the same hand; a determinization keeps what its
seat has seen; an answer from the wrong seat, stale or not legal changes nothing; a state
written by hand is refused by the check."""

import dataclasses
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.rules.agents import GreedyAgent, RandomAgent
from deckgen.rules.decision import IllegalAnswer
from deckgen.rules.engine import Game
from deckgen.rules.state import InvalidState
from deckgen.rules.table import compile_deck
from tests.conftest import ROOT
from tests.test_composition import effect_lists

DECKS = ("classic", "no-mercy", "flex-spectrum", "woodland")
# beside each deck's own rules, the rarer questions: jump-in, stacking, the 7-0 swap
EXTRA = {"stacking": "same-kind", "jump_in": True, "seven_zero": True}


@cache
def _deck(name):
    return manifest.load_deck(ROOT / "decks" / "examples" / "woodland" / "woodland.toml" if name == "woodland"
                              else name)


def _tables(name):
    d = _deck(name)
    extra = {k: v for k, v in EXTRA.items() if k != "stacking" or d.rule_options.stacking == "off"}
    return compile_deck(d), compile_deck(d, d.rule_options.replace(**extra))


def _answer(d, pick):
    options = [*d.options, *([None] if d.passable else [])]
    return options[pick.randrange(len(options))]


def _play_on(g, copy, pick):
    """Answer the pending decision at random, the copy (if any) the same way; then the validity check."""
    d = g.decision
    a = _answer(d, pick)
    g.apply(a, d.player, d.serial)
    if copy is not None:
        copy.apply(a, d.player, d.serial)
    g.check()


@pytest.mark.slow
@pytest.mark.parametrize("deck", DECKS)
def test_a_hundred_thousand_random_decisions_keep_the_state_valid(deck):
    """Every seat answered from outside with random legal answers (None included when it is
    legal), over table sizes 2 to 6 and the deck's own and extra rules; the validity check after
    every step; at one step of each hand a copy, then the same answers to both: the same hand."""
    pick = random.Random(deck)
    steps = hands = 0
    kinds = set()
    tables = _tables(deck)
    while steps < 100_000:
        table = tables[hands % 2]
        players = 2 + hands % 5
        g = Game(table, players, f"step:{deck}:{hands}", None, record=hands % 3 == 0).start()
        g.check()
        copy_at = pick.randrange(200)
        copy = None
        while (d := g.decision) is not None:
            kinds.add(d.kind)
            if steps % 997 == 0:            # now and then an illegal answer: refused, nothing changes
                before = g.snapshot()
                with pytest.raises(IllegalAnswer):
                    g.apply(-7)
                assert g.snapshot() == before and g.decision == d
            if copy is None and g.turns >= copy_at:
                copy = g.clone()
            _play_on(g, copy, pick)
            steps += 1
        hands += 1
        assert g.over
        if copy is not None:
            assert copy.snapshot() == g.snapshot() and copy.log == g.log
    assert hands >= 10 and len(kinds) >= 5, (hands, kinds)


@pytest.mark.parametrize("deck", DECKS)
def test_a_copy_at_any_decision_plays_on_alone(deck):
    """A copy answered otherwise leaves the original as it was; the original then plays the
    same hand as a copy answered the same way."""
    table = _tables(deck)[1]
    pick = random.Random(1)
    g = Game(table, 4, f"copy:{deck}", [None, RandomAgent(), None, GreedyAgent()], record=True).start()
    for _ in range(30):
        if g.decision is None:
            break
        snap, log = g.snapshot(), list(g.log)
        other = g.clone()
        while other.decision is not None:
            other.apply(_answer(other.decision, pick))
        assert g.snapshot() == snap and g.log == log
        g.apply(_answer(g.decision, pick))
        g.check()


def _seen(g, p):
    """What seat p sees that a determinization must keep: its observation less the events."""
    return g.observation(p)._replace(events=())


@pytest.mark.parametrize("deck", DECKS)
def test_a_determinization_keeps_what_its_seat_has_seen_and_deals_the_rest_again(deck):
    table = _tables(deck)[1]
    pick = random.Random(2)
    differed = 0
    for i in range(8):
        g = Game(table, 4, f"det:{deck}:{i}", None, record=True).start()
        for _ in range(pick.randrange(40)):
            if g.decision is None:
                break
            g.apply(_answer(g.decision, pick))
        if g.decision is None:
            continue
        p = g.decision.player
        w = g.determinize(p, random.Random(i), seed=i)
        w.check()
        assert _seen(w, p) == _seen(g, p) and w.decision == g.decision and w.kont == g.kont
        assert Counter(w.all_cards()) == Counter(g.all_cards())
        differed += any(w.hands[q] != g.hands[q] for q in range(4) if q != p)
        while w.decision is not None:              # and it plays on by itself
            w.apply(_answer(w.decision, pick))
            w.check()
    assert differed


def test_a_determinization_keeps_the_cards_its_seat_knows_where_they_are():
    """Seat 0 swaps hands with seat 1 (the 7-0 rule): seat 0 knows seat 1 now holds its old hand,
    and every determinization from seat 0 leaves those cards there."""
    from deckgen.rules.scenario import Scripted, situation

    g = situation("classic", [["red-7", "red-1", "blue-2"], ["green-1", "green-2"], ["yellow-3", "yellow-4"]],
                  top="red-5", draw=["blue-9"] * 0, options={"seven_zero": True},
                  agents=[Scripted(plays=["red-7"], targets=[1]), None, Scripted()])
    g.turn()
    assert sorted(g.table.faces[f].id for f in g.hands[1]) == ["blue-2", "red-1"]
    while g.decision is None or g.decision.player != 1:
        g.turn()
    for seed in range(10):
        w = g.determinize(0, random.Random(seed))
        assert sorted(w.hands[1]) == sorted(g.hands[1])


def test_a_state_written_by_hand_is_refused_by_the_check():
    table = _tables("classic")[0]
    g = Game(table, 3, 1, None).start()           # at the first decision, every hand dealt
    g.check()
    bad = g.clone()
    bad.hands[0].append(bad.hands[1][0])           # a card in two hands
    with pytest.raises(InvalidState, match="more often"):
        bad.check()
    bad = g.clone()
    bad.hands[0].pop()                             # a card gone
    with pytest.raises(InvalidState, match="nowhere"):
        bad.check()
    bad = g.clone()
    bad.owed[1] = 2                                # lost turns not counted
    with pytest.raises(InvalidState, match="owed"):
        bad.check()
    bad = g.clone()
    bad.pile_key += 1                              # the pile's key out of step with its top card
    with pytest.raises(InvalidState, match="pile key"):
        bad.check()


def test_a_rules_option_changes_the_game_not_the_stepping():
    """The same hand stepped from outside with the bots' own answers is the hand the bots play,
    under extra rules too (jump-in's yes/no included)."""
    for deck in ("classic", "no-mercy", "flex-spectrum"):
        table = _tables(deck)[1]
        for seed in range(4):
            g = Game(table, 3, seed, [None, RandomAgent(), RandomAgent()]).start()
            ref = Game(table, 3, seed, [RandomAgent(), RandomAgent(), RandomAgent()]).run()
            me = RandomAgent()
            while (d := g.decision) is not None:
                g.apply(me.choose(d, g.rng))
            assert g.log == ref.log and g.snapshot() == ref.snapshot()


def test_options_of_every_decision_are_legal_answers():
    """Every option a decision offers is a legal answer to it (a jump-in offers yes and no)."""
    table = compile_deck(_deck("classic"), dataclasses.replace(_deck("classic").rule_options, jump_in=True))
    pick = random.Random(3)
    seen_jump = False
    for seed in range(40):
        g = Game(table, 4, seed, None).start()
        while (d := g.decision) is not None:
            assert all(d.legal(o) for o in d.options) and (d.passable or d.options)
            seen_jump |= d.kind.value == "jump_in"
            g.apply(_answer(d, pick))
    assert seen_jump


# ---------------------------------------------------------------- homemade cards, stepped from outside

HOME_OPTIONS = st.fixed_dictionaries({
    "stacking": st.sampled_from(["off", "same-kind", "equal-or-higher"]),
    "mercy_limit": st.sampled_from([0, 9, 14]),
    "no_playable_card": st.sampled_from(["draw-one", "draw-until-playable"]),
    "jump_in": st.booleans(),
    "seven_zero": st.booleans(),
    "uno_catch": st.sampled_from(["before-next-turn", "until-next-turn-ends"]),
})


# per deck, an action kind and a wild kind whose effects are replaced
HOME_KINDS = {"classic": ("skip", "wild"), "no-mercy": ("skip", "wild-color-roulette"),
              "flex-spectrum": ("skip", "wild-all-flip")}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(HOME_KINDS)), effect_lists(), effect_lists(), HOME_OPTIONS, st.integers(2, 5),
       st.randoms(use_true_random=False))
def test_homemade_cards_stepped_from_outside_keep_the_state_valid(base, action, wild, options, players, pick):
    """A bundled deck with an action kind and a wild kind given generated effect lists, under
    generated options, every seat answered from outside at random: the validity check after every
    answer, and a copy taken mid-hand plays the same hand. (It found a roulette's victim knocked
    out by the mercy limit, answering from outside, leaving a colour decision pending in a
    finished hand; a player knocked out by their own card asked its colour; a start card dealing
    a card to a first player it had knocked out.)"""
    deck = _deck(base)
    kinds = dict(deck.kinds)
    action_kind, wild_kind = HOME_KINDS[base]
    kinds[action_kind] = dataclasses.replace(kinds[action_kind], effects=action)
    kinds[wild_kind] = dataclasses.replace(kinds[wild_kind], effects=wild)
    table = compile_deck(dataclasses.replace(deck, kinds=kinds), deck.rule_options.replace(**options))
    g = Game(table, players, f"home:{pick.random()}", None, record=pick.random() < 0.5).start()
    g.check()
    steps, copy = 0, None
    while g.decision is not None and steps < 1500:
        if copy is None and steps == 30:
            copy = g.clone()
        _play_on(g, copy, pick)
        steps += 1
    if copy is not None:
        assert copy.snapshot() == g.snapshot()
