"""Simulations on a Dask cluster (`--cluster`, docs/cluster.md): the same results, byte for byte,
as on this machine's cores, for simulate, matches and the balance report."""

import importlib.util
import json
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from deckgen import manifest, runner
from deckgen.balance import ReportOptions, build_report
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.rules import match
from deckgen.rules.simulate import PlayOptions, run, simulate
from deckgen.rules.table import compile_deck
from deckgen.runner import WAIT, Work, run_tasks


def _prepare(spec):
    return {"base": spec}


def _play(state, task):
    return state["base"] * task


class _Feed:
    """Hands out 0..9, waiting for the first result before handing out 5."""

    def __init__(self):
        self.i, self.taken = 0, 0

    def next_task(self):
        if self.i == 5 and not self.taken:
            return WAIT
        if self.i == 10:
            return None
        self.i += 1
        return self.i - 1


@pytest.mark.parametrize("workers", [1, 2])
def test_run_tasks_locally_in_order_and_with_a_waiting_source(workers):
    work = Work(_prepare, 3, _play)
    assert list(run_tasks(work, [1, 2, 3], workers)) == [(1, 3), (2, 6), (3, 9)]
    assert sorted(run_tasks(work, range(6), workers, ordered=False)) == [(i, 3 * i) for i in range(6)]
    if workers > 1:
        feed = _Feed()
        got = []
        for task, res in run_tasks(work, feed, workers):
            feed.taken += 1
            got.append((task, res))
        assert got == [(i, 3 * i) for i in range(10)]


def test_without_the_extra_the_cluster_option_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)      # import distributed -> ImportError
    with pytest.raises(DeckgenError) as exc:
        simulate(manifest.load_deck("classic"), [2], PlayOptions(games=4, cluster="tcp://127.0.0.1:8786"))
    assert "deckgen[cluster]" in str(exc.value)
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "2", "--games", "4",
                                    "--cluster", "tcp://127.0.0.1:8786"])
    assert res.exit_code == 2 and "deckgen[cluster]" in res.output and "Traceback" not in res.output


# whether the extra is installed, without importing it: distributed takes half a second to import, which
# the worker that collects this file but does not run its cluster tests would spend for nothing
NO_DASK = importlib.util.find_spec("distributed") is None
needs_dask = pytest.mark.skipif(NO_DASK, reason="the 'cluster' extra (pip install 'deckgen[cluster]') is not installed")


