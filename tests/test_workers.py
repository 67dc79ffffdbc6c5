"""deckgen.workers: the job queue a build runs on (priorities, errors, interrupts, cancelling)."""

import signal

import pytest

from deckgen.errors import DeckgenError, DeckHasErrors, error
from deckgen.workers import Workers

RAN: list[str] = []


def note(name: str) -> str:
    RAN.append(name)
    return name.upper()


def fails(kind: str) -> None:
    finding = error("too-few-cards", "cards", "not enough cards", file="deck.toml", hint="add cards")
    raise (DeckHasErrors if kind == "deck" else DeckgenError)([finding])


def interrupted() -> None:
    raise KeyboardInterrupt


def drain(pool: Workers) -> dict:
    out = {}
    while pool.pending:
        tag, result = pool.wait()
        out[tag] = result
    return out


@pytest.fixture
def alarm():
    """A job lost by the pool would make wait() block for ever: fail after 60 s instead."""
    def expired(*_):
        raise TimeoutError("Workers.wait() hung")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_in_this_process_the_most_urgent_job_runs_first_then_the_oldest():
    RAN.clear()
    with Workers(1) as pool:
        for name, priority in [("a", 0), ("b", 5), ("c", 0), ("d", 5), ("e", 9)]:
            pool.submit(name, note, (name,), priority)
        results = drain(pool)
    assert RAN == ["e", "b", "d", "a", "c"]
    assert results == {n: n.upper() for n in "abcde"}


def test_cancelled_jobs_never_run_and_are_not_waited_for():
    RAN.clear()
    with Workers(1) as pool:
        for name in "abcd":
            pool.submit(("deck", name), note, (name,))
        assert pool.cancel(lambda tag: tag[1] not in "bd") == 2
        assert pool.pending == 2
        drain(pool)
    assert RAN == ["a", "c"]


@pytest.mark.parametrize("n", [1, 2])
def test_a_deckgen_error_comes_back_with_its_type_and_findings(n, alarm):
    with Workers(n) as pool:
        pool.submit("ok", note, ("x",))
        pool.submit("deck", fails, ("deck",))
        pool.submit("other", fails, ("other",))
        results = drain(pool)
    assert results["ok"] == "X"
    assert type(results["deck"]) is DeckHasErrors and type(results["other"]) is DeckgenError
    f = results["deck"].findings[0]
    assert (f.code, f.where, f.file, f.hint) == ("too-few-cards", "cards", "deck.toml", "add cards")


def test_worker_processes_run_jobs_at_the_same_time_and_return_every_result(alarm):
    with Workers(2) as pool:
        for i in range(40):
            pool.submit(i, pow, (i, 2), priority=i % 3)
        assert drain(pool) == {i: i * i for i in range(40)}


def test_an_interrupt_in_a_worker_is_raised_here_instead_of_losing_the_job(alarm):
    with pytest.raises(KeyboardInterrupt), Workers(2) as pool:
        pool.submit("stop", interrupted)
        drain(pool)


def test_no_job_no_worker_process():
    with Workers(4) as pool:
        assert pool._pool is None and pool.pending == 0


def test_a_callback_job_goes_to_its_callback_and_is_not_waited_for(alarm):
    import threading

    from deckgen.workers import Callback

    got: list[object] = []
    failed: list[BaseException] = []
    over = threading.Event()

    def done(value):
        got.append(value)
        if len(got) == 3:
            over.set()

    with Workers(2) as pool:
        for i in range(3):
            pool.submit(("games", i), pow, (i, 3), callback=Callback(done, failed.append))
        pool.submit("face", note, ("f",))
        assert pool.pending == 1                          # only the job without a callback is waited for
        assert drain(pool) == {"face": "F"}
        assert over.wait(30)
    assert sorted(got) == [0, 1, 8] and failed == []


def test_a_callback_job_needs_worker_processes():
    from deckgen.workers import Callback

    with Workers(1) as pool, pytest.raises(ValueError):
        pool.submit("x", pow, (2, 2), callback=Callback(print, print))


def frozen_count() -> int:
    import gc

    return gc.get_freeze_count()


def test_workers_inherit_this_process_objects_frozen_and_this_process_does_not_keep_them_frozen(alarm):
    import gc

    kept = [object() for _ in range(10)]        # alive when the workers are forked
    assert gc.get_freeze_count() == 0
    with Workers(2) as pool:
        pool.submit("frozen", frozen_count)
        (_, in_worker), = drain(pool).items()
    assert in_worker >= len(kept)               # a worker's full collection never walks them
    assert gc.get_freeze_count() == 0


@pytest.fixture
def turns(monkeypatch):
    """Each turn of a Pool's worker-handler thread (one call of Pool._maintain_pool), counted."""
    from multiprocessing.pool import Pool

    counted_turns = []
    maintain = Pool._maintain_pool

    def counted(*args):
        counted_turns.append(1)
        return maintain(*args)

    monkeypatch.setattr(Pool, "_maintain_pool", staticmethod(counted))
    return counted_turns


def test_the_pools_handler_thread_does_not_wake_for_every_result(alarm, turns):
    """multiprocessing's Pool wakes its worker-handler thread whenever a result waits in the
    result pipe, and it polls every worker again each time; deckgen's pool wakes it only when a
    worker ends or the pool's state changes, so a run of many small jobs costs it a few turns."""
    with Workers(2) as pool:
        for i in range(200):
            pool.submit(i, note, (str(i),))
        results = drain(pool)
    assert results == {i: str(i) for i in range(200)}
    assert len(turns) < 20


def _upper(state: str, task: str) -> str:
    return task.upper()


def _same(spec: str) -> str:
    return spec


@pytest.mark.parametrize("ordered", [True, False])
def test_simulate_and_reports_pool_wakes_its_handler_thread_as_seldom(alarm, turns, ordered):
    """run_tasks (simulate, report) forks its own pool: the same quiet handler thread as Workers'."""
    from deckgen.runner import Work, run_tasks

    tasks = [str(i) for i in range(200)]
    got = dict(run_tasks(Work(_same, "", _upper), tasks, workers=2, ordered=ordered))
    assert got == {t: t.upper() for t in tasks}
    assert len(turns) < 100        # a turn each time every job in flight is done; the standard Pool: 600-3,000


def test_while_the_pool_runs_the_gil_changes_hands_sooner(alarm):
    """The pool's threads take in each result and hand out the next job: with Python's 5 ms
    switch interval they waited that long for the GIL while this process was busy, so the
    workers waited for jobs; the pool lowers the interval while it runs and restores it after."""
    import sys

    from deckgen.workers import SWITCH_INTERVAL

    before = sys.getswitchinterval()
    with Workers(2) as pool:
        pool.submit("a", note, ("a",))
        assert sys.getswitchinterval() == min(before, SWITCH_INTERVAL)
        assert drain(pool) == {"a": "A"}
    assert sys.getswitchinterval() == before


def test_overlapping_pools_put_the_switch_interval_back_when_the_last_one_closes(alarm):
    import sys

    from deckgen.workers import SWITCH_INTERVAL

    before = sys.getswitchinterval()
    first, second = Workers(2), Workers(2)
    first.submit("a", note, ("a",))
    second.submit("b", note, ("b",))
    assert drain(first) == {"a": "A"} and drain(second) == {"b": "B"}
    first.close()
    assert sys.getswitchinterval() == min(before, SWITCH_INTERVAL)     # the second still runs
    second.close()
    assert sys.getswitchinterval() == before
