"""The engine's questions and what a player may see: decisions, observations, answers, bots.

Every choice the rules leave to a player is one :class:`Decision`: who decides, of which
:class:`DecisionKind`, and the legal answers. The game asks it of the seat's bot, or, for a seat
driven from outside (``agents[p] is None``: a person at the ``play`` table, a learning agent),
it stops and waits: ``game.pending()`` returns the decision, ``game.observation(p)`` what that
player sees and ``game.answer(p, choice)`` goes on (docs/engine.md).

A bot (the :class:`Bot` protocol) is given the decision, the deciding player's
:class:`Observation` and a random generator, nothing else: an observation holds plain values
(tuples, ints, the deck's compiled :class:`~deckgen.rules.table.Table`), never the game object
or another player's hand. The bundled greedy bot reads a :class:`Glance` instead, the few
fields of the observation it needs.

A seat of a game is played by a :class:`Policy` (answered inside the game's own loop) or by
nobody (the game stops at its decisions for whoever steps it: ``game.decision``,
``game.apply(answer)``). Every bundled bot is a policy; :func:`as_policy` makes one of any bot.

Answers are plain values (:data:`Answer`):

  ==================  ============================================================
  kind                answer
  ==================  ============================================================
  PLAY                a move from ``options``; None (when ``passable``) draws instead
  PLAY_DRAWN          a move of the card just drawn; None (when ``passable``) keeps it
  STACK               a draw card's move to add to the waiting penalty; None takes it
  CHALLENGE           True challenges the draw card played on you, False takes it
  COLOR               a colour index (``observation.table.colors``)
  ROULETTE_COLOR      the colour index to turn cards for (Colour Roulette)
  TARGET              the seat a targeted effect hits
  SWAP                the seat to swap hands with
  STEAL               the seat to take a random card from
  DUEL                face*2 discards a card showing the number, face*2+1 counter-duels
  UNO                 True says UNO (one card left), False does not
  CATCH               True catches ``about``, who did not say UNO
  JUMP_IN             True plays the identical card (``value``: its move) out of turn, False does not
  ==================  ============================================================

A move is ``face * 2 + side``: ``table.faces[move >> 1]`` is the card (a
:class:`~deckgen.model.Card`), side 1 its Flex side.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from typing import Any, NamedTuple, Protocol

from deckgen.errors import DeckgenError, error
from deckgen.rules.table import Table


class DecisionKind(str, Enum):
    """What a decision is about (its value is its name in JSON and in docs/engine.md)."""

    PLAY = "play"                      # play a card from the hand, or draw
    PLAY_DRAWN = "play_drawn"          # play the card just drawn, or keep it
    STACK = "stack"                    # a penalty waits: stack a draw card on it, or take it
    CHALLENGE = "challenge"            # challenge a 'challenge' card played on you
    COLOR = "color"                    # name the current colour
    ROULETTE_COLOR = "roulette_color"  # name the colour to turn cards for
    TARGET = "target"                  # choose the victim of a targeted effect
    SWAP = "swap"                      # choose whom to swap hands with
    STEAL = "steal"                    # choose whom to take a card from
    DUEL = "duel"                      # answer a duel: discard, counter-duel
    UNO = "uno"                        # say UNO
    CATCH = "catch"                    # catch a player who did not say UNO
    JUMP_IN = "jump_in"                # play an identical card out of turn


YES_NO = frozenset({DecisionKind.CHALLENGE, DecisionKind.UNO, DecisionKind.CATCH, DecisionKind.JUMP_IN})
BOTH = (True, False)

Answer = int | bool | None


class Decision(NamedTuple):
    """One question to one player. ``options``: the legal answers other than None (moves,
    colour indexes, seats, or (True, False)); ``passable``: None is legal too (draw instead,
    keep the drawn card, take the penalty); ``about``: the other player it concerns (the
    offender of a challenge or a missed UNO call, -1 otherwise); ``value``: the number a duel
    asks for, or the move a jump-in would play (-1 otherwise); ``serial``: the decision's
    number in the game (1, 2, ...), so a stale answer can be told from a fresh one. The options
    of a yes/no kind are always ``(True, False)``."""

    player: int
    kind: DecisionKind
    options: tuple[int, ...]
    passable: bool = False
    about: int = -1
    value: int = -1
    serial: int = 0

    def legal(self, answer: object) -> bool:
        """Whether this answer is one of the legal answers (True and 1 are not the same answer)."""
        if answer is None:
            return self.passable
        if self.kind in YES_NO:
            return isinstance(answer, bool)
        return isinstance(answer, int) and not isinstance(answer, bool) and answer in self.options

    def as_dict(self) -> dict[str, object]:
        return {"player": self.player, "kind": self.kind.value, "options": list(self.options),
                "passable": self.passable, "about": self.about, "value": self.value, "serial": self.serial}


class Penalty(NamedTuple):
    """The penalty waiting for an answer, as the table shows it: who must answer, its total, the
    value and kind index of the last draw card, how many draw cards built it, and who may be
    challenged for it (-1: nobody). ``victim == -1``: nothing waits."""

    victim: int = -1
    total: int = 0
    value: int = 0
    kind: int = -1
    cards: int = 0
    offender: int = -1


class Observation(NamedTuple):
    """What one player knows: their own hand and everything the table shows.

    ``hand``: the player's faces, in the order they hold them; ``hand_sizes``, ``alive``,
    ``power`` (Power card green), ``owed`` (lost turns still to serve): one entry per seat;
    ``current``: whose turn it is; ``direction``: 1 (seat + 1 plays next) or -1; ``top``: the
    move on top of the discard pile (-1 before the start card); ``color``: the current colour
    index (-1: none, or a colourless pile); ``colorless``: a colourless card is on top (any
    number card may follow); ``draw_pile``, ``discard_pile``: how many cards each holds;
    ``penalty``: the waiting penalty; ``duel``: a duel in progress
    (:class:`~deckgen.rules.state.Duel`, all public) or None; ``uno_open``: a player who did
    not say UNO and may still be caught (-1: none); ``turns``: turns played; ``scores``: the
    match scores before this hand; ``events``: the last public events of the log (another
    player's drawn card, a shuffled order and a stolen card between two others are hidden:
    face -1); ``table``: the deck's compiled facts (public, shared by every game)."""

    player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    alive: tuple[bool, ...]
    power: tuple[bool, ...]
    owed: tuple[int, ...]
    current: int
    direction: int
    top: int
    color: int
    colorless: bool
    draw_pile: int
    discard_pile: int
    penalty: Penalty
    duel: object
    uno_open: int
    turns: int
    scores: tuple[int, ...]
    events: tuple[object, ...]
    table: Table

    @property
    def n_players(self) -> int:
        return len(self.hand_sizes)

    def next_player(self, p: int | None = None, k: int = 1) -> int:
        """The player k seats on from p (default: this player) in the current direction,
        skipping players who are out."""
        return _seat_on(self.alive, self.direction, self.player if p is None else p, k)


