"""``deckgen play DECK``: sit at a table with your own deck against bots, on a local page.

Modules:
  session  Session: the engine's game with every seat driven from here (docs/engine.md): the
           person's decisions from the page, the bots' through the Bot protocol at their pace;
           the match, decision numbers, the person's view made from their observation
  words    Words: the log in the deck's language with the rulebook's names; the page's labels
  faces    Faces: the print faces drawn at screen size, through the face cache
  server   the page on 127.0.0.1 (deckgen.localserver): state, answers, faces, the engine's log
  assets/  index.html, play.js, play.css: the page, which shows and asks and decides nothing

docs/play.md describes the command, the page and its protocol.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from deckgen.model import Deck
from deckgen.play.faces import Faces
from deckgen.play.server import serve
from deckgen.play.session import PlayOptions, Session


def play(deck: Deck, options: PlayOptions, port: int = 0, *, on_ready: Callable[[str], None] | None = None,
         stop: threading.Event | None = None, log: Callable[[str], None] | None = None,
         use_cache: bool = True) -> None:
    """Serve a table for this deck until ``stop`` is set (or Ctrl-C); ``on_ready`` gets its address."""
    session = Session(deck, options, log=log)
    faces = Faces(deck, use_cache=use_cache)
    session.start()
    server = serve(session, faces, port)
    try:
        if on_ready:
            on_ready(server.url)
        (stop or threading.Event()).wait()
    finally:
        session.stop()
        server.stop()


__all__ = ["Faces", "PlayOptions", "Session", "play", "serve"]
