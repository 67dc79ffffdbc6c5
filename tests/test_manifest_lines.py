"""Every finding about a TOML file can be found in the editor: key path -> line."""

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen.datafile import LineIndex, parse_toml
from deckgen.manifest import bundled_decks

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def key_paths(value, prefix=""):
    """Every key path of a parsed TOML value, the way findings spell them."""
    if isinstance(value, dict):
        for key, sub in value.items():
            path = f"{prefix}.{key}" if prefix else key
            yield path, key
            yield from key_paths(sub, path)
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from key_paths(sub, f"{prefix}[{i}]")


def test_every_key_of_the_bundled_manifests_points_at_its_own_line():
    for path in bundled_decks().values():
        text = path.read_text("utf-8")
        lines = text.splitlines()
        index = LineIndex(text)
        for where, key in key_paths(tomllib.loads(text)):
            n = index.line(where)
            assert n is not None, where
            assert key in lines[n - 1] or "[" in lines[n - 1], (path.name, where, lines[n - 1])


def test_array_tables_nested_tables_and_missing_keys():
    text = ('[deck]\nid = "x"\nplayers = { min = 2, max = 4 }\n\n[[cards]]\nkind = "a"\n\n[[cards]]\nkind = "b"\n'
            '[cards.flex]\nkind = "c"\n\n[kinds."my-kind"]\nname = "K"\neffects = [\n  "skip",\n  { op = "draw", n = 2 },\n]\n')
    index = LineIndex(text)
    assert index.line("deck.players.min") == 3          # inside an inline table: the table's line
    assert index.line("cards[1].kind") == 9
    assert index.line("cards[1].flex.kind") == 11
    assert index.line("cards[0].count") == 5            # a missing key: its table's header
    assert index.line("kinds.my-kind.effects[1].op") == 15
    assert index.line("scoring.target") is None


def test_multiline_strings_are_not_read_as_keys():
    index = LineIndex('[deck]\ndescription = """\nfake = 1\n"""\nid = "x"\n')
    assert index.line("deck.fake") == 1 and index.line("deck.id") == 5


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True),
                       st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True),
                                       st.integers(0, 9) | st.text("abc xyz", max_size=5), max_size=4),
                       min_size=1, max_size=5))
def test_generated_tables_find_each_key_on_its_line(tables):
    text = ""
    for name, keys in tables.items():
        text += f"[{name}]\n" + "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in keys.items()) + "\n"
    data = parse_toml(text, "generated.toml")
    lines = text.splitlines()
    index = LineIndex(text)
    for where, key in key_paths(data):
        n = index.line(where)
        assert n is not None
        assert lines[n - 1].startswith(f"[{key}]" if "." not in where else f"{key} =")


def test_a_card_entry_s_error_points_at_its_key_not_its_header(tmp_path):
    """A finding the parser places on its [[cards]] entry's header line moves to the line of the
    key it is about; a key inside an inline table goes to the line that writes the table."""
    from deckgen import manifest
    from deckgen.datafile import with_lines

    text = ('[deck]\nid = "x"\nname = "X"\nlanguage = "es"\nhand_size = 7\nplayers = { min = 2, max = 4 }\n'
            'palette = "classic"\n[rules]\npreset = "classic"\n[scoring]\ntarget = 500\n\n'
            '[[cards]]\nkind = "number"\ncolor = "red"\nvalues = [1, 2]\ncount = 0\n'
            '[[cards]]\nkind = "number"\ncolors = ["red", "mauve"]\nvalues = [3, 4]\ncount = 1\n'
            '[[cards]]\nkind = "number"\ncolor = "blue"\nvalue = 5\ncount = 1\n'
            'flex = { color = "teal", kind = "skip" }\n')
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    found = {f.where: f.line for f in with_lines(manifest.load(path).findings)}
    assert found["cards[0].count"] == lines.index("count = 0") + 1
    assert found["cards[1].colors"] == lines.index('colors = ["red", "mauve"]') + 1
    assert found["cards[2].flex.color"] == lines.index('flex = { color = "teal", kind = "skip" }') + 1
