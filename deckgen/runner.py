"""The one game runner: tasks of seeded games on this machine's cores, on a build's shared
worker pool, or on a Dask cluster (``--cluster``).

Simulation, matches, the balance report, the playability verdict and ``deckgen tune`` all hand
out *tasks* (a few seeded games each) and take the results back, here and nowhere else:

- a :class:`Work` says how a worker gets ready (``prepare(spec)``: compile the decks, make the
  agents) and how it plays one task (``play(state, task)``); both are module-level functions,
  so they travel by name;
- a *task source* hands out the tasks: ``next_task()`` gives the next task, :data:`WAIT` (not
  before some results are back: a sequential test deciding whether it needs more games) or
  ``None`` (no more). A plain iterable is a source too;
- :func:`run_tasks` yields ``(task, result)`` to its caller, who may feed the source;
  :func:`start` hands each result to the source's ``take(task, result)`` as it comes back and
  asks it for the next tasks at once, while the caller goes on (the verdict's games during a
  check or a build); :meth:`Running.wait` waits for the end.

Where the tasks run:

- locally (the default) on ``workers`` forked processes; the state is prepared once here and
  inherited, or, on a pool that is already running (``pool``: a build's
  :class:`deckgen.workers.Workers`, which the verdict shares), the spec is pickled once and
  prepared once per worker process; with one worker, or little to do, the tasks run here;
- on a Dask cluster: the spec is scattered to every worker once, each prepares it once; every
  result comes back as a JSON document (:mod:`deckgen.wire`) checked on arrival, and the
  client refuses to unpickle anything but plain builtin values from the scheduler
  (:func:`plain_unpickling`). Addresses are checked before any connection is opened
  (:func:`cluster_of`): a non-loopback one needs TLS certificates or the loud opt-out.

Every game is seeded from its own (seed, table size, index), so the results are the same on
any number of processes or machines; :func:`run_tasks` gives results in the order the tasks were
handed out (or, with ``ordered=False``, as they finish, for callers that put them back in place).
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import multiprocessing
import os
import pickle
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from deckgen import wire
from deckgen.errors import DeckgenError, Finding, error
from deckgen.workers import Callback, quiet_pool  # the Pool whose handler thread does not spin on waiting results

if TYPE_CHECKING:
    from deckgen.workers import Workers

WAIT: Final = "wait"      # a task source with nothing to hand out until a result comes back
PER_SLOT = 2              # tasks in flight per worker slot: one running, one waiting
POOL_IN_FLIGHT = 64       # on a shared pool, which orders its own queue by priority
CLUSTER_PER_SLOT = 8      # more on a cluster, where each result takes a round trip through the scheduler
KEEP_PREPARED = 4         # prepared states a worker keeps (the latest runs)
CONNECT_TIMEOUT = 10      # seconds for the scheduler to answer a connection
HANDSHAKE_GRACE = 5       # ... and then at most this much longer for its handshake (a listener that never answers)
WORKERS_TIMEOUT = 30      # ... for its first worker to be up
ANSWER_TIMEOUT = 600      # ... and, while tasks run there, for the next result
GAMES_PRIORITY = 1 << 28  # on a build's workers: before faces, after card sheets and rulebooks


@dataclass(frozen=True)
class Work:
    """What the workers of one run need: ``prepare(spec)`` once per worker, then
    ``play(state, task)`` per task. ``spec`` must pickle for a shared pool or a cluster (decks
    and agent names do); on forked workers of their own it is never pickled. A result must be
    plain data for a cluster (:mod:`deckgen.wire`: numbers, strings, tuples, lists and the
    record types). Memos inside the spec are the spec's own business: a compiled deck leaves its
    legality cache behind when it is pickled (``Table.__getstate__``), and forked workers inherit
    whatever this process has filled (the same entries they would compute)."""

    prepare: Callable[[Any], Any]
    spec: Any
    play: Callable[[Any, Any], Any]


class TaskSource(Protocol):
    def next_task(self) -> Any:
        """The next task, :data:`WAIT` (results must come back first) or None (no more)."""


class Driven(TaskSource, Protocol):
    def take(self, task: Any, result: Any) -> None:
        """A task's result, in whatever order they finish."""


