"""docs/rules.md names the test that proves each rule: every name it cites exists, and every rule
test of the three games is cited."""

import re

from tests.conftest import ROOT

DOC = (ROOT / "docs" / "rules.md").read_text("utf-8")
FILES = {"classic": "test_rules_classic.py", "no-mercy": "test_rules_no_mercy.py", "flex": "test_rules_flex.py",
         "effects": "test_engine_effects.py", "props": "test_engine_properties.py",
         "record": "test_engine_record.py", "options": "test_rules_options.py",
         "unlogged": "test_engine_unlogged.py", "decisions": "test_engine_decisions.py",
         "rulebook": "test_rulebook_describe.py"}


def _tests(name: str) -> set[str]:
    text = (ROOT / "tests" / name).read_text("utf-8")
    return set(re.findall(r"^def (test_\w+)", text, re.M))


def test_every_cited_test_exists():
    cited = re.findall(r"`([a-z-]+)::(test_\w+)`", DOC)
    assert len(cited) > 100
    missing = [f"{f}::{t}" for f, t in cited if t not in _tests(FILES[f])]
    assert not missing


def test_every_rule_test_of_the_three_games_and_the_effects_is_cited():
    cited = set(re.findall(r"`[a-z-]+::(test_\w+)`", DOC))
    for short in ("classic", "no-mercy", "flex", "effects"):
        uncited = _tests(FILES[short]) - cited
        assert not uncited, (short, sorted(uncited))


def test_every_rule_option_is_described():
    from deckgen.options import OPTIONS

    table = DOC[DOC.index("## 13."):]
    assert set(re.findall(r"^\| `(\w+)` \|", table, re.M)) == set(OPTIONS)
