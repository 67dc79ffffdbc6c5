"""Game state and the small named operations that change it.

Every operation changes the state in one well-defined way and, when the game records a log,
appends one frozen event (a plain tuple whose first item names it). A recorded log replays to
the same state (:mod:`deckgen.rules.replay`). Every random choice, the shuffles and every
agent's choice included, goes through the game's one seeded ``random.Random``.

Event shapes:
  ("shuffle", order)            the draw pile, bottom first
  ("deal", player, face)        / ("draw", player, face): top of the draw pile to a hand
  ("aside", face)               top of the draw pile set aside (start card that may not start)
  ("return", face, position)    top of the draw pile put back into it at position
  ("start", face)               top of the draw pile turned as the start card
  ("reshuffle", order)          discard pile (less its top) and set-aside cards become the draw pile
  ("play", player, move)        a card from a hand onto the discard pile (move = face*2 + side);
                                ("stack", ...) when it answers a penalty, ("duel", ...) a duel,
                                ("jump", ...) a jump-in out of turn
  ("discard", player, face)     a card from a hand under the top card (Discard All, duels)
  ("color", color)  ("direction", d)  ("turn", player)  ("power", player, green)
  ("swap", a, b)  ("pass_hands", players)  ("knockout", player)
  ("uno", player, said)  ("challenge", challenger, offender, guilty)  ("dry", player)
  ("end", outcome, winner)
"""

from __future__ import annotations

from deckgen.rules.record import CAUSES

FINISHED, STALLED, CAPPED = "finished", "stalled", "capped"


