"""The composition rule (docs/manifest.md, "How effects combine"): a card's effects apply in list
order, each to the player it names then; lost turns add up and are served one by one.

The rulebook sentence of a card is generated from its meaning (deckgen.rulebook.meaning); the
property test plays generated cards in the engine under generated rule options and checks that
what the meaning (and so the sentence) claims is what happens: who draws how many cards, and who
takes the next turns (a lost turn shows as a seat passed over)."""

from __future__ import annotations

import dataclasses
import functools

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.effects import PRIMITIVES, Effect
from deckgen.model import Card, Kind, Names
from deckgen.rulebook.describe import effects_text, fate_sentences, phrase
from deckgen.rulebook.meaning import NEXT, meaning, seat_outcome
from deckgen.rulebook.words import cards_word
from deckgen.rules.record import CAUSES
from deckgen.rules.scenario import Scripted, situation
from deckgen.rules.state import Draw
from deckgen.rules.table import compile_deck

DRAW3_SKIP = (Effect("draw", n=3), Effect("skip"))


@functools.lru_cache(maxsize=1)
def _classic():
    return manifest.load_deck("classic")


def _deck(effects: tuple[Effect, ...], **options):
    """Classic UNO with one more card, 'red-x', whose kind has these effects."""
    deck = _classic()
    kind = Kind("x", "action", Names({"en": "X", "es": "X"}), effects)
    card = Card("red-x", "x", "red", None, 1, 20, Names({"en": "Red X", "es": "X rojo"}), where="cards[9]")
    return dataclasses.replace(deck, kinds={**deck.kinds, "x": kind}, cards=(*deck.cards, card),
                               rule_options=deck.rule_options.replace(**options))


# ---------------------------------------------------------------- the sentences

def test_draw_then_skip_is_one_statement_about_one_player():
    """One card costs a player at most one turn through its parts together (docs/rules.md, section 5)."""
    off = effects_text(_deck(DRAW3_SKIP), DRAW3_SKIP, "en")
    assert off == "The next player draws 3 cards and loses their turn."
    es = effects_text(_deck(DRAW3_SKIP), DRAW3_SKIP, "es")
    assert es == "El siguiente jugador roba 3 cartas y pierde su turno."
    for stacking in ("same-kind", "equal-or-higher"):
        on = effects_text(_deck(DRAW3_SKIP, stacking=stacking), DRAW3_SKIP, "en")
        assert on.startswith("The next player draws 3 cards and loses their turn.")
        assert "pass the penalty on instead" in on and "other lost turn" not in on


def test_a_reverse_between_two_skips_names_two_different_players():
    effects = (Effect("skip"), Effect("reverse"), Effect("skip"))
    text = effects_text(_deck(effects), effects, "en")
    assert text.startswith("The next player loses their turn. The direction of play changes. "
                           "The next player in the new direction loses their turn.")
    assert "With two players it works like a skip: you play again." in text     # one turn, not three
    assert "With two players, your opponent loses their turn. Then you play again." in effects_text(
        _deck(effects, two_player_reverse="reverse"), effects, "en")


def test_play_again_with_a_lost_turn_says_the_turn_is_still_owed():
    effects = (Effect("draw", n=2), Effect("skip_all"))
    text = effects_text(_deck(effects), effects, "en")
    assert "The next player draws 2 cards and loses their turn." in text
    assert "you play again" in text and "still served" in text


def test_everyone_draws_says_nobody_loses_a_turn_only_when_true():
    alone = (Effect("everyone_draws", n=2),)
    assert "nobody loses a turn" in effects_text(_deck(alone), alone, "en")
    with_skip = (Effect("everyone_draws", n=2), Effect("skip"))
    text = effects_text(_deck(with_skip), with_skip, "en")
    assert "nobody loses a turn" not in text and "The next player loses their turn." in text


def test_the_model_of_draw_then_skip():
    m = meaning(DRAW3_SKIP, _classic().rule_options)
    assert list(m.fates) == [NEXT] and m.fates[NEXT].drawn == 3 and m.fates[NEXT].lost == 1
    out = seat_outcome(DRAW3_SKIP, _classic().rule_options, 4)
    assert out.drawn == (0, 3, 0, 0) and out.lost == (0, 1, 0, 0)
    assert out.turns[:7] == (2, 3, 0, 1, 2, 3, 0)


