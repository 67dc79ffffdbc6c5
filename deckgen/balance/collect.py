"""From game records to the figures behind every chart of the balance report.

Everything here works on :class:`deckgen.rules.record.GameRecord` values alone, so the figures
can be checked against records written by hand. One *group* is the games of one variant, one
agent and one table size; groups of different variants at the same agent and table size share
their axes (histogram bins, hand-trace steps) so the charts can put them side by side.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from deckgen import stats
from deckgen.balance.figures import (
    DrawFigures,
    EventFigures,
    GroupFigures,
    HandFigures,
    HandPoint,
    KindFigures,
    PooledKind,
    SeatFigures,
    SeatRow,
    SkillFigures,
    TurnFigures,
)
from deckgen.rules.record import Cause, Event, GameRecord, Outcome, rounded

FINISHED, STALLED, CAPPED = Outcome.FINISHED, Outcome.STALLED, Outcome.CAPPED
EVENTS: tuple[Event, ...] = tuple(Event)      # in the report's order
MAX_BINS = 24          # game-length histogram bars at most
TRACE_POINTS = 40      # hand-size points along a game at most


@dataclass(frozen=True)
class Axis:
    """Shared axes of one agent and table size, across variants."""

    edges: tuple[int, ...]         # histogram bin edges in turns: [e0, e1), [e1, e2) ...
    trace_step: int                # hand-size points every this many turns
    trace_end: int                 # ... up to this turn (most games have ended by then)
    turn_cap: int


def nice_step(span: float, parts: int) -> int:
    """A round step (1, 2, 5 x 10^k) that cuts span into at most ``parts`` pieces."""
    if span <= 0:
        return 1
    raw = span / parts
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return max(1, int(m * mag))
    return max(1, int(10 * mag))


def axis_for(groups: Sequence[Sequence[GameRecord]], turn_cap: int, trace_every: int) -> Axis:
    """The shared axes of the same agent and table size under several variants."""
    ended = [r.turns for recs in groups for r in recs if r.outcome != CAPPED]
    top = max(ended, default=1)
    step = nice_step(top, MAX_BINS)
    nbins = max(1, math.ceil((top + 1) / step))
    edges = tuple(i * step for i in range(nbins + 1))
    # the hand trace runs until 90 % of the games of every variant have ended
    ends = []
    for recs in groups:
        if recs:
            ends.append(stats.rank_quantile(sorted(r.turns for r in recs), 0.9))
    last = max((s[0] for recs in groups for r in recs for s in r.hand_trace[-1:]), default=0)
    end = int(min(max(ends, default=0), last))
    tstep = max(trace_every, math.ceil(max(end, 1) / TRACE_POINTS / trace_every) * trace_every)
    return Axis(edges, tstep, max(end, tstep), turn_cap)


def group_figures(recs: Sequence[GameRecord], players: int, kinds: Sequence[str], axis: Axis) -> GroupFigures:
    """Every figure of one group (one variant, agent and table size)."""
    n = len(recs)
    finished = [r for r in recs if r.outcome == FINISHED]
    return {
        "players": players,
        "games": n,
        "finished": len(finished),
        "stalled": sum(1 for r in recs if r.outcome == STALLED),
        "capped": sum(1 for r in recs if r.outcome == CAPPED),
        "standing": sum(1 for r in finished if r.knockouts == players - 1),
        "turns": turn_figures(recs, axis),
        "draws": draw_figures(recs, kinds),
        "hands": hand_figures(recs, axis),
        "seats": seat_figures(recs, players),
        "kinds": kind_figures(recs, players, kinds),
        "events": event_figures(recs, players, axis),
    }


def turn_figures(recs: Sequence[GameRecord], axis: Axis) -> TurnFigures:
    turns = sorted(r.turns for r in recs)
    edges = axis.edges
    counts = [0] * (len(edges) - 1)
    step = edges[1] - edges[0]
    for r in recs:
        if r.outcome != CAPPED:
            counts[min(len(counts) - 1, r.turns // step)] += 1
    return {
        "mean": _r(statistics.fmean(turns)) if turns else 0.0,
        "median": _r(stats.median(turns)),
        "p90": stats.rank_quantile(turns, 0.9),
        "max": turns[-1] if turns else 0,
        "histogram": {"edges": list(edges), "counts": counts},
        "capped": sum(1 for r in recs if r.outcome == CAPPED),
        "turn_cap": axis.turn_cap,
    }


def cause_keys(kinds: Sequence[str]) -> list[str]:
    """The draw causes as the report splits them: the unstacked penalty per kind of card."""
    out: list[str] = []
    for c in Cause:
        if c == Cause.PENALTY:
            out += [f"penalty:{k}" for k in kinds]
        else:
            out.append(c.value)
    return out


def draw_figures(recs: Sequence[GameRecord], kinds: Sequence[str]) -> DrawFigures:
    """Cards drawn per game (after the deal), by cause; the penalty split by the card's kind."""
    n = len(recs) or 1
    total: dict[str, float] = {}
    for i, c in enumerate(Cause):
        if c == Cause.PENALTY:
            for k, kind in enumerate(kinds):
                total[f"penalty:{kind}"] = sum(r.penalty_by_kind[k] for r in recs) / n
        else:
            total[c.value] = sum(r.draws_by_cause[i] for r in recs) / n
    return {"per_game": _r(sum(r.draws for r in recs) / n),
            "by_cause": {k: _r(v) for k, v in total.items() if v}}