def _wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen in {seconds} s")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler and two one-thread workers as separate processes on 127.0.0.1, as docs/cluster.md
    starts them: deckgen's own process is then only a client (it refuses pickles from the cluster,
    which a scheduler running inside this process would need)."""
    if NO_DASK:
        pytest.skip("the 'cluster' extra (pip install 'deckgen[cluster]') is not installed")
    import os
    from pathlib import Path

    folder = tmp_path_factory.mktemp("cluster")
    info = folder / "scheduler.json"
    # the scheduler and the workers unpickle this file's functions, which pytest imports from tests/ as a
    # top-level module
    here = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here), str(here.parent), os.environ.get("PYTHONPATH", "")])}
    quiet = dict(cwd=here.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                               "0", "--scheduler-file", str(info), "--no-dashboard"], **quiet)]
    try:
        _wait_for(lambda: info.exists() and info.stat().st_size > 0, 60, "the scheduler's start")
        procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", str(info),
                                       "--nworkers", "2", "--nthreads", "1", "--host", "127.0.0.1",
                                       "--local-directory", str(folder), "--no-dashboard"], **quiet))
        address = json.loads(info.read_text())["address"]
        client = runner.connect(address)
        try:
            client.wait_for_workers(2, timeout=60)
        finally:
            client.close()
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        _stop(procs)


def _stop(procs):
    """Wait for each process to end after its SIGTERM, killing one that takes more than 20 s."""
    deadline = time.monotonic() + 20
    for p in procs:
        while p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        if p.poll() is None:
            p.kill()
            p.wait()


@needs_dask
def test_no_scheduler_at_the_address_is_a_usage_error(monkeypatch):
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 0.2)     # nothing listens there: refused at once, then retried until then
    res = CliRunner().invoke(main, ["simulate", "classic", "--players", "2", "--games", "4",
                                    "--cluster", "tcp://127.0.0.1:9"])
    assert res.exit_code == 2 and "no Dask scheduler answered" in res.output and "docs/cluster.md" in res.output


def test_run_tasks_on_a_cluster_in_order_and_as_they_finish(cluster):
    work = Work(_prepare, 5, _play)
    assert list(run_tasks(work, range(12), cluster=cluster)) == [(i, 5 * i) for i in range(12)]
    assert sorted(run_tasks(work, range(12), cluster=cluster, ordered=False)) == [(i, 5 * i) for i in range(12)]


def test_simulate_on_a_cluster_equals_the_local_run(cluster):
    deck = manifest.load_deck("no-mercy")
    here = simulate(deck, [2, 5], PlayOptions(games=40, seed=3, agent="greedy", workers=2))
    seen = []
    there = simulate(deck, [2, 5], PlayOptions(games=40, seed=3, agent="greedy", cluster=cluster),
                     progress=lambda what, done, total: seen.append((done, total)))
    assert json.dumps(here.to_json()) == json.dumps(there.to_json())
    # the progress bar moves as the cluster's results come back, and ends full
    assert seen[-1] == (80, 80) and len(seen) > 2 and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_turn_budget_keeps_the_same_games_on_a_cluster(cluster):
    table = compile_deck(manifest.load_deck("classic"))
    here = run(table, [3, 4], PlayOptions(games=60, seed=2, workers=1, turn_budget=2500))
    there = run(compile_deck(manifest.load_deck("classic")), [3, 4],
                PlayOptions(games=60, seed=2, turn_budget=2500, cluster=cluster))
    assert here == there and 0 < len(here[4]) < 60


def test_matches_on_a_cluster_equal_the_local_run(cluster):
    deck = manifest.load_deck("classic")
    assert (match.simulate_matches(deck, [3], PlayOptions(games=8, seed=2, workers=1))
            == match.simulate_matches(deck, [3], PlayOptions(games=8, seed=2, cluster=cluster)))


def test_report_on_a_cluster_equals_the_local_run(cluster):
    opts = dict(games=16, players=(2, 4), vary=("stacking=same-kind",), skill_games=2, think=2)   # experts too
    here = build_report("classic", ReportOptions(workers=2, **opts))
    there = build_report("classic", ReportOptions(cluster=cluster, **opts))
    assert json.dumps(here, sort_keys=True) == json.dumps(there, sort_keys=True)


def test_report_pdf_from_the_cli_on_a_cluster_is_byte_identical(cluster, tmp_path):
    args = ["report", "classic", "--players", "3", "--games", "10", "--agent", "greedy", "--lang", "en",
            "--skill-games", "2", "--think", "2"]
    a, b = tmp_path / "here.pdf", tmp_path / "there.pdf"
    res = CliRunner().invoke(main, [*args, "-o", str(a), "-j", "2"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, [*args, "-o", str(b), "--cluster", cluster])
    assert res.exit_code == 0, res.output
    assert a.read_bytes() == b.read_bytes()


def test_tune_on_a_cluster_gives_the_same_best_candidate(cluster, tmp_path):
    from test_tune import OPTS, classic_text

    from deckgen.tune import TuneOptions, tune

    path = tmp_path / "long.toml"
    path.write_text(classic_text(), encoding="utf-8")
    opts = {**OPTS, "trials": 8}
    here = tune(path, TuneOptions(**opts, study=tmp_path / "here.log", output=tmp_path / "here.toml", workers=2))
    there = tune(path, TuneOptions(**opts, study=tmp_path / "there.log", output=tmp_path / "there.toml",
                                   cluster=cluster))
    assert there.chosen.changes == here.chosen.changes and there.chosen.result == here.chosen.result
    assert [c.changes for c in there.search.candidates] == [c.changes for c in here.search.candidates]
    assert (tmp_path / "here.toml").read_text() == (tmp_path / "there.toml").read_text()


def test_the_verdict_plays_the_same_games_here_and_on_forked_workers(tmp_path):
    """The verdict's games go through the same runner as simulate's: one process, its own forked workers."""
    from deckgen import manifest, verdict

    deck = manifest.load_deck("classic")
    one = verdict.start([deck], seed=3, use_cache=False, workers=1).result(0)
    two = verdict.start([deck], seed=3, use_cache=False, workers=2).result(0)
    assert one.to_json() == two.to_json()


def test_the_verdict_on_a_cluster_is_the_verdict_played_here(cluster, tmp_path):
    from test_verdict import ALL_DRAW_FOUR

    from deckgen import manifest, verdict

    path = tmp_path / "deck.toml"
    path.write_text(ALL_DRAW_FOUR, encoding="utf-8")
    deck = manifest.load_deck(path)
    here = verdict.start([deck], use_cache=False, workers=1).result(0)
    there = verdict.start([deck], use_cache=False, cluster=cluster).result(0)
    assert there.to_json() == here.to_json() and any(f.code == "does-not-finish" for f in there.findings)
    res = CliRunner().invoke(main, ["check", str(path), "--no-cache", "--cluster", cluster, "--json"])
    assert res.exit_code == 1 and json.loads(res.stdout)["simulation"] == here.simulation.to_json()
