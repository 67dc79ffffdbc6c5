"""Benchmark: `deckgen build` of No Mercy's card sheets (168 cards, 300 dpi, A4, long-edge duplex).

Each run is a fresh process (`python -m deckgen build no-mercy`), timed from outside, so
interpreter start-up and imports are counted. "cold" starts from an empty face cache,
"warm" reuses it. A second, in-process run reports where the time goes (check, drawing
faces, PDF assembly + writing) and the share of the total spent beyond drawing faces.
The issue's targets are for the card sheets (`--no-rulebook`); the full build with the two
rulebooks (es, en) is timed warm as well and reported on its own line.

    .venv/bin/python benchmarks/build.py [--runs 3] [--deck no-mercy] [--jobs N]
    .venv/bin/python benchmarks/build.py --art [--runs 3]
    .venv/bin/python benchmarks/build.py --bundled [--runs 3]
    .venv/bin/python benchmarks/build.py --bundled --compare ../other-checkout [--runs 5]

Targets (2 cores): warm <= 1.0 s, cold <= 2.0 s, PDF work < 1/5 of the total.

``--art`` times the cold card-sheet build (``--no-rulebook``, empty cache, fresh process) of the
example deck with art (``woodland``: SVG art, icon, back image, logo, rules text, its own fonts)
against the same manifest with those keys removed. Target: art / plain <= 1.5.

``--bundled``: the three bundled decks with their rulebooks (`deckgen build`): warm <= 1.0 s,
cold (empty cache) <= 4.0 s, outputs byte-identical either way. Each figure comes with its CPU
time, which a machine shared with other work changes much less than the wall time, and with a
reference: the time this machine takes for a fixed pure-Python loop (``speed_reference``) right
before the run, so figures taken while a virtual machine's host is busy can be told apart.
``--compare DIR`` times cold builds of the bundled decks of this checkout and of another one
(``DIR``, with its own ``DIR/.venv``) alternately, in the same minutes, so a load that comes and
goes weighs on both alike; it prints each run's wall and CPU time and the ratio of the medians.
One untimed build runs first: it lets Python write the bytecode of deckgen's own modules, as an
installed package has it (``pip install`` compiles it; a checkout writes it on first use), even
where ``PYTHONDONTWRITEBYTECODE`` is set for the shell.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROBE = """
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from deckgen.build import BuildOptions, build_deck
r = build_deck(sys.argv[1], BuildOptions(out_dir=Path(sys.argv[2]), rulebook=False))
print(json.dumps({"timings": r.timings, "seconds": r.seconds, "drawn": r.drawn,
                  "since_import": time.perf_counter() - t0}))
