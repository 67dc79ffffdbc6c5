"""Players: a uniformly random legal player and a simple greedy one, both :class:`Bot`\\ s.

A bot answers the engine's decisions (:mod:`deckgen.rules.decision`) from the decision, its own
observation and the random generator it is handed (the game's seeded one by default, so a game
stays reproducible). :class:`Agent` is a convenient base: ``decide`` calls the method named
after the decision's kind (``play``, ``color``, ``duel``, ...), each with a reasonable default.
Write your own by subclassing it and registering it in :data:`AGENTS` (or pass an instance to
the engine directly); any object with ``name`` and ``decide`` will do.

Moves are ints: ``face * 2 + side`` (side 1 = the card's flex side).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from deckgen.effects import Effect
from deckgen.rules.decision import Answer, Decision, DecisionKind, Observation
from deckgen.rules.table import WLD


class Agent:
    """A bot whose answers are one method per decision kind."""

    name = "base"

    def decide(self, d: Decision, o: Observation, rng: random.Random) -> Answer:
        answer: Callable[[Decision, Observation, random.Random], Answer] = getattr(self, d.kind.value)
        return answer(d, o, rng)

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
    return opts[rng.randrange(len(opts))]


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
    (:data:`RANDOM_CHOICE`), so the engine does not build an observation for it."""

    name = "random"

    def decide(self, d: Decision, o: Observation | None, rng: random.Random) -> Answer:
        return RANDOM_CHOICE[d.kind](d.options, rng)

    def choose(self, d: Decision, rng: random.Random) -> Answer:
        return RANDOM_CHOICE[d.kind](d.options, rng)


class View(NamedTuple):
    """What the greedy agent's valuation of one effect may look at."""

    o: Observation
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
    return PER_CARD * (e.n or 0) + attack


def _v_everyone(v: View, e: Effect) -> float:
    return PER_CARD * (e.n or 0)


def _v_skip(v: View, e: Effect) -> float:
    return ATTACK if v.leader_next else 0      # attack the leader


def _v_target(v: View, e: Effect) -> float:
    return 0 if v.leader_next else TARGET_OTHER   # a chosen victim: the leader, wherever they sit


def _v_discard_color(v: View, e: Effect) -> float:
    t = v.o.table
    c = t.color[v.move >> 1]
    return PER_COLOR_CARD * sum(1 for f in v.o.hand if c >= 0 and t.color[f] == c)


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


class GreedyAgent(Agent):
    """Keeps wilds for when nothing else plays, dumps its highest-point card, attacks the
    leader (the opponent with fewest cards) with draw cards, skips and targeted effects (each
    effect valued by :data:`VALUES`), stacks whenever it can, never forgets UNO and always
    catches."""

    name = "greedy"

    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        t = o.table
        leader = _leader(o)
        view = View(o, -1, leader, leader == o.next_player())
        moves: tuple[int, ...] = d.options
        best, best_score = moves[0], None
        for m in moves:
            f = m >> 1
            score: float = t.points[f] * POINTS_WEIGHT
            if t.mcat[m] == WLD:
                score += KEEP_WILD
            if m & 1:
                score += KEEP_POWER
            effects = t.effects[m]
            if effects:
                v = view._replace(move=m)
                score += sum(VALUES[e.op](v, e) for e in effects)
            if best_score is None or score > best_score:
                best, best_score = m, score
        return best

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        moves: tuple[int, ...] = d.options
        return min(moves, key=lambda m: m & 1)

    def stack(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        moves: tuple[int, ...] = d.options
        return min(moves, key=lambda m: o.table.draw_val[m])

    def challenge(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return o.hand_sizes[d.about] >= CHALLENGE_CARDS

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        t = o.table
        counts = [0] * len(t.colors)
        for f in o.hand:
            c = t.color[f]
            if c >= 0:
                counts[c] += 1
        return max(range(len(counts)), key=lambda c: (counts[c], -c))

    def target(self, d: Decision, o: Observation, rng: random.Random) -> int:
        seats: tuple[int, ...] = d.options
        return min(seats, key=lambda q: (o.hand_sizes[q], q))

    def duel(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """A plain discard of its highest-point card showing the number, keeping duel cards;
        else a counter-duel."""
        t = o.table
        answers: tuple[int, ...] = d.options
        plain = [a for a in answers if not a & 1]
        if plain:
            return max(plain, key=lambda a: (not t.duel[a >> 1], t.points[a >> 1], -a))
        return answers[0]


def _leader(o: Observation) -> int:
    p = o.player
    rivals = [q for q in range(len(o.alive)) if q != p and o.alive[q]]
    return min(rivals, key=lambda q: (o.hand_sizes[q], q)) if rivals else p


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str) -> Agent:
    return AGENTS[name]()
