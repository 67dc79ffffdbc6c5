"""The expert bot: a rule of thumb checked by determinized play-outs (docs/expert.md).

At every decision worth thinking about (which card to play, or to draw; whether to play a card
just drawn; which colour a wild names, chosen together with the wild) the expert

1. **remembers** the public events it was shown (``observation.events``): the cards played and
   discarded, who drew after the deal, and, when an opponent drew because nothing in their hand
   could follow the pile, that none of the cards they held then could;
2. **samples** the hidden cards consistently with that: the cards it has not seen are dealt to
   the opponents' hands (each hand's remembered "could not follow" groups respected) and to the
   draw pile in a random order;
3. **plays out** every candidate answer on the same sampled deal for ``HORIZON`` rounds (the
   opponents as the greedy bot, itself by its rule of thumb, :class:`Prior`), scoring a win 1,
   another's win 0 and an unfinished hand by its fitted chance of going out first (``FIT``: hand
   sizes, wilds and action cards held, who can follow the pile); it repeats with new samples
   until its budget (``think``: play-outs per decision) is spent, or sooner when the answer is
   settled: a candidate that can no longer be chosen, whatever the deals left would give, is not
   played again (:func:`_may_win`: the answer is the one the whole budget gives), and every
   ``LOOK`` deals one that trails the best by more than ``RACE`` standard errors of the
   difference is dropped (:func:`_race`);
4. answers with the candidate that scored best on the same deals, or as its rule of thumb does
   unless another did better by more than ``CONFIDENCE`` standard errors of the difference, a
   margin that shrinks as the budget grows and is gone from ``TRUST_THINK`` play-outs up.

A challenge it decides by sampled deals (is the offender likely guilty?); every other decision
(stacking, a target, a duel answer, UNO and catching) it answers by its rule of thumb (the
greedy bot's answers). It decides from its own observation
only: the sampled games are built from the observation and the memory, never from the real
game. All its randomness comes from the generator it is handed, so a game with experts is
reproducible from its seed.

The memory needs the public events: a game with an expert seated must keep its log
(``record=True``; :func:`wants_events` says so for a list of bots).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import filterfalse, islice, repeat
from typing import TYPE_CHECKING, Any, NamedTuple

from deckgen.rules import agents as A
from deckgen.rules.agents import VALUES, Agent, GreedyAgent, View, _leader
from deckgen.rules.decision import Answer, Decision, DecisionKind, GameView, Glance, Observation, next_seat
from deckgen.rules.machine import as_moves
from deckgen.rules.record import CAUSES
from deckgen.rules.state import (
    FINISHED,
    Deal,
    Direction,
    Discard,
    Draw,
    Knockout,
    PassHands,
    Play,
    Position,
    Power,
    Reshuffle,
    Shuffle,
    Start,
    Steal,
    Swap,
    Turn,
    shuffled,
)
from deckgen.rules.state import Aside as AsideEvent
from deckgen.rules.state import Color as ColorEvent
from deckgen.rules.table import ACT, WLD

if TYPE_CHECKING:
    from deckgen.effects import Effect
    from deckgen.rules.engine import Game
    from deckgen.rules.table import Table

THINK = 48                 # rollouts per decision by default
HORIZON = 3                # rounds of turns a play-out runs before it is scored (FIT)
CONFIDENCE = 3.0           # standard errors a candidate must beat the rule of thumb's choice by ...
TRUST_THINK = 512          # ... scaled down as the budget grows, to none from this budget up
LOOK = 16                  # every this many deals the search drops the candidates that trail clearly ...
RACE = 2.5                 # ... by more than this many standard errors of the difference (_race)
TABLE_THINK = TRUST_THINK  # the budget at deckgen play's table, where one game is played: its strongest
COLOR_WEIGHT = 10.0        # the rule of thumb (Prior): per other card of the played card's colour held
KEEP_WILD = -1000.0        # ... a wild while more than two cards are held
KEEP_ACTION = -300.0       # ... an action card while nobody next is close to going out (no Mercy limit)
KEEP_POWER = -5.0          # ... a card by its Flex side (the Power card turns red)
ATTACK = 300.0             # ... a skip, draw card or reverse on a next player with two cards or fewer
ATTACKS = frozenset({"skip", "skip_all", "draw", "target", "roulette"})
CHALLENGE_DEALS = 16       # sampled deals that judge a challenge
CHALLENGE_LIKELY = 0.25    # ... challenged when more than this share of them has the offender guilty
BLOCK = 60.0               # the rule of thumb: per unit of chance that the next player cannot follow
BLOCK_CLOSE = 3.0          # ... times 1 + this / their hand size
KEEP_LAST_WILD = -500.0      # ... a wild while two cards or fewer are held
DRAW_OVER_WILD = 4         # ... it draws rather than play a wild, its only play, while both hands hold more
KEEP_WILD_UNSEARCHED = True  # the expert keeps a wild as its rule of thumb does, unsearched (see ExpertAgent.play)
KEEP_DRAWN_WILD = 2          # ... a wild just drawn is kept while both its hand and the next one hold more
WILDS_PLENTY = 0.10          # ... both only for a wild that would be its last, where more than this share of the deck is wilds
NAMED_COLOR = True         # the memory reads the colour an opponent names as one it holds
WILD_ATTACK = False        # ... a wild draw card is not kept while the next player is close to going out
WILD_COLORS = 2            # colours tried with a wild: the ones the hand holds most of
COLOR_TIE = True           # ... ties of the colours held most broken by the next player's blocking chance
FITTED = True              # an unfinished play-out scored by the fitted chance below (else: its hand against the smallest)
# the fitted strengths (benchmarks/fit_horizon.py): a player's chance of going out first is taken as
# exp(strength) over the sum of every player's, the strength summing FIT times each of FIT_FEATURES
FIT_FEATURES = ("second to move", "third to move", "fourth or later", "log of the cards held", "cards held",
                "one card left", "wilds held", "action cards held", "plays by the rule of thumb",
                "to move, holds a card other than a wild that follows", "to move, holds a card that follows",
                "second to move, holds a card other than a wild that follows")
FIT = (0.055, 0.199, 0.188, -0.983, -0.14, 0.11, 0.704, 0.1, 0.262, 0.319, 0.215, 0.253)
NO_PLAY = CAUSES.index("no_play")
Hidden = tuple[dict[int, list[int]], list[int], list[int]]


class _Hand:
    """What the expert remembers of one opponent's hand: groups of cards, each with the faces
    none of its cards can be (they could not follow a pile when that player had to draw)."""

    __slots__ = ("groups",)

    def __init__(self, size: int = 0):
        self.groups: list[list[Any]] = [[size, frozenset()]] if size else []

    def size(self) -> int:
        return sum([g[0] for g in self.groups])

    def add(self, k: int = 1) -> None:
        for g in self.groups:
            if not g[1]:
                g[0] += k
                return
        self.groups.append([k, frozenset()])

    def remove(self, face: int | None = None) -> None:
        """One card leaves (``face`` when it is known); when no group may hold it (the memory
        was wrong), from the largest group, which is then freed."""
        live = [g for g in self.groups if g[0] > 0]
        if not live:
            return
        fits = [g for g in live if face is None or face not in g[1]]
        # from the most constrained group that may hold it: whichever group it really came from,
        # what is then remembered of every group still holds
        g = max(fits, key=lambda g: len(g[1])) if fits else max(live, key=lambda g: g[0])
        g[0] -= 1
        if not fits:
            g[1] = frozenset()
        self.groups = [g for g in self.groups if g[0] > 0]

    def holds(self, banned: frozenset[int]) -> None:
        """One of the cards is none of ``banned``: taken from the group that rules out the
        fewest of the others, as a group of its own."""
        live = [g for g in self.groups if g[0] > 0]
        if not live:
            return
        g = min(live, key=lambda g: len(g[1] | banned))
        g[0] -= 1
        self.groups = [h for h in self.groups if h[0] > 0] + [[1, g[1] | banned]]

    def forbid(self, faces: frozenset[int]) -> None:
        for g in self.groups:
            banned = g[1]
            if not banned:
                g[1] = faces
            elif not faces <= banned:           # (a union only when it adds a face)
                g[1] = banned | faces

    def fit(self, size: int) -> None:
        """Agree with the hand size the table shows (events the memory missed)."""
        have = sum([g[0] for g in self.groups])
        if have == size:
            return
        if have < size:
            self.add(size - have)
        while have > size:
            self.remove()
            have -= 1


class Memory:
    """The public events one player has seen so far, folded into what the sampler needs."""

    def __init__(self, me: int):
        self.me = me
        self.seen: list[Any] = []
        self.discard: list[int] = []          # faces on the discard pile, top last
        self.aside: list[int] = []
        self.hands: dict[int, _Hand] = {}
        self.top = -1
        self.color = -1
        self.ok = True                        # False once events were missed: the discard pile is unknown
        self.turns = 0
        self.power: dict[int, bool] = {}      # each player's Power card as the events showed it (green: True)
        self.drawn: set[int] = set()          # opponents whose latest card event was a draw
        # the table as it was at each event (hand sizes, direction, who is in), replayed from the
        # latest observation: what a greedy player's choice was worth to them (None: unknown)
        self.sizes: list[int] | None = None
        self.direction = 1
        self.alive: list[bool] = []
        self.before: dict[int, int] = {}      # per player, the colour before their latest play
        self.obs: Observation | None = None   # the observation the events are read with
        self.missed = False                   # the latest window did not reach back to what was seen
        self.namer = -1                       # the opponent whose wild is naming a colour
        self.pending: dict[int, list[Any]] = {}   # per opponent, the group of the one card they just drew
        self.stuck: tuple[Any, ...] = ()      # the latest _stuck (observation, seat, chance): one decision's
        self.pool: tuple[Any, ...] = ()       # ... and _unseen_pool (observation, counts)

    def new_game(self, o: Observation) -> bool:
        """Whether this observation is of another hand than the one remembered (a bot plays many
        hands one after another): its events start with the shuffle, and do not go on from what
        was seen."""
        w = o.events
        if not w or type(w[0]) is not Shuffle:
            return o.turns < self.turns
        return len(w) < len(self.seen) or list(w[:len(self.seen)]) != self.seen

    def update(self, o: Observation) -> None:
        self.turns = o.turns
        window = list(o.events)
        if not window:
            return
        self.obs = o
        start = not self.seen and type(window[0]) is Shuffle
        self.missed = False
        new = self._new(window)
        if start:
            self.sizes, self.direction, self.alive = [0] * o.n_players, 1, [True] * o.n_players
        elif self.missed or not self.seen:
            self.sizes = None
        t, on_event = o.table, _ON_EVENT
        for ev in new:                          # _apply, inlined (every event of every decision)
            handler = on_event.get(type(ev))
            if handler is not None:
                handler(self, ev, t)
            sizes = self.sizes
            if sizes is not None:
                _resize(self, sizes, ev)
        self.seen.extend(new)
        self.sizes, self.direction, self.alive = list(o.hand_sizes), o.direction, list(o.alive)
        hands, power, alive = self.hands, self.power, o.alive
        for q, size in enumerate(o.hand_sizes):
            power[q] = o.power[q]
            if q != self.me:
                hand = hands.get(q)
                if hand is None:
                    hand = hands[q] = _Hand()
                hand.fit(size if alive[q] else 0)
        if len(self.discard) != o.discard_pile:
            self.ok = False

    def _new(self, window: list[Any]) -> list[Any]:
        """The events of the window not seen yet (the window overlaps the end of what was seen)."""
        seen = self.seen
        if not seen:
            if type(window[0]) is not Shuffle:
                self.ok = False               # the hand began before the window: its start was missed
            return window
        if type(window[0]) is Shuffle:        # the whole hand so far
            return window[len(seen):]
        first = window[0]
        for k in range(min(len(seen), len(window)), 0, -1):
            if seen[-k] == first and seen[-k:] == window[:k]:     # (the cheap test first)
                return window[k:]
        self.ok, self.missed = False, True    # more happened than the window shows
        return window

    def _apply(self, ev: Any, o: Observation) -> None:
        handler = _ON_EVENT.get(type(ev))
        if handler is not None:
            handler(self, ev, o.table)
        sizes = self.sizes
        if sizes is not None:
            _resize(self, sizes, ev)

    def _on_play(self, ev: Play, t: Table) -> None:
        player, move, how = ev
        f = move >> 1
        mine = player == self.me
        self.before[player] = self.color
        hand = None if mine else self._hand(player)
        if hand is not None and how == "play" and self.top >= 0 and player not in self.drawn:
            hand.forbid(self._preferred(t, player, move))
        self.namer = player if not mine and _names_color(t, move) else -1
        self.discard.append(f)
        self.top = move
        c = t.color[f]
        self.color = -1 if t.move_key[move] < 0 else (c if c >= 0 else self.color)
        if hand is not None:
            drawn = self.pending.pop(player, None)
            if player in self.drawn and drawn is not None and any(g is drawn for g in hand.groups):
                hand.groups = [g for g in hand.groups if g is not drawn]   # it played the card it drew
            else:
                hand.remove(f)
        self.drawn.discard(player)

    def _on_draw(self, ev: Draw, t: Table) -> None:
        if ev.player == self.me:
            return
        hand = self._hand(ev.player)
        if ev.cause == NO_PLAY and self.top >= 0:
            playable = self._playable(t, ev.player)
            hand.forbid(playable)
            # the card drawn: kept (the turn passes) only if it could not follow either, since
            # the greedy bot plays a card it drew whenever it can
            drawn: list[Any] = [1, playable]
            hand.groups.append(drawn)
            self.pending[ev.player] = drawn
        else:
            hand.add()
        self.drawn.add(ev.player)

    def _on_turn(self, ev: Turn, t: Table) -> None:
        # the turn moved on: a later play is a choice from the hand, not the card just drawn
        self.drawn.clear()
        self.pending.clear()

    def _on_discard(self, ev: Discard, t: Table) -> None:
        self.discard.insert(max(0, len(self.discard) - 1), ev.face)
        self.drawn.discard(ev.player)
        if ev.player != self.me:
            self._hand(ev.player).remove(ev.face)

    def _on_color(self, ev: ColorEvent, t: Table) -> None:
        self.color = ev.color
        q, self.namer = self.namer, -1
        if q >= 0 and ev.color >= 0 and NAMED_COLOR and self._hand(q).size() == 1:
            # a greedy player names the colour it holds most of (the first colour on a tie, the
            # first one too when it holds no coloured card): one of its cards is of that colour
            self._hand(q).holds(_not_color(t, ev.color))

    def _on_start(self, ev: Start, t: Table) -> None:
        self.discard.append(ev.face)
        self.top = 2 * ev.face
        self.color = t.color[ev.face] if t.move_key[self.top] >= 0 else -1

    def _on_aside(self, ev: AsideEvent, t: Table) -> None:
        self.aside.append(ev.face)

    def _on_reshuffle(self, ev: Reshuffle, t: Table) -> None:
        # the discard pile is its top card again: known from here on, even after missed events
        self.discard = self.discard[-1:] if self.ok else ([self.top >> 1] if self.top >= 0 else [])
        self.aside = []
        self.ok = True

    def _on_power(self, ev: Power, t: Table) -> None:
        self.power[ev.player] = ev.green

    def _on_deal(self, ev: Deal, t: Table) -> None:
        for q in ev.players:
            if q != self.me:
                self.hands[q] = _Hand(ev.cards)

    def _on_swap(self, ev: Swap, t: Table) -> None:
        a, b = self._hand(ev.a), self._hand(ev.b)
        self.hands[ev.a], self.hands[ev.b] = b, a
        self._free(ev.a, ev.b)

    def _on_pass_hands(self, ev: PassHands, t: Table) -> None:
        held = [self._hand(q) for q in ev.players]
        for i, q in enumerate(ev.players):
            self.hands[q] = held[i - 1]
        self._free(*ev.players)

    def _on_steal(self, ev: Steal, t: Table) -> None:
        if ev.victim != self.me:
            self._hand(ev.victim).remove(ev.face if ev.face >= 0 else None)
        if ev.player != self.me:
            self._hand(ev.player).add()

    def _on_knockout(self, ev: Knockout, t: Table) -> None:
        if ev.player != self.me:
            self.hands[ev.player] = _Hand()

    def _preferred(self, t: Table, q: int, move: int) -> frozenset[int]:
        """The faces player ``q`` could have played instead of ``move`` and would surely have
        preferred if they play as the greedy rule of thumb does (their highest-valued card): so
        they hold none of them. A player who plays otherwise breaks no sampled deal: a card they
        later show frees the group that excluded it (``_Hand.remove``)."""
        low, high = _greedy_bounds(t)
        top = self._worth(t, q, move)
        if top is None:
            top = high[move]
        above: dict[float, frozenset[int]] = t.remember(_ABOVE_MEMO, dict)    # per value: the faces worth more at least
        worth_more = above.get(top)
        if worth_more is None:
            worth_more = above[top] = frozenset(f for f in range(len(low)) if low[f] > top)
        return self._playable(t, q, regular=True) & worth_more

    def _worth(self, t: Table, q: int, move: int) -> float | None:
        """What the greedy valuation gave ``move`` when player ``q`` played it, from the table as
        it was then (the hand sizes, who played next); None when that is not known (events were
        missed) or depends on the cards in their hand."""
        sizes = self.sizes
        effects = t.effects[move]
        if sizes is None or self.obs is None or any(e.op in _HAND_OPS for e in effects) \
                or len(self.alive) != len(sizes):
            return None
        score = float(A.POINTS_WEIGHT * t.points[move >> 1] + (A.KEEP_WILD if t.move_category[move] == WLD else 0)
                      + (A.KEEP_POWER if move & 1 else 0))
        if not effects:
            return score
        rivals = [r for r in range(len(sizes)) if r != q and self.alive[r]]
        leader = min(rivals, key=lambda r: (sizes[r], r)) if rivals else q
        n = len(sizes)
        nxt = (q + self.direction) % n
        while not self.alive[nxt] and nxt != q:
            nxt = (nxt + self.direction) % n
        # what the greedy valuation reads, as that player saw it (their glance, the hand's cards unknown)
        seen = tuple.__new__(Glance, (q, (0,) * sizes[q], tuple(sizes), tuple(self.alive), self.direction, t))
        v = View(seen, move, leader, leader == nxt)
        return score + sum(VALUES[e.op](v, e) for e in effects)

    def _hand(self, q: int) -> _Hand:
        return self.hands.setdefault(q, _Hand())

    def _free(self, *players: int) -> None:
        """Hands that moved between players: what was known of them no longer tells anything
        about the opponents' cards (a hand that came from this player is not tracked)."""
        self.hands.pop(self.me, None)
        for q in players:
            if q != self.me:
                h = self._hand(q)
                h.groups = [[h.size(), frozenset()]] if h.size() else []

    def _playable(self, t: Table, q: int, regular: bool = False) -> frozenset[int]:
        """Every face player ``q`` could have played on the pile as it is now: by its regular
        side, or by its Flex side while their Power card is green (or Power cards are off);
        ``regular``: by the regular side only."""
        entry = t.cache[t.pile_key(self.top, self.color)]
        flex_ok = not (t.rules.power_cards and t.any_flex) or self.power.get(q, True)
        return entry[2] | entry[3] if flex_ok and not regular else entry[2]


