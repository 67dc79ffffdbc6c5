"""Rulebook templates: the sandbox, errors with file and line, and the cross-check."""

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.check import check
from deckgen.cli import main
from deckgen.errors import DeckHasErrors
from deckgen.rulebook import crosscheck, write_rulebook
from deckgen.rulebook.text import render_text
from deckgen.stages import CheckOptions
from tests.conftest import ROOT


def _deck_with_templates(tmp_path: Path, files: dict[str, str], base: str = "classic"):
    """A copy of a bundled deck whose manifest points at its own template folder."""
    text = (ROOT / "decks" / f"{base}.toml").read_text("utf-8")
    text = text.replace("[deck]\n", '[deck]\ntemplates = "tpl"\n', 1)
    (tmp_path / "deck.toml").write_text(text, "utf-8")
    for name, body in files.items():
        path = tmp_path / "tpl" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, "utf-8")
    return manifest.load_deck(tmp_path / "deck.toml")


INTRO = '{% extends "preset/rulebook.j2" %}\n{% block intro %}\nHello.\n'


def test_reference_to_a_missing_card_names_template_file_and_line(tmp_path):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + 'Beware {{ card("wild-draw-10") }}.\n{% endblock %}\n'})
    findings = crosscheck(deck, ["en"])
    assert len(findings) == 1
    f = findings[0]
    assert f.is_error and f.code == "rulebook-ref"
    assert f.file.endswith("tpl/en/rulebook.j2") and f.line == 4
    assert "wild-draw-10" in f.message
    with pytest.raises(DeckHasErrors) as err:
        write_rulebook(deck, "en", tmp_path / "out.pdf")
    assert "rulebook.j2:4" in str(err.value)
    assert not (tmp_path / "out.pdf").exists()


def test_reference_to_a_missing_kind_in_an_included_piece(tmp_path):
    deck = _deck_with_templates(tmp_path, {"setup.j2": "# Setup\n\nFirst line.\n{{ kind('skip-everyone') }}\n"})
    findings = crosscheck(deck)
    assert {(Path(f.file).name, f.line, f.code) for f in findings} == {("setup.j2", 4, "rulebook-ref")}
    assert "did you mean 'skip'" in findings[0].hint or "skip" in findings[0].hint


def test_a_kind_no_template_explains_fails_the_check(tmp_path):
    deck = _deck_with_templates(tmp_path, {"cards.j2": "# The cards\n{{ explain('number') }}\n{{ explain('wild') }}\n"})
    findings = crosscheck(deck)
    missing = {f.message.split("'")[1] for f in findings if f.code == "rulebook-unexplained"}
    assert missing == {"skip", "reverse", "draw-two", "wild-draw-four"}
    assert all(f.file == str(tmp_path / "deck.toml") for f in findings)
    report = check(tmp_path / "deck.toml", CheckOptions(simulate=False))
    assert any(f.code == "rulebook-unexplained" for f in report.errors)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "deck.toml"), "--no-sim"])
    assert result.exit_code == 1
    assert "draw-two" in result.output


@pytest.mark.parametrize("expr", [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ card.__globals__ }}",
    "{{ deck.update({'total': 1}) }}",
    "{{ cycler.__init__.__globals__.os }}",
])
def test_sandbox_keeps_templates_away_from_python_internals(tmp_path, expr):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + expr + "\n{% endblock %}\n"})
    text, _, findings = render_text(deck, "en")
    assert text == ""
    assert len(findings) == 1
    f = findings[0]
    assert f.code in ("template-sandbox", "template-undefined")
    assert f.file.endswith("rulebook.j2") and f.line == 4


def test_undefined_names_and_syntax_errors_name_file_and_line(tmp_path):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + "{{ no_such_name }}\n{% endblock %}\n",
                                           "es/rulebook.j2": INTRO + "ok\n{% if %}\n{% endblock %}\n"})
    (en,) = crosscheck(deck, ["en"])
    assert en.code == "template-undefined" and en.line == 4 and "no_such_name" in en.message
    (es,) = crosscheck(deck, ["es"])
    assert es.code == "template-syntax" and es.line == 5 and es.file.endswith("es/rulebook.j2")


@pytest.mark.parametrize(("expr", "meant"), [("{{ dekc.name }}", "deck"), ("{{ deck.nmae }}", "name"),
                                             ("{{ no_such_name }}", None)])
