"""Exact table situations and scripted players: for tests, and for designers asking "what if".

    g = situation("classic", hands=[["red-5", "wild"], ["blue-5"]], top="red-2",
                  agents=[Scripted(plays=["wild"], colors=["blue"]), Scripted()])
    g.turn()

Cards are named by card id; a card's flex side is ``"red-2-flex@flex"``. The draw pile is
listed in the order the cards will be drawn.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from deckgen.model import Deck
from deckgen.rules.agents import Agent
from deckgen.rules.decision import Bot, Decision, Observation
from deckgen.rules.engine import Game
from deckgen.rules.state import Position
from deckgen.rules.table import Table, compile_deck

if TYPE_CHECKING:
    from typing_extensions import Unpack


def table_for(deck: str | Deck, **options: Any) -> Table:
    """A play table for a bundled deck name or a Deck, with rule options overridden."""
    from deckgen import manifest

    d = manifest.load_deck(deck) if isinstance(deck, str) else deck
    return compile_deck(d, d.rule_options.replace(**options))


def face(t: Table, card_id: str) -> int:
    for i, c in enumerate(t.faces):
        if c.id == card_id:
            return i
    raise KeyError(card_id)


def move(t: Table, spec: str) -> int:
    cid, _, side = spec.partition("@")
    return face(t, cid) * 2 + (1 if side == "flex" else 0)


def card_id(t: Table, f: int) -> str:
    return t.faces[f].id


def color(t: Table, name: str) -> int:
    return t.colors.index(name)


class Answers(TypedDict, total=False):
    """A :class:`Scripted` player's fixed answers, by keyword (the fields of :class:`FixedAnswers`)."""

    challenge: bool
    stack: bool
    uno: bool
    catch: bool
    play_drawn: bool
    jump_in: bool


@dataclass(frozen=True)
class FixedAnswers:
    """The yes/no answers a :class:`Scripted` player always gives: challenge a Wild Draw Four,
    stack on a penalty, call UNO, catch a missed UNO, play a card just drawn, jump in."""

    challenge: bool = False
    stack: bool = True
    uno: bool = True
    catch: bool = True
    play_drawn: bool = True
    jump_in: bool = False


class Scripted(Agent):
    """Plays what it is told, in order; falls back to the first legal choice.

    plays: card specs ("red-5", "x@flex") or "draw"; colors: colour ids; targets: seats (for
    'target', hand swaps and steals); duel: card ids to answer duels with ("red-7", or
    "red-7@counter" for a counter-duel); the keywords challenge/stack/uno/catch/play_drawn/jump_in:
    fixed answers (:class:`FixedAnswers`; an unknown keyword is a TypeError)."""

    name = "scripted"

    def __init__(self, plays: Iterable[str] = (), colors: Iterable[str] = (), targets: Iterable[int] = (),
                 duel: Iterable[str] = (), **answers: Unpack[Answers]):
        self.plays = deque(plays)
        self.colors = deque(colors)
        self.targets = deque(targets)
        self.duels = deque(duel)
        self.answers = FixedAnswers(**answers)
        self.seen_moves: list[list[int]] = []

    def _pick(self, d: Decision, o: Observation) -> int | None:
        moves = list(d.options)
        self.seen_moves.append(moves)
        if self.plays:
            want = self.plays.popleft()
            if want == "draw":
                return None if d.passable else moves[0]   # drawing is not allowed here: the first card
            m = move(o.table, want)
            if m not in moves:
                raise AssertionError(f"{want} is not a legal move here")
            return m
        return moves[0]

    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return self._pick(d, o)

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        if d.passable and not self.answers.play_drawn:
            return None
        return self._pick(d, o)

    def stack(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return self._pick(d, o) if self.answers.stack else None

    def challenge(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return self.answers.challenge

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return color(o.table, self.colors.popleft()) if self.colors else 0

    def target(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.targets.popleft() if self.targets else d.options[0]

    def duel(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """Answers from ``duel``: "red-7" discards it plainly (or counter-duels when it cannot be
        discarded), "red-7@counter" plays it as a counter-duel."""
        if self.duels:
            cid, _, how = self.duels.popleft().partition("@")
            f = face(o.table, cid)
            a = f + f + 1 if how == "counter" or f + f not in d.options else f + f
            assert a in d.options, f"{cid} is not a duel answer here"
            return a
        return d.options[0]

    def uno(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return self.answers.uno

    def jump_in(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return self.answers.jump_in

    def catch(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return self.answers.catch


class Setting(TypedDict, total=False):
    """The rest of a situation, by keyword (the fields of :class:`Situation` after ``top``)."""

    color_id: str | None
    draw: Iterable[str]
    discard: Iterable[str]
    aside: Iterable[str]
    cur: int
    direction: int
    power: Sequence[bool] | None
    out: Iterable[int]
    owed: Sequence[int] | None
    agents: Sequence[Bot | None] | None
    options: Mapping[str, Any] | None
    seed: int
    record: bool
    table: Table | None


@dataclass(frozen=True)
class Situation:
    """A game in the middle of a hand: these hands, this top card (and pile colour: default the
    top card's own), this draw pile (in drawing order), discard pile and set-aside cards,
    ``cur`` to play in ``direction``, these Power cards (green: True), the seats in ``out``
    knocked out (their hands empty), the lost turns each seat owes; the players (default: a
    :class:`Scripted` for every seat), rule options, seed and whether the game records its log;
    ``table``: an already compiled table (then ``deck`` and ``options`` are not read, and
    ``deck`` may be None). The table is set out by the game's own operation (``Game.arrange``);
    the deck's other cards are out of play."""

    deck: str | Deck | None
    hands: list[list[str]]
    top: str
    color_id: str | None = None
    draw: Iterable[str] = ()
    discard: Iterable[str] = ()
    aside: Iterable[str] = ()
    cur: int = 0
    direction: int = 1
    power: Sequence[bool] | None = None
    out: Iterable[int] = ()
    owed: Sequence[int] | None = None
    agents: Sequence[Bot | None] | None = None
    options: Mapping[str, Any] | None = None
    seed: int = 0
    record: bool = True
    table: Table | None = None

    def game(self) -> Game:
        if self.table is not None:
            t = self.table
        elif self.deck is None:
            raise ValueError("a situation needs a deck or a compiled table")
        else:
            t = table_for(self.deck, **(self.options or {}))
        n = len(self.hands)
        g = Game(t, n, self.seed, self.agents or [Scripted() for _ in range(n)], record=self.record)
        top = move(t, self.top)
        hands = tuple(tuple(face(t, c) for c in h) for h in self.hands)
        draw = tuple(face(t, c) for c in reversed(list(self.draw)))
        discard = (*(face(t, c) for c in self.discard), top >> 1)
        aside = tuple(face(t, c) for c in self.aside)
        col = color(t, self.color_id) if self.color_id is not None else t.color[top >> 1]
        out = set(self.out)
        g.arrange(Position(hands, draw, discard, aside, tuple(q not in out for q in range(n)),
                           tuple(self.power or [True] * n), tuple(self.owed or [0] * n), self.cur, self.direction,
                           top, -1 if t.move_key[top] < 0 else col))
        return g


def situation(deck: str | Deck | None, hands: list[list[str]], top: str, **setting: Unpack[Setting]) -> Game:
    """``Situation(deck, hands, top, **setting).game()``: a game in the middle of a hand."""
    return Situation(deck, hands, top, **setting).game()
