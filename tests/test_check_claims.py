"""A card says only what it does (deckgen/claims.py, docs/checks.md "What a card says")."""

from click.testing import CliRunner

from deckgen.check import check
from deckgen.cli import main
from deckgen.stages import CheckOptions

HEAD = '''
[deck]
id = "claims"
name = "Claims"
language = "en"
players = { min = 2, max = 4 }
hand_size = 7
palette = "classic"

[rules]
preset = "classic"

[scoring]
target = 100
[scoring.points]
number = "face"
wild = 50
wild-draw-four = 50
grab = 20

[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "grab"
colors = "all"
count = 2

[[cards]]
kind = "wild-draw-four"
count = 4

[kinds.grab]
category = "action"
name = { en = "Grab", es = "Agarra" }
effects = [{ op = "draw", n = 3 }, "steal"]
'''


def findings(write_manifest, extra):
    rep = check(write_manifest(HEAD + extra), CheckOptions(simulate=False))
    return rep, {f.code: f for f in rep.findings if f.code.endswith("contradicts-effect")}


def test_a_plus_five_label_on_a_draw_three_card_is_an_error(write_manifest):
    path = write_manifest(HEAD + 'label = "+5"\n')
    res = CliRunner().invoke(main, ["check", str(path), "--no-sim"])
    assert res.exit_code == 1
    line = next(x for x in res.output.splitlines() if "label-contradicts-effect" in x)
    assert '"+5"' in line and "The next player draws 3 cards" in line and "take one card from their hand" in line


def test_a_text_that_promises_more_is_an_error_quoting_text_and_effect(write_manifest):
    """The card's own words would print a lie on every copy and in the rulebook: the deck is not
    ready to print (it was a warning, and check said "ready to print, with 2 warnings")."""
    rep, found = findings(write_manifest, 'text = { en = "The next player draws 5 and you play again.", '
                                          'es = "El siguiente roba 5 y vuelves a jugar." }\n')
    assert not rep.warnings and rep.verdict_line().startswith("not ready to print: 2 errors (text-contradicts-effect)")
    warn = [f for f in rep.errors if f.code == "text-contradicts-effect"]
    assert {f.where for f in warn} == {"kinds.grab.text.en", "kinds.grab.text.es"}
    en = next(f for f in warn if f.where.endswith(".en"))
    assert "number 5" in en.message and "'play again'" in en.message
    assert '"The next player draws 5 and you play again."' in en.message       # the card's own text
    assert "the card does: \"The next player draws 3 cards" in en.message      # beside the rulebook's
    es = next(f for f in warn if f.where.endswith(".es"))
    assert "'volver a jugar'" in es.message and "roba 3 cartas" in es.message


def test_a_true_text_and_label_pass(write_manifest):
    rep, found = findings(write_manifest, 'label = "+3"\ntext = { en = "The next player draws 3 and loses their '
                                          'turn; then take a random card from another player.", es = "El siguiente '
                                          'roba 3 y pierde su turno; luego quítale una carta a otro jugador." }\n')
    assert found == {}


def test_a_symbol_the_card_does_not_do_is_an_error(write_manifest):
    rep, found = findings(write_manifest, 'symbol = "reverse"\n')
    f = found["label-contradicts-effect"]
    assert f.where == "kinds.grab.symbol" and "'reverse' symbol" in f.message


def test_a_cards_own_text_is_checked_too(write_manifest):
    text = HEAD.replace('kind = "grab"\ncolors = "all"\ncount = 2',
                        'kind = "grab"\ncolors = "all"\ncount = 2\ntext = "Reverse the direction of play."')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    (f,) = [f for f in rep.errors if f.code == "text-contradicts-effect"]
    assert f.where.startswith("cards[1].text") and "'reverse'" in f.message
    assert '"Reverse the direction of play."' in f.message


def test_bundled_and_example_decks_say_what_they_do():
    for deck in ("classic", "no-mercy", "flex-spectrum", "woodland"):
        rep = check(deck, CheckOptions(simulate=False))
        assert not [f for f in rep.findings if f.code.endswith("contradicts-effect")], deck


