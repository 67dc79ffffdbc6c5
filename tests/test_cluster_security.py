"""--cluster cannot run code on you (docs/cluster.md, docs/security.md): addresses checked before any
connection, results as checked JSON, no pickle from the cluster unpickled, every wait bounded.
Traffic goes to 127.0.0.1 only; the refusal of another address is proven without a connection."""

import contextlib
import importlib.util
import os
import pickle
import socket
import threading
import time

import pytest
from click.testing import CliRunner

from deckgen import runner, wire
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.runner import Cluster, cluster_of

NO_DASK = importlib.util.find_spec("distributed") is None


def cli(*args):
    return CliRunner().invoke(main, list(map(str, args)))


@pytest.fixture
def no_connection(monkeypatch):
    """Fails any socket connection (and records it), so a test proves nothing was opened."""
    tried = []

    def refuse(self, address, *a):
        tried.append(address)
        raise AssertionError(f"a socket connected to {address}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", lambda address, *a, **k: refuse(None, address))
    return tried


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "10.0.0.5:8786", "tcp://scheduler.example:8786",
                                     "tcp://[2001:db8::1]:8786", "tcp://192.168.1.2:8786"])
@pytest.mark.parametrize("command", [["simulate", "classic", "--players", "2", "--games", "4"],
                                     ["report", "classic", "--players", "2", "--games", "10", "--skill-games", "0"],
                                     ["tune", "classic", "--trials", "1"]])
def test_a_plain_address_off_this_machine_is_refused_before_any_connection(no_connection, address, command):
    res = cli(*command, "--cluster", address)
    assert res.exit_code == 2, res.output
    assert "is not on this machine" in res.output and "tls://" in res.output and "--cluster-insecure-no-tls" in res.output
    assert "Traceback" not in res.output and no_connection == []


@pytest.mark.parametrize(("address", "said"), [
    ("http://127.0.0.1:8786", "http:// is not tcp:// or tls://"),
    ("https://127.0.0.1:8786", "https:// is not tcp:// or tls://"),
    ("ucx://127.0.0.1:8786", "ucx:// is not tcp:// or tls://"),
    ("ws://127.0.0.1:8786", "ws:// is not tcp:// or tls://"),
    ("inproc://127.0.0.1/1/1", "inproc:// is not tcp:// or tls://"),
    ("tls://127.0.0.1:8786", "needs certificates: --cluster-ca, --cluster-cert, --cluster-key"),
    ("", "an empty --cluster address"),
    ("   ", "an empty --cluster address"),
    ("tcp://127.0.0.1", "has no host and port"),
    ("tcp://127.0.0.1:99999", "has no host and port"),
    ("tcp://127.0.0.1:8786/path", "is not HOST:PORT"),
])
def test_every_odd_address_is_a_clear_error(no_connection, address, said):
    res = cli("simulate", "classic", "--players", "2", "--games", "4", "--cluster", address)
    assert res.exit_code == 2 and said in res.output, res.output
    assert "Traceback" not in res.output and no_connection == []


def test_tls_needs_the_three_files_and_the_opt_out_is_explicit(tmp_path, no_connection):
    with pytest.raises(DeckgenError, match="certificate file"):
        cluster_of(Cluster("tls://10.0.0.5:8786", "ca.pem", "cert.pem", "key.pem"))
    for name in ("ca.pem", "cert.pem", "key.pem"):
        (tmp_path / name).write_text("x")
    files = [str(tmp_path / n) for n in ("ca.pem", "cert.pem", "key.pem")]
    assert cluster_of(Cluster("tls://10.0.0.5:8786", *files)).tls
    assert cluster_of(Cluster("tcp://10.0.0.5:8786", insecure=True)).address == "tcp://10.0.0.5:8786"
    assert cluster_of("tcp://localhost:8786").address == "tcp://localhost:8786"
    assert cluster_of("127.0.0.2:1").address == "tcp://127.0.0.2:1"
    res = cli("simulate", "classic", "--players", "2", "--cluster-insecure-no-tls")
    assert res.exit_code == 2 and "go with --cluster" in res.output
    assert no_connection == []


