"""Benchmark: `deckgen check` of the three bundled decks together, with the playability verdict.

Each run is a fresh process (`python -m deckgen check classic no-mercy flex-spectrum`), timed
from outside, so interpreter start-up and imports count. "cold" starts from an empty cache
(every verdict's games played, the palette's distances and the templates' cross-check made
again); "warm" reuses it. Each figure comes with the CPU time of the process and its children
and with a speed reference (a fixed pure-Python loop, about 0.3 s on an idle core) taken just
before, because on a shared machine the same run can take twice as long from one minute to the
next. The games the verdict played per deck are printed once, from the JSON report.

    .venv/bin/python benchmarks/check.py [--runs 3] [--jobs 2]

Target (2 cores): cold <= 3 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

DECKS = ["classic", "no-mercy", "flex-spectrum"]


def speed_reference() -> float:
    code = "import time\nt = time.perf_counter()\ns = 0\nfor i in range(3_000_000):\n    s += i\nprint(time.perf_counter() - t)"
    return float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)


def timed(cmd: list[str], env: dict) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (user + system, children included) and stdout of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {out.returncode}:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    args = ap.parse_args()
    cmd = [sys.executable, "-m", "deckgen", "check", *DECKS, "--json"]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)        # as an installed package, with bytecode
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        env["DECKGEN_CACHE"] = os.path.join(tmp, "warmup")
        timed(cmd, env)                            # untimed: bytecode for every module
        colds, warms = [], []
        for i in range(args.runs):
            env["DECKGEN_CACHE"] = os.path.join(tmp, f"cache-{i}")
            ref = speed_reference()
            wall, cpu, out = timed(cmd, env)
            colds.append(wall)
            print(f"cold  {wall:5.2f} s  (cpu {cpu:5.2f} s, reference {ref:.2f} s)")
            if i == 0:
                for d in json.loads(out)["decks"]:
                    games = d["simulation"]["games_played"]
                    print(f"      {d['deck']}: {d['verdict']['line']}; games played {games}")
            ref = speed_reference()
            wall, cpu, _ = timed(cmd, env)
            warms.append(wall)
            print(f"warm  {wall:5.2f} s  (cpu {cpu:5.2f} s, reference {ref:.2f} s)")
    print(f"median cold {statistics.median(colds):.2f} s (target <= 3 s on 2 cores), "
          f"warm {statistics.median(warms):.2f} s")


if __name__ == "__main__":
    main()
