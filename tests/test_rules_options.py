"""Rule options: one frozen, typed object; presets; validated changes; command-line values."""

import dataclasses

import pytest

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.options import OPTIONS, PRESETS, RuleOptions, parse_value, resolve


def test_every_option_is_a_typed_attribute_with_its_default():
    o = RuleOptions()
    for name, opt in OPTIONS.items():
        assert isinstance(getattr(o, name), opt.type)
        assert getattr(o, name) == opt.default
    assert o.duel_penalty_max == 8


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
