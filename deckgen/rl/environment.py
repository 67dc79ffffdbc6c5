"""A deck as a PettingZoo AEC environment (docs/rl.md).

Each agent is a seat (``player_0`` ... ``player_{n-1}``); the agent to act is the one whose
decision the engine waits for (:mod:`deckgen.rules.decision`), so decisions out of turn (a
challenge, a UNO call, a catch, a jump-in) come to the right agent. Every seat is driven from
outside: the same engine, rules and rule options as ``deckgen simulate``.

Actions are one flat ``Discrete`` space (the layout is :class:`Actions`), with an action mask
of the answers legal now; observations are what that seat's player may see (its own hand and
the table, never another hand) as one vector (the layout is :class:`Features`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from deckgen.errors import DeckgenError, error
from deckgen.rules.decision import YES_NO, Decision, DecisionKind, Observation
from deckgen.rules.record import Outcome
from deckgen.rules.table import Table

KINDS = tuple(DecisionKind)
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
KIND_NAME = {k: k.value for k in KINDS}     # (an Enum member's .value is a Python-level property)
HIGH = 1000.0              # the observation's upper bound (card counts, pile sizes, turns stay below it)


class Actions:
    """The flat action layout of a table: ``[0, moves)`` a move (``face*2 + side``: a card to
    play, stack, play after drawing, or answer a duel with), then ``pass`` (draw instead, keep
    the drawn card, take the penalty), ``yes``, ``no``, one action per colour and one per seat
    (a target, a swap, a steal)."""

    def __init__(self, table: Table, players: int):
        self.moves = 2 * table.n_faces
        self.passing = self.moves
        self.yes = self.moves + 1
        self.no = self.moves + 2
        self.color0 = self.moves + 3
        self.seat0 = self.color0 + len(table.colors)
        self.size = self.seat0 + players
        K = DecisionKind
        self._offsets = {K.COLOR: self.color0, K.ROULETTE_COLOR: self.color0, K.TARGET: self.seat0,
                         K.SWAP: self.seat0, K.STEAL: self.seat0}

    def of(self, d: Decision, answer: Any) -> int:
        """The action of a decision's answer."""
        if answer is None:
            return self.passing
        if d.kind in YES_NO:
            return self.yes if answer else self.no
        if d.kind in (DecisionKind.COLOR, DecisionKind.ROULETTE_COLOR):
            return self.color0 + int(answer)
        if d.kind in (DecisionKind.TARGET, DecisionKind.SWAP, DecisionKind.STEAL):
            return self.seat0 + int(answer)
        return int(answer)

    def answer(self, d: Decision, action: int) -> Any:
        """The decision's answer that an action stands for (it may be illegal: see :meth:`mask`)."""
        if action == self.passing:
            return None
        if d.kind in YES_NO:
            return True if action == self.yes else False if action == self.no else -1
        if d.kind in (DecisionKind.COLOR, DecisionKind.ROULETTE_COLOR):
            return action - self.color0 if self.color0 <= action < self.seat0 else -1
        if d.kind in (DecisionKind.TARGET, DecisionKind.SWAP, DecisionKind.STEAL):
            return action - self.seat0 if action >= self.seat0 else -1
        return action if action < self.moves else -1

    def mask(self, d: Decision | None) -> np.ndarray:
        m = np.zeros(self.size, dtype=np.int8)
        if d is None:
            return m
        offset = self._offsets.get(d.kind, 0)
        if d.kind in YES_NO:
            m[self.yes] = m[self.no] = 1
        else:                                   # moves are actions as they are, colours and seats shifted
            for a in d.options:                 # (a few: one by one is quicker than an index array)
                m[offset + a] = 1
        if d.passable:
            m[self.passing] = 1
        return m


