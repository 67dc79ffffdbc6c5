"""The balance report's reference figures for "Does skill matter?": one expert (at the report's
default think) among greedy or random players at 4 players, in classic UNO and No Mercy, over
many games; written to deckgen/data/skill_reference.json with their 95 % intervals and this command.

    .venv/bin/python benchmarks/skill_reference.py --games 3000
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from deckgen import __version__
from deckgen.balance import collect
from deckgen.balance.report import OPPONENTS, REFERENCE_PLAYERS, REFERENCES, SKILL_THINK, skill_game
from deckgen.runner import Work, run_tasks

OUT = Path(__file__).resolve().parent.parent / "deckgen" / "data" / "skill_reference.json"
SEED = 2026
CHUNK = 25


def _prepare(spec):
    from deckgen import manifest
    from deckgen.rules.bots import make as make_agent
    from deckgen.rules.table import compile_deck

    decks, think = spec
    return {d: compile_deck(manifest.load_deck(d)) for d in decks}, {o: make_agent(o) for o in OPPONENTS}, think


def _play(state, task):
    tables, agents, think = state
    deck, opp, start, stop = task
    return [skill_game(tables[deck], agents[opp], think, SEED, REFERENCE_PLAYERS, i) for i in range(start, stop)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args()
    began = time.perf_counter()
    tasks = [(d, o, s, min(s + CHUNK, args.games)) for d in REFERENCES for o in OPPONENTS for s in range(0, args.games, CHUNK)]
    got: dict[tuple[str, str], dict[int, list]] = {}
    for task, res in run_tasks(Work(_prepare, (REFERENCES, SKILL_THINK), _play), tasks, args.jobs, ordered=False):
        got.setdefault((task[0], task[1]), {})[task[2]] = res
    rows = []
    for (deck, opp), chunks in sorted(got.items()):
        results = [r for s in sorted(chunks) for r in chunks[s]]
        fig = collect.skill_group(results, REFERENCE_PLAYERS)
        rows.append({"deck": deck, "opponent": opp, **fig})
        lo, hi = fig["ci"]
        print(f"{deck:10} {opp:7} {fig['wins']:5}/{fig['finished']:5} = {fig['rate']:.3f} ({lo:.3f}-{hi:.3f})")
    data = {"command": f"python benchmarks/skill_reference.py --games {args.games}", "deckgen": __version__,
            "seed": SEED, "think": SKILL_THINK, "players": REFERENCE_PLAYERS, "games": args.games, "reference": rows}
    OUT.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT} in {time.perf_counter() - began:.0f} s (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