def test_the_issues_lies_are_caught_end_to_end(write_manifest):
    """Issue 32: a redeclared skip kind that reverses, label SKIP on a card that does not skip, and
    'draws 1 and is skipped' on a card that keeps the turn all passed."""
    redeclared = HEAD.replace('kind = "grab"\ncolors = "all"\ncount = 2', 'kind = "skip"\ncolors = "all"\ncount = 2') + \
        '\n[kinds.skip]\ncategory = "action"\nname = { en = "Skip", es = "Salta" }\neffects = ["reverse"]\n'
    rep = check(write_manifest(redeclared.replace("grab = 20", "skip = 20")), CheckOptions(simulate=False))
    assert any(f.code == "name-contradicts-effect" and f.where == "kinds.skip.name" for f in rep.errors), rep.findings
    rep, found = findings(write_manifest, 'label = "SKIP"\n')
    assert found == {}                                   # Grab draws 3: its victim does lose the turn
    keep = HEAD.replace('effects = [{ op = "draw", n = 3 }, "steal"]',
                        'effects = [{ op = "draw", n = 1, lose_turn = false }]\nlabel = "SKIP"\n'
                        'text = { en = "Draws 1 and is skipped.", es = "Roba 1 y se salta su turno." }')
    rep = check(write_manifest(keep), CheckOptions(simulate=False))
    codes = {f.code for f in rep.findings}
    assert {"label-contradicts-effect", "text-contradicts-effect"} <= codes


def test_words_that_claim_nothing_raise_no_alarm(write_manifest):
    rep, found = findings(write_manifest, 'text = { en = "If you hold two or more cards, play it in the current '
                                          'direction of play: the next player draws 3.", es = "Si tienes dos o más '
                                          'cartas, juégala en el sentido actual: el siguiente roba 3." }\n')
    assert found == {}


def test_a_sentence_written_once_that_reads_as_one_language_is_named(write_manifest):
    # seen: `deckgen new` then language = "es": the Spanish rulebook's cover printed the English
    # description; `deckgen new` itself now writes it per language
    from deckgen.check import reads_as

    assert reads_as("A homemade shedding game: match the colour or the number, be the first to run out.") == "en"
    assert reads_as("Un juego casero: iguala el color o el número y sé el primero en quedarte sin cartas.") == "es"
    assert reads_as("Mini") is None and reads_as("Wild Swap Trick Deluxe") is None          # names, too short to tell
    assert reads_as("El juego de the cards y the players") is None                          # not clearly one
    text = HEAD.replace('language = "en"', 'language = "es"').replace(
        'hand_size = 7\n', 'hand_size = 7\ndescription = "Match the colour or the number, and be the first to run out."\n', 1)
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    (f,) = [f for f in rep.warnings if f.code == "one-language-text"]
    assert f.where == "deck.description" and "reads as English: the Spanish rulebook prints it as it is" in f.message
    assert f.hint == 'give it per language: description = { en = "...", es = "..." }'
    per_language = HEAD.replace('hand_size = 7\n', 'hand_size = 7\ndescription = { en = "Match the colour or the '
                                'number.", es = "Iguala el color o el número." }\n', 1)
    assert not [f for f in check(write_manifest(per_language), CheckOptions(simulate=False)).warnings
                if f.code == "one-language-text"]


def test_a_count_of_players_is_not_a_table_of_two():
    """'Skip the next two players' counts the players the card skips: the card must skip two. It
    was read as a sentence about a table of two ('two players'), held against the card there, and
    its 2 never checked; 'with two players' and the like still speak of the table."""
    from deckgen.claims import claimed

    for lang, text in (("en", "Skip the next two players."), ("en", "The next two players draw a card."),
                       ("es", "Elige a dos jugadores y cada uno roba una carta."), ("es", "Los dos jugadores siguientes pierden su turno.")):
        [(claims, two)] = claimed(text, lang)
        assert not two and 2 in claims.numbers, text
    for lang, text in (("en", "With two players it works like a skip."), ("en", "In a two-player game, it skips."),
                       ("en", "When only two players remain, you play again."),
                       ("es", "Con dos jugadores funciona como un salto."), ("es", "A dos jugadores, es un salto."),
                       ("es", "Si solo quedan dos jugadores, vuelves a jugar.")):
        [(claims, two)] = claimed(text, lang)
        assert two and 2 not in claims.numbers, text


def test_a_skip_that_says_it_skips_two_players_is_named(write_manifest):
    rep, found = findings(write_manifest, 'text = "The next player draws 3. Skip the next two players."\n')
    warn = found["text-contradicts-effect"]
    assert "number 2" in warn.message
