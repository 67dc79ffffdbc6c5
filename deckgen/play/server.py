"""The table's page, served on 127.0.0.1 by :class:`deckgen.localserver.LocalServer`.

Routes (the page's own files come from this package's ``assets`` folder):

- ``GET /``, ``/play.js``, ``/play.css``: the page;
- ``GET /config.json``: its labels in the deck's language and every card's rulebook text;
- ``GET /state.json?v=N``: the person's view of the table, once its version is not N (waits up
  to :data:`LONG_POLL` seconds for a change);
- ``GET /face/ID.png``: a card face at screen size;
- ``GET /log.json``: the engine's log of every finished hand of this game;
- ``POST /answer`` ``{"seq": S, "i": I}``: answer I to decision S; 409 with the current view when
  S is not the decision pending or I not one of its answers;
- ``POST /new`` ``{"same_seed": bool}``: a new game; ``POST /next``: the next hand of a match.

A POST must be JSON (``Content-Type: application/json``): a form on another site cannot send
one without the browser asking first, and nothing here answers that question. The Host guard,
the idle timeout and the connection cap are the local server's.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

from deckgen.localserver import LocalHandler, LocalServer
from deckgen.play.faces import Faces
from deckgen.play.session import Session

LONG_POLL = 8.0          # below the local server's idle timeout
MAX_POST = 4096
ASSETS = {"/": ("index.html", "text/html; charset=utf-8"),
          "/play.js": ("play.js", "text/javascript; charset=utf-8"),
          "/play.css": ("play.css", "text/css; charset=utf-8")}


def asset(name: str) -> bytes:
    return resources.files("deckgen.play").joinpath("assets").joinpath(name).read_bytes()


class PlayHandler(LocalHandler):
    session: Session
    faces: Faces

    def _json(self, code: int, data: Any) -> None:
        self.send(code, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"),
                  "application/json; charset=utf-8")

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        route = url.path
        if route in ASSETS:
            name, ctype = ASSETS[route]
            self.send(200, asset(name), ctype)
        elif route == "/config.json":
            self._json(200, self.session.config())
        elif route == "/state.json":
            seen = parse_qs(url.query).get("v", [""])[0]
            if seen.lstrip("-").isdigit():
                self.session.wait(int(seen), LONG_POLL)
            self._json(200, self.session.view())
        elif route.startswith("/face/") and route.endswith(".png"):
            data = self.faces.png(route[len("/face/"):-len(".png")])
            if data is None:
                self.send(404, b"no such face\n", "text/plain; charset=utf-8")
            else:
                self.send(200, data, "image/png")
        elif route == "/favicon.ico":
            self.send(204, b"", "image/x-icon")
        elif route == "/log.json":
            self._json(200, {"deck": self.session.deck.id, "seed": self.session.seed, "hands": self.session.records})
        else:
            self.send(404, b"not found\n", "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        route = urlsplit(self.path).path
        ctype = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            self.send(415, b"send JSON\n", "text/plain; charset=utf-8")
            return
        body = self.read_body(MAX_POST)
        if body is None:
            return
        try:
            data = json.loads(body.decode("utf-8") or "{}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            data = None
        if not isinstance(data, dict):
            self.send(400, b"expected a JSON object\n", "text/plain; charset=utf-8")
            return
        s = self.session
        if route == "/answer":
            ok = s.answer(data.get("seq"), data.get("i"))
            self._json(200 if ok else 409, {"ok": ok, "view": s.view()})
        elif route == "/new":
            s.new_game(bool(data.get("same_seed")))
            self._json(200, {"ok": True, "view": s.view()})
        elif route == "/next":
            ok = s.next_hand()
            self._json(200 if ok else 409, {"ok": ok, "view": s.view()})
        else:
            self.send(404, b"not found\n", "text/plain; charset=utf-8")


def serve(session: Session, faces: Faces, port: int = 0) -> LocalServer:
    """Start serving the table on 127.0.0.1 (port 0: any free port); ``.url`` is its address."""
    handler = type("Handler", (PlayHandler,), {"session": session, "faces": faces})
    return LocalServer(handler, port, code="play", what="--port").start()


__all__ = ["LONG_POLL", "PlayHandler", "asset", "serve"]
