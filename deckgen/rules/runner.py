"""Playing many games on workers: this machine's cores, or a Dask cluster (``--cluster``).

Simulation, matches and the balance report all hand out *tasks* (a few seeded games each) and
take the results back. :func:`run_tasks` is the one place that does it:

- a :class:`Work` says how a worker gets ready (``prepare(spec)``: compile the decks, make the
  agents) and how it plays one task (``play(state, task)``); both are module-level functions,
  so they travel by name;
- locally (the default) the state is prepared once here and worker processes are forked from
  this one, so they inherit it; with one worker, or little to do, the tasks run in this
  process;
- with ``cluster="tcp://host:8786"`` the spec is sent once to every Dask worker, each worker
  prepares it once and keeps it for the tasks of the same run (``docs/cluster.md``).

Every game is seeded from its own (seed, table size, index), so the results are the same on
any number of processes or machines; results come back in the order the tasks were handed out
(or, with ``ordered=False``, as they finish, for callers that put them back in place).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Protocol

from deckgen.errors import DeckgenError, error
from deckgen.workers import quiet_pool  # the Pool whose handler thread does not spin on waiting results

WAIT: Final = "wait"      # a task source with nothing to hand out until a result comes back
PER_SLOT = 2              # tasks in flight per worker slot: one running, one waiting
CLUSTER_PER_SLOT = 8      # more on a cluster, where each result takes a round trip through the scheduler
KEEP_PREPARED = 4         # prepared states a cluster worker keeps (the latest runs)
CONNECT_TIMEOUT = 10      # seconds to wait for the scheduler to answer
WORKERS_TIMEOUT = 30      # ... and for its first worker


@dataclass(frozen=True)
class Work:
    """What the workers of one run need: ``prepare(spec)`` once per worker, then
    ``play(state, task)`` per task. ``spec`` must pickle for a cluster (decks and agent names
    do); locally it is never pickled. Memos inside the spec are the spec's own business: a
    compiled deck leaves its legality cache behind when it is pickled (``Table.__getstate__``),
    and forked workers inherit whatever this process has filled (the same entries they would
    compute), so nothing here clears anything."""

    prepare: Callable[[Any], Any]
    spec: Any
    play: Callable[[Any, Any], Any]


class TaskSource(Protocol):
    def next_task(self) -> Any:
        """The next task, :data:`WAIT` (results must come back first) or None (no more)."""


class _Listed:
    def __init__(self, tasks: Iterable[Any]):
        self.it = iter(tasks)

    def next_task(self) -> Any:
        return next(self.it, None)


def run_tasks(work: Work, tasks: TaskSource | Iterable[Any], workers: int | None = None,
              cluster: str | None = None, ordered: bool = True, local_below: int = 1) -> Iterator[tuple[Any, Any]]:
    """Yield ``(task, result)`` for every task, on ``workers`` forked processes (default: every
    core) or on the Dask scheduler at ``cluster``.

    A source with a ``next_task`` method is asked for tasks as results come back (it may depend
    on them); a plain iterable is handed out as it is. With ``local_below`` or fewer tasks known
    in advance, or one worker, everything runs in this process."""
    source: TaskSource = tasks if hasattr(tasks, "next_task") else _Listed(tasks)  # type: ignore[assignment]
    if cluster:
        yield from _on_cluster(work, source, cluster, ordered)
        return
    n = workers or os.cpu_count() or 1
    if n <= 1 or (isinstance(tasks, (list, tuple)) and len(tasks) <= local_below):
        yield from _here(work, source)
        return
    yield from _forked(work, source, n, ordered)


def _here(work: Work, source: TaskSource) -> Iterator[tuple[Any, Any]]:
    state = work.prepare(work.spec)
    while True:
        task = source.next_task()
        if task is None:
            return
        if task == WAIT:        # nothing is in flight in one process: a source must never wait here
            raise RuntimeError("a task source waited with no task in flight")
        yield task, work.play(state, task)


# ---------------------------------------------------------------- forked processes (the default)

_forked_state: dict[str, Any] = {}


def _fork_init(play: Callable[[Any, Any], Any], state: Any) -> None:
    _forked_state["play"], _forked_state["state"] = play, state


def _fork_play(task: Any) -> tuple[Any, Any]:
    return task, _forked_state["play"](_forked_state["state"], task)


def _forked(work: Work, source: TaskSource, n: int, ordered: bool) -> Iterator[tuple[Any, Any]]:
    import queue

    state = work.prepare(work.spec)
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = quiet_pool()(n, initializer=_fork_init, initargs=(work.play, state), context=ctx)
    try:
        if ordered:
            inflight: deque[Any] = deque()
            while True:
                _fill(source, inflight, PER_SLOT * n, lambda t: pool.apply_async(_fork_play, (t,)))
                if not inflight:
                    return
                yield inflight.popleft().get()
        else:
            done: queue.SimpleQueue[Any] = queue.SimpleQueue()
            running = [0]

            def submit(t: Any) -> None:
                running[0] += 1
                pool.apply_async(_fork_play, (t,), callback=done.put, error_callback=done.put)

            while True:
                while running[0] < PER_SLOT * n:
                    task = source.next_task()
                    if task is None or task == WAIT:
                        break
                    submit(task)
                if not running[0]:
                    return
                got = done.get()
                running[0] -= 1
                if isinstance(got, BaseException):
                    raise got
                yield got
    finally:
        pool.terminate()
        pool.join()


def _fill(source: TaskSource, inflight: deque[Any], limit: int, submit: Callable[[Any], Any]) -> None:
    while len(inflight) < limit:
        task = source.next_task()
        if task is None or task == WAIT:
            return
        inflight.append(submit(task))


# ---------------------------------------------------------------- a Dask cluster

_prepared: OrderedDict[str, Any] = OrderedDict()


def _cluster_play(prepare: Callable[[Any], Any], key: str, spec: Any, play: Callable[[Any, Any], Any],
                  task: Any) -> tuple[Any, Any]:
    """On a Dask worker: prepare the run's spec once (per worker process), then play the task."""
    state = _prepared.get(key)
    if state is None:
        state = _prepared[key] = prepare(spec)
        while len(_prepared) > KEEP_PREPARED:
            _prepared.popitem(last=False)
    return task, play(state, task)


