"""The bots deckgen knows by name, in one registry: ``--agent`` of ``simulate`` and ``report``,
the players of ``check``'s verdict and of ``tune``, ``--bots`` of ``play``, and every worker that
makes one (a worker is sent a name, never a bot)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from deckgen.errors import DeckgenError, error
from deckgen.rules.agents import Agent, GreedyAgent, RandomAgent
from deckgen.rules.expert import THINK, ExpertAgent

AGENTS: Mapping[str, type[Agent]] = MappingProxyType(
    {"random": RandomAgent, "greedy": GreedyAgent, "expert": ExpertAgent})
"""Every bot by its name (docs/engine.md, "Writing a bot")."""


def check(name: str, option: str = "--agent") -> None:
    """DeckgenError (exit 2) for a name no bot is registered under, naming the option."""
    if name not in AGENTS:
        raise DeckgenError(error("agent", option, f"unknown bot '{name}'", hint="bots: " + ", ".join(AGENTS)))


def make(name: str, think: int = THINK) -> Agent:
    """A new bot of this name: the expert with ``think`` play-outs per decision."""
    check(name)
    cls = AGENTS[name]
    return ExpertAgent(think) if cls is ExpertAgent else cls()


def wants_events(agents: Agent | Sequence[Any] | Any) -> bool:
    """Whether any of these bots needs the game's public events (the game must keep its log)."""
    bots = agents if isinstance(agents, (list, tuple)) else [agents]
    return any(getattr(b, "wants_events", False) for b in bots)


__all__ = ["AGENTS", "check", "make", "wants_events"]
