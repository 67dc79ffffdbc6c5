"""Your deck as a reinforcement-learning environment: ``from deckgen.rl import env``.

``env("classic", players=4, **rule_options)`` returns a PettingZoo AEC environment of any deck
(a bundled name or a manifest's path); docs/rl.md describes its observations, actions and
rewards. It needs the optional extra: ``pip install 'deckgen[rl]'`` (PettingZoo, Gymnasium,
NumPy); nothing else in deckgen does.
"""

from __future__ import annotations

from typing import Any

from deckgen.errors import DeckgenError, error


def env(deck: Any = "classic", players: int = 4, **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of a deck (:class:`deckgen.rl.environment.DeckEnv`)."""
    try:
        from deckgen.rl.environment import DeckEnv
    except ImportError as exc:
        raise DeckgenError(error("rl", "deckgen.rl", f"the environment needs PettingZoo ({exc.name} is missing)",
                                 hint="pip install 'deckgen[rl]'")) from None
    return DeckEnv(deck, players, **kwargs)


__all__ = ["env"]
