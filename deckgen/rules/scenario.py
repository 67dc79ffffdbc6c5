"""Exact table situations and scripted players: for tests, and for designers asking "what if".

    g = situation("classic", hands=[["red-5", "wild"], ["blue-5"]], top="red-2",
                  agents=[Scripted(plays=["wild"], colors=["blue"]), Scripted()])
    g.turn()

Cards are named by card id; a card's flex side is ``"red-2-flex@flex"``. The draw pile is
listed in the order the cards will be drawn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from deckgen.rules.agents import Agent
from deckgen.rules.engine import Game
from deckgen.rules.table import Table, compile_deck


def table_for(deck, **options: Any) -> Table:
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


class Scripted(Agent):
    """Plays what it is told, in order; falls back to the first legal choice.

    plays: card specs ("red-5", "x@flex") or "draw"; colors: colour ids; targets: seats (for
    'target', hand swaps and steals); challenge/stack/uno/catch: fixed answers; duel: card ids to
    answer duels with ("red-7", or "red-7@counter" for a counter-duel)."""

    name = "scripted"

    def __init__(self, plays: Iterable[str] = (), colors: Iterable[str] = (), targets: Iterable[int] = (),
                 challenge: bool = False, stack: bool = True, uno: bool = True, catch: bool = True,
                 duel: Iterable[str] = (), play_drawn: bool = True, jump_in: bool = False):
        self.plays = deque(plays)
        self.colors = deque(colors)
        self.targets = deque(targets)
        self.duels = deque(duel)
        self.do_challenge, self.do_stack, self.do_uno, self.do_catch = challenge, stack, uno, catch
        self.do_play_drawn = play_drawn
        self.do_jump_in = jump_in
        self.seen_moves: list[list[int]] = []

    def _pick(self, d, o):
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

    def play(self, d, o, rng):
        return self._pick(d, o)

    def play_drawn(self, d, o, rng):
        if d.passable and not self.do_play_drawn:
            return None
        return self._pick(d, o)

    def stack(self, d, o, rng):
        return self._pick(d, o) if self.do_stack else None

    def challenge(self, d, o, rng):
        return self.do_challenge

    def color(self, d, o, rng):
        return color(o.table, self.colors.popleft()) if self.colors else 0

    def target(self, d, o, rng):
        return self.targets.popleft() if self.targets else d.options[0]

    def duel(self, d, o, rng):
        """Answers from ``duel``: "red-7" discards it plainly (or counter-duels when it cannot be
        discarded), "red-7@counter" plays it as a counter-duel."""
        if self.duels:
            cid, _, how = self.duels.popleft().partition("@")
            f = face(o.table, cid)
            a = f + f + 1 if how == "counter" or f + f not in d.options else f + f
            assert a in d.options, f"{cid} is not a duel answer here"
            return a
        return d.options[0]

    def uno(self, d, o, rng):
        return self.do_uno

    def jump_in(self, d, o, rng):
        return self.do_jump_in

    def catch(self, d, o, rng):
        return self.do_catch


def situation(deck, hands: list[list[str]], top: str, *, color_id: str | None = None, draw: Iterable[str] = (),
              discard: Iterable[str] = (), cur: int = 0, agents=None, options: dict | None = None,
              seed: int = 0, record: bool = True, table: Table | None = None) -> Game:
    """A game in the middle of a hand: these hands, this top card, this draw pile, p to play."""
    t = table or table_for(deck, **(options or {}))
    n = len(hands)
    g = Game(t, n, seed, agents or [Scripted() for _ in range(n)], record=record)
    g.hands = [[face(t, c) for c in h] for h in hands]
    g.draw_pile = [face(t, c) for c in reversed(list(draw))]
    g.discard = [face(t, c) for c in discard] + [face(t, top.split("@")[0])]
    g.set_top(move(t, top))
    if color_id is not None:
        g.color = color(t, color_id)
        g.key = g.pile_key()
    g.cur = cur
    return g