# ---------------------------------------------------------------- the engine plays what the text says

SIMPLE = ["skip", "skip_all", "play_again", "reverse", "choose_color", "roulette"]
# primitives that change hands but not who draws or plays: the sentence claims nothing about turns
OTHER = [Effect("steal"), Effect("swap_hands"), Effect("discard_color")] + [
    Effect("pass_hands", direction=d) for d in PRIMITIVES["pass_hands"].params["direction"].choices]


@st.composite
def effect_lists(draw):
    """Effect lists of the turn-changing primitives (target always followed by its draw)."""
    parts: list[Effect] = []
    for _ in range(draw(st.integers(1, 4))):
        pick = draw(st.sampled_from(["simple", "draw", "target", "everyone", "other"]))
        if pick == "simple":
            parts.append(Effect(draw(st.sampled_from(SIMPLE))))
        elif pick == "other":
            parts.append(draw(st.sampled_from(OTHER)))
        elif pick == "draw":
            parts.append(Effect("draw", n=draw(st.integers(1, 4)), lose_turn=draw(st.booleans())))
        elif pick == "target":
            parts += [Effect("target"), Effect("draw", n=draw(st.integers(1, 4)), lose_turn=draw(st.booleans()))]
        else:
            parts.append(Effect("everyone_draws", n=draw(st.integers(1, 3))))
    if any(e.op == "draw" for e in parts) and draw(st.booleans()):
        parts.append(Effect("challenge"))
    return tuple(parts)


OPTIONS = st.fixed_dictionaries({
    "stacking": st.sampled_from(["off", "same-kind", "equal-or-higher"]),
    "two_player_reverse": st.sampled_from(["skip", "reverse"]),
    "two_player_reverse_draw": st.sampled_from(["opponent", "player"]),
    "challenge": st.booleans(),
    "challenge_penalty": st.sampled_from([0, 2]),
})


# a table size and the seat a targeted draw chooses
TABLES = st.integers(2, 4).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1)))


def _passive(challenge: bool) -> Scripted:
    """A player who never plays a card from hand: draws one and keeps it, never stacks, and
    challenges every challengeable card (or none)."""
    return Scripted(plays=["draw"] * 60, stack=False, challenge=challenge, play_drawn=False)


class _Choosing(Scripted):
    """Seat 0: names the chosen player whenever that is legal (a fourth steal from a player left
    with one card is not: seed 53 drew four steals), else the first player it may name."""

    def __init__(self, chosen: int, **kw):
        super().__init__(**kw)
        self.chosen = chosen

    def target(self, d, o, rng):
        return self.chosen if self.chosen in d.options else d.options[0]


def play(effects: tuple[Effect, ...], options: dict, n: int, chosen: int, turns: int, challenging: bool = False):
    """Seat 0 plays the card; everyone then only draws. Returns (cards each seat drew because of the
    card: every draw the engine logs with a cause other than a turn's own draw or a Colour
    Roulette's turned cards, whose number the text cannot know; the seats that took the next turns)."""
    deck = _deck(effects, wild_draw_four_legal="always", **options)
    table = compile_deck(deck, deck.rule_options)
    hands = [["red-x", "blue-1", "blue-2", "blue-3", "blue-4"]] + [["green-1", "green-2", "green-3", "green-4"]
                                                                  for _ in range(n - 1)]
    first = _Choosing(chosen, plays=["red-x"] + ["draw"] * 60, stack=False, play_drawn=False)
    g = situation(deck, hands=hands, top="red-5", draw=["yellow-7", "red-7"] * 75, table=table,
                  agents=[first] + [_passive(challenging) for _ in range(n - 1)])
    no_play, roulette = CAUSES.index("no_play"), CAUSES.index("roulette")

    def taken() -> list[int]:
        """Who took each turn after the card: a passive turn is exactly one draw of its own."""
        return [ev.player for ev in g.log or () if isinstance(ev, Draw) and ev.cause == no_play]

    g.turn()                                     # seat 0 plays the card
    guard = 0
    while len(taken()) < turns and g.outcome is None and guard < 40 * turns:
        guard += 1
        g.turn()
    drawn = [0] * n
    for ev in g.log or ():
        if isinstance(ev, Draw) and ev.cause not in (no_play, roulette):    # roulette: turned cards
            drawn[ev.player] += 1
    return tuple(drawn), tuple(taken()[:turns])