def hand_figures(recs: Sequence[GameRecord], axis: Axis) -> HandFigures:
    """Hand size along the game: per step, the median and the 10th-90th percentile of every
    seated player's hand, the median draw pile, and how many games are still running."""
    step, end = axis.trace_step, axis.trace_end
    nsteps = end // step + 1
    hands: list[list[int]] = [[] for _ in range(nsteps)]
    piles: list[list[int]] = [[] for _ in range(nsteps)]
    for r in recs:
        seen = -1
        for turn, pile, sizes in r.hand_trace:
            b = turn // step
            if b >= nsteps:
                break
            if b == seen:
                continue            # one sample per game and step
            seen = b
            piles[b].append(pile)
            hands[b].extend(h for h in sizes if h >= 0)
    points: list[HandPoint] = []
    for b in range(nsteps):
        if not piles[b]:
            continue
        hs = sorted(hands[b])
        points.append({"turn": b * step, "games": len(piles[b]), "median": stats.median(hs),
                       "p10": stats.rank_quantile(hs, 0.1), "p90": stats.rank_quantile(hs, 0.9),
                       "draw_pile": stats.median(piles[b])})
    return {"step": step, "points": points}


def seat_figures(recs: Sequence[GameRecord], players: int) -> SeatFigures:
    """Win rate by seat over finished games, with Wilson 95 % intervals; seat 1 plays first."""
    finished = [r for r in recs if r.outcome == FINISHED and r.winner is not None]
    n = len(finished)
    wins = [0] * players
    for r in finished:
        if r.winner is not None:
            wins[r.winner] += 1
    fair = 1 / players
    seats: list[SeatRow] = []
    for s in range(players):
        lo, hi = stats.wilson(wins[s], n)
        seats.append({"seat": s + 1, "wins": wins[s], "rate": _r(wins[s] / n, 4) if n else 0.0,
                      "ci": [_r(lo, 4), _r(hi, 4)]})
    rate = wins[0] / n if n else 0.0
    lo, hi = stats.wilson(wins[0], n)
    return {"finished": n, "fair": _r(fair, 4), "by_seat": seats,
            "first_player": {"rate": _r(rate, 4), "ci": [_r(lo, 4), _r(hi, 4)],
                             "advantage": _r(rate - fair, 4) if n else 0.0,
                             "p": _r(stats.score_test(wins[0], n, fair), 6),
                             "significant": bool(n) and not (lo <= fair <= hi)}}


def kind_figures(recs: Sequence[GameRecord], players: int, kinds: Sequence[str]) -> dict[str, KindFigures]:
    """Per card kind: plays per game, cards held at the end per game, and how the hands that
    played it did (finished games: seats that played at least one, and how many of them won)."""
    n = len(recs) or 1
    out: dict[str, KindFigures] = {}
    for k, kind in enumerate(kinds):
        played = sum(r.plays_by_kind[k] for r in recs)
        held = sum(r.held_by_kind[k] for r in recs)
        hands = wins = 0
        for r in recs:
            if r.outcome != FINISHED:
                continue
            for s, row in enumerate(r.plays_by_seat_kind):
                if row[k]:
                    hands += 1
                    wins += r.winner == s
        out[kind] = {"played_per_game": _r(played / n, 3), "held_per_game": _r(held / n, 3),
                     "hands_played": hands, "wins": wins, "fair": _r(1 / players, 4)}
    return out