class _Listed:
    def __init__(self, tasks: Iterable[Any]):
        self.it = iter(tasks)

    def next_task(self) -> Any:
        return next(self.it, None)


# ---------------------------------------------------------------- the addresses of a cluster

LOOPBACK_HOSTS: Final = ("localhost",)


@dataclass(frozen=True)
class Cluster:
    """Where a Dask scheduler listens and how to reach it: ``tcp://`` on the loopback, ``tls://``
    with certificates (Dask's ``Security``), or plain ``tcp://`` elsewhere only with ``insecure``
    (``--cluster-insecure-no-tls``: anyone on that network can read the games and run code on the
    workers). Checked by :func:`cluster_of` before anything is opened."""

    address: str
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    insecure: bool = False

    @property
    def tls(self) -> bool:
        return self.address.startswith("tls://")


def _usage(message: str, hint: str) -> DeckgenError:
    return DeckgenError(Finding("error", "cluster", "--cluster", message, hint=hint))


HOW: Final = "docs/cluster.md says how to start a scheduler and its workers, with TLS"


def cluster_of(value: str | Cluster | None) -> Cluster | None:
    """The cluster to play on (None: this machine), its address checked without opening anything:
    ``tcp://HOST:PORT`` with HOST on the loopback (127.0.0.0/8, ::1, localhost), ``tls://HOST:PORT``
    with the three certificate files, or a plain ``tcp://`` elsewhere with ``insecure``.
    DeckgenError (exit 2) for anything else: another scheme (http, ws, ucx, inproc ...), an empty
    address, no port, files that are missing."""
    if value is None:
        return None
    c = value if isinstance(value, Cluster) else Cluster(value)
    text = c.address.strip()
    if not text:
        raise _usage("an empty --cluster address", "give the scheduler's address, e.g. --cluster tcp://127.0.0.1:8786, "
                                                   "or leave --cluster out to play on this machine")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme not in ("tcp", "tls"):
        raise _usage(f"'{text[:200]}' is not a Dask scheduler address deckgen can use ({scheme}:// is not tcp:// or tls://)",
                     "write tcp://HOST:PORT for a scheduler on this machine, tls://HOST:PORT with certificates for "
                     "one elsewhere; " + HOW)
    host, port = _host_port(rest, text)
    loopback = _is_loopback(host)
    if scheme == "tls":
        missing = [name for name, v in (("--cluster-ca", c.ca_file), ("--cluster-cert", c.cert_file),
                                        ("--cluster-key", c.key_file)) if not v]
        if missing:
            raise _usage(f"a tls:// address needs certificates: {', '.join(missing)} not given",
                         "give the certificate authority's file, this client's certificate and its key; " + HOW)
        unreadable = [v for v in (c.ca_file, c.cert_file, c.key_file) if v and not Path(v).is_file()]
        if unreadable:
            raise _usage(f"certificate file(s) not found: {', '.join(unreadable)}", HOW)
    elif not loopback and not c.insecure:
        raise _usage(f"'{text[:200]}' is not on this machine, and tcp:// sends the games unencrypted to anyone who "
                     "listens, and lets anyone who can reach the scheduler run code on its workers",
                     "use tls://HOST:PORT with --cluster-ca, --cluster-cert and --cluster-key (" + HOW + "); on a "
                     "network you trust entirely, --cluster-insecure-no-tls says so")
    elif c.insecure and (c.ca_file or c.cert_file or c.key_file):
        raise _usage("certificates given for a tcp:// address", "use tls://HOST:PORT with them")
    return Cluster(f"{scheme}://{_join(host, port)}", c.ca_file, c.cert_file, c.key_file, c.insecure)