# a card's own waiting penalty passed on by its later draw: its first victim then loses the chosen
# draw's turn (docs/rules.md, section 4); the engine once let the first draw's turn cover it
PASSED_ON = (Effect("draw", n=1), Effect("reverse"), Effect("draw", n=1), Effect("target"), Effect("draw", n=1))
SAME_KIND = {"stacking": "same-kind", "two_player_reverse": "skip", "two_player_reverse_draw": "opponent",
             "challenge": False, "challenge_penalty": 0}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(effect_lists(), OPTIONS, TABLES, st.booleans())
@example(PASSED_ON, SAME_KIND, (3, 1), False)
@example((Effect("roulette"), Effect("reverse"), Effect("roulette")), SAME_KIND | {"stacking": "off"}, (3, 1), False)
def test_the_engine_does_what_the_generated_sentence_claims(effects, options, table, challenging):
    n, chosen = table
    deck = _deck(effects, **options)
    claim = seat_outcome(effects, deck.rule_options, n, chosen=chosen, turns=2 * n + 2, challenged=challenging)
    # the sentence is written from the same meaning: each fate's draws and lost turns are in it
    m = meaning(effects, deck.rule_options, n)
    text = effects_text(deck, effects, "en")
    for f in m.fates.values():
        for sentence in (s for fs in fate_sentences("en", f) for s in _sentences(fs)):     # each said once
            assert sentence in text or n == 2
        if f.drawn and n > 2:
            assert cards_word("en", f.drawn) in text
    drawn, turns = play(effects, options, n, chosen, 2 * n + 2, challenging)
    assert drawn == claim.drawn, f"{effects} at {n} players: drawn {drawn}, text says {claim.drawn}\n{text}"
    assert turns == claim.turns, f"{effects} at {n} players: turns {turns}, text says {claim.turns}\n{text}"


def test_two_colour_roulettes_on_one_card_each_say_their_victim_takes_the_cards_and_loses_a_turn():
    # hypothesis seed 62: the second roulette's "They take every card turned over and lose their turn"
    # was the same sentence as the first's, so "each sentence once" dropped it, and the rulebook
    # said nothing of the second victim's lost turn; the engine costs both a turn
    effects = (Effect("roulette"), Effect("reverse"), Effect("roulette"))
    options = SAME_KIND | {"stacking": "off"}
    deck = _deck(effects, **options)
    assert seat_outcome(effects, deck.rule_options, 3, chosen=1, turns=8).lost == (0, 1, 1)
    en, es = effects_text(deck, effects, "en"), effects_text(deck, effects, "es")
    assert en.count("take every card turned over and lose their turn") == 2
    assert es.count("se queda con todas las cartas destapadas y pierde su turno") == 2
    assert en.count("You do not name a colour.") == 1                       # said once all the same


# ---------------------------------------------------------------- each sentence against the engine's game

def _sentences(text: str) -> list[str]:
    import re

    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def _two_player_part(text: str, lang: str) -> tuple[list[str], list[str]]:
    """(the sentences about any table, the sentences about two players) of a card's text."""
    marker = {"en": "With two players", "es": "Con dos jugadores"}[lang]
    general, two = text.split(marker, 1) if marker in text else (text, "")
    return _sentences(general), _sentences(marker + two) if two else []


