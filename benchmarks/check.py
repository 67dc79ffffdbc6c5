"""Benchmark: `deckgen check` of the three bundled decks together, with the playability verdict.

Each run is a fresh process (`python -m deckgen check classic no-mercy flex-spectrum`), timed
from outside, so interpreter start-up and imports count. "cold" starts from an empty cache
(every verdict's games played, the palette's distances and the templates' cross-check made
again); "warm" reuses it. Each figure comes with the CPU time of the process and its children
and with a speed reference (a fixed pure-Python loop, about 0.3 s on an idle core) taken just
before, because on a shared machine the same run can take twice as long from one minute to the
next. The games the verdict played per deck are printed once, from the JSON report.

    .venv/bin/python benchmarks/check.py [--runs 3] [--jobs 2]
    .venv/bin/python benchmarks/check.py --compare ../other-checkout [--runs 8]

Target (2 cores): cold <= 3 s.

``--compare DIR`` times cold checks of this checkout and of another one (``DIR``, a checkout or
an exported tree of deckgen: run with this interpreter, ``DIR`` first on ``PYTHONPATH``)
alternately, in the same minutes, so a load that comes and goes weighs on both alike; it prints
each run's wall and CPU time and the ratio of the medians (the face audit's budget: a cold check
within 1.2 x the one before it).
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


def compare(cmd: list[str], env: dict, other: str, runs: int) -> None:
    """Cold checks of this checkout and of ``other``, alternately; the medians and their ratio."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    trees = {"this": here, "other": os.path.abspath(other)}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(runs + 1):                     # the first round untimed: bytecode for every module
            for name, tree in trees.items():
                run_env = dict(env, PYTHONPATH=tree, DECKGEN_CACHE=os.path.join(tmp, f"{name}-{i}"))
                wall, cpu, _ = timed(cmd, run_env)
                if i:
                    times[name].append((wall, cpu))
                    print(f"{name:5} cold {wall:5.2f} s  (cpu {cpu:5.2f} s)")
    med = {name: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for name, t in times.items()}
    for name, (wall, cpu) in med.items():
        print(f"median {name:5} ({trees[name]}): wall {wall:.2f} s, cpu {cpu:.2f} s")
    print(f"this / other: wall {med['this'][0] / med['other'][0]:.2f}, cpu {med['this'][1] / med['other'][1]:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    ap.add_argument("--compare", metavar="DIR", default=None, help="another checkout to time alternately")
    args = ap.parse_args()
    cmd = [sys.executable, "-m", "deckgen", "check", *DECKS, "--json"]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)        # as an installed package, with bytecode
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if args.compare:
        os.chdir(tempfile.gettempdir())             # neither tree's folder first on the path
        compare(cmd, env, args.compare, args.runs)
        return
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
