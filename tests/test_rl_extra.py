"""Without the optional 'rl' extra, deckgen.rl says what to install (docs/rl.md)."""

import sys

import pytest

from deckgen.errors import DeckgenError


def test_without_pettingzoo_env_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)     # import pettingzoo -> ImportError
    monkeypatch.delitem(sys.modules, "deckgen.rl.environment", raising=False)
    from deckgen.rl import env

    with pytest.raises(DeckgenError) as exc:
        env("classic")
    assert "deckgen[rl]" in str(exc.value)


def test_ansi_render_names_the_colour_in_play():
    """The line names the colour by its palette id ('blue'), as the top card's id does, not by
    its index in the colour order."""
    from deckgen.rl import env

    e = env("classic", players=2, render_mode="ansi")
    seed = next(n for n in range(100) if e.reset(seed=n) is None and e.game.color >= 0)     # a coloured start card
    e.reset(seed=seed)
    colour = e.game.table.colors[e.game.color]
    assert f" colour {colour} |" in e.render() and colour in ("red", "yellow", "green", "blue")