_HAND_OPS = frozenset({"discard_color"})   # effects the greedy valuation reads the hand's cards for
_ABOVE_MEMO = "expert-above"               # the key of Memory._preferred's faces per value in Table.memo
_DECK_MEMO = "expert-deck"                 # ... and of the deck's faces counted
_NAMING_MEMO = "expert-naming"             # ... and of the moves whose card names a colour


def _resize(m: Memory, sizes: list[int], ev: Any) -> None:
    """The hand sizes, direction and players in after one event."""
    k = type(ev)
    if k is Play or k is Discard:
        sizes[ev.player] -= 1
    elif k is Draw:
        sizes[ev.player] += 1
    elif k is Deal:
        for q in ev.players:
            sizes[q] += ev.cards
    elif k is Direction:
        m.direction = ev.direction
    elif k is Steal:
        sizes[ev.victim] -= 1
        sizes[ev.player] += 1
    elif k is Swap:
        sizes[ev.a], sizes[ev.b] = sizes[ev.b], sizes[ev.a]
    elif k is PassHands:
        held = [sizes[q] for q in ev.players]
        for i, q in enumerate(ev.players):
            sizes[q] = held[i - 1]
    elif k is Knockout:
        sizes[ev.player] = 0
        if len(m.alive) > ev.player:
            m.alive[ev.player] = False


