"""A whole game to the target score: hands in a row, the deal passing on, scores added up.

:func:`play_match` plays one match; :func:`run_matches` plays many per table size (on every
core or on a Dask cluster, each match seeded from (seed, table size, match index) alone, so the
results do not depend on the number of cores or machines) and :func:`summarize` reports them
(``deckgen simulate --match``).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterable

from deckgen.errors import DeckgenError, error
from deckgen.progress import Progress
from deckgen.rules import expert
from deckgen.rules.agents import AGENTS, Agent, make_agent
from deckgen.rules.engine import Game
from deckgen.rules.expert import wants_events
from deckgen.rules.runner import Work, run_tasks
from deckgen.rules.state import CAPPED, FINISHED
from deckgen.rules.table import Table

CHUNK = 5


class Match:
    """Hands in a row until someone reaches the deck's target score (``scoring.target``): what
    :func:`play_match` plays, and what a table with people drives hand by hand
    (``game = match.new_hand(agents)``, play it, ``match.end_hand(game)``, until ``match.over``).

    Only the winner of a hand scores (the cards left in the other hands, plus the knock-out
    bonus); a hand that stalls or is capped scores nothing. The dealer moves one seat on each
    hand; hand i is seeded from (seed, i) alone."""

    def __init__(self, table: Table, n_players: int, seed=1, max_hands: int = 500):
        self.table, self.n, self.seed, self.max_hands = table, n_players, seed, max_hands
        self.scores = [0] * n_players
        self.hands = 0
        self.dealer = n_players - 1
        self.outcome: str | None = None if max_hands > 0 else CAPPED
        self.winner: int | None = None

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def new_hand(self, agents, record: bool = False) -> Game:
        """The next hand, dealt by the current dealer, with the scores so far."""
        return Game(self.table, self.n, f"{self.seed}:hand:{self.hands}", agents, record=record or wants_events(agents),
                    dealer=self.dealer, scores=tuple(self.scores))

    def end_hand(self, g: Game) -> None:
        """Count a played hand: its winner scores; the match ends at the target or the hand limit."""
        self.hands += 1
        if g.outcome == FINISHED and g.winner is not None:
            self.scores[g.winner] += g.score
        best = max(self.scores)
        if best >= self.table.target:
            self.outcome, self.winner = FINISHED, self.scores.index(best)
        elif self.hands >= self.max_hands:
            self.outcome = CAPPED
        self.dealer = (self.dealer + 1) % self.n

    def result(self) -> dict:
        return {"outcome": self.outcome, "winner": self.winner, "scores": list(self.scores), "hands": self.hands}


def play_match(table: Table, n_players: int, seed=1, agent: str | Agent = "random", max_hands: int = 500) -> dict:
    """Play a :class:`Match` with bots; returns the final scores, the winner (highest total),
    hands played and the outcome."""
    agents = make_agent(agent) if isinstance(agent, str) else agent
    m = Match(table, n_players, seed, max_hands)
    while not m.over:
        m.end_hand(m.new_hand(agents).run())
    return m.result()


def match_seed(seed: int, players: int, index: int) -> str:
    return f"{seed}:match:{players}:{index}"


def _prepare(spec: tuple[Table, str, int]) -> tuple[Table, Agent]:
    table, agent, think = spec
    return table, expert.make(agent, think)


def _chunk(state: tuple[Table, Agent], task: tuple[int, int, int, int]) -> list[dict]:
    table, agent = state
    players, start, stop, seed = task
    return [play_match(table, players, match_seed(seed, players, i), agent) for i in range(start, stop)]


def run_matches(table: Table, players: Iterable[int], matches: int, seed: int = 1, agent: str = "random",
                workers: int | None = None, progress: Progress | None = None,
                cluster: str | None = None, think: int = expert.THINK) -> dict[int, list[dict]]:
    """``matches`` matches at each table size: table size -> match results in match order."""
    sizes = list(players)
    tasks = [(n, s, min(s + CHUNK, matches), seed) for n in sizes for s in range(0, matches, CHUNK)]
    out: dict[int, list[dict]] = {n: [] for n in sizes}
    total = matches * len(sizes)
    done = 0
    workers = workers or os.cpu_count() or 1
    if len(tasks) == 1:
        workers = 1
    for task, results in run_tasks(Work(_prepare, (table, agent, think), _chunk), tasks, workers, cluster):
        out[task[0]].extend(results)
        done += len(results)
        if progress:
            progress("playing matches", done, total)
    return out


def summarize(players: int, results: list[dict]) -> dict:
    """Matches played, how many reached the target, mean hands per match and win rate by seat
    (seat 1 plays first in the first hand) with 95 % Wilson intervals."""
    from deckgen.balance.stats import wilson

    won = [r for r in results if r["outcome"] == FINISHED]
    wins = [0] * players
    for r in won:
        wins[r["winner"]] += 1
    n = len(won)
    return {
        "players": players,
        "matches": len(results),
        "finished": n,
        "unfinished": len(results) - n,
        "hands_per_match": {"mean": round(statistics.fmean(r["hands"] for r in results), 2) if results else 0.0,
                            "median": statistics.median(r["hands"] for r in results) if results else 0,
                            "max": max((r["hands"] for r in results), default=0)},
        "winning_score": round(statistics.fmean(max(r["scores"]) for r in won), 1) if won else 0.0,
        "win_rate_by_seat": [round(w / n, 3) if n else 0.0 for w in wins],
        "win_rate_ci": [[round(x, 3) for x in wilson(w, n)] for w in wins],
    }


def simulate_matches(deck, players: Iterable[int] | None = None, matches: int = 200, seed: int = 1,
                     agent: str = "random", workers: int | None = None, progress: Progress | None = None,
                     cluster: str | None = None, think: int = expert.THINK) -> dict:
    """Matches to the deck's target score over table sizes; a JSON-ready report."""
    from deckgen.rules.table import compile_deck

    if agent not in AGENTS:
        raise DeckgenError(error("agent", "--agent", f"unknown agent '{agent}'", hint="agents: " + ", ".join(AGENTS)))
    table = compile_deck(deck)
    sizes = list(players or range(deck.players_min, deck.players_max + 1))
    res = run_matches(table, sizes, matches, seed, agent, workers, progress, cluster, think)
    return {"deck": deck.id, "agent": agent, "seed": seed, "matches_per_table_size": matches,
            "target": table.target, "tables": [summarize(n, res[n]) for n in sizes]}


def to_text(rep: dict) -> str:
    """The match report as a table for people."""
    lines = [f"{rep['deck']}: {rep['matches_per_table_size']} matches to {rep['target']} points per table size, "
             f"agent {rep['agent']}, seed {rep['seed']}",
             f"{'players':>7} {'matches':>7} {'to target':>9} {'hands mean/med/max':>19} {'winning score':>13}"]
    for t in rep["tables"]:
        h = t["hands_per_match"]
        lines.append(f"{t['players']:>7} {t['matches']:>7} {t['finished']:>9} "
                     f"{h['mean']:>9.1f}/{h['median']:>4g}/{h['max']:>4} {t['winning_score']:>13.1f}")
    lines.append("match win rate by seat (seat 1 plays first in the first hand):")
    for t in rep["tables"]:
        lines.append(f"  {t['players']:>2}: " + " ".join(f"{w:.2f}" for w in t["win_rate_by_seat"]))
    return "\n".join(lines)