def _host_port(rest: str, text: str) -> tuple[str, int]:
    rest = rest.rstrip("/")
    if "/" in rest or "?" in rest or "@" in rest or any(ch.isspace() for ch in rest):
        raise _usage(f"'{text[:200]}' is not HOST:PORT", "e.g. tcp://127.0.0.1:8786")
    if rest.startswith("["):
        host, _, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ""
    else:
        host, _, port_text = rest.rpartition(":")
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise _usage(f"'{text[:200]}' has no host and port (1-65535)", "e.g. tcp://127.0.0.1:8786")
    return host, int(port_text)


def _join(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _is_loopback(host: str) -> bool:
    """A literal loopback address or 'localhost'; a name is never looked up (no DNS query)."""
    if host.lower() in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# ---------------------------------------------------------------- yielding results: run_tasks

def run_tasks(work: Work, tasks: TaskSource | Iterable[Any], workers: int | None = None,
              cluster: str | Cluster | None = None, ordered: bool = True, local_below: int = 1,
              pool: Workers | None = None) -> Iterator[tuple[Any, Any]]:
    """Yield ``(task, result)`` for every task, on ``workers`` forked processes (default: every
    core), on ``pool`` (worker processes already running), or on the Dask scheduler at ``cluster``.

    A source with a ``next_task`` method is asked for tasks as results come back (it may depend
    on them); a plain iterable is handed out as it is. With ``local_below`` or fewer tasks known
    in advance, or one worker, everything runs in this process."""
    source: TaskSource = tasks if hasattr(tasks, "next_task") else _Listed(tasks)  # type: ignore[assignment]
    target = cluster_of(cluster)
    if target is not None:
        backend: _Backend = _OnCluster(work, target)
    elif pool is not None and pool.n > 1:
        backend = _OnPool(work, pool)
    else:
        n = workers or os.cpu_count() or 1
        small = isinstance(tasks, (list, tuple)) and len(tasks) <= local_below
        backend = _Here(work) if n <= 1 or small else _Forked(work, n)
    yield from _drive(backend, source, ordered)


def _drive(backend: _Backend, source: TaskSource, ordered: bool) -> Iterator[tuple[Any, Any]]:
    inflight = 0
    sent = 0
    kept: dict[int, tuple[Any, Any]] = {}
    nxt = 0
    try:
        while True:
            waiting = False
            while inflight < backend.limit:
                task = source.next_task()
                if task is None:
                    break
                if isinstance(task, str) and task == WAIT:
                    waiting = True
                    break
                backend.submit(sent, task)
                sent += 1
                inflight += 1
            if not inflight:
                if waiting:      # nothing is in flight: nothing can come back to end the wait
                    raise RuntimeError("a task source waited with no task in flight")
                return
            seq, task, result = backend.next_result()
            inflight -= 1
            if not ordered:
                yield task, result
                continue
            kept[seq] = (task, result)
            while nxt in kept:
                yield kept.pop(nxt)
                nxt += 1
    finally:
        backend.close()


class _Backend(Protocol):
    limit: int

    def submit(self, seq: int, task: Any) -> None: ...

    def next_result(self) -> tuple[int, Any, Any]: ...

    def close(self) -> None: ...


class _Here:
    """Every task in this process, when its result is asked for."""

    limit = 1

    def __init__(self, work: Work):
        self.work = work
        self.state: Any = None
        self.ready = False
        self.todo: list[tuple[int, Any]] = []

    def submit(self, seq: int, task: Any) -> None:
        self.todo.append((seq, task))

    def next_result(self) -> tuple[int, Any, Any]:
        if not self.ready:
            self.state, self.ready = self.work.prepare(self.work.spec), True
        seq, task = self.todo.pop(0)
        return seq, task, self.work.play(self.state, task)

    def close(self) -> None:
        pass


_forked_state: dict[str, Any] = {}


def _fork_init(play: Callable[[Any, Any], Any], state: Any) -> None:
    _forked_state["play"], _forked_state["state"] = play, state


def _fork_play(task: Any) -> Any:
    return _forked_state["play"](_forked_state["state"], task)


class _Forked:
    """Forked worker processes of this run's own, which inherit the state prepared here."""

    def __init__(self, work: Work, n: int):
        state = work.prepare(work.spec)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.pool = quiet_pool()(n, initializer=_fork_init, initargs=(work.play, state), context=ctx)
        self.done: queue.SimpleQueue[tuple[int, Any, Any, BaseException | None]] = queue.SimpleQueue()
        self.limit = PER_SLOT * n

    def submit(self, seq: int, task: Any) -> None:
        self.pool.apply_async(_fork_play, (task,), callback=lambda r: self.done.put((seq, task, r, None)),
                              error_callback=lambda e: self.done.put((seq, task, None, e)))

    def next_result(self) -> tuple[int, Any, Any]:
        seq, task, result, exc = self.done.get()
        if exc is not None:
            raise exc
        return seq, task, result

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


# ---------------------------------------------------------------- a pool that already runs (a build's)

_prepared: OrderedDict[str, Any] = OrderedDict()      # in a worker process: the states prepared so far


def _prepared_state(prepare: Callable[[Any], Any], key: str, spec: Any) -> Any:
    state = _prepared.get(key)
    if state is None:
        state = _prepared[key] = prepare(spec() if callable(spec) else spec)
        while len(_prepared) > KEEP_PREPARED:
            _prepared.popitem(last=False)
    return state


@dataclass(frozen=True)
class _Blob:
    """The spec pickled once here, unpickled once per worker process (it came from this process)."""

    data: bytes

    def __call__(self) -> Any:
        return pickle.loads(self.data)


def _pool_play(prepare: Callable[[Any], Any], play: Callable[[Any, Any], Any], key: str, spec: _Blob,
               task: Any) -> Any:
    return play(_prepared_state(prepare, key, spec), task)


@dataclass(frozen=True)
class RunTag:
    """A task of a run on a shared :class:`deckgen.workers.Workers` pool."""

    run: int
    seq: int


class _OnPool:
    """Tasks as jobs of a running :class:`deckgen.workers.Workers` (a build's), after its more
    urgent jobs; results come back on the pool's result thread."""

    def __init__(self, work: Work, pool: Workers, priority: int = GAMES_PRIORITY):
        import hashlib

        self.work, self.pool, self.priority = work, pool, priority
        blob = pickle.dumps(work.spec, pickle.HIGHEST_PROTOCOL)
        self.key = hashlib.sha256(blob).hexdigest()
        self.blob = _Blob(blob)
        self.done: queue.SimpleQueue[tuple[int, Any, Any, BaseException | None]] = queue.SimpleQueue()
        self.limit = POOL_IN_FLIGHT

    def send(self, seq: int, task: Any, done: Callable[[Any], None], failed: Callable[[BaseException], None]) -> None:
        self.pool.submit(RunTag(id(self), seq), _pool_play, (self.work.prepare, self.work.play, self.key, self.blob, task),
                         self.priority, Callback(done, failed))

    def submit(self, seq: int, task: Any) -> None:
        self.send(seq, task, lambda r: self.done.put((seq, task, r, None)),
                  lambda e: self.done.put((seq, task, None, e)))

    def next_result(self) -> tuple[int, Any, Any]:
        seq, task, result, exc = self.done.get()
        if exc is not None:
            raise exc
        return seq, task, result

    def close(self) -> None:
        pass


# ---------------------------------------------------------------- handing results to the source: start

class Running:
    """A run whose results go to its source's ``take`` as they come back; :meth:`wait` waits for
    the end (and raises what a task raised)."""

    def __init__(self, run_here: Callable[[], None] | None = None):
        self.over = threading.Event()
        self.error: BaseException | None = None
        self._run_here = run_here
        self._own: Workers | None = None
        self._thread: threading.Thread | None = None

    def failed(self, exc: BaseException) -> None:
        if self.error is None:
            self.error = exc
        self.over.set()

    def wait(self) -> None:
        if self._run_here is not None:
            run, self._run_here = self._run_here, None
            try:
                run()
            finally:
                self.over.set()
        try:
            self.over.wait()
            if self._thread is not None:
                self._thread.join()
        finally:
            if self._own is not None:
                self._own.close(finish=self.error is None)
                self._own = None
        if self.error is not None:
            raise self.error


def start(work: Work, source: Driven, workers: int | None = None, cluster: str | Cluster | None = None,
          pool: Workers | None = None) -> Running:
    """Start handing ``source``'s tasks out; each result goes to ``source.take`` (under one lock,
    then the source is asked for its next tasks). On ``pool`` (a build's, shared) or on worker
    processes of its own (``workers`` > 1, forked now) the results are taken on the pool's
    result thread while the caller goes on; on a cluster, on a thread of this process; with one
    worker, in :meth:`Running.wait`."""
    target = cluster_of(cluster)
    if target is not None:
        running = Running()

        def drain() -> None:
            try:
                for task, result in run_tasks(work, source, cluster=target, ordered=False):
                    source.take(task, result)
            except BaseException as exc:
                running.failed(exc)
            else:
                running.over.set()

        running._thread = threading.Thread(target=drain, name="deckgen-cluster-run", daemon=True)
        running._thread.start()
        return running
    n = max(1, workers or os.cpu_count() or 1)
    if pool is None or pool.n == 1:
        if n == 1:
            def here() -> None:
                for task, result in run_tasks(work, source, workers=1):
                    source.take(task, result)
            return Running(here)
        from deckgen.workers import Workers

        running = Running()
        pool = running._own = Workers(n)
    else:
        running = Running()
    _Feeder(_OnPool(work, pool), source, running).feed()
    return running


class _Feeder:
    """A source fed from a pool's result thread: take the result, queue the next tasks."""

    def __init__(self, backend: _OnPool, source: Driven, running: Running):
        self.backend, self.source, self.running = backend, source, running
        self.lock = threading.RLock()
        self.inflight = 0
        self.seq = 0

    def feed(self) -> None:
        with self.lock:
            waiting = False
            while self.inflight < self.backend.limit:
                task = self.source.next_task()
                if task is None:
                    break
                if isinstance(task, str) and task == WAIT:
                    waiting = True
                    break
                self.inflight += 1
                self.seq += 1
                self.backend.send(self.seq, task, functools.partial(self.back, task), self.running.failed)
            if not self.inflight:
                if waiting:
                    self.running.failed(RuntimeError("a task source waited with no task in flight"))
                self.running.over.set()

    def back(self, task: Any, result: Any) -> None:        # on the pool's result thread
        try:
            with self.lock:
                self.inflight -= 1
                self.source.take(task, result)
                self.feed()
        except BaseException as exc:
            self.running.failed(exc)


# ---------------------------------------------------------------- a Dask cluster

def _cluster_play(prepare: Callable[[Any], Any], key: str, spec: Any, play: Callable[[Any, Any], Any],
                  task: Any) -> bytes:
    """On a Dask worker: prepare the run's spec once (per worker process), play the task, and send
    the result back as a JSON document (:mod:`deckgen.wire`), never a pickle."""
    import deckgen

    try:
        return wire.dumps(deckgen.__version__, play(_prepared_state(prepare, key, spec), task))
    except Exception as exc:            # the error as text: an exception would travel pickled
        return wire.dumps(deckgen.__version__, failure=f"{type(exc).__name__}: {exc}")


def _worker_version() -> bytes:
    import deckgen

    return wire.dumps(deckgen.__version__, deckgen.__version__)


# builtins a pickle from the scheduler may name (plain values: Dask wraps bytes results in a header
# that names their type); any other global (a function, a class, a module) is refused
PLAIN_GLOBALS: Final = frozenset({"bytes", "bytearray", "str", "int", "float", "complex", "bool", "list", "tuple",
                                  "dict", "set", "frozenset", "NoneType"})


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in PLAIN_GLOBALS:
            import builtins

            return getattr(builtins, name, type(None))
        raise pickle.UnpicklingError(f"deckgen refuses to unpickle {module}.{name} from the cluster")


def plain_loads(data: Any, *, buffers: Iterable[Any] = ()) -> Any:
    """pickle.loads that builds plain builtin values only: a pickle that names any other global
    (the way a pickle runs code) is refused."""
    import io

    return _PlainUnpickler(io.BytesIO(bytes(data)), buffers=buffers).load()


class _PlainPickle:
    """The pickle module as distributed's client sees it while deckgen is connected: loads is
    :func:`plain_loads`, the rest is the standard module."""

    def __getattr__(self, name: str) -> Any:
        return plain_loads if name == "loads" else getattr(pickle, name)


_GUARD = threading.Lock()
_guards = [0]
_saved: dict[str, Any] = {}


@contextlib.contextmanager
def plain_unpickling() -> Iterator[None]:
    """While deckgen talks to a cluster, every pickle distributed's client code would unpickle
    (its protocol's ``__Pickled__`` objects, the pickle serialisation family, warnings the scheduler
    sends) is read by :func:`plain_loads`: a scheduler or worker cannot make this process run code.
    Only this process is changed (it is deckgen's own, not a scheduler's or a worker's)."""
    import importlib

    dclient: Any = importlib.import_module("distributed.client")      # typed only in part: used as Any
    dpickle: Any = importlib.import_module("distributed.protocol.pickle")

    with _GUARD:
        if not _guards[0]:
            _saved["loads"], _saved["client"] = dpickle.loads, dclient.pickle
            dpickle.loads = plain_loads
            dclient.pickle = _PlainPickle()
        _guards[0] += 1
    try:
        yield
    finally:
        with _GUARD:
            _guards[0] -= 1
            if not _guards[0]:
                dpickle.loads = _saved["loads"]
                dclient.pickle = _saved["client"]


def _needs_dask() -> DeckgenError:
    return DeckgenError(error("cluster", "--cluster", "running on a cluster needs Dask's 'distributed' package",
                              hint="pip install 'deckgen[cluster]' (here and on every worker machine)"))


def _security(target: Cluster) -> Any:
    import importlib

    if not target.tls:
        return None
    security: Any = importlib.import_module("distributed.security").Security
    return security(tls_ca_file=target.ca_file, tls_client_cert=target.cert_file, tls_client_key=target.key_file,
                    require_encryption=True)


def connect(address: str | Cluster) -> Any:
    """A Dask client for the scheduler at ``address`` (checked first by :func:`cluster_of`), with at
    least one worker running this deckgen version; DeckgenError (exit 2) with a hint otherwise.
    Every wait is bounded: :data:`CONNECT_TIMEOUT` for the scheduler to answer (also a listener
    that accepts and never answers), :data:`WORKERS_TIMEOUT` for a worker to be up."""
    target = cluster_of(address)
    assert target is not None
    try:
        import dask
        import distributed
    except ImportError:
        raise _needs_dask() from None
    import deckgen

    dd: Any = distributed        # typed only in part, and absent without the extra: used as Any
    with dask.config.set({"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT}s"}):
        try:
            client = _bounded(lambda: dd.Client(target.address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False,
                                                security=_security(target), deserializers=["dask", "pickle", "msgpack"]),
                              CONNECT_TIMEOUT + HANDSHAKE_GRACE)
        except (OSError, TimeoutError, ValueError, _Hung) as exc:
            raise DeckgenError(error("cluster", "--cluster", f"no Dask scheduler answered at '{target.address}' "
                                     f"({str(exc)[:300] or type(exc).__name__})",
                                     hint="start one with 'dask scheduler' and give its address, e.g. "
                                          "--cluster tcp://127.0.0.1:8786 (docs/cluster.md)")) from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        workers = sorted(client.scheduler_info(n_workers=-1)["workers"])
        versions = {w: client.submit(_worker_version, workers=[w], pure=False, allow_other_workers=False) for w in workers}
        wrong = [msg for msg in (_version_of(w, fut, deckgen.__version__) for w, fut in versions.items()) if msg]
    except DeckgenError:
        client.close()
        raise
    except Exception as exc:
        client.close()
        raise DeckgenError(error("cluster", "--cluster", f"the scheduler at '{target.address}' has no usable worker "
                                 f"({str(exc)[:300] or type(exc).__name__})",
                                 hint="start workers with 'dask worker ADDRESS --nthreads 1' on machines where "
                                      "the same deckgen is installed (docs/cluster.md)")) from None
    if wrong:
        client.close()
        raise DeckgenError(error("cluster", "--cluster", f"{len(wrong)} worker(s) run another deckgen version: "
                                 + "; ".join(wrong), hint="install the same deckgen on every worker machine"))
    return client


def _version_of(worker: str, fut: Any, version: str) -> str | None:
    """None when the worker runs this deckgen version; otherwise what it runs, in words."""
    try:
        wire.loads(fut.result(timeout=WORKERS_TIMEOUT), version, f"worker {worker}")
    except DeckgenError as exc:
        if "runs deckgen" not in exc.findings[0].message:
            raise
        return exc.findings[0].message
    return None


class _Hung(Exception):
    """A call that did not return in time."""


def _bounded(call: Callable[[], Any], seconds: float) -> Any:
    """``call()`` on a helper thread, given up after ``seconds`` (the thread is left to end alone:
    a Dask client stuck in a handshake cannot be interrupted)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:
            box["error"] = exc

    t = threading.Thread(target=run, name="deckgen-connect", daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise _Hung(f"nothing answered within {seconds:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


class _OnCluster:
    """Tasks on a Dask cluster: results back as JSON documents, checked; a bounded wait for each."""

    def __init__(self, work: Work, target: Cluster):
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise _needs_dask() from None
        import deckgen

        self.version = deckgen.__version__
        self.work = work
        self.guard = plain_unpickling()
        self.guard.__enter__()
        try:
            self.client = connect(target)
        except BaseException:
            self.guard.__exit__(None, None, None)
            raise
        self.address = target.address
        try:
            slots = max(1, sum(self.client.nthreads().values()))
            self.spec = self.client.scatter([work.spec], broadcast=True, hash=False)[0]     # a list: one piece of data
        except Exception as exc:
            self.close()
            raise DeckgenError(error("cluster", "--cluster", f"could not send the run to '{self.address}' ({exc})",
                                     hint="docs/cluster.md")) from None
        self.key = str(self.spec.key)
        self.limit = CLUSTER_PER_SLOT * slots
        self.done: queue.SimpleQueue[tuple[int, Any, Any]] = queue.SimpleQueue()

    def submit(self, seq: int, task: Any) -> None:
        fut = self.client.submit(_cluster_play, self.work.prepare, self.key, self.spec, self.work.play, task, pure=False)
        fut.add_done_callback(lambda f: self.done.put((seq, task, f)))

    def next_result(self) -> tuple[int, Any, Any]:
        deadline = time.monotonic() + ANSWER_TIMEOUT
        try:
            seq, task, fut = self.done.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise DeckgenError(error("cluster", "--cluster", f"no result came back from '{self.address}' in "
                                     f"{ANSWER_TIMEOUT} s",
                                     hint="check that its workers are running (docs/cluster.md)")) from None
        if fut.status != "finished":
            raise DeckgenError(error("cluster", "--cluster", f"a task failed on '{self.address}' before deckgen's code "
                                     f"ran there ({fut.status}): a worker could not load or run it",
                                     hint="install the same deckgen on every worker machine; the scheduler's and "
                                          "workers' logs say more (docs/cluster.md)"))
        try:
            data = fut.result(timeout=ANSWER_TIMEOUT)
        except DeckgenError:
            raise
        except Exception as exc:
            raise DeckgenError(error("cluster", "--cluster", f"a result from '{self.address}' could not be read "
                                     f"({str(exc)[:300]})", hint="docs/cluster.md")) from None
        return seq, task, wire.loads(data, self.version, f"a worker of '{self.address}'")

    def close(self) -> None:
        try:
            self.client.close(timeout=CONNECT_TIMEOUT)
        except Exception:       # closing a client whose scheduler is gone: nothing left to do
            pass
        finally:
            self.guard.__exit__(None, None, None)
