"""One parser for the rulebook's and the cards' markup (docs/security.md, "Templates"): a text is
read once into a tree that is validated, and ReportLab is handed only that tree serialised again,
so the check and the PDF writer can never read the same bytes two ways."""

from __future__ import annotations

import io

import pytest
from hostile import assert_refused, make_deck, run
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.rulebook.markup import REPORTLAB, TEMPLATE, Icon, Tag, Text, plain, read, runs, to_reportlab
from deckgen.rulebook.text import crosscheck

DECLARED = "/deck/logo.png"
PIECES = st.sampled_from([
    "<b>", "</b>", "<i>", "</i>", "**", "*", "***", "{red}", "{SKIP}", "{", "}", "\\*", "\\{", "&amp;", "&lt;", "&",
    "<", ">", "<br/>", "&nbsp;", "&#0;", "&#x41;", "&foo;", "<u>", "</u>", "<b x=1>", "word", " ", "é",
    f'<img src="{DECLARED}" width="9" height="9"/>', '<img src="/outside.png"/>',
    f'<img src="{DECLARED}" valign=">" src="/outside.png"/>', '<font color="red" size="9">', "</font>",
    '<font size="1e308">', '<a href="https://x.org">', '<a href="file:///etc/passwd">', "</a>",
    "<onDraw name=x/>", "<para>", "<!-- c -->", "<![CDATA[x]]>", '"', "'", "=", "\n"])


def _tree(nodes: tuple) -> tuple:
    """A tree with the card markup's markers made the tags they stand for (as ReportLab reads them)."""
    out: list = []
    for n in nodes:
        if isinstance(n, Tag):
            out.append(("tag", n.name, n.attrs, _tree(n.children)))
        elif isinstance(n, Icon):
            out.append(("tag", "b", (), (("text", n.name),)))
        else:
            if out and out[-1][0] == "text":
                out[-1] = ("text", out[-1][1] + n.text)
            elif n.text:
                out.append(("text", n.text))
    return tuple(out)


@settings(max_examples=300)
@given(st.lists(PIECES, max_size=14))
def test_the_serialised_tree_reads_back_as_the_same_tree(pieces):
    """What ReportLab is handed parses (with the tokenizer ReportLab is built on) with no problem
    left, into exactly the tree that was validated when the text had none, and shows no picture
    but a declared one; serialising is a fixed point."""
    text = "".join(pieces)
    parsed = read(text, TEMPLATE, {DECLARED})
    out = to_reportlab(parsed, images={DECLARED})
    again = read(out, REPORTLAB, {DECLARED})
    assert again.problems == ()
    if parsed.ok:                                  # a text without problems: the very same tree
        assert _tree(again.nodes) == _tree(parsed.nodes)
    assert to_reportlab(again, images={DECLARED}) == out
    assert "outside" not in out and "onDraw" not in out.lower() and "file:" not in out