class State:
    """Everything on the table; the operations below are the only writers."""

    def __init__(self, table, n_players: int, record: bool = True):
        self.t = table
        self.n = n_players
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.draw_pile: list[int] = []     # top is the end
        self.discard: list[int] = []       # top is the end
        self.aside: list[int] = []
        self.alive = [True] * n_players
        self.n_alive = n_players
        self.power = [True] * n_players    # Power card green
        self.cur = 0
        self.dir = 1
        self.color = -1
        self.sym = -1
        self.val = -1
        self.colorless = False
        self.outcome: str | None = None
        self.winner: int | None = None
        self.log: list | None = [] if record else None
        self.draws = self.reshuffles = self.dry = self.knockouts = 0
        self.turns = 0
        self.by_cause = [0] * len(CAUSES)                   # draws per cause (record.CAUSES)
        self.events: list[tuple[str, int, int]] = []        # (event, turn, seat) for the record

    # ---------------------------------------------------------------- queries
    def snapshot(self) -> tuple:
        """A comparable picture of the whole table (for replay checks)."""
        return (tuple(tuple(h) for h in self.hands), tuple(self.draw_pile), tuple(self.discard),
                tuple(self.aside), tuple(self.alive), tuple(self.power), self.cur, self.dir, self.color,
                self.colorless, self.outcome, self.winner)

    def all_cards(self) -> list[int]:
        out = list(self.draw_pile) + list(self.discard) + list(self.aside)
        for h in self.hands:
            out.extend(h)
        return out

    def step(self, p: int, k: int = 1) -> int:
        """The player k seats on from p in the current direction, skipping knocked-out players."""
        n, d, alive = self.n, self.dir, self.alive
        if self.n_alive == n:
            return (p + d * k) % n
        for _ in range(k):
            p = (p + d) % n
            while not alive[p]:
                p = (p + d) % n
        return p

    # ---------------------------------------------------------------- operations
    def op_shuffle(self, order: list[int]) -> tuple:
        self.draw_pile = order
        return self._ev(("shuffle", tuple(order)))

    def op_deal(self, p: int) -> int | None:
        """Top of the draw pile to p's hand at the deal; None when nothing is left."""
        if not self.draw_pile:
            return None
        f = self.draw_pile.pop()
        self.hands[p].append(f)
        if self.log is not None:
            self.log.append(("deal", p, f))
        return f

    def op_draw(self, p: int, cause: int) -> int | None:
        """Top of the draw pile to p's hand, for a cause (a CAUSES index); reshuffles when empty;
        None when nothing is left."""
        if not self.draw_pile and not self.op_reshuffle():
            self.dry += 1
            self.events.append(("dry", self.turns, p))
            self._ev(("dry", p))
            return None
        f = self.draw_pile.pop()
        self.hands[p].append(f)
        self.draws += 1
        self.by_cause[cause] += 1
        if self.log is not None:
            self.log.append(("draw", p, f))
        return f

    def op_reshuffle(self) -> bool:
        pool = self.discard[:-1] + self.aside
        if not pool:
            return False
        del self.discard[:-1]
        self.aside = []
        self.rng.shuffle(pool)
        self.draw_pile = pool
        self.reshuffles += 1
        self._ev(("reshuffle", tuple(pool)))
        return True

    def op_aside(self) -> tuple:
        f = self.draw_pile.pop()
        self.aside.append(f)
        return self._ev(("aside", f))

    def op_return(self, pos: int) -> tuple:
        f = self.draw_pile.pop()
        self.draw_pile.insert(pos, f)
        return self._ev(("return", f, pos))

    def op_start(self) -> int:
        f = self.draw_pile.pop()
        self.discard.append(f)
        self._ev(("start", f))
        return f

    def op_play(self, p: int, move: int, how: str = "play") -> None:
        """A card onto the pile: an ordinary play, a stack on a penalty, or a duel answer."""
        f = move >> 1
        self.hands[p].remove(f)
        self.discard.append(f)
        if self.log is not None:
            self.log.append((how, p, move))

    def set_top(self, move: int) -> None:
        """The pile state after a card is played or turned (derived, so replay needs no event)."""
        t, f = self.t, move >> 1
        if t.colorless[f]:
            self.colorless, self.color, self.sym, self.val = True, -1, -1, -1
            return
        self.colorless = False
        self.sym = t.msym[move]
        self.val = t.val[f]
        if t.color[f] >= 0:
            self.color = t.color[f]

    def op_discard(self, p: int, f: int) -> tuple:
        self.hands[p].remove(f)
        self.discard.insert(len(self.discard) - 1, f)
        return self._ev(("discard", p, f))

    def op_color(self, color: int) -> None:
        self.color = color
        if self.log is not None:
            self.log.append(("color", color))

    def op_direction(self) -> tuple:
        self.dir = -self.dir
        return self._ev(("direction", self.dir))

    def op_turn(self, p: int) -> None:
        self.cur = p
        if self.log is not None:
            self.log.append(("turn", p))

    def op_power(self, p: int, green: bool) -> tuple:
        self.power[p] = green
        return self._ev(("power", p, green))

    def op_swap(self, a: int, b: int) -> tuple:
        self.hands[a], self.hands[b] = self.hands[b], self.hands[a]
        return self._ev(("swap", a, b))

    def op_pass_hands(self) -> tuple:
        players = [p for p in range(self.n) if self.alive[p]]
        if self.dir < 0:
            players.reverse()
        hands = [self.hands[p] for p in players]
        for i, p in enumerate(players):
            self.hands[p] = hands[i - 1]
        return self._ev(("pass_hands", tuple(players)))

    def op_knockout(self, p: int) -> tuple:
        self.draw_pile[:0] = self.hands[p]
        self.hands[p] = []
        self.alive[p] = False
        self.n_alive -= 1
        self.knockouts += 1
        self.events.append(("knockout", self.turns, p))
        return self._ev(("knockout", p))

    def op_end(self, outcome: str, winner: int | None) -> tuple:
        self.outcome, self.winner = outcome, winner
        if outcome != FINISHED:
            self.events.append((outcome, self.turns, -1))
        return self._ev(("end", outcome, winner))

    def _ev(self, event: tuple) -> tuple:
        if self.log is not None:
            self.log.append(event)
        return event
