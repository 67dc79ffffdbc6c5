"""How a hand is stepped: the seats' policies, questions that stop the game, copies.

:class:`Machine` is the part of a game (:class:`deckgen.rules.engine.Game`) below the rules'
flow: the table (:class:`~deckgen.rules.state.State`), the rule options the turn reads, the
seats' policies, the card whose effects are applying (:class:`Card`), and the pending decision
with what is left to do after it (``kont``: frames, each a step of the rules and its arguments,
plain data). A question goes through :meth:`Machine.ask`: the seat's policy answers it at once,
or, for a seat without one, :class:`Suspended` carries it up to the game's loop, every step on
the way adding a frame for what is left of it. Because all of that is data, a game at any
decision can be copied (:meth:`Machine.clone`) or imagined as one seat might
(:meth:`Machine.determinize`) and stepped on.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Sequence
from types import EllipsisType
from typing import TYPE_CHECKING, Any, Final, TypedDict

from deckgen.rules.decision import (
    Answer,
    Decision,
    DecisionKind,
    Glance,
    Observation,
    Penalty,
    Policy,
    as_moves,
    as_policies,
)
from deckgen.rules.knowledge import known_cards
from deckgen.rules.state import (
    FINISHED,
    Draw,
    InvalidState,
    Pending,
    Position,
    Reshuffle,
    Return,
    Shuffle,
    State,
    Steal,
    shuffled,
)

if TYPE_CHECKING:
    from deckgen.rules.decision import Bot
    from deckgen.rules.state import Event, Seed
    from deckgen.rules.table import Table

    Agents = Bot | Policy | None | Sequence[Bot | Policy | None]    # one for every seat, or one per seat

NO_PENALTY = Penalty()
PUBLIC_EVENTS = 40          # how many of the latest public events an observation carries
_DOUBLE = (2).__mul__            # face -> its regular-side move, in C (legal_moves is the hottest query)
_PLUS_ONE = (1).__add__

Layout = tuple[dict[int, list[int]], list[int]]
"""A determinization's layout of the hidden cards: {seat: hand} and the draw pile, bottom first."""


