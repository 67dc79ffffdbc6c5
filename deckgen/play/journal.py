"""The table's save: the game as its seed, its options and the answers given, one line each.

A hand of the engine is reproducible from its seed and the answers given to its decisions
(docs/engine.md), so the save holds no table at all: a first line (the header: the deck, the
table's options, the seats' tokens, the game's id and seed) and then one JSON line per answer
(``{"h": hand, "s": serial, "a": answer}``), per next hand of a match (``{"next": hand}``) and
per seat handed to a bot (``{"bot": seat}``), appended and flushed as each happens. A new game
writes a new file in place of the old one (atomically). ``deckgen play --resume`` reads the
header, deals the same game and applies the answers in order (:func:`deckgen.play.session.resume`), which gives back
the same hands, the same pile and the same log; a last line cut short by a crash is skipped.

The file holds the seats' tokens and the seed of the game in progress: it is written readable
by its owner alone (mode 0600) in the user data folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from deckgen.errors import DeckgenError, error

if TYPE_CHECKING:
    from deckgen.model import Deck
    from deckgen.play.seats import PlayOptions, Seats
    from deckgen.rules.table import Table

FORMAT = "deckgen-play"
VERSION = 1
MAX_SAVE = 64 << 20           # bytes a save may hold (a long match is a few hundred kB)


def default_path(deck_id: str) -> Path:
    """Where a table of this deck is saved unless --save says otherwise: the user data folder's
    ``play/DECK.jsonl``."""
    from deckgen.presets import user_dir

    return user_dir() / "play" / f"{deck_id}.jsonl"


class Saved(Protocol):
    """What a new game's header is written from (a :class:`~deckgen.play.session.Session`)."""

    @property
    def deck(self) -> Deck: ...
    @property
    def opts(self) -> PlayOptions: ...
    @property
    def table(self) -> Table: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def game_id(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def match_play(self) -> bool: ...


class Journal:
    """The save of one table, kept open for appending."""

    def __init__(self, path: Path, extra: dict[str, Any] | None = None):
        self.path = Path(path)
        self.extra = dict(extra or {})          # the page's settings kept for --resume (port, lan)
        self._fh: IO[str] | None = None

    def new_game(self, s: Saved) -> None:
        """Start the file again with this game's header."""
        opts = s.opts
        header = {"format": FORMAT, "version": VERSION, "deck": s.deck.id,
                  "options": {"players": opts.players, "bots": opts.bots, "seat": opts.seat, "humans": opts.humans,
                              "seed": opts.seed, "rules": s.table.rules.as_dict(), "pace": opts.pace,
                              "match": opts.match, "lang": opts.lang, "uno": opts.uno},
                  "tokens": {str(q): t for q, t in s.seats.tokens.items()},
                  "bots": [q for q in opts.human_seats() if not s.seats.human(q)],
                  "game": {"id": s.game_id, "seed": s.seed, "match": s.match_play}, **self.extra}
        self.close()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(header, separators=(",", ":")) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        self._fh = open(self.path, "a", encoding="utf-8")      # noqa: SIM115  kept open, closed by close()

    def _line(self, data: dict[str, Any]) -> None:
        if self._fh is None:
            self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115
        self._fh.write(json.dumps(data, separators=(",", ":")) + "\n")
        self._fh.flush()

    def answer(self, hand: int, serial: int, reply: Any) -> None:
        self._line({"h": hand, "s": serial, "a": reply})

    def next_hand(self, hand: int) -> None:
        self._line({"next": hand})

    def to_bot(self, seat: int) -> None:
        self._line({"bot": seat})

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the lines of a save; a DeckgenError naming the file when it is not one."""
    def bad(why: str, hint: str = "start a new game without --resume") -> DeckgenError:
        return DeckgenError(error("play", str(path), why, hint=hint))

    try:
        if path.stat().st_size > MAX_SAVE:
            raise bad(f"is larger than {MAX_SAVE >> 20} MB: not a table's save")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise bad("no table was saved here", hint="play a game first, or name the save with --save") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise bad(f"cannot be read: {exc}") from None
    rows = text.split("\n")
    try:
        header = json.loads(rows[0])
    except ValueError:
        raise bad("is not a table's save (its first line is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT or header.get("version") != VERSION:
        raise bad("is not a table's save of this deckgen")
    lines = []
    for k, row in enumerate(rows[1:], 2):
        if not row.strip():
            continue
        try:
            item = json.loads(row)
        except ValueError:
            if k >= len(rows) - 1:        # the last line, cut short by a crash: the answer was never shown
                break
            raise bad(f"line {k} is not JSON") from None
        if not isinstance(item, dict):
            raise bad(f"line {k} is not an answer")
        lines.append(item)
    return header, lines

__all__ = ["FORMAT", "VERSION", "Journal", "Saved", "default_path", "read"]