class Glance(NamedTuple):
    """The part of an :class:`Observation` the bundled greedy bot reads, each field exactly as
    the observation has it: cheaper to build, so the engine hands it to that bot instead of the
    whole observation (``GreedyAgent.quick``). Plain values too: never another hand."""

    player: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    alive: tuple[bool, ...]
    direction: int
    table: Table

    @property
    def n_players(self) -> int:
        return len(self.hand_sizes)

    def next_player(self, p: int | None = None, k: int = 1) -> int:
        """As :meth:`Observation.next_player`."""
        return _seat_on(self.alive, self.direction, self.player if p is None else p, k)


class Seen(Protocol):
    """What both an :class:`Observation` and a :class:`Glance` show (what a valuation that
    reads only these may be given)."""

    @property
    def player(self) -> int: ...
    @property
    def hand(self) -> tuple[int, ...]: ...
    @property
    def hand_sizes(self) -> tuple[int, ...]: ...
    @property
    def alive(self) -> tuple[bool, ...]: ...
    @property
    def direction(self) -> int: ...
    @property
    def table(self) -> Table: ...
    @property
    def n_players(self) -> int: ...
    def next_player(self, p: int | None = None, k: int = 1) -> int: ...


def next_seat(o: Seen) -> int:
    """``o.next_player()`` for the player after o's (the commonest case), without its two calls:
    the hot paths of the bots (the greedy play, the expert's rule of thumb) read it."""
    alive, step = o.alive, o.direction
    n = len(alive)
    nxt = (o.player + step) % n
    while not alive[nxt]:
        nxt = (nxt + step) % n
    return nxt


def _seat_on(alive: tuple[bool, ...], direction: int, q: int, k: int) -> int:
    n = len(alive)
    for _ in range(k):
        q = (q + direction) % n
        while not alive[q]:
            q = (q + direction) % n
    return q


class Bot(Protocol):
    """A player the engine asks directly. ``decide`` returns one of the decision's legal answers;
    it sees only its observation, and draws any randomness from ``rng`` (the game's own
    generator by default, so a simulated game is reproducible from its seed)."""

    name: str

    def decide(self, decision: Decision, observation: Observation, rng: random.Random) -> Answer: ...


class GameView(Protocol):
    """What a policy may read of the game it plays in (``deckgen.rules.engine.Game`` is one):
    a seat's glance or observation, the compiled deck and rules (public: every glance holds
    them), the bots' generator and the decisions asked so far."""

    table: Table
    bot_rng: random.Random
    decisions: int

    def glance(self, p: int) -> Glance: ...

    def observation(self, p: int) -> Observation: ...