# what the memory does with each kind of public event (the others tell it nothing it keeps)
_ON_EVENT: dict[type, Callable[[Memory, Any, Table], None]] = {
    Play: Memory._on_play, Draw: Memory._on_draw, Discard: Memory._on_discard, ColorEvent: Memory._on_color,
    Start: Memory._on_start, AsideEvent: Memory._on_aside, Reshuffle: Memory._on_reshuffle, Power: Memory._on_power,
    Deal: Memory._on_deal, Swap: Memory._on_swap, PassHands: Memory._on_pass_hands, Steal: Memory._on_steal,
    Knockout: Memory._on_knockout, Turn: Memory._on_turn,
}
_NOT_COLOR: dict[tuple[int, int], frozenset[int]] = {}


def _not_color(t: Table, c: int) -> frozenset[int]:
    """The faces a greedy player's hand cannot all be when it names colour ``c``: the faces of
    other colours, and the colourless ones too unless ``c`` is the first colour."""
    key = (id(t), c)
    got = _NOT_COLOR.get(key)
    if got is None:
        got = _NOT_COLOR[key] = frozenset(f for f in range(t.n_faces) if t.color[f] != c
                                          and (c != 0 or t.color[f] >= 0))
    return got


class Prior(GreedyAgent):
    """The expert's rule of thumb, what it plays when no play-out shows better and how it plays
    on in its own play-outs: the greedy bot's valuation of effects, but it plays from the colour
    it holds most of, keeps its wilds to the end (a wild is its last card; a wild just drawn
    too, while its hand and the next one hold more than two cards) and its action cards
    (skips, reverses, draw cards...) for when the next player is close to going out, and then
    uses them on that player (under a Mercy limit it does not hold them: a large hand is knocked
    out); with the expert's memory it prefers a pile the next player likely cannot follow, and
    a wild names, of the colours it holds most of, the one they are least likely to follow."""

    name = "prior"
    memory: Memory | None = None          # the deciding player's memory (none in a play-out)

    # as a seat's policy in a play-out (no memory), every rule of thumb below reads only the
    # fields of the seat's Glance (its observation's table, hand, hand sizes, who is in and the
    # direction): it is handed that instead of the whole observation, for the same answers
    def play_turn(self, game: GameView, p: int, faces: list[int], flex: list[int], passable: bool) -> int | None:
        if self.memory is not None:
            return Agent.play_turn(self, game, p, faces, flex, passable)
        return self._choose(as_moves(faces, flex), passable, game.glance(p))  # type: ignore[arg-type]

    def answer(self, game: GameView, p: int, kind: DecisionKind, options: Sequence[int], passable: bool,
               about: int, value: int) -> Answer:
        if self.memory is not None:
            return Agent.answer(self, game, p, kind, options, passable, about, value)
        return self.decide(Decision(p, kind, tuple(options), passable, about, value, game.decisions),
                           game.glance(p), game.bot_rng)  # type: ignore[arg-type]

    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return self._choose(d.options, d.passable, o)

    def _choose(self, moves: Sequence[int], passable: bool, o: Observation) -> int | None:
        """play(): the card to play among these moves, or None to draw instead (``passable``)."""
        t = o.table
        if passable and self.draws_over_wild(moves, o):
            return None
        leader, nxt = _leader(o), next_seat(o)
        n = len(o.alive)
        memory = self.memory
        stuck = _stuck(o, memory, nxt) if memory is not None and BLOCK else None
        leader_next = leader == nxt
        color_of, category, effects_of = t.color, t.move_category, t.effects
        hand_colors = [color_of[f] for f in o.hand]
        short = len(o.hand) <= 2                  # about to go out: play anything
        close = o.hand_sizes[nxt] <= 2            # the next player is about to go out
        hold = not t.rules.mercy_limit             # a Mercy limit punishes a hand kept large
        wild_score = KEEP_WILD if not short else KEEP_LAST_WILD
        moved = t.memo.get(_PRIOR_MEMO) or t.remember(_PRIOR_MEMO, _prior_moves, t)
        fixed = moved.leader_next if leader_next else moved.other
        attacks = moved.attack_many if n > 2 else moved.attack
        if stuck is not None:
            block = BLOCK * (1 + BLOCK_CLOSE / max(1, o.hand_sizes[nxt]))
            held, named = _wild_names(o, memory, stuck, moves)
        best, best_score = moves[0], None
        for m in moves:
            c = color_of[m >> 1]
            score = COLOR_WEIGHT * (hand_colors.count(c) - 1) if c >= 0 else 0.0
            wild = category[m] == WLD
            if wild and not (WILD_ATTACK and close and any(e.op == "draw" for e in effects_of[m])):
                score += wild_score
            if m & 1:
                score += KEEP_POWER
            effects = effects_of[m]
            if effects:
                value = fixed[m]
                if value is None:                 # an effect's value reads the hands
                    v = View(o, m, leader, leader_next)
                    value = sum([VALUES[e.op](v, e) for e in effects])
                score += value
                if hold and not close and not short and not wild:
                    score += KEEP_ACTION
                if close and attacks[m]:
                    score += ATTACK
            if stuck is not None:
                score += block * stuck(m, named if c < 0 else held)
            if best_score is None or score > best_score:
                best, best_score = m, score
        return best

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """The colour held most; with ``COLOR_TIE`` and the memory, of those tied, the one the
        next player is least likely to follow."""
        if COLOR_TIE and self.memory is not None and o.top >= 0:
            c = _likely_colors(o, self.memory, wild=o.top)[0]
            if c in d.options:
                return c
        return super().color(d, o, rng)

    @staticmethod
    def saves_wild(d: Decision, o: Observation) -> bool:
        """Whether to draw rather than play (where the rules let it): the only cards it can play
        are wilds, while its hand and the next player's both hold more than ``DRAW_OVER_WILD``
        cards. A wild kept follows any pile later; the card drawn is played if it can be."""
        return Prior.draws_over_wild(d.options, o)

    @staticmethod
    def draws_over_wild(moves: Sequence[int], o: Observation) -> bool:
        """saves_wild() for these moves."""
        category = o.table.move_category
        if moves and category[moves[0]] != WLD:       # (the cheap test first: few plays are all wilds)
            return False
        if len(o.hand) <= DRAW_OVER_WILD or o.hand_sizes[next_seat(o)] <= DRAW_OVER_WILD:
            return False
        return all(category[m] == WLD for m in moves) and not (_wilds_plenty(o.table) and _wilds_held(o) > 1)

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """The card just drawn, by its regular side; a wild drawn is kept instead while more
        than two cards are held and the next player holds more than two (as a wild in the hand
        is kept: it follows any pile later)."""
        m = min(d.options, key=lambda m: m & 1)
        if d.passable and self.keeps_drawn_wild(m, o):
            return None
        return m

    @staticmethod
    def keeps_drawn_wild(m: int, o: Observation) -> bool:
        """Whether the card just drawn, by its move ``m``, is a wild kept for later."""
        return (o.table.move_category[m] == WLD and len(o.hand) > KEEP_DRAWN_WILD
                and o.hand_sizes[o.next_player()] > KEEP_DRAWN_WILD and not (_wilds_plenty(o.table) and _wilds_held(o) > 1))