class _Ask:
    """The answer argument of a step not yet answered (None is an answer: it draws, keeps, takes)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ASK"


ASK: Final = _Ask()


class HandOptions(TypedDict, total=False):
    """Where a hand sits, given to Game by keyword: who deals (default: the last seat), the match
    scores before it (default: none), the generator its bots draw from (default: the game's) and
    the turn at which it is capped (default: the rule option turn_cap)."""

    dealer: int | None
    scores: tuple[int, ...] | None
    bot_rng: random.Random | None
    turn_cap: int | None


HAND_OPTIONS = frozenset(HandOptions.__annotations__)


class Suspended(Exception):
    """A decision of a seat without a policy: raised where the rules ask it and caught by the
    game's loop, which keeps the decision and the frames (what is left to do, innermost first,
    each step on the way up adding its own) until ``Game.apply`` is given an answer."""

    def __init__(self, decision: Decision, frame: tuple[Any, ...]):
        super().__init__(decision)
        self.decision = decision
        self.frames: list[tuple[Any, ...]] = [frame]


class Card:
    """The card whose effects are applying (one at a time: a card's effects end before another
    card is played), what its effects share: its player, move and how it was played, whether it
    was played illegally (guilty), the victim a 'target' chose, another turn for its player, a
    reverse among its effects, and the seats it has cost a turn (bits: lost; of them, owed
    turns; of them, turns a waiting penalty took over)."""

    __slots__ = ("absorbed", "again", "guilty", "how", "lost", "move", "owes", "p", "reversed", "target")

    def __init__(self) -> None:
        self.p, self.move, self.guilty, self.how = -1, -1, False, "play"
        self.target: int | None = None
        self.again = False
        self.reversed = False
        self.lost = self.owes = self.absorbed = 0

    def copy(self) -> Card:
        c = Card()
        c.p, c.move, c.guilty, c.how, c.target = self.p, self.move, self.guilty, self.how, self.target
        c.again, c.reversed, c.lost, c.owes, c.absorbed = self.again, self.reversed, self.lost, self.owes, self.absorbed
        return c


class Machine(State):
    """A hand's table, its seats' policies and what stepping it needs (module docstring)."""

    __slots__ = ("acted_by_seat", "before_restricted", "bot_rng", "card", "challenge", "dealer", "decision",
                 "draw_one", "flex_plays", "jump_in", "kont", "match_scores", "max_stack", "may_draw_instead",
                 "mercy_limit", "must_play_drawn", "next_trace", "penalty_by_kind", "plays_by_seat_kind", "policies",
                 "power_cards", "power_flips", "rules", "stacking", "trace", "turn_cap", "uno_penalty",
                 "wild_draw_four_legal")

    def __init__(self, table: Table, n_players: int, seed: Seed, agents: Agents, record: bool, hand: HandOptions):
        super().__init__(table, n_players, seed, record)
        self.policies: list[Policy | None] = _seats(agents, n_players)
        bot_rng, scores, dealer, cap = hand.get("bot_rng"), hand.get("scores"), hand.get("dealer"), hand.get("turn_cap")
        self.bot_rng = self.rng if bot_rng is None else bot_rng    # what bots draw their choices from
        self.match_scores = tuple(scores) if scores is not None else (0,) * n_players
        rules = self.rules = table.rules
        self.dealer = n_players - 1 if dealer is None else dealer
        self.turn_cap = rules.turn_cap if cap is None else cap
        # the rule options the turn reads most, under their own names
        self.draw_one = rules.no_playable_card == "draw-one"
        self.must_play_drawn = rules.play_drawn == "must"
        self.may_draw_instead = rules.may_draw_instead
        self.stacking = rules.stacking
        self.mercy_limit = rules.mercy_limit
        self.uno_penalty = rules.uno_penalty
        self.power_cards = rules.power_cards and table.any_flex     # in force: the deck has Flex sides
        self.challenge = rules.challenge
        self.wild_draw_four_legal = rules.wild_draw_four_legal
        self.jump_in = rules.jump_in
        self.flex_plays = self.power_flips = 0
        self.max_stack = 0
        nk = len(table.kinds)
        self.penalty_by_kind = [0] * nk
        self.plays_by_seat_kind = [[0] * nk for _ in range(n_players)]
        self.acted_by_seat = [0] * n_players      # turns a seat took itself: it played or drew (record.acted_by_seat)
        self.trace: list[tuple[int, int, tuple[int, ...]]] = []
        self.next_trace = 0
        self.card = Card()
        self.before_restricted = (0, -1)          # the pile (key, colour) the last restricted card was played on
        self.kont: list[tuple[Any, ...]] = []     # what is left to do after the pending decision (top last)
        self.decision: Decision | None = None     # the decision waiting for an answer (a seat without a policy)

    # ---------------------------------------------------------------- questions
    def ask(self, p: int, kind: DecisionKind, options: Sequence[Any], frame: tuple[Any, ...],
            passable: bool = False, about: int = -1, value: int = -1) -> Answer:
        """Every question the rules put to a player but the turn's play (Game.take_turn): the
        seat's policy answers it now, or the game stops at it (Suspended) with ``frame``, the
        step that goes on with the answer: ``frame[0](game, *frame[1:], answer)``."""
        self.decisions += 1
        policy = self.policies[p]
        if policy is None:
            raise Suspended(self.question(p, kind, options, passable, about, value), frame)
        return policy.answer(self, p, kind, options, passable, about, value)

    def question(self, p: int, kind: DecisionKind, options: Sequence[Any], passable: bool = False, about: int = -1,
                 value: int = -1) -> Decision:
        """The Decision asked of p now (its serial: the decisions asked so far)."""
        return Decision(p, kind, tuple(options), passable, about, value, self.decisions)

    # ---------------------------------------------------------------- what may be played
    def legal_cards(self, p: int, restricted: bool | None = None) -> tuple[list[int], list[int]]:
        """The cards of player p's hand that may be played now (each once): those playable by
        their regular side, and those playable by their Flex side (move face*2 + 1), in the
        order every caller lists them. ``restricted``: whether a restricted card ('challenge') is
        kept back when it may not be played (default: as the rule options say, kept back when it
        cannot be challenged; False: the matching rule alone)."""
        t = self.table
        entry = t.cache[self.pile_key]
        hand = {*self.hands[p]}
        faces = [*hand & entry[2]]
        flex = [*hand & entry[3]] if t.any_flex and (self.power[p] or not self.power_cards) else []
        if t.any_restricted and (faces or flex) and (not self.challenge if restricted is None else restricted):
            return self._restrict(p, faces, flex)
        return faces, flex

    def legal_moves(self, p: int, restricted: bool | None = None) -> list[int]:
        """Every distinct legal move of player p now (face*2 + side): legal_cards as moves."""
        faces, flex = self.legal_cards(p, restricted)
        return as_moves(faces, flex)

    def moves_for(self, p: int, f: int) -> list[int]:
        """The legal moves of one card in p's hand (the card just drawn): legal_moves(p) less the
        other cards' moves, its regular side first."""
        t = self.table
        entry = t.cache[self.pile_key]
        moves = [f + f] if entry[0][f] else []
        if entry[1][f] and (self.power[p] or not self.power_cards):     # a Flex side (only those are set)
            moves.append(f + f + 1)
        if moves and t.any_restricted and not self.challenge and any(t.restricted[m] for m in moves):
            return [m for m in self.legal_moves(p) if m >> 1 == f]     # kept back or not: the whole hand decides
        return moves

    def _restrict(self, p: int, faces: list[int], flex: list[int]) -> tuple[list[int], list[int]]:
        """legal_cards less the restricted cards p may not play now."""
        restricted = self.table.restricted
        if self.wild_draw_four_legal == "always" or not (any(restricted[f + f] for f in faces)
                                                          or any(restricted[f + f + 1] for f in flex)):
            return faces, flex
        if self.restricted_play_legal(p, as_moves(faces, flex)):
            return faces, flex
        return [f for f in faces if not restricted[f + f]], [f for f in flex if not restricted[f + f + 1]]

    def restricted_play_legal(self, p: int, moves: list[int] | None) -> bool:
        """Whether a 'challenge' card may be played now: always; without a card of the current
        colour; or without another playable card (other 'challenge' cards do not count, or two of
        them could never be played). ``moves``: p's moves by the matching rule, if known."""
        t = self.table
        if self.wild_draw_four_legal == "always":
            return True
        if self.wild_draw_four_legal == "no-current-color":
            return not t.holds_color(self.hands[p], self.color)
        if moves is None:
            moves = self.legal_moves(p, restricted=False)
        return not any(not t.restricted[m] for m in moves)

    def was_guilty(self, offender: int) -> bool:
        """Whether ``offender``'s hand as it is now would have made their restricted card an
        illegal play on the pile it was played on (``before_restricted``): the test of
        restricted_play_legal, for a hand a determinization has dealt again."""
        t = self.table
        key, color = self.before_restricted
        if self.wild_draw_four_legal == "always":
            return False
        hand = self.hands[offender]
        if self.wild_draw_four_legal == "no-current-color":
            return t.holds_color(hand, color)
        entry = t.cache[key]
        held = {*hand}
        moves = [*map(_DOUBLE, held & entry[2])]
        if t.any_flex and (self.power[offender] or not self.power_cards):
            moves += map(_PLUS_ONE, map(_DOUBLE, held & entry[3]))
        return any(not t.restricted[m] for m in moves)

    def next_to_act(self) -> int:
        """Who acts next: from the current player on, the first who must answer a waiting
        penalty or owes no lost turn (a query: nothing changes)."""
        owed = list(self.owed)
        q = self.current
        for _ in range(sum(owed) + self.n_players + 1):
            if self.alive[q] and ((self.penalty and self.waiting.victim == q) or not owed[q]):
                return q
            if self.alive[q]:
                owed[q] -= 1
            q = self.step(q)
        return q

    # ---------------------------------------------------------------- what a seat sees
    def glance(self, p: int) -> Glance:
        """The fields of observation(p) the greedy bot reads, built the same way."""
        return tuple.__new__(Glance, (p, tuple(self.hands[p]), tuple(map(len, self.hands)), tuple(self.alive),
                                      self.direction, self.table))       # Glance(...) without its Python __new__

    def observation(self, p: int) -> Observation:
        """What player p sees now: their own hand and the table (never another hand)."""
        waiting = self.waiting
        penalty = NO_PENALTY
        if self.penalty:
            ch = waiting.challenge
            penalty = Penalty(waiting.victim, waiting.total, waiting.value, waiting.kind, waiting.cards,
                              -1 if ch is None else ch[0])
        events: tuple[Event, ...] = ()
        if self.log:                            # public_event of each, inlined
            hide = _HIDE.get
            events = tuple([ev if (h := hide(type(ev))) is None else h(ev, p) for ev in self.log[-PUBLIC_EVENTS:]])
        return Observation(p, tuple(self.hands[p]), tuple(map(len, self.hands)), tuple(self.alive),
                           tuple(self.power), tuple(self.owed), self.current, self.direction, self.top,
                           -1 if self.pile_key == -1 else self.color, self.pile_key == -1, len(self.draw_pile),
                           len(self.discard), penalty, self.duel, self.uno_open, self.turns,
                           self.match_scores, events, self.table)

    @property
    def plays_by_kind(self) -> list[int]:
        """Cards played per kind index, every seat."""
        return [sum(col) for col in zip(*self.plays_by_seat_kind, strict=True)]

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """The match scores with this hand's points added to its winner (once it is finished)."""
        out = list(self.match_scores)
        if self.outcome == FINISHED and self.winner is not None:
            out[self.winner] += self.score
        return tuple(out)

    def check(self) -> None:
        """The validity check (State.check), and a pending decision that fits the table: asked of
        a seat still in, with a legal answer, and something left to do after it."""
        super().check()
        d = self.decision
        problems = []
        if d is not None:
            if self.outcome is not None:
                problems.append("the hand is over but a decision is pending")
            if not 0 <= d.player < self.n_players or not self.alive[d.player]:
                problems.append(f"the pending decision is asked of seat {d.player}, which is not in")
            if not d.options and not d.passable:
                problems.append("the pending decision has no legal answer")
            if not self.kont:
                problems.append("a decision is pending with nothing to go on with")
        elif self.kont:
            problems.append("steps are left to do, but no decision is pending")
        if problems:
            raise InvalidState("\n".join(problems))

    # ---------------------------------------------------------------- copies
    def clone(self, record: bool | None = None, agents: Agents | EllipsisType = ...,
              rng: random.Random | None = None) -> Any:
        """An independent copy: the same table, counters, generator states, pending decision and
        what is left to do after it, so the same answers give the same game. ``record``: keep a
        log (default: as this game; a copy that keeps one starts with this game's log so far);
        ``agents``: the copy's policies (default: the same objects, so a policy with a memory of
        its own is shared between the two); ``rng``: the copy's generator instead of a copy of
        this one's (its bots' too, where they share this game's), for a copy that is to play on
        by other chances (a searcher's play-out)."""
        g = object.__new__(type(self))
        _copy_slots(self, g)
        g.hands = [list(h) for h in self.hands]
        g.draw_pile, g.discard, g.aside = list(self.draw_pile), list(self.discard), list(self.aside)
        g.alive, g.power, g.owed = list(self.alive), list(self.power), list(self.owed)
        g.by_cause, g.events = list(self.by_cause), list(self.events)
        g.penalty_by_kind = list(self.penalty_by_kind)
        g.plays_by_seat_kind = [list(r) for r in self.plays_by_seat_kind]
        g.acted_by_seat = list(self.acted_by_seat)
        g.trace, g.kont = list(self.trace), list(self.kont)
        g.card = self.card.copy()
        g.rng = _copy_random(self.rng) if rng is None else rng
        g.bot_rng = g.rng if self.bot_rng is self.rng else _copy_random(self.bot_rng)
        keep = self.log is not None if record is None else record
        g.log = (list(self.log) if self.log is not None else []) if keep else None
        g.watch = None
        g.policies = list(self.policies) if agents is ... else _seats(agents, self.n_players)
        return g

    def hidden_from(self, p: int, known: dict[int, Counter[int]] | None = None) -> Counter[int]:
        """The cards player p cannot see: every other hand and the draw pile, less the ones p
        knows where they are (``known``, as :func:`deckgen.rules.knowledge.known_cards` gives)."""
        pool: Counter[int] = Counter(self.draw_pile)
        for q, h in enumerate(self.hands):
            if q != p:
                pool.update(h)
        for cards in (known or {}).values():
            pool.subtract(cards)
        return +pool

    def determinize(self, p: int, rng: random.Random, deal: Layout | None = None,
                    agents: Agents | EllipsisType = ..., record: bool = False,
                    seed: Seed | EllipsisType = ...) -> Any:
        """A copy of this game as player ``p`` might imagine it: everything p cannot see (the
        other hands, the draw pile's order, whether a challengeable card was played legally)
        dealt again at random from ``rng``, consistently with what p has seen: p's own hand, the
        piles, every hand's size, and the cards p knows where they are (a card taken from p, a
        hand p gave away or passed on: :func:`deckgen.rules.knowledge.known_cards`).

        ``deal``: the caller's own layout of the hidden cards instead ({seat: hand} for every
        other seat, and the draw pile, bottom first), which must hold exactly the cards of the
        other hands and the draw pile, in the same sizes (ValueError otherwise); the caller
        answers for its consistency with what p knows. The copy keeps the pending decision and
        what follows it. ``seed``: a new seed for the copy's generator (default: a copy of this
        one's, which tells future shuffles: a searcher should give one); ``agents``: the copy's
        policies (default: the same); ``record``: whether the copy keeps a log (of its own)."""
        g = self.clone(record=record, agents=agents)
        if record:
            g.log = []
        if seed is not ...:
            g.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
            g.bot_rng = g.rng if self.bot_rng is self.rng else _copy_random(g.rng)
        others = [q for q in range(self.n_players) if q != p]
        if deal is None:
            known = known_cards(self, p)
            cards = shuffled(rng, sorted(self.hidden_from(p, known).elements()))
            hands: dict[int, list[int]] = {}
            for q in others:
                size = len(self.hands[q]) - sum(known[q].values())
                hands[q] = list(known[q].elements()) + cards[:size]
                del cards[:size]
            pile = cards
        else:
            hands = {q: list(deal[0].get(q, ())) for q in others}
            pile = list(deal[1])
            laid: Counter[int] = Counter(pile)
            for h in hands.values():
                laid.update(h)
            if laid != self.hidden_from(p) or len(pile) != len(self.draw_pile) or any(
                    len(hands[q]) != len(self.hands[q]) for q in others):
                raise ValueError("a deal must lay out exactly the cards of the other hands and the draw pile, "
                                 "in hands of the sizes they hold and a draw pile of its size")
        new_hands = tuple(tuple(self.hands[q]) if q == p else tuple(hands[q]) for q in range(self.n_players))
        g.op_position(self.position()._replace(hands=new_hands, draw_pile=tuple(pile)))
        waiting = g.waiting
        if waiting.challenge is not None and waiting.challenge[0] != p:
            offender = waiting.challenge[0]
            g.op_pending(waiting._replace(challenge=(offender, g.was_guilty(offender))))
        card = g.card
        if card.p != p and card.p >= 0 and card.move >= 0 and g.table.restricted[card.move]:
            card.guilty = g.was_guilty(card.p)
        return g


