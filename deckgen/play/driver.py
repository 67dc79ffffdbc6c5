"""The bots' side of a table served to pages: their decisions thought off the request path.

The :class:`Driver` is a task on the server's event loop. When a bot's decision is pending it
hands the :class:`~deckgen.play.session.BotJob` (the decision, the seat's observation, a seed
for the bot's generator) to a worker thread, where the bot thinks, while the loop goes on
answering pages; the answer is applied to the game under the session's lock only if that
decision is still the one pending (a new game or a seat's change may have come meanwhile). A
move a person watches is shown ``pace`` seconds after it was asked, the bot thinking during the
pause, not after it; the seat shows as thinking meanwhile. The driver also closes the races of
the ``race`` UNO mode when their time comes (:meth:`Session.tick`).
"""

from __future__ import annotations

import asyncio
import traceback
from concurrent.futures import ThreadPoolExecutor

from deckgen.play.session import BotJob, Session

SHOW_THINKING = 0.15      # an unpaced bot taking longer than this shows as thinking


class Driver:
    def __init__(self, session: Session):
        self.s = session
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="deckgen-play-bot")
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
            s.bot_failed(job, traceback.format_exc(limit=8))
            return
        if not s.bot_answer(job, reply):
            s.set_thinking(None)

    def _idle(self, _done: object) -> None:
        self.busy = False

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["SHOW_THINKING", "Driver"]
