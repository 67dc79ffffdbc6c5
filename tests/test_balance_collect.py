"""The balance report's figures from game records: hand-written records and a scripted game,
every expected figure worked out by hand."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import stats
from deckgen.balance import collect
from deckgen.rules.record import CAUSES, TRACE_EVERY, GameRecord
from deckgen.rules.scenario import Scripted, situation
from deckgen.rules.simulate import record_of

KINDS = ("number", "draw-two", "wild")


PARTS = {"penalty": (0, 0, 0), "seat_kind": ((0, 0, 0), (0, 0, 0)), "held": (0, 0, 0), "trace": (), "events": ()}


def rec(outcome="finished", winner=None, turns=10, causes=(), **parts) -> GameRecord:
    """A record by hand; ``parts``: any of PARTS (penalty and held per kind, plays per seat and
    kind, the hand trace, the events)."""
    assert set(parts) <= set(PARTS), set(parts) - set(PARTS)
    p = {**PARTS, **parts}
    penalty, seat_kind, held, trace, events = p["penalty"], p["seat_kind"], p["held"], p["trace"], p["events"]
    by_cause = [0] * len(CAUSES)
    for name, n in causes:
        by_cause[CAUSES.index(name)] += n
    plays = tuple(sum(col) for col in zip(*seat_kind))
    return GameRecord(outcome, winner, turns, turns, sum(by_cause), 0, sum(e[0] == "dry" for e in events),
                      sum(e[0] == "knockout" for e in events), 0, 0, 0, 0, plays, tuple(by_cause), penalty,
                      seat_kind, held, trace, events)


# four 2-player games, turn cap 100
GAMES = [
    rec("finished", 0, 10, [("no_play", 3), ("penalty", 2)], penalty=(0, 2, 0), seat_kind=((3, 1, 0), (2, 0, 1)),
        held=(2, 0, 0), trace=((0, 90, (7, 7)), (5, 85, (5, 9)))),
    rec("finished", 1, 25, [("no_play", 4)], seat_kind=((4, 0, 0), (3, 0, 1)), held=(1, 1, 0),
        trace=((0, 90, (7, 7)), (5, 88, (6, 8)), (10, 86, (4, 9)), (15, 84, (3, 6)), (20, 83, (2, 2))),
        events=(("dry", 22, 1),)),
    rec("capped", None, 100, [("no_play", 6), ("uno", 2), ("stack", 2)], seat_kind=((1, 0, 0), (0, 0, 0)),
        held=(3, 0, 2), trace=((0, 90, (7, 7)), (5, 80, (10, -1))), events=(("knockout", 7, 1), ("capped", 100, -1))),
    rec("stalled", None, 40, held=(4, 4, 0), events=(("stalled", 40, -1),)),
]


@pytest.fixture(scope="module")
def axis():
    return collect.axis_for([GAMES], 100, TRACE_EVERY)


def test_axis_bins_finished_games_and_runs_the_trace_to_the_last_sample(axis):
    # longest game that was not capped: 40 turns -> steps of 2 (1, 2, 5 x 10^k; at most 24 bars)
    assert axis.edges[:3] == (0, 2, 4) and axis.edges[-1] == 42
    # 90th percentile of 10, 25, 40, 100 is 100, but no game was traced past turn 20
    assert (axis.trace_step, axis.trace_end, axis.turn_cap) == (5, 20, 100)


def test_turn_figures(axis):
    t = collect.turn_figures(GAMES, axis)
    assert t["median"] == 32.5 and t["p90"] == 100 and t["mean"] == 43.75
    counts = t["histogram"]["counts"]
    assert sum(counts) == 3 and counts[5] == counts[12] == counts[20] == 1    # 10, 25, 40 turns
    assert t["capped"] == 1


def test_draws_by_cause_split_penalty_by_kind():
    d = collect.draw_figures(GAMES, KINDS)
    # no playable card 3+4+6 = 13, the Draw Two penalty 2, stacked 2, UNO 2 over 4 games
    assert d["by_cause"] == {"no_play": 3.25, "penalty:draw-two": 0.5, "stack": 0.5, "uno": 0.5}
    assert d["per_game"] == 4.75 == sum(d["by_cause"].values())


def test_hand_trace_median_band_and_draw_pile(axis):
    pts = collect.hand_figures(GAMES, axis)["points"]
    assert [p["turn"] for p in pts] == [0, 5, 10, 15, 20]
    assert pts[0] == {"turn": 0, "games": 3, "median": 7, "p10": 7, "p90": 7, "draw_pile": 90}
    # turn 5: hands 5, 9, 6, 8 and 10 (the knocked-out seat left out); piles 85, 88, 80
    assert pts[1] == {"turn": 5, "games": 3, "median": 8, "p10": 5, "p90": 10, "draw_pile": 85}
    assert pts[2] == {"turn": 10, "games": 1, "median": 6.5, "p10": 4, "p90": 9, "draw_pile": 86}
    assert pts[4]["median"] == 2 and pts[4]["draw_pile"] == 83


def test_win_rate_by_seat_counts_finished_games_only():
    s = collect.seat_figures(GAMES, 2)
    assert s["finished"] == 2
    assert [x["wins"] for x in s["by_seat"]] == [1, 1]
    lo, hi = stats.wilson(1, 2)
    assert s["by_seat"][0]["ci"] == [round(lo, 4), round(hi, 4)]
    assert s["first_player"]["rate"] == 0.5 and not s["first_player"]["significant"]


def test_kind_figures_played_held_and_hands_that_played_it():
    k = collect.kind_figures(GAMES, 2, KINDS)
    assert k["number"]["played_per_game"] == 3.25 and k["number"]["held_per_game"] == 2.5
    assert k["draw-two"]["held_per_game"] == 1.25 and k["wild"]["held_per_game"] == 0.5
    # finished games: numbers played by both seats in both games (2 winners of 4 hands);
    # the Draw Two by the winner of game 1; wilds by seat 2 in both games (won game 2)
    assert (k["number"]["hands_played"], k["number"]["wins"]) == (4, 2)
    assert (k["draw-two"]["hands_played"], k["draw-two"]["wins"]) == (1, 1)
    assert (k["wild"]["hands_played"], k["wild"]["wins"]) == (2, 1)
    pooled = collect.pooled_kinds([{"games": 4, "kinds": k}], KINDS)
    assert pooled["wild"]["win_rate"] == 0.5 and pooled["wild"]["fair"] == 0.5


def test_events_by_turn_bin_and_seat(axis):
    e = collect.event_figures(GAMES, 2, axis)
    assert e["capped"]["games"] == 1 and e["capped"]["by_turn"][-1] == 1          # the cap column
    assert e["stalled"]["by_turn"][20] == 1
    assert e["dry"]["by_turn"][11] == 1 and e["dry"]["by_seat"] == [0, 1]
    assert e["knockout"]["by_turn"][3] == 1 and e["knockout"]["by_seat"] == [0, 1]


def test_a_scripted_game_counted_by_hand():
    # p0 plays a Draw Two: p1 draws 2 and loses the turn; p2 cannot play and draws 1; p0 plays a
    # Wild Draw Four, unchallenged: p1 draws 4 and loses the turn; p2 draws 1 again.
    agents = [Scripted(plays=["red-draw-two", "wild-draw-four"], colors=["blue"]), Scripted(),
              Scripted(play_drawn=False)]
    g = situation("classic", [["red-draw-two", "wild-draw-four", "green-9", "green-8"], ["yellow-1"],
                              ["yellow-2"]], top="red-5", draw=["yellow-3"] * 8, agents=agents)
    for _ in range(20):                       # until p2 has drawn twice (lost turns are turns too)
        if len(g.hands[2]) == 3:
            break
        g.turn()
    assert [len(h) for h in g.hands] == [2, 7, 3]
    d = collect.draw_figures([record_of(g)], g.table.kinds)
    assert d["by_cause"] == {"no_play": 2, "penalty:draw-two": 2, "penalty:wild-draw-four": 4}
    assert d["per_game"] == 8


def test_compare_gives_no_difference_for_the_same_games_and_a_small_p_for_different_ones():
    same = collect.compare(GAMES, GAMES)
    assert same["turns"] == pytest.approx(1.0) and same["capped"] == 1.0
    short = [rec("finished", 0, 5) for _ in range(30)]
    long = [rec("capped", None, 100) for _ in range(30)]
    diff = collect.compare(long, short)
    assert diff["turns"] < 1e-6 and diff["capped"] < 1e-6 and diff["first_player"] == 1.0


def test_nice_steps():
    assert [collect.nice_step(s, 10) for s in (7, 40, 95, 1234, 0)] == [1, 5, 10, 200, 1]


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["classic", "no-mercy", "flex-spectrum"]), st.integers(2, 6), st.integers(0, 2**31))
def test_figures_of_real_games_add_up(deck, n, seed):
    from deckgen.rules.agents import RandomAgent
    from deckgen.rules.scenario import table_for
    from deckgen.rules.simulate import play_record

    t = table_for(deck, turn_cap=300)
    recs = [play_record(t, RandomAgent(), seed, n, i) for i in range(4)]
    axis = collect.axis_for([recs], 300, TRACE_EVERY)
    g = collect.group_figures(recs, n, t.kinds, axis)
    assert sum(g["turns"]["histogram"]["counts"]) + g["capped"] == 4 == g["finished"] + g["stalled"] + g["capped"]
    assert sum(g["draws"]["by_cause"].values()) == pytest.approx(g["draws"]["per_game"], abs=0.01 * len(CAUSES) * 4)
    assert sum(s["wins"] for s in g["seats"]["by_seat"]) == g["finished"]
    assert g["events"]["capped"]["games"] == g["capped"] and g["events"]["stalled"]["games"] == g["stalled"]
    for p in g["hands"]["points"]:
        assert 1 <= p["games"] <= 4 and p["p10"] <= p["median"] <= p["p90"]
    played = sum(k["played_per_game"] for k in g["kinds"].values()) * 4
    assert played == pytest.approx(sum(sum(r.plays_by_kind) for r in recs), abs=0.01 * len(t.kinds))
