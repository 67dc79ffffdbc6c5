"""The table server as an attacker meets it, through the loopback only (docs/security.md, "The
table on a local network"): seat tokens, the Host and Origin checks, 4xx for every malformed
request, connection slots and the reaper, and no response that tells a seat another's hand, the
draw pile or the seed of the game in progress. The LAN address's Host header is sent to
127.0.0.1 (192.0.2.10 is a documentation address no test connects to)."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time

import pytest

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.play import Faces, PlayOptions, PlayServer, Session
from deckgen.play import server as play_server
from deckgen.play.guard import Guard

LAN = "192.0.2.10"
ROUTES_GET = ["", "events", "state.json", "config.json", "rules.json", "log.json", "face/back.png"]
ROUTES_POST = ["answer", "press", "new", "next", "seat"]


@pytest.fixture(scope="module")
def deck():
    return manifest.load_deck("classic")


@pytest.fixture(scope="module")
def faces(deck):
    return Faces(deck)


def _table(deck, faces, guard: Guard | None = None, **opts) -> PlayServer:
    s = Session(deck, PlayOptions(**{"players": 4, "humans": 2, "pace": 0, "lang": "en", **opts})).start()
    return PlayServer(s, faces, 0, lan=LAN, bind=["127.0.0.1"], guard=guard).start()


@pytest.fixture
def table(deck, faces):
    server = _table(deck, faces)
    yield server
    server.stop()


def request(server: PlayServer, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            host: str | None = None) -> tuple[int, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    h = {"Host": host or f"127.0.0.1:{server.port}", **(headers or {})}
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read() if "event-stream" not in (r.getheader("content-type") or "") else r.read1(65536)
    c.close()
    return r.status, data


def post(server: PlayServer, path: str, data, origin: str | None = "self", ctype="application/json", host=None):
    headers = {"Content-Type": ctype}
    if origin == "self":
        origin = f"http://127.0.0.1:{server.port}"
    if origin is not None:
        headers["Origin"] = origin
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return request(server, "POST", path, body, headers, host)


def seat_path(server: PlayServer, seat: int, route: str = "") -> str:
    return f"/s/{server.s.seats.tokens[seat]}/{route}"


def raw(port: int, data: bytes, wait: float = 8.0) -> bytes:
    """Send bytes as they are and read the answer until the server closes or ``wait`` passes."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        got = b""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            got += chunk
            if b"\r\n\r\n" in got:            # the status and the headers: all a test reads
                break
        return got


def status(answer: bytes) -> int:
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", answer)
    assert m, f"no HTTP answer, the connection was dropped: {answer[:80]!r}"
    return int(m.group(1))


# ---------------------------------------------------------------- keys, Host, Origin
def test_every_route_needs_a_seat_token(table):
    for route in ROUTES_GET:
        assert request(table, "GET", seat_path(table, 0, route))[0] == 200, route
        assert request(table, "GET", f"/s/not-a-token/{route}")[0] == 404, route
        assert request(table, "GET", f"/s/{table.s.seats.tokens[0][:-1]}/{route}")[0] == 404, route
    for route in ROUTES_POST:
        assert post(table, f"/s/nobody/{route}", {})[0] == 404, route
    assert request(table, "GET", "/")[0] == 404
    assert request(table, "GET", "/assets/play.js")[0] == 200
    assert request(table, "GET", "/assets/../session.py")[0] == 404


def test_the_host_header_must_name_this_server(table, deck, faces):
    path = seat_path(table, 0, "state.json")
    assert request(table, "GET", path, host="evil.example")[0] == 403
    assert request(table, "GET", path, host=f"evil.example:{table.port}")[0] == 403
    assert request(table, "GET", path, host=f"localhost:{table.port}")[0] == 200
    assert request(table, "GET", path, host=f"{LAN}:{table.port}")[0] == 200          # --lan: its address too
    assert request(table, "GET", path, host=f"{LAN}:{table.port + 1}")[0] == 403
    local = PlayServer(table.s, faces, 0)                                             # without --lan
    local.start()
    try:
        assert request(local, "GET", path, host=f"{LAN}:{local.port}")[0] == 403
        assert request(local, "GET", path)[0] == 200
        assert [s.getsockname()[0] for s in local.sockets] == ["127.0.0.1"]
    finally:
        local.stop()