class Policy(Protocol):
    """What plays a seat inside the game's own loop: asked for the seat's decisions as they come,
    with the game, the seat and the question's parts, it reads what that seat may see
    (``game.glance(p)``, ``game.observation(p)``) and draws any randomness from
    ``game.bot_rng``, nothing else. ``play_turn`` answers the turn's play: the legal cards of
    the hand come as the faces playable by their regular side (move face*2) and those playable
    by their Flex side (move face*2 + 1), the moves of both in that order being the decision's
    options; it answers a move, or None to draw when ``passable``. ``answer`` answers every
    other kind."""

    def play_turn(self, game: GameView, p: int, faces: list[int], flex: list[int], passable: bool) -> int | None: ...

    def answer(self, game: GameView, p: int, kind: DecisionKind, options: Sequence[int], passable: bool, about: int,
               value: int) -> Answer: ...


class BotSeat:
    """A :class:`Bot` as a seat's policy: each decision asked with the seat's observation and
    the game's bot generator, and its answer checked like a person's (an illegal one raises
    IllegalAnswer naming the bot)."""

    __slots__ = ("bot",)

    def __init__(self, bot: Bot):
        self.bot = bot

    @property
    def name(self) -> str:
        return str(getattr(self.bot, "name", type(self.bot).__name__))

    def play_turn(self, game: GameView, p: int, faces: list[int], flex: list[int], passable: bool) -> int | None:
        moves = [f + f for f in faces] + [f + f + 1 for f in flex]
        a = self.answer(game, p, DecisionKind.PLAY, moves, passable, -1, -1)
        return None if a is None else int(a)

    def answer(self, game: GameView, p: int, kind: DecisionKind, options: Sequence[int], passable: bool, about: int,
               value: int) -> Answer:
        d = Decision(p, kind, tuple(options), passable, about, value, game.decisions)
        a = self.bot.decide(d, game.observation(p), game.bot_rng)
        if not d.legal(a):
            opts = ", ".join(map(repr, d.options)) + (", None" if d.passable else "")
            raise illegal(f"bot '{self.name}' of player {p + 1} answered {a!r} to a {kind.value} decision",
                          hint=f"legal answers: {opts}")
        return a


def as_policy(agent: object) -> Policy:
    """A seat's policy: the agent itself when it is one (every bundled bot), else its
    :class:`BotSeat` (any object with ``decide``)."""
    cls = type(agent)
    kind = _POLICY_TYPES.get(cls)
    if kind is None:
        kind = _kind_of(agent)
        if kind == _kind_of(cls) and len(_POLICY_TYPES) < 256:     # the class's own methods decide
            _POLICY_TYPES[cls] = kind
    return agent if kind == "policy" else BotSeat(agent)   # type: ignore[return-value,arg-type]


def as_moves(faces: Sequence[int], flex: Sequence[int]) -> list[int]:
    """Moves of cards played by their regular side (``faces``), then by their Flex side."""
    return [f + f for f in faces] + [f + f + 1 for f in flex] if flex else [f + f for f in faces]


def as_policies(seats: list[Any]) -> list[Policy | None]:
    """Each seat's policy (None: a seat without one), as :func:`as_policy`; the list itself when
    every agent in it is of a class already known to be a policy (a searcher's many copies)."""
    if set(map(_POLICY_TYPES.get, map(type, seats))) == _POLICY_ONLY:
        return seats
    return [None if a is None else as_policy(a) for a in seats]


_POLICY_ONLY = {"policy"}


def _kind_of(agent: object) -> str:
    if callable(getattr(agent, "play_turn", None)) and callable(getattr(agent, "answer", None)):
        return "policy"
    if callable(getattr(agent, "decide", None)):
        return "bot"
    if isinstance(agent, type):
        return "neither"
    raise TypeError(f"{agent!r} is neither a policy nor a bot (it has no decide method)")


_POLICY_TYPES: dict[type, str] = {}     # what as_policy found a class to be (its instances alike)


class IllegalAnswer(DeckgenError):
    """An answer that is not legal now: refused, and the game is unchanged (exit 2 at a command)."""


def illegal(message: str, hint: str) -> IllegalAnswer:
    return IllegalAnswer(error("answer", "answer", message, hint=hint))


__all__ = ["BOTH", "YES_NO", "Answer", "Bot", "BotSeat", "Decision", "DecisionKind", "GameView", "Glance", "IllegalAnswer",
           "Observation", "Penalty", "Policy", "Seen", "as_moves", "as_policies", "as_policy", "illegal", "next_seat"]
