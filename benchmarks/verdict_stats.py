"""The playability verdict's tests on synthetic tables: each criterion's false-alarm rate, power
and games used, as docs/checks.md quotes them (tests/test_sequential.py holds smaller runs of the
same to bounds).

    .venv/bin/python benchmarks/verdict_stats.py            # 4,000 runs per line (about a minute)
    .venv/bin/python benchmarks/verdict_stats.py --runs 500
"""

from __future__ import annotations

import argparse
import os
import time

from deckgen import verdict
from deckgen.sequential import rare_operating, rate_operating, seat_operating


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=4000)
    args = ap.parse_args()
    runs = args.runs
    began = time.perf_counter()
    print(f"load average {os.getloadavg()[0]:.2f}; {runs} synthetic runs per line")
    for name, test, shares in (("does-not-finish / decided-before-play", verdict.FINISH, (0.0, 0.01, 0.02, 0.05, 0.10, 0.20)),
                               ("games-too-long / -short (share beyond the band)", verdict.LENGTH,
                                (0.2, 0.35, 0.5, 0.65, 0.8))):
        print(f"\n{name}: p0 {test.p0:g}, p1 {test.p1:g}")
        print("  share   problem  fine   open   games")
        for share in shares:
            o = rate_operating(test, share, runs, 1)
            print(f"  {share:5.2f}   {o.problem:6.3f}  {o.fine:6.3f} {o.open:6.3f} {o.games:7.1f}")
    print(f"\nunfair-seat: tolerance {verdict.SEATS.tolerance:g}, alpha {verdict.SEATS.alpha:g}")
    print("  players  first seat   flagged  extreme  fine   open   games")
    for n in (2, 3, 4, 6, 10):
        for dev in (0.0, 0.03, 0.05, 0.10, 0.15):
            probs = [1 / n + dev] + [(1 - 1 / n - dev) / (n - 1)] * (n - 1)
            o, ext = seat_operating(verdict.SEATS, probs, max(1, runs // 4), n, verdict.SEAT_FIRST_LOOK)
            print(f"  {n:7}  fair{dev:+5.2f}   {o.problem:7.3f}  {ext:7.3f} {o.fine:6.3f} {o.open:6.3f} {o.games:7.1f}")
    print("\ndead-card: kind played per copy at this share of the typical kind (4 copies, 500 games)")
    for share in (0.0, 0.02, 0.05, 0.10, 0.20):
        # per copy and game the typical kind is played 0.5 times: 4 copies over 500 games are 1,000 of its plays
        got = rare_operating(share, verdict.DEAD_SHARE, 4 * 500 * 0.5, verdict.DEAD_Z, runs, 7)
        print(f"  {share:5.2f}   flagged {got:.3f}")
    print(f"\n{time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
