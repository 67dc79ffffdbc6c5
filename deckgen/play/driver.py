"""One hand of the engine, driven one decision at a time from outside.

:class:`HandDriver` plays a hand of :class:`deckgen.rules.engine.Game` in a thread of its own.
Every question the engine asks a seat (play or draw, play the drawn card, stack or take,
colour, target, challenge, duel answer, UNO call, catching a missed call, jump-in) stops that
thread and becomes the driver's :attr:`~HandDriver.pending` :class:`Decision`, with the legal
answers the engine offered. :meth:`HandDriver.answer` gives one of them (or lets the seat's bot
decide) and returns when the engine has reached its next decision or the end of the hand.
Nothing here decides a rule: the answers are the engine's own lists.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from deckgen.rules.agents import Agent
from deckgen.rules.engine import Game
from deckgen.rules.table import Table

#: Decision kinds, in the words the page and the log use for them.
KINDS = ("play", "play_drawn", "stack", "challenge", "color", "roulette_color", "target", "swap", "steal",
         "duel", "uno", "catch", "jump_in")

BOT = object()          # an answer meaning "the seat's own bot decides"


class Abandoned(Exception):
    """The hand was given up (a new game began) while the engine waited for an answer."""


@dataclass(frozen=True)
class Decision:
    """A question to one seat: its kind, the legal answers the engine offered, and what the
    question is about (``about``: the offender, the duel's number, ...)."""

    seat: int
    kind: str
    answers: tuple[Any, ...]
    about: dict[str, int] = field(default_factory=dict)


class _Seat(Agent):
    """Every seat's agent: each question becomes a Decision of the driver."""

    def __init__(self, driver: HandDriver, seat: int, bot: Agent):
        self.driver, self.seat, self.bot = driver, seat, bot
        self.name = bot.name

    def _ask(self, kind: str, answers: Sequence[Any], fallback: Callable[[], Any], **about: int) -> Any:
        return self.driver.ask(Decision(self.seat, kind, tuple(answers), about), fallback)

    def choose_play(self, g, p, moves, may_draw):
        return self._ask("play", [*moves, *([None] if may_draw else [])],
                         lambda: self.bot.choose_play(g, p, moves, may_draw))

    def play_drawn(self, g, p, moves, must):
        return self._ask("play_drawn", [*moves, *([] if must else [None])],
                         lambda: self.bot.play_drawn(g, p, moves, must))

    def stack(self, g, p, moves):
        return self._ask("stack", [*moves, None], lambda: self.bot.stack(g, p, moves))

    def challenge(self, g, p, offender):
        return self._ask("challenge", [True, False], lambda: self.bot.challenge(g, p, offender), offender=offender)

    def choose_color(self, g, p):
        return self._ask("color", range(len(g.t.colors)), lambda: self.bot.choose_color(g, p))

    def roulette_color(self, g, p):
        return self._ask("roulette_color", range(len(g.t.colors)), lambda: self.bot.roulette_color(g, p))

    def choose_target(self, g, p, players):
        return self._ask("target", players, lambda: self.bot.choose_target(g, p, players))

    def choose_swap(self, g, p, players):
        return self._ask("swap", players, lambda: self.bot.choose_swap(g, p, players))

    def choose_steal(self, g, p, players):
        return self._ask("steal", players, lambda: self.bot.choose_steal(g, p, players))

    def duel(self, g, p, answers, value):
        return self._ask("duel", answers, lambda: self.bot.duel(g, p, answers, value), value=value)

    def say_uno(self, g, p):
        return self._ask("uno", [True, False], lambda: self.bot.say_uno(g, p))

    def jump_in(self, g, p, move):
        return self._ask("jump_in", [True, False], lambda: self.bot.jump_in(g, p, move), move=move)

    def catch_uno(self, g, p, offender):
        return self._ask("catch", [True, False], lambda: self.bot.catch_uno(g, p, offender), offender=offender)


class HandDriver:
    """One hand: ``start()``, then ``pending`` / ``answer()`` until ``done``."""

    def __init__(self, table: Table, n_players: int, seed: Any, bots: Sequence[Agent], dealer: int | None = None):
        self.game = Game(table, n_players, seed, [_Seat(self, q, bots[q]) for q in range(n_players)],
                         record=True, dealer=dealer)
        self.pending: Decision | None = None
        self.done = False
        self.error: BaseException | None = None
        self._cond = threading.Condition()
        self._reply: Any = None
        self._replied = False
        self._abandoned = False
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the engine's side
    def ask(self, decision: Decision, fallback: Callable[[], Any]) -> Any:
        with self._cond:
            if self._abandoned:
                raise Abandoned()
            self.pending, self._replied = decision, False
            self._cond.notify_all()
            while not self._replied and not self._abandoned:
                self._cond.wait()
            if self._abandoned:
                raise Abandoned()
            reply, self.pending = self._reply, None
        return fallback() if reply is BOT else reply

    def _run(self) -> None:
        try:
            self.game.run()
        except Abandoned:
            return
        except BaseException as exc:  # noqa: BLE001 - shown by the session, never swallowed
            self.error = exc
        with self._cond:
            self.done = True
            self._cond.notify_all()

    # ------------------------------------------------------------------ the caller's side
    def _settle(self) -> None:
        """Wait until the engine asks again or the hand ends."""
        with self._cond:
            while self.pending is None and not self.done:
                self._cond.wait()
        if self.error is not None:
            raise self.error

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="deckgen-play-hand", daemon=True)
        self._thread.start()
        self._settle()

    def answer(self, reply: Any) -> None:
        """Answer the pending decision (one of its answers, or BOT) and wait for the next one."""
        with self._cond:
            if self.pending is None:
                raise RuntimeError("no decision is pending")
            if reply is not BOT and reply not in self.pending.answers:
                raise ValueError(f"{reply!r} is not a legal answer to {self.pending.kind}")
            self._reply, self._replied = reply, True
            self.pending = None
            self._cond.notify_all()
        self._settle()

    def abandon(self) -> None:
        with self._cond:
            self._abandoned = True
            self._cond.notify_all()


__all__ = ["BOT", "KINDS", "Abandoned", "Decision", "HandDriver"]
