"""No cache a caller must clear by hand: the compiled table's legality memo is the table's own.

A pickled table (what a cluster or a spawned worker receives) leaves the memo behind and fills
it again as it plays (tests/test_engine_record.py checks the copy plays the same game); forked
workers inherit the memo this process filled. Either way the games are the same.
"""

import pickle

from deckgen import manifest
from deckgen.rules.bots import make as make_agent
from deckgen.rules.engine import Game
from deckgen.rules.simulate import PlayOptions, run
from deckgen.rules.table import Table, compile_deck
from deckgen.runner import Work, run_tasks


def _prepare(table: Table) -> Table:
    return table


def _cache_after_a_game(table: Table, seed: int) -> tuple[int, int]:
    """How many legality entries the worker's table held before and after one game."""
    before = len(table.cache)
    Game(table, 3, seed, make_agent("random"), record=False).run()
    return before, len(table.cache)


def test_a_table_sent_to_a_worker_arrives_without_its_memo_and_fills_it_again():
    t = compile_deck(manifest.load_deck("classic"))
    Game(t, 3, 1, make_agent("random"), record=False).run()
    warm = len(t.cache)
    assert warm
    sent = pickle.loads(pickle.dumps(t))            # what a cluster worker unpickles
    assert sent.cache == {}
    (_, (before, after)), = run_tasks(Work(_prepare, sent, _cache_after_a_game), [2], workers=1)
    assert before == 0 and after > 0
    assert len(t.cache) == warm                     # the sender's own memo is untouched


def test_forked_workers_play_the_same_games_from_a_warm_table_as_from_a_cold_one():
    deck = manifest.load_deck("classic")
    warm = compile_deck(deck)
    options = PlayOptions(games=60, workers=2, seed=5)
    run(warm, [3], PlayOptions(games=4, workers=1, seed=9))     # fills the memo in this process
    filled = len(warm.cache)
    assert filled
    assert run(warm, [3], options) == run(compile_deck(deck), [3], options)
    assert len(warm.cache) >= filled                # nobody cleared it