def event_figures(recs: Sequence[GameRecord], players: int, axis: Axis) -> dict[str, EventFigures]:
    """The events the checker warns about: games with one, how many, in which turns (the
    game-length bins, the last one holding the turn cap) and at which seats."""
    edges = axis.edges
    step = edges[1] - edges[0]
    nb = len(edges) - 1
    out: dict[str, EventFigures] = {}
    for ev in EVENTS:
        games = count = 0
        bins = [0] * (nb + 1)            # the extra bin: at the turn cap
        seats = [0] * players
        for r in recs:
            hit = False
            for name, turn, seat in r.events:
                if name != ev:
                    continue
                hit = True
                count += 1
                bins[nb if turn >= axis.turn_cap else min(nb - 1, turn // step)] += 1
                if 0 <= seat < players:
                    seats[seat] += 1
            games += hit
        out[ev.value] = {"games": games, "count": count, "by_turn": bins, "by_seat": seats}
    return out


# ---------------------------------------------------------------- across groups

def pooled_kinds(groups: Sequence[GroupFigures], kinds: Sequence[str]) -> dict[str, PooledKind]:
    """Kind figures over every table size of one agent and variant (win rates with their fair
    share, the mean of 1/players over the same hands, and a Wilson interval)."""
    out: dict[str, PooledKind] = {}
    total_games = sum(g["games"] for g in groups) or 1
    for kind in kinds:
        rows = [(g["kinds"][kind], g["games"]) for g in groups if kind in g["kinds"]]
        played = sum(f["played_per_game"] * n for f, n in rows) / total_games
        held = sum(f["held_per_game"] * n for f, n in rows) / total_games
        hands = sum(f["hands_played"] for f, _ in rows)
        wins = sum(f["wins"] for f, _ in rows)
        fair = sum(f["hands_played"] * f["fair"] for f, _ in rows) / hands if hands else 0.0
        lo, hi = stats.wilson(wins, hands)
        out[kind] = {"played_per_game": _r(played, 3), "held_per_game": _r(held, 3), "hands_played": hands,
                     "wins": wins, "win_rate": _r(wins / hands, 4) if hands else None,
                     "ci": [_r(lo, 4), _r(hi, 4)] if hands else None, "fair": _r(fair, 4)}
    return out


def compare(base: Sequence[GameRecord], other: Sequence[GameRecord]) -> dict[str, float]:
    """Raw p-values of the tests between two variants' games at one agent and table size.

    turns, draws: Mann-Whitney U; capped, first_player: Fisher's exact test."""
    tests = {
        "turns": stats.mann_whitney([r.turns for r in other], [r.turns for r in base])[1],
        "draws": stats.mann_whitney([r.draws for r in other], [r.draws for r in base])[1],
    }
    cb, co = sum(r.outcome == CAPPED for r in base), sum(r.outcome == CAPPED for r in other)
    tests["capped"] = stats.fisher_exact(co, len(other) - co, cb, len(base) - cb)
    fb = [r for r in base if r.outcome == FINISHED]
    fo = [r for r in other if r.outcome == FINISHED]
    wb, wo = sum(r.winner == 0 for r in fb), sum(r.winner == 0 for r in fo)
    tests["first_player"] = stats.fisher_exact(wo, len(fo) - wo, wb, len(fb) - wb)
    return tests


_r = rounded


# ---------------------------------------------------------------- does skill matter?

def skill_group(results: Sequence[tuple[str, int, int]], players: int) -> SkillFigures:
    """One skilled player's games at one table size: (outcome, winner, its seat) per game ->
    its win rate over the finished games with a 95 % Wilson interval, against a fair share."""
    finished = [r for r in results if r[0] == FINISHED]
    n = len(finished)
    wins = sum(1 for _, winner, seat in finished if winner == seat)
    fair = 1 / players
    lo, hi = stats.wilson(wins, n)
    return {"players": players, "games": len(results), "finished": n, "wins": wins,
            "rate": _r(wins / n, 4) if n else 0.0, "ci": [_r(lo, 4), _r(hi, 4)], "fair": _r(fair, 4),
            "ratio": _r(wins / n / fair, 2) if n else 0.0,
            "p": _r(stats.score_test(wins, n, fair), 6) if n else 1.0}