class Features:
    """The observation vector of one seat (all counts, never another hand), in this order:

    ``hand`` (faces: copies held), ``played`` (faces: copies on the discard pile), ``top`` (the
    top card's move, one-hot), ``color`` (the current colour, one-hot; none when colourless),
    ``seats`` (per seat, counted from this one in seat order: cards held, still in, Power card
    green, lost turns owed), ``table`` (direction, draw pile, discard pile, turns, the waiting
    penalty's total, whether it waits for this seat, the duel's number + 1, a missed UNO
    call open to be caught), ``decision`` (its kind, one-hot)."""

    def __init__(self, table: Table, players: int):
        self.faces = table.n_faces
        self.moves = 2 * table.n_faces
        self.colors = len(table.colors)
        self.players = players
        self.parts = {"hand": self.faces, "played": self.faces, "top": self.moves, "color": self.colors,
                      "seats": 4 * players, "table": 8, "decision": len(KINDS)}
        self.size = sum(self.parts.values())
        # the discard pile counted once: (game, its discard list, reshuffles, k, counts of discard[:k])
        self._played: tuple[Any, list[int], int, int, np.ndarray] | None = None

    def played(self, g: Any) -> np.ndarray:
        """The copies of each face on g's discard pile. Between two reshuffles a pile only grows,
        by a card on top or one slipped under the top card, so all but its top card stay where
        they were: those are counted once, and only what came since is added."""
        discard = g.discard
        c = self._played
        if c is not None and c[0] is g and c[1] is discard and c[2] == g.reshuffles and len(discard) > c[3]:
            k, counts = c[3], c[4]
        else:
            k, counts = 0, np.zeros(self.faces, dtype=np.float32)
        top = len(discard) - 1
        for face in discard[k:top]:
            counts[face] += 1
        self._played = (g, discard, g.reshuffles, top, counts)
        out: np.ndarray = counts.copy()
        if top >= 0:
            out[discard[top]] += 1
        return out

    def vector(self, o: Observation, played: list[int], d: Decision | None) -> np.ndarray:
        v = np.zeros(self.size, dtype=np.float32)
        at = 0
        for f in o.hand:
            v[at + f] += 1
        at += self.faces
        for f in played:
            v[at + f] += 1
        at += self.faces
        if o.top >= 0:
            v[at + o.top] = 1
        at += self.moves
        if o.color >= 0:
            v[at + o.color] = 1
        at += self.colors
        n = self.players
        for k in range(n):
            q = (o.player + k) % n
            v[at + 4 * k: at + 4 * k + 4] = (o.hand_sizes[q], o.alive[q], o.power[q], o.owed[q])
        at += 4 * n
        pen = o.penalty
        duel = getattr(o.duel, "value", -1) if o.duel is not None else -1
        v[at: at + 8] = (1 if o.direction > 0 else 0, o.draw_pile, o.discard_pile, min(o.turns, HIGH),
                         pen.total, 1 if pen.victim == o.player else 0, duel + 1, 1 if o.uno_open >= 0 else 0)
        at += 8
        if d is not None:
            v[at + KINDS.index(d.kind)] = 1
        return v

    def of_game(self, g: Any, p: int, d: Decision | None) -> np.ndarray:
        """``vector(g.observation(p), g.discard, d)``, read straight from what seat p sees of the
        game (its own hand, the piles, the table), without building the observation."""
        v = np.zeros(self.size, dtype=np.float32)
        f = self.faces
        if g.hands[p]:
            v[:f] = np.bincount(g.hands[p], minlength=f)
        if g.discard:
            v[f:2 * f] = self.played(g)
        at = 2 * f
        if g.top >= 0:
            v[at + g.top] = 1
        at += self.moves
        if g.pile_key != -1 and g.color >= 0:
            v[at + g.color] = 1
        at += self.colors
        n = self.players
        hands, alive, power, owed = g.hands, g.alive, g.power, g.owed
        seats = [x for q in [*range(p, n), *range(p)] for x in (len(hands[q]), alive[q], power[q], owed[q])]
        waiting = g.waiting
        total, victim = (waiting.total, waiting.victim) if g.penalty else (0, -1)
        duel = g.duel.value if g.duel is not None else -1
        seats += (g.direction > 0, len(g.draw_pile), len(g.discard), min(g.turns, HIGH),
                  total, victim == p, duel + 1, g.uno_open >= 0)
        v[at:at + 4 * n + 8] = seats                # the seats and the table in one go
        at += 4 * n + 8
        if d is not None:
            v[at + KIND_INDEX[d.kind]] = 1
        return v


def _deck(deck: str | Path | Any, rule_options: Mapping[str, Any]) -> Any:
    import dataclasses

    from deckgen.manifest import load_deck
    from deckgen.model import Deck

    if isinstance(deck, (str, Path)):
        d = load_deck(deck)
    elif isinstance(deck, Deck):
        d = deck
    else:
        raise DeckgenError(error("argument", "deck", f"{deck!r} is not a deck",
                                 hint="give a bundled deck's name ('classic'), a manifest's path or a loaded Deck"))
    if rule_options:
        d = dataclasses.replace(d, rule_options=d.rule_options.replace(**rule_options))
    return d


def _check_arguments(deck: Any, players: object, seed: object, render_mode: object) -> None:
    """Every bad argument at once, as a DeckgenError naming it and what it takes."""
    problems = []
    if isinstance(players, bool) or not isinstance(players, int) \
            or not deck.players_min <= players <= deck.players_max:
        problems.append(error("argument", "players", f"{players!r} is not a table size of this deck",
                              hint=f"{deck.id} plays {deck.players_min} to {deck.players_max} players"))
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        problems.append(error("argument", "seed", f"{seed!r} is not a seed", hint="give an int, or None"))
    if render_mode not in (None, "ansi"):
        problems.append(error("argument", "render_mode", f"{render_mode!r} is not a render mode",
                              hint="render modes: 'ansi', or None"))
    if problems:
        raise DeckgenError(problems)


class DeckEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information: AECEnv is Any
    """One hand of a deck per episode, as a PettingZoo AEC environment.

    ``env(deck, players=4, seed=None, render_mode=None, record=False, **rule_options)``: ``deck``
    is a bundled deck's name, a manifest's path or a loaded deck; ``players`` within the deck's
    table sizes; ``record``: keep the hand's log (``env.game.log``, for replays); rule options as
    in ``deckgen simulate`` (``stacking="same-kind"``, ``mercy_limit=25``, ...); every bad
    argument is a DeckgenError naming it. The reward is +1 for the seat that
    wins the hand and -1 for every other seat; a hand that stalls or reaches the turn cap ends
    with 0 for all (a stall ends it as terminated, the cap as truncated)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "deckgen_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, deck: str | Path | Any = "classic", players: int = 4, seed: int | None = None,
                 render_mode: str | None = None, record: bool = False, **rule_options: Any):
        super().__init__()
        from deckgen.rules.table import compile_deck

        self.deck = _deck(deck, rule_options)
        _check_arguments(self.deck, players, seed, render_mode)
        self.record = record
        self.table = compile_deck(self.deck)
        self.n = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.layout = Actions(self.table, players)
        self.features = Features(self.table, players)
        obs = spaces.Dict({"observation": spaces.Box(0.0, HIGH, (self.features.size,), np.float32),
                           "action_mask": spaces.Box(0, 1, (self.layout.size,), np.int8)})
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._seeds = random.Random(seed)
        self.game: Any = None
        self.decision: Decision | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        from deckgen.rules.engine import Game

        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game(self.table, self.n, self._seeds.getrandbits(64), None, record=self.record).start()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._advance()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.decision
        assert d is not None
        answer = self.layout.answer(d, int(action))
        if not d.legal(answer):
            from deckgen.rules.decision import illegal

            raise illegal(f"action {action} is not legal for {agent} now ({d.kind.value})",
                          hint="choose an action whose entry in observation['action_mask'] is 1")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply(answer, d.player, d.serial)
        self._advance()

    def _advance(self) -> None:
        """After a step: the next agent to act and its info, or the end's rewards. Rewards stay 0
        until the end, and only the agent that acted and the one to act have their infos changed."""
        g = self.game
        d = g.decision
        self.decision = d
        if d is None:
            capped = g.outcome is Outcome.CAPPED
            for i, a in enumerate(self.agents):
                if g.outcome is Outcome.FINISHED:
                    self.rewards[a] = 1.0 if g.winner == i else -1.0
                self.terminations[a] = not capped
                self.truncations[a] = capped
                self.infos[a] = {"outcome": g.outcome, "winner": g.winner}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        before = getattr(self, "agent_selection", None)
        if before in self.infos:
            self.infos[before] = {}
        self.agent_selection = self.possible_agents[d.player]
        self.infos[self.agent_selection] = {"decision": KIND_NAME[d.kind]}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        p = self.possible_agents.index(agent)
        d = self.decision if self.decision is not None and self.decision.player == p else None
        return {"observation": self.features.of_game(self.game, p, d), "action_mask": self.layout.mask(d)}

    # ---------------------------------------------------------------- for bots and people
    def deckgen_view(self, agent: str) -> tuple[Decision | None, Observation]:
        """The pending decision of this agent (None when it has none) and its deckgen
        :class:`~deckgen.rules.decision.Observation`: what a deckgen bot decides from."""
        p = self.possible_agents.index(agent)
        d = self.decision if self.decision is not None and self.decision.player == p else None
        return d, self.game.observation(p)

    def action_of(self, agent: str, answer: Any) -> int:
        """The action of a deckgen answer to this agent's pending decision."""
        d, _ = self.deckgen_view(agent)
        if d is None:
            raise ValueError(f"{agent} has no decision pending")
        return self.layout.of(d, answer)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        t = self.table
        top = t.faces[g.top >> 1].id if g.top >= 0 else "-"
        sizes = " ".join(f"{a}:{len(h)}" for a, h in zip(self.possible_agents, g.hands))
        state = g.outcome or (self.decision.kind.value if self.decision else "-")
        colour = t.colors[g.color] if 0 <= g.color < len(t.colors) else "-"     # the palette's id, as the faces' ids
        return f"turn {g.turns} top {top} colour {colour} | {sizes} | {self.agent_selection}: {state}"

    def close(self) -> None:
        self.game = None


def env(deck: str | Path | Any = "classic", players: int = 4, **kwargs: Any) -> DeckEnv:
    """The environment of a deck (``env("classic", players=4, stacking="same-kind")``)."""
    return DeckEnv(deck, players, **kwargs)
