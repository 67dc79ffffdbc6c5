"""Replaying a recorded game: the event log alone rebuilds the table, with no randomness."""

from __future__ import annotations

from deckgen.rules.state import State


class ReplayError(ValueError):
    """The log does not fit the state it is replayed on (a bug in the engine or the log)."""


def replay(table, n_players: int, log, upto: int | None = None, on_event=None) -> State:
    """A fresh state with the log's events applied (the first ``upto`` of them).

    ``on_event(state, event)`` is called before each event is applied (for checks that need
    the state a decision was taken in)."""
    s = State(table, n_players, record=False)
    for i, ev in enumerate(log):
        if upto is not None and i >= upto:
            break
        if on_event is not None:
            on_event(s, ev)
        _apply(s, ev)
    return s


def _pop(s: State, face: int) -> int:
    if not s.draw_pile or s.draw_pile[-1] != face:
        raise ReplayError(f"expected face {face} on top of the draw pile")
    return s.draw_pile.pop()


def _apply(s: State, ev: tuple) -> None:
    k = ev[0]
    if k == "shuffle":
        s.draw_pile = list(ev[1])
    elif k in ("deal", "draw"):
        s.hands[ev[1]].append(_pop(s, ev[2]))
    elif k == "aside":
        s.aside.append(_pop(s, ev[1]))
    elif k == "return":
        s.draw_pile.insert(ev[2], _pop(s, ev[1]))
    elif k == "start":
        s.discard.append(_pop(s, ev[1]))
        s.set_top(2 * ev[1])
    elif k == "reshuffle":
        pool = s.discard[:-1] + s.aside
        if sorted(pool) != sorted(ev[1]):
            raise ReplayError("a reshuffle must use the discard pile (less its top) and the set-aside cards")
        del s.discard[:-1]
        s.aside = []
        s.draw_pile = list(ev[1])
    elif k in ("play", "stack", "duel", "jump"):
        s.hands[ev[1]].remove(ev[2] >> 1)
        s.discard.append(ev[2] >> 1)
        s.set_top(ev[2])
    elif k == "discard":
        s.hands[ev[1]].remove(ev[2])
        s.discard.insert(len(s.discard) - 1, ev[2])
    elif k == "color":
        s.color = ev[1]
    elif k == "direction":
        s.dir = ev[1]
    elif k == "turn":
        s.cur = ev[1]
    elif k == "power":
        s.power[ev[1]] = ev[2]
    elif k == "swap":
        s.op_swap(ev[1], ev[2])
    elif k == "pass_hands":
        players = ev[1]
        hands = [s.hands[p] for p in players]
        for i, p in enumerate(players):
            s.hands[p] = hands[i - 1]
    elif k == "knockout":
        s.op_knockout(ev[1])
    elif k == "end":
        s.outcome, s.winner = ev[1], ev[2]
    elif k not in ("dry", "uno", "challenge"):
        raise ReplayError(f"unknown event {k!r}")
