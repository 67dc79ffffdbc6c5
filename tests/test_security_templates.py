"""A stranger's rulebook templates cannot read files, run code, loop forever or fill memory
(docs/security.md, "Templates")."""

from __future__ import annotations

import os
import time
from pathlib import Path

import jinja2
import pytest
from hostile import MARKER, assert_no_marker_in, assert_refused, make_deck, run

from deckgen import manifest
from deckgen.errors import DeckgenError
from deckgen.rulebook import env as rb_env
from deckgen.rulebook.text import crosscheck, render_text


def _with_template(tmp_path: Path, body: str, intro_only: bool = True):
    deck = make_deck(tmp_path, 'templates = "rules"')
    (deck.folder / "rules" / "en").mkdir(parents=True)
    text = ('{% extends "shared/rulebook.j2" %}\n{% block intro %}\n' + body + '\n{% endblock %}\n') if intro_only else body
    (deck.folder / "rules" / "en" / "rulebook.j2").write_text(text, encoding="utf-8")
    return deck


def _findings(deck) -> list:
    return crosscheck(manifest.load_deck(deck.manifest), ["en"])


def test_the_installed_jinja2_has_no_known_sandbox_escape():
    assert rb_env._jinja_version() >= (3, 1, 6)
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"jinja2>=3.1.6"' in pyproject


def test_an_old_jinja2_is_refused(monkeypatch, tmp_path):
    deck = _with_template(tmp_path, "Hello.")
    monkeypatch.setattr(jinja2, "__version__", "3.1.4")
    with pytest.raises(DeckgenError) as info:
        render_text(manifest.load_deck(deck.manifest), "en")
    assert "3.1.6 or newer" in info.value.findings[0].message


def test_a_template_folder_outside_the_deck_is_refused(tmp_path):
    for value in ("/", "..", "../" * 8 + "etc"):
        deck = make_deck(tmp_path / value.replace("/", "_").replace(".", "d"), f'templates = "{value}"')
        result = run(deck, "check", str(deck.manifest), "--no-sim")
        assert_refused(result, "deck.templates", "outside the manifest's folder", codes=(2,))


def test_a_symlinked_template_folder_leading_out_is_refused(tmp_path):
    deck = make_deck(tmp_path, 'templates = "rules"')
    outside = tmp_path / "elsewhere"
    (outside / "en").mkdir(parents=True)
    (outside / "en" / "rulebook.j2").write_text('{% include "/' + str(deck.secret) + '" %}', encoding="utf-8")
    (deck.folder / "rules").symlink_to(outside)
    assert_refused(run(deck, "check", str(deck.manifest), "--no-sim"), "symlink that leads outside", codes=(2,))


def test_an_included_symlink_to_a_secret_is_refused_and_nothing_leaks(tmp_path):
    deck = _with_template(tmp_path, '{% include "leak.txt" %}')
    os.symlink(deck.secret, deck.folder / "rules" / "en" / "leak.txt")
    result = run(deck, "check", str(deck.manifest), "--no-sim")
    assert_refused(result, "template-sandbox", "symlink that leads outside")
    out = deck.home / "out"
    result = run(deck, "rulebook", str(deck.manifest), "--lang", "en", "-o", str(out / "r.pdf"))
    assert_refused(result, "symlink")
    assert not (out / "r.pdf").exists()
    assert_no_marker_in(deck.home)


@pytest.mark.parametrize("name", ["../../secret.txt", "/etc/passwd", "..\\\\secret.txt", "{{ 7*7 }}.j2",
                                  "rules/../../secret.txt"])
def test_template_names_that_climb_out_are_not_found(tmp_path, name):
    deck = _with_template(tmp_path, '{% include "' + name + '" %}')
    (deck.folder / "rules" / "secret.txt").write_text(MARKER, encoding="utf-8")
    found = _findings(deck)
    assert found and found[0].code == "template-missing", found
    assert MARKER not in found[0].format()


def test_a_fifo_as_a_template_is_an_error_not_a_hang(tmp_path):
    deck = _with_template(tmp_path, '{% include "pipe.j2" %}')
    os.mkfifo(deck.folder / "rules" / "en" / "pipe.j2")
    start = time.monotonic()
    found = _findings(deck)
    assert time.monotonic() - start < 30
    assert found[0].code == "template-sandbox" and "FIFO" in found[0].message


def test_img_may_show_only_an_image_the_manifest_declares(tmp_path):
    from PIL import Image

    Image.new("RGB", (8, 8), "red").save(tmp_path / "outside.png")
    deck = _with_template(tmp_path, f'A picture: <img src="{tmp_path / "outside.png"}" width="20" height="20"/>')
    found = _findings(deck)
    assert any(f.code == "template-markup" and "names no image the manifest declares" in f.message for f in found)
    result = run(deck, "rulebook", str(deck.manifest), "--lang", "en", "-o", str(deck.home / "r.pdf"))
    assert_refused(result, "names no image the manifest declares", codes=(1,))
    assert not (deck.home / "r.pdf").exists()


