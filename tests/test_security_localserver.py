"""The local page server (deckgen.localserver): the Host guard, idle timeouts, the connection cap and
a clean shutdown, tried with raw sockets the way a hostile page or program would."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from deckgen.errors import DeckgenError
from deckgen.localserver import HOST, LocalHandler, LocalServer


class _Hello(LocalHandler):
    def do_GET(self) -> None:
        self.send(200, b"hello", "text/plain")

    def do_POST(self) -> None:
        body = self.read_body(limit=16)
        if body is not None:
            self.send(200, body[::-1], "text/plain")


def _ask(server: LocalServer, raw: bytes, timeout: float = 5.0) -> bytes:
    with socket.create_connection((HOST, server.port), timeout=timeout) as s:
        s.sendall(raw)
        chunks = []
        while True:
            data = s.recv(4096)
            if not data:
                break
            chunks.append(data)
    return b"".join(chunks)


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def _get(host: str | None) -> bytes:
    head = f"Host: {host}\r\n" if host is not None else ""
    return f"GET / HTTP/1.1\r\n{head}Connection: close\r\n\r\n".encode()


@pytest.fixture
def server():
    with LocalServer(_Hello, 0, idle_timeout=0.5, request_deadline=1.0, max_connections=4) as s:
        yield s


def test_it_listens_on_127_0_0_1_only(server):
    assert server.server_address[0] == HOST == "127.0.0.1"
    assert server.url == f"http://127.0.0.1:{server.port}/"


def test_only_its_own_address_in_the_host_header_is_answered(server):
    port = server.port
    assert _status(_ask(server, _get(f"127.0.0.1:{port}"))) == 200
    assert _status(_ask(server, _get(f"LocalHost:{port}"))) == 200
    reply = _ask(server, _get(f"127.0.0.1:{port}"))
    assert reply.endswith(b"hello")
    for host in ("attacker.example", f"attacker.example:{port}", "127.0.0.1", "localhost",
                 f"127.0.0.1:{port + 1}", f"localhost:{port}.attacker.example", "", None):
        reply = _ask(server, _get(host))
        assert _status(reply) == 403, host
        assert b"hello" not in reply


def test_the_guard_covers_every_method(server):
    post = b"POST / HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
    assert _status(_ask(server, post)) == 403
    ok = f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
    assert _ask(server, ok.encode()).endswith(b"cba")


def test_a_body_over_the_cap_is_refused_unread(server):
    big = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: 1000000000\r\n"
           "Connection: close\r\n\r\n").encode()
    assert _status(_ask(server, big)) == 413
    none = f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode()
    assert _status(_ask(server, none)) == 411


def test_an_idle_connection_is_closed():
    # its own server with a shorter idle timeout than the fixture's (whose 0.5 s leaves room for the
    # connections the cap test holds open): the test waits for it
    with LocalServer(_Hello, 0, idle_timeout=0.2, request_deadline=1.0) as server, \
            socket.create_connection((HOST, server.port), timeout=10) as s:
        start = time.monotonic()
        assert s.recv(100) == b""                  # the server hangs up; nothing was sent
        assert time.monotonic() - start < 5
        _wait(lambda: server.connections == 0)


def test_a_client_trickling_bytes_is_cut_off_at_the_deadline():
    # its own server, all three times shorter than the fixture's: a request deadline of 0.6 s, twice its
    # idle timeout of 0.3 s, so the client, who writes every 0.1 s, is cut off by the deadline alone
    with LocalServer(_Hello, 0, idle_timeout=0.3, request_deadline=0.6) as server, \
            socket.create_connection((HOST, server.port), timeout=10) as s:
        start = time.monotonic()
        s.sendall(b"GET / HTTP/1.1\r\n")
        closed = False
        while time.monotonic() - start < 8:
            try:
                s.sendall(b"X-A: b\r\n")          # never finishes its headers, never idle for long
            except OSError:
                closed = True
                break
            s.settimeout(0.1)
            try:
                if s.recv(100) == b"":
                    closed = True
                    break
            except TimeoutError:
                pass
        assert closed and time.monotonic() - start < 8


def test_connections_over_the_cap_are_turned_away_and_threads_do_not_pile_up(server):
    before = threading.active_count()
    held = [socket.create_connection((HOST, server.port), timeout=5) for _ in range(4)]
    try:
        _wait(lambda: server.connections == 4)
        extra = _ask(server, _get(f"127.0.0.1:{server.port}"))
        assert _status(extra) == 503
        assert threading.active_count() <= before + 4
    finally:
        for s in held:
            s.close()
    _wait(lambda: server.connections == 0)
    assert _status(_ask(server, _get(f"127.0.0.1:{server.port}"))) == 200   # served again once they went


def test_stop_closes_open_connections_and_frees_the_port():
    server = LocalServer(_Hello, 0, idle_timeout=60, request_deadline=120).start()
    port = server.port
    held = [socket.create_connection((HOST, port), timeout=5) for _ in range(3)]
    _wait(lambda: server.connections == 3)
    start = time.monotonic()
    server.stop()
    assert time.monotonic() - start < 5
    assert server.connections == 0
    for s in held:
        assert s.recv(10) == b""
        s.close()
    with pytest.raises(OSError):
        socket.create_connection((HOST, port), timeout=1).close()


def test_a_port_in_use_is_a_deckgen_error():
    with LocalServer(_Hello, 0) as first, pytest.raises(DeckgenError) as info:
        LocalServer(_Hello, first.port)
    assert info.value.exit_code == 2
    assert "cannot serve on 127.0.0.1:" in info.value.findings[0].message


def _wait(pred, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")
