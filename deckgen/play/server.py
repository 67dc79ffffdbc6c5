"""The table's server: Starlette routes on uvicorn, each page pushed its view by Server-Sent Events.

Every route but the page's static files is under its seat's token, ``/s/TOKEN/``; a token that
opens no seat gets 404, whatever follows it:

- ``GET /s/TOKEN/``: the page (``/assets/play.js``, ``/assets/play.css`` are its script and style);
- ``GET /s/TOKEN/events``: the seat's view as an event stream: an ``event: view`` with
  ``{"boot", "view", "log": {"from", "lines", "reset"}}`` at once and after every change, the log
  sent line by line (only lines the stream has not sent), a comment every 15 s when nothing changes;
- ``GET /s/TOKEN/state.json``: the view once; ``/config.json``: the labels and card texts;
  ``/rules.json``: the rulebook's text; ``/face/ID.png``: a card face; ``/log.json``: the engine's
  log of the finished hands (the seed once the game is over);
- ``POST /s/TOKEN/answer`` ``{"seq": S, "i": I}``: answer I to decision S (409 when S is not the
  seat's pending decision or I not one of its answers); ``/press`` ``{"seq", "what": "uno"|"catch"}``
  (the race UNO mode); the host's ``/new`` ``{"same_seed", "match"}``, ``/next`` and
  ``/seat`` ``{"seat": N}`` (hand seat N to a bot); 403 from any other seat.

A POST must be JSON (``Content-Type: application/json``) of at most :data:`MAX_POST` bytes,
nested at most :data:`MAX_DEPTH` deep, sent within :data:`BODY_TIMEOUT` seconds; any other is
answered 4xx (400, 408, 411, 413, 415), never dropped. Host, Origin and the connections are
checked below the routes (:mod:`deckgen.play.guard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import secrets
import socket
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from deckgen.errors import DeckgenError, error
from deckgen.play import views
from deckgen.play.driver import Driver
from deckgen.play.faces import Faces
from deckgen.play.guard import Gate, Guard, guarded_protocol
from deckgen.play.session import Session

MAX_POST = 4096
MAX_DEPTH = 4
BODY_TIMEOUT = 5.0
KEEPALIVE = 15.0            # seconds between comments on a quiet event stream
STREAMS_PER_SEAT = 3        # event streams one seat may hold: a newer one closes the oldest
ASSETS = {"play.js": "text/javascript; charset=utf-8", "play.css": "text/css; charset=utf-8"}
HOST = "127.0.0.1"

for _name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
    logging.getLogger(_name).addHandler(logging.NullHandler())
    logging.getLogger(_name).propagate = False


def asset(name: str) -> bytes:
    return resources.files("deckgen.play").joinpath("assets").joinpath(name).read_bytes()


class BadRequest(Exception):
    def __init__(self, status: int, text: str):
        super().__init__(text)
        self.status, self.text = status, text


def depth(body: bytes) -> int:
    """How deep JSON text nests its arrays and objects (strings skipped), without parsing it."""
    deepest = level = 0
    in_str = escaped = False
    for ch in body.decode("utf-8", "replace"):
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            level += 1
            deepest = max(deepest, level)
        elif ch in "]}":
            level -= 1
    return deepest


class Hub:
    """The pages' side of a session: who is connected, and waking their streams on a change."""

    def __init__(self, session: Session):
        self.s = session
        self.boot = secrets.token_hex(4)          # this server's run: a page that sees another knows it restarted
        self.loop: asyncio.AbstractEventLoop | None = None
        self.changed: asyncio.Event | None = None
        self.closing: asyncio.Event | None = None
        self.streams: dict[int, list[asyncio.Event]] = {}

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()
        self.closing = asyncio.Event()
        self.s.subscribe(self.poke)

    def poke(self) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        old, self.changed = self.changed, asyncio.Event()
        if old is not None:
            old.set()

    async def wait(self, timeout: float) -> None:
        assert self.changed is not None and self.closing is not None
        changed = self.changed
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)

    def joined(self, seat: int) -> bool:
        return bool(self.streams.get(seat))