def _worker_version() -> str:
    import deckgen

    return deckgen.__version__


def connect(address: str) -> Any:
    """A Dask client for the scheduler at ``address``, with at least one worker running this
    deckgen version; DeckgenError (exit 2) with a hint otherwise."""
    try:
        import distributed
    except ImportError:
        raise DeckgenError(error("cluster", "--cluster", "running on a cluster needs Dask's 'distributed' package",
                                 hint="pip install 'deckgen[cluster]' (here and on every worker machine)")) from None
    import deckgen

    dask: Any = distributed        # typed only in part, and absent without the extra: used as Any
    try:
        client = dask.Client(address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise DeckgenError(error("cluster", "--cluster", f"no Dask scheduler answered at '{address}' ({exc})",
                                 hint="start one with 'dask scheduler' and give its address, e.g. "
                                      "--cluster tcp://10.0.0.5:8786 (docs/cluster.md)")) from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        versions = client.run(_worker_version)
    except Exception as exc:
        client.close()
        raise DeckgenError(error("cluster", "--cluster", f"the scheduler at '{address}' has no usable worker ({exc})",
                                 hint="start workers with 'dask worker ADDRESS --nthreads 1' on machines where "
                                      "the same deckgen is installed (docs/cluster.md)")) from None
    wrong = sorted(w for w, v in versions.items() if v != deckgen.__version__)
    if wrong:
        client.close()
        raise DeckgenError(error("cluster", "--cluster",
                                 f"{len(wrong)} worker(s) run another deckgen version than {deckgen.__version__}: "
                                 + ", ".join(f"{w} ({versions[w]})" for w in wrong),
                                 hint="install the same deckgen on every worker machine"))
    return client


def _on_cluster(work: Work, source: TaskSource, address: str, ordered: bool) -> Iterator[tuple[Any, Any]]:
    client = connect(address)
    try:
        slots = max(1, sum(client.nthreads().values()))
        spec = client.scatter([work.spec], broadcast=True, hash=False)[0]     # a list: one piece of data
        key = str(spec.key)
        limit = CLUSTER_PER_SLOT * slots

        def submit(task: Any) -> Any:
            return client.submit(_cluster_play, work.prepare, key, spec, work.play, task, pure=False)

        if ordered:
            inflight: deque[Any] = deque()
            while True:
                _fill(source, inflight, limit, submit)
                if not inflight:
                    return
                yield inflight.popleft().result()
        else:
            import distributed

            dask: Any = distributed
            pending = dask.as_completed(loop=client.loop)
            running = 0
            while True:
                while running < limit:
                    task = source.next_task()
                    if task is None or task == WAIT:
                        break
                    pending.add(submit(task))
                    running += 1
                if not running:
                    return
                fut = next(pending)
                running -= 1
                yield fut.result()
    finally:
        client.close()

