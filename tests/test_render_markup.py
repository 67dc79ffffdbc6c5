"""Rich rules text: one inline markup (bold, italic, inline icons) read by
``deckgen.rulebook.markup`` for the faces and for the rulebook."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.check import check
from deckgen.model import Names
from deckgen.render import RenderSettings, render_face
from deckgen.render.draw import plan_face
from deckgen.render.faces import face_spec
from deckgen.rulebook.markup import Run, inline, parse, plain_text, read, runs
from deckgen.stages import CheckOptions

LOW = RenderSettings(dpi=120)


def test_runs_read_bold_italic_icons_and_escapes():
    assert runs("a **b** *c* {red} \\* \\{x\\}") == [
        Run("a "), Run("b", bold=True), Run(" "), Run("c", italic=True), Run(" "), Run("red", icon="red"),
        Run(" * {x}")]
    assert runs("**bold *both* bold**")[1] == Run("both", bold=True, italic=True)
    assert runs("**unclosed") == [Run("**unclosed")]            # printed as written; the check says so
    assert read("**unclosed").problems and "“**unclosed”" in read("**unclosed").problems[0]
    assert plain_text("Roba **2** y {skip}") == "Roba 2 y skip"


@given(st.text(alphabet=st.characters(blacklist_characters="*{}\\", blacklist_categories=("Cs",))))
def test_a_text_without_markup_characters_is_one_plain_run(text):
    assert plain_text(text) == text
    assert all(not r.bold and not r.italic and r.icon is None for r in runs(text))


@given(st.text(alphabet="ab *{}\\-0", max_size=30))
def test_any_text_reads_without_error_and_keeps_its_words(text):
    out = runs(text)
    assert all(r.text for r in out)
    assert "".join(r.text for r in out).replace(" ", "") == plain_text(text).replace(" ", "")


def test_the_rulebook_reads_the_same_markup():
    assert inline("Roba **2** y *pierde* su turno") == "Roba <b>2</b> y <i>pierde</i> su turno"
    assert inline("juega {red}", icon=lambda name: f'<font color="#f00">{name}</font>') == \
        'juega <font color="#f00">red</font>'
    items = parse("# Las **cartas**\nUna carta *rara* y <b>otra</b>.")
    assert items[0].text == "Las <b>cartas</b>" and items[1].text == "Una carta <i>rara</i> y <b>otra</b>."


def with_text(deck, kind_id, text):
    kind = deck.kinds[kind_id]
    return replace(deck, kinds={**deck.kinds, kind_id: replace(kind, text=Names({"es": text, "en": text}))})


def rules_crop(deck, fid):
    img = render_face(deck, fid, LOW)
    plan = plan_face(face_spec(deck, fid, False), LOW.frame(deck))
    x0, y0, x1, y1 = (round(v) for v in plan.get("rules").data["box"])
    return img.crop((x0, y0, x1, y1))


def test_bold_and_italic_words_are_drawn_differently_from_plain_ones():
    deck = manifest.load_deck("classic")
    plain = rules_crop(with_text(deck, "skip", "El siguiente pierde su turno."), "red-skip")
    bold = rules_crop(with_text(deck, "skip", "El siguiente **pierde** su turno."), "red-skip")
    italic = rules_crop(with_text(deck, "skip", "El siguiente *pierde* su turno."), "red-skip")
    assert plain.size == bold.size == italic.size
    assert plain.tobytes() != bold.tobytes() and plain.tobytes() != italic.tobytes()
    assert bold.tobytes() != italic.tobytes()


def test_inline_icons_show_a_colour_a_kind_and_a_designers_icon():
    deck = manifest.load_deck("woodland")
    d = with_text(deck, "acorns", "Si juega {fox}, {steal} o {skip}: roba 2.")
    spec = face_spec(d, "fish-acorns", False)
    icons = dict(spec.rules_icons)
    assert icons["fox"][0] == "color" and icons["fox"][1] == deck.palette.get("fox").rgb
    assert icons["steal"][0] == "image"                     # the kind's own icon (icons/steal.svg)
    assert icons["skip"] == ("symbol", "skip")              # a standard kind the deck does not deal
    colours = {c for _, c in rules_crop(d, "fish-acorns").getcolors(1 << 16)}
    assert deck.palette.get("fox").rgb in colours


def test_an_unknown_icon_is_an_error_with_a_suggestion(tmp_path):
    """An icon name that is nothing prints as the word: the card prints wrong, so it is an error."""
    import shutil

    from tests.conftest import ROOT

    folder = tmp_path / "deck"
    shutil.copytree(ROOT / "decks" / "examples" / "woodland", folder)
    path = folder / "woodland.toml"
    text = path.read_text(encoding="utf-8").replace(
        'text = { es = "El siguiente roba 2 y pierde su turno.", en = "The next player draws 2 and loses their turn." }',
        'text = { es = "El siguiente roba 2 y pierde su turno {foxx}.", en = "The next player draws 2 {foxx}." }')
    path.write_text(text, encoding="utf-8")
    report = check(path, CheckOptions(simulate=False))
    found = [f for f in report.findings if f.code == "text-icon"]
    assert found and found[0].where == "kinds.acorns.text" and "fox" in (found[0].hint or "")
    assert found[0].is_error


def test_the_rulebook_shows_inline_icons_as_the_faces_pictures(tmp_path):
    """``{red}`` and ``{skip}`` in a template's text are pictures deckgen draws (no file a template
    names), and the words stay; a kind drawn as words is its label in bold."""
    import io

    from pypdf import PdfReader

    from deckgen.rulebook import write_rulebook
    from deckgen.rulebook.blocks import icon_markup, icon_png
    from deckgen.rulebook.text import render_text
    from tests.test_rulebook_templates import INTRO, _deck_with_templates

    line = "Plays ICONLINE {red} then {skip} here."
    deck = _deck_with_templates(tmp_path, {"en/rulebook.j2": INTRO + line + "\n{% endblock %}\n"})
    assert render_text(deck, "en")[2] == []             # the template passes the check as it is
    out = tmp_path / "r.pdf"
    write_rulebook(deck, "en", out)
    reader = PdfReader(out)
    page = next(p for p in reader.pages if "ICONLINE" in p.extract_text())
    text = page.extract_text()
    assert "{red}" not in text and "{skip}" not in text and "then" in text
    xobjects = page["/Resources"]["/XObject"]
    assert len(xobjects) >= 2                           # the red chip and the skip symbol
    from PIL import Image

    chip = Image.open(io.BytesIO(icon_png(deck, ("color", deck.palette.get("red").rgb, None))))
    assert chip.getpixel((32, 32))[:3] == deck.palette.get("red").rgb and chip.getpixel((0, 0))[3] == 0
    icon = icon_markup(deck, 10)
    assert icon("red").startswith('<img src="data:image/png;base64,') and icon("nothing") is None
    assert icon("red") == icon_markup(deck, 10)("red")   # the same picture every time
    assert icon_markup(deck, 10, "en")("wild") == "<b>Wild</b>"      # a label, in the rulebook's language
    assert icon_markup(deck, 10, "es")("wild") == "<b>Comodín</b>"
    out2 = tmp_path / "r2.pdf"
    write_rulebook(deck, "en", out2)
    assert out.read_bytes() == out2.read_bytes()
