"""Card descriptions come from effect primitives and the manifest, in both languages."""

import io

import pypdf
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.effects import PRIMITIVES, Effect
from deckgen.rulebook import build_rulebook
from deckgen.rulebook.describe import effects_text
from deckgen.rulebook.meaning import meaning
from deckgen.rulebook.text import render_text
from deckgen.rulebook.words import cards_word
from tests.conftest import ROOT

HOMEMADE = '''
[kinds.wild-draw-twenty]
category = "wild"
name = { es = "Comodín roba veinte", en = "Wild Draw Twenty" }
effects = [{ op = "draw", n = 20 }, "choose_color"]

[kinds.reverse-everyone-draws]
category = "action"
name = { es = "Reversa y todos roban", en = "Reverse Everyone Draws" }
effects = ["reverse", { op = "everyone_draws", n = 3 }]

[[cards]]
kind = "wild-draw-twenty"
count = 3

[[cards]]
kind = "reverse-everyone-draws"
colors = "all"
count = 1
'''


def _homemade(tmp_path, extra=HOMEMADE, wild_count=4):
    text = (ROOT / "decks" / "classic.toml").read_text("utf-8")
    text = text.replace('kind = "wild"\ncount = 4', f'kind = "wild"\ncount = {wild_count}')
    if extra:
        text = text.replace("wild-draw-four = 50\n", "wild-draw-four = 50\nwild-draw-twenty = 50\nreverse-everyone-draws = 20\n")
    path = tmp_path / "home.toml"
    path.write_text(text + extra, "utf-8")
    return manifest.load_deck(path)


def test_homemade_cards_get_a_description_without_new_text(tmp_path):
    deck = _homemade(tmp_path)
    data = build_rulebook(deck, "en", image_dpi=40)
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages)
    text = " ".join(text.split())
    assert "Wild Draw Twenty × 3" in text
    assert "The next player draws 20 cards and loses their turn." in text
    assert "Reverse Everyone Draws × 4" in text
    assert "Every other player draws 3 cards; nobody loses a turn." in text
    es, _, problems = render_text(deck, "es")
    assert problems == []
    data = build_rulebook(deck, "es", image_dpi=40)
    text = " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages).split())
    assert "El siguiente jugador roba 20 cartas y pierde su turno." in text
    assert "Cada uno de los demás jugadores roba 3 cartas" in text


def test_a_count_changed_in_the_manifest_changes_the_rulebook(tmp_path):
    deck = _homemade(tmp_path, extra="", wild_count=6)
    data = build_rulebook(deck, "en", image_dpi=40)
    text = " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages).split())
    assert "Wild × 6" in text
    assert "110 playing cards" in text


def test_rule_options_change_the_words():
    deck = manifest.load_deck("classic")
    draw2 = (Effect("draw", n=2),)
    assert "pass the penalty on" not in effects_text(deck, draw2, "en")
    nm = manifest.load_deck("no-mercy")
    assert "pass the penalty on" in effects_text(nm, draw2, "en")
    wd4 = deck.kinds["wild-draw-four"].effects
    assert "no card of the current colour" in effects_text(deck, wd4, "en", wild=True)
    flex = manifest.load_deck("flex-spectrum")
    assert "no other card you could play" in effects_text(flex, wd4, "en", wild=True)


OPS = st.sampled_from(sorted(set(PRIMITIVES) - {"duel"}))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(OPS, st.integers(1, 99), st.booleans()), min_size=1, max_size=5),
       st.sampled_from(["es", "en"]))
def test_every_effect_list_is_described(effects, lang):
    deck = manifest.load_deck("no-mercy")
    effs = tuple(Effect(op, n=n if op in ("draw", "everyone_draws") else None, lose_turn=lt,
                        who="all" if lt else "self", direction=("play", "left", "right")[n % 3])
                 for op, n, lt in effects)
    text = effects_text(deck, effs, lang, wild=True)
    assert text and "{" not in text and "None" not in text
    m = meaning(effs, deck.rule_options)
    for f in m.fates.values():          # each player's draws are said once, as one total
        if f.drawn:
            assert cards_word(lang, f.drawn) in text
    for e in effs:
        if e.op == "everyone_draws":
            assert cards_word(lang, e.n) in text


def test_rule_options_switch_sections_of_the_rulebook(tmp_path):
    base = render_text(manifest.load_deck("classic"), "en")[0]
    assert "## Stacking draw cards" not in base and "## Sevens and zeros" not in base
    assert "## Jumping in" not in base and "## Challenges" in base
    text = (ROOT / "decks" / "classic.toml").read_text("utf-8").replace(
        '[rules]\npreset = "classic"\n',
        '[rules]\npreset = "classic"\n[rules.options]\nstacking = "same-kind"\nseven_zero = true\n'
        'jump_in = true\nchallenge = false\nuno_penalty = 4\n')
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    house, _, problems = render_text(manifest.load_deck(path), "en")
    assert problems == []
    for heading in ("## Stacking draw cards", "## Sevens and zeros", "## Jumping in"):
        assert heading in house
    assert "## Challenges" not in house
    assert "another card of the same kind" in house
    assert "you then draw 4 cards as a penalty" in house
    assert "<b>Stacking</b>" in house


