"""What one player knows of the other hands: the cards they know to be there.

A player sees their own hand, the piles and every hand's size. They also know where some of the
other players' cards are: a card taken from them (a steal) is in the taker's hand; the hand they
gave away in a swap, or passed on, is in the receiver's; and each such card stays known until
its holder plays or discards it, or the hand moves on again. :func:`known_cards` reads it from a
hand's log, replayed (:mod:`deckgen.rules.replay`), with every event as that player saw it, so
it uses nothing the player could not know. A determinization (``Game.determinize``) keeps these
cards where they are and deals out only the rest.
"""

from __future__ import annotations

from collections import Counter

from deckgen.rules.state import Deal, Discard, Knockout, PassHands, Play, Position, State, Steal, Swap


def known_cards(game: State, p: int) -> dict[int, Counter[int]]:
    """For every other seat, the cards player ``p`` knows it holds (empty when the hand keeps
    no log: then p knows no more than the sizes)."""
    n = game.n_players
    know: list[Counter[int]] = [Counter() for _ in range(n)]
    if game.log is not None:
        s = State(game.table, n, record=False)      # the hand replayed: p's own hand at every event
        for ev in game.log:
            _learn(know, s, ev, p)
            ev.apply(s)
    return {q: know[q] & Counter(game.hands[q]) for q in range(n) if q != p}


def _learn(know: list[Counter[int]], s: State, ev: object, p: int) -> None:
    """What p learns from one event (``s``: the table just before it)."""
    k = type(ev)
    if k is Deal or k is Position:
        for c in know:
            c.clear()
    elif k is Play:
        _forget(know[ev.player], ev.move >> 1)                      # type: ignore[attr-defined]
    elif k is Discard:
        _forget(know[ev.player], ev.face)                           # type: ignore[attr-defined]
    elif k is Steal:
        _steal(know, ev.player, ev.victim, ev.face, p)              # type: ignore[attr-defined]
    elif k is Swap:
        _moved(know, s, (ev.a, ev.b), p)                            # type: ignore[attr-defined]
    elif k is PassHands:
        _moved(know, s, ev.players, p)                              # type: ignore[attr-defined]
    elif k is Knockout:
        know[ev.player] = Counter()                                 # type: ignore[attr-defined]


def _steal(know: list[Counter[int]], player: int, victim: int, face: int, p: int) -> None:
    if victim == p:
        know[player][face] += 1                                     # taken from p: p saw which
    elif player != p:
        know[victim].clear()                                        # p did not see which card went


def _moved(know: list[Counter[int]], s: State, order: tuple[int, ...], p: int) -> None:
    """Hands passed on in ``order``, each to the next (a swap: two players, each to the other):
    what p knew goes with them, and p knows the hand p gave away."""
    moved = [know[q] for q in order]
    for i, q in enumerate(order):
        know[q] = moved[i - 1]
    if p in order:
        know[order[(order.index(p) + 1) % len(order)]] = Counter(s.hands[p])
        know[p] = Counter()


def _forget(c: Counter[int], face: int) -> None:
    if c[face] > 0:
        c[face] -= 1


__all__ = ["known_cards"]
