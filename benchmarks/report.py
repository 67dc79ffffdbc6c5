"""Balance report speed: the default ``deckgen report`` of a deck, timed phase by phase; and
the expert's strength.

    .venv/bin/python benchmarks/report.py [--deck flex-spectrum] [--games 200] [--skill-games 30] [--think 16]
                                          [--jobs N] [--cluster ADDRESS] [--repeat 1]
    .venv/bin/python benchmarks/report.py --strength classic,no-mercy,flex-spectrum [--players 4]
                                          [--skill-games 400] [--think 16] [--opponent greedy] [--seed 1]

The default (200 games per table size and agent, both agents, the deck's whole player range, and
the "Does skill matter?" section's 30 expert games per table size and opponent) is what
``deckgen report flex-spectrum`` runs; without the skill section (``--skill-games 0``) the
target is at most 15 s on a 2-core machine. ``--strength`` plays one expert among greedy (or
random) players at one table size, every seat in turn, and prints its win rate with the 95 %
Wilson interval: the figure docs/expert.md quotes (``--seed``: the games' seed, so that a setting
tuned on one seed can be checked on games it was not tuned on).
Prints wall time per phase (check + simulation, figures, PDF), the CPU time of this process
and its workers, and the load average, since a busy machine stretches wall times.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckgen.balance import report as R
from deckgen.balance.pdf import report_pdf


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def once(deck: str, games: int, jobs: int | None, skill_games: int = R.SKILL_GAMES, think: int = R.SKILL_THINK,
         cluster: str | None = None) -> dict[str, float]:
    opts = R.ReportOptions(games=games, workers=jobs, skill_games=skill_games, think=think, cluster=cluster)
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    the_deck = R._load_checked(deck)
    lang = the_deck.language
    variants = R.make_variants(the_deck, (), [], lang)
    players = list(range(the_deck.players_min, the_deck.players_max + 1))
    t1 = time.perf_counter()
    records = R.simulate_variants(variants, players, opts)
    t2 = time.perf_counter()
    rep = R.figures(the_deck, variants, records, players, opts, lang)
    t3 = time.perf_counter()
    data = report_pdf(rep)
    with tempfile.TemporaryDirectory() as tmp:
        R.write_report(rep, Path(tmp) / "r.pdf")
    t4 = time.perf_counter()
    turns = sum(r.turns for recs in records.values() for r in recs if hasattr(r, "turns"))
    return {"check": t1 - t0, "simulate": t2 - t1, "figures": t3 - t2, "pdf": t4 - t3, "total": t4 - t0,
            "cpu": cpu_seconds() - cpu0, "games": sum(len(v) for v in records.values()), "turns": turns,
            "pages": data.count(b"/Type /Page\n") or data.count(b"/Type /Page"), "bytes": len(data)}


def _strength_state(spec: tuple[dict[str, Any], str, int, int]) -> tuple[dict[str, Any], Any, int, int]:
    from deckgen.rules import bots

    tables, opponent, think, seed = spec
    return tables, bots.make(opponent), think, seed


def _strength_play(state: tuple[dict[str, Any], Any, int, int],
                   task: tuple[str, int, int, int]) -> list[tuple[str, int, int]]:
    tables, opponent, think, seed = state
    deck, n, start, stop = task
    return [R.skill_game(tables[deck], opponent, think, seed, n, i) for i in range(start, stop)]


def strength(decks: list[str], a: argparse.Namespace) -> None:
    """One expert among ``a.opponent`` players at ``a.players`` seats, ``a.skill_games`` games per
    deck (every seat in turn), seeded by ``a.seed``: its win rate with the 95 % Wilson interval."""
    from deckgen.balance import collect
    from deckgen.rules.table import compile_deck
    from deckgen.runner import Work, run_tasks

    players, games, think, seed = a.players, a.skill_games or 400, a.think, a.seed
    tables = {d: compile_deck(R._load_checked(d)) for d in decks}
    tasks = [(d, players, s, min(s + 4, games)) for d in decks for s in range(0, games, 4)]
    out: dict[str, list[tuple[str, int, int]]] = {d: [] for d in decks}
    t0 = time.perf_counter()
    for task, res in run_tasks(Work(_strength_state, (tables, a.opponent, think, seed), _strength_play), tasks,
                                 a.jobs, a.cluster):
        out[task[0]] += res
    wall = time.perf_counter() - t0
    print(f"one expert (think {think}) among {players - 1} {a.opponent} players, {games} games per deck, every seat "
          f"in turn, seed {seed}; {wall:.0f} s wall, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for d in decks:
        g = collect.skill_group(out[d], players)
        print(f"  {d:>14}: expert wins {g['wins']}/{g['finished']} = {100 * g['rate']:.1f} % "
              f"(95 % Wilson {100 * g['ci'][0]:.1f}-{100 * g['ci'][1]:.1f} %), fair share {100 * g['fair']:.0f} %")


def decision_time(decks: list[str], players: int, think: int, games: int = 20) -> None:
    """CPU time per decision the expert searches (more than one candidate answer), measured in
    this process over a few games against greedy players."""
    from deckgen.rules.agents import GreedyAgent
    from deckgen.rules.decision import Decision, Observation
    from deckgen.rules.engine import Game
    from deckgen.rules.expert import ExpertAgent
    from deckgen.rules.table import compile_deck

    class Timed(ExpertAgent):
        searched = 0
        cpu = 0.0

        def _search(self, d: Decision, o: Observation, rng: random.Random,
                    cands: Sequence[tuple[int | None, int | None]]) -> tuple[int | None, int | None]:
            t0 = time.process_time()
            best = super()._search(d, o, rng, cands)
            if len(cands) > 1:
                Timed.searched += 1
                Timed.cpu += time.process_time() - t0
            return best

    for deck in decks:
        Timed.searched, Timed.cpu = 0, 0.0
        table = compile_deck(R._load_checked(deck))
        for i in range(games):
            bots: list[Any] = [GreedyAgent()] * players
            bots[i % players] = Timed(think)
            Game(table, players, f"time:{i}", bots, record=True).run()
        print(f"  {deck:>14}: {1000 * Timed.cpu / max(1, Timed.searched):.1f} ms CPU per searched decision "
              f"(think {think}, {Timed.searched} decisions in {games} games)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="flex-spectrum")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--skill-games", type=int, default=None)
    ap.add_argument("--think", type=int, default=R.SKILL_THINK)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--cluster", default=None)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--strength", default=None, metavar="DECK,DECK,...")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponent", default="greedy", choices=["greedy", "random"])
    ap.add_argument("--seed", type=int, default=1, help="the --strength games' seed")
    a = ap.parse_args()
    if a.strength:
        strength(a.strength.split(","), a)
        decision_time(a.strength.split(","), a.players, a.think)
        return
    load0 = os.getloadavg()[0]
    skill = R.SKILL_GAMES if a.skill_games is None else a.skill_games
    runs = [once(a.deck, a.games, a.jobs, skill, a.think, a.cluster) for _ in range(a.repeat)]
    best = min(runs, key=lambda r: r["total"])
    print(f"deckgen report {a.deck}: {a.games} games per table size and agent, {a.jobs or os.cpu_count()} workers, "
          f"{R.CHUNK} games per task; load average {load0:.2f} -> {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"  {best['games']} games, {best['turns']:,} turns, PDF {best['bytes'] / 1e3:.0f} kB")
    for r in runs:
        print(f"  total {r['total']:6.2f} s wall (check {r['check']:.2f}, simulate {r['simulate']:.2f}, "
              f"figures {r['figures']:.2f}, PDF {r['pdf']:.2f}); {r['cpu']:.2f} s CPU")


if __name__ == "__main__":
    main()
