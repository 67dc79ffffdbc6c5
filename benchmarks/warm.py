"""Benchmark: the warm build of an unchanged deck (`deckgen build DECK -o OUT`, run again).

For each bundled deck, in a fresh cache and output folder: one untimed build fills the cache
(and lets Python write the bytecode of deckgen's modules, as an installed package has it), a
second untimed one is the first warm build; then each timed run is a fresh process of the
installed ``deckgen`` command (``python -m deckgen`` where there is none), timed from outside,
so interpreter start-up and imports count. Each run comes with its CPU time (user + system),
which a machine shared with other work changes much less than the wall time, and with a speed
reference (the fixed pure-Python loop of benchmarks/check.py, about 0.3 s on an idle core) taken
just before it. Every warm run must print the same summary as the first warm build (but for its
seconds) and leave the output files byte-identical.

``--imports`` also runs one warm build under ``python -X importtime`` per deck and reports the
time spent importing modules (the sum of the top-level imports' cumulative times).

    .venv/bin/python benchmarks/warm.py [--runs 5] [--deck classic] [--imports]

Target (issue 17): under 0.3 s wall on an idle machine (aim: 0.25 s, so that it holds on a slower
day). The first warm build leaves the outputs' stamps (deckgen/cache.py's write_output), so the
timed runs read neither the cached documents nor the outputs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from check import speed_reference, timed  # benchmarks/check.py: the same reference loop and timing

DECKS = ["classic", "no-mercy", "flex-spectrum"]
SECONDS = re.compile(r"\d+\.\d\d s")       # the summary's timings, the only part that differs run to run


def command() -> list[str]:
    script = Path(sys.executable).with_name("deckgen")
    return [str(script)] if script.exists() else [sys.executable, "-m", "deckgen"]


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def import_ms(cmd: list[str], env: dict[str, str]) -> float:
    """Milliseconds one run spends importing: the top-level imports' cumulative times."""
    out = subprocess.run([sys.executable, "-X", "importtime", "-m", "deckgen", *cmd], env=env,
                         capture_output=True, text=True)
    total = 0
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if line.startswith("import time:") and len(parts) == 3 and parts[1].strip().isdigit() \
                and not parts[2].startswith("  "):
            total += int(parts[1])
    return total / 1000


def bench(deck: str, runs: int, imports: bool, tmp: Path) -> tuple[float, float]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)        # as an installed package, with bytecode
    env["DECKGEN_CACHE"] = str(tmp / f"cache-{deck}")
    out = tmp / f"out-{deck}"
    args = ["build", deck, "-o", str(out)]
    cmd = [*command(), *args]
    timed(cmd, env)                                 # untimed: fills the cache, writes the bytecode
    _, _, first = timed(cmd, env)                   # untimed: the first warm build
    files = digest(out)
    walls, cpus, refs = [], [], []
    for _ in range(runs):
        refs.append(speed_reference())
        wall, cpu, stdout = timed(cmd, env)
        if SECONDS.sub("", stdout) != SECONDS.sub("", first):
            raise SystemExit(f"{deck}: a warm build printed something else:\n{first}\n---\n{stdout}")
        walls.append(wall)
        cpus.append(cpu)
    if digest(out) != files:
        raise SystemExit(f"{deck}: a warm build changed the output files")
    line = (f"{deck:<14} warm {statistics.median(walls):5.3f} s  (cpu {statistics.median(cpus):5.3f} s, "
            f"reference {statistics.median(refs):.2f} s; runs {', '.join(f'{w:.3f}' for w in walls)})")
    if imports:
        line += f"  imports {import_ms(args, env):.0f} ms"
    print(line)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--deck", action="append", choices=DECKS, help="only this deck (repeatable)")
    ap.add_argument("--imports", action="store_true", help="also the time one warm build spends importing")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {' '.join(command())} build DECK -o OUT")
    with tempfile.TemporaryDirectory() as tmp:
        results = [bench(deck, args.runs, args.imports, Path(tmp)) for deck in args.deck or DECKS]
    worst = max(wall for wall, _ in results)
    print(f"slowest median warm build {worst:.3f} s (target < 0.3 s on an idle machine)")


if __name__ == "__main__":
    main()
