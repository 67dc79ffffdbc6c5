"""The table of one hand, its typed events and the small named operations that change it.

Everything on the table lives in :class:`State`: hands, piles, Power cards, whose turn it is,
the direction, the pile's colour, the penalty waiting for an answer, the lost turns each player
owes, a duel in progress and an open UNO catch. Only the ``op_*`` methods below write the
table. Each changes it in one well-defined way and, when the hand records a log, appends one
frozen event (a NamedTuple) saying what it did. Replaying a log calls the same operations with
the recorded values (:mod:`deckgen.rules.replay`), so a replay equals the live hand after every
event. The state owns its one seeded ``random.Random``: the shuffles, the random position of a
returned start card and a stolen card go through it.

:meth:`State.check` is the validity check: every card of the deck in exactly one place, hand and
pile counts that agree with the rest of the table. Tests call it after every step.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from deckgen.rules.record import CAUSES, Outcome
from deckgen.rules.record import Event as Note

if TYPE_CHECKING:
    from deckgen.rules.table import Table

FINISHED, STALLED, CAPPED = Outcome.FINISHED, Outcome.STALLED, Outcome.CAPPED


# ---------------------------------------------------------------- events

class Shuffle(NamedTuple):
    order: tuple[int, ...]          # the draw pile, bottom first

    def apply(self, s: State) -> None:
        s.op_shuffle(list(self.order))


class Deal(NamedTuple):
    players: tuple[int, ...]        # dealt to in this order, one card at a time
    cards: int                      # cards each

    def apply(self, s: State) -> None:
        s.op_deal(self.players, self.cards)


class Draw(NamedTuple):
    player: int
    face: int
    cause: int                      # a record.CAUSES index

    def apply(self, s: State) -> None:
        s.op_draw(self.player, self.cause, self.face)


class Dry(NamedTuple):
    player: int                     # had to draw and nothing was left

    def apply(self, s: State) -> None:
        s.op_dry(self.player)


class Reshuffle(NamedTuple):
    order: tuple[int, ...]          # discard pile (less its top) and set-aside cards, shuffled

    def apply(self, s: State) -> None:
        s.op_reshuffle(list(self.order))


class Aside(NamedTuple):
    face: int                       # a start card that may not start, set aside

    def apply(self, s: State) -> None:
        s.op_aside(self.face)


class Return(NamedTuple):
    face: int                       # a start card put back into the draw pile
    position: int

    def apply(self, s: State) -> None:
        s.op_return(self.position, self.face)


class Start(NamedTuple):
    face: int

    def apply(self, s: State) -> None:
        s.op_start(self.face)


class Play(NamedTuple):
    player: int
    move: int                       # face * 2 + side
    how: str                        # "play", "stack" (answers a penalty), "duel" (counter-duel), "jump"

    def apply(self, s: State) -> None:
        s.op_play(self.player, self.move, self.how)


class Discard(NamedTuple):
    player: int
    face: int                       # goes under the top card (Discard All, duel answers)

    def apply(self, s: State) -> None:
        s.op_discard(self.player, self.face)


class Color(NamedTuple):
    color: int

    def apply(self, s: State) -> None:
        s.op_color(self.color)


class Direction(NamedTuple):
    direction: int

    def apply(self, s: State) -> None:
        s.op_direction(self.direction)


class Turn(NamedTuple):
    player: int

    def apply(self, s: State) -> None:
        s.op_turn(self.player)


class Power(NamedTuple):
    player: int
    green: bool

    def apply(self, s: State) -> None:
        s.op_power(self.player, self.green)


class Swap(NamedTuple):
    a: int
    b: int

    def apply(self, s: State) -> None:
        s.op_swap(self.a, self.b)


class PassHands(NamedTuple):
    players: tuple[int, ...]        # each passes their hand to the next one in this order

    def apply(self, s: State) -> None:
        s.op_pass_hands(self.players)


class Steal(NamedTuple):
    player: int
    victim: int
    face: int

    def apply(self, s: State) -> None:
        s.op_steal(self.player, self.victim, self.face)


class Knockout(NamedTuple):
    player: int

    def apply(self, s: State) -> None:
        s.op_knockout(self.player)


class Owe(NamedTuple):
    player: int
    owed: int                       # lost turns this player now owes

    def apply(self, s: State) -> None:
        s.op_owe(self.player, self.owed)


class Pending(NamedTuple):
    """The penalty waiting for an answer (stacking): who must answer it, its total, the value and
    kind of the last draw card, how many draw cards built it, and (offender, guilty) while it may
    still be challenged. ``victim == -1``: nothing waits."""

    victim: int = -1
    total: int = 0
    value: int = 0
    kind: int = -1
    cards: int = 0
    challenge: tuple[int, bool | None] | None = None    # (offender, guilty); guilty hidden (None) in public

    def apply(self, s: State) -> None:
        s.op_pending(self)


NO_PENDING = Pending()


class Duel(NamedTuple):
    """A duel in progress: who played the first duel card, the number to show, the penalty, the
    players still to answer in order, and the first player left without cards (-1: nobody)."""

    first: int
    value: int
    penalty: int
    to_answer: tuple[int, ...]
    out: int = -1


class DuelState(NamedTuple):
    duel: Duel | None

    def apply(self, s: State) -> None:
        s.op_duel(self.duel)


class Uno(NamedTuple):
    player: int
    said: bool

    def apply(self, s: State) -> None:
        s.op_uno(self.player, self.said)


class UnoWindow(NamedTuple):
    offender: int                   # a missed UNO call open to be caught (-1: none)
    closes_after: int               # the catch window ends with this player's turn (-1: at once)

    def apply(self, s: State) -> None:
        s.op_uno_window(self.offender, self.closes_after)


class Caught(NamedTuple):
    catcher: int
    offender: int

    def apply(self, s: State) -> None:
        s.op_caught(self.catcher, self.offender)


class Challenge(NamedTuple):
    challenger: int
    offender: int
    guilty: bool

    def apply(self, s: State) -> None:
        s.op_challenge(self.challenger, self.offender, self.guilty)


class End(NamedTuple):
    outcome: Outcome
    winner: int | None

    def apply(self, s: State) -> None:
        s.op_end(self.outcome, self.winner)


class Position(NamedTuple):
    """A whole table set out at once (a situation built for a test, or a determinization): every
    hand, the draw pile (bottom first), the discard pile (top last), the set-aside cards, who is
    in, the Power cards, the lost turns owed, whose turn it is, the direction and the top card's
    move and colour."""

    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]
    discard: tuple[int, ...]
    aside: tuple[int, ...]
    alive: tuple[bool, ...]
    power: tuple[bool, ...]
    owed: tuple[int, ...]
    current: int
    direction: int
    top: int
    color: int

    def apply(self, s: State) -> None:
        s.op_position(self)


Event = (Shuffle | Deal | Draw | Dry | Reshuffle | Aside | Return | Start | Play | Discard | Color | Direction
          | Turn | Power | Swap | PassHands | Steal | Knockout | Owe | Pending | DuelState | Uno | UnoWindow
          | Caught | Challenge | End | Position)
"""Any event of a hand's log."""


