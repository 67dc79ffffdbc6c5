import atexit
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


def _private_tmp() -> str:
    """One temporary folder for everything the suite writes: pytest's tmp_path folders, the render
    cache, the user data folder, and every temporary file of deckgen, pip and the subprocesses
    the tests start (TMPDIR). The process that makes it (pytest, or xdist's controller, whose
    workers inherit it through the environment) removes it when it exits, so a run leaves
    nothing behind in the system's temporary folder."""
    root = os.environ.get("DECKGEN_TEST_TMP")
    if not root or not os.path.isdir(root):
        root = tempfile.mkdtemp(prefix="deckgen-tests-")
        os.environ["DECKGEN_TEST_TMP"] = root
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            # a run stopped with SIGTERM (timeout, a CI cancel) still ends through atexit and removes it
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    os.environ["TMPDIR"] = root
    tempfile.tempdir = root
    return root


_TMP = _private_tmp()
# Keep every test's render cache and user data folder (presets) inside it, never in the user's home.
os.environ.setdefault("DECKGEN_CACHE", str(Path(_TMP) / "cache"))
os.environ.setdefault("DECKGEN_DATA", str(Path(_TMP) / "data"))

# Hypothesis: "dev" (the default) draws new examples each run; "ci" (HYPOTHESIS_PROFILE=ci, or any
# CI variable set) is derandomized, so the same commit runs the same examples every time. Neither
# has a deadline: speed is measured in benchmarks/, never asserted by a test.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


# The files whose tests take longest in all (pytest --durations=0, summed by file), heaviest first.
# They are started first, half at the front of each half of the run: pytest-xdist's worksteal gives
# each of the -n 2 workers one contiguous half of the collection, then splits what is left, so a
# worker never ends the run alone inside one of them while the other has nothing left to take.
HEAVY_FILES = ("test_rulebook_pdf.py", "test_verdict.py", "test_play_browser.py", "test_build.py",
               "test_security_files.py", "test_render_fit.py", "test_art.py", "test_layout_files.py",
               "test_art_render.py", "test_install.py", "test_cluster.py", "test_layout_calibrate.py",
               "test_security_images.py", "test_engine_fast_path.py", "test_watch.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:                     # each file's tests stay together, in their order
        groups.setdefault(item.path.name, []).append(item)
    heavy = [groups.pop(name) for name in HEAVY_FILES if name in groups]
    halves: tuple[list[pytest.Item], list[pytest.Item]] = ([], [])
    for i, group in enumerate(heavy):
        halves[i % 2].extend(group)
    first, second = halves
    for group in groups.values():          # the others after them, filling the first half up to half the run
        (first if len(first) < len(items) // 2 else second).extend(group)
    items[:] = first + second


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