_PLENTY_MEMO = "expert-wild-share"


def _wilds_plenty(t: Table) -> bool:
    """Whether more than WILDS_PLENTY of the deck's cards are wilds: there a wild is no scarce
    card to keep in reserve, beyond the last one in the hand (worked out once per table)."""
    return t.remember(_PLENTY_MEMO, _wild_share, t) > WILDS_PLENTY


def _wild_share(t: Table) -> float:
    """The share of the deck's cards that are wilds."""
    return sum(1 for f in t.deck_faces if t.move_category[f + f] == WLD) / max(1, len(t.deck_faces))


def _wilds_held(o: Observation) -> int:
    """The wild cards in the hand (a card just drawn among them)."""
    category = o.table.move_category
    return sum(1 for f in o.hand if category[f + f] == WLD)


def _wild_names(o: Observation, memory: Memory | None, stuck: Callable[[int, int], float],
                moves: Sequence[int]) -> tuple[int, int]:
    """The colour a wild names in the rule of thumb's valuation of the next player's chances: the
    one held most (the first of them), and the one it names among these moves (with
    ``COLOR_TIE``, a tie goes to the colour the next player likely cannot follow)."""
    colors = _held(o)
    held = colors.index(max(colors))
    category = o.table.move_category
    if COLOR_TIE and any(category[m] == WLD for m in moves):
        return held, _likely_colors(o, memory, stuck)[0]
    return held, held


def _held(o: Observation) -> list[int]:
    """Per colour of the table, how many cards of it the hand holds."""
    color = o.table.color
    held = [color[f] for f in o.hand]
    return list(map(held.count, range(len(o.table.colors))))


class _PriorMoves(NamedTuple):
    """Per move, what the rule of thumb's valuation of it reads of the table alone (worked out
    once per table): the sum of its effects' values when the leader plays next and when not
    (None: an effect's value reads the hands), and whether it attacks a next player close to
    going out (with more than two players, and with two, where a reverse is no attack)."""

    leader_next: tuple[float | None, ...]
    other: tuple[float | None, ...]
    attack_many: tuple[bool, ...]
    attack: tuple[bool, ...]


_PRIOR_MEMO = "expert-prior"   # the key of _prior_moves' answer in Table.memo


