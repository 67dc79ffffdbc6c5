"""A whole game to the target score: hands in a row, the deal passing on, scores added up.

:func:`play_match` plays one match; :func:`run_matches` plays many per table size (on every
core or on a Dask cluster, each match seeded from (seed, table size, match index) alone, so the
results do not depend on the number of cores or machines) and :func:`summarize` reports them
(``deckgen simulate --match``).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckgen.progress import Progress
from deckgen.rules import bots
from deckgen.rules.agents import Agent
from deckgen.rules.engine import Game
from deckgen.rules.record import Outcome
from deckgen.rules.simulate import PlayOptions
from deckgen.rules.table import Table
from deckgen.runner import Work, run_tasks

if TYPE_CHECKING:
    from deckgen.model import Deck

CHUNK = 5             # matches per task

Task = tuple[int, int, int, int]      # (table size, first match, end, seed)


@dataclass(frozen=True)
class MatchResult:
    """One match: how it ended, the winner's seat (None unless finished), every seat's final
    score and the hands played."""

    outcome: Outcome
    winner: int | None
    scores: tuple[int, ...]
    hands: int

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.value, "winner": self.winner, "scores": list(self.scores),
                "hands": self.hands}


class Match:
    """Hands in a row until someone reaches the deck's target score (``scoring.target``): what
    :func:`play_match` plays, and what a table with people drives hand by hand
    (``game = match.new_hand(agents)``, play it, ``match.end_hand(game)``, until ``match.over``).

    Only the winner of a hand scores (the cards left in the other hands, plus the knock-out
    bonus); a hand that stalls or is capped scores nothing. The dealer moves one seat on each
    hand; hand i is seeded from (seed, i) alone."""

    def __init__(self, table: Table, n_players: int, seed: int | str = 1, max_hands: int = 500):
        self.table, self.n, self.seed, self.max_hands = table, n_players, seed, max_hands
        self.scores = [0] * n_players
        self.hands = 0
        self.dealer = n_players - 1
        self.outcome: Outcome | None = None if max_hands > 0 else Outcome.CAPPED
        self.winner: int | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def new_hand(self, agents: Any, record: bool = False) -> Game:
        """The next hand, dealt by the current dealer, with the scores so far."""
        return Game(self.table, self.n, f"{self.seed}:hand:{self.hands}", agents, record=record or bots.wants_events(agents),
                    dealer=self.dealer, scores=tuple(self.scores))

    def end_hand(self, g: Game) -> None:
        """Count a played hand: its winner scores; the match ends at the target or the hand limit."""
        self.hands += 1
        if g.outcome == Outcome.FINISHED and g.winner is not None:
            self.scores[g.winner] += g.score
        best = max(self.scores)
        if best >= self.table.target:
            self.outcome, self.winner = Outcome.FINISHED, self.scores.index(best)
        elif self.hands >= self.max_hands:
            self.outcome = Outcome.CAPPED
        self.dealer = (self.dealer + 1) % self.n

    def result(self) -> MatchResult:
        """The match so far (call it once :attr:`over`)."""
        return MatchResult(self.outcome or Outcome.CAPPED, self.winner, tuple(self.scores), self.hands)


def play_match(table: Table, n_players: int, seed: int | str = 1, agent: str | Agent = "random",
               max_hands: int = 500) -> MatchResult:
    """Play a :class:`Match` with bots; returns the final scores, the winner (highest total),
    hands played and the outcome."""
    agents = bots.make(agent) if isinstance(agent, str) else agent
    m = Match(table, n_players, seed, max_hands)
    while not m.over:
        m.end_hand(m.new_hand(agents).run())
    return m.result()


def match_seed(seed: int, players: int, index: int) -> str:
    return f"{seed}:match:{players}:{index}"


def _prepare(spec: tuple[Table, str, int]) -> tuple[Table, Any]:
    table, agent, think = spec
    return table, bots.make(agent, think)


def _chunk(state: tuple[Table, Any], task: Task) -> list[MatchResult]:
    table, agent = state
    players, start, stop, seed = task
    return [play_match(table, players, match_seed(seed, players, i), agent) for i in range(start, stop)]


def run_matches(table: Table, players: Iterable[int], options: PlayOptions | None = None,
                progress: Progress | None = None) -> dict[int, list[MatchResult]]:
    """``options.games`` matches at each table size: table size -> match results in match order."""
    options = options or PlayOptions()
    sizes = list(players)
    matches = options.games
    tasks = [(n, s, min(s + CHUNK, matches), options.seed) for n in sizes for s in range(0, matches, CHUNK)]
    out: dict[int, list[MatchResult]] = {n: [] for n in sizes}
    total = matches * len(sizes)
    done = 0
    workers = options.workers or os.cpu_count() or 1
    if len(tasks) == 1:
        workers = 1
    work = Work(_prepare, (table, options.agent, options.think), _chunk)
    for task, results in run_tasks(work, tasks, workers, options.cluster):
        out[task[0]].extend(results)
        done += len(results)
        if progress:
            progress("playing matches", done, total)
    return out


@dataclass(frozen=True)
class HandsFigures:
    """Hands per match: mean, median and the most."""

    mean: float
    median: float
    max: int

    def to_json(self) -> dict[str, float]:
        return {"mean": self.mean, "median": self.median, "max": self.max}


@dataclass(frozen=True)
class MatchSummary:
    """The matches of one table size; the win rates are over the matches that reached the
    target, with 95 % Wilson intervals (seat 1 plays first in the first hand)."""

    players: int
    matches: int
    finished: int
    unfinished: int
    hands_per_match: HandsFigures
    winning_score: float
    win_rate_by_seat: tuple[float, ...]
    win_rate_ci: tuple[tuple[float, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "matches": self.matches, "finished": self.finished,
                "unfinished": self.unfinished, "hands_per_match": self.hands_per_match.to_json(),
                "winning_score": self.winning_score, "win_rate_by_seat": list(self.win_rate_by_seat),
                "win_rate_ci": [list(ci) for ci in self.win_rate_ci]}


@dataclass(frozen=True)
class MatchReport:
    """What ``deckgen simulate --match`` reports."""

    deck: str
    agent: str
    seed: int
    matches_per_table_size: int
    target: int
    tables: tuple[MatchSummary, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as ``deckgen simulate --match --json`` prints it."""
        return {"deck": self.deck, "agent": self.agent, "seed": self.seed,
                "matches_per_table_size": self.matches_per_table_size, "target": self.target,
                "tables": [t.to_json() for t in self.tables]}


