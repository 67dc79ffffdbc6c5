"""The compiled table's legality entries (Table.legal) are the matching rule (Table.matches)
asked of every move, whichever way they are worked out: on every pile state of the bundled
decks, as bytes and as sets of faces whose order of iteration is the one the engine's moves
follow (a set built in face order), and from the pile key alone (LegalCache)."""

import itertools
import pickle

import pytest

from deckgen import manifest
from deckgen.rules.table import COLORLESS_KEY, Table, compile_deck


def _by_matches(t: Table, key: int, sym: int, val: int, color: int) -> tuple:
    """The entry as the matching rule gives it, move by move, each set built in face order."""
    sides = []
    for side in (0, 1):
        sides.append(bytes(bool((not side or t.has_flex[f]) and t.matches(f * 2 + side, key, sym, val, color))
                           for f in range(t.n_faces)))
    return (*sides, *(frozenset(f for f in range(t.n_faces) if b[f]) for b in sides))


def _pile_states(t: Table):
    """(key, symbol, number, colour) of every pile state the deck can show, and the colourless pile."""
    syms = sorted({-1, *t.move_symbol})
    vals = sorted({-1, *t.move_value})
    for sym, val, color in itertools.product(syms, vals, range(-1, len(t.colors))):
        yield t.state_key(sym, val, color, False), sym, val, color
    yield COLORLESS_KEY, -1, -1, -1


@pytest.mark.parametrize("deck", ["classic", "no-mercy", "flex-spectrum"])
def test_legal_entries_are_the_matching_rule_of_every_move(deck):
    t = compile_deck(manifest.load_deck(deck))
    fresh = compile_deck(manifest.load_deck(deck))
    for key, sym, val, color in _pile_states(t):
        want = _by_matches(t, key, sym, val, color)
        got = t.legal(key, sym, val, color)
        assert got == want, (key, sym, val, color)
        assert [list(s) for s in got[2:]] == [list(s) for s in want[2:]]   # the same order of iteration
        assert fresh.cache[key] == want                 # a missing key, worked out from the key alone


def test_a_pickled_table_works_out_its_entries_again():
    t = compile_deck(manifest.load_deck("flex-spectrum"))
    key = t.state_key(-1, 5, 2, False)
    entry = t.cache[key]
    sent = pickle.loads(pickle.dumps(t))
    assert sent.cache == {}
    assert sent.cache[key] == entry and list(sent.cache) == [key]


@pytest.mark.parametrize("deck", ["classic", "no-mercy", "flex-spectrum"])
def test_a_pile_key_gives_back_the_state_it_was_made_from(deck):
    t = compile_deck(manifest.load_deck(deck))
    for key, sym, val, color in _pile_states(t):
        assert t.pile_state(key) == (sym, val, color)
