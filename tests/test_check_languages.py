"""Languages (docs/checks.md "Languages"): a deck language no rulebook can be written in is an
error at check; a text missing in one of the deck's languages is a warning listing them."""

from click.testing import CliRunner
from test_check_claims import HEAD

from deckgen.check import check
from deckgen.cli import main
from deckgen.stages import CheckOptions


def test_a_language_deckgen_cannot_write_is_an_error_at_check(write_manifest):
    path = write_manifest(HEAD.replace('language = "en"', 'language = "fr"'))
    res = CliRunner().invoke(main, ["check", str(path), "--no-sim"])
    assert res.exit_code == 1
    line = next(x for x in res.output.splitlines() if x.startswith("error[language]"))
    assert "'fr'" in line and "en, es" in line


def test_a_kind_without_its_spanish_name_is_a_warning_listing_every_missing_text(write_manifest):
    text = HEAD.replace('name = { en = "Grab", es = "Agarra" }', 'name = { en = "Grab" }\n'
                        'text = { en = "Take a random card from another player; the next player draws 3." }')
    rep = check(write_manifest(text), CheckOptions(simulate=False))
    (f,) = [f for f in rep.warnings if f.code == "missing-translation"]
    assert "no 'es' version" in f.message
    assert "kinds.grab.name ('Grab')" in f.message and "kinds.grab.text" in f.message
    assert f.where == "kinds.grab.name" and f.line is not None


def test_plain_strings_count_for_every_language(write_manifest):
    rep = check(write_manifest(HEAD.replace('name = { en = "Grab", es = "Agarra" }', 'name = "Grab"')),
                CheckOptions(simulate=False))
    assert not [f for f in rep.findings if f.code in ("missing-translation", "language")]