@settings(max_examples=200)
@given(st.lists(PIECES, max_size=10))
def test_reportlab_reads_the_serialised_text_as_the_tree_says(pieces):
    """ReportLab's own paragraph parser accepts the serialised markup and shows its text."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus.paraparser import ParaParser

    text = "".join(p for p in pieces if "img" not in p)        # no file to open here
    out = to_reportlab(read(text, TEMPLATE))
    frags = ParaParser().parse(out, ParagraphStyle("t", fontName="Helvetica"))[1]
    shown = "".join(getattr(f, "text", "") for f in frags or [])
    assert shown.replace("\n", " ").split() == plain(out).replace("\n", " ").split()


def test_the_duplicate_src_trick_is_a_problem_and_never_reaches_the_pdf_markup():
    trick = f'<img src="{DECLARED}" valign=">" src="/outside.png"/>'
    parsed = read(f"A picture {trick} here.", TEMPLATE, {DECLARED})
    assert any("'src' twice" in p for p in parsed.problems)
    assert to_reportlab(parsed, images={DECLARED}) == "A picture  here."
    zero = read(f'<img src="{DECLARED}" valign=">" src="/dev/zero"/>', TEMPLATE, {DECLARED})
    assert zero.problems and "/dev/zero" not in to_reportlab(zero, images={DECLARED})


@pytest.mark.parametrize("second", ["/outside.png", "/dev/zero"])
def test_a_template_cannot_embed_a_file_outside_the_deck_with_a_second_src(tmp_path, second):
    from PIL import Image

    deck = make_deck(tmp_path, 'templates = "rules"\nlogo = "logo.png"')
    Image.new("RGB", (64, 64), "red").save(deck.folder / "logo.png")
    Image.new("RGB", (64, 64), (1, 2, 3)).save(tmp_path / "outside.png")
    src = second if second == "/dev/zero" else str(tmp_path / "outside.png")
    body = f'Logo: <img src="{(deck.folder / "logo.png").resolve()}" valign=">" src="{src}"/> end.'
    (deck.folder / "rules" / "en").mkdir(parents=True)
    (deck.folder / "rules" / "en" / "rulebook.j2").write_text(
        '{% extends "shared/rulebook.j2" %}\n{% block intro %}\n' + body + '\n{% endblock %}\n', encoding="utf-8")
    found = crosscheck(manifest.load_deck(deck.manifest), ["en"])
    assert any(f.code == "template-markup" and "'src' twice" in f.message for f in found), found
    result = run(deck, "rulebook", str(deck.manifest), "--lang", "en", "-o", str(deck.home / "r.pdf"))
    assert_refused(result, "template-markup", codes=(1,))
    assert not (deck.home / "r.pdf").exists()


def test_the_pdf_writer_shows_no_undeclared_picture_even_when_the_check_is_skipped(tmp_path):
    """The writer serialises the tree itself: handed the hostile text directly, it leaves the
    picture out (no file outside the deck is opened)."""
    import pypdf
    from PIL import Image

    from deckgen.rulebook.pdf import build_pdf
    from deckgen.rulebook.text import checked_text

    deck_files = make_deck(tmp_path, "")
    Image.new("RGB", (64, 64), (1, 2, 3)).save(tmp_path / "outside.png")
    deck = manifest.load_deck(deck_files.manifest)
    text, rec = checked_text(deck, "en")
    text += f'\n\nA picture <img src="{tmp_path / "outside.png"}"/> and <img src="x" valign=">" src="/dev/zero"/>.\n'
    data = build_pdf(deck, "en", (text, rec), {})
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert "A picture" in "".join(p.extract_text() for p in reader.pages)
    assert all(not list(p.images) for p in reader.pages)


def test_card_text_markup_is_read_by_the_same_parser():
    parsed = read("Roba **2** y {SKIP}; \\*nota", TEMPLATE)
    assert [type(n).__name__ for n in parsed.nodes] == ["Text", "Tag", "Text", "Icon", "Text"]
    assert runs("Roba **2** y {SKIP}; \\*nota")[-1].text == "; *nota"
    assert isinstance(read("<b>x</b>").nodes[0], Text)          # a card's text holds no tags


def test_a_template_names_no_font_and_no_file():
    """A font's face or name makes ReportLab search folders of font metrics files for it: refused."""
    for tag in ('<font face="Courier">x</font>', '<font name="../../x">x</font>', '<span face="x">x</span>'):
        parsed = read(tag, TEMPLATE)
        assert parsed.problems and "face" not in to_reportlab(parsed) and "name=" not in to_reportlab(parsed)


def test_limits_keep_a_text_cheap():
    many = " ".join(f"{{icon{i}}}" for i in range(100))
    assert any("inline icons" in p for p in read(many).problems)
    deep = "<b>" * 40 + "x" + "</b>" * 40
    assert any("nested" in p for p in read(deep, TEMPLATE).problems)
