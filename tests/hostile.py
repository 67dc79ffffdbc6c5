"""Small hostile decks for the security tests, and a way to run deckgen on them as a stranger's
deck would be run: in a child process with a memory limit and a time limit, checking that it
ends with exit 1 or 2 and a message, never a traceback or a signal, and that a marker file
outside the deck folder never shows up in anything it printed or wrote."""

from __future__ import annotations

import os
import subprocess
import sys
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

    @property
    def text(self) -> str:
        return self.out + self.err


def _limits() -> None:           # in the child, before deckgen starts
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(deck: Deck, *args: str, cwd: Path | None = None, seconds: float = SECONDS, env: dict | None = None) -> Run:
    """``deckgen ARGS`` in a child process with the memory and time limits."""
    environ = dict(os.environ)
    environ.update({"DECKGEN_CACHE": str(deck.home / "cache"), "DECKGEN_DATA": str(deck.home / "data"),
                    "PYTHONFAULTHANDLER": "1", "COLUMNS": "200"})
    environ.pop("DECKGEN_FONTS", None)
    environ.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "deckgen", *args], cwd=str(cwd or deck.home), env=environ,
                          capture_output=True, timeout=seconds, preexec_fn=_limits)
    return Run(proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))


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