Seed = int | float | str | bytes | bytearray | random.Random | None
"""What seeds a hand's generator (random.Random's own seeds), or the generator itself."""


def shuffled(rng: random.Random, cards: Sequence[int]) -> list[int]:
    """A uniformly random order of the cards from the generator: the cards sorted by one random
    64-bit key each, every step in C (several times faster than ``random.shuffle``, which runs
    Python code per swap). Two equal keys among a deck's cards are a once-in-10^14 event."""
    n = len(cards)
    if n < 2:
        return list(cards)
    keys = memoryview(rng.getrandbits(64 * n).to_bytes(8 * n, "little")).cast("Q").tolist()
    return list(itemgetter(*sorted(range(n), key=keys.__getitem__))(cards))     # (a list's __getitem__ is a fast key)


class ReplayError(ValueError):
    """A log does not fit the state it is replayed on (a bug in the engine or the log)."""


class InvalidState(ValueError):
    """A table that breaks the state's invariants (a bug, or a state written by hand): the
    validity check's findings, one per line."""


# ---------------------------------------------------------------- the state

class State:
    """Everything on the table of one hand; the ``op_*`` operations are its only writers."""

    # Every attribute a slot. An instance dict shares its keys with the class's other instances
    # for at most 30 of them; past that (a Game has over 60) Python 3.11 keeps a dict of its own
    # and no longer specializes the method calls on it, the engine's commonest step.
    __slots__ = ("__weakref__", "alive", "alive_count", "aside", "by_cause", "color", "complete", "current", "decisions",
                 "direction", "discard", "draw_pile", "dry", "duel", "events", "hands", "idle", "knockouts", "log",
                 "max_hand", "n_players", "outcome", "owed", "owed_total", "penalty", "pile_key", "power",
                 "reshuffles", "rng", "score", "table", "top", "turns", "uno_closes", "uno_open", "waiting", "watch",
                 "winner")

    def __init__(self, table: Table, n_players: int, seed: Seed = None, record: bool = True):
        self.table = table
        self.n_players = n_players
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.draw_pile: list[int] = []     # top is the end
        self.discard: list[int] = []       # top is the end
        self.aside: list[int] = []
        self.complete = False              # every card of the deck is on the table (dealt, not set out by hand)
        self.alive = [True] * n_players
        self.alive_count = n_players
        self.power = [True] * n_players    # Power card green
        self.current = 0
        self.direction = 1
        self.color = -1
        self.top = -1                      # the move on top of the pile (face * 2 + side)
        self.pile_key = 0                  # the pile state as one int (Table.pile_key), kept by the ops
        self.owed = [0] * n_players        # lost turns each player owes
        self.owed_total = 0                # sum of owed (a fast test)
        self.waiting = NO_PENDING          # the penalty waiting for an answer
        self.penalty = 0                   # its total (0: none)
        self.duel: Duel | None = None
        self.uno_open = -1                 # a player who missed the UNO call and may be caught
        self.uno_closes = -1
        self.outcome: Outcome | None = None
        self.winner: int | None = None
        self.log: list[Event] | None = [] if record else None
        self.watch: Callable[[State], None] | None = None    # called with the state after every logged event (tests)
        # the counters: turns, idle turns in a row (two rounds of them stall the hand), decisions
        # asked, the hand's score; and what the reports count (snapshot() has them all)
        self.turns = 0
        self.idle = 0
        self.decisions = 0
        self.score = 0
        self.reshuffles = self.dry = self.knockouts = 0
        self.max_hand = 0
        self.by_cause = [0] * len(CAUSES)
        self.events: list[tuple[str, int, int]] = []        # (record.Event, turn, seat) for the record

    # ---------------------------------------------------------------- queries
    @property
    def draws(self) -> int:
        """Cards drawn after the deal, every cause."""
        return sum(self.by_cause)

    @property
    def colorless(self) -> bool:
        """A colourless card is on top: any number card (regular side) may follow."""
        return self.pile_key == -1

    def table_snapshot(self) -> tuple[object, ...]:
        """A comparable picture of the table: everything the log's events write, so a replay
        equals the live hand here after every event."""
        return (tuple(tuple(h) for h in self.hands), tuple(self.draw_pile), tuple(self.discard),
                tuple(self.aside), tuple(self.alive), tuple(self.power), self.current, self.direction, self.color,
                self.top, self.pile_key, tuple(self.owed), self.waiting, self.duel,
                (self.uno_open, self.uno_closes), self.outcome, self.winner)

    def counters(self) -> tuple[object, ...]:
        """The counters that decide an outcome (turns: the cap; idle: a stall; knock-outs and the
        score: the hand's points) and the ones the reports count. A replay does not rebuild them
        (the log has no event per turn)."""
        return (self.turns, self.idle, self.decisions, self.score, self.knockouts, self.reshuffles, self.dry,
                self.max_hand, tuple(self.by_cause))

    def snapshot(self) -> tuple[object, ...]:
        """Everything that decides how the hand goes on: the table, the counters and the state of
        the random generator."""
        return (self.table_snapshot(), self.counters(), self.rng.getstate())

    def all_cards(self) -> list[int]:
        out = list(self.draw_pile) + list(self.discard) + list(self.aside)
        for h in self.hands:
            out.extend(h)
        return out

    def step(self, p: int, k: int = 1) -> int:
        """The player k seats on from p in the current direction, skipping knocked-out players."""
        if self.alive_count == self.n_players:
            return (p + self.direction * k) % self.n_players
        n, d, alive = self.n_players, self.direction, self.alive
        for _ in range(k):
            p = (p + d) % n
            while not alive[p]:
                p = (p + d) % n
        return p

    def others(self, p: int) -> list[int]:
        """Every other player still in, in turn order from p."""
        n = self.n_players
        if self.alive_count == n:
            d = self.direction
            return [(p + d * k) % n for k in range(1, n)]
        out: list[int] = []
        q = self.step(p)
        while q != p and len(out) < n:
            out.append(q)
            q = self.step(q)
        return out

    def check(self) -> None:
        """The validity check: InvalidState listing every broken invariant. Every card of the
        deck is in exactly one place (a hand, the draw pile, the discard pile or set aside; a
        table set out by hand, op_position, may leave cards out of play, never add any); the
        counts, the pile's key and colour, the waiting penalty and the lost turns agree with the
        rest of the table."""
        problems = self._card_problems()
        if not problems:
            problems = self._count_problems() + self._pile_problems()
        if problems:
            raise InvalidState("\n".join(problems))

    def _card_problems(self) -> list[str]:
        where = Counter(self.all_cards())
        deck = Counter(self.table.deck_faces)
        extra, missing = where - deck, deck - where
        problems = []
        if extra:
            problems.append(f"cards on the table more often than the deck has them: {dict(extra)}")
        if missing and self.complete:
            problems.append(f"cards of the deck that are nowhere: {dict(missing)}")
        n = self.n_players
        problems += [f"{name} has {len(getattr(self, name))} entries for {n} players"
                     for name in ("hands", "alive", "power", "owed") if len(getattr(self, name)) != n]
        return problems

    def _count_problems(self) -> list[str]:
        n, problems = self.n_players, []
        if self.alive_count != sum(self.alive):
            problems.append(f"alive_count {self.alive_count} but {sum(self.alive)} players are in")
        if self.owed_total != sum(self.owed) or min(self.owed, default=0) < 0:
            problems.append(f"owed {self.owed} does not sum to owed_total {self.owed_total} (or is negative)")
        problems += [f"player {q + 1} is out but holds cards or owes turns"
                     for q in range(n) if not self.alive[q] and (self.hands[q] or self.owed[q])]
        if not 0 <= self.current < n:
            problems.append(f"current player {self.current} is not a seat")
        if self.direction not in (1, -1):
            problems.append(f"direction {self.direction} is neither 1 nor -1")
        if self.outcome is None and self.alive_count < 1:
            problems.append("nobody is in, and the hand goes on")
        return problems

    def _pile_problems(self) -> list[str]:
        t, problems = self.table, []
        if self.top >= 0:
            if not self.discard or self.discard[-1] != self.top >> 1:
                problems.append(f"the top move {self.top} is not the discard pile's top card")
            if self.top & 1 and not t.has_flex[self.top >> 1]:
                problems.append(f"the top move {self.top} is the Flex side of a card without one")
        if self.pile_key != t.pile_key(self.top, self.color):
            problems.append(f"pile key {self.pile_key} does not match the top card and colour "
                            f"({t.pile_key(self.top, self.color)})")
        if not -1 <= self.color < max(1, len(t.colors)):
            problems.append(f"colour {self.color} is not a colour of the deck")
        if self.penalty != self.waiting.total:
            problems.append(f"penalty {self.penalty} but the waiting penalty totals {self.waiting.total}")
        if self.penalty and not 0 <= self.waiting.victim < self.n_players:
            problems.append(f"a penalty waits for seat {self.waiting.victim}, which is not a seat")
        return problems

    # ---------------------------------------------------------------- operations
    def _ev(self, event: Event) -> None:
        self.log.append(event)           # type: ignore[union-attr]
        if self.watch is not None:
            self.watch(self)

    def _pop(self, face: int | None) -> int:
        f = self.draw_pile.pop()
        if face is not None and f != face:
            raise ReplayError(f"expected face {face} on top of the draw pile, found {f}")
        return f

    def op_shuffle(self, order: list[int]) -> None:
        self.draw_pile = order
        self.complete = True
        if self.log is not None:
            self._ev(Shuffle(tuple(order)))

    def op_deal(self, players: tuple[int, ...], cards: int) -> bool:
        """The deal: one card at a time from the top of the draw pile to each player in this
        order, ``cards`` rounds. False (nothing dealt) when the pile is too small."""
        pile, m = self.draw_pile, len(players)
        top = len(pile) - 1
        if top + 1 < m * cards:
            return False
        for i, p in enumerate(players):
            self.hands[p].extend(pile[top - i::-m][:cards])
        del pile[top + 1 - m * cards:]
        if self.log is not None:
            self._ev(Deal(tuple(players), cards))
        return True

    def op_draw(self, p: int, cause: int, face: int | None = None) -> int | None:
        """Top of the draw pile to p's hand, for a cause (a CAUSES index); reshuffles when empty
        (not in a replay: the log has the reshuffle); None when nothing is left."""
        if not self.draw_pile and (face is not None or not self.op_reshuffle()):
            if face is not None:
                raise ReplayError("a draw from an empty draw pile")
            self.op_dry(p)
            return None
        f = self.draw_pile.pop()
        if face is not None and f != face:
            raise ReplayError(f"expected face {face} on top of the draw pile, found {f}")
        self.hands[p].append(f)
        self.by_cause[cause] += 1
        if self.log is not None:
            self._ev(Draw(p, f, cause))
        return f

    def op_draw_n(self, p: int, n: int, cause: int) -> bool:
        """n cards from the top of the draw pile to p's hand at once, exactly as n op_draw calls
        would move them; only when the pile holds them and no log is kept (a log has one Draw
        event per card). False: nothing was done (draw them one by one)."""
        pile = self.draw_pile
        if self.log is not None or n <= 0 or len(pile) < n:
            return False
        self.hands[p].extend(pile[:-n - 1:-1])
        del pile[-n:]
        self.by_cause[cause] += n
        return True

    def op_dry(self, p: int) -> None:
        self.dry += 1
        self.events.append((Note.DRY, self.turns, p))
        if self.log is not None:
            self._ev(Dry(p))

    def op_reshuffle(self, order: list[int] | None = None) -> bool:
        """The discard pile (less its top) and the set-aside cards, shuffled, become the draw pile."""
        pool = self.discard[:-1] + self.aside
        if not pool:
            return False
        if order is None:
            pool = shuffled(self.rng, pool)
        elif sorted(pool) != sorted(order):
            raise ReplayError("a reshuffle must use the discard pile (less its top) and the set-aside cards")
        else:
            pool = order
        del self.discard[:-1]
        self.aside = []
        self.draw_pile = pool
        self.reshuffles += 1
        if self.log is not None:
            self._ev(Reshuffle(tuple(pool)))
        return True

    def op_aside(self, face: int | None = None) -> None:
        f = self._pop(face)
        self.aside.append(f)
        if self.log is not None:
            self._ev(Aside(f))

    def op_return(self, pos: int, face: int | None = None) -> None:
        f = self._pop(face)
        self.draw_pile.insert(pos, f)
        if self.log is not None:
            self._ev(Return(f, pos))

    def op_start(self, face: int | None = None) -> int:
        f = self._pop(face)
        self.discard.append(f)
        move = 2 * f
        self.top = move
        if self.table.move_key[move] < 0:
            self.color = -1
        elif self.table.color[f] >= 0:
            self.color = self.table.color[f]
        self.pile_key = self.table.pile_key(move, self.color)
        if self.log is not None:
            self._ev(Start(f))
        return f

    def op_play(self, p: int, move: int, how: str = "play") -> None:
        """A card from p's hand onto the pile (a play, a stack, a counter-duel or a jump-in): it
        lies there as the side it was played by, and leaves the pile its key and colour
        (Table.lands)."""
        f = move >> 1
        self.hands[p].remove(f)
        self.discard.append(f)
        self.top = move
        key, color = self.table.lands[move]
        if color >= -1:                    # the card's own colour, or colourless (-1)
            self.color = color
            self.pile_key = key
        else:                              # a card without a colour keeps the pile's
            self.pile_key = key + self.color + 1
        if self.log is not None:
            self._ev(Play(p, move, how))

    def op_discard(self, p: int, f: int) -> None:
        self.hands[p].remove(f)
        self.discard.insert(len(self.discard) - 1, f)
        if self.log is not None:
            self._ev(Discard(p, f))

    def op_color(self, color: int) -> None:
        self.color = color
        if self.pile_key != -1:
            self.pile_key = self.table.pile_key(self.top, color)
        if self.log is not None:
            self._ev(Color(color))

    def op_direction(self, direction: int | None = None) -> None:
        self.direction = -self.direction if direction is None else direction
        if self.log is not None:
            self._ev(Direction(self.direction))

    def op_turn(self, p: int) -> None:
        self.current = p
        if self.log is not None:
            self._ev(Turn(p))

    def op_power(self, p: int, green: bool) -> None:
        self.power[p] = green
        if self.log is not None:
            self._ev(Power(p, green))

    def op_swap(self, a: int, b: int) -> None:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        if self.log is not None:
            self._ev(Swap(a, b))

    def op_pass_hands(self, players: tuple[int, ...]) -> None:
        """Each player in this order passes their hand to the next one (the last to the first)."""
        hands = [self.hands[p] for p in players]
        for i, p in enumerate(players):
            self.hands[p] = hands[i - 1]
        if self.log is not None:
            self._ev(PassHands(tuple(players)))

    def op_steal(self, p: int, victim: int, face: int) -> None:
        self.hands[victim].remove(face)
        self.hands[p].append(face)
        if self.log is not None:
            self._ev(Steal(p, victim, face))

    def op_knockout(self, p: int) -> None:
        self.draw_pile[:0] = self.hands[p]
        self.hands[p] = []
        self.alive[p] = False
        self.alive_count -= 1
        self.knockouts += 1
        self.owed_total -= self.owed[p]
        self.owed[p] = 0
        self.events.append((Note.KNOCKOUT, self.turns, p))
        if self.log is not None:
            self._ev(Knockout(p))

    def op_owe(self, p: int, owed: int) -> None:
        self.owed_total += owed - self.owed[p]
        self.owed[p] = owed
        if self.log is not None:
            self._ev(Owe(p, owed))

    def op_pending(self, pend: Pending) -> None:
        self.waiting = pend
        self.penalty = pend.total
        if self.log is not None:
            self._ev(pend)

    def op_duel(self, duel: Duel | None) -> None:
        self.duel = duel
        if self.log is not None:
            self._ev(DuelState(duel))

    def op_uno(self, p: int, said: bool) -> None:
        if self.log is not None:
            self._ev(Uno(p, said))

    def op_uno_window(self, offender: int, closes_after: int) -> None:
        self.uno_open, self.uno_closes = offender, closes_after
        if self.log is not None:
            self._ev(UnoWindow(offender, closes_after))

    def op_caught(self, catcher: int, offender: int) -> None:
        if self.log is not None:
            self._ev(Caught(catcher, offender))

    def op_challenge(self, challenger: int, offender: int, guilty: bool) -> None:
        if self.log is not None:
            self._ev(Challenge(challenger, offender, guilty))

    def op_end(self, outcome: Outcome, winner: int | None) -> None:
        self.outcome, self.winner = outcome, winner
        if outcome != FINISHED:
            self.events.append((Note(outcome.value), self.turns, -1))
        if self.log is not None:
            self._ev(End(outcome, winner))

    def op_position(self, pos: Position) -> None:
        """Set out a whole table at once (Position): a situation, or a determinization."""
        n = len(pos.hands)
        if not (len(pos.alive) == len(pos.power) == len(pos.owed) == n == self.n_players):
            raise ValueError(f"a position for {n} players on a table of {self.n_players}")
        self.hands = [list(h) for h in pos.hands]
        self.draw_pile = list(pos.draw_pile)
        self.discard = list(pos.discard)
        self.aside = list(pos.aside)
        self.alive = list(pos.alive)
        self.alive_count = sum(self.alive)
        self.power = list(pos.power)
        self.owed = list(pos.owed)
        self.owed_total = sum(self.owed)
        self.current = pos.current
        self.direction = pos.direction
        self.top = pos.top
        self.color = pos.color
        self.pile_key = self.table.pile_key(pos.top, pos.color)
        # every card on the table (no card can be twice: check() says so): the deck's count
        self.complete = (sum(map(len, self.hands)) + len(self.draw_pile) + len(self.discard) + len(self.aside)
                         == len(self.table.deck_faces))
        if self.log is not None:
            self._ev(pos)

    def position(self) -> Position:
        """The table as a Position (op_position of it sets out the same table)."""
        return Position(tuple(tuple(h) for h in self.hands), tuple(self.draw_pile), tuple(self.discard),
                        tuple(self.aside), tuple(self.alive), tuple(self.power), tuple(self.owed), self.current,
                        self.direction, self.top, self.color)


__all__ = ["CAPPED", "FINISHED", "NO_PENDING", "STALLED", "Aside", "Caught", "Challenge", "Color", "Deal",
           "Direction", "Discard", "Draw", "Dry", "Duel", "DuelState", "End", "Event", "InvalidState", "Knockout",
           "PassHands", "Pending", "Play", "Position", "Power", "ReplayError", "Reshuffle", "Return", "Seed", "Shuffle",
           "Start", "State", "Steal", "Swap", "Turn", "Uno", "UnoWindow", "shuffled"]
