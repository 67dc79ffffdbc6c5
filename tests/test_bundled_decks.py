"""The three bundled decks hold exactly the breakdowns of shared/games.md."""

from collections import Counter

import pytest

from deckgen import manifest
from deckgen.check import check
from deckgen.stages import CheckOptions


def load(name):
    return manifest.load_deck(name)


def per(deck, **match):
    return sum(c.count for c in deck.cards if all(getattr(c, k) == v for k, v in match.items()))


@pytest.mark.parametrize("name", ["classic", "no-mercy", "flex-spectrum"])
def test_bundled_deck_has_no_errors(name):
    report = check(name, CheckOptions(simulate=False))
    assert report.errors == []


def test_classic_breakdown():
    deck = load("classic")
    assert deck.total == 108
    assert deck.palette.ids() == ("red", "yellow", "green", "blue")
    for color in deck.palette.ids():
        assert per(deck, color=color) == 25
        assert per(deck, color=color, kind="number", value=0) == 1
        for v in range(1, 10):
            assert per(deck, color=color, kind="number", value=v) == 2
        for kind in ("skip", "reverse", "draw-two"):
            assert per(deck, color=color, kind=kind) == 2
    assert per(deck, kind="wild") == 4 and per(deck, kind="wild-draw-four") == 4
    assert (deck.players_min, deck.players_max, deck.hand_size, deck.scoring.target) == (2, 10, 7, 500)


def test_classic_points():
    deck = load("classic")
    assert deck.card("red-7").points == 7 and deck.card("blue-0").points == 0
    assert deck.card("green-skip").points == 20 and deck.card("yellow-draw-two").points == 20
    assert deck.card("wild").points == 50 and deck.card("wild-draw-four").points == 50


def test_no_mercy_breakdown():
    deck = load("no-mercy")
    assert deck.total == 168
    for color in deck.palette.ids():
        assert per(deck, color=color) == 36
        for v in range(10):
            assert per(deck, color=color, kind="number", value=v) == 2
        expected = {"skip": 3, "skip-everyone": 2, "reverse": 3, "draw-two": 3, "draw-four": 2, "discard-all": 3}
        for kind, n in expected.items():
            assert per(deck, color=color, kind=kind) == n, kind
    wilds = {"wild-reverse-draw-four": 8, "wild-draw-six": 4, "wild-draw-ten": 4, "wild-color-roulette": 8}
    for kind, n in wilds.items():
        assert per(deck, kind=kind) == n
    assert per(deck, kind="wild") == 0
    assert (deck.scoring.target, deck.scoring.knockout_bonus) == (1000, 250)
    assert deck.card("wild-draw-ten").points == 50 and deck.card("red-discard-all").points == 20
    assert deck.kinds["wild-color-roulette"].is_draw is False


def test_flex_spectrum_breakdown():
    deck = load("flex-spectrum")
    assert deck.total == 236
    assert deck.palette.ids() == ("red", "yellow", "green", "blue", "orange", "purple", "pink", "cyan", "brown", "lime")
    assert [c.names.get("es") for c in deck.palette.colors] == [
        "rojo", "amarillo", "verde", "azul", "naranja", "morado", "rosa", "cian", "marrón", "lima"]
    ids = deck.palette.ids()
    for c, color in enumerate(ids):
        assert per(deck, color=color) == 21
        plain = [x for x in deck.cards if x.color == color and x.kind == "number" and not (x.flex or x.flip_icon or x.duel)]
        assert sorted(x.value for x in plain) == list(range(1, 10))
        flex_numbers = {x.value: x.flex.color for x in deck.cards if x.color == color and x.kind == "number" and x.flex}
        assert flex_numbers == {2: ids[(c + 1) % 10], 5: ids[(c + 4) % 10], 8: ids[(c + 7) % 10]}
        assert sorted(x.value for x in deck.cards if x.color == color and x.flip_icon) == [3, 6]
        assert [x.value for x in deck.cards if x.color == color and x.duel] == [7]
        flex_actions = {x.kind: (x.flex.color, x.flex.kind) for x in deck.cards
                        if x.color == color and x.flex and x.kind != "number"}
        assert flex_actions == {"skip": (ids[(c + 2) % 10], "skip-all"), "reverse": (ids[(c + 5) % 10], "skip"),
                                "draw-two": (ids[(c + 8) % 10], "everyone-draws-1")}
    assert per(deck, colorless=True, value=0) == 10 and deck.card("colorless-0").points == 0
    assert per(deck, kind="wild-all-flip") == 4
    wild_flex = Counter((c.kind, c.flex.kind) for c in deck.cards if c.color is None and c.flex for _ in range(c.count))
    assert wild_flex == {("wild", "everyone-draws-2"): 4, ("wild", "targeted-draw-two"): 4,
                         ("wild-draw-four", "targeted-draw-four"): 4}
    flex_sides = Counter(c.flex.color for c in deck.cards if c.flex and c.flex.color for _ in range(c.count))
    assert flex_sides == {color: 6 for color in ids}
    assert [(p.kind, p.count, p.faces) for p in deck.components] == [("power", 10, ("power-green", "power-red"))]
    assert deck.card("red-skip").points == 20 and deck.card("wild-all-flip").points == 50


def test_card_names_in_both_languages():
    deck = load("flex-spectrum")
    card = deck.card("red-2-flex")
    assert card.name("es") == "2 rojo / 2 amarillo"
    assert card.name("en") == "red 2 / yellow 2"
    assert load("no-mercy").card("blue-draw-two").name("es") == "Toma 2 azul"
    assert load("classic").card("wild-draw-four").name("en") == "Wild Draw Four"
