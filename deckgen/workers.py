"""Running a build's jobs on every core, the most urgent first, as they become ready.

A build is many jobs of very different sizes (a face takes milliseconds, a rulebook a few
hundred, a chunk of the verdict's simulated games tens), and some can only start when others
are done (a deck's card sheets need all its faces). :class:`Workers` keeps every worker process
busy with the most urgent job queued, and lets the caller queue new jobs while earlier ones run,
so no core waits for a phase to end.

Jobs are module-level functions with picklable arguments. Workers are forked where the
platform can (they inherit the modules this process has imported); with one job at a time the
jobs run in this process, in the same order of urgency. A job that raises a DeckgenError comes
back as that error (its findings intact); any other exception is raised again by
:meth:`Workers.wait`.

A job submitted with a callback (``on_done``) is not waited for: its result goes to the callback,
on the pool's result thread, as soon as it is back (the verdict's games use this to queue their
next games at once, whatever the caller is doing meanwhile).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import heapq
import itertools
import queue
import sys
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from deckgen.errors import DeckgenError, DeckHasErrors, Finding

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

# How long this process's busy thread keeps the GIL while the pool's result and task threads wait
# for it: Python's default is 5 ms (see Workers.submit).
SWITCH_INTERVAL = 0.0005


class _Switch:
    """The process's switch interval lowered while any pool runs, and put back when the last one
    closes (pools may overlap: the first to close must not restore it under the other)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0
        self.saved = 0.0

    def hold(self) -> None:
        with self.lock:
            if not self.users:
                self.saved = sys.getswitchinterval()
                sys.setswitchinterval(min(self.saved, SWITCH_INTERVAL))
            self.users += 1

    def release(self) -> None:
        with self.lock:
            self.users -= 1
            if not self.users:
                sys.setswitchinterval(self.saved)


_SWITCH = _Switch()

Outcome = tuple[str, Any]      # ("ok", result) | ("error" | "has-errors", findings) | ("interrupted", text)


@dataclass(frozen=True)
class Callback:
    """Where a callback job's result goes (on the pool's result thread): its value, or what it raised."""

    done: Callable[[Any], None]
    failed: Callable[[BaseException], None]


@dataclass(order=True)
class _Job:
    rank: int                                           # -priority: the heap's smallest first
    order: int                                          # then the oldest
    tag: Hashable = field(compare=False)
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    callback: Callback | None = field(default=None, compare=False)


def _call(fn: Callable[..., Any], args: tuple[Any, ...]) -> Outcome:
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


