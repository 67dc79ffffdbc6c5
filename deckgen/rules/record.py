"""What one simulated game leaves behind: the counters the simulation report and the balance
report are built from.

The engine fills a :class:`GameRecord` per game (``deckgen.rules.simulate.play_record``);
nothing in it refers to engine objects, so records pickle cheaply between worker processes
and can be written by hand in tests.
"""

from __future__ import annotations

from typing import NamedTuple

# Why a card went from the draw pile into a hand (after the deal). Every draw has exactly one.
CAUSES: tuple[str, ...] = (
    "no_play",     # no playable card, or chose to draw (draw one / draw until playable)
    "penalty",     # a draw card's penalty taken unstacked (split by kind in penalty_by_kind)
    "stack",       # a stacked penalty of two or more draw cards, drawn whole
    "everyone",    # an everyone-draws effect
    "duel",        # a duel penalty
    "challenge",   # a lost challenge (the challenger's penalty, or the guilty offender's)
    "uno",         # caught not saying UNO
    "roulette",    # cards turned by a Colour Roulette
)

TRACE_EVERY = 5       # a hand-size sample every this many turns
TRACE_MAX = 200       # at most this many samples per game


class GameRecord(NamedTuple):
    outcome: str                              # "finished" | "stalled" | "capped"
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
    events: tuple[tuple[str, int, int], ...]  # (event, turn, seat or -1): "dry", "knockout", "stalled", "capped"
