"""What a player reads in the rulebook is what the engine does, in natural Spanish and English,
and the layout never strands a heading or a lone list item."""

import io
import re

import pypdf
import pytest
from reportlab.platypus import KeepTogether

from deckgen import manifest
from deckgen.rulebook import build_rulebook
from deckgen.rulebook.context import Helpers, Recorder
from deckgen.rulebook.describe import group_text
from deckgen.rulebook.groups import groups
from deckgen.rulebook.text import render_text
from deckgen.rules.engine import Game
from deckgen.rules.scenario import Scripted, face, situation, table_for
from tests.conftest import ROOT

GAMES = ["classic", "no-mercy", "flex-spectrum"]


def _text(game, lang, **options):
    deck = manifest.load_deck(game)
    if options:
        import dataclasses

        deck = dataclasses.replace(deck, rule_options=deck.rule_options.replace(**options))
    text, _, problems = render_text(deck, lang)
    assert problems == []
    return text


def _start(first: str, n: int) -> Game:
    """A classic game whose first turned card is `first`."""
    t = table_for("classic")
    g = Game(t, n, 0, [Scripted() for _ in range(n)])
    pile = list(t.deck_faces)
    pile.remove(face(t, first))
    dealt = n * t.hand_size
    g.setup([*pile[:len(pile) - dealt], face(t, first), *pile[len(pile) - dealt:]])
    return g


def test_reverse_as_first_card_the_dealer_plays_first_as_the_engine_does():
    g = _start("red-reverse", 4)
    assert g.current == g.dealer
    assert "the dealer plays first and play goes to the right" in _text("classic", "en")
    assert "empieza quien reparte y el juego sigue hacia su derecha" in _text("classic", "es")
    # the old text said the player on the dealer's right begins
    assert "player on the dealer's right begins" not in _text("classic", "en")


def test_any_other_player_may_catch_a_missing_uno_call():
    def caught(next_catches: bool, after_catches: bool) -> int:
        g = situation("classic", hands=[["red-5", "red-6"], ["blue-9", "blue-8"], ["green-9", "green-8"]],
                      top="red-2", draw=["yellow-1", "yellow-2", "yellow-3"],
                      agents=[Scripted(plays=["red-5"], uno=False), Scripted(catch=next_catches),
                              Scripted(catch=after_catches)])
        g.turn()
        return len(g.hands[0]) - 1

    assert caught(True, False) == 2 and caught(False, True) == 2 and caught(False, False) == 0
    en, es = _text("classic", "en"), _text("classic", "es")
    assert "any other player may catch you by saying so before the next player starts their turn" in en
    assert "cualquier otro jugador puede avisarlo antes de que el siguiente jugador empiece su turno" in es
    assert "before the next player's turn is over" in _text("no-mercy", "en")       # uno_catch window
    assert "antes de que termine el turno del siguiente jugador" in _text("no-mercy", "es")


def test_seven_zero_last_card_and_duel_endings_are_stated():
    assert "If the 7 or 0 was your last card, you have gone out" in _text("no-mercy", "en")
    assert "Si el 7 o el 0 era tu última carta" in _text("no-mercy", "es")
    flex = _text("flex-spectrum", "en")
    assert "the duel is still played out, and then you win" in flex
    assert "goes under the top card of the discard pile" in flex


def test_stacking_explains_reverse_draw_in_a_stack_and_targeted_draws():
    nm = _text("no-mercy", "en")
    assert "reverses play when it joins a stack too" in nm
    assert "Played to answer a stack, it sends the total to your opponent" in _text(
        "no-mercy", "en", two_player_reverse_draw="player")
    flex = _text("flex-spectrum", "en", stacking="equal-or-higher")
    assert "never starts or joins a stack" in flex
    # a Wild Draw Four answered by a stack can no longer be challenged (engine decision)
    assert "the chance to challenge is then gone" in _text("classic", "en", stacking="same-kind")