def test_every_change_must_come_from_the_tables_own_page(table):
    for route in ROUTES_POST:
        path = seat_path(table, 0, route)
        for origin in (None, "http://evil.example", f"http://evil.example:{table.port}", "null",
                       f"https://127.0.0.1:{table.port}"):
            code, body = post(table, path, {"seq": "x", "i": 0}, origin=origin)
            assert code == 403, (route, origin)
        assert post(table, path, {"seq": "x", "i": 0})[0] != 403 or route in ("new", "next", "seat")
        assert post(table, path, {}, origin=f"http://{LAN}:{table.port}", host=f"{LAN}:{table.port}")[0] != 403 \
            or route in ("new", "next", "seat")
    # the host's own changes pass the check; another person's are refused by the table
    assert post(table, seat_path(table, 1, "new"), {"same_seed": True})[0] == 403
    assert post(table, seat_path(table, 0, "seat"), {"seat": 0})[0] == 403


def test_an_answer_is_checked_against_the_seat_the_decision_and_its_serial(table):
    s = table.s
    deadline = time.monotonic() + 10
    while (d := s.pending()) is None or not s.seats.human(d.player):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    me, other = d.player, 1 - d.player
    seq = s.seq()
    assert post(table, seat_path(table, other, "answer"), {"seq": seq, "i": 0})[0] == 409
    assert post(table, seat_path(table, me, "answer"), {"seq": seq + "0", "i": 0})[0] == 409
    assert post(table, seat_path(table, me, "answer"), {"seq": seq, "i": 10 ** 30})[0] == 409
    assert post(table, seat_path(table, me, "answer"), b'{"seq": 1e999, "i": NaN}')[0] == 409
    assert s.seq() == seq
    assert post(table, seat_path(table, me, "answer"), {"seq": seq, "i": 0})[0] == 200
    assert post(table, seat_path(table, me, "answer"), {"seq": seq, "i": 0})[0] == 409


# ---------------------------------------------------------------- malformed requests: 4xx, never a dropped connection
def test_every_malformed_request_gets_a_4xx(table, monkeypatch):
    monkeypatch.setattr(play_server, "BODY_TIMEOUT", 0.5)
    port, token = table.port, table.s.seats.tokens[0]
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    origin = f"Origin: http://127.0.0.1:{port}\r\n".encode()
    deep = b"[" * 2040 + b"]" * 2040
    post_head = b"POST /s/" + token.encode() + b"/answer HTTP/1.1\r\n" + host + origin

    def with_body(body: bytes, ctype: bytes = b"application/json") -> bytes:
        return post_head + b"Content-Type: " + ctype + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body

    cases = {
        "garbage": b"GARBAGE\r\n\r\n",
        "no version": b"GET /\r\n\r\n",
        "binary path": b"GET /s/\xff\xfe/ HTTP/1.1\r\n" + host + b"\r\n",
        "bad escape": b"GET /s/%ZZ%/state.json HTTP/1.1\r\n" + host + b"\r\n",
        "NUL escape": b"GET /s/" + token.encode() + b"%00/state.json HTTP/1.1\r\n" + host + b"\r\n",
        "header without colon": b"GET / HTTP/1.1\r\n" + host + b"nonsense\r\n\r\n",
        "huge header": b"GET / HTTP/1.1\r\n" + host + b"X-Big: " + b"a" * 40000 + b"\r\n\r\n",
        "huge path": b"GET /" + b"a" * 40000 + b" HTTP/1.1\r\n" + host + b"\r\n",
        "no host": b"GET /s/" + token.encode() + b"/ HTTP/1.0\r\n\r\n",
        "two hosts": b"GET / HTTP/1.1\r\n" + host + host + b"\r\n",
        "unknown method": b"BREW /s/" + token.encode() + b"/ HTTP/1.1\r\n" + host + b"\r\n",
        "letters in length": post_head + b"Content-Type: application/json\r\nContent-Length: ten\r\n\r\n",
        "negative length": post_head + b"Content-Type: application/json\r\nContent-Length: -5\r\n\r\n",
        "no length": post_head + b"Content-Type: application/json\r\n\r\n",
        "too long": with_body(b"{" + b'"a":1,' * 1000 + b'"b":1}'),
        "2,040 deep": with_body(deep[:2040] + deep[2040:]),
        "deep object": with_body(b'{"a":' * 50 + b"1" + b"}" * 50),
        "not JSON": with_body(b"{'seq': 1}"),
        "not UTF-8": with_body(b'{"seq": "\xff"}'),
        "a list": with_body(b"[1, 2]"),
        "a form": with_body(b"seq=1&i=0", b"application/x-www-form-urlencoded"),
        "cut short": post_head + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"seq\"",
        "chunked deep": post_head + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + hex(len(deep))[2:].encode() + b"\r\n" + deep + b"\r\n0\r\n\r\n",
        "bad chunk": post_head + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "seat not a number": post_head.replace(b"/answer", b"/seat")
        + b'Content-Type: application/json\r\nContent-Length: 12\r\n\r\n{"seat":"1"}',
        "match not a bool": post_head.replace(b"/answer", b"/new")
        + b'Content-Type: application/json\r\nContent-Length: 13\r\n\r\n{"match":"x"}',
    }
    for name, data in cases.items():
        code = status(raw(port, data))
        assert 400 <= code < 500, (name, code)
    # odd query values on every route: answered (they mean nothing to the server)
    for route in ROUTES_GET:
        for query in ("?v=%ff%fe%00", "?v=" + "9" * 5000, "?a=1&a=2&&&=&%", "?v=-1e999", "?\x7f"):
            code = status(raw(port, f"GET /s/{token}/{route}{query} HTTP/1.1\r\n".encode("latin-1") + host
                              + b"Connection: close\r\n\r\n", wait=3))
            assert code in (200, 400, 404), (route, query, code)


