"""Who sits at a table: its options, its seats (people and bots) and each person's key.

A person's seat is reached through its **token**, an unguessable string (128 bits from
:mod:`secrets`) that is part of the seat's join link and its only key: whoever holds the link
plays the seat, and nothing else names it. The host is the person who started the table (the
first human seat); the others are the friends the host hands a link to. A seat a person left
can be handed to a bot by the host; its token then opens nothing.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.options import RuleOptions
from deckgen.rules.bots import AGENTS

UNO_MODES = ("ask", "race")
TOKEN_BYTES = 16


@dataclass(frozen=True)
class PlayOptions:
    players: int = 4
    bots: str = "greedy"              # an agent name (deckgen.rules.bots.AGENTS)
    seat: int = 0                     # the host's seat, 0-based (seat 0 plays first in the first hand)
    humans: int = 1                   # people at the table: the host's seat and the ones after it
    seed: int | None = None           # None: every game gets a secret seed of its own
    rules: RuleOptions | None = None  # None: the deck's own rule options
    pace: float = 0.8                 # seconds a bot waits before a move a person watches
    match: bool = False               # play hands until someone reaches the deck's target score
    lang: str | None = None           # None: the deck's language
    uno: str = "ask"                  # "ask": a question; "race": a button pressed in time, catching a race

    def human_seats(self) -> list[int]:
        return [(self.seat + k) % self.players for k in range(self.humans)]


def check_options(deck: Deck, opts: PlayOptions) -> None:
    """Every problem with the options at once, as a DeckgenError (exit 2)."""
    problems: list[Finding] = []
    low, high = max(2, deck.players_min), min(10, deck.players_max)
    if not low <= opts.players <= high:
        problems.append(error("option", "--players", f"{deck.name('en')} is played by {low} to {high} players, "
                              f"not {opts.players}", hint=f"use --players {low} to {high}"))
    elif not 0 <= opts.seat < opts.players:
        problems.append(error("option", "--seat", f"seat {opts.seat + 1} is not at a table of {opts.players}",
                              hint=f"use a seat from 1 to {opts.players}"))
    elif not 1 <= opts.humans <= opts.players:
        problems.append(error("option", "--humans", f"{opts.humans} people cannot sit at a table of {opts.players}",
                              hint=f"use 1 to {opts.players}"))
    if opts.bots not in AGENTS:
        problems.append(error("option", "--bots", f"unknown bot '{opts.bots}'", hint="bots: " + ", ".join(AGENTS)))
    if not 0 <= opts.pace <= 10:
        problems.append(error("option", "--pace", f"{opts.pace} s is not a bot pace", hint="use 0 to 10 seconds"))
    if opts.uno not in UNO_MODES:
        problems.append(error("option", "--uno", f"'{opts.uno}' is not a way to call UNO", hint="use ask or race"))
    if opts.seed is not None and not 0 <= opts.seed < 2 ** 63:
        problems.append(error("option", "--seed", f"{opts.seed} is not a seed", hint="use 0 to 2**63 - 1"))
    if problems:
        raise DeckgenError(problems)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_seed() -> int:
    """A seed nobody at the table can guess (63 bits from the operating system)."""
    return secrets.randbits(63)


class Seats:
    """The people's seats and their tokens; every other seat is a bot's."""

    def __init__(self, n: int, humans: Iterable[int], host: int, tokens: Mapping[int, str] | None = None):
        self.n, self.host = n, host
        given = dict(tokens or {})
        self.tokens: dict[int, str] = {q: given.get(q) or new_token() for q in humans}

    def human(self, seat: int) -> bool:
        return seat in self.tokens

    def seat_of(self, token: str) -> int | None:
        """The seat this token opens (None: none). Every token is compared in constant time."""
        found = None
        for seat, tok in self.tokens.items():
            if hmac.compare_digest(tok.encode(), token.encode()):
                found = seat
        return found

    def to_bot(self, seat: int) -> bool:
        """Hand a person's seat (not the host's) to a bot: its token opens nothing from now on."""
        if seat == self.host or seat not in self.tokens:
            return False
        del self.tokens[seat]
        return True

    def names(self, viewer: int | None, you: str, person: str, bot: str) -> list[str]:
        """What a viewer calls each seat: "You", "Player 2", "Bot 3" (seats counted from 1)."""
        return [you if q == viewer else (person if q in self.tokens else bot).format(n=q + 1) for q in range(self.n)]


__all__ = ["UNO_MODES", "PlayOptions", "Seats", "check_options", "new_seed", "new_token"]