def _check_claims(effects, deck, sentences, n: int, chosen: int, options: dict, numbers: bool = True) -> None:
    """What each sentence claims, read by the card-words check's own reader (deckgen.claims),
    against the engine's game at ``n`` players: the draws it names, a lost turn, nobody losing one,
    the card's player playing again."""
    from deckgen.claims import claimed

    drawn, turns = play(effects, options, n, chosen, 2 * n + 2)
    claim = seat_outcome(effects, deck.rule_options, n, chosen=chosen, turns=2 * n + 2)
    assert (drawn, turns) == (claim.drawn, claim.turns)            # the engine's game, as the model says
    others_lost = any(claim.lost[1:])
    everyone = meaning(effects, deck.rule_options, n).everyone
    counts = {*drawn, *(d - everyone for d in drawn), *(e.n for e in effects if e.n),
              deck.rule_options.challenge_penalty}                  # a player's draws, with or without everyone's
    for sentence in sentences:
        for said, _ in claimed(sentence, "en"):
            for n_said in said.numbers if numbers else ():
                assert n_said in counts, (sentence, drawn)
            if "again" in said.tags:
                assert turns[0] == 0, (sentence, turns)
            if "skip" in said.tags and "keep" not in said.tags:
                assert others_lost or turns[0] == 0, (sentence, claim.lost)
            if "self-skip" in said.tags:                # "you ... lose your turn": the card's own player
                assert claim.lost[0] > 0, (sentence, claim.lost)
            if "keep" in said.tags and "skip" not in said.tags and "everyone" not in said.tags:
                assert not others_lost or "still" in sentence, (sentence, claim.lost)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(effect_lists(), OPTIONS)
@example((Effect("reverse"), Effect("target"), Effect("draw", n=2)), SAME_KIND | {"stacking": "off"})
@example(DRAW3_SKIP, SAME_KIND | {"stacking": "off"})
@example((Effect("steal"),) * 4, SAME_KIND | {"stacking": "off"})        # the fourth steal: the chosen player holds one card
@example((Effect("reverse"), Effect("draw", n=1)),       # "With two players, you draw 1 card yourself and lose your turn."
         {"stacking": "off", "two_player_reverse": "reverse", "two_player_reverse_draw": "player", "challenge": False})
def test_each_rulebook_sentence_is_what_the_engine_does_at_two_and_four_players(effects, options):
    """Issue 32: the rulebook text of every effect combination says each thing once, and what its
    sentences say about any table (read at four players) and about two players (read at two) is
    what the engine does there."""
    deck = _deck(effects, **options)
    for lang in ("en", "es"):
        text = effects_text(deck, effects, lang)
        said = _sentences(text)
        assert len(said) == len(set(said)), f"a sentence said twice: {text}"
    general, two = _two_player_part(effects_text(deck, effects, "en"), "en")
    _check_claims(effects, deck, general, 4, 2, options)
    if two:
        _check_claims(effects, deck, two, 2, 1, options)
        m2 = meaning(effects, deck.rule_options, 2)
        for f in m2.fates.values() if two != [phrase("en", "two_skip")] else []:                # each player's fate at two players, said in the two-player part
            for sentence in (s for fs in fate_sentences("en", f) for s in _sentences(fs)):
                whole = effects_text(deck, effects, "en")        # a sentence the general part said is not said again
                assert sentence[:1].lower() + sentence[1:] in whole or sentence in whole, (sentence, two)
    else:     # no two-player sentence: the general ones hold at two players (where the next player and the
        # chosen one are one player, whose draws the sentences give part by part)
        _check_claims(effects, deck, general, 2, 1, options, numbers=False)


def test_a_reverse_that_targets_a_draw_reads_as_one_lost_turn_in_the_rulebook(tmp_path):
    """Issue 32: `reverse, target, draw 2` repeated its sentence and read as two lost turns with two
    players, and the rulebook's "Rule decisions" said it works like Skip although the victim draws."""
    from deckgen.rulebook.text import render_text
    from tests.conftest import ROOT

    text = (ROOT / "decks" / "classic.toml").read_text("utf-8") + (
        '\n[kinds.reverse]\ncategory = "action"\nname = { es = "Reversa", en = "Reverse" }\n'
        'effects = ["reverse", "target", { op = "draw", n = 2 }]\n')
    (tmp_path / "deck.toml").write_text(text, "utf-8")
    deck = manifest.load_deck(tmp_path / "deck.toml")
    effects = deck.kinds["reverse"].effects
    said = effects_text(deck, effects, "en")
    assert said == ("The direction of play changes. A player of your choice draws 2 cards and loses their turn. "
                    "With two players, your opponent draws 2 cards and loses their turn. Then you play again.")
    book = render_text(deck, "en")[0]
    assert "works like" not in book                     # the plain Reverse is gone: no such rule decision
    plain = render_text(manifest.load_deck("classic"), "en")[0]
    assert "works like" in plain