def test_first_card_effects_that_need_a_player_do_nothing():
    assert "a duel card starts no duel" in _text("flex-spectrum", "en")
    assert "a 7 or a 0 moves no hands" in _text("no-mercy", "en")
    assert "una carta de duelo no empieza ningún duelo" in _text("flex-spectrum", "es")
    # classic has no such card: no note
    assert "Nobody played the first card" not in _text("classic", "en")


def test_flex_side_of_a_restricted_wild_states_when_it_may_be_played():
    deck = manifest.load_deck("flex-spectrum")
    g = next(g for g in groups(deck) if g.flex_kind == "targeted-draw-four")
    assert "only when you hold no other card you could play" in group_text(deck, g, "en")[1]
    assert "solo si no tienes ninguna otra carta que puedas jugar" in group_text(deck, g, "es")[1]


def test_no_bluff_challenge_never_says_zero_cards():
    text = _text("classic", "en", challenge_penalty=0)
    assert "0 cards" not in text and "nothing more" in text


@pytest.mark.parametrize("game", GAMES)
def test_scoring_names_match_the_cards_section(game):
    """The scoring list names categories or card groups the player sees, never a bare kind such as
    "Wild" for a deck that has no plain Wild card."""
    deck = manifest.load_deck(game)
    lines = Helpers(Recorder(deck, "en")).score_lines()
    names = [re.sub(r"<[^>]+>", "", str(line["name"])) for line in lines]
    assert names == ["Number cards", "Action cards", "Wild cards"]
    assert [line["points"] for line in lines] == ["face value", "20", "50"]
    text = _text(game, "en")
    scoring = text.split("# Scoring and winning", 1)[1].split("\n# ", 1)[0]
    if game == "flex-spectrum":
        assert "<b>Wild</b>:" not in scoring and "<b>Wild Draw Four</b>:" not in scoring


def test_scoring_lists_groups_when_a_category_scores_unevenly(tmp_path):
    from pathlib import Path

    src = Path(manifest.__file__).resolve().parents[2] / "decks" / "classic.toml"
    text = src.read_text("utf-8")
    assert "[scoring.points]" in text
    text = re.sub(r"(\[scoring\.points\][^\[]*?)\bwild\s*=\s*\d+", r"\1wild = 40", text, count=1)
    path = tmp_path / "house.toml"
    path.write_text(text, "utf-8")
    deck = manifest.load_deck(path)
    lines = {re.sub(r"<[^>]+>", "", str(x["name"])): x["points"] for x in Helpers(Recorder(deck, "en")).score_lines()}
    assert lines["Wild"] == "40" and lines["Wild Draw Four"] == "50"
    assert lines["Action cards"] == "20"


@pytest.mark.parametrize("game", GAMES)
def test_spanish_uses_one_word_for_each_pile_and_no_english(game):
    text = _text(game, "es")
    assert "mazo de robo" not in text.lower()
    assert "pila para robar" in text and "pila de descarte" in text
    assert "<b><b>" not in text and "<b><b>" not in _text(game, "en")
    assert "quedarte sin cartas en la mano" not in text      # "ser el primero en quedarse"
    assert "deckgen check" not in text                        # a family rulebook, not a tool manual


def _book(game, lang):
    deck = manifest.load_deck(game)
    return pypdf.PdfReader(io.BytesIO(build_rulebook(deck, lang, image_dpi=30)))


@pytest.mark.parametrize("game,lang", [("classic", "es"), ("no-mercy", "es"), ("flex-spectrum", "en")])
def test_no_page_ends_with_a_heading_or_starts_with_a_lone_list_item(game, lang):
    reader = _book(game, lang)
    titles = {o.title for o in reader.outline if not isinstance(o, list)}
    pages = [[ln.strip() for ln in p.extract_text().splitlines() if ln.strip()] for p in reader.pages[2:]]
    for i, lines in enumerate(pages):
        body = lines[2:]                      # the running header and the page number come first
        assert body and body[-1] not in titles, (i + 3, body[-1])
    # the Spanish palette table does not repeat the colour names in English
    if lang == "es":
        joined = "\n".join("\n".join(p) for p in pages)
        assert "(red)" not in joined and "(green)" not in joined


