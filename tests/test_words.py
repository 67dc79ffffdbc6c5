"""Every localized word is in deckgen/words.py, and every table there holds every language.

The modules that write text look their words up in deckgen.words; a language's entry missing a
label, or a sentence whose fields differ from the other language's, would show up only in that
language's output, so both are checked here for every table.
"""

import ast
import string
from collections.abc import Mapping
from pathlib import Path

import pytest

from deckgen import words
from deckgen.rules.scenario import Scripted, situation

# tables keyed by the words themselves (each language has its own)
OWN_KEYS = {"CLAIMED_NUMBERS"}
TABLES = {name: t for name, t in vars(words).items()
          if isinstance(t, Mapping) and t and set(t) <= set(words.LANGS) and not name.startswith("_")}


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_the_language_tables_are_found():
    assert {"RULEBOOK_UI", "SENTENCES", "PLAY_UI", "REPORT_WORDS", "COVER_TEXT", "FACE_WORDS",
            "STARTER_MANIFEST"} <= set(TABLES)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_every_table_holds_every_language_with_the_same_keys_and_fields(name):
    table = TABLES[name]
    assert set(table) == set(words.LANGS), name
    es, en = table["es"], table["en"]
    if isinstance(es, Mapping) and name not in OWN_KEYS:
        assert set(es) == set(en), (name, set(es) ^ set(en))
        for key, text in en.items():
            if isinstance(text, str):
                assert _fields(text) == _fields(es[key]), (name, key)
            elif isinstance(text, tuple) and all(isinstance(x, str) for x in text):
                assert [_fields(x) for x in text] == [_fields(x) for x in es[key]], (name, key)


def test_every_primitives_phrase_has_the_same_keys_and_fields_in_both_languages():
    for op, phrase in words.PHRASES.items():
        assert set(phrase.en) == set(phrase.es), op
        for key in phrase.en:
            assert _fields(phrase.en[key]) == _fields(phrase.es[key]), (op, key)


def test_deckgen_words_imports_nothing_from_deckgen():
    tree = ast.parse(Path(words.__file__).read_text(encoding="utf-8"))
    imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)] + \
               [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [m for m in imported if m and m.split(".")[0] == "deckgen"]


def test_a_scripted_player_or_situation_with_an_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError):
        Scripted(chalenge=True)
    with pytest.raises(TypeError):
        situation("classic", [["red-1"], ["blue-1"]], top="red-5", colour_id="red")
    assert Scripted(challenge=True, uno=False).answers.challenge
