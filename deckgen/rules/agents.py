"""Players: a uniformly random legal player and a simple greedy one, both pluggable.

An agent answers the engine's questions; every random choice it makes uses the game's seeded
``g.rng``, so a game stays reproducible. Write your own by subclassing :class:`Agent` and
registering it in :data:`AGENTS` (or passing an instance to the engine directly).

Moves are ints: ``face * 2 + side`` (side 1 = the card's flex side).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from deckgen.effects import Effect


class Agent:
    name = "base"

    def choose_play(self, g, p: int, moves: list[int], may_draw: bool) -> int | None:
        """A legal move, or None to draw instead (allowed only when may_draw)."""
        raise NotImplementedError

    def play_drawn(self, g, p: int, moves: list[int], must: bool) -> int | None:
        """The card just drawn is playable (moves: its sides): play it, or None to keep it."""
        return moves[0] if len(moves) == 1 else moves[g.rng.randrange(len(moves))]

    def stack(self, g, p: int, moves: list[int]) -> int | None:
        """A penalty waits: a draw card to stack on it, or None to draw it all."""
        return moves[g.rng.randrange(len(moves))]

    def challenge(self, g, p: int, offender: int) -> bool:
        return g.rng.random() < 0.5

    def choose_color(self, g, p: int) -> int:
        return g.rng.randrange(len(g.t.colors))

    def roulette_color(self, g, p: int) -> int:
        return self.choose_color(g, p)

    def choose_target(self, g, p: int, players: list[int]) -> int:
        return players[g.rng.randrange(len(players))]

    def choose_swap(self, g, p: int, players: list[int]) -> int:
        return self.choose_target(g, p, players)

    def choose_steal(self, g, p: int, players: list[int]) -> int:
        """The player to take a random card from."""
        return self.choose_target(g, p, players)

    def duel(self, g, p: int, answers: list[int], value: int) -> int:
        """An answer to a duel on this number: face*2 discards a card showing the number,
        face*2+1 plays a duel card as a counter-duel."""
        return answers[g.rng.randrange(len(answers))]

    def say_uno(self, g, p: int) -> bool:
        return True

    def jump_in(self, g, p: int, move: int) -> bool:
        """A card identical to the top card may be played out of turn (jump-in rule)."""
        return True

    def catch_uno(self, g, p: int, offender: int) -> bool:
        return True


class RandomAgent(Agent):
    """Plays a uniformly random legal card (draws only when it has none); every other choice
    uniform too. Forgets to say UNO one time in ten and catches others half the time."""

    name = "random"

    def choose_play(self, g, p, moves, may_draw):
        return moves[int(g.rng.random() * len(moves))]

    def play_drawn(self, g, p, moves, must):
        if len(moves) == 1:
            return moves[0]
        return moves[int(g.rng.random() * len(moves))]

    def say_uno(self, g, p):
        return g.rng.random() >= 0.1

    def catch_uno(self, g, p, offender):
        return g.rng.random() < 0.5

    def jump_in(self, g, p, move):
        return g.rng.random() < 0.5


class View(NamedTuple):
    """What the greedy agent's valuation of one effect may look at."""

    g: Any
    p: int
    move: int
    leader: int
    leader_next: bool


def _v_draw(v: View, e: Effect) -> float:
    attack = 300 if v.leader_next and e.lose_turn and v.g.t.draw_val[v.move] else 0
    return 10 * (e.n or 0) + attack


def _v_everyone(v: View, e: Effect) -> float:
    return 10 * (e.n or 0)


def _v_skip(v: View, e: Effect) -> float:
    return 300 if v.leader_next else 0      # attack the leader


def _v_target(v: View, e: Effect) -> float:
    return 0 if v.leader_next else 10       # a chosen victim: the leader, wherever they sit


def _v_discard_color(v: View, e: Effect) -> float:
    t, g = v.g.t, v.g
    c = t.color[v.move >> 1]
    return 15 * sum(1 for f in g.hands[v.p] if c >= 0 and t.color[f] == c)


def _v_swap(v: View, e: Effect) -> float:
    g = v.g
    return 10 * (len(g.hands[v.p]) - len(g.hands[v.leader]))


def _v_roulette(v: View, e: Effect) -> float:
    return 150 if v.leader_next else 20


def _v_steal(v: View, e: Effect) -> float:
    return 60 if len(v.g.hands[v.leader]) <= 2 else -15


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

    def choose_play(self, g, p, moves, may_draw):
        t = g.t
        leader = _leader(g, p)
        view = View(g, p, -1, leader, leader == g.step(p))
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

    def play_drawn(self, g, p, moves, must):
        return min(moves, key=lambda m: m & 1)

    def stack(self, g, p, moves):
        return min(moves, key=lambda m: g.t.draw_val[m])

    def challenge(self, g, p, offender):
        return len(g.hands[offender]) >= 5

    def choose_color(self, g, p):
        counts = [0] * len(g.t.colors)
        for f in g.hands[p]:
            c = g.t.color[f]
            if c >= 0:
                counts[c] += 1
        return max(range(len(counts)), key=lambda c: (counts[c], -c))

    def choose_target(self, g, p, players):
        return min(players, key=lambda q: (len(g.hands[q]), q))

    def choose_swap(self, g, p, players):
        return min(players, key=lambda q: (len(g.hands[q]), q))

    def choose_steal(self, g, p, players):
        return min(players, key=lambda q: (len(g.hands[q]), q))

    def duel(self, g, p, answers, value):
        """A plain discard of its highest-point card showing the number, keeping duel cards;
        else a counter-duel."""
        t = g.t
        plain = [a for a in answers if not a & 1]
        if plain:
            return max(plain, key=lambda a: (not t.duel[a >> 1], t.points[a >> 1], -a))
        return answers[0]


def _leader(g, p: int) -> int:
    rivals = [q for q in range(g.n) if q != p and g.alive[q]]
    return min(rivals, key=lambda q: (len(g.hands[q]), q)) if rivals else p


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str) -> Agent:
    return AGENTS[name]()