def summarize(players: int, results: Sequence[MatchResult]) -> MatchSummary:
    """Matches played, how many reached the target, mean hands per match and win rate by seat
    (seat 1 plays first in the first hand) with 95 % Wilson intervals."""
    from deckgen.stats import wilson

    won = [r for r in results if r.outcome == Outcome.FINISHED and r.winner is not None]
    wins = [0] * players
    for r in won:
        if r.winner is not None:
            wins[r.winner] += 1
    n = len(won)
    hands = [r.hands for r in results]
    return MatchSummary(
        players=players, matches=len(results), finished=n, unfinished=len(results) - n,
        hands_per_match=HandsFigures(round(statistics.fmean(hands), 2) if hands else 0.0,
                                     statistics.median(hands) if hands else 0, max(hands, default=0)),
        winning_score=round(statistics.fmean(max(r.scores) for r in won), 1) if won else 0.0,
        win_rate_by_seat=tuple(round(w / n, 3) if n else 0.0 for w in wins),
        win_rate_ci=tuple(_rounded_pair(wilson(w, n)) for w in wins))


def _rounded_pair(ci: tuple[float, float]) -> tuple[float, float]:
    return round(ci[0], 3), round(ci[1], 3)


def simulate_matches(deck: Deck, players: Iterable[int] | None = None, options: PlayOptions | None = None,
                     progress: Progress | None = None) -> MatchReport:
    """``options.games`` matches to the deck's target score at each table size; ``.to_json()``
    is what ``deckgen simulate --match --json`` prints."""
    from deckgen.rules.table import compile_deck

    options = options or PlayOptions()
    bots.check(options.agent)
    table = compile_deck(deck)
    sizes = list(players or range(deck.players_min, deck.players_max + 1))
    res = run_matches(table, sizes, options, progress)
    return MatchReport(deck=deck.id, agent=options.agent, seed=options.seed, matches_per_table_size=options.games,
                       target=table.target, tables=tuple(summarize(n, res[n]) for n in sizes))


def to_text(rep: MatchReport) -> str:
    """The match report as a table for people."""
    lines = [f"{rep.deck}: {rep.matches_per_table_size} matches to {rep.target} points per table size, "
             f"agent {rep.agent}, seed {rep.seed}",
             f"{'players':>7} {'matches':>7} {'to target':>9} {'hands mean/med/max':>19} {'winning score':>13}"]
    for t in rep.tables:
        h = t.hands_per_match
        lines.append(f"{t.players:>7} {t.matches:>7} {t.finished:>9} "
                     f"{h.mean:>9.1f}/{h.median:>4g}/{h.max:>4} {t.winning_score:>13.1f}")
    lines.append("match win rate by seat (seat 1 plays first in the first hand):")
    for t in rep.tables:
        lines.append(f"  {t.players:>2}: " + " ".join(f"{w:.2f}" for w in t.win_rate_by_seat))
    return "\n".join(lines)