_SLOTS = tuple(sorted((set(State.__slots__) | set(Machine.__slots__)) - {"__weakref__"}))


def _slot_copier(slots: Sequence[str]) -> Any:
    """A function that copies these slots from one object to another, one plain assignment each
    (made from the slot names, so a slot added to the state is copied too)."""
    body = "".join(f"    g.{name} = s.{name}\n" for name in slots)
    ns: dict[str, Any] = {}
    exec(f"def copy_slots(s, g):\n{body}", ns)
    return ns["copy_slots"]


# the slots clone() makes anew (copies of the lists, its own generator...): copy_slots leaves them
_FRESH = frozenset({"hands", "draw_pile", "discard", "aside", "alive", "power", "owed", "by_cause", "events",
                    "penalty_by_kind", "plays_by_seat_kind", "acted_by_seat", "trace", "kont", "card", "rng", "bot_rng",
                    "log", "watch", "policies"})
_copy_slots = _slot_copier([name for name in _SLOTS if name not in _FRESH])


def _copy_random(rng: random.Random) -> random.Random:
    """A generator in the same state (random.Random() would first seed itself from the system)."""
    if type(rng) is not random.Random:
        return copy.deepcopy(rng)
    out = random.Random.__new__(random.Random)
    out.setstate(rng.getstate())
    return out


