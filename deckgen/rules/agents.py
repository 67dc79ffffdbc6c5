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


class Agent:
    """A bot whose answers are one method per decision kind."""

    name = "base"

    def decide(self, d: Decision, o: Observation, rng: random.Random) -> Answer:
        return getattr(self, d.kind.value)(d, o, rng)

    def play(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """A legal move, or None to draw instead (legal only when ``d.passable``)."""
        return d.options[rng.randrange(len(d.options))]

    def play_drawn(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """The card just drawn is playable (options: its sides): play it, or None to keep it."""
        return d.options[0] if len(d.options) == 1 else d.options[rng.randrange(len(d.options))]

    def stack(self, d: Decision, o: Observation, rng: random.Random) -> int | None:
        """A penalty waits: a draw card to stack on it, or None to draw it all."""
        return d.options[rng.randrange(len(d.options))]

    def challenge(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return rng.random() < 0.5

    def color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return d.options[rng.randrange(len(d.options))]

    def roulette_color(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.color(d, o, rng)

    def target(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return d.options[rng.randrange(len(d.options))]

    def swap(self, d: Decision, o: Observation, rng: random.Random) -> int:
        return self.target(d, o, rng)

    def steal(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """The player to take a random card from."""
        return self.target(d, o, rng)

    def duel(self, d: Decision, o: Observation, rng: random.Random) -> int:
        """An answer to a duel on ``d.value``: face*2 discards a card showing the number,
        face*2+1 plays a duel card as a counter-duel."""
        return d.options[rng.randrange(len(d.options))]

    def uno(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return True

    def jump_in(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        """A card identical to the top card may be played out of turn (jump-in rule)."""
        return True

    def catch(self, d: Decision, o: Observation, rng: random.Random) -> bool:
        return True


def _pick(opts: Sequence, rng: random.Random) -> Answer:
    return opts[int(rng.random() * len(opts))]


def _pick_drawn(opts: Sequence, rng: random.Random) -> Answer:
    return opts[0] if len(opts) == 1 else opts[int(rng.random() * len(opts))]


def _uniform(opts: Sequence, rng: random.Random) -> Answer:
    return opts[rng.randrange(len(opts))]


def _say_uno(opts: Sequence, rng: random.Random) -> Answer:
    return rng.random() >= 0.1


def _half(opts: Sequence, rng: random.Random) -> Answer:
    return rng.random() < 0.5


# the random bot's choice per decision kind, from the options and the generator alone
RANDOM_CHOICE: dict[DecisionKind, Callable[[Sequence, random.Random], Answer]] = {
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


def _v_draw(v: View, e: Effect) -> float:
    attack = 300 if v.leader_next and e.lose_turn and v.o.table.draw_val[v.move] else 0
    return 10 * (e.n or 0) + attack


def _v_everyone(v: View, e: Effect) -> float:
    return 10 * (e.n or 0)


def _v_skip(v: View, e: Effect) -> float:
    return 300 if v.leader_next else 0      # attack the leader


def _v_target(v: View, e: Effect) -> float:
    return 0 if v.leader_next else 10       # a chosen victim: the leader, wherever they sit


def _v_discard_color(v: View, e: Effect) -> float:
    t = v.o.table
    c = t.color[v.move >> 1]
    return 15 * sum(1 for f in v.o.hand if c >= 0 and t.color[f] == c)


def _v_swap(v: View, e: Effect) -> float:
    return 10 * (len(v.o.hand) - v.o.hand_sizes[v.leader])


def _v_roulette(v: View, e: Effect) -> float:
    return 150 if v.leader_next else 20


def _v_steal(v: View, e: Effect) -> float:
    return 60 if v.o.hand_sizes[v.leader] <= 2 else -15


def _v_again(v: View, e: Effect) -> float:
    return 40


def _v_duel(v: View, e: Effect) -> float:
    return 20


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

    def play(self, d, o, rng):
        t = o.table
        leader = _leader(o)
        view = View(o, -1, leader, leader == o.next_player())
        moves = d.options
        best, best_score = moves[0], None
        for m in moves:
            f = m >> 1
            score = t.points[f] * 2
            if t.mcat[m] == 2:
                score -= 200                      # keep wilds
            if m & 1:
                score -= 5                        # keep the Power card green when it costs nothing
            effects = t.effects[m]
            if effects:
                v = view._replace(move=m)
                score += sum(VALUES[e.op](v, e) for e in effects)
            if best_score is None or score > best_score:
                best, best_score = m, score
        return best

    def play_drawn(self, d, o, rng):
        return min(d.options, key=lambda m: m & 1)

    def stack(self, d, o, rng):
        return min(d.options, key=lambda m: o.table.draw_val[m])

    def challenge(self, d, o, rng):
        return o.hand_sizes[d.about] >= 5

    def color(self, d, o, rng):
        t = o.table
        counts = [0] * len(t.colors)
        for f in o.hand:
            c = t.color[f]
            if c >= 0:
                counts[c] += 1
        return max(range(len(counts)), key=lambda c: (counts[c], -c))

    def target(self, d, o, rng):
        return min(d.options, key=lambda q: (o.hand_sizes[q], q))

    def duel(self, d, o, rng):
        """A plain discard of its highest-point card showing the number, keeping duel cards;
        else a counter-duel."""
        t = o.table
        plain = [a for a in d.options if not a & 1]
        if plain:
            return max(plain, key=lambda a: (not t.duel[a >> 1], t.points[a >> 1], -a))
        return d.options[0]


def _leader(o: Observation) -> int:
    p = o.player
    rivals = [q for q in range(len(o.alive)) if q != p and o.alive[q]]
    return min(rivals, key=lambda q: (o.hand_sizes[q], q)) if rivals else p


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str) -> Agent:
    return AGENTS[name]()