def _prior_moves(t: Table) -> _PriorMoves:
    bare = Glance(-1, (), (), (), 1, t)        # the static valuations read only its table
    sums: dict[bool, list[float | None]] = {True: [], False: []}
    for m, effects in enumerate(t.effects):
        static = all(VALUES[e.op] in A._STATIC_VALUES for e in effects)
        for leader_next, out in sums.items():
            out.append(sum([VALUES[e.op](View(bare, m, -1, leader_next), e) for e in effects]) if static else None)
    attack = tuple(any(e.op in ATTACKS for e in effects) for effects in t.effects)
    reverse = tuple(any(e.op == "reverse" for e in effects) for effects in t.effects)
    return _PriorMoves(tuple(sums[True]), tuple(sums[False]),
                       tuple(a or r for a, r in zip(attack, reverse, strict=True)), attack)


def _unseen_pool(o: Observation, memory: Memory) -> Counter[int]:
    """The deck's faces counted, less this player's hand, the cards set aside and the discard
    pile when the memory knows it (each face in the deck's order): worked out once per
    observation (its callers only read it, or copy it first)."""
    cached = memory.pool
    if cached and cached[0] is o:
        pool: Counter[int] = cached[1]
        return pool
    pool = _deck_counted(o.table)
    seen = Counter(o.hand)                   # counted in C, then taken off face by face
    seen.update(memory.aside)                # set aside at the start: out of play until a reshuffle
    if memory.ok and len(memory.discard) == o.discard_pile:
        seen.update(memory.discard)
    pool.subtract(seen)
    memory.pool = (o, pool)
    return pool


def _deck_counted(t: Table) -> Counter[int]:
    """A new count of the deck's faces (each face as often as the deck holds it)."""
    return Counter(t.remember(_DECK_MEMO, Counter, t.deck_faces))


def _stuck(o: Observation, memory: Memory, q: int) -> Callable[[int, int], float] | None:
    """For a move (and the colour it names if it is a wild), the chance that player ``q``
    (playing next) cannot follow it, from what the
    memory holds of their hand: each card of a group is a random unseen card that the group does
    not rule out. (Worked out once per observation and seat: the memory changes only between
    decisions, each with an observation of its own.)"""
    cached = memory.stuck
    if cached and cached[0] is o and cached[1] == q:
        got: Callable[[int, int], float] | None = cached[2]
        return got
    got = _stuck_now(o, memory, q)
    memory.stuck = (o, q, got)
    return got


def _stuck_now(o: Observation, memory: Memory, q: int) -> Callable[[int, int], float] | None:
    hand = memory.hands.get(q)
    if hand is None or not hand.groups:
        return None
    t = o.table
    pool = _unseen_pool(o, memory)
    # the unseen cards per face (a face none of which is unseen counts 0, the same in every sum below)
    unseen: dict[int, int] = pool if min(pool.values(), default=0) >= 0 else {f: k for f, k in pool.items() if k > 0}
    total = sum(unseen.values())
    if not total:
        return None
    tally = t.remember(_TALLY_MEMO, _Tally, t)
    cards = tally.cards(unseen)
    groups = [(int(g[0]), tally.mask(g[1]) if g[1] else 0, total - (cards & tally.mask(g[1])).bit_count())
              for g in hand.groups]
    flex_ok = not (t.rules.power_cards and t.any_flex) or o.power[q]

    def chance(m: int, named: int) -> float:
        c = t.move_color[m]
        if c < 0:                             # a wild: the colour it names
            c = named
        follow = cards & tally.follow(t.pile_key(m, c), flex_ok)     # the unseen cards that follow it
        p = 1.0
        followers = follow.bit_count()
        for size, banned, free in groups:
            if not free:
                continue
            can = followers - (follow & banned).bit_count() if banned else followers
            p *= (1.0 - can / free) ** size
        return p

    return chance


_TALLY_MEMO = "expert-tally"      # the key of the table's _Tally in Table.memo


