import atexit
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent


def _default_sigterm() -> None:
    with contextlib.suppress(ValueError):       # forked from a thread that is not the main one
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _in_memory() -> str | None:
    """/dev/shm when it is there with room to spare (8 GB free; the suite writes a few hundred MB):
    a file system in memory, where the fsync of every output deckgen writes costs nothing. On a
    disk, the suite's 1,200 fsyncs are 4.5 s of waiting, and none of its tests is about the disk."""
    try:
        st = os.statvfs("/dev/shm")
    except OSError:
        return None
    if st.f_bavail * st.f_frsize < 8 * 1024 ** 3 or not os.access("/dev/shm", os.W_OK | os.X_OK):
        return None
    return "/dev/shm"


def _private_tmp() -> str:
    """One temporary folder for everything the suite writes: pytest's tmp_path folders, the render
    cache, the user data folder, and every temporary file of deckgen, pip and the subprocesses
    the tests start (TMPDIR); in /dev/shm when it has room, else in the system's temporary folder.
    The process that makes it (pytest, or xdist's controller, whose workers inherit it through the
    environment) removes it when it exits, so a run leaves nothing behind."""
    root = os.environ.get("DECKGEN_TEST_TMP")
    if not root or not os.path.isdir(root):
        root = tempfile.mkdtemp(prefix="deckgen-tests-", dir=_in_memory())
        os.environ["DECKGEN_TEST_TMP"] = root
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            # a run stopped with SIGTERM (timeout, a CI cancel) still ends through atexit and removes it
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
            # ... but a process forked from this one (deckgen's worker pools, in a run without xdist) gets
            # the default back: there the Python handler can miss a SIGTERM that arrives just before a
            # blocking wait, and pool.terminate() then waits for that worker for ever
            os.register_at_fork(after_in_child=_default_sigterm)
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


# The files whose tests take longest in all, with the seconds one worker spends in each: CPU of the
# test process and its children, summed by file (a per-test getrusage plugin, -n 2, December 2026),
# except test_play_browser.py, whose wall time is given (its tests mostly wait for chromium and the
# bots). They start the run: each goes to the front of the half with fewer seconds so far, heaviest
# first, because pytest-xdist's worksteal gives each of the -n 2 workers one contiguous half of the
# collection, then splits what is left, so a worker never ends the run alone inside one of them
# while the other has nothing left to take.
HEAVY_FILES = {"test_play_browser.py": 60, "test_rulebook_pdf.py": 13, "test_verdict.py": 9, "test_build.py": 7.5,
               "test_install.py": 7, "test_cluster.py": 7, "test_render_fit.py": 7, "test_art_render.py": 5,
               "test_security_fuzz.py": 5, "test_watch.py": 5, "test_export.py": 4.5, "test_layout.py": 4,
               "test_layout_calibrate.py": 4, "test_engine_unlogged.py": 4, "test_imports.py": 3.5}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:                     # each file's tests stay together, in their order
        groups.setdefault(item.path.name, []).append(item)
    halves: tuple[list[pytest.Item], list[pytest.Item]] = ([], [])
    seconds = [0.0, 0.0]
    for name, cost in sorted(HEAVY_FILES.items(), key=lambda pair: -pair[1]):
        if name in groups:
            lighter = 0 if seconds[0] <= seconds[1] else 1
            halves[lighter].extend(groups.pop(name))
            seconds[lighter] += cost
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