def test_a_declared_image_may_be_shown(tmp_path):
    from PIL import Image

    deck = _with_template(tmp_path, "")
    Image.new("RGB", (64, 64), "red").save(deck.folder / "logo.png")
    text = deck.manifest.read_text(encoding="utf-8").replace('templates = "rules"', 'templates = "rules"\nlogo = "logo.png"')
    deck.manifest.write_text(text, encoding="utf-8")
    body = f'Our logo: <img src="{(deck.folder / "logo.png").resolve()}" width="20" height="20"/>'
    (deck.folder / "rules" / "en" / "rulebook.j2").write_text(
        '{% extends "shared/rulebook.j2" %}\n{% block intro %}\n' + body + '\n{% endblock %}\n', encoding="utf-8")
    assert not [f for f in _findings(deck) if f.is_error]


@pytest.mark.parametrize("tag", ['<onDraw name="drawString" label="x"/>', '<index item="x"/>',
                                 '<a href="file:///etc/passwd">x</a>', '<seq id="x"/>', '<font size="1e308">x</font>',
                                 '<img src="x.png" width="99999" height="1"/>'])
def test_tags_that_call_code_or_name_files_are_refused(tmp_path, tag):
    deck = _with_template(tmp_path, f"Text {tag} more.")
    found = _findings(deck)
    assert any(f.code == "template-markup" for f in found), found
    result = run(deck, "rulebook", str(deck.manifest), "--lang", "en", "-o", str(deck.home / "r.pdf"))
    assert_refused(result, "template-markup", codes=(1,))


def test_a_template_that_loops_too_long_is_an_error_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(rb_env, "MAX_SECONDS", 1.0)
    deck = _with_template(tmp_path, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    start = time.monotonic()
    found = _findings(deck)
    assert time.monotonic() - start < 20
    assert found[0].code == "template-budget" and "longer than 1 s" in found[0].message
    assert found[0].file and found[0].file.endswith("rulebook.j2") and found[0].line == 3


def test_a_template_that_writes_too_much_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(rb_env, "MAX_OUTPUT", 200_000)
    deck = _with_template(tmp_path, "{% for i in range(100000) %}many words {{ i }}{% endfor %}")
    found = _findings(deck)
    assert found[0].code == "template-budget" and "200,000 characters" in found[0].message
    assert found[0].file.endswith("rulebook.j2")


@pytest.mark.parametrize("expr", ['"x" * 1000000000', "[1] * 1000000000", "10 ** 100000000", '"x"|center(1000000000)',
                                  '"x".center(1000000000)', '"a b"|wordwrap(1000000000)',
                                  '"x"|indent(1000000000)', 'range(10)|batch(1000000000)|list'])
def test_one_expression_cannot_allocate_gigabytes(tmp_path, expr):
    deck = _with_template(tmp_path, "{{ " + expr + " }}")
    found = _findings(deck)
    assert found[0].code == "template-sandbox", found
    assert "too large" in found[0].message or "too much" in found[0].message


def test_the_sandbox_still_refuses_the_known_escapes(tmp_path):
    for body in ('{{ "".__class__.__mro__ }}', '{{ cycler.__init__.__globals__ }}',
                 '{{ "{0.__class__}"|attr("format")(1) }}', '{{ ("a"|attr("__class__")) }}'):
        deck = _with_template(tmp_path / str(abs(hash(body))), body)
        found = _findings(deck)
        assert found and found[0].is_error, body


def test_the_bundled_rulebooks_fit_well_inside_the_budget():
    deck = manifest.load_deck("flex-spectrum")
    budget = rb_env.Budget()
    env = rb_env.environment(deck, "en")
    from deckgen.rulebook.context import Recorder, template_globals

    env.globals.update(template_globals(Recorder(deck, "en")))
    text = budget.render(env.get_template(rb_env.ENTRY))
    assert 1000 < len(text) < rb_env.MAX_OUTPUT // 10
    assert not budget.expired


def test_a_packs_own_templates_are_read_from_the_pack_and_only_from_it(tmp_path):
    from click.testing import CliRunner

    from deckgen.cli import main

    deck = _with_template(tmp_path, 'Our own words. {% include "rules/../../secret.txt" ignore missing %}')
    packed = tmp_path / "hostile.deck.zip"
    result = CliRunner().invoke(main, ["pack", str(deck.manifest), "-o", str(packed)])
    assert result.exit_code == 0, result.output
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "en").mkdir()          # beside the pack: a folder of the same name is never used
    (tmp_path / "rules" / "en" / "rulebook.j2").write_text(MARKER, encoding="utf-8")
    result = run(deck, "rulebook", str(packed), "--lang", "en", "-o", str(deck.home / "r.pdf"))
    assert result.code == 0, result.text[-2000:]
    import pypdf

    text = "".join(page.extract_text() for page in pypdf.PdfReader(deck.home / "r.pdf").pages)
    assert "Our own words." in text and MARKER not in text