class _Tally:
    """Cards counted as bits, so that the unseen cards among a set of faces are counted in C, one
    AND and one bit count: a slot of ``size`` bytes per face (face f's from byte f * size), with
    as many low bits of it set as there are cards of that face (:meth:`cards`), or all of its
    bits for a face in a set (:meth:`mask`). The counts are the same integers as summed face by
    face."""

    def __init__(self, t: Table):
        self.table = t
        self.n = t.n_faces
        self.most = max(Counter(t.deck_faces).values(), default=1)
        self.size = -(-self.most // 8)           # bytes per face, enough for a bit per card of it
        # per byte of a slot: a face's count (at most 255) to that byte of its bits
        self.bytes = [bytes(((1 << k) - 1) >> (8 * j) & 255 for k in range(256)) for j in range(self.size)]
        self.masks: dict[frozenset[int], int] = {}
        self.follows: dict[tuple[int, bool], int] = {}

    def _slots(self, counts: bytes | bytearray) -> int:
        """The bits of these counts, a byte per face."""
        if self.size == 1:
            return int.from_bytes(counts.translate(self.bytes[0]), "little")
        slots = bytearray(self.n * self.size)
        for j, table in enumerate(self.bytes):
            slots[j::self.size] = counts.translate(table)
        return int.from_bytes(slots, "little")

    def cards(self, counts: Mapping[int, int]) -> int:
        """These cards (a count per face, none above the deck's)."""
        if self.most > 255:                       # (no deck of ours holds that many of one face)
            return sum(((1 << k) - 1) << (8 * self.size * f) for f, k in counts.items())
        return self._slots(bytes(map(counts.get, range(self.n), repeat(0))))

    def mask(self, faces: frozenset[int]) -> int:
        """Every slot of these faces (kept per set: a memory's groups keep their sets)."""
        got = self.masks.get(faces)
        if got is None:
            if len(self.masks) >= _TALLY_KEEP:
                self.masks.clear()
            if self.most > 255:
                got = self.cards(dict.fromkeys(faces, 8 * self.size))
            else:
                counts = bytearray(self.n)
                bits = 8 * self.size
                for f in faces:
                    counts[f] = bits
                got = self._slots(counts)
            self.masks[faces] = got
        return got

    def follow(self, key: int, flex_ok: bool) -> int:
        """The mask of the faces that follow the pile ``key`` (by their Flex side too: ``flex_ok``)."""
        got = self.follows.get((key, flex_ok))
        if got is None:
            entry = self.table.cache[key]
            got = self.follows[(key, flex_ok)] = self.mask(entry[2] | entry[3] if flex_ok else entry[2])
        return got


_TALLY_KEEP = 4096    # sets whose masks a table keeps at most (then it starts again)


class ExpertAgent(Agent):
    """Determinized rollouts (module docstring); ``think`` play-outs per decision."""

    name = "expert"
    wants_events = True

    def __init__(self, think: int = THINK):
        self.think = max(1, int(think))
        self.prior = Prior()
        self.memories: dict[int, Memory] = {}     # one per seat it plays (one bot may hold every seat)
        self.colors: dict[int, int | None] = {}   # the colour searched together with a wild, per seat
        self.memory: Memory | None = None         # the deciding seat's

    def decide(self, d: Decision, o: Observation, rng: random.Random) -> Answer:
        memory = self.memories.get(o.player)
        if memory is None or memory.new_game(o):
            memory = self.memories[o.player] = Memory(o.player)
        memory.update(o)
        self.memory = self.prior.memory = memory
        return super().decide(d, o, rng)

    # decisions searched
    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        if KEEP_WILD_UNSEARCHED and d.passable and Prior.saves_wild(d, o):
            return None                        # a wild kept: the play-outs are too short to value it
        cands: list[tuple[int | None, int | None]] = []
        for m in d.options:
            if o.table.move_category[m] == 2 and _names_color(o.table, m):
                cands += [(m, c) for c in _likely_colors(o, self.memory, wild=m)]
            else:
                cands.append((m, None))
        if d.passable:
            cands.append((None, None))
        best = self._search(d, o, rng, cands)
        self.colors[o.player] = best[1]
        return best[0]

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        if KEEP_WILD_UNSEARCHED and d.passable and Prior.keeps_drawn_wild(min(d.options, key=lambda m: m & 1), o):
            return None
        cands: list[tuple[int | None, int | None]] = [(m, None) for m in d.options]
        if d.passable:
            cands.append((None, None))
        return self._search(d, o, rng, cands)[0]

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        c = self.colors.pop(o.player, None)
        if c is not None and c in d.options:
            return c
        return self.prior.color(d, o, rng)

    # decisions answered by the rule of thumb (as the greedy bot does)
    def stack(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return self.prior.stack(d, o, rng)

    def challenge(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        """Challenge when the sampled deals say the offender likely held a card of the colour
        before their card (guilty): the memory has read their choice as a greedy player's, so
        a card played because nothing else followed was no bluff."""
        memory = self.memory
        q = d.about
        before = memory.before.get(q, -1) if memory is not None else -1
        if memory is None or before < 0 or q == o.player or not 0 <= q < o.n_players:
            return self.prior.challenge(d, o, rng)
        t = o.table
        guilty = 0
        for _ in range(CHALLENGE_DEALS):
            hands = sample(o, memory, rng)[0]
            guilty += t.holds_color(hands.get(q, ()), before)
        return guilty > CHALLENGE_LIKELY * CHALLENGE_DEALS

    def target(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.prior.target(d, o, rng)

    def swap(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.prior.swap(d, o, rng)

    def steal(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.prior.steal(d, o, rng)

    def duel(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.prior.duel(d, o, rng)

    # ---------------------------------------------------------------- the search
    def _search(self, d: Decision, o: Observation, rng: random.Random,
                cands: Sequence[tuple[int | None, int | None]]) -> tuple[int | None, int | None]:
        if len(cands) == 1:
            return cands[0]
        for c in cands:                        # the last card: it wins at once
            if c[0] is not None and len(o.hand) == 1 and d.kind is DecisionKind.PLAY:
                return c
        base = self._prior_choice(d, o, rng, cands)
        rounds = max(2, self.think // len(cands))
        # every candidate plays the same deals: the rule of thumb's choice is kept unless another
        # one did better on them by more than the noise of the difference (CONFIDENCE standard
        # errors, fewer as the budget grows: a large one's differences are trusted as they are)
        confidence = CONFIDENCE * max(0.0, 1.0 - self.think / TRUST_THINK)
        assert self.memory is not None
        deal = sampler(o, self.memory)

        def play(which: Sequence[int]) -> list[float]:
            world = imagine(o, d, deal(rng), rng.getrandbits(64))
            seed = rng.getrandbits(64)
            return [rollout(world, o.player, cands[i][0], cands[i][1], seed) for i in which]

        return cands[settle(len(cands), base, rounds, confidence, play)[0]]

    def _prior_choice(self, d: Decision, o: Observation, rng: random.Random,
                       cands: Sequence[tuple[int | None, int | None]]) -> int:
        """The candidate the rule of thumb would pick (kept unless a play-out shows better)."""
        pick = self.prior.decide(d, o, rng)       # (the rule of thumb draws nothing from rng)
        color = None
        if pick is not None and o.table.move_category[pick] == 2 and _names_color(o.table, pick):
            color = _likely_colors(o, self.memory, wild=pick)[0]
        for i, c in enumerate(cands):
            if c == (pick, color) or (c[0] == pick and color is None):
                return i
        return 0


def settle(n: int, base: int, rounds: int, confidence: float,
           play: Callable[[Sequence[int]], Sequence[float]]) -> tuple[int, int]:
    """The search's answer among ``n`` candidates (``base``: the rule of thumb's choice) and the
    play-outs it took: ``play(candidates)`` plays one more deal for these candidates (the base
    first) and gives their scores; at most ``rounds`` deals, fewer once the answer is settled
    (:func:`_may_win`, :func:`_race`); then the best candidate that beat the base by more than
    ``confidence`` standard errors of the difference (and by more than 0), else the base."""
    scores: list[list[float]] = [[] for _ in range(n)]
    rivals = [i for i in range(n) if i != base]       # the candidates that may still be chosen
    sums = [[0.0, 0.0] for _ in range(n)]    # per rival: the sum of its differences to the base, and of their squares
    mine = scores[base]
    played = used = 0
    while rivals and played < rounds:
        ours, *theirs = play([base, *rivals])
        used += 1 + len(rivals)
        mine.append(ours)
        for i, x in zip(rivals, theirs):
            scores[i].append(x)
            s = sums[i]
            s[0] += x - ours
            s[1] += (x - ours) ** 2
        played += 1
        rivals = [i for i in rivals if _may_win(sums[i][0], sums[i][1], rounds - played, rounds, confidence)]
        if played % LOOK == 0 and played < rounds and rivals:
            rivals, decided = _race(scores, base, rivals, confidence)
            if decided:
                break
    best, best_gain = base, 0.0
    for i in rivals:
        mean, error = _paired(scores[i], mine)
        if mean > best_gain and mean > confidence * error:
            best, best_gain = i, mean
    return best, used


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of the differences a - b over the deals both played, and its standard error."""
    n = len(a)
    diff = [x - y for x, y in zip(a, b)]
    mean = sum(diff) / n
    var = sum((x - mean) ** 2 for x in diff) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def _may_win(total: float, squares: float, m: int, rounds: int, confidence: float) -> bool:
    """Whether a candidate whose differences to the rule of thumb's choice sum to ``total`` so
    far (their squares to ``squares``), with ``m`` deals left, may still beat it after ``rounds``
    deals by the answer's rule (a mean difference above 0 and above ``confidence`` standard
    errors), whatever the deals left give: False only when no play-outs can (the differences
    lie in [-1, 1]). A search that stops playing it so answers as one that played it to the end.

    The best the deals left can do: for a sum of the differences to come, they do best all equal
    (that spreads them least), so for each value v of them (m deals left) the test holds when
    ``K * (A + m v)**2 - m v**2 - B > 0`` with A and B the sum and the sum of squares so far and
    K = (R - 1 + c**2) / (R c**2); that quadratic is largest at an end of v's range or at its
    vertex."""
    if total + m <= 0:                          # its mean cannot get above 0
        return False
    if confidence <= 0:
        return True
    k = (rounds - 1 + confidence * confidence) / (rounds * confidence * confidence)

    def test(v: float) -> float:
        return k * (total + m * v) ** 2 - m * v * v - squares

    low = max(-1.0, -total / m) if m else 0.0    # the values that keep the mean above 0
    best = test(1.0 if m else 0.0)
    if m:
        if total + m * low > 0:
            best = max(best, test(low))
        if k * m != 1:
            top = k * total / (1 - k * m)
            if low < top <= 1:
                best = max(best, test(top))
    return best > -1e-9 * (1 + squares)


def _race(scores: list[list[float]], base: int, rivals: list[int], confidence: float) -> tuple[list[int], bool]:
    """The rivals left after a look: each one that trails the best so far (by mean score over
    the same deals, the rule of thumb's choice among them) by more than ``RACE`` standard errors
    of the difference is dropped; when a single rival is left and leads the rule of thumb by more
    than that (and than ``confidence`` of them), it is the answer and the search stops early."""
    n = len(scores[base])
    means = {i: sum(scores[i]) / n for i in (base, *rivals)}
    leader = max(means, key=lambda i: (means[i], i == base))
    kept = []
    for i in rivals:
        mean, error = _paired(scores[leader], scores[i]) if i != leader else (0.0, 0.0)
        if i == leader or mean <= RACE * error:
            kept.append(i)
    if len(kept) == 1 and leader == kept[0]:
        mean, error = _paired(scores[leader], scores[base])
        return kept, mean > max(RACE, confidence) * error
    return kept, False


# the least and the most the greedy bot's valuation (agents.GreedyAgent.play, agents.VALUES) may
# give an effect, whatever the table around it; None: no bound (it depends on the hands); an
# effect not listed is worth 0 at least and at most
def _per_card(e: Effect) -> float | None:
    return A.PER_CARD * (e.n)


def _attack(e: Effect) -> float | None:
    return A.PER_CARD * (e.n) + A.ATTACK


def _const(v: float | None) -> Callable[[Effect], float | None]:
    return lambda e: v


def _nothing(e: Effect) -> float | None:
    return 0


_LOW: dict[str, Callable[[Effect], float | None]] = {
    "draw": _per_card, "everyone_draws": _per_card, "roulette": _const(A.ROULETTE_OTHER),
    "steal": _const(A.STEAL_EARLY), "play_again": _const(A.PLAY_AGAIN), "duel": _const(A.DUEL),
    "swap_hands": _const(None)}
_HIGH: dict[str, Callable[[Effect], float | None]] = {
    "draw": _attack, "everyone_draws": _per_card, "skip": _const(A.ATTACK), "skip_all": _const(A.ATTACK),
    "target": _const(A.TARGET_OTHER), "roulette": _const(A.ROULETTE_LEADER), "steal": _const(A.STEAL_CLOSE),
    "play_again": _const(A.PLAY_AGAIN), "duel": _const(A.DUEL), "swap_hands": _const(None),
    "discard_color": _const(None)}
_BOUNDS: dict[int, tuple[list[float], list[float]]] = {}


def _greedy_bounds(t: Table) -> tuple[list[float], list[float]]:
    """Per face, the least the greedy bot values playing it by its regular side; per move, the
    most it values playing it (``inf`` where an effect's value has no bound)."""
    got = _BOUNDS.get(id(t))
    if got is not None and len(got[1]) == len(t.move_category):
        return got
    base = [float(A.POINTS_WEIGHT * t.points[m >> 1] + (A.KEEP_WILD if t.move_category[m] == WLD else 0)
                  + (A.KEEP_POWER if m & 1 else 0)) for m in range(len(t.move_category))]
    low: list[float] = []
    high: list[float] = []
    for m in range(len(t.move_category)):
        lo = hi = base[m]
        for e in t.effects[m]:
            a = _LOW.get(e.op, _nothing)(e)
            b = _HIGH.get(e.op, _nothing)(e)
            lo = -math.inf if a is None or lo == -math.inf else lo + a
            hi = math.inf if b is None or hi == math.inf else hi + b
        high.append(hi)
        if not m & 1:
            low.append(lo)
    _BOUNDS[id(t)] = (low, high)
    return low, high


def _names_color(t: Any, move: int) -> bool:
    """Whether the move's card names a colour (one of its effects chooses it)."""
    return move in (t.memo.get(_NAMING_MEMO) or t.remember(_NAMING_MEMO, _naming_moves, t))


def _naming_moves(t: Table) -> frozenset[int]:
    return frozenset(m for m, effects in enumerate(t.effects) if any(e.op == "choose_color" for e in effects))


def _likely_colors(o: Observation, memory: Memory | None = None,
                   stuck: Callable[[int, int], float] | None = None, wild: int = -1) -> list[int]:
    """The colours worth naming with a wild: those the hand holds most of (at least one); with
    ``COLOR_TIE`` and the memory, a tie among them goes to the colour the next player is least
    likely to follow (``stuck``: :func:`_stuck` for them, ``wild``: the wild's move)."""
    t = o.table
    counts = _held(o)                          # (wilds and colourless cards name no colour)
    ranked = sorted(range(len(t.colors)), key=counts.__getitem__, reverse=True)   # most held first, ties in order
    most = counts[ranked[0]]
    if COLOR_TIE and memory is not None and counts[ranked[1]] == most:
        if wild < 0:
            wild = next((f + f for f in o.hand if t.move_category[f + f] == WLD), -1)
        if stuck is None:
            stuck = _stuck(o, memory, o.next_player())
        if stuck is not None and wild >= 0:
            chance = stuck
            tied = sorted((c for c in ranked if counts[c] == most), key=lambda c: -chance(wild, c))
            ranked = tied + [c for c in ranked if counts[c] != most]
    return ranked[:WILD_COLORS] if most else ranked[:1]


# ---------------------------------------------------------------- sampling and play-outs

def sample(o: Observation, memory: Memory, rng: random.Random) -> tuple[dict[int, list[int]], list[int], list[int]]:
    """One deal of the hidden cards consistent with what this player has seen: each opponent's
    hand, the draw pile (bottom first) and the discard pile (top last)."""
    return sampler(o, memory)(rng)


def sampler(o: Observation, memory: Memory) -> Callable[[random.Random], Hidden]:
    """:func:`sample` for many deals of one observation: what is unseen and who may hold what
    worked out once, each deal then a shuffle of the unseen cards and their dealing."""
    pool = Counter(_unseen_pool(o, memory))
    known_discard = memory.ok and len(memory.discard) == o.discard_pile
    if not known_discard and o.top >= 0:
        pool.subtract([o.top >> 1])
    unseen = list(pool.elements())           # each face as often as it is unseen
    seats: list[int] = []
    groups: list[tuple[int, int, int, frozenset[int]]] = []
    for q in range(o.n_players):
        if q == o.player or not o.alive[q]:
            continue
        seats.append(q)
        held: list[list[Any]] = memory.hands[q].groups if q in memory.hands else [[o.hand_sizes[q], frozenset()]]
        for size, banned in held:
            groups.append((len(banned), q, int(size), frozenset(banned)))
    groups.sort(key=lambda g: -g[0])
    sizes, draw_pile, top = o.hand_sizes, o.draw_pile, o.top
    under_end = draw_pile + max(0, o.discard_pile - 1)
    known = list(memory.discard) if known_discard else None

    def deal(rng: random.Random) -> Hidden:
        cards = shuffled(rng, unseen)            # in a random order
        hands: dict[int, list[int]] = {q: [] for q in seats}
        cards = _deal_groups(cards, groups, hands)
        for q in seats:                         # a memory that asked too much: fill from what is left
            while len(hands[q]) < sizes[q] and cards:
                hands[q].append(cards.pop())
        pile = cards[:draw_pile]
        if known is not None:
            discard = list(known)
        else:                                   # what is left over was set aside (out of play)
            discard = cards[draw_pile:under_end] + ([top >> 1] if top >= 0 else [])
        return hands, pile, discard

    return deal


def _deal_groups(cards: list[int], groups: Sequence[tuple[int, int, int, frozenset[int]]],
                 hands: dict[int, list[int]]) -> list[int]:
    """Each group (its banned faces' count, seat, size, banned faces), in order, takes the first
    ``size`` cards that are none of its banned faces into its seat's hand; the cards left, in
    order (``cards`` itself, taken from in place: each card is found and removed in C)."""
    for _, q, size, banned in groups:
        if size <= 0:
            continue
        hand = hands[q]
        if not banned:
            hand += cards[:size]
            del cards[:size]
            continue
        taken = [*islice(filterfalse(banned.__contains__, cards), size)]   # the first cards the group may hold
        hand += taken
        for _ in map(cards.remove, taken):       # each one's first copy is that card (an earlier one would be taken)
            pass
    return cards


class _Scripted(Prior):
    """The searching player in a play-out: names the searched colour once, then plays by the
    rule of thumb."""

    def __init__(self, color: int | None):
        self.first_color = color

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        c, self.first_color = self.first_color, None
        if c is not None and c in d.options:
            return c
        return super().color(d, o, rng)


_GREEDY = GreedyAgent()


def imagine(o: Observation, d: Decision, deal: Hidden, seed: int) -> Game:
    """The hand as the deciding player imagines it at decision ``d`` (their play or the card
    they drew): this observation with the hidden cards laid out by ``deal`` (every other hand,
    the draw pile bottom first, the discard pile top last), played on for at most ``HORIZON``
    rounds from here, its generator seeded with ``seed``. Every seat is left without a policy;
    a play-out gives them theirs (:func:`rollout`)."""
    from deckgen.rules.engine import Game

    t, me, n = o.table, o.player, o.n_players
    hands, pile, discard = deal
    g = Game(t, n, _Deferred(seed), None, record=False, scores=o.scores,
             turn_cap=min(t.rules.turn_cap, o.turns + HORIZON * n))
    g.arrange(Position(tuple(tuple(o.hand) if q == me else tuple(hands.get(q, ())) for q in range(n)),
                       tuple(pile), tuple(discard), (), o.alive, o.power, o.owed, me, o.direction, o.top,
                       o.color), turns=o.turns, trace=False)
    g.pose(d.kind, d.options, d.passable)
    return g


class _Deferred(random.Random):
    """A generator seeded from ``seed`` when it is first drawn from: a play-out seldom draws (a
    reshuffle of the discard pile), so most never pay for the seeding."""

    def __init__(self, seed: int = 0):
        self.pending: int | None = seed

    def _wake(self) -> None:
        seed, self.pending = self.pending, None
        super().seed(seed)

    def random(self) -> float:
        if self.pending is not None:
            self._wake()
        return super().random()

    def getrandbits(self, k: int) -> int:
        if self.pending is not None:
            self._wake()
        return super().getrandbits(k)

    def getstate(self) -> Any:
        if self.pending is not None:
            self._wake()
        return super().getstate()

    def seed(self, a: Any = None, version: int = 2) -> None:
        self.pending = None
        super().seed(a, version)

    def setstate(self, state: Any) -> None:
        self.pending = None
        super().setstate(state)


def rollout(world: Game, me: int, answer: int | None, color: int | None, seed: int | None = None) -> float:
    """Play the imagined hand on after ``answer`` (the others greedy, the deciding player by its
    rule of thumb, naming ``color`` with a wild) until its end or its horizon: 1 for a win of the
    deciding player, 0 for another's, in between for a play-out stopped first (its fitted chance
    of going out first, :func:`_fitted`; without ``FITTED``, its hand against the smallest
    other). ``seed``: the play-out's chances (every candidate of a deal gets the same); default:
    the imagined hand's generator, copied."""
    agents: list[Any] = [_GREEDY] * world.n_players
    agents[me] = _Scripted(color)
    g = world.clone(agents=agents, rng=None if seed is None else _Deferred(seed))
    g.apply(answer)
    if g.outcome == FINISHED:
        return 1.0 if g.winner == me else 0.0
    if not g.alive[me]:
        return 0.0
    if FITTED:
        return _fitted(g, me)
    mine = len(g.hands[me])
    best = min((len(g.hands[q]) for q in range(g.n_players) if q != me and g.alive[q]), default=0)
    return (best + 1) / (mine + best + 2)


_FIT_MEMO = "expert-fit"     # the key of the wild faces and the action faces in Table.memo


def _wilds_and_actions(t: Table) -> tuple[frozenset[int], frozenset[int]]:
    """The wild faces and the action faces of the table (worked out once per table)."""
    return t.memo.get(_FIT_MEMO) or t.remember(_FIT_MEMO, _wild_and_action_faces, t)


def _wild_and_action_faces(t: Table) -> tuple[frozenset[int], frozenset[int]]:
    def faces(category: int) -> frozenset[int]:
        return frozenset(f for f in range(t.n_faces) if t.move_category[f + f] == category)

    return faces(WLD), faces(ACT)


def _follows(hand: Sequence[int], legal: frozenset[int] | set[int], wilds: frozenset[int]) -> tuple[bool, bool]:
    """Whether the hand holds a card other than a wild that follows the pile, and one that does."""
    follows = False
    for f in hand:
        if f in legal:
            follows = True
            if f not in wilds:
                return True, True
    return False, follows


def horizon_features(g: Any, me: int, first: int = -1) -> list[tuple[int, list[float]]]:
    """Each player still in, from the player to move on (or from ``first``: the player deciding),
    with the values of FIT_FEATURES for them (``me``: the player who plays by the rule of thumb)."""
    t = g.table
    wilds, actions = _wilds_and_actions(t)
    legal = t.cache[g.pile_key][2]
    hands, alive, n = g.hands, g.alive, len(g.hands)
    out: list[tuple[int, list[float]]] = []
    start = g.current if first < 0 else first
    for i in range(n):
        q = (start + i * g.direction) % n
        if not alive[q]:
            continue
        k = len(out)
        h = hands[q]
        size = len(h)
        plain, follows = _follows(h, legal, wilds) if k < 2 else (False, False)
        out.append((q, [float(k == 1), float(k == 2), float(k >= 3), math.log(size) if size > 1 else 0.0,
                        float(size - 1), float(size == 1), float(sum(map(wilds.__contains__, h))),
                        float(sum(map(actions.__contains__, h))), float(q == me),
                        float(k == 0 and plain), float(k == 0 and follows), float(k == 1 and plain)]))
    return out


def _fitted(g: Any, me: int) -> float:
    """The deciding player's chance of going out first, by the fitted strengths (FIT): each
    player's strength is the sum of FIT times :func:`horizon_features`, added up here in the
    same order without building the features (a feature that is 0 adds nothing), so the same
    number to the last bit (tests/test_expert.py holds the two together)."""
    t = g.table
    wilds, actions = _wilds_and_actions(t)
    legal = t.cache[g.pile_key][2]
    hands, alive, n, direction, start = g.hands, g.alive, len(g.hands), g.direction, g.current
    f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11 = FIT
    exp, log = math.exp, math.log
    total = mine = 0.0
    k = 0
    for i in range(n):
        q = (start + i * direction) % n
        if not alive[q]:
            continue
        h = hands[q]
        size = len(h)
        # the k-th player from the one to move: FIT times their features, in the features' order
        s: float = (0, f0, f1)[k] if k < 3 else f2
        if size > 1:
            s += f3 * log(size)
        s += f4 * (size - 1) if size != 1 else f5
        held = sum(map(wilds.__contains__, h))
        if held:
            s += f6 * held
        held = sum(map(actions.__contains__, h))
        if held:
            s += f7 * held
        if q == me:
            s += f8
        if k == 0:
            plain, follows = _follows(h, legal, wilds)
            if plain:
                s += f9
            if follows:
                s += f10
        elif k == 1 and _follows(h, legal, wilds)[0]:
            s += f11
        e = exp(s)
        total += e
        if q == me:
            mine = e
        k += 1
    return mine / total if total else 0.0