"""


def run(cmd: list[str], env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, out.stdout


ART_KEYS = ("back_image", "logo", "icon", "art", "art_fit")   # the images; text and fonts stay


def plain_copy(manifest: Path, folder: Path) -> Path:
    """The manifest with its art keys (art, art_fit, icon, back image, logo) removed; the rules
    text and the fonts folder stay (they are in both builds), and the fonts folder is copied."""
    text = manifest.read_text("utf-8")
    text = re.sub(r"^(?:" + "|".join(ART_KEYS) + r") = .*\n", "", text, flags=re.M)
    shutil.copytree(manifest.parent / "fonts", folder / "fonts")
    out = folder / manifest.name
    out.write_text(text, "utf-8")
    return out


def art_main(runs: int) -> None:
    """Cold card-sheet builds of the art example against the same deck without its art."""
    from deckgen.manifest import find_deck

    py = sys.executable
    walls: dict[str, list[float]] = {"art": [], "plain": []}
    with tempfile.TemporaryDirectory() as tmp:
        art = find_deck("woodland")
        plain = plain_copy(art, Path(tmp))
        for i in range(runs):
            for name, ref in (("plain", plain), ("art", art)):
                cache = Path(tmp) / f"cache-{name}-{i}"
                env = {**os.environ, "DECKGEN_CACHE": str(cache)}
                cmd = [py, "-m", "deckgen", "build", str(ref), "-o", str(Path(tmp) / "out"), "--no-rulebook"]
                walls[name].append(run(cmd, env)[0])
                shutil.rmtree(cache)
    art_s, plain_s = statistics.median(walls["art"]), statistics.median(walls["plain"])
    print(f"cold deckgen build woodland --no-rulebook, {os.cpu_count()} cores, {runs} runs (median wall time)")
    print(f"  with art:    {art_s:.3f} s  (runs: {', '.join(f'{w:.2f}' for w in walls['art'])})")
    print(f"  art removed: {plain_s:.3f} s  (runs: {', '.join(f'{w:.2f}' for w in walls['plain'])})")
    print(f"  ratio: {art_s / plain_s:.2f} (target <= 1.5)")


def timed_child(cmd: list[str], env: dict) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one child process: CPU time barely depends on
    how loaded the machine is, wall time does."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def bundled_decks_warm_cold(runs: int) -> None:
    """`deckgen build` of the three bundled decks with their rulebooks: cold (empty cache) and warm
    (nothing changed), each a fresh process; the outputs of both must be byte-identical.
    Targets (2 cores): warm <= 1.0 s, cold <= 4.0 s."""
    py = sys.executable
    walls: dict[str, list[float]] = {"cold": [], "warm": []}
    cpus: dict[str, list[float]] = {"cold": [], "warm": []}
    refs: list[float] = []
    load_before = os.getloadavg()[0]
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**base, "DECKGEN_CACHE": str(Path(tmp) / "warm-up")}
        timed_child([py, "-m", "deckgen", "build", "-o", str(Path(tmp) / "warm-up-out")], env)   # bytecode
        for i in range(runs):
            env = {**base, "DECKGEN_CACHE": str(Path(tmp) / f"cache{i}")}
            outs = {kind: Path(tmp) / f"{kind}{i}" for kind in ("cold", "warm")}
            refs.append(speed_reference())
            for kind, out in outs.items():
                wall, cpu = timed_child([py, "-m", "deckgen", "build", "-o", str(out)], env)
                walls[kind].append(wall)
                cpus[kind].append(cpu)
            if _tree(outs["cold"]) != _tree(outs["warm"]):
                raise SystemExit("warm and cold builds differ")
    print(f"deckgen build (the 3 bundled decks, cards + rulebooks es/en), {os.cpu_count()} cores, {runs} runs; "
          "outputs byte-identical warm and cold")
    # other work on the machine slows the wall time most, and (sharing the cores' caches) the CPU time too
    print(f"  load average (1 min) {load_before:.2f} before, {os.getloadavg()[0]:.2f} after; speed reference "
          f"(a fixed Python loop, lower is faster) median {statistics.median(refs):.3f} s "
          f"(min {min(refs):.3f}, max {max(refs):.3f})")
    for kind in ("cold", "warm"):
        w, c = walls[kind], cpus[kind]
        print(f"  {kind}: wall median {statistics.median(w):.3f} s (min {min(w):.3f}, max {max(w):.3f}); "
              f"CPU (user+sys, workers included) median {statistics.median(c):.3f} s")
        print(f"    runs: {', '.join(f'{x:.2f}' for x in w)} s; reference before each: "
              f"{', '.join(f'{x:.2f}' for x in refs)} s")


def compare_cold(other: Path, runs: int) -> None:
    """Cold builds of the three bundled decks, this checkout and ``other`` in turn (each run a fresh
    process, an empty cache): wall and CPU time of each, and the ratio of the medians."""
    import resource

    here = Path(__file__).resolve().parent.parent
    trees = {"this": (here, Path(sys.executable)), "other": (other.resolve(), other.resolve() / ".venv/bin/python")}
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls: dict[str, list[float]] = {name: [] for name in trees}
    cpus: dict[str, list[float]] = {name: [] for name in trees}
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (tree, py) in trees.items():        # untimed: bytecode
            env = {**base, "DECKGEN_CACHE": str(Path(tmp) / f"warm-up-{name}")}
            subprocess.run([str(py), "-m", "deckgen", "build", "-o", str(Path(tmp) / f"warm-up-out-{name}")],
                           cwd=tree, env=env, check=True, capture_output=True)
        for i in range(runs):
            for name, (tree, py) in trees.items():
                env = {**base, "DECKGEN_CACHE": str(Path(tmp) / f"cache-{name}-{i}")}
                cmd = [str(py), "-m", "deckgen", "build", "-o", str(Path(tmp) / f"out-{name}-{i}")]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True)
                walls[name].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                loads.append(os.getloadavg()[0])
    print(f"cold deckgen build of the 3 bundled decks (cards + rulebooks), {os.cpu_count()} cores, {runs} runs "
          f"each, alternating; load average (1 min) during the runs {min(loads):.2f}-{max(loads):.2f}")
    for name, (tree, _) in trees.items():
        print(f"  {name} ({tree}): wall median {statistics.median(walls[name]):.2f} s, CPU median "
              f"{statistics.median(cpus[name]):.2f} s; runs (wall/CPU): "
              + ", ".join(f"{w:.2f}/{c:.2f}" for w, c in zip(walls[name], cpus[name])))
    print(f"  this / other: wall {statistics.median(walls['this']) / statistics.median(walls['other']):.2f}, "
          f"CPU {statistics.median(cpus['this']) / statistics.median(cpus['other']):.2f}")


def speed_reference() -> float:
    """Seconds this machine takes for a fixed pure-Python loop of 3 million additions, in a fresh
    process: about 0.3 s on an idle core of the machine the targets were set on."""
    code = "import time\nt = time.perf_counter()\ns = 0\nfor i in range(3_000_000):\n    s += i\nprint(time.perf_counter() - t)"
    return float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deck", default="no-mercy")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--art", action="store_true", help="the art example against the same deck without art")
    ap.add_argument("--bundled", action="store_true",
                    help="only the warm/cold build of the three bundled decks with their rulebooks")
    ap.add_argument("--compare", type=Path, metavar="DIR",
                    help="with --bundled: cold builds of this checkout and of DIR (its own .venv) alternately")
    args = ap.parse_args()
    if args.bundled and args.compare:
        compare_cold(args.compare, args.runs)
        return
    if args.art:
        art_main(args.runs)
        return
    if args.bundled:
        bundled_decks_warm_cold(args.runs)
        return
    py = sys.executable
    results: dict[str, list[float]] = {"cold": [], "warm": []}
    breakdown: dict[str, list[dict]] = {"cold": [], "warm": []}
    pdf_size = 0
    full: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        for i in range(args.runs):
            cache = Path(tmp) / f"cache{i}"
            env = {**os.environ, "DECKGEN_CACHE": str(cache)}
            cmd = [py, "-m", "deckgen", "build", args.deck, "-o", str(out), "--no-rulebook"]
            results["cold"].append(run(cmd, env)[0])
            results["warm"].append(run(cmd, env)[0])
            full.append(run(cmd[:-1], env)[0])
            pdf_size = (out / args.deck / f"{args.deck}-cards.pdf").stat().st_size
            shutil.rmtree(cache)
            for kind in ("cold", "warm"):
                _, text = run([py, "-c", PROBE, args.deck, str(out)], env)
                breakdown[kind].append(json.loads(text.strip().splitlines()[-1]))
            shutil.rmtree(cache)
    print(f"deckgen build {args.deck} (A4, 300 dpi, long-edge duplex), {os.cpu_count()} cores, {args.runs} runs")
    for kind in ("cold", "warm"):
        walls = results[kind]
        b = breakdown[kind]
        write = statistics.median(x["timings"]["write"] for x in b)
        render = statistics.median(x["timings"]["render"] for x in b)
        check = statistics.median(x["timings"]["check"] for x in b)
        wall = statistics.median(walls)
        print(f"  {kind}: wall median {wall:.3f} s (min {min(walls):.3f}, max {max(walls):.3f}); "
              f"in process: check {check:.3f} s, faces drawn after {render:.3f} s (while checking), "
              f"then PDF assembly+write {write:.3f} s = {write / wall:.0%} of the wall time")
    print(f"  PDF size: {pdf_size / 1e6:.2f} MB")
    print(f"  with the rulebooks (es, en), warm: wall median {statistics.median(full):.3f} s")
    bundled_decks_warm_cold(args.runs)


if __name__ == "__main__":
    main()
