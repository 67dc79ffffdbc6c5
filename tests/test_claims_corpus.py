"""The card-words check measured on a corpus (tests/corpus/card_words.toml, docs/checks.md "What a
card says: measured"): labels, kind names and rules texts in Spanish and English, each marked by
hand with what it claims and whether it claims only what its card does.

The figures docs/checks.md gives are computed here, so the page cannot drift from the check:
``DECKGEN_UPDATE_DOCS=1`` writes them into the page, else a difference fails."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache

import pytest

from deckgen import manifest
from deckgen.claims import claimed, text_untrue, untrue
from deckgen.datafile import read_toml
from deckgen.effects import Effect
from deckgen.model import WILD, Kind, Names
from tests.conftest import ROOT

CORPUS = ROOT / "tests" / "corpus" / "card_words.toml"
DOC = ROOT / "docs" / "checks.md"
START, END = "<!-- corpus figures: tests/test_claims_corpus.py -->", "<!-- end of corpus figures -->"


@dataclass(frozen=True)
class Case:
    lang: str
    on: str
    text: str
    does: str
    claims: frozenset[str]
    honest: bool
    held_out: bool = False      # written after the patterns were tuned, not used to tune them


@lru_cache(maxsize=1)
def corpus() -> tuple[list[Case], dict[str, tuple[Effect, ...]]]:
    data = read_toml(CORPUS)
    effects = {name: tuple(Effect(e) if isinstance(e, str) else Effect(**e) for e in raw)
               for name, raw in data["effects"].items()}
    cases = [Case(c["lang"], c["on"], c["text"], c["does"], frozenset(c["claims"]), c["honest"], c.get("held_out", False))
             for c in data["case"]]
    return cases, effects


@lru_cache(maxsize=1)
def base_deck():
    return manifest.load_deck("classic")


def flagged(case: Case) -> bool:
    """What the check says of a case: whether it finds a claim the card does not do."""
    _, effects = corpus()
    ops = {e.op for e in effects[case.does]}
    deck = base_deck()
    names = Names({case.lang: case.text if case.on == "name" else "Card"})
    kind = Kind("x", WILD if ops & {"choose_color", "roulette"} else "action", names, effects[case.does])
    if case.on == "label":
        kind = replace(kind, label=Names({case.lang: case.text}))
    if case.on == "text":
        return bool(text_untrue(deck, kind, case.text, case.lang))
    wrong, lacking = untrue(deck, kind, case.text, case.lang)
    return bool(wrong or lacking)


def read(case: Case) -> set[str]:
    """What the check reads the words to claim: facts, and counts as numbers."""
    out: set[str] = set()
    for claims, _ in claimed(case.text, case.lang):
        out |= claims.tags | {str(n) for n in claims.numbers}
    return out


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.0f} %" if b else "n/a"


def _measures(cases: list[Case]) -> tuple[str, ...]:
    """Recall and precision of the untrue words flagged, and of the claims read, as table cells."""
    lies = [c for c in cases if not c.honest]
    caught = [c for c in lies if flagged(c)]
    alarms = [c for c in cases if c.honest and flagged(c)]
    tp = sum(len(read(c) & c.claims) for c in cases)
    fp = sum(len(read(c) - c.claims) for c in cases)
    fn = sum(len(c.claims - read(c)) for c in cases)
    return (f"{len(caught)} of {len(lies)}, {_pct(len(caught), len(lies))}",
            f"{len(caught)} of {len(caught) + len(alarms)}, {_pct(len(caught), len(caught) + len(alarms))}",
            str(len(alarms)), f"{tp} of {tp + fp}, {_pct(tp, tp + fp)}", f"{tp} of {tp + fn}, {_pct(tp, tp + fn)}")


def figures() -> str:
    cases, _ = corpus()
    held = [c for c in cases if c.held_out]
    by = {on: sum(1 for c in cases if c.on == on) for on in ("label", "name", "text")}
    langs = {lang: sum(1 for c in cases if c.lang == lang) for lang in ("es", "en")}
    rows = zip(("untrue words flagged (recall)", "flags that are untrue words (precision)", "false alarms",
                "claims read right (precision)", "claims found (recall)"), _measures(cases), _measures(held))
    table = "".join(f"| {name} | {a} | {b} |\n" for name, a, b in rows)
    return (f"The corpus holds {len(cases)} cases: {by['label']} labels, {by['name']} kind names and {by['text']} "
            f"rules texts ({langs['es']} in Spanish, {langs['en']} in English), "
            f"{sum(1 for c in cases if not c.honest)} of them claiming something their card does not do. "
            f"{len(held)} were written after the patterns were tuned and never used to tune them: their column "
            f"is the fairer guess for words the check has not seen.\n\n"
            f"| measure | all {len(cases)} cases | {len(held)} held out |\n| --- | --- | --- |\n{table}")


def test_the_corpus_is_large_enough_and_well_formed():
    cases, effects = corpus()
    assert len(cases) >= 150
    assert {c.lang for c in cases} == {"es", "en"} and {c.on for c in cases} == {"label", "name", "text"}
    assert all(c.does in effects for c in cases)
    assert len({(c.lang, c.on, c.text, c.does) for c in cases}) == len(cases)        # no case twice
    from deckgen.words import CLAIMED_ACTIONS

    facts = {fact for fact, _, _ in CLAIMED_ACTIONS["en"]}          # the check's own vocabulary (self-skip among them)
    assert facts == {fact for fact, _, _ in CLAIMED_ACTIONS["es"]} and "self-skip" in facts
    assert all(claim in facts or claim.isdigit() for c in cases for claim in c.claims)


ISSUE = [      # issue 32's misses and false alarms, each a case of the corpus
    ("en", "text", "Draws 1 and is skipped.", "draw1keep"),
    ("en", "label", "SKIP", "steal"),
    ("en", "name", "Skip", "reverse"),
    ("es", "name", "Salta", "reverse"),
    ("en", "text", "Play continues in the current direction of play.", "skip"),
    ("en", "text", "If you hold two or more cards, the next player draws 1.", "draw1"),
    ("en", "text", "The next player draws 3 cards and loses two turns.", "draw3skip"),
]


@pytest.mark.parametrize("key", ISSUE)
def test_the_issues_misses_are_caught_and_its_false_alarms_are_not(key):
    cases, _ = corpus()
    (case,) = [c for c in cases if (c.lang, c.on, c.text, c.does) == key]
    assert flagged(case) is not case.honest


def test_no_false_alarm_on_the_corpus():
    cases, _ = corpus()
    assert [c.text for c in cases if c.honest and flagged(c)] == []


def test_docs_checks_gives_the_figures_of_this_corpus():
    text = DOC.read_text(encoding="utf-8")
    block = f"{START}\n{figures()}{END}"
    if os.environ.get("DECKGEN_UPDATE_DOCS") == "1":
        text = re.sub(re.escape(START) + r".*?" + re.escape(END), lambda _: block, text, flags=re.S)
        DOC.write_text(text, encoding="utf-8")
    assert block in text, "docs/checks.md's corpus figures differ; run with DECKGEN_UPDATE_DOCS=1\n" + figures()
