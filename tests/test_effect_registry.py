"""Every effect primitive has an entry in every layer the text helper owns: its rulebook words
(es, en, and what it does as a first card), its place in the meaning model, its face symbol and
its static checks. A primitive added to ``deckgen.effects.PRIMITIVES`` without them fails here."""

import dataclasses

import pytest
from PIL import ImageChops

from deckgen import manifest
from deckgen.effects import PRIMITIVES, Effect
from deckgen.model import Card, Kind, Names
from deckgen.render.faces import FACE_SYMBOLS, PLUS_N, kind_emblem
from deckgen.render.symbols import SHAPES, SYMBOLS, symbol_mask
from deckgen.rulebook.describe import effects_text
from deckgen.rulebook.meaning import MODEL
from deckgen.rules.checks import card_rule_findings
from deckgen.rules.effect_checks import CHECKS
from deckgen.words import ACTS, ALL, IDLE, PHRASES

LAYERS = {"rulebook": PHRASES, "meaning": MODEL, "face": FACE_SYMBOLS, "checks": CHECKS}


def _sample(op: str, **params) -> Effect:
    """One effect of each primitive, with its required parameters."""
    if "n" in PRIMITIVES[op].params:
        params.setdefault("n", 3)
    return Effect(op, **params)


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_every_primitive_has_an_entry_in_every_layer(layer):
    registry = LAYERS[layer]
    assert set(PRIMITIVES) - set(registry) == set(), f"{layer}: primitives without an entry"
    assert set(registry) - set(PRIMITIVES) == set(), f"{layer}: entries for unknown primitives"


@pytest.mark.parametrize("op", sorted(PRIMITIVES))
def test_each_primitive_has_words_in_both_languages_and_a_first_card_rule(op):
    phrase = PHRASES[op]
    assert set(phrase.en) == set(phrase.es) and phrase.en
    assert all(phrase.en[k] and phrase.es[k] and phrase.en[k] != phrase.es[k] for k in phrase.en)
    assert phrase.start in (ACTS, IDLE, ALL)


@pytest.mark.parametrize("op", sorted(PRIMITIVES))
def test_each_primitive_is_described_and_has_a_known_symbol(op):
    deck = manifest.load_deck("flex-spectrum")
    effects = (_sample(op),) if op != "target" else (_sample("target"), _sample("draw"))
    for lang in ("es", "en"):
        text = effects_text(deck, effects, lang)
        assert "{" not in text and "None" not in text
        if op != "challenge":                   # said with the card's restriction, not alone
            assert text, f"{op} says nothing in {lang}"
    sym = FACE_SYMBOLS[op](_sample(op))
    assert sym in (None, "", PLUS_N, "wheel") or sym in SYMBOLS


def test_pass_hands_directions_have_their_own_words_and_symbols():
    deck = manifest.load_deck("classic")
    texts = {d: effects_text(deck, (Effect("pass_hands", direction=d),), "en") for d in ("play", "left", "right")}
    assert len(set(texts.values())) == 3
    assert "left" in texts["left"] and "right" in texts["right"] and "direction" in texts["play"]
    es = effects_text(deck, (Effect("pass_hands", direction="left"),), "es")
    assert "izquierda" in es
    assert [FACE_SYMBOLS["pass_hands"](Effect("pass_hands", direction=d)) for d in ("play", "left", "right")] == \
        ["pass", "pass-left", "pass-right"]


def test_new_symbols_are_drawn_and_differ_from_each_other():
    names = ["steal", "play-again", "pass-left", "pass-right", "pass", "swap", "discard-all"]
    masks = {n: symbol_mask(n, 96) for n in names}
    for n, m in masks.items():
        ink = sum(1 for v in m.tobytes() if v > 128) / (96 * 96)
        assert 0.12 < ink < 0.6, f"{n}: {ink:.0%} of the square inked"
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            diff = ImageChops.difference(masks[a], masks[b])
            assert sum(1 for v in diff.tobytes() if v > 128) > 150, f"{a} and {b} look alike"
    assert not set(SYMBOLS) & set(SHAPES) - {"cross"}


def test_a_homemade_steal_card_shows_the_steal_symbol():
    kind = Kind("thief", "action", Names({"en": "Thief", "es": "Ladrón"}), (Effect("steal"),))
    assert kind_emblem(kind, "en").symbol == "steal"
    again = Kind("again", "action", Names({"en": "Again", "es": "Otra vez"}), (Effect("play_again"),))
    assert kind_emblem(again, "en").symbol == "play-again"


def _with_kind(effects: tuple[Effect, ...], **deck_changes):
    deck = manifest.load_deck("classic")
    kind = Kind("x", "action", Names({"en": "X", "es": "X"}), effects)
    card = Card("red-x", "x", "red", None, 1, 20, Names({"en": "Red X", "es": "X rojo"}), where="cards[9]")
    return dataclasses.replace(deck, kinds={**deck.kinds, "x": kind}, cards=(*deck.cards, card), **deck_changes)


def test_checks_come_from_the_primitives_entries():
    target_alone = card_rule_findings(_with_kind((Effect("target"), Effect("skip"))))
    assert [f.code for f in target_alone if f.where == "cards[9]"] == ["effect-not-playable"]
    twice = card_rule_findings(_with_kind((Effect("skip_all"), Effect("play_again"))))
    assert [(f.code, f.is_error) for f in twice if f.where == "cards[9]"] == [("effect-redundant", False)]
    assert not [f for f in card_rule_findings(_with_kind((Effect("steal"),))) if f.where == "cards[9]"]
    lonely = card_rule_findings(_with_kind((Effect("steal"),), players_min=1))
    assert any(f.code == "effect-not-playable" and "another player" in f.message for f in lonely)


def test_the_first_card_rule_of_each_primitive_is_the_engines():
    """What the rulebook says a first card does (nothing, or act on the first player / everyone)
    is what the engine's start handler does. 'target' does nothing itself and leaves its draw to
    the first player; 'challenge' has nothing to challenge; flip_power depends on 'who'."""
    from deckgen.rules import actions

    for op in PRIMITIVES:
        engine_idle = actions.PLAY[op].start is actions._start_nothing
        if op in ("target", "challenge"):
            assert engine_idle and PHRASES[op].start == ACTS
        elif op != "flip_power":
            assert engine_idle == (PHRASES[op].start == IDLE), op
    assert PHRASES["everyone_draws"].start == ALL
