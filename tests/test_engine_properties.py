"""Engine invariants, as property tests over decks, table sizes, seeds and agents."""

from collections import Counter
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.rules.agents import GreedyAgent, RandomAgent
from deckgen.rules.engine import Game
from deckgen.rules.replay import replay
from deckgen.rules.scenario import situation, table_for
from deckgen.rules.state import CAPPED, FINISHED, STALLED

DECKS = ["classic", "no-mercy", "flex-spectrum"]
AGENTS = {"random": RandomAgent(), "greedy": GreedyAgent()}


@lru_cache(maxsize=None)
def table(deck: str):
    return table_for(deck, turn_cap=300)


@lru_cache(maxsize=None)
def deck_model(deck: str):
    return manifest.load_deck(deck)


def play(deck, n, seed, agent):
    return Game(table(deck), n, seed, AGENTS[agent], record=True).run()


games = st.tuples(st.sampled_from(DECKS), st.integers(2, 10), st.integers(0, 2**32), st.sampled_from(list(AGENTS)))


@settings(max_examples=40, deadline=None)
@given(games)
def test_cards_are_conserved_throughout(args):
    deck, n, seed, agent = args
    g = play(deck, n, seed, agent)
    full = Counter(table(deck).deck_faces)
    assert Counter(g.all_cards()) == full
    checkpoints = range(0, len(g.log), max(1, len(g.log) // 15))
    for i in checkpoints:
        assert Counter(replay(g.t, n, g.log, upto=i).all_cards()) in (full, Counter())


@settings(max_examples=40, deadline=None)
@given(games)
def test_log_replays_to_the_same_state(args):
    deck, n, seed, agent = args
    g = play(deck, n, seed, agent)
    assert g.outcome in (FINISHED, STALLED, CAPPED)
    assert replay(g.t, n, g.log).snapshot() == g.snapshot()


@settings(max_examples=15, deadline=None)
@given(games)
def test_same_seed_gives_the_same_log(args):
    deck, n, seed, agent = args
    assert play(deck, n, seed, agent).log == play(deck, n, seed, agent).log


def reference_legal(deck, t, s, p, move, top_move) -> bool:
    """The matching rules of games.md, written from the Card objects, independently of the
    engine's compiled tables."""
    card, side = t.faces[move >> 1], move & 1
    kinds = deck.kinds
    opts = t.opts
    if side:
        if card.flex is None or (opts["power_cards"] and not s.power[p]):
            return False
    kind = kinds[card.flex.kind if side else card.kind]
    col = card.flex.color if side else card.color
    if s.colorless:
        return side == 0 and kinds[card.kind].category == "number"
    if card.colorless or kind.category == "wild":
        ok = True
    else:
        top = t.faces[top_move >> 1]
        top_kind = kinds[top.flex.kind if top_move & 1 else top.kind]
        current = t.colors[s.color] if s.color >= 0 else None
        ok = (col is not None and col == current) or \
            (kind.category == "number" and top_kind.category == "number" and not top.colorless
             and card.value == top.value) or \
            (kind.category == "action" and kind.id == top_kind.id)
    if ok and kind.has("challenge") and not opts["challenge"]:
        rule = opts["wild_draw_four_legal"]
        if rule == "no-current-color":
            ok = not any(t.faces[f].color == t.colors[s.color] for f in s.hands[p] if s.color >= 0)
    return ok


@settings(max_examples=40, deadline=None)
@given(games)
def test_every_played_card_was_legal(args):
    deck, n, seed, agent = args
    g = play(deck, n, seed, agent)
    t, model = g.t, deck_model(deck)
    top = {"move": None}
    checked = {"plays": 0}

    def on_event(s, ev):
        kind = ev[0]
        if kind == "start":
            top["move"] = 2 * ev[1]
        elif kind in ("play", "stack", "duel", "jump"):
            p, move = ev[1], ev[2]
            assert (move >> 1) in s.hands[p]
            if kind == "play":
                assert reference_legal(model, t, s, p, move, top["move"]), (deck, ev)
                checked["plays"] += 1
            elif kind == "stack":
                assert t.draw_val[move] > 0
            elif kind == "duel":
                assert t.duel[move >> 1]
            top["move"] = move

    replay(t, n, g.log, on_event=on_event)
    if g.outcome == FINISHED:
        assert checked["plays"] > 0


def test_a_game_where_nobody_can_act_is_reported_stalled_not_hung():
    g = situation("classic", [["blue-1"], ["green-2"], ["yellow-3"]], top="red-5")
    g.run()
    assert g.outcome == STALLED and g.winner is None
    assert g.turns <= 10


def test_a_game_that_runs_too_long_is_capped():
    t = table_for("flex-spectrum", turn_cap=60)
    outcomes = {Game(t, 8, seed, RandomAgent(), record=False).run().outcome for seed in range(5)}
    assert CAPPED in outcomes
    for seed in range(5):
        assert Game(t, 8, seed, RandomAgent(), record=False).run().turns <= 60
