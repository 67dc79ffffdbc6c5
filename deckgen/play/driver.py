"""The bots' side of a table served to pages: their decisions thought off the request path.

The :class:`Driver` is a task on the server's event loop. When a bot's decision is pending it
hands the :class:`~deckgen.play.session.BotJob` (the decision, the seat's observation, a seed
for the bot's generator) to a worker thread, where the bot thinks, while the loop goes on
answering pages; the answer is applied to the game under the session's lock only if that
decision is still the one pending (a new game or a seat's change may have come meanwhile). A
move a person watches is shown ``pace`` seconds after it was asked, the bot thinking during the
pause, not after it; the seat shows as thinking meanwhile. The driver also closes the races of
the ``race`` UNO mode when their time comes (:meth:`Session.tick`).

The bundled expert thinks for up to a second in pure Python: it thinks in a **process** of its
own (one for the table, started with the server), so the server's process never waits for the
interpreter's lock while the expert works. The expert objects live there, one per seat and game,
with their memory of the hand; a job travels there as plain values (its observation without
the compiled table, which the process compiled once from the deck). Any other bot, a quick one
or one given by ``make_bot``, thinks in a worker thread of the server's process.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import traceback
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from deckgen.model import Deck
from deckgen.options import RuleOptions
from deckgen.play.session import BotJob, Session
from deckgen.rules.decision import Answer, Decision, Observation

SHOW_THINKING = 0.15      # an unpaced bot taking longer than this shows as thinking


# ---------------------------------------------------------------- the thinking process (expert bots)
_TABLE: Any = None
_BOT = "expert"
_BOTS: dict[tuple[str, int], Any] = {}


def _start(deck: Deck, rules: RuleOptions, name: str) -> None:
    """In the thinking process: the table compiled once, the bots' name."""
    global _TABLE, _BOT
    from deckgen.rules.table import compile_deck

    _TABLE, _BOT = compile_deck(deck, rules), name


def _think(game: str, seat: int, decision: Decision, observation: Observation, seed: str) -> Answer:
    """In the thinking process: the seat's bot (one per seat and game, kept with its memory) answers."""
    from deckgen.rules import bots, expert

    bot = _BOTS.get((game, seat))
    if bot is None:
        for key in [k for k in _BOTS if k[0] != game]:
            del _BOTS[key]
        bot = _BOTS[(game, seat)] = bots.make(_BOT, expert.TABLE_THINK)
    return bot.decide(decision, observation._replace(table=_TABLE), random.Random(seed))


def _ready() -> bool:
    return _TABLE is not None


class Driver:
    def __init__(self, session: Session):
        self.s = session
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="deckgen-play-bot")
        self.procs: Executor | None = None
        if session.default_bots and session.opts.bots == "expert":
            self.procs = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_start,
                                             initargs=(session.deck, session.table.rules, session.opts.bots))
        self.changed: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.busy = False               # a bot is thinking (benchmarks/play.py reads it)

    def poke(self) -> None:
        """Something changed at the table (called from any thread)."""
        loop, changed = self.loop, self.changed
        if loop is not None and changed is not None and not loop.is_closed():
            loop.call_soon_threadsafe(changed.set)

    async def run(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.procs is not None:                      # started now, not at the first bot's turn
            self.loop.run_in_executor(self.procs, _ready)
        self.changed = asyncio.Event()
        self.s.subscribe(self.poke)
        s = self.s
        while True:
            self.changed.clear()
            job = s.bot_job()
            if job is not None:
                await self.play(job)
                continue
            when = s.next_timer()
            timeout = None if when is None else max(0.0, when - s.clock())
            if timeout == 0.0:
                s.tick(s.clock())
                continue
            try:
                await asyncio.wait_for(self.changed.wait(), timeout)
            except asyncio.TimeoutError:
                s.tick(s.clock())

    async def play(self, job: BotJob) -> None:
        s = self.s
        loop = asyncio.get_running_loop()
        self.busy = True
        if self.procs is not None:
            thinking = loop.run_in_executor(self.procs, _think, job.key[0], job.seat, job.decision,
                                            job.observation._replace(table=None), job.rng)  # type: ignore[arg-type]  # the table: the process has its own
        else:
            thinking = loop.run_in_executor(self.pool, s.think, job)
        thinking.add_done_callback(self._idle)
        if job.paced:
            s.set_thinking(job)
            await asyncio.sleep(s.opts.pace)
        else:
            done, _ = await asyncio.wait({thinking}, timeout=SHOW_THINKING)
            if not done:
                s.set_thinking(job)
        try:
            reply = await thinking
        except Exception:
            if self.procs is None:
                s.bot_failed(job, traceback.format_exc(limit=8))
                return
            # no process could be started here (a daemonic parent, a broken pool): a thread thinks
            self.procs.shutdown(wait=False, cancel_futures=True)
            self.procs = None
            self.busy = False
            await self.play(job)
            return
        if not s.bot_answer(job, reply):
            s.set_thinking(None)

    def _idle(self, _done: object) -> None:
        self.busy = False

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self.procs is not None:          # waits for a thought under way (a second at most), so no
            self.procs.shutdown(wait=True, cancel_futures=True)     # process is left behind


__all__ = ["SHOW_THINKING", "Driver"]