class PlayServer:
    """The table served on 127.0.0.1 (and, with ``lan``, on the machine's LAN address) in a thread
    of its own: ``start()``, ``url``, ``links``, ``stop()``.

    ``bind``: the addresses to listen on (default 127.0.0.1, plus ``lan``); ``lan``: the LAN
    address the join links name and the Host header may carry."""

    def __init__(self, session: Session, faces: Faces, port: int = 0, *, lan: str | None = None,
                 bind: list[str] | None = None, guard: Guard | None = None):
        self.s, self.faces = session, faces
        self.lan = lan
        self.bind = bind if bind is not None else [HOST, *([lan] if lan else [])]
        self.guard = guard or Guard()
        self.hub = Hub(session)
        self.driver = Driver(session)
        self.sockets = [self._listen(addr, port) for addr in self.bind[:1]]
        self.port = int(self.sockets[0].getsockname()[1])
        self.sockets += [self._listen(addr, self.port) for addr in self.bind[1:]]
        self._thread: threading.Thread | None = None
        self._server: Any = None
        self._ready = threading.Event()
        self._rules: dict[str, list[dict[str, Any]]] = {}

    @staticmethod
    def _listen(addr: str, port: int) -> socket.socket:
        # IPPROTO_TCP named: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on sockets that say
        # so, and with it on a kept-alive connection's body waits ~40 ms for the ACK of its headers
        sock = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((addr, port))
        except OSError as exc:
            sock.close()
            if exc.errno == errno.EADDRNOTAVAIL:       # --lan named an address this computer does not have
                raise DeckgenError(error("play", "--lan", f"cannot serve on {addr}: it is not an address of this "
                                         f"computer", hint="give --lan alone, and deckgen finds this computer's "
                                         "address on the network, or one of this computer's own addresses")
                                   ) from None
            raise DeckgenError(error("play", "--port", f"cannot serve on {addr}:{port}: {exc.strerror or exc}",
                                     hint="another program uses the port: pick another with --port, or 0 for any")
                               ) from None
        sock.listen(128)
        sock.setblocking(False)
        return sock

    # ------------------------------------------------------------------ addresses
    def hosts(self) -> list[str]:
        names = [f"{HOST}:{self.port}", f"localhost:{self.port}"]
        if self.lan:
            names.append(f"{self.lan}:{self.port}")
        return names

    @property
    def base(self) -> str:
        """The address the join links name: the LAN address with --lan, else 127.0.0.1."""
        return f"http://{self.lan or HOST}:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def link(self, seat: int) -> str | None:
        token = self.s.seats.tokens.get(seat)
        return f"{self.base}/s/{token}/" if token else None

    @property
    def links(self) -> dict[int, str]:
        return {q: f"{self.base}/s/{t}/" for q, t in self.s.seats.tokens.items()}

    def local_link(self, seat: int) -> str:
        return f"http://{HOST}:{self.port}/s/{self.s.seats.tokens[seat]}/"

    # ------------------------------------------------------------------ life
    def start(self) -> PlayServer:
        import uvicorn
        from uvicorn.protocols.http.h11_impl import H11Protocol

        config = uvicorn.Config(self.app(), http=guarded_protocol(self.guard, H11Protocol), ws="none",
                                lifespan="off", log_config=None, log_level="error", access_log=False,
                                timeout_keep_alive=5, timeout_graceful_shutdown=1, server_header=False,
                                date_header=False, h11_max_incomplete_event_size=16 * 1024)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._run, name="deckgen-play-server", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        return self

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self.hub.start()
        tasks = [asyncio.create_task(self.driver.run()), asyncio.create_task(self.guard.reaper())]

        async def ready() -> None:
            while not self._server.started:
                await asyncio.sleep(0.005)
            self._ready.set()

        tasks.append(asyncio.create_task(ready()))
        try:
            await self._server.serve(sockets=self.sockets)
        finally:
            for t in tasks:
                t.cancel()
            self.driver.close()
            self._ready.set()

    def stop(self) -> None:
        """Stop serving: every page's stream is closed, the bots stop, the sockets are closed."""
        server, loop = self._server, self.hub.loop
        if server is not None:
            server.should_exit = True
            if loop is not None and not loop.is_closed() and self.hub.closing is not None:
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(self._closing)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        for sock in self.sockets:
            sock.close()

    def _closing(self) -> None:
        """On the loop: stop accepting, end every page's stream, close every connection; uvicorn then
        has nothing left to wait for."""
        assert self.hub.closing is not None
        for listener in getattr(self._server, "servers", []):
            listener.close()
        self.hub.closing.set()
        self.hub._wake()
        self.guard.close_all()
        self._server.force_exit = True

    def __enter__(self) -> PlayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ the routes
    def app(self) -> Starlette:
        def seat_route(path: str, handler: Callable[[Request, int], Awaitable[Response]],
                       methods: list[str] | None = None) -> Route:
            async def endpoint(request: Request) -> Response:
                seat = self.s.seats.seat_of(str(request.path_params.get("token", "")))
                if seat is None:
                    return text(404, "no seat opens with this link: ask the host for yours\n")
                try:
                    return await handler(request, seat)
                except BadRequest as bad:
                    return text(bad.status, bad.text + "\n")

            return Route("/s/{token}" + path, endpoint, methods=methods or ["GET", "HEAD"])

        async def nothing(request: Request) -> Response:
            return text(404, "a table is joined with a seat's link: ask the host for yours\n")

        async def static(request: Request) -> Response:
            name = str(request.path_params["name"])
            if name not in ASSETS:
                return text(404, "not found\n")
            return Response(asset(name), media_type=ASSETS[name])

        routes = [
            Route("/", nothing), Route("/favicon.ico", lambda r: Response(b"", 204)),
            Route("/assets/{name}", static),
            seat_route("/", self.page), seat_route("/events", self.events), seat_route("/state.json", self.state),
            seat_route("/config.json", self.config), seat_route("/rules.json", self.rules),
            seat_route("/log.json", self.log), seat_route("/face/{face}.png", self.face),
            seat_route("/answer", self.answer, ["POST"]), seat_route("/press", self.press, ["POST"]),
            seat_route("/new", self.new, ["POST"]), seat_route("/next", self.next_hand, ["POST"]),
            seat_route("/seat", self.seat, ["POST"]),
        ]
        return Starlette(routes=routes, middleware=[Middleware(Gate, guard=self.guard, hosts=self.hosts)])

    async def page(self, request: Request, seat: int) -> Response:
        return Response(asset("index.html"), media_type="text/html; charset=utf-8")

    def view(self, seat: int) -> dict[str, Any]:
        v = views.view(self.s, seat)
        if seat == self.s.host and self.s.opts.humans > 1:      # the links to hand out, at a table for several
            v["seats"] = [{"seat": q, "name": v["players"][q]["name"], "human": self.s.seats.human(q),
                           "joined": self.hub.joined(q), "link": self.link(q),
                           "qr": self.qr(q) if q != seat and self.s.seats.human(q) else None}
                          for q in range(self.s.n)]
        return v

    def qr(self, seat: int) -> str | None:
        from deckgen.play import qr

        link = self.link(seat)
        return qr.svg_uri(link) if link else None

    async def state(self, request: Request, seat: int) -> Response:
        return as_json(200, {"boot": self.hub.boot, "view": self.view(seat)})

    async def config(self, request: Request, seat: int) -> Response:
        return as_json(200, self.s.config(seat))

    async def rules(self, request: Request, seat: int) -> Response:
        from deckgen.play.rules import blocks

        lang = self.s.lang
        if lang not in self._rules:
            self._rules[lang] = await asyncio.get_running_loop().run_in_executor(None, blocks, self.s.deck, lang)
        return as_json(200, {"lang": lang, "blocks": self._rules[lang]})

    async def log(self, request: Request, seat: int) -> Response:
        with self.s.lock:
            return as_json(200, {"deck": self.s.deck.id, "seed": self.s.seed if self.s.game_over else None,
                                 "hands": list(self.s.records)})

    async def face(self, request: Request, seat: int) -> Response:
        face = str(request.path_params["face"])
        data = await asyncio.get_running_loop().run_in_executor(None, self.faces.png, face)
        if data is None:
            return text(404, "no such face\n")
        return Response(data, media_type="image/png")

    async def events(self, request: Request, seat: int) -> Response:
        hub = self.hub
        mine = asyncio.Event()
        streams = hub.streams.setdefault(seat, [])
        streams.append(mine)
        while len(streams) > STREAMS_PER_SEAT:
            streams.pop(0).set()          # the oldest stream of this seat ends (a page closed without a word)
        self.s.touch()

        async def stream() -> AsyncIterator[str]:
            sent, game = 0, None
            try:
                yield "retry: 1000\n\n"
                while not mine.is_set() and hub.closing is not None and not hub.closing.is_set():
                    if not self.s.seats.human(seat):
                        yield "event: gone\ndata: {}\n\n"
                        return
                    with self.s.lock:
                        view = self.view(seat)
                        reset = view["game"] != game
                        start = 0 if reset else sent
                        lines, total = self.s.log_lines(seat, start)
                    game, sent = view["game"], total
                    data = {"boot": hub.boot, "view": view, "log": {"from": start, "lines": lines, "reset": reset}}
                    yield "event: view\ndata: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n\n"
                    version = view["version"]
                    while self.s.version == version and not mine.is_set() and not hub.closing.is_set():
                        await hub.wait(KEEPALIVE)
                        if self.s.version == version:
                            yield ": still here\n\n"
            finally:
                if mine in streams:
                    streams.remove(mine)
                self.s.touch()

        return StreamingResponse(stream(), media_type="text/event-stream; charset=utf-8",
                                 headers={"X-Accel-Buffering": "no"})

    async def answer(self, request: Request, seat: int) -> Response:
        data = await read_json(request)
        ok = self.s.answer(seat, data.get("seq"), data.get("i"))
        return as_json(200 if ok else 409, {"ok": ok})

    async def press(self, request: Request, seat: int) -> Response:
        data = await read_json(request)
        ok = self.s.press(seat, data.get("what"), data.get("seq"))
        return as_json(200 if ok else 409, {"ok": ok})

    async def new(self, request: Request, seat: int) -> Response:
        data = await read_json(request)
        match = data.get("match")
        if match is not None and not isinstance(match, bool):
            raise BadRequest(400, "match must be true or false")
        ok = self.s.new_game(seat, data.get("same_seed") is True, match)
        return as_json(200 if ok else 403, {"ok": ok})

    async def next_hand(self, request: Request, seat: int) -> Response:
        await read_json(request)
        ok = self.s.next_hand(seat)
        return as_json(200 if ok else 409, {"ok": ok})

    async def seat(self, request: Request, seat: int) -> Response:
        data = await read_json(request)
        other = data.get("seat")
        if not isinstance(other, int) or isinstance(other, bool):
            raise BadRequest(400, "seat must be a number")
        ok = self.s.seat_to_bot(seat, other)
        return as_json(200 if ok else 403, {"ok": ok})