def test_keep_together_groups_are_never_nested():
    """A KeepTogether inside another always forces a page break (ReportLab reports an endless
    height for it), which left pages half empty."""
    from reportlab.lib import colors

    from deckgen.fonts import register_pdf
    from deckgen.rulebook import pdf
    from deckgen.rulebook.markup import parse
    from deckgen.rulebook.styles import make

    deck = manifest.load_deck("no-mercy")
    text, rec, _ = render_text(deck, "es")
    st = make(register_pdf().family, colors.HexColor("#1E63C4"))
    story = pdf._flowables(parse(text), rec, st, {}, 170 * 72 / 25.4)
    for f in story:
        if isinstance(f, KeepTogether):
            assert not any(isinstance(x, KeepTogether) for x in f._content)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("options", [{}, {"stacking": "equal-or-higher", "seven_zero": True, "jump_in": True,
                                         "challenge_penalty": 0, "start_card": "classic"}])
def test_no_sentence_or_bullet_runs_into_the_next(game, lang, options):
    """A block tag at the end of a template line eats its newline: a bullet glued to the previous
    line ("... the penalty.- <b>Two players</b>") or a doubled word is a template bug."""
    text = _text(game, lang, **options)
    assert not re.search(r"\S- <b>", text)
    assert not re.search(r"[.:]#", text)
    assert "  " not in re.sub(r"^\s+", "", text, flags=re.M).replace(" \n", "\n")
    assert "&lt;" not in text and "&amp;lt;" not in text          # a card name escaped twice
    for bad in ("penalty or a penalty", "castigo o de un castigo", "{", "}", "None"):
        assert bad not in text


def test_classic_start_rule_names_the_wilds_that_go_back_and_the_cards_that_do_nothing():
    text = _text("no-mercy", "en", start_card="classic")
    assert ("If the first card is <b>Wild Reverse Draw Four</b>, <b>Wild Draw Six</b> or <b>Wild Draw Ten</b>, "
            "shuffle it back") in text
    assert "<b>Skip Everyone</b> does nothing, <b>Discard All</b> does nothing" in text
    # a flex side never acts as the first card: Skip All is only a flex side in Flex Spectrum
    assert "Skip All</b> does nothing" not in _text("flex-spectrum", "en", start_card="classic")
    g = _start("wild-draw-four", 3)
    assert g.discard and g.table.faces[g.discard[-1]].kind != "wild-draw-four"


FLEX_NO_POWER = '''
[kinds.flex-wild]
category = "action"
name = { es = "Flex comodín", en = "Flex Wild" }
effects = ["choose_color"]

[[cards]]
kind = "skip"
colors = "all"
count = 1
id = "{color}-skip-flex"
flex = { color = "+1", kind = "skip-all" }

[[cards]]
kind = "draw-two"
colors = "all"
count = 1
id = "{color}-draw-two-flex"
flex = { color = "+2", kind = "flex-wild" }
'''


def test_flex_cards_without_power_cards_name_no_power_card_and_no_colour_twice(tmp_path):
    """A deck with Flex cards but without the Power-card rule: nothing mentions a Power card, and a
    flex side that names a colour is not also told that the colour is the centre one."""
    text = (ROOT / "decks" / "classic.toml").read_text("utf-8")
    text = text.replace("wild-draw-four = 50\n", "wild-draw-four = 50\nflex-wild = 20\n")
    path = tmp_path / "flex.toml"
    path.write_text(text + FLEX_NO_POWER, "utf-8")
    deck = manifest.load_deck(path)
    assert not deck.rule_options.power_cards
    for lang, power, centre, named in (("en", "Power card", "Whichever side you use",
                                        "by its flex side you name the colour"),
                                       ("es", "Carta de poder", "Uses el lado que uses",
                                        "por el lado flex eliges tú el color")):
        book, _, problems = render_text(deck, lang)
        assert problems == []
        assert power not in book and power.lower() not in book
        assert "## Flex cards" in book or "## Cartas Flex" in book
        g = next(g for g in groups(deck) if g.flex_kind == "flex-wild")
        paras = group_text(deck, g, lang)
        assert named in paras[2] and centre not in paras[2]
        g = next(g for g in groups(deck) if g.flex_kind == "skip-all")
        assert centre in group_text(deck, g, lang)[2]
    # and the engine does what the text says: without Power cards a flex side is always playable
    g = situation(deck, hands=[["red-skip-flex", "blue-1"], ["green-1"]], top="yellow-5",
                  agents=[Scripted(plays=["red-skip-flex@flex"]), Scripted()])
    g.turn()
    assert g.discard[-1] == face(g.table, "red-skip-flex") and g.current == 0      # Skip All: plays again


