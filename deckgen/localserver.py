"""A small HTTP server for pages deckgen serves on this computer only (watch, play).

:class:`LocalServer` listens on 127.0.0.1 and nowhere else, and keeps itself safe from other
programs and other web sites:

- the **Host guard**: a request is answered only when its ``Host`` header is this server's own
  address, ``127.0.0.1:PORT`` or ``localhost:PORT``. A page on another site that points a name
  at 127.0.0.1 (DNS rebinding) sends its own name and gets 403;
- an **idle timeout**: a connection that sends nothing for ``idle_timeout`` seconds, or has not
  finished its request after ``request_deadline`` seconds, is closed;
- a **connection cap**: at most ``max_connections`` connections are served at once; one more is
  answered 503 and closed at once, so holding connections open cannot pile up threads;
- a **request body cap** (:meth:`LocalHandler.read_body`);
- a **clean shutdown**: :meth:`LocalServer.stop` stops accepting, closes every open connection
  and waits for the threads serving them.

A page subclasses :class:`LocalHandler` and implements ``do_GET`` (and ``do_POST`` if it takes
input); the guard runs before either is called::

    class Handler(LocalHandler):
        def do_GET(self):
            self.send(200, b"hello", "text/plain")

    with LocalServer(Handler, port=0) as server:     # 0: any free port
        print(server.url)                           # http://127.0.0.1:PORT/

It raises :class:`deckgen.errors.DeckgenError` (exit 2) when the port cannot be used.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from deckgen.errors import DeckgenError, error

HOST = "127.0.0.1"
IDLE_TIMEOUT = 10.0          # seconds a connection may stay silent
REQUEST_DEADLINE = 30.0      # seconds a connection may take to send one request
MAX_CONNECTIONS = 32         # connections served at once
MAX_BODY = 1 << 20           # bytes read_body accepts unless told otherwise

_BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
         b"Connection: close\r\n\r\nbusy\n")


class LocalHandler(BaseHTTPRequestHandler):
    """A request handler with the Host guard; subclasses write ``do_GET``/``do_POST``."""

    server: LocalServer
    server_version = "deckgen"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout)   # a silent client is dropped

    def log_message(self, format: str, *args: Any) -> None:   # quiet: the terminal is the command's
        return

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if not self.server.host_allowed(self.headers.get("Host")):
            self.send(403, b"forbidden\n", "text/plain; charset=utf-8")
            return False
        return True

    def send(self, code: int, body: bytes, ctype: str, headers: dict[str, str] | None = None) -> None:
        """Answer with ``body``; never cached, never sniffed as another type."""
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self, limit: int = MAX_BODY) -> bytes | None:
        """The request's body, at most ``limit`` bytes; ``None`` after answering 411/413/400."""
        length = self.headers.get("Content-Length")
        if length is None:
            self.send(411, b"length required\n", "text/plain; charset=utf-8")
            return None
        try:
            size = int(length)
        except ValueError:
            size = -1
        if size < 0:
            self.send(400, b"bad length\n", "text/plain; charset=utf-8")
            return None
        if size > limit:
            self.send(413, b"too large\n", "text/plain; charset=utf-8")
            self.close_connection = True
            return None
        return self.rfile.read(size)


class LocalServer(ThreadingHTTPServer):
    """A threaded HTTP server on 127.0.0.1 with the guards above; ``start()`` serves in a thread."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, handler: type[BaseHTTPRequestHandler], port: int = 0, *,
                 idle_timeout: float = IDLE_TIMEOUT, request_deadline: float = REQUEST_DEADLINE,
                 max_connections: int = MAX_CONNECTIONS, code: str = "server", what: str = "--port"):
        self.idle_timeout = idle_timeout
        self.request_deadline = request_deadline
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)
        self._open: dict[socket.socket, float] = {}     # connection -> when it was accepted
        self._open_lock = threading.Lock()
        self._conn_threads: set[threading.Thread] = set()
        self._serving: threading.Thread | None = None
        self._reaper_stop = threading.Event()
        try:
            super().__init__((HOST, port), handler)
        except OSError as exc:
            raise DeckgenError(error(code, what, f"cannot serve on {HOST}:{port}: {exc.strerror or exc}",
                                     hint="another program uses the port: pick another with --port, or 0 for any")
                               ) from None

    # ------------------------------------------------------------------ address

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def host_allowed(self, host: str | None) -> bool:
        """Whether a ``Host`` header names this server: ``127.0.0.1:PORT`` or ``localhost:PORT``."""
        if not host:
            return False
        return host.strip().lower() in (f"{HOST}:{self.port}", f"localhost:{self.port}")

    # ------------------------------------------------------------------ connections

    @property
    def connections(self) -> int:
        """Connections open now."""
        with self._open_lock:
            return len(self._open)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.settimeout(0.05)
                request.recv(65536)          # what the client sent already, so closing sends no reset
            with contextlib.suppress(OSError):
                request.settimeout(1.0)
                request.sendall(_BUSY)
            self.shutdown_request(request)
            return
        with self._open_lock:
            self._open[request] = time.monotonic()
        thread = threading.Thread(target=self._serve_one, args=(request, client_address),
                                  name="deckgen-page-connection", daemon=True)
        with self._open_lock:
            self._conn_threads.add(thread)
        thread.start()

    def _serve_one(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            with self._open_lock:
                self._open.pop(request, None)
                self._conn_threads.discard(threading.current_thread())
            self.shutdown_request(request)
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:   # a broken connection is not news
        return

    def _reap(self) -> None:
        """Close connections older than the request deadline (a client trickling bytes)."""
        while not self._reaper_stop.wait(min(1.0, self.request_deadline / 4)):
            now = time.monotonic()
            with self._open_lock:
                late = [s for s, t in self._open.items() if now - t > self.request_deadline]
            for sock in late:
                _close(sock)

    # ------------------------------------------------------------------ life

    def start(self) -> LocalServer:
        """Serve in background threads until :meth:`stop`."""
        if self._serving is None:
            # stop() waits for the serving loop to notice, up to one poll interval: 0.02 s, so that a
            # page closed or a test's server stopped is not a tenth of a second each
            self._serving = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.02},
                                             name="deckgen-page", daemon=True)
            self._serving.start()
            threading.Thread(target=self._reap, name="deckgen-page-reaper", daemon=True).start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop accepting, close every open connection, wait (up to ``timeout``) for their threads."""
        if self._serving is not None:
            self.shutdown()
            self._serving.join(timeout)
            self._serving = None
        self._reaper_stop.set()
        with self._open_lock:
            sockets = list(self._open)
            threads = list(self._conn_threads)
        for sock in sockets:
            _close(sock)
        end = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, end - time.monotonic()))
        self.server_close()

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


__all__ = ["HOST", "IDLE_TIMEOUT", "MAX_BODY", "MAX_CONNECTIONS", "REQUEST_DEADLINE", "LocalHandler", "LocalServer"]
