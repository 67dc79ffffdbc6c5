"""docs/manifest.md and the parser stay in step: every key, effect and rule option is documented,
and nothing documented is unknown to the parser."""

import re

import pytest

from deckgen.effects import PRIMITIVES
from deckgen.manifest.schema import ALL_TABLES
from deckgen.options import OPTIONS
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "manifest.md").read_text("utf-8")


def _section_keys(heading: str) -> set[str]:
    """Keys in the first table after a heading that contains `heading`."""
    start = next(i for i, line in enumerate(DOC.splitlines()) if line.startswith("#") and heading in line)
    keys, in_table = set(), False
    for line in DOC.splitlines()[start + 1:]:
        if line.startswith("| key"):
            in_table = True
            continue
        if in_table:
            m = re.match(r"^\| `([a-z_]+)` \|", line)
            if m:
                keys.add(m.group(1))
            elif not line.startswith("| ---"):
                break
    return keys


SECTIONS = {"top level": "## Top level", "[deck]": "## `[deck]`", "deck.players": "### `deck.players`",
            "[palette]": "## Palettes", "[rules]": "## `[rules]`", "[scoring]": "## `[scoring]`",
            "[kinds.<id>]": "## Card kinds", "[[cards]]": "## Cards", "cards[].flex": "### `cards[].flex`",
            "[[components]]": "## Components"}


@pytest.mark.parametrize("table", sorted(ALL_TABLES))
def test_every_parser_key_is_documented(table):
    if table == "[[palette.colors]]":
        start = DOC.index("Each colour:")
        documented = set(re.findall(r"^\| `([a-z_]+)` \|", DOC[start:DOC.index("```toml", start)], re.M))
    else:
        documented = _section_keys(SECTIONS[table].lstrip("# ").strip())
    assert documented == set(ALL_TABLES[table]), f"{table}: doc {sorted(documented)} vs parser {sorted(ALL_TABLES[table])}"


def test_every_effect_documented():
    documented = set(re.findall(r"^\| `([a-z_]+)` \| [^|]*\| [^|]+\|$", DOC[DOC.index("### Effects"):DOC.index("## Cards")], re.M))
    assert documented == set(PRIMITIVES)


def test_every_rule_option_documented():
    part = DOC[DOC.index("### Rule options"):DOC.index("## `[scoring]`")]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", part, re.M))
    assert documented == set(OPTIONS)


def test_example_manifest_in_the_doc_is_valid(tmp_path):
    from deckgen.check import check
    from deckgen.stages import CheckOptions
    example = re.search(r"```toml\n(\[deck\].*?)```", DOC, re.S).group(1)
    path = tmp_path / "mini.toml"
    path.write_text(example, "utf-8")
    report = check(path, CheckOptions(simulate=False))
    assert report.errors == [] and report.deck.total == 52
