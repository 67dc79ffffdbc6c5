"""The expert's strength, game by game, to compare two versions of it on the same deals.

Plays games of one expert (``--think``) among greedy players at 4 seats, the expert at seat
``i % 4`` of game ``i``, each game seeded ``paired:<seed>:<i>``, and writes one line per game:
``i winner expert_seat outcome``. Run it once with each version of deckgen on the path (the
other checkout's folder first in ``PYTHONPATH``; the script uses only what every version since
the engine's first release offers), then compare the two files game by game:

    PYTHONPATH=../old .venv/bin/python benchmarks/strength_pairs.py play no-mercy old.txt --games 2000
    .venv/bin/python benchmarks/strength_pairs.py play no-mercy new.txt --games 2000
    .venv/bin/python benchmarks/strength_pairs.py compare old.txt new.txt

``compare`` prints each version's wins with the 95 % Wilson interval, and the paired
difference (new minus old, per game) with its 95 % interval: the same deals and seats make the
two results of a game alike, so the difference is measured far more tightly than two separate
win rates would allow. ``--start`` and ``--stop`` play a part of the games (to split a run
between processes: the files of the parts are read together by ``compare A1,A2 B``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time


def play(deck: str, out: str, start: int, stop: int, think: int, seed: str) -> None:
    from deckgen import manifest
    from deckgen.rules.agents import GreedyAgent
    from deckgen.rules.engine import Game
    from deckgen.rules.expert import ExpertAgent
    from deckgen.rules.table import compile_deck

    table = compile_deck(manifest.load_deck(deck))
    cpu = time.process_time()
    with open(out, "w", encoding="utf-8") as f:
        for i in range(start, stop):
            bots: list[object] = [GreedyAgent()] * 4
            bots[i % 4] = ExpertAgent(think)
            g = Game(table, 4, f"paired:{seed}:{i}", bots, record=True).run()
            f.write(f"{i} {-1 if g.winner is None else g.winner} {i % 4} {getattr(g.outcome, 'value', g.outcome)}\n")
            f.flush()
    print(f"{stop - start} games of {deck} at think {think}: {time.process_time() - cpu:.0f} s of CPU", file=sys.stderr)


def _read(paths: str) -> dict[int, bool]:
    won: dict[int, bool] = {}
    for path in paths.split(","):
        with open(path, encoding="utf-8") as f:
            for line in f:
                i, winner, seat, _ = line.split()
                won[int(i)] = winner == seat
    return won


def compare(old_paths: str, new_paths: str) -> None:
    from deckgen.stats import wilson

    old, new = _read(old_paths), _read(new_paths)
    games = sorted(set(old) & set(new))
    n = len(games)
    if n < 2:
        raise SystemExit("compare: fewer than two games in both files")
    a, b = sum(old[i] for i in games), sum(new[i] for i in games)
    diff = [int(new[i]) - int(old[i]) for i in games]
    mean = sum(diff) / n
    error = math.sqrt(sum((d - mean) ** 2 for d in diff) / (n - 1) / n)
    for name, k in (("old", a), ("new", b)):
        low, high = wilson(k, n)
        print(f"{name}: {k} wins of {n} = {100 * k / n:.1f} % (95 % Wilson {100 * low:.1f}-{100 * high:.1f} %)")
    print(f"new - old: {100 * mean:+.1f} points (95 % interval {100 * (mean - 1.96 * error):+.1f} to "
          f"{100 * (mean + 1.96 * error):+.1f}); the same result in {sum(old[i] == new[i] for i in games)} of {n} games")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("deck")
    p.add_argument("out")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--stop", type=int, default=None)
    p.add_argument("--think", type=int, default=512)
    p.add_argument("--seed", default="s1")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    a = ap.parse_args()
    if a.command == "play":
        play(a.deck, a.out, a.start, a.games if a.stop is None else a.stop, a.think, a.seed)
    else:
        compare(a.old, a.new)


if __name__ == "__main__":
    main()
