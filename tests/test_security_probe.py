"""deckgen.probe.run: a call in a forked child within a memory and time limit, whose bytes come
back, or a Failed that says why not (docs/security.md, promise 3)."""

from __future__ import annotations

import time

import pytest

from deckgen import probe


def _laps(n: int, pause: float):
    for i in range(n):
        time.sleep(pause)
        yield f"{i}\n".encode()


def test_the_bytes_come_back_and_a_line_a_job_renews_the_time():
    assert probe.run(lambda: b"done") == b"done"
    assert probe.run(_laps, 4, 0.3, seconds=1.0, laps=4) == b"0\n1\n2\n3\n"   # 1.2 s in all, 0.3 s a job
    with pytest.raises(probe.Failed) as info:
        probe.run(_laps, 4, 0.3, seconds=1.0)                                 # no laps: 1 s in all
    assert info.value.kind == "time" and info.value.output in (b"0\n", b"0\n1\n", b"0\n1\n2\n")


def test_memory_output_errors_and_crashes_are_said():
    with pytest.raises(probe.Failed) as info:
        probe.run(lambda: bytes(bytearray(512 * 1024 ** 2)), memory=64 * 1024 ** 2)
    assert info.value.kind == "memory" and "64 MB" in info.value.reason
    with pytest.raises(probe.Failed) as info:
        probe.run(lambda: b"x" * 300_000, output=100_000)
    assert info.value.kind == "output"
    with pytest.raises(probe.Failed) as info:
        probe.run(lambda: int("x"))
    assert info.value.kind == "error" and info.value.reason.startswith("ValueError: invalid literal")
    import ctypes

    with pytest.raises(probe.Failed) as info:
        probe.run(lambda: ctypes.string_at(0))
    assert info.value.kind == "crash" and "SIGSEGV" in info.value.reason
