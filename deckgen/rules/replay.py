"""Replaying a recorded game: the event log alone rebuilds the table, with no randomness.

Each event applies itself by calling the state operation that logged it, with the recorded
values (``event.apply(state)``), so a replay runs exactly the code the live game ran.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from deckgen.rules.state import ReplayError, State

if TYPE_CHECKING:
    from deckgen.rules.state import Event
    from deckgen.rules.table import Table

    Watcher = Callable[[State, Event], object]


def replay(table: Table, n_players: int, log: Iterable[Event], upto: int | None = None,
           on_event: Watcher | None = None, after_event: Watcher | None = None) -> State:
    """A fresh state with the log's events applied (the first ``upto`` of them).

    ``on_event(state, event)`` is called before each event is applied (for checks that need the
    state a decision was taken in); ``after_event(state, event)`` after it."""
    s = State(table, n_players, record=False)
    for i, ev in enumerate(log):
        if upto is not None and i >= upto:
            break
        if on_event is not None:
            on_event(s, ev)
        ev.apply(s)
        if after_event is not None:
            after_event(s, ev)
    return s


__all__ = ["ReplayError", "replay"]
