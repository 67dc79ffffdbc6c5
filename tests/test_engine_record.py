"""The engine's counters (rules/record.py): draw causes, plays per seat and kind, hand-size trace,
events. Small scripted games whose counts are worked out by hand, and invariants over random games."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen.rules.agents import GreedyAgent, RandomAgent
from deckgen.rules.engine import Game
from deckgen.rules.record import CAUSES, TRACE_EVERY, TRACE_MAX, GameRecord
from deckgen.rules.scenario import Scripted, situation, table_for
from deckgen.rules.simulate import play_record, record_of


def cause(rec: GameRecord, name: str) -> int:
    return rec.draws_by_cause[CAUSES.index(name)]


def test_scripted_classic_game_counts_each_draw_by_cause():
    # p0 plays a Draw Two: p1 draws 2 (penalty, Draw Two) and loses the turn; p2 has nothing
    # to play and draws 1 (no_play); p0 plays a Wild Draw Four, p1 does not challenge: 4 more
    # (penalty, Wild Draw Four) and p1 loses the turn; p2 again draws 1 (no_play).
    agents = [Scripted(plays=["red-draw-two", "wild-draw-four"], colors=["blue"]), Scripted(),
              Scripted(play_drawn=False)]
    g = situation("classic", [["red-draw-two", "wild-draw-four", "green-9", "green-8"], ["yellow-1"],
                              ["yellow-2"]], top="red-5", draw=["yellow-3"] * 8, agents=agents)
    for _ in range(6):                        # p1's two lost turns are turns too
        g.turn()
    rec = record_of(g)
    t = g.table
    assert cause(rec, "penalty") == 6
    assert cause(rec, "no_play") == 2
    assert rec.draws == 8 == sum(rec.draws_by_cause)
    assert rec.penalty_by_kind[t.kinds.index("draw-two")] == 2
    assert rec.penalty_by_kind[t.kinds.index("wild-draw-four")] == 4
    assert rec.plays_by_seat_kind[0][t.kinds.index("draw-two")] == 1
    assert rec.plays_by_seat_kind[0][t.kinds.index("wild-draw-four")] == 1
    assert sum(map(sum, rec.plays_by_seat_kind[1:])) == 0


def test_a_lost_challenge_and_a_missed_uno_have_their_own_causes():
    # p0 plays a legal Wild Draw Four (no red card in hand); p1 challenges and loses: 4 + 2
    agents = [Scripted(plays=["wild-draw-four"], colors=["blue"], uno=False),
              Scripted(challenge=True, catch=True), Scripted(catch=True)]
    g = situation("classic", [["wild-draw-four", "green-9", "green-8"], ["yellow-1"], ["yellow-2"]],
                  top="red-5", draw=["yellow-3"] * 10, agents=agents)
    g.turn()
    rec = record_of(g)
    assert cause(rec, "challenge") == 6
    assert cause(rec, "uno") == 0          # two cards left: no UNO call yet
    g2 = situation("classic", [["red-9", "green-8"], ["yellow-1"], ["yellow-2"]], top="red-5",
                   draw=["yellow-3"] * 4, agents=[Scripted(uno=False), Scripted(catch=True), Scripted()])
    g2.turn()
    assert cause(record_of(g2), "uno") == 2


def test_stacked_penalty_of_two_cards_is_drawn_as_a_stack():
    agents = [Scripted(plays=["red-draw-four"]), Scripted(plays=["wild-draw-six"]), Scripted(stack=False)]
    g = situation("no-mercy", [["red-draw-four", "red-1"], ["wild-draw-six", "blue-1"], ["green-1"]],
                  top="red-5", draw=["yellow-1"] * 12, agents=agents)
    for _ in range(3):
        g.turn()
    rec = record_of(g)
    assert cause(rec, "stack") == 10 and cause(rec, "penalty") == 0


def test_everyone_draws_and_roulette_causes():
    g = situation("flex-spectrum", [["red-draw-two-flex-everyone-draws-1", "red-1"], ["yellow-1"], ["green-1"]],
                  top="red-5", color_id="brown", draw=["yellow-2"] * 6,
                  agents=[Scripted(plays=["red-draw-two-flex-everyone-draws-1@flex"]), Scripted(), Scripted()])
    g.turn()
    assert cause(record_of(g), "everyone") == 2
    agents = [Scripted(plays=["wild-color-roulette"]), Scripted(colors=["blue"]), Scripted()]
    g = situation("no-mercy", [["wild-color-roulette", "red-1"], ["yellow-1"], ["green-1"]], top="red-5",
                  draw=["yellow-2", "green-2", "blue-2", "red-3"], agents=agents)
    g.turn()
    assert cause(record_of(g), "roulette") == 3


def test_trace_samples_every_few_turns_and_events_carry_turn_and_seat():
    t = table_for("no-mercy", turn_cap=400)
    g = Game(t, 6, "trace", RandomAgent(), record=False).run()
    rec = record_of(g)
    turns = [s[0] for s in rec.hand_trace]
    assert turns[0] == 0 and len(turns) <= TRACE_MAX
    assert all(b - a >= TRACE_EVERY for a, b in itertools.pairwise(turns))
    assert all(len(s[2]) == 6 for s in rec.hand_trace)
    for name, turn, seat in rec.events:
        assert name in ("dry", "knockout", "stalled", "capped")
        assert 0 <= turn <= rec.turns
        assert seat == -1 if name in ("stalled", "capped") else 0 <= seat < 6
    assert sum(1 for e in rec.events if e[0] == "knockout") == rec.knockouts


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["classic", "no-mercy", "flex-spectrum"]), st.integers(2, 8), st.integers(0, 2**31),
       st.booleans())
def test_every_draw_has_one_cause_and_plays_add_up(deck, n, seed, greedy):
    t = table_for(deck, turn_cap=400)
    agent = GreedyAgent() if greedy else RandomAgent()
    rec = play_record(t, agent, seed, n, 0)
    assert sum(rec.draws_by_cause) == rec.draws
    assert sum(rec.penalty_by_kind) == rec.draws_by_cause[CAUSES.index("penalty")]
    assert [sum(col) for col in zip(*rec.plays_by_seat_kind, strict=True)] == list(rec.plays_by_kind)
    g = Game(t, n, f"{seed}:{n}:0", agent, record=False).run()
    assert sum(rec.held_by_kind) == sum(len(h) for h in g.hands)
    if rec.dry:
        assert any(e[0] == "dry" for e in rec.events)


def test_a_tables_legality_cache_never_travels_or_outlives_its_facts():
    """The compiled table owns its legality cache: a pickled table (sent to a worker or a cluster)
    and a copy with other facts start without it, so no caller has to clear it."""
    import dataclasses
    import pickle

    from deckgen import manifest
    from deckgen.rules.bots import make as make_agent
    from deckgen.rules.engine import Game
    from deckgen.rules.table import compile_deck

    deck = manifest.load_deck("classic")
    t = compile_deck(deck)
    Game(t, 3, 1, make_agent("random"), record=False).run()
    assert t.cache and t.handlers
    sent = pickle.loads(pickle.dumps(t))
    assert sent.cache == {} and sent.handlers == () and t.cache
    other = dataclasses.replace(t, rules=t.rules.replace(stacking="same-kind"))
    assert other.cache == {} and other.cache is not t.cache
    a = Game(sent, 3, 2, make_agent("random"), record=False).run()
    b = Game(t, 3, 2, make_agent("random"), record=False).run()
    assert a.snapshot() == b.snapshot()
