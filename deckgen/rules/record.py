"""What one simulated game leaves behind: the counters the simulation report and the balance
report are built from.

The engine fills a :class:`GameRecord` per game (``deckgen.rules.simulate.play_record``);
nothing in it refers to engine objects, so records pickle cheaply between worker processes
and can be written by hand in tests.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class Word(str, Enum):
    """A fixed word of the results (an outcome, a cause, an event): a ``str`` that compares,
    hashes, formats, prints and goes into JSON as its value, so code and files that hold the
    plain words keep working with it."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

    def __repr__(self) -> str:
        return repr(str(self.value))


class Outcome(Word):
    """How a game (or a match) ended."""

    FINISHED = "finished"     # someone went out (a match: someone reached the target score)
    STALLED = "stalled"       # no card can be played or drawn any more
    CAPPED = "capped"         # the turn cap (a match: the hand limit) came first


class Cause(Word):
    """Why a card went from the draw pile into a hand (after the deal). Every draw has exactly one."""

    NO_PLAY = "no_play"       # no playable card, or chose to draw (draw one / draw until playable)
    PENALTY = "penalty"       # a draw card's penalty taken unstacked (split by kind in penalty_by_kind)
    STACK = "stack"           # a stacked penalty of two or more draw cards, drawn whole
    EVERYONE = "everyone"     # an everyone-draws effect
    DUEL = "duel"             # a duel penalty
    CHALLENGE = "challenge"   # a lost challenge (the challenger's penalty, or the guilty offender's)
    UNO = "uno"               # caught not saying UNO
    ROULETTE = "roulette"     # cards turned by a Colour Roulette


class Event(Word):
    """What a record's ``events`` notes, the things the checker warns about (in report order)."""

    CAPPED = "capped"         # the game reached the turn cap
    STALLED = "stalled"       # the game stalled
    DRY = "dry"               # a player had to draw and the draw pile and discards were empty
    KNOCKOUT = "knockout"     # a player was knocked out (the Mercy limit)


# the causes in their index order, as plain words (the engine counts draws per index)
CAUSES: tuple[str, ...] = tuple(c.value for c in Cause)


def rounded(x: float, nd: int = 2) -> float:
    """A figure of the reports, rounded as every report rounds it."""
    return round(float(x), nd)


TRACE_EVERY = 5       # a hand-size sample every this many turns
TRACE_MAX = 200       # at most this many samples per game


class GameRecord(NamedTuple):
    outcome: Outcome
    winner: int | None                        # seat of the winner (seat 0 plays first)
    turns: int
    decisions: int
    draws: int                                # cards drawn after the deal, every cause
    reshuffles: int
    dry: int                                  # times a player had to draw and nothing was left
    knockouts: int
    max_stack: int
    max_hand: int
    flex_plays: int
    power_flips: int
    plays_by_kind: tuple[int, ...]            # per kind index (Table.kinds), every seat
    draws_by_cause: tuple[int, ...]           # per CAUSES index; sums to ``draws``
    penalty_by_kind: tuple[int, ...]          # the "penalty" draws, per kind index of the card
    plays_by_seat_kind: tuple[tuple[int, ...], ...]   # [seat][kind index]
    held_by_kind: tuple[int, ...]             # cards of each kind (regular side) left in hands at the end
    hand_trace: tuple[tuple[int, int, tuple[int, ...]], ...]
    # every TRACE_EVERY turns (at most TRACE_MAX): (turn, draw-pile size, hand size per seat; -1 when out)
    events: tuple[tuple[str, int, int], ...]  # (an Event, turn, seat or -1)
    # cards each seat played (the row sums of plays_by_seat_kind): whether a seat has had a turn
    # in which it played, kept when a lean record leaves the per-kind rows out
    plays_by_seat: tuple[int, ...] = ()
    # turns each seat took itself, playing a card or drawing (a waiting penalty stacked on or
    # taken counts; a lost turn served does not): whether a seat has had a turn at all
    acted_by_seat: tuple[int, ...] = ()