def test_a_rulebook_in_another_language_than_the_faces_says_what_each_card_prints():
    """The English rulebook of a deck printed in Spanish names a Skip "Skip" beside a picture that
    says SALTA: the components table gives the printed words too ("on the card: SALTA"), from the
    face's own caption; a rulebook in the faces' language does not, and faces printed in English
    turn it round ("en la carta: SKIP")."""
    from deckgen.render.faces import in_language

    def text(deck, lang):
        data = build_rulebook(deck, lang, image_dpi=40)
        return " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages).split())

    deck = manifest.load_deck("classic")
    assert deck.language == "es"
    en = text(deck, "en")
    assert "Skip on the card: SALTA" in en and "Wild Draw Four on the card: COMODÍN ROBA CUATRO" in en
    assert "Number on the card" not in en                  # a number card prints no caption
    es = text(deck, "es")
    assert "en la carta" not in es and "on the card" not in es
    assert "Salta en la carta: SKIP" in text(in_language(deck, "en"), "es")


HOP = '''
[kinds.wild-hop]
category = "wild"
name = { es = "Comodín salto", en = "Wild Hop" }
effects = ["skip"]

[[cards]]
kind = "wild-hop"
count = 4
points = 50
'''


def _pdf_text(deck, lang):
    data = build_rulebook(deck, lang, image_dpi=40)
    return " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages).split())


def test_a_wild_that_names_no_colour_is_described_as_the_engine_plays_it(tmp_path):
    """A wild without choose_color keeps the colour in play, and as the first card has its colour
    named by the first player with its skip acting on them (engine: actions.start_from). The
    rulebook said only that after a wild "the colour its player names is the one to follow"."""
    path = tmp_path / "hop.toml"
    path.write_text((ROOT / "decks" / "classic.toml").read_text("utf-8") + HOP, "utf-8")
    deck = manifest.load_deck(path)
    en = _pdf_text(deck, "en")
    assert "Play it on any card. The next player loses their turn. It names no colour: the colour to follow " \
           "stays as it was." in en
    assert "After a wild card, the colour its player names is the one to follow; after Wild Hop, which names " \
           "none, the colour stays as it was." in en
    assert "the first player chooses the colour; the rest of what Wild Hop does applies to them too." in en
    assert "except after Wild Hop, which leaves it as it was" in en
    es = _pdf_text(deck, "es")
    assert "No nombra ningún color: hay que seguir el mismo color que antes." in es
    assert "Comodín salto no nombra ninguno, así que después se sigue el mismo color que antes." in es
    assert "el resto de lo que hace Comodín salto también se le aplica." in es
    plain = _pdf_text(manifest.load_deck("classic"), "en")      # every wild names its colour: as before
    assert "After a wild card, the colour its player names is the one to follow." in plain
    assert "stays as it was" not in plain and "the rest of what" not in plain


def test_a_draw_after_hands_move_is_said_after_the_move_as_the_engine_draws_it():
    """[skip, swap_hands, draw 2]: the engine swaps, then the next player draws 2 into the hand
    they were given. The rulebook said "The next player draws 2 cards and loses their turn. You
    swap your whole hand ..." (the fate said where the skip first named the player), which reads
    as drawing first, so the 2 cards would go to whoever swapped with them."""
    import dataclasses

    from deckgen.rules.scenario import Scripted, situation, table_for

    deck = manifest.load_deck("classic")
    skip, draw2 = Effect("skip"), Effect("draw", n=2)
    swap, pass_left = Effect("swap_hands"), Effect("pass_hands", direction="left")
    words = {"en": ("draws 2", "swap your whole hand", "passes their"), "es": ("roba 2", "Cambias tu mano", "pasa su mano")}
    for lang, (draws, swaps, passes) in words.items():
        text = effects_text(deck, (skip, swap, draw2), lang)
        assert text.index(swaps) < text.index(draws), text
        text = effects_text(deck, (skip, pass_left, draw2), lang)
        assert text.index(passes) < text.index(draws), text
        text = effects_text(deck, (draw2, pass_left), lang)            # drawn first: said first
        assert text.index(draws) < text.index(passes), text
    # the engine: the player swapped with draws after the swap, into the hand they were given
    kinds = dict(deck.kinds)
    kinds["skip"] = dataclasses.replace(kinds["skip"], effects=(Effect("skip"), Effect("swap_hands"), Effect("draw", n=2)))
    t = table_for(dataclasses.replace(deck, kinds=kinds))
    g = situation(None, [["red-skip", "red-1", "red-2"], ["blue-1"], ["green-1"]], top="red-5", draw=("yellow-1",) * 6,
                  table=t, agents=[Scripted(plays=["red-skip"], targets=[1]), Scripted(), Scripted()])
    g.turn()
    assert [t.faces[f].id for f in g.hands[0]] == ["blue-1"] and len(g.hands[1]) == 4
