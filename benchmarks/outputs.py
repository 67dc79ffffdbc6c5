"""Fingerprints of everything deckgen writes, to show two checkouts give the same bytes.

Not a timing: it runs the command line of the checkout it is started from (``.venv/bin/deckgen``
beside this folder, or ``--deckgen``) on the three bundled decks and the woodland example and
prints one SHA-256 per output file: the build (cards PDF, rulebooks es and en, booklets), the
faces as PNGs, a balance report, the Tabletop Simulator export, a print shop's files and the
``simulate``/``check`` JSON. Every command has a fixed seed and an empty cache of its own; paths to the checkout and to the
output folder in JSON and text outputs are replaced by ``<checkout>`` and ``<out>``. Run it
in each checkout and diff the two listings:

    .venv/bin/python benchmarks/outputs.py > before.txt      # in the old checkout
    .venv/bin/python benchmarks/outputs.py > after.txt       # in the new one
    diff before.txt after.txt
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
DECKS = ["classic", "no-mercy", "flex-spectrum", str(HERE / "decks" / "examples" / "woodland" / "woodland.toml")]


def commands(out: Path) -> list[list[str]]:
    cmds: list[list[str]] = []
    for deck in DECKS:
        name = Path(deck).stem
        d = out / name
        cmds += [
            ["build", deck, "-o", str(d / "build")],
            ["build", deck, "-o", str(d / "letter"), "--paper", "letter", "--duplex", "short"],
            ["rulebook", deck, "--booklet", "-o", str(d / "booklet.pdf")],
            ["render", deck, "-o", str(d / "faces"), "--dpi", "100"],
            ["export", "tts", deck, "-o", str(d / "tts")],
            ["export", "cards", deck, "--service", "tgc-poker", "-o", str(d / "tgc")],
            ["simulate", deck, "--games", "40", "--json", ">", str(d / "simulate.json")],
            ["check", deck, "--json", ">", str(d / "check.json")],
            ["report", deck, "--games", "20", "--skill-games", "0", "-o", str(d / "report.pdf")],
        ]
    return cmds


def run(deckgen: str, tmp: Path) -> list[str]:
    """Run every command into ``tmp/out``; one ``digest path`` line per file written."""
    out = tmp / "out"
    env = dict(os.environ, DECKGEN_CACHE=str(tmp / "cache"), SOURCE_DATE_EPOCH="0")
    for cmd in commands(out):
        to = cmd[cmd.index(">") + 1] if ">" in cmd else None
        args = cmd[:cmd.index(">")] if to else cmd
        r = subprocess.run([deckgen, *args], env=env, capture_output=True, text=True, cwd=tmp)
        if to:
            Path(to).parent.mkdir(parents=True, exist_ok=True)
            Path(to).write_text(r.stdout)
        print(f"# {' '.join(args[:3])}: exit {r.returncode}", file=sys.stderr)
        if r.returncode:
            print(r.stderr[-2000:], file=sys.stderr)
    lines = []
    for p in sorted(out.rglob("*")):
        if p.is_file() and p.name != ".deckgen-output":
            data = p.read_bytes()
            if p.suffix in (".json", ".txt"):    # paths to the checkout and to the output folder
                data = data.replace(str(HERE).encode(), b"<checkout>").replace(str(out).encode(), b"<out>")
            lines.append(f"{hashlib.sha256(data).hexdigest()} {p.relative_to(out)}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deckgen", default=str(HERE / ".venv" / "bin" / "deckgen"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print("\n".join(run(args.deckgen, Path(tmp))))


if __name__ == "__main__":
    main()