def _seats(agents: Agents, n: int) -> list[Policy | None]:
    seats = list(agents) if isinstance(agents, (list, tuple)) else [agents] * n
    if len(seats) != n:
        raise ValueError(f"{len(seats)} agents for {n} seats")
    return as_policies(seats)


_HIDDEN_FACE = -1


def public_event(ev: Event, viewer: int) -> Event:
    """An event as player ``viewer`` sees it: orders of shuffled piles, another player's drawn
    card or hand set out, a stolen card between two others, where a start card went back and
    whether a challengeable play was legal are hidden (every other event is public as it is)."""
    hide = _HIDE.get(type(ev))
    return ev if hide is None else hide(ev, viewer)


def _hide_draw(ev: Draw, viewer: int) -> Draw:
    return ev if ev.player == viewer else Draw(ev.player, _HIDDEN_FACE, ev.cause)


def _hide_order(ev: Shuffle | Reshuffle, viewer: int) -> Shuffle | Reshuffle:
    return type(ev)(())


def _hide_steal(ev: Steal, viewer: int) -> Steal:
    return ev if viewer in (ev.player, ev.victim) else ev._replace(face=_HIDDEN_FACE)


def _hide_return(ev: Return, viewer: int) -> Return:
    return ev._replace(position=-1)


def _hide_guilt(ev: Pending, viewer: int) -> Pending:
    return ev if ev.challenge is None else ev._replace(challenge=(ev.challenge[0], None))


def _hide_position(ev: Position, viewer: int) -> Position:
    return ev._replace(hands=tuple(h if q == viewer else (_HIDDEN_FACE,) * len(h) for q, h in enumerate(ev.hands)),
                       draw_pile=(_HIDDEN_FACE,) * len(ev.draw_pile))


_HIDE: dict[type, Any] = {Draw: _hide_draw, Shuffle: _hide_order, Reshuffle: _hide_order, Steal: _hide_steal,
                          Return: _hide_return, Pending: _hide_guilt, Position: _hide_position}


__all__ = ["ASK", "Card", "Layout", "Machine", "Suspended", "as_moves", "public_event"]
