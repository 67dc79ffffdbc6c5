"""Rule options: one frozen, typed object; presets; validated changes; command-line values."""

import dataclasses
import re
from pathlib import Path

import pytest

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.options import OPTIONS, PRESETS, RuleOptions, parse_value, resolve

RULES_DOC = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")


def _options_at_a_glance() -> dict[str, str]:
    """docs/rules.md, section 13: option -> its values as written (default first)."""
    part = RULES_DOC[RULES_DOC.index("## 13. Rule options at a glance"):RULES_DOC.index("## 14.")]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| ([^|]+) \|", part, re.M)}


def _documented(text: str) -> tuple[object, list, list]:
    """(default, values that must be accepted, values that must be refused) from a table cell:
    "`a`, `b`", "true, false", "2 (0 to 20)" or "0 (off) to 500"."""
    if text.startswith("`"):
        words = re.findall(r"`([^`]+)`", text)
        return words[0], words, ["none-of-these", 1, True]
    if text.split(",")[0].strip() in ("true", "false"):
        return text.split(",")[0].strip() == "true", [True, False], ["true", 1, 0]
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    default, lo, hi = (numbers[0], numbers[0], numbers[1]) if len(numbers) == 2 else numbers
    return default, [lo, hi, default], [lo - 1, hi + 1, str(default), float(default), True]


def test_every_option_has_the_default_and_values_docs_rules_md_gives_it():
    """docs/rules.md §13 lists every option with its default first and its values or range: a
    deck without [rules.options] gets those defaults, each listed value is accepted, and a value
    outside the list or range, or of another type, is refused by name."""
    table = _options_at_a_glance()
    assert set(table) == set(OPTIONS)
    o = RuleOptions()
    for name, text in table.items():
        default, good, bad = _documented(text)
        assert getattr(o, name) == default and type(getattr(o, name)) is type(default), name
        assert isinstance(getattr(o, name), OPTIONS[name].type)
        for value in good:
            assert getattr(o.replace(**{name: value}), name) == value
        for value in bad:
            with pytest.raises(DeckgenError, match=name):
                o.replace(**{name: value})
    assert o.duel_penalty_max == 8
    assert manifest.load_deck("classic").rule_options == o     # the classic preset keeps every default


def test_presets_resolve_to_frozen_options():
    o = resolve("no-mercy")
    assert o.stacking == "equal-or-higher" and o.mercy_limit == 25
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.stacking = "off"  # type: ignore[misc]
    assert set(PRESETS) == {"classic", "no-mercy", "flex-spectrum"}


def test_a_deck_carries_rule_options():
    deck = manifest.load_deck("flex-spectrum")
    assert isinstance(deck.rule_options, RuleOptions)
    assert deck.rule_options.power_cards is True


def test_replace_is_validated():
    o = RuleOptions()
    assert o.replace(duel_penalty_max=4).duel_penalty_max == 4
    with pytest.raises(DeckgenError, match="duel_penalty_max"):
        o.replace(duel_penalty_max=0)
    with pytest.raises(DeckgenError, match="stacking"):
        o.replace(stacking="sometimes")
    with pytest.raises(DeckgenError, match="unknown rule option 'stacknig'") as info:
        o.replace(stacknig="off")
    assert "stacking" in str(info.value.findings[0].hint)


@pytest.mark.parametrize(("name", "text", "value"), [
    ("duel_penalty_max", "4", 4), ("seven_zero", "true", True), ("seven_zero", "off", False),
    ("stacking", "same-kind", "same-kind")])
def test_parse_value(name, text, value):
    assert parse_value(name, text) == value


@pytest.mark.parametrize(("name", "text", "hint"), [
    ("stacking", "sometimes", "off, same-kind, equal-or-higher"),
    ("duel_penalty_max", "lots", "integer from 1 to 99"),
    ("duel_penalty_max", "200", "integer from 1 to 99"),
    ("seven_zero", "maybe", "true, false"),
    ("no_such_option", "1", "duel_penalty_max"),
])
def test_parse_value_errors_name_the_option_and_the_valid_values(name, text, hint):
    with pytest.raises(DeckgenError) as info:
        parse_value(name, text)
    finding = info.value.findings[0]
    assert name in finding.message
    assert hint in (finding.hint or "")