@pytest.mark.skipif(NO_DASK, reason="the 'cluster' extra is not installed")
def test_a_listener_that_accepts_and_never_answers_ends_in_exit_2(monkeypatch):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    held = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(listener.accept()[0])       # accepted, never answered

    threading.Thread(target=accept, daemon=True).start()
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 1)
    monkeypatch.setattr(runner, "HANDSHAKE_GRACE", 2)
    began = time.monotonic()
    try:
        res = cli("simulate", "classic", "--players", "2", "--games", "4", "--cluster", f"tcp://127.0.0.1:{port}")
    finally:
        stop.set()
        listener.close()
        for c in held:
            c.close()
    assert res.exit_code == 2 and "no Dask scheduler answered" in res.output, res.output
    assert time.monotonic() - began < 1 + 2 + 5
    assert held                                           # it did accept


class _Boom:
    def __reduce__(self):
        return (os.system, ("echo owned > /dev/null",))


def test_the_client_unpickles_plain_values_only():
    assert runner.plain_loads(pickle.dumps({"a": [1, 2.5, "x", b"y", (1, None)], "s": {1}})) == \
        {"a": [1, 2.5, "x", b"y", (1, None)], "s": {1}}
    assert runner.plain_loads(pickle.dumps(bytes)) is bytes          # Dask's header of a bytes result
    with pytest.raises(pickle.UnpicklingError, match=r"refuses to unpickle posix\.system"):
        runner.plain_loads(pickle.dumps(_Boom()))
    with pytest.raises(pickle.UnpicklingError):
        runner.plain_loads(pickle.dumps(DeckgenError))


@pytest.mark.skipif(NO_DASK, reason="the 'cluster' extra is not installed")
def test_while_connected_distributed_reads_pickles_with_the_plain_loader():
    import distributed.client as dclient
    import distributed.protocol.pickle as dpickle

    before = dpickle.loads
    with runner.plain_unpickling():
        assert dpickle.loads is runner.plain_loads and dclient.pickle.loads is runner.plain_loads
        with pytest.raises(pickle.UnpicklingError):
            dpickle.loads(pickle.dumps(_Boom()))
    assert dpickle.loads is before


def test_results_are_checked_json_documents():
    from deckgen import __version__ as v

    assert wire.loads(wire.dumps(v, [(1, "a"), {"k": 2}]), v, "w") == [(1, "a"), {"k": 2}]
    for bad, said in [(pickle.dumps([1]), "not JSON"), ("text", "not a result document"),
                      (b'{"ok": 1}', "of another shape"), (b'{"deckgen": "%s", "ok": {"$": "Popen", "v": []}}' % v.encode(),
                                                         "no result here holds"),
                      (b'{"deckgen": "%s", "ok": NaN}' % v.encode(), "not JSON"),
                      (b'{"deckgen": "%s", "ok": {"?": 1}}' % v.encode(), "no documented shape")]:
        with pytest.raises(DeckgenError, match=said):
            wire.loads(bad, v, "worker w")
    with pytest.raises(DeckgenError, match=r"runs deckgen '0\.0\.0'"):
        wire.loads(wire.dumps("0.0.0", 1), v, "worker w")
    with pytest.raises(DeckgenError, match="a task failed on worker w: ValueError: x"):
        wire.loads(wire.dumps(v, failure="ValueError: x"), v, "worker w")


def test_a_record_with_a_field_of_the_wrong_type_is_refused():
    from deckgen import __version__ as v
    from deckgen import manifest
    from deckgen.rules.bots import make as make_agent
    from deckgen.rules.simulate import play_record
    from deckgen.rules.table import compile_deck

    rec = play_record(compile_deck(manifest.load_deck("classic")), make_agent("random"), 1, 2, 0)
    good = wire.dumps(v, [rec])
    assert wire.loads(good, v, "w") == [rec]
    import json

    for field, value in ((2, "many"), (0, {"$": "Outcome", "v": "won"}), (12, {"(": [1, "x"]})):
        doc = wire.to_plain([rec])
        doc[0]["v"][field] = value                      # turns as a string, an outcome there is not, a kind count as text
        with pytest.raises(DeckgenError, match=r"GameRecord|Outcome"):
            wire.loads(json.dumps({"deckgen": v, "ok": doc}).encode(), v, "w")
