"""``deckgen play DECK``: sit at a table with your own deck, with friends and bots, in the browser.

Modules:
  seats    PlayOptions, the seats (people and bots) and each person's token
  session  Session: the engine's game with every seat driven from outside (docs/engine.md), no
           thread of its own; the bots' decisions handed out as jobs; the race UNO mode
  views    what each person's page is sent: their observation, their decision, the end
  journal  the save: seed, options and the answers given (session.resume replays them)
  driver   the bots thinking in a worker thread, off the request path, at their pace
  server   the Starlette routes on uvicorn; each page's view pushed as Server-Sent Events
  guard    connection slots per client, the reaper, the Host and Origin checks
  words    the log in the deck's language with the rulebook's names; the page's labels
  rules    the rulebook's text for the page's rules panel
  faces    the print faces drawn at screen size, through the face cache
  qr       join links as QR codes (page and terminal)
  assets/  index.html, play.js, play.css: the page, which shows and asks and decides nothing

docs/play.md describes the command, the page and its protocol.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deckgen.model import Deck
from deckgen.play.faces import Faces
from deckgen.play.seats import PlayOptions
from deckgen.play.server import PlayServer
from deckgen.play.session import Session


@dataclass(frozen=True)
class Serving:
    """Where and how a table is served: ``port`` (0: any free one, or the saved game's), ``lan``
    (the machine's LAN address to serve on as well, None: this computer only), ``save`` (the
    save file) and ``resume`` (continue the game saved there)."""

    port: int = 0
    lan: str | None = None
    save: Path | None = None
    resume: bool = False


def open_table(deck: Deck, options: PlayOptions, serving: Serving,
               log: Callable[[str], None] | None = None) -> tuple[Session, int]:
    """The table's session, dealt (or resumed from its save), and the port to serve it on (a
    resumed game's own port unless ``serving.port`` names one, so its pages find it again)."""
    from deckgen.play.journal import default_path
    from deckgen.play.session import resume

    if serving.resume:
        session, header = resume(deck, serving.save or default_path(deck.id), pace=options.pace, log=log)
        return session, serving.port or int(header.get("port") or 0)
    return Session(deck, options, log=log).start(), serving.port


def play(deck: Deck, options: PlayOptions, serving: Serving = Serving(), *,
         on_ready: Callable[[PlayServer], None] | None = None, stop: threading.Event | None = None,
         log: Callable[[str], None] | None = None, use_cache: bool = True) -> None:
    """Serve a table for this deck until ``stop`` is set (or Ctrl-C); ``on_ready`` gets the server
    (its ``links``, one per person's seat)."""
    from deckgen.play.journal import Journal, default_path

    session, port = open_table(deck, options, serving, log)
    faces = Faces(deck, use_cache=use_cache)
    server = PlayServer(session, faces, port, lan=serving.lan)
    with session.lock:             # saved from here on, with the port the pages know
        session.journal = Journal(serving.save or default_path(deck.id), {"port": server.port})
        if not serving.resume:
            session.journal.new_game(session)
    server.start()
    try:
        if on_ready:
            on_ready(server)
        (stop or threading.Event()).wait()
    finally:
        server.stop()
        if session.journal is not None:
            session.journal.close()


__all__ = ["Faces", "PlayOptions", "PlayServer", "Serving", "Session", "open_table", "play"]
