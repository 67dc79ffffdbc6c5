"""Small hostile decks for the security tests, and a way to run deckgen on them as a stranger's
deck would be run: in a child process with a memory limit and a time limit, checking that it
ends with exit 1 or 2 and a message, never a traceback or a signal, and that a marker file
outside the deck folder never shows up in anything it printed or wrote.

The child is what ``python -m deckgen ARGS`` runs (``deckgen/__main__.py``, through runpy), in
its own process with its own environment, working folder, limits, stdout and stderr; it is
forked from a server process that has imported deckgen and its libraries once (multiprocessing's
forkserver), so each of the many runs does not spend a second importing them again."""

from __future__ import annotations

import io
import multiprocessing
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "MARKER-6c1f0e-outside-the-deck"
MEMORY = 2 * 1024 ** 3          # bytes of address space a run may use
SECONDS = 120                   # wall-clock seconds a run may take (the machine is shared: generous)

MINIMAL = '''
[deck]
id = "hostile"
name = "Hostile"
language = "en"
players = { min = 2, max = 4 }
hand_size = 5
palette = "classic"

[rules]
preset = "classic"
options = { challenge = false }

[scoring]
target = 100
[scoring.points]
number = "face"
skip = 20
wild = 50

[[cards]]
kind = "number"
colors = "all"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 1

[[cards]]
kind = "skip"
colors = "all"
count = 1

[[cards]]
kind = "wild"
count = 4
'''


@dataclass
class Deck:
    folder: Path          # the deck folder (untrusted)
    manifest: Path
    secret: Path          # a file outside the deck folder holding MARKER
    home: Path            # the run's working folder, cache and data folders


def make_deck(tmp_path: Path, deck_lines: str = "", extra: str = "", name: str = "deck") -> Deck:
    """A deck folder in ``tmp_path`` whose [deck] table gets ``deck_lines`` and whose manifest ends
    with ``extra``; a secret file beside (outside) it."""
    folder = tmp_path / name
    folder.mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text(MARKER + "\n", encoding="utf-8")
    text = MINIMAL.replace('palette = "classic"\n', 'palette = "classic"\n' + deck_lines + ("\n" if deck_lines else ""))
    manifest = folder / "deck.toml"
    manifest.write_text(text + extra, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return Deck(folder, manifest, secret, home)


@dataclass
class Run:
    code: int
    out: str
    err: str
    peak_mb: float = 0.0          # the largest resident memory of deckgen or any process it waited for


    @property
    def text(self) -> str:
        return self.out + self.err


def _limits() -> None:           # in the child, before deckgen starts
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


# imported once by the fork server: what `python -m deckgen` imports on the way to any command
PRELOAD = ["deckgen.cli", "deckgen.check", "deckgen.build", "deckgen.palette", "deckgen.render", "deckgen.rulebook",
           "deckgen.layout", "deckgen.export.printshop", "deckgen.export.tts", "coloraide", "reportlab.pdfgen.canvas",
           "PIL.Image", "jinja2", "pypdf"]
_context = None


def _forks():
    global _context
    if _context is None:
        _context = multiprocessing.get_context("forkserver")
        _context.set_forkserver_preload(PRELOAD)
    return _context


def _deckgen_main(args: list[str], cwd: str, environ: dict[str, str], out: str, err: str) -> None:
    """In the forked child: the environment, folder, limits and output files of ``python -m deckgen ARGS``."""
    import faulthandler
    import resource
    import runpy
    import sys

    os.environ.clear()
    os.environ.update(environ)
    os.chdir(cwd)
    for fd, path in ((1, out), (2, err)):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                  line_buffering=True)
    if environ.get("PYTHONFAULTHANDLER"):
        faulthandler.enable(sys.stderr)
    _limits()
    sys.argv = [str(Path(__file__).resolve().parent.parent / "deckgen" / "__main__.py"), *args]
    try:
        runpy.run_module("deckgen", run_name="__main__", alter_sys=True)
    finally:                # peak resident memory in kB (Linux): deckgen's own and its children's
        peak = max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
        Path(out).with_name("peak").write_text(str(peak), encoding="ascii")


def run(deck: Deck, *args: str, cwd: Path | None = None, seconds: float = SECONDS, env: dict | None = None) -> Run:
    """``deckgen ARGS`` in a child process with the memory and time limits (a child still running
    after ``seconds`` is killed and the run fails with ``subprocess.TimeoutExpired``)."""
    environ = dict(os.environ)
    environ.update({"DECKGEN_CACHE": str(deck.home / "cache"), "DECKGEN_DATA": str(deck.home / "data"),
                    "PYTHONFAULTHANDLER": "1", "COLUMNS": "200"})
    environ.pop("DECKGEN_FONTS", None)
    environ.update(env or {})
    with tempfile.TemporaryDirectory(prefix="deckgen-run-") as captured:      # outside the deck and its home
        out, err = Path(captured) / "stdout", Path(captured) / "stderr"
        child = _forks().Process(target=_deckgen_main, args=([str(a) for a in args], str(cwd or deck.home), environ,
                                                             str(out), str(err)))
        child.start()
        child.join(seconds)
        if child.exitcode is None:
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired(["deckgen", *args], seconds)
        peak = Path(captured) / "peak"
        return Run(child.exitcode, *(path.read_bytes().decode("utf-8", "replace") for path in (out, err)),
                   int(peak.read_text(encoding="ascii")) / 1024 if peak.exists() else 0.0)


def assert_refused(result: Run, *words: str, codes: tuple[int, ...] = (1, 2)) -> None:
    """Ended with exit 1 or 2, a message holding every word, no traceback, no leaked marker."""
    assert result.code in codes, (result.code, result.text[-3000:])
    assert "Traceback" not in result.text and "Fatal Python error" not in result.text, result.text[-3000:]
    assert MARKER not in result.text
    for word in words:
        assert word in result.text, (word, result.text[-3000:])


def assert_no_marker_in(folder: Path) -> None:
    """No file written under ``folder`` holds the marker (PDF text included)."""
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        assert MARKER.encode() not in data, path
        if path.suffix == ".pdf":
            import pypdf

            for page in pypdf.PdfReader(path).pages:
                assert MARKER not in (page.extract_text() or ""), path
