"""Trying a library on an untrusted file in a child process, so a crash, a hang or a runaway
allocation inside the library cannot take deckgen down.

:func:`probe` runs ``fn(*args)`` in a forked child with a memory limit (``RLIMIT_AS``) and a time
limit. It returns ``None`` when the call returned, else why it did not: the exception's text,
"crashed (signal 11)", "used more than N MB of memory" or "took longer than N s". Where the
platform cannot fork (Windows), the call runs in this process (with no protection beyond the
checks made before it).

``check`` uses it to open every font with ReportLab and Pillow and to draw every SVG once, the
same code the build runs, so what would fail at build fails at check, as a finding.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

MEMORY = 1536 * 1024 * 1024     # bytes of address space the child may use beyond what it inherits
SECONDS = 30.0


def available() -> bool:
    return hasattr(os, "fork") and sys.platform != "win32"


def probe(fn: Callable[..., Any], *args: Any, seconds: float = SECONDS, memory: int = MEMORY) -> str | None:
    """``None`` if ``fn(*args)`` returns in a child process within the limits, else why not."""
    if not available():
        try:
            fn(*args)
        except Exception as exc:
            return _describe(exc)
        return None
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                           # the child: run, report, never return
        code = 0
        try:
            os.close(read_end)
            _quiet()
            _limit(memory)
            try:
                fn(*args)
                message = b""
            except MemoryError:
                message, code = b"\x01", 3
            except BaseException as exc:
                message, code = _describe(exc).encode("utf-8", "replace")[:2000], 2
            os.write(write_end, message)
        finally:
            os._exit(code)
    os.close(write_end)
    try:
        return _wait(pid, read_end, seconds, memory)
    finally:
        os.close(read_end)


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


def _wait(pid: int, fd: int, seconds: float, memory: int) -> str | None:
    end = time.monotonic() + seconds
    chunks = []
    while True:
        left = end - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return f"took longer than {seconds:g} s"
        ready, _, _ = select.select([fd], [], [], min(left, 0.5))
        if ready:
            data = os.read(fd, 4096)
            if not data:
                break
            chunks.append(data)
    _, status = os.waitpid(pid, 0)
    message = b"".join(chunks)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        return f"crashed ({name})"
    code = os.WEXITSTATUS(status)
    if code == 0:
        return None
    if code == 3 or message == b"\x01":
        return f"used more than {memory // (1024 * 1024)} MB of memory"
    return message.decode("utf-8", "replace") or f"failed (exit status {code})"


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[-1]}" if text else type(exc).__name__


__all__ = ["MEMORY", "SECONDS", "available", "probe"]
