"""Players: a uniformly random legal player and a simple greedy one, both pluggable.

An agent answers the engine's questions; every random choice it makes uses the game's seeded
``g.rng``, so a game stays reproducible. Write your own by subclassing :class:`Agent` and
registering it in :data:`AGENTS` (or passing an instance to the engine directly).

Moves are ints: ``face * 2 + side`` (side 1 = the card's flex side).
"""

from __future__ import annotations


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

    def duel(self, g, p: int, cards: list[int], value: int) -> int:
        """A face to discard (a card showing the number) or a duel card to answer with."""
        return cards[g.rng.randrange(len(cards))]

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


class GreedyAgent(Agent):
    """Keeps wilds for when nothing else plays, dumps its highest-point card, attacks the
    leader (the opponent with fewest cards) with draw cards, skips and targeted effects,
    stacks whenever it can, never forgets UNO and always catches."""

    name = "greedy"

    def choose_play(self, g, p, moves, may_draw):
        t = g.t
        leader_next = _leader(g, p) == g.step(p)
        best, best_score = moves[0], None
        for m in moves:
            f = m >> 1
            score = t.points[f] * 2
            if t.mcat[m] == 2:
                score -= 200                      # keep wilds
            if m & 1:
                score -= 5                        # keep the Power card green when it costs nothing
            score += 10 * sum(e.n or 0 for e in t.effects[m] if e.op in ("draw", "everyone_draws"))
            if not leader_next and any(e.op == "target" for e in t.effects[m]):
                score += 10                       # a chosen victim: the leader, wherever they sit
            if leader_next and (t.draw_val[m] or any(e.op in ("skip", "skip_all") for e in t.effects[m])):
                score += 300                      # attack the leader
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

    def duel(self, g, p, cards, value):
        t = g.t
        plain = [f for f in cards if not t.duel[f]]
        if plain:
            return max(plain, key=lambda f: (t.points[f], -f))
        return cards[0]


def _leader(g, p: int) -> int:
    rivals = [q for q in range(g.n) if q != p and g.alive[q]]
    return min(rivals, key=lambda q: (len(g.hands[q]), q)) if rivals else p


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str) -> Agent:
    return AGENTS[name]()
