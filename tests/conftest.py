import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Keep every test's render cache and user data folder (presets) inside temporary folders, never in the user's home.
os.environ.setdefault("DECKGEN_CACHE", str(Path(os.environ.get("TMPDIR", "/tmp")) / f"deckgen-test-cache-{os.getpid()}"))
os.environ.setdefault("DECKGEN_DATA", str(Path(os.environ.get("TMPDIR", "/tmp")) / f"deckgen-test-data-{os.getpid()}"))


@pytest.fixture
def write_manifest(tmp_path):
    """Write a manifest text to a file and return its path."""

    def _write(text: str, name: str = "deck.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return _write


MINIMAL = '''
[deck]
id = "mini"
name = "Mini"
language = "en"
players = { min = 2, max = 4 }
hand_size = 5
palette = "classic"

[rules]
preset = "classic"

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


@pytest.fixture
def minimal_text():
    return MINIMAL
