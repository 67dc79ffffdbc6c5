"""The deck's own words in the rulebook read as the deck wrote them: a name holding the inline
markup's characters (``*``, ``{``, ``}``, ``\\``) is neither set in italics nor read as an icon."""

from pathlib import Path

from deckgen import manifest
from deckgen.rulebook.markup import inline, literal, parse, plain, runs
from deckgen.rulebook.text import render_text
from tests.conftest import ROOT

NAME = r"Wild *Star* {red} 2\*3 & <co>"
SKIP = r"Stop *now* {blue}"


def _deck(tmp_path: Path):
    text = (ROOT / "decks" / "classic.toml").read_text("utf-8")
    text = text.replace('name = { es = "UNO clásico", en = "Classic UNO" }',
                        f"name = {{ es = '{NAME}', en = '{NAME}' }}", 1)
    text += f"\n[kinds.skip]\ncategory = \"action\"\nname = {{ es = '{SKIP}', en = '{SKIP}' }}\neffects = [\"skip\"]\n"
    (tmp_path / "deck.toml").write_text(text, "utf-8")
    return manifest.load_deck(tmp_path / "deck.toml")


def test_literal_text_comes_back_unchanged_through_the_inline_markup():
    for text in (NAME, SKIP, "**", "\\", "a\\{b}", "{red}", "plain words"):
        assert [r.icon for r in runs(literal(text))] == [None] * len(runs(literal(text)))
        assert plain(inline(literal(text))) == text


def test_a_deck_name_and_a_kind_name_with_markup_characters_read_as_written(tmp_path):
    text, _, findings = render_text(_deck(tmp_path), "en")
    assert findings == []                     # "{red}" in a name is no icon reference
    shown = [plain(item.text) for item in parse(text)]
    assert any(NAME in line for line in shown)
    assert any(SKIP in line for line in shown)
    items = " ".join(item.text for item in parse(text))
    assert "<i>Star</i>" not in items and "<i>now</i>" not in items
    assert "<b>red</b>" not in items and "<b>blue</b>" not in items
