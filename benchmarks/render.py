"""Renderer speed: distinct faces per second at 300 dpi, and cold/warm times for all of No Mercy.

Run: .venv/bin/python benchmarks/render.py [--dpi 300] [--jobs N]

"cold" is a fresh process with an empty cache (masks, fonts and the worker pool all start from
nothing); "warm" is a second run against the filled cache. Figures depend on the machine and
on what else runs on it: report them together with `nproc` and the load average.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = """
import sys, time
t0 = time.perf_counter()
from deckgen import manifest
from deckgen.render import RenderSettings, render_deck
deck = manifest.load_deck("no-mercy")
res = render_deck(deck, RenderSettings(dpi={dpi}), jobs={jobs})
print(time.perf_counter() - t0, res.drawn, len(res.paths))
"""


def timed_run(dpi: int, jobs, cache: str) -> tuple[float, int, int]:
    env = dict(os.environ, DECKGEN_CACHE=cache)
    out = subprocess.run([sys.executable, "-c", CHILD.format(dpi=dpi, jobs=jobs)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def faces_per_second(dpi: int) -> tuple[float, float, float]:
    """Single process: (faces/s drawing only, faces/s drawing + PNG encoding, ms per face)."""
    from deckgen import manifest
    from deckgen.render import RenderSettings, face_ids, pngfile, render_face

    deck = manifest.load_deck("no-mercy")
    settings = RenderSettings(dpi=dpi)
    ids = face_ids(deck)
    for fid in [*ids[:3], "wild-draw-ten", "back"]:      # warm the mask and font caches
        render_face(deck, fid, settings)
    t = time.perf_counter()
    images = [render_face(deck, fid, settings) for fid in ids]
    draw = time.perf_counter() - t
    t = time.perf_counter()
    for im in images:
        pngfile.encode(im, dpi, {}, 1)
    encode = time.perf_counter() - t
    return len(ids) / draw, len(ids) / (draw + encode), 1000 * (draw + encode) / len(ids)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}, dpi: {args.dpi}")
    draw_fps, total_fps, ms = faces_per_second(args.dpi)
    print(f"one process: {draw_fps:.0f} faces/s drawing, {total_fps:.0f} faces/s with PNG encoding ({ms:.1f} ms/face)")
    colds, warms = [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as cache:
            cold, drawn, n = timed_run(args.dpi, args.jobs, cache)
            warm, redrawn, _ = timed_run(args.dpi, args.jobs, cache)
        assert drawn == n and redrawn == 0
        colds.append(cold)
        warms.append(warm)
    print(f"No Mercy, {n} distinct faces, all cores, fresh process incl. imports and deck loading:")
    print(f"  cold (empty cache): best {min(colds):.2f} s, median {sorted(colds)[len(colds) // 2]:.2f} s "
          f"= {n / min(colds):.0f} faces/s")
    print(f"  warm (cache hit):   best {min(warms):.2f} s, median {sorted(warms)[len(warms) // 2]:.2f} s")


if __name__ == "__main__":
    main()