# ---------------------------------------------------------------- connections: slots per client, the reaper
def _trickle(port: int, n: int, stop: threading.Event, answers: list[bytes]) -> list[threading.Thread]:
    """n connections that each send a request a byte every 0.3 s and never finish it."""
    def one() -> None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                for byte in b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200:
                    if stop.is_set():
                        return
                    sock.sendall(bytes([byte]))
                    try:
                        got = sock.recv(4096)
                    except TimeoutError:
                        continue
                    answers.append(got)
                    return
        except OSError:
            return

    threads = [threading.Thread(target=one, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    return threads


def test_trickling_connections_never_keep_the_page_out(deck, faces):
    guard = Guard(request_deadline=2.0)
    server = _table(deck, faces, guard=guard)
    stop = threading.Event()
    answers: list[bytes] = []
    try:
        threads = _trickle(server.port, 40, stop, answers)
        end = time.monotonic() + 1.0
        while time.monotonic() < end and guard.count() < 30:
            time.sleep(0.02)
        assert guard.count() >= 30
        codes = []
        for _ in range(20):
            codes.append(request(server, "GET", seat_path(server, 0, "state.json"))[0])
            time.sleep(0.05)
        assert codes == [200] * 20                    # the page is answered every time
        end = time.monotonic() + 6
        while time.monotonic() < end and len(answers) < 40:
            time.sleep(0.05)
        assert len(answers) == 40                      # every trickler was told why, and closed: some to make
        assert all(a.startswith(b"HTTP/1.1 408") for a in answers)   # room, the rest by the reaper
    finally:
        stop.set()
        for t in threads:
            t.join(2)
        server.stop()


def test_only_when_every_slot_is_serving_is_a_new_connection_busy(deck, faces):
    guard = Guard(max_connections=4, per_client=4)
    server = _table(deck, faces, guard=guard)
    streams = []
    try:
        for seat in (0, 0, 1, 1):
            c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            c.request("GET", seat_path(server, seat, "events"), headers={"Host": f"127.0.0.1:{server.port}"})
            r = c.getresponse()
            assert r.status == 200
            r.read1(100)
            streams.append(c)
        assert status(raw(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")) == 503
        assert guard.refused >= 1
    finally:
        for c in streams:
            c.close()
        server.stop()


def test_a_seat_holds_a_few_event_streams_at_most(table):
    conns = []
    try:
        for _ in range(play_server.STREAMS_PER_SEAT + 2):
            c = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5)
            c.request("GET", seat_path(table, 0, "events"), headers={"Host": f"127.0.0.1:{table.port}"})
            r = c.getresponse()
            r.read1(100)
            conns.append((c, r))
        deadline = time.monotonic() + 5
        while len(table.hub.streams.get(0, [])) > play_server.STREAMS_PER_SEAT and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(table.hub.streams[0]) == play_server.STREAMS_PER_SEAT
    finally:
        for c, _ in conns:
            c.close()


# ---------------------------------------------------------------- secrets
def _faces_named(data, skip=("over",)) -> set[int]:
    out: set[int] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            if k in skip:
                continue
            if k == "face" and isinstance(v, int):
                out.add(v)
            else:
                out |= _faces_named(v, skip)
    elif isinstance(data, list):
        for v in data:
            out |= _faces_named(v, skip)
    return out


def _stream(server: PlayServer, seat: int, into: list[dict], stop: threading.Event) -> threading.Thread:
    def run() -> None:
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
        c.request("GET", seat_path(server, seat, "events"), headers={"Host": f"127.0.0.1:{server.port}"})
        r = c.getresponse()
        buf = b""
        while not stop.is_set():
            try:
                buf += r.read1(65536)
            except (TimeoutError, OSError):
                continue
            while b"\n\n" in buf:
                msg, buf = buf.split(b"\n\n", 1)
                for line in msg.split(b"\n"):
                    if line.startswith(b"data: "):
                        into.append(json.loads(line[6:]))
        c.close()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_no_response_tells_a_seat_another_hand_the_draw_pile_or_the_seed(deck, faces):
    """A whole hand, two people and two bots: every response to every seat (each view, event,
    configuration, rules and log) names only that seat's cards and the top card, holds the seat's
    true hand, and never the seed, until the game is over."""
    server = _table(deck, faces, seed=None)
    s = server.s
    secret = str(s.seed)
    seen: dict[int, list[dict]] = {0: [], 1: []}
    stop = threading.Event()
    threads = [_stream(server, q, seen[q], stop) for q in (0, 1)]
    bodies: list[bytes] = []
    try:
        for _ in range(600):
            deadline = time.monotonic() + 10
            while not s.game_over and ((d := s.pending()) is None or not s.seats.human(d.player)):
                assert time.monotonic() < deadline, "the bots did not play"
                time.sleep(0.005)
            version = s.version
            truth = {q: sorted(s.hand.game.hands[q]) for q in (0, 1)}
            for q in (0, 1):
                for route in ROUTES_GET[2:6]:
                    code, body = request(server, "GET", seat_path(server, q, route))
                    assert code == 200
                    bodies.append(body)
                    if route == "state.json" and s.version == version:
                        v = json.loads(body)["view"]
                        assert [c["face"] for c in v["hand"]] == truth[q]
            if s.game_over:
                break
            d = s.pending()
            assert post(server, seat_path(server, d.player, "answer"), {"seq": s.seq(), "i": 0})[0] == 200
        assert s.game_over
        time.sleep(0.3)
    finally:
        stop.set()
        for t in threads:
            t.join(3)
        server.stop()
    over = [b for b in bodies if b'"over":{' in b or b'"seed":' + secret.encode() in b]
    for body in bodies:
        if body not in over:
            assert secret.encode() not in body
    assert any(secret.encode() in b for b in over)                 # shown once the game is over, for a replay
    for q in (0, 1):
        assert seen[q], "no event reached the page"
        for msg in seen[q]:
            _names_only_its_own(msg, secret)


def _names_only_its_own(msg: dict, secret: str) -> None:
    """An event of a game in progress names the seat's own cards and the top card, never the seed."""
    v = msg["view"]
    if v["over"] is not None:
        return
    assert secret not in json.dumps(msg) and "hands" not in json.dumps(msg)
    mine = {c["face"] for c in v["hand"]} | ({v["top"]["face"]} if v["top"] else set())
    assert _faces_named(msg) <= mine, _faces_named(msg) - mine


def test_stop_closes_the_streams_and_frees_the_port(deck, faces):
    server = _table(deck, faces)
    port = server.port
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    c.request("GET", seat_path(server, 0, "events"), headers={"Host": f"127.0.0.1:{port}"})
    r = c.getresponse()
    r.read1(100)
    start = time.monotonic()
    server.stop()
    assert time.monotonic() - start < 5
    assert not any(t.name.startswith("deckgen-play-server") and t.is_alive() for t in threading.enumerate())
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
    c.close()


def test_answers_are_not_held_back_by_nagles_algorithm(table):
    """Every connection the server accepts sends at once (TCP_NODELAY): with Nagle's algorithm on, a
    kept-alive connection's body waited about 40 ms for the ACK of its headers."""
    c = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5)
    c.request("GET", seat_path(table, 0, "state.json"), headers={"Host": f"127.0.0.1:{table.port}"})
    c.getresponse().read()
    conns = list(table.guard.conns.values())
    assert conns
    for conn in conns:
        sock = conn.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    c.close()


def test_the_host_gives_a_seat_to_a_bot_and_its_link_opens_nothing_more(table):
    events: list[dict] = []
    stop = threading.Event()
    gone_path = seat_path(table, 1, "state.json")
    reader = threading.Thread(target=_gone_reader, args=(table, seat_path(table, 1, "events"), events, stop), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 5
        while not table.hub.joined(1):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert post(table, seat_path(table, 1, "seat"), {"seat": 1})[0] == 403      # only the host
        assert post(table, seat_path(table, 0, "seat"), {"seat": 1})[0] == 200
        assert request(table, "GET", gone_path)[0] == 404
        reader.join(5)
        assert events and events[-1] == "gone"                                   # its page is told
        assert not table.s.seats.human(1)
    finally:
        stop.set()


def _gone_reader(server: PlayServer, path: str, into: list, stop: threading.Event) -> None:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=2)
    c.request("GET", path, headers={"Host": f"127.0.0.1:{server.port}"})
    r = c.getresponse()
    buf = b""
    while not stop.is_set():
        try:
            chunk = r.read1(65536)
        except (TimeoutError, OSError, http.client.HTTPException):
            continue
        if not chunk:
            break
        buf += chunk
        for name in re.findall(rb"event: (\w+)", buf):
            into.append(name.decode())
        buf = b""
        if "gone" in into:
            break
    c.close()


def test_expert_bots_think_in_a_process_of_their_own(deck, faces):
    """--bots expert: the experts think outside the server's process, and their answers reach the
    game (a page's GET meanwhile: benchmarks/play.py)."""
    from concurrent.futures import ProcessPoolExecutor

    server = _table(deck, faces, players=2, humans=1, bots="expert", seed=5)
    s = server.s
    try:
        assert isinstance(server.driver.procs, ProcessPoolExecutor)
        for _ in range(3):
            deadline = time.monotonic() + 60
            while (d := s.pending()) is None or d.player != 0:
                assert time.monotonic() < deadline, "the expert did not answer"
                time.sleep(0.01)
            assert post(server, seat_path(server, 0, "answer"), {"seq": s.seq(), "i": 0})[0] == 200
        bots = [e for e in s.hand.game.log if type(e).__name__ == "Play" and e.player == 1]
        assert bots, "no move of the expert reached the game"
    finally:
        server.stop()


def test_a_lan_address_this_computer_does_not_have_is_named_as_such():
    """--lan with an address that is not this computer's (192.0.2.1, kept for documentation, never
    a real host: binding to it fails here and sends nothing): the message names --lan and says
    why, not "another program uses the port"; a port in use still names --port."""
    with pytest.raises(DeckgenError) as info:
        play_server.PlayServer._listen("192.0.2.1", 0)
    (found,) = info.value.findings
    assert found.where == "--lan" and "not an address of this computer" in found.message, found
    taken = play_server.PlayServer._listen("127.0.0.1", 0)           # listening: the port is in use
    try:
        with pytest.raises(DeckgenError) as info:
            play_server.PlayServer._listen("127.0.0.1", taken.getsockname()[1])
        assert info.value.findings[0].where == "--port"
    finally:
        taken.close()