def test_a_misspelt_name_gets_a_did_you_mean(tmp_path, expr, meant):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + expr + "\n{% endblock %}\n"})
    (f,) = crosscheck(deck, ["en"])
    assert f.code == "template-undefined" and "templates/README.md" in f.hint
    assert (f"did you mean '{meant}'?" in f.hint) if meant else ("did you mean" not in f.hint)


def test_a_missing_attribute_is_named_as_the_template_wrote_it_not_as_jinjas_dict_object(tmp_path):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + "We play {{ deck.nmae }} on Sundays.\n"
                                                                  "{% endblock %}\n"})
    (f,) = crosscheck(deck, ["en"])
    assert f.message == "'deck' has no attribute 'nmae'" and "did you mean 'name'?" in f.hint
    # two owners of the same attribute on the line: Jinja's own words are kept
    (tmp_path / "two").mkdir()
    deck = _deck_with_templates(tmp_path / "two", {"en/rulebook.j2": INTRO + "{{ deck.nmae }} {{ opts.nmae }}\n"
                                                                            "{% endblock %}\n"})
    (f,) = crosscheck(deck, ["en"])
    assert "object' has no attribute 'nmae'" in f.message


def test_homemade_templates_inherit_the_shared_pieces(tmp_path):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + "Our family edition.\n{% endblock %}\n"})
    text, rec, findings = render_text(deck, "en")
    assert findings == []
    assert "Our family edition." in text and "# Glossary" in text and "# Setting up" in text
    assert set(rec.explained) == set(deck.kinds)


def test_missing_template_folder_is_reported(tmp_path):
    text = (ROOT / "decks" / "classic.toml").read_text("utf-8").replace("[deck]\n", '[deck]\ntemplates = "nope"\n', 1)
    (tmp_path / "deck.toml").write_text(text, "utf-8")
    result = CliRunner().invoke(main, ["rulebook", str(tmp_path / "deck.toml"), "-o", str(tmp_path / "r.pdf")])
    assert result.exit_code == 2
    assert "deck.templates" in result.output and "nope" in result.output


@pytest.mark.parametrize("game", ["classic", "no-mercy", "flex-spectrum"])
def test_bundled_templates_pass_the_crosscheck(game):
    assert crosscheck(manifest.load_deck(game)) == []


def test_cli_writes_the_rulebook(tmp_path):
    out = tmp_path / "r.pdf"
    result = CliRunner().invoke(main, ["rulebook", "classic", "--lang", "en", "-o", str(out), "--paper", "letter"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:5] == b"%PDF-"
    assert "letter" in result.output


def test_broken_inline_markup_is_caught_by_the_check(tmp_path):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + "A <b>bold claim.\n{% endblock %}\n"})
    (f,) = crosscheck(deck, ["en"])
    assert f.code == "template-markup" and "bold claim" in f.message
    with pytest.raises(DeckHasErrors):
        write_rulebook(deck, "en", tmp_path / "r.pdf")


_PIECES = st.sampled_from(["<b>", "</b>", "<i>", "</i>", "&amp;", "&lt;", "&gt;", "&#39;", "&#34;", "&", "<",
                           ">", "<br/>", "&nbsp;", "&#0;", "<u>", "</u>", "<b x=1>", "word", " ", "é", "¿"])


@settings(max_examples=400)
@given(st.lists(_PIECES, max_size=12))
def test_markup_the_check_does_not_hand_to_reportlab_is_markup_reportlab_accepts(pieces):
    """The check parses a paragraph with ReportLab only when its markup is not plainly bold and
    italic with jinja's escapes; what it lets through, ReportLab must accept."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from deckgen.rulebook.text import plainly_valid

    text = "".join(pieces)
    if plainly_valid(text):
        Paragraph(text, ParagraphStyle("check", fontName="Helvetica"))


def test_plain_markup_is_told_from_the_rest():
    from deckgen.rulebook.text import plainly_valid

    assert plainly_valid("<b>Draw Two</b> &amp; <i>Skip</i> &#39;x&#39;")
    assert plainly_valid("<b><i>both</i></b>")
    for text in ("<b>open", "</b>", "<b><i>crossed</b></i>", "a & b", "&nbsp;", "<u>u</u>", "1 < 2", "<br/>"):
        assert not plainly_valid(text), text


def test_bad_markup_in_a_template_is_still_found(tmp_path):
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + "<b>never closed\n{% endblock %}\n"})
    found = [f for f in crosscheck(deck, ["en"]) if f.code == "template-markup"]
    assert found and "never closed" in found[0].message
