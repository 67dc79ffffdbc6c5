"""Running a build's jobs on every core, the most urgent first, as they become ready.

A build is many jobs of very different sizes (a face takes milliseconds, a rulebook a few
hundred), and some can only start when others are done (a deck's card sheets need all its
faces). :class:`Workers` keeps every worker process busy with the most urgent job queued, and
lets the caller queue new jobs while earlier ones run, so no core waits for a phase to end.

Jobs are module-level functions with picklable arguments. Workers are forked where the
platform can (they inherit the modules this process has imported); with one job at a time the
jobs run in this process, in the same order of urgency. A job that raises a DeckgenError comes
back as that error (its findings intact); any other exception is raised again by
:meth:`Workers.wait`.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import itertools
import multiprocessing
import queue
import threading
from collections.abc import Callable, Hashable
from typing import Any

from deckgen.errors import DeckgenError, DeckHasErrors, Finding

Job = tuple[int, int, Hashable, Callable[..., Any], tuple]     # (-priority, order, tag, function, arguments)


def _call(fn: Callable[..., Any], args: tuple) -> tuple[str, Any]:
    """Run a job; a DeckgenError travels back as plain data (exceptions do not pickle their fields)."""
    try:
        return "ok", fn(*args)
    except DeckgenError as exc:
        kind = "has-errors" if isinstance(exc, DeckHasErrors) else "error"
        return kind, [dataclasses.asdict(f) for f in exc.findings]
    except Exception:
        raise
    except BaseException as exc:    # an interrupt would end the worker and its job would never come back
        return "interrupted", repr(exc)


def _revive(kind: str, value: Any) -> Any:
    if kind == "ok":
        return value
    if kind == "interrupted":
        raise KeyboardInterrupt(value)
    findings = [Finding(**f) for f in value]
    return DeckHasErrors(findings) if kind == "has-errors" else DeckgenError(findings)


class Workers:
    """Up to ``n`` jobs at a time, on worker processes (``n`` > 1) or in this process.

    :meth:`submit` queues a job; :meth:`wait` gives back the next finished job as
    ``(tag, result)``, the result being a DeckgenError when the job failed with one. The worker
    processes start with the first job submitted, so a call that submits nothing costs nothing.
    """

    def __init__(self, n: int):
        self.n = max(1, n)
        self.pending = 0                       # submitted and not yet returned by wait()
        self._heap: list[Job] = []
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._done: queue.SimpleQueue[tuple[Hashable, Any, BaseException | None]] = queue.SimpleQueue()
        self._running = 0
        self._pool: Any = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, exc_type: Any, *rest: Any) -> None:
        if self._pool is None:
            return
        if exc_type is None:
            self._pool.close()
        else:
            self._pool.terminate()
        self._pool.join()
        self._pool = None

    def submit(self, tag: Hashable, fn: Callable[..., Any], args: tuple = (), priority: int = 0) -> None:
        """Queue ``fn(*args)``; among queued jobs the highest ``priority`` starts first, then the oldest."""
        with self._lock:
            heapq.heappush(self._heap, (-priority, next(self._order), tag, fn, args))
            self.pending += 1
        if self.n > 1:
            if self._pool is None:
                methods = multiprocessing.get_all_start_methods()
                self._pool = multiprocessing.get_context("fork" if "fork" in methods else None).Pool(self.n)
            self._top_up()

    def cancel(self, keep: Callable[[Any], bool]) -> int:
        """Drop the queued (not started) jobs whose tag ``keep`` refuses; returns how many."""
        with self._lock:
            kept = [job for job in self._heap if keep(job[2])]
            dropped = len(self._heap) - len(kept)
            self._heap = kept
            heapq.heapify(self._heap)
            self.pending -= dropped
        return dropped

    def _top_up(self) -> None:
        """Hand queued jobs to the pool: one running and three waiting per worker, so a worker that
        finishes starts its next job at once even while this process is busy (checking a deck), and
        the rest stay here, ordered by urgency."""
        with self._lock:
            while self._heap and self._running < 4 * self.n:
                _, _, tag, fn, args = heapq.heappop(self._heap)
                self._running += 1
                self._pool.apply_async(_call, (fn, args), callback=functools.partial(self._finished, tag),
                                       error_callback=functools.partial(self._failed, tag))

    def _finished(self, tag: Hashable, result: tuple[str, Any]) -> None:      # in the pool's result thread
        with self._lock:
            self._running -= 1
        self._done.put((tag, result, None))
        self._top_up()

    def _failed(self, tag: Hashable, exc: BaseException) -> None:
        with self._lock:
            self._running -= 1
        self._done.put((tag, None, exc))
        self._top_up()

    def wait(self) -> tuple[Any, Any]:
        """The next finished job's tag and result (in this process: the most urgent job, run now)."""
        if self.pending <= 0:
            raise RuntimeError("no job is pending")
        if self._pool is None:
            with self._lock:
                _, _, tag, fn, args = heapq.heappop(self._heap)
                self.pending -= 1
            return tag, _revive(*_call(fn, args))
        tag, result, exc = self._done.get()
        with self._lock:
            self.pending -= 1
        if exc is not None:
            raise exc
        return tag, _revive(*result)
