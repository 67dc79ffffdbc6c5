"""One command-line vocabulary: -o/--output, one --jobs, bare numbers in millimetres, cards named by
their display name wherever a person reads them, columns that stay aligned with long paths."""

import re

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from deckgen.cli import main
from deckgen.errors import DeckgenError
from deckgen.layout import parse_paper
from deckgen.manifest import load_deck
from deckgen.render import card_size_mm
from deckgen.render.sheet import face_name
from deckgen.units import parse_length


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def commands(group=main, path=()):
    for name, cmd in group.commands.items():
        if isinstance(cmd, click.Group):
            yield from commands(cmd, (*path, name))
        else:
            yield " ".join((*path, name)), cmd


def options(cmd):
    return [p for p in cmd.params if isinstance(p, click.Option)]


def test_every_command_names_its_output_with_o_output():
    writers = 0
    for name, cmd in commands():
        for opt in options(cmd):
            assert "--out" not in opt.opts, f"{name} still spells it --out"
            if "-o" in opt.opts:
                assert opt.opts == ["-o", "--output"], name
                writers += 1
    assert writers >= 7       # render, preview, rulebook, build, calibrate, export tts, export cards


def test_one_jobs_option_everywhere():
    found = {}
    for name, cmd in commands():
        for opt in options(cmd):
            if "--jobs" in opt.opts:
                found[name] = (tuple(opt.opts), opt.type.min, opt.type.max, opt.default)
    assert {"render", "build", "simulate", "export tts", "export cards"} <= set(found)
    assert set(found.values()) == {(("-j", "--jobs"), 1, 256, None)}


def test_a_bare_number_is_millimetres_everywhere():
    assert card_size_mm("63x88") == (63.0, 88.0)
    assert card_size_mm("63 x 88.5") == (63.0, 88.5)
    assert parse_paper("210x297").size_mm == (210.0, 297.0)
    assert card_size_mm("2.5in x 3.5in") == pytest.approx((63.5, 88.9))


@pytest.mark.parametrize("text", ["2.5x3.5in", "2.5 x 3.5 in", "2.5in x 3.5in", "6.35 x 8.89cm"])
def test_a_unit_written_once_after_both_numbers_is_both_sides_unit(text):
    """'2.5x3.5in' is how sizes are written: it was read as 2.5 mm by 3.5 inches and refused."""
    assert card_size_mm(text) == pytest.approx((63.5, 88.9))
    assert parse_paper(text.replace("2.5", "8.5").replace("3.5", "11").replace("6.35", "21.59")
                       .replace("8.89", "27.94")).size_mm == pytest.approx((215.9, 279.4))


def test_a_card_size_out_of_range_says_how_it_was_read(write_manifest, minimal_text, tmp_path):
    result = run("render", write_manifest(minimal_text), "-o", tmp_path / "f", "--card-size", "2.5x3.5")
    assert result.exit_code == 2
    assert "'2.5x3.5' is 2.5 × 3.5 mm: not a card size" in result.output and "'2.5 x 3.5 in'" in result.output


def test_render_takes_a_bare_card_size_and_bleed(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text)
    result = run("render", path, "-o", tmp_path / "f", "--dpi", "30", "--card-size", "63x88", "--bleed", "2", "--json")
    assert result.exit_code == 0, result.output
    assert '"trim_mm": [\n    63.0,\n    88.0\n  ]' in result.stdout and '"bleed_mm": 2.0' in result.stdout


def test_simulate_lists_kinds_by_display_name(write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace('[[cards]]\nkind = "wild"', '[[cards]]\nkind = "wild-draw-four"\n'
                                                                             'points = 50\ncount = 4\n\n[[cards]]\nkind = "wild"'))
    out = run("simulate", path, "--games", "3", "--players", "2").stdout
    plays = out[out.index("plays per card kind"):].splitlines()[1:]
    shown = {line.rsplit(None, 1)[0].strip() for line in plays}
    assert shown <= {"Number", "Skip", "Wild", "Wild Draw Four"} and "Wild Draw Four" in shown


def test_preview_labels_are_display_names():
    deck = load_deck("flex-spectrum")
    assert face_name(deck, "colorless-0") == deck.card("colorless-0").name(deck.language) == "0 incoloro"
    assert face_name(deck, "back") == "dorso"
    power = deck.components[0]
    assert face_name(deck, power.faces[0]) == f"{power.names.get('es')} 1/2"


@pytest.mark.slow
def test_build_output_stays_aligned_with_long_paths(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text)
    out = tmp_path / ("a-rather-long-folder-name-for-the-prints-" * 3)
    result = run("build", path, "-o", out, "--dpi", "30")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("  ") and re.search(r"\d+ pages", line)]
    assert len(rows) == 3                       # the cards and two rulebooks, paths of different lengths
    assert all(len(str(out)) < line.index(" pages") for line in rows)
    assert len({line.index(" pages") for line in rows}) == 1
    assert len({len(line) for line in rows}) == 1


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=0, max_value=5000, allow_nan=False), st.floats(min_value=20, max_value=400),
       st.floats(min_value=20, max_value=400))
def test_bare_numbers_parse_as_millimetres(x, w, h):
    assert parse_length(repr(x)) == pytest.approx(x)
    assert parse_length(f"{x}mm") == pytest.approx(x)
    assert parse_length(f"{x / 25.4}in") == pytest.approx(x)
    assert card_size_mm(f"{w}x{h}") == pytest.approx((w, h))
    assert card_size_mm(f"{w}mm x {h}") == pytest.approx((w, h))


@given(st.floats(max_value=-1e-9, allow_nan=False, allow_infinity=False) | st.just(float("inf")))
def test_negative_and_infinite_lengths_are_refused(x):
    with pytest.raises(DeckgenError):
        parse_length(repr(x))