def check_headers(request: Request) -> None:
    """A JSON body of a size that is said and allowed (BadRequest: 415, 400, 413, 411)."""
    ctype = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if ctype != "application/json":
        raise BadRequest(415, "send JSON (Content-Type: application/json)")
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise BadRequest(400, "bad Content-Length")
        if int(length) > MAX_POST:
            raise BadRequest(413, "too large")
    elif "chunked" not in request.headers.get("transfer-encoding", "").lower():
        raise BadRequest(411, "length required")


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON object; BadRequest (4xx) for anything else (module docstring)."""
    check_headers(request)

    async def body() -> bytes:
        got = b""
        async for chunk in request.stream():
            got += chunk
            if len(got) > MAX_POST:
                raise BadRequest(413, "too large")
        return got

    try:
        raw = await asyncio.wait_for(body(), BODY_TIMEOUT)
    except asyncio.TimeoutError:
        raise BadRequest(408, "the body took too long") from None
    except ClientDisconnect:
        raise BadRequest(400, "the body was cut short") from None
    if depth(raw) > MAX_DEPTH:
        raise BadRequest(400, "JSON nested too deep")
    try:
        data = json.loads(raw.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest(400, "not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "expected a JSON object")
    return data


def text(status: int, body: str) -> Response:
    return Response(body.encode("utf-8"), status, media_type="text/plain; charset=utf-8")


def as_json(status: int, data: Any) -> Response:
    return Response(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), status,
                    media_type="application/json")


__all__ = ["ASSETS", "BODY_TIMEOUT", "MAX_DEPTH", "MAX_POST", "PlayServer", "asset", "depth", "read_json"]
