"""The table server's guards below the routes: who may connect, and which requests are answered.

**Connections** (:class:`Guard`, in front of uvicorn's HTTP protocol): every connection belongs
to a client (its IP address) and is either *serving* (a request was read and is being answered,
or an event stream is open) or *waiting* for a request (a new connection, a kept-alive one, or a
client trickling its request a byte at a time). A client may hold ``per_client`` connections and
the server ``max_connections``; a new connection over either limit takes the slot of the oldest
*waiting* connection (of that client, or else of the client holding most), which is told 408 and
closed, so connections that send nothing useful can never keep a page out: only when every slot
is *serving* is the new one answered 503. A connection still waiting for its request
``request_deadline`` seconds after it began is told 408 and closed (the reaper).

**Requests** (:class:`Gate`, an ASGI middleware): the ``Host`` header must name this server
(``127.0.0.1:PORT``, ``localhost:PORT``, or with ``--lan`` the machine's LAN address), else 403:
a page elsewhere that points a name at this machine (DNS rebinding) sends its own name. A request
that changes anything (every method but GET and HEAD) must come with an ``Origin`` header naming
this server, else 403: another site's page cannot post to the table. Every response says not to
be cached, framed, sniffed or followed by a Referer, and allows only the page's own script.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

MAX_CONNECTIONS = 128          # connections open at once, every client
PER_CLIENT = 32                # connections one client (IP address) may hold
REQUEST_DEADLINE = 10.0        # seconds a connection may take to send its request
REAP_EVERY = 0.5

_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n"
            b"Connection: close\r\n\r\ntoo slow")
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
         b"Retry-After: 1\r\nConnection: close\r\n\r\nbusy\n")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; media-src 'self'; base-uri 'none'; form-action 'none'; "
                                 b"frame-ancestors 'none'"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]


class Conn:
    __slots__ = ("client", "closed", "key", "serving", "since", "transport")

    def __init__(self, transport: asyncio.Transport, client: str, key: tuple[str, int]):
        self.transport, self.client, self.key = transport, client, key
        self.since = time.monotonic()
        self.serving = 0
        self.closed = False

    def refuse(self, answer: bytes) -> None:
        """Tell the client why (408, 503) and close."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.transport.write(answer)
        with contextlib.suppress(Exception):
            self.transport.close()


class Guard:
    """The connection slots and the reaper (module docstring)."""

    def __init__(self, max_connections: int = MAX_CONNECTIONS, per_client: int = PER_CLIENT,
                 request_deadline: float = REQUEST_DEADLINE):
        self.max_connections, self.per_client, self.request_deadline = max_connections, per_client, request_deadline
        self.conns: dict[tuple[str, int], Conn] = {}
        self.refused = 0
        self.reaped = 0

    def count(self, client: str | None = None) -> int:
        return sum(1 for c in self.conns.values() if client is None or c.client == client)

    def admit(self, conn: Conn) -> bool:
        """Make room for a new connection (module docstring); False: every slot is serving."""
        for limit, pool in ((self.per_client, [c for c in self.conns.values() if c.client == conn.client]),
                            (self.max_connections, list(self.conns.values()))):
            if len(pool) < limit:
                continue
            victim = self._victim(pool)
            if victim is None:
                self.refused += 1
                return False
            self._drop(victim)
        self.conns[conn.key] = conn
        return True

    def _victim(self, pool: list[Conn]) -> Conn | None:
        """The oldest waiting connection of the client holding most of ``pool``'s waiting ones."""
        waiting = [c for c in pool if not c.serving and not c.closed]
        if not waiting:
            return None
        per: dict[str, int] = {}
        for c in waiting:
            per[c.client] = per.get(c.client, 0) + 1
        greedy = max(per, key=lambda k: per[k])
        return min((c for c in waiting if c.client == greedy), key=lambda c: c.since)

    def _drop(self, conn: Conn) -> None:
        self.reaped += 1
        self.conns.pop(conn.key, None)
        conn.refuse(_TIMEOUT)

    def gone(self, conn: Conn) -> None:
        self.conns.pop(conn.key, None)
        conn.closed = True

    def serving(self, key: tuple[str, int] | None, on: bool) -> None:
        """A request was read on this connection (on), or its answer was sent (off)."""
        conn = self.conns.get(key) if key is not None else None
        if conn is None:
            return
        conn.serving += 1 if on else -1
        if not conn.serving:
            conn.since = time.monotonic()

    def reap(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for conn in [c for c in self.conns.values() if not c.serving and now - c.since > self.request_deadline]:
            self._drop(conn)

    async def reaper(self) -> None:
        while True:
            await asyncio.sleep(REAP_EVERY)
            self.reap()

    def close_all(self) -> None:
        for conn in list(self.conns.values()):
            self.gone(conn)
            with contextlib.suppress(Exception):
                conn.transport.close()


class Guarded(asyncio.Protocol):
    """uvicorn's HTTP protocol (``inner_class``) behind the ``guard`` (both set by :func:`guarded_protocol`)."""

    guard: Guard
    inner_class: type[asyncio.Protocol]

    def __init__(self, **kw: Any):
        self.inner: Any = self.inner_class(**kw)
        self.conn: Conn | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername") or ("?", 0)
        conn = Conn(transport, str(peer[0]), (str(peer[0]), int(peer[1])))
        if not self.guard.admit(conn):
            conn.refuse(_BUSY)
            return
        self.conn = conn
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.conn is not None and not self.conn.closed:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.conn is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.guard.gone(self.conn)
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.conn is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.conn is not None:
            self.inner.resume_writing()


def guarded_protocol(guard: Guard, inner_class: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
    """A protocol class for uvicorn (its ``http`` setting) that puts ``guard`` in front of
    ``inner_class`` (uvicorn's own HTTP/1.1 protocol)."""
    return type("GuardedHTTP", (Guarded,), {"guard": guard, "inner_class": inner_class})


class Gate:
    """The ASGI middleware that checks Host and Origin and adds the safety headers (module docstring)."""

    def __init__(self, app: ASGIApp, guard: Guard, hosts: Callable[[], Iterable[str]]):
        self.app, self.guard, self.hosts = app, guard, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = scope.get("client")
        key = (str(client[0]), int(client[1])) if client else None
        self.guard.serving(key, True)
        try:
            await self._gated(scope, receive, send)
        finally:
            self.guard.serving(key, False)

    async def _gated(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        allowed = {h.lower() for h in self.hosts()}
        host = headers.get("host", "").strip().lower()
        if host not in allowed:
            return await plain(send, 403, "this table answers only its own address\n")
        if scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin", "").strip().lower()
            if origin not in {f"http://{h}" for h in allowed}:
                return await plain(send, 403, "a change to the table must come from its own page\n")

        async def send_safe(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in HEADERS if h[0] not in names)]
            await send(message)

        await self.app(scope, receive, send_safe)


async def plain(send: Send, status: int, text: str) -> None:
    body = text.encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                            *HEADERS]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["MAX_CONNECTIONS", "PER_CLIENT", "REQUEST_DEADLINE", "Gate", "Guard", "guarded_protocol", "plain"]
