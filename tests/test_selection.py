"""``--only ID[xN],...``: the parser (property-tested), the deck it gives, and the commands that take it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen import manifest
from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.selection import parse_only, select

IDS = ["red-5", "blue-skip", "wild", "wild-draw-four", "power", "x-ray", "boxx2"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(IDS), st.integers(1, 40), st.sampled_from(["x", "×", " x ", "X"]),
                          st.booleans()), min_size=1, max_size=8))
def test_parse_only_counts_every_listed_card(items):
    text = ", ".join(f"{i}{sep}{n}" if explicit or n != 1 else i for i, n, sep, explicit in items)
    want: dict[str, int] = {}
    for i, n, _, _ in items:
        want[i] = want.get(i, 0) + n
    assert dict(parse_only(text, IDS)) == want


def test_an_id_that_ends_like_a_count_is_still_that_id():
    assert parse_only("boxx2", IDS) == [("boxx2", 1)]
    assert parse_only("boxx2x3", IDS) == [("boxx2", 3)]
    assert parse_only("WILD", IDS) == [("wild", 1)]


def test_unknown_ids_and_bad_counts_are_all_reported_with_suggestions():
    with pytest.raises(DeckgenError) as exc:
        parse_only("red5, wild x0, wlid-draw-four", IDS)
    found = exc.value.findings
    assert [f.where for f in found] == ["--only"] * 3
    assert "did you mean 'red-5'?" in found[0].hint
    assert "1 to" in found[1].message
    assert "did you mean 'wild-draw-four'?" in found[2].hint
    with pytest.raises(DeckgenError):
        parse_only(" , ", IDS)


def test_select_keeps_only_the_listed_cards_and_components():
    deck = manifest.load_deck("flex-spectrum")
    small = select(deck, "red-5x2,power x3,blue-1")
    assert [(c.id, c.count) for c in small.cards] == [("red-5", 2), ("blue-1", 1)]
    assert [(c.id, c.count) for c in small.components] == [("power", 3)]
    assert select(deck, None) is deck


@pytest.fixture(scope="module")
def runner():
    return CliRunner()


def test_build_only_writes_a_reprint_sheet_and_no_rulebook(runner, tmp_path):
    import pypdf

    res = runner.invoke(main, ["build", "classic", "--only", "red-5x2,wild-draw-four", "--dpi", "40",
                               "-o", str(tmp_path)])    # the session's cache: classic's verdict judged once for all tests
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in (tmp_path / "classic").iterdir())
    assert files == ["classic-cards-only.pdf"]
    reader = pypdf.PdfReader(tmp_path / "classic" / "classic-cards-only.pdf")
    assert len(reader.pages) == 4                        # cover x2, one sheet of fronts and its backs
    fronts = reader.pages[2]["/Resources"]["/XObject"]
    assert len(fronts) == 2                              # two distinct faces: the Red 5 and the Wild Draw Four
    assert "Cards: 3" in reader.pages[1].extract_text()
    assert "sheet: A4, landscape, 5 × 2 = 10 cards per sheet" in res.output


@pytest.mark.slow
def test_unknown_only_id_is_a_usage_error_with_a_suggestion(runner, tmp_path):
    for command in (["build", "classic", "-o", str(tmp_path)], ["render", "classic", "-o", str(tmp_path)],
                    ["preview", "classic", "-o", str(tmp_path / "p.png")], ["export", "tts", "classic"],
                    ["export", "cards", "classic", "--service", "tgc-poker"]):
        res = runner.invoke(main, [*command, "--only", "red5"])
        assert res.exit_code == 2, (command, res.output)
        assert "did you mean 'red-5'?" in res.output


def test_render_and_preview_only(runner, tmp_path):
    res = runner.invoke(main, ["render", "classic", "-o", str(tmp_path / "faces"), "--dpi", "40", "--no-cache",
                               "--only", "red-5,wild"])
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "faces").glob("*.png"))
    assert names == ["back.png", "red-5.png", "wild.png"]
    res = runner.invoke(main, ["preview", "classic", "-o", str(tmp_path / "p.png"), "--dpi", "30",
                               "--only", "red-5x3"])
    assert res.exit_code == 0, res.output
    from PIL import Image

    from deckgen.icc import srgb_profile

    for png in [*(tmp_path / "faces").glob("*.png"), tmp_path / "p.png"]:     # every PNG written: sRGB
        with Image.open(png) as im:
            assert im.info.get("icc_profile") == srgb_profile(), png.name


@pytest.mark.slow
def test_build_fold_and_fronts_only_from_the_command_line(runner, tmp_path):
    import pypdf

    res = runner.invoke(main, ["build", "flex-spectrum", "--only", "red-1x2,power", "--layout", "fold", "--dpi", "40",
                               "-o", str(tmp_path / "fold")])
    assert res.exit_code == 0, res.output
    assert "folded" in res.output
    pdf = pypdf.PdfReader(tmp_path / "fold" / "flex-spectrum" / "flex-spectrum-cards-only.pdf")
    assert len(pdf.pages) == 3                           # cover x2 and one page with fronts and backs
    res = runner.invoke(main, ["build", "flex-spectrum", "--only", "red-1x2", "--backs", "none", "--dpi", "40",
                               "-o", str(tmp_path / "fronts")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["build", "flex-spectrum", "--only", "red-1", "--layout", "fold", "--backs", "none",
                               "-o", str(tmp_path / "x")])
    assert res.exit_code == 2 and "--backs none" in res.output
    res = runner.invoke(main, ["build", "classic", "--only", "red-1", "--back-offset", "30,0", "-o", str(tmp_path / "y")])
    assert res.exit_code == 2 and "X must stay between" in res.output


def test_an_unknown_only_id_stops_the_build_before_any_game_is_played(tmp_path, monkeypatch):
    """The verdict's games cannot change what a bad ``--only`` says: none is played for it
    (a homemade deck's games can take long), and the error still names the id with a hint."""
    from deckgen import verdict
    from deckgen.build import BuildOptions, build_deck

    played: list[int] = []
    real = verdict._play_games
    monkeypatch.setattr(verdict, "_play_games", lambda *a: played.append(1) or real(*a))
    options = BuildOptions(out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", jobs=1, dpi=40)
    with pytest.raises(DeckgenError) as err:
        build_deck("classic", replace(options, only="red5"))
    assert "did you mean 'red-5'?" in str(err.value)
    assert played == [] and not list((tmp_path / "out").rglob("*.pdf"))
    build_deck("classic", replace(options, only="red-5", rulebook=False))      # a good id: the verdict plays
    assert played
