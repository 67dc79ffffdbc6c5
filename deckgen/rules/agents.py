"""Players: a uniformly random legal player and a simple greedy one, both :class:`Bot`\\ s.

A bot answers the engine's decisions (:mod:`deckgen.rules.decision`) from the decision, its own
observation and the random generator it is handed (the game's seeded one by default, so a game
stays reproducible). :class:`Agent` is a convenient base: ``decide`` calls the method named
after the decision's kind (``play``, ``color``, ``duel``, ...), each with a reasonable default.
Write your own by subclassing it and registering it in :data:`deckgen.rules.bots.AGENTS` (or pass an instance to
the engine directly); any object with ``name`` and ``decide`` will do.

Moves are ints: ``face * 2 + side`` (side 1 = the card's flex side).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from deckgen.effects import Effect
from deckgen.rules.decision import (
    Answer,
    BotSeat,
    Decision,
    DecisionKind,
    GameView,
    Glance,
    Observation,
    Seen,
    as_moves,
    next_seat,
)
from deckgen.rules.table import WLD, Table


class Agent:
    """A bot whose answers are one method per decision kind; as a seat's policy (docs/engine.md)
    it is asked each decision with the seat's observation, as any bot is (:class:`BotSeat`)."""

    name = "base"

    def decide(self, d: Decision, o: Observation, rng: random.Random) -> Answer:
        answer: Callable[[Decision, Observation, random.Random], Answer] = getattr(self, d.kind.value)
        return answer(d, o, rng)

    def play_turn(self, game: GameView, p: int, faces: list[int], flex: list[int], passable: bool) -> int | None:
        return BotSeat(self).play_turn(game, p, faces, flex, passable)

    def answer(self, game: GameView, p: int, kind: DecisionKind, options: Sequence[int], passable: bool,
               about: int, value: int) -> Answer:
        return BotSeat(self).answer(game, p, kind, options, passable, about, value)

    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """A legal move, or None to draw instead (legal only when ``d.passable``)."""
        return _option(d, rng.randrange(len(d.options)))

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """The card just drawn is playable (options: its sides): play it, or None to keep it."""
        return _option(d, 0) if len(d.options) == 1 else _option(d, rng.randrange(len(d.options)))

    def stack(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """A penalty waits: a draw card to stack on it, or None to draw it all."""
        return _option(d, rng.randrange(len(d.options)))

    def challenge(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return rng.random() < HALF

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return _option(d, rng.randrange(len(d.options)))

    def roulette_color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.color(d, o, rng)

    def target(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return _option(d, rng.randrange(len(d.options)))

    def swap(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.target(d, o, rng)

    def steal(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """The player to take a random card from."""
        return self.target(d, o, rng)

    def duel(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """An answer to a duel on ``d.value``: face*2 discards a card showing the number,
        face*2+1 plays a duel card as a counter-duel."""
        return _option(d, rng.randrange(len(d.options)))

    def uno(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return True

    def jump_in(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        """A card identical to the top card may be played out of turn (jump-in rule)."""
        return True

    def catch(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return True


# the random bot
HALF = 0.5                 # the chance it challenges, catches a missed UNO, jumps in
FORGET_UNO = 0.1           # the chance it forgets to say UNO


def _option(d: Decision, i: int) -> int:
    """Option ``i`` of a decision whose options are ints (moves, colours, seats)."""
    return d.options[i]


def _pick(opts: Sequence[Answer], rng: random.Random) -> Answer:
    return opts[int(rng.random() * len(opts))]


def _pick_drawn(opts: Sequence[Answer], rng: random.Random) -> Answer:
    return opts[0] if len(opts) == 1 else opts[int(rng.random() * len(opts))]


def _uniform(opts: Sequence[Answer], rng: random.Random) -> Answer:
    return opts[below(len(opts), rng)]


def below(n: int, rng: random.Random) -> int:
    """``rng.randrange(n)``, the same number from the same generator state: for a plain
    random.Random it draws as randrange does (getrandbits of n's bit length until one is below
    n) without randrange's Python-level argument handling; any other generator is asked itself."""
    if type(rng) is not random.Random or n <= 0:
        return rng.randrange(n)
    k = n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _say_uno(opts: Sequence[Answer], rng: random.Random) -> Answer:
    return rng.random() >= FORGET_UNO


def _half(opts: Sequence[Answer], rng: random.Random) -> Answer:
    return rng.random() < HALF


# the random bot's choice per decision kind, from the options and the generator alone
RANDOM_CHOICE: dict[DecisionKind, Callable[[Sequence[Answer], random.Random], Answer]] = {
    k: _uniform for k in DecisionKind}
RANDOM_CHOICE.update({DecisionKind.PLAY: _pick, DecisionKind.PLAY_DRAWN: _pick_drawn, DecisionKind.UNO: _say_uno,
                      DecisionKind.CATCH: _half, DecisionKind.JUMP_IN: _half, DecisionKind.CHALLENGE: _half})


class RandomAgent(Agent):
    """Plays a uniformly random legal card (draws only when it has none); every other choice
    uniform too. Forgets to say UNO one time in ten and catches others half the time.

    Its answers depend on the decision's kind and options and the generator alone
    (:data:`RANDOM_CHOICE`): as a seat's policy it reads nothing else of the game."""

    name = "random"

    def decide(self, d: Decision, o: Observation | None, rng: random.Random) -> Answer:
        return RANDOM_CHOICE[d.kind](d.options, rng)

    def choose(self, d: Decision, rng: random.Random) -> Answer:
        return RANDOM_CHOICE[d.kind](d.options, rng)

    def play_turn(self, game: GameView, p: int, faces: list[int], flex: list[int], passable: bool) -> int | None:
        i = int(game.bot_rng.random() * (len(faces) + len(flex)))     # _pick over the moves, by face
        return faces[i] * 2 if i < len(faces) else flex[i - len(faces)] * 2 + 1

    def answer(self, game: GameView, p: int, kind: DecisionKind, options: Sequence[int], passable: bool,
               about: int, value: int) -> Answer:
        return RANDOM_CHOICE[kind](options, game.bot_rng)


class View(NamedTuple):
    """What the greedy agent's valuation of one effect may look at."""

    o: Seen
    move: int
    leader: int
    leader_next: bool


# The greedy bot's valuation of a card (GreedyAgent.play): points the card would score against its
# player, times POINTS_WEIGHT, plus what each effect is worth (VALUES); the highest total is played.
POINTS_WEIGHT = 2          # per point of the card's value: dump the costly cards first
KEEP_WILD = -200           # a wild: kept for when nothing else plays
KEEP_POWER = -5            # a card played by its Flex side: the Power card stays green when it costs nothing
PER_CARD = 10              # per card a draw effect makes someone take
ATTACK = 300               # a skip, or a draw that loses the turn, when the leader plays next: stop them
TARGET_OTHER = 10          # a targeted effect when the leader is not next (the leader can still be chosen)
PER_COLOR_CARD = 15        # Discard All: per card of its colour it takes out of the hand
PER_CARD_SWAPPED = 10      # a hand swap: per card more in its hand than in the leader's
ROULETTE_LEADER = 150      # a colour roulette when the leader plays next
ROULETTE_OTHER = 20        # ... when someone else does
STEAL_CLOSE = 60           # a steal when the leader holds STEAL_LEADER_CARDS or fewer (take their last cards)
STEAL_EARLY = -15          # ... otherwise: a card stolen is one more card held
STEAL_LEADER_CARDS = 2
PLAY_AGAIN = 40            # another turn at once
DUEL = 20                  # a duel (every other player must answer it)
CHALLENGE_CARDS = 5        # it challenges a Wild Draw Four whose player holds this many cards or more


def _v_draw(v: View, e: Effect) -> float:
    attack = ATTACK if v.leader_next and e.lose_turn and v.o.table.draw_val[v.move] else 0
    return PER_CARD * (e.n) + attack


def _v_everyone(v: View, e: Effect) -> float:
    return PER_CARD * (e.n)


def _v_skip(v: View, e: Effect) -> float:
    return ATTACK if v.leader_next else 0      # attack the leader


def _v_target(v: View, e: Effect) -> float:
    return 0 if v.leader_next else TARGET_OTHER   # a chosen victim: the leader, wherever they sit


def _v_discard_color(v: View, e: Effect) -> float:
    color = v.o.table.color
    c = color[v.move >> 1]
    return PER_COLOR_CARD * [color[f] for f in v.o.hand].count(c) if c >= 0 else 0


def _v_swap(v: View, e: Effect) -> float:
    return PER_CARD_SWAPPED * (len(v.o.hand) - v.o.hand_sizes[v.leader])


def _v_roulette(v: View, e: Effect) -> float:
    return ROULETTE_LEADER if v.leader_next else ROULETTE_OTHER


def _v_steal(v: View, e: Effect) -> float:
    return STEAL_CLOSE if v.o.hand_sizes[v.leader] <= STEAL_LEADER_CARDS else STEAL_EARLY


def _v_again(v: View, e: Effect) -> float:
    return PLAY_AGAIN


def _v_duel(v: View, e: Effect) -> float:
    return DUEL


def _v_zero(v: View, e: Effect) -> float:
    return 0


# how the greedy agent values each effect primitive of a card it could play
VALUES: dict[str, Callable[[View, Effect], float]] = {
    "skip": _v_skip,
    "skip_all": _v_skip,
    "reverse": _v_zero,
    "draw": _v_draw,
    "everyone_draws": _v_everyone,
    "target": _v_target,
    "choose_color": _v_zero,
    "discard_color": _v_discard_color,
    "swap_hands": _v_swap,
    "pass_hands": _v_zero,
    "roulette": _v_roulette,
    "flip_power": _v_zero,
    "duel": _v_duel,
    "challenge": _v_zero,
    "steal": _v_steal,
    "play_again": _v_again,
}


# the valuations that read only the table, the move, the effect and whether the leader plays next
# (not the hand or the hand sizes): the greedy bot adds them up once per table (_move_values)
_STATIC_VALUES = frozenset({_v_draw, _v_everyone, _v_skip, _v_target, _v_roulette, _v_again, _v_duel, _v_zero})
_MEMO = "greedy"           # the key of the greedy bot's values in Table.memo


class MoveValues(NamedTuple):
    """The greedy bot's value of every move of one table (VALUES read once, when the table is
    first played): the part that reads no hand, when the leader plays next and when not, and
    the effects whose value reads the hands (added per decision)."""

    leader_next: tuple[float, ...]
    other: tuple[float, ...]
    dynamic: tuple[tuple[Effect, ...], ...]


def _move_values(t: Table) -> MoveValues:
    return t.memo.get(_MEMO) or t.remember(_MEMO, _values_of_moves, t)      # (the memo read inline: every play)


def _values_of_moves(t: Table) -> MoveValues:
    bare = Glance(-1, (), (), (), 1, t)        # the static valuations read only its table
    nxt: list[float] = []
    other: list[float] = []
    dynamic: list[tuple[Effect, ...]] = []
    for m in range(len(t.move_category)):
        base = t.points[m >> 1] * POINTS_WEIGHT + (KEEP_WILD if t.move_category[m] == WLD else 0) + (KEEP_POWER if m & 1 else 0)
        a: float = base
        b: float = base
        rest = []
        for e in t.effects[m]:
            value = VALUES.get(e.op)
            if value is not None and value in _STATIC_VALUES:
                a += value(View(bare, m, -1, True), e)
                b += value(View(bare, m, -1, False), e)
            else:
                rest.append(e)
        nxt.append(a)
        other.append(b)
        dynamic.append(tuple(rest))
    got = t.memo[_MEMO] = MoveValues(tuple(nxt), tuple(other), tuple(dynamic))
    return got


def best_play(moves: Sequence[int], o: Seen) -> int:
    """The greedy bot's play: the first of the moves with the highest value (module comment
    above VALUES)."""
    if len(moves) == 1:
        return moves[0]
    values = _move_values(o.table)
    leader = _leader(o)
    leader_next = leader == next_seat(o)
    fixed = values.leader_next if leader_next else values.other
    dynamic = values.dynamic
    best, best_score = moves[0], None
    for m in moves:
        score = fixed[m]
        if dynamic[m]:
            v = View(o, m, leader, leader_next)
            score += sum(VALUES[e.op](v, e) for e in dynamic[m])
        if best_score is None or score > best_score:
            best, best_score = m, score
    return best


def _side(m: int) -> int:
    return m & 1


def best_color(o: Seen) -> int:
    """The colour the greedy bot names: the one it holds most of (the first of them)."""
    t = o.table
    counts = [0] * len(t.colors)
    color = t.color
    for f in o.hand:
        c = color[f]
        if c >= 0:
            counts[c] += 1
    return counts.index(max(counts))          # the most held, the first of them


def best_target(seats: Sequence[int], o: Seen) -> int:
    """The seat the greedy bot aims at: the one with fewest cards (the first of them)."""
    sizes = o.hand_sizes
    return min(seats, key=lambda q: (sizes[q], q))


def best_stack(moves: Sequence[int], t: Table) -> int:
    """The draw card the greedy bot stacks: the smallest penalty."""
    return min(moves, key=t.draw_val.__getitem__)


def best_duel(answers: Sequence[int], t: Table) -> int:
    """A plain discard of its highest-point card showing the number, keeping duel cards; else a
    counter-duel."""
    plain = [a for a in answers if not a & 1]
    if plain:
        return max(plain, key=t.remember(_DUEL_RANK, _duel_rank, t).__getitem__)
    return answers[0]


_DUEL_RANK = "greedy-duel-rank"     # the key of _duel_rank's answer in Table.memo


def _duel_rank(t: Table) -> list[tuple[bool, int, int]]:
    """Per answer to a duel (face*2 + side), best_duel's rank of it (the highest is discarded):
    not a duel card, then the most points, then the lowest answer (a list: its __getitem__ is a
    fast key, a tuple's is not)."""
    return [(not t.duel[a >> 1], t.points[a >> 1], -a) for a in range(2 * t.n_faces)]


def _q_challenge(options: Sequence[int], about: int, o: Glance) -> Answer:
    return o.hand_sizes[about] >= CHALLENGE_CARDS


def _q_color(options: Sequence[int], about: int, o: Glance) -> Answer:
    return best_color(o)


def _q_stack(options: Sequence[int], about: int, o: Glance) -> Answer:
    return best_stack(options, o.table)


def _q_duel(options: Sequence[int], about: int, o: Glance) -> Answer:
    return best_duel(options, o.table)


def _q_target(options: Sequence[int], about: int, o: Glance) -> Answer:
    return best_target(options, o)


# GreedyAgent.quick's answer per kind that reads what the player sees (PLAY aside: best_play)
_QUICK: dict[DecisionKind, Callable[[Sequence[int], int, Glance], Answer]] = {
    DecisionKind.CHALLENGE: _q_challenge, DecisionKind.COLOR: _q_color, DecisionKind.ROULETTE_COLOR: _q_color,
    DecisionKind.STACK: _q_stack, DecisionKind.DUEL: _q_duel, DecisionKind.TARGET: _q_target,
    DecisionKind.SWAP: _q_target, DecisionKind.STEAL: _q_target}
# ... of those, the kinds whose answer reads nothing the player sees but the table (no Glance built)
_BY_TABLE: dict[DecisionKind, Callable[[Sequence[int], Table], Answer]] = {
    DecisionKind.STACK: best_stack, DecisionKind.DUEL: best_duel}
_YES = frozenset({DecisionKind.UNO, DecisionKind.CATCH, DecisionKind.JUMP_IN})
GREEDY_BLIND = frozenset({DecisionKind.PLAY_DRAWN, *_YES})
_PLAY, _PLAY_DRAWN = DecisionKind.PLAY, DecisionKind.PLAY_DRAWN     # an Enum member read from its class costs a call
"""The kinds the greedy bot answers from the options alone (the engine passes no Glance)."""


class GreedyAgent(Agent):
    """Keeps wilds for when nothing else plays, dumps its highest-point card, attacks the
    leader (the opponent with fewest cards) with draw cards, skips and targeted effects (each
    effect valued by :data:`VALUES`), stacks whenever it can, never forgets UNO and always
    catches. It never draws on its generator.

    Its answers read only the fields of a :class:`~deckgen.rules.decision.Glance`: as a seat's
    policy it is asked through :meth:`quick` with the seat's glance (``game.glance(p)``), or
    nothing for a question it answers from the options alone: the same answers as ``decide``,
    for less. A subclass that changes a per-kind method is asked through ``decide`` instead
    (``__init_subclass__``)."""

    name = "greedy"

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if any(k.value in vars(cls) for k in DecisionKind) or "decide" in vars(cls):
            if cls.play_turn is GreedyAgent.play_turn:      # (unless the subclass answers as a policy itself)
                cls.play_turn = Agent.play_turn             # type: ignore[method-assign]
            if cls.answer is GreedyAgent.answer:
                cls.answer = Agent.answer                   # type: ignore[method-assign]

    def quick(self, kind: DecisionKind, options: Sequence[int], about: int, seen: Glance | None) -> Answer:
        """decide() from the decision's kind, options and ``about``, and what the player sees
        (None: a decision with one option, or a kind of :data:`GREEDY_BLIND`)."""
        if kind is _PLAY:
            return options[0] if seen is None else best_play(options, seen)
        if kind in _YES:
            return True
        if kind is _PLAY_DRAWN:
            return min(options, key=_side)
        if seen is None:
            return options[0]
        return _QUICK[kind](options, about, seen)

    def play_turn(self, game: GameView, p: int, faces: list[int], flex: list[int], passable: bool) -> int | None:
        moves = as_moves(faces, flex)
        return best_play(moves, game.glance(p)) if len(moves) > 1 else moves[0]     # quick(PLAY, ...), directly

    def answer(self, game: GameView, p: int, kind: DecisionKind, options: Sequence[int], passable: bool,
               about: int, value: int) -> Answer:
        by_table = _BY_TABLE.get(kind)
        if by_table is not None and len(options) > 1:     # quick()'s answer, from the options and the table
            return by_table(options, game.table)
        seen = None if kind in GREEDY_BLIND or len(options) < 2 else game.glance(p)
        return self.quick(kind, options, about, seen)

    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return best_play(d.options, o)

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return min(d.options, key=_side)

    def stack(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        return best_stack(d.options, o.table)

    def challenge(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return o.hand_sizes[d.about] >= CHALLENGE_CARDS

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return best_color(o)

    def target(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return best_target(d.options, o)

    def duel(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """A plain discard of its highest-point card showing the number, keeping duel cards;
        else a counter-duel."""
        return best_duel(d.options, o.table)


def _leader(o: Seen) -> int:
    """The rival with the fewest cards (the first of them), or the player when none is left."""
    p, sizes, alive = o.player, o.hand_sizes, o.alive
    if False not in alive and len(alive) > 1:   # every seat in: the first fewest among the others, in C
        fewest = min(sizes[:p] + sizes[p + 1:])
        q = sizes.index(fewest)
        return q if q != p else sizes.index(fewest, p + 1)
    leader, fewest = p, -1
    for q in range(len(alive)):
        if q != p and alive[q] and (fewest < 0 or sizes[q] < fewest):
            leader, fewest = q, sizes[q]
    return leader
