"""Trying a library on an untrusted file in a child process, so a crash, a hang or a runaway
allocation inside the library cannot take deckgen down.

:func:`run` runs ``fn(*args)`` in a forked child with a memory limit (``RLIMIT_AS``) and a time
limit, and returns the bytes ``fn`` returns (through a pipe, at most ``output`` of them). When the
call does not return, :class:`Failed` says why: the exception's text, "crashed (SIGSEGV)", "used
more than N MB of memory" or "took longer than N s". Where the platform cannot fork (Windows),
the call runs in this process (with no protection beyond the checks made before it).

``check`` uses it to open every font with ReportLab and Pillow and to draw every SVG at the size
it is printed, the same code the build runs, so what would fail at build fails at check, as a
finding; and the rulebook's templates run this way (:mod:`deckgen.rulebook.run`), so no template
can take more memory or time than that.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

MEMORY = 1536 * 1024 * 1024     # bytes of address space the child may use beyond what it inherits
SECONDS = 30.0
OUTPUT = 64 * 1024 * 1024       # bytes a child may give back


def available() -> bool:
    return hasattr(os, "fork") and sys.platform != "win32"


class Failed(Exception):
    """Why a call in a child process did not return: ``kind`` is ``time``, ``memory``, ``crash``,
    ``output`` or ``error``; ``reason`` says it in words ("took longer than 20 s"); ``output``:
    the bytes the child had written before."""

    def __init__(self, kind: str, reason: str, output: bytes = b""):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.output = output


def run(fn: Callable[..., bytes | Iterable[bytes]], *args: Any, seconds: float = SECONDS, memory: int = MEMORY,
        output: int = OUTPUT, laps: int = 0) -> bytes:
    """What ``fn(*args)`` returns (bytes), run in a forked child with a memory limit of ``memory``
    bytes beyond what this process has mapped, killed after ``seconds``; at most ``output``
    bytes come back. :class:`Failed` says why it did not return. Where the platform cannot fork,
    the call runs here (an exception becomes Failed ``error``).

    A call that does several jobs in turn may yield its bytes a line (ending in ``\\n``) a job:
    each line is sent as soon as it is made, and each of the first ``laps`` lines gives the call
    ``seconds`` again. :attr:`Failed.output` holds the lines sent before it failed."""
    if not available():
        pieces: list[bytes] = []
        try:
            result = fn(*args)
            pieces.extend([result] if isinstance(result, bytes) else result)
        except Exception as exc:
            raise Failed("error", _describe(exc), b"".join(pieces)) from None
        return b"".join(pieces)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                           # the child: run, report, never return
        code = 0
        try:
            os.close(read_end)
            _quiet()
            _limit(memory)
            try:
                result = fn(*args)
                if not isinstance(result, bytes):
                    for piece in result:
                        _write_all(write_end, piece)
                    result = b""
                message = result
            except MemoryError:
                message, code = b"", 3
            except BaseException as exc:
                message, code = _describe(exc).encode("utf-8", "replace")[:2000], 2
            _write_all(write_end, message)
        finally:
            os._exit(code)
    os.close(write_end)
    try:
        return _wait(pid, read_end, _Limits(seconds, memory, output, laps))
    finally:
        os.close(read_end)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _quiet() -> None:
    """The child says nothing on the terminal: no library warnings, no crash report of its own."""
    import faulthandler

    faulthandler.disable()
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.close(devnull)


def _limit(memory: int) -> None:
    try:
        import resource

        used = _address_space()
        limit = used + memory if used else memory
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ImportError, ValueError, OSError):
        pass


def _address_space() -> int:
    """Bytes of address space this process has mapped now (Linux), 0 if unknown."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@dataclass
class _Limits:
    seconds: float
    memory: int
    output: int
    laps: int


def _wait(pid: int, fd: int, limits: _Limits) -> bytes:
    end = time.monotonic() + limits.seconds
    laps = limits.laps
    chunks: list[bytes] = []
    size = 0
    while True:
        left = end - time.monotonic()
        if left <= 0 or size > limits.output:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            if size > limits.output:
                raise Failed("output", f"gave back more than {limits.output / 1e6:.0f} MB")
            raise Failed("time", f"took longer than {limits.seconds:g} s", b"".join(chunks))
        ready, _, _ = select.select([fd], [], [], min(left, 0.5))
        if ready:
            data = os.read(fd, 1 << 16)
            if not data:
                break
            chunks.append(data)
            size += len(data)
            if laps and b"\n" in data:
                laps -= 1
                end = time.monotonic() + limits.seconds
    _, status = os.waitpid(pid, 0)
    message = b"".join(chunks)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        raise Failed("crash", f"crashed ({name})", message)
    code = os.WEXITSTATUS(status)
    if code == 0:
        return message
    if code == 3:
        raise Failed("memory", f"used more than {limits.memory // (1024 * 1024)} MB of memory", message)
    raise Failed("error", message.decode("utf-8", "replace") or f"failed (exit status {code})")


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[-1]}" if text else type(exc).__name__


__all__ = ["MEMORY", "OUTPUT", "SECONDS", "Failed", "available", "run"]
