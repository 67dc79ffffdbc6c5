"""Balance report speed: the default ``deckgen report`` of a deck, timed phase by phase.

    .venv/bin/python benchmarks/report.py [--deck flex-spectrum] [--games 200] [--jobs N] [--repeat 1]

The default (200 games per table size and agent, both agents, the deck's whole player range)
is what ``deckgen report flex-spectrum`` runs; the target is at most 15 s on a 2-core machine.
Prints wall time per phase (check + simulation, figures, PDF), the CPU time of this process
and its workers, and the load average, since a busy machine stretches wall times.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from deckgen.balance import report as R
from deckgen.balance.pdf import report_pdf


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def once(deck: str, games: int, jobs: int | None) -> dict[str, float]:
    opts = R.ReportOptions(games=games, workers=jobs)
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
    turns = sum(r.turns for recs in records.values() for r in recs)
    return {"check": t1 - t0, "simulate": t2 - t1, "figures": t3 - t2, "pdf": t4 - t3, "total": t4 - t0,
            "cpu": cpu_seconds() - cpu0, "games": sum(len(v) for v in records.values()), "turns": turns,
            "pages": data.count(b"/Type /Page\n") or data.count(b"/Type /Page"), "bytes": len(data)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="flex-spectrum")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    load0 = os.getloadavg()[0]
    runs = [once(a.deck, a.games, a.jobs) for _ in range(a.repeat)]
    best = min(runs, key=lambda r: r["total"])
    print(f"deckgen report {a.deck}: {a.games} games per table size and agent, {a.jobs or os.cpu_count()} workers, "
          f"{R.CHUNK} games per task; load average {load0:.2f} -> {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"  {best['games']} games, {best['turns']:,} turns, PDF {best['bytes'] / 1e3:.0f} kB")
    for r in runs:
        print(f"  total {r['total']:6.2f} s wall (check {r['check']:.2f}, simulate {r['simulate']:.2f}, "
              f"figures {r['figures']:.2f}, PDF {r['pdf']:.2f}); {r['cpu']:.2f} s CPU")


if __name__ == "__main__":
    main()