def test_the_duel_rule_follows_the_duel_options_and_the_player_range_is_the_decks():
    flex = _text("flex-spectrum", "en")
    assert "one trip round the table" in flex and "played the <b>first</b> duel card" in flex
    assert "doubles with each counter-duel (2, then 4, then 8 cards), but never goes above 8 cards" in flex
    assert "(3, then 6, then 8 cards), but never goes above 8 cards" in _text("flex-spectrum", "en", duel_penalty=3)
    assert "(2, luego 4, luego 8, luego 16 cartas)" in _text("flex-spectrum", "es", duel_penalty_max=16)
    assert "the penalty stays at 4 cards" in _text("flex-spectrum", "en", duel_penalty=4, duel_penalty_max=4)
    deck = manifest.load_deck("flex-spectrum")
    lo, hi = deck.players_min, deck.players_max
    assert f"for {lo} to {hi} players" in flex
    assert f"para {lo} a {hi} jugadores" in _text("flex-spectrum", "es")


def test_a_wild_swap_turned_first_swaps_no_hands_but_its_colour_is_named_as_the_rulebook_says(tmp_path):
    # seen on `deckgen new`'s deck: the rulebook said "Wild Swap does nothing" as the first card,
    # beside "if it is any other wild card, the first player chooses the colour" (the engine asks)
    import dataclasses

    from deckgen.effects import Effect
    from deckgen.rulebook.describe import start_idle_words
    from deckgen.rules.table import compile_deck
    from deckgen.scaffold import new_deck

    deck = manifest.load_deck(new_deck("swapper", tmp_path))
    en, es = render_text(deck, "en")[0], render_text(deck, "es")[0]
    assert "<b>Wild Swap</b> swaps no hands" in en and "Wild Swap</b> does nothing" not in en
    assert "<b>Comodín intercambio</b> no cambia ninguna mano" in es and "intercambio</b> no hace nada" not in es
    assert "If it is any other wild card, the first player chooses the colour" in en

    t = compile_deck(deck)

    def first_card(card_id: str) -> Game:
        n = 3
        g = Game(t, n, 0, [Scripted(colors=["blue"]) for _ in range(n)])
        other = face(t, "wild" if card_id == "wild-swap" else "wild-swap")
        pile = list(t.deck_faces)
        pile.remove(face(t, card_id))
        pile.remove(other)
        dealt = n * t.hand_size                 # bottom first: the other card under the pile, the same deal
        g.setup([other, *pile[:len(pile) - dealt], face(t, card_id), *pile[len(pile) - dealt:]])
        assert g.table.faces[g.discard[-1]].id == card_id
        return g

    swapped, plain = first_card("wild-swap"), first_card("wild")
    assert swapped.color == plain.color == t.colors.index("blue")       # the first player named it
    assert swapped.hands == plain.hands and swapped.current == plain.current == 0    # no hands swapped

    # a kind that does only what needs a player does nothing; idle parts beside an acting one are named
    swap = deck.kinds["wild-swap"]
    assert start_idle_words(dataclasses.replace(swap, effects=(Effect("swap_hands"),)), "en", "Power card") == \
        "does nothing"
    both = dataclasses.replace(swap, effects=(Effect("skip"), Effect("swap_hands"), Effect("play_again")))
    assert start_idle_words(both, "en", "x") == "swaps no hands and gives nobody another turn"
    assert start_idle_words(both, "es", "x") == "no cambia ninguna mano y no da otro turno a nadie"
    assert start_idle_words(dataclasses.replace(swap, effects=(Effect("skip"),)), "en", "x") == ""
