"""The rulebook's small words, looked up in the deck's language: labels, counts, lists, names.

The words themselves are in :mod:`deckgen.words` (``RULEBOOK_UI``, ``SYMBOL_NAMES``,
``NUMBER_NAMES``). A language missing there falls back to English, so a deck in another
language still gets a complete (English) rulebook rather than an error.
"""

from __future__ import annotations

from deckgen.model import Deck
from deckgen.words import NUMBER_NAMES, RULEBOOK_UI


def lang_of(lang: str) -> str:
    return lang if lang in RULEBOOK_UI else "en"


def ui(lang: str, key: str, **kw: object) -> str:
    return RULEBOOK_UI[lang_of(lang)][key].format(**kw)


def cards_word(lang: str, n: int) -> str:
    """"4 cards" / "1 card"."""
    return ui(lang, "one_card") if n == 1 else ui(lang, "cards_total", n=n)


def number_word(lang: str, n: int) -> str:
    """"two" / "dos" up to ten, digits above."""
    words = NUMBER_NAMES[lang_of(lang)]
    return words[n] if 0 <= n < len(words) else str(n)


def join(items: list[str], lang: str, word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {ui(lang, word)} " + items[-1]


def power_name(deck: Deck, lang: str) -> str:
    for comp in deck.components:
        if comp.kind == "power":
            return comp.names.get(lang)
    return ui(lang, "power_card")


def color_name(deck: Deck, color_id: str, lang: str) -> str:
    return deck.palette.get(color_id).names.get(lang)


def values_text(values: tuple[int, ...], lang: str) -> str:
    """(1,2,3,4,9) -> "1–4, 9"."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    parts = [str(r[0]) if len(r) == 1 else (f"{r[0]}, {r[1]}" if len(r) == 2 else f"{r[0]}–{r[-1]}")
             for r in runs]
    return join(parts, lang)