@functools.cache
def quiet_pool() -> type[Pool]:
    """multiprocessing's Pool whose worker-handler thread wakes only when a worker process ends or
    the pool's state changes (close, terminate, no task left), not whenever a result waits in the
    result pipe. The standard Pool also waits on that pipe's reader, which the result thread, not
    the handler, empties: while a result waits there (every job's result, for as long as the
    result thread takes to get the GIL) the handler loops at once, again and again, each turn
    polling every worker, so it burnt about 0.25 s of CPU in a cold build of the bundled decks
    (the verdict's games are about 150 small jobs) and took the GIL from this process's checks.
    Nothing it does needs that wake-up: a worker's exit has its own sentinel, and closing,
    terminating and the last task done each notify the handler. :class:`Workers` and
    :func:`deckgen.runner.run_tasks` (simulate, report) both use it."""
    from multiprocessing.pool import Pool

    class _Pool(Pool):
        def _get_sentinels(self) -> list[Any]:
            notifier = getattr(self, "_change_notifier", None)
            if notifier is None:                       # another Python's Pool: keep its own
                return super()._get_sentinels()        # type: ignore[misc, no-any-return]
            return [notifier._reader]

    return _Pool


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
        self.pending = 0                       # submitted without a callback and not yet returned by wait()
        self._heap: list[_Job] = []
        self._order = itertools.count()
        self._lock = threading.Lock()
        self._done: queue.SimpleQueue[tuple[Hashable, Outcome | None, BaseException | None]] = queue.SimpleQueue()
        self._running = 0
        self._pool: Pool | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.close(exc_type is None)

    def close(self, finish: bool = True) -> None:
        """End the worker processes: after their jobs (``finish``), or at once."""
        if self._pool is None:
            return
        if finish:
            self._pool.close()
        else:
            self._pool.terminate()
        self._pool.join()
        self._pool = None
        _SWITCH.release()

    def submit(self, tag: Hashable, fn: Callable[..., Any], args: tuple[Any, ...] = (), priority: int = 0,
               callback: Callback | None = None) -> None:
        """Queue ``fn(*args)``; among queued jobs the highest ``priority`` starts first, then the oldest.
        With a ``callback`` (worker processes only) the result goes there instead of to :meth:`wait`."""
        if callback is not None and self.n == 1:
            raise ValueError("a job with a callback needs worker processes")
        with self._lock:
            heapq.heappush(self._heap, _Job(-priority, next(self._order), tag, fn, args, callback))
            if callback is None:
                self.pending += 1
        if self.n > 1:
            if self._pool is None:
                import multiprocessing  # here: a build whose every output is in the cache starts no pool

                methods = multiprocessing.get_all_start_methods()
                # the objects alive now (the modules imported, the decks read) are moved out of the
                # garbage collector's sight while the workers are forked: the workers' full collections
                # then never walk them (~0.1 s each, and each touched page copied on write); this
                # process takes them back at once
                gc.freeze()
                try:
                    ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
                    self._pool = quiet_pool()(self.n, context=ctx)
                finally:
                    gc.unfreeze()
                # Every result is taken in, and the next job handed out, by the pool's threads, each
                # needing the GIL while this process's main thread is busy (checking a deck): with
                # Python's 5 ms switch interval that is one result per 5 ms, fewer than two workers
                # playing the verdict's games (jobs of a few ms) hand back, and the workers waited
                # for their next job. While the pool runs, the GIL changes hands sooner.
                _SWITCH.hold()
            self._top_up()

    def cancel(self, keep: Callable[[Any], bool]) -> int:
        """Drop the queued (not started) jobs whose tag ``keep`` refuses; returns how many."""
        with self._lock:
            kept = [job for job in self._heap if keep(job.tag)]
            dropped = [job for job in self._heap if not keep(job.tag)]
            self._heap = kept
            heapq.heapify(self._heap)
            self.pending -= sum(1 for job in dropped if job.callback is None)
        return len(dropped)

    def _top_up(self) -> None:
        """Hand queued jobs to the pool: one running and three waiting per worker, so a worker that
        finishes starts its next job at once even while this process is busy (checking a deck), and
        the rest stay here, ordered by urgency."""
        with self._lock:
            while self._heap and self._running < 4 * self.n and self._pool is not None:
                job = heapq.heappop(self._heap)
                self._running += 1
                self._pool.apply_async(_call, (job.fn, job.args), callback=functools.partial(self._finished, job),
                                       error_callback=functools.partial(self._failed, job))

    def _finished(self, job: _Job, result: Outcome) -> None:      # in the pool's result thread
        with self._lock:
            self._running -= 1
        if job.callback is None:
            self._done.put((job.tag, result, None))
        else:
            try:
                value = _revive(*result)
            except BaseException as exc:        # an interrupt: the callback's owner raises it
                job.callback.failed(exc)
            else:
                job.callback.done(value)
        self._top_up()

    def _failed(self, job: _Job, exc: BaseException) -> None:
        with self._lock:
            self._running -= 1
        if job.callback is None:
            self._done.put((job.tag, None, exc))
        else:
            job.callback.failed(exc)
        self._top_up()

    def wait(self) -> tuple[Any, Any]:
        """The next finished job's tag and result (in this process: the most urgent job, run now)."""
        if self.pending <= 0:
            raise RuntimeError("no job is pending")
        if self._pool is None:
            with self._lock:
                job = heapq.heappop(self._heap)
                self.pending -= 1
            return job.tag, _revive(*_call(job.fn, job.args))
        tag, result, exc = self._done.get()
        with self._lock:
            self.pending -= 1
        if exc is not None:
            raise exc
        assert result is not None
        return tag, _revive(*result)
