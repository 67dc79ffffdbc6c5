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
