"""deckgen tune (deckgen/tune/, docs/tune.md): targets and variables checked before any game, the
search seeded and resumable, the chosen candidate written beside the original and passing check."""

import json

import pypdf
import pytest
from click.testing import CliRunner

from deckgen import runner
from deckgen.check import CheckOptions, check
from deckgen.cli import main
from deckgen.resources import decks_dir
from deckgen.tune import TuneOptions, tune
from deckgen.tune.space import parse_target, parse_variable


def classic_text(wild_draw_fours: int = 24, options: str = 'stacking = "same-kind"') -> str:
    """Classic UNO with this many Wild Draw Fours and these rule options: 24 and stacking make games
    that mostly never end."""
    text = (decks_dir() / "classic.toml").read_text(encoding="utf-8")
    text = text.replace('id = "classic"', 'id = "long-classic"')
    text = text.replace('preset = "classic"\n', f'preset = "classic"\n[rules.options]\n{options}\n')
    head, sep, tail = text.partition('kind = "wild-draw-four"\ncount = 4')
    assert sep
    return head + f'kind = "wild-draw-four"\ncount = {wild_draw_fours}' + tail


@pytest.fixture
def long_deck(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text(classic_text(), encoding="utf-8")
    return path


def cli(*args):
    return CliRunner().invoke(main, list(map(str, args)))


@pytest.fixture
def no_games(monkeypatch):
    """Fails the test if any game is handed to the runner."""
    def refuse(*a, **k):
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "run_tasks", refuse)
    monkeypatch.setattr(runner, "start", refuse)


@pytest.mark.parametrize(("args", "said"), [
    (["--target", "median_tunrs=30..60"], "unknown target 'median_tunrs'"),
    (["--target", "median_turns=60..30"], "inverted range"),
    (["--target", "median_turns=30..30"], "empty range"),
    (["--target", "median_turns"], "is not NAME=LO..HI"),
    (["--vary", "count:wild-draw-fuor=0..8"], "no card of kind 'wild-draw-fuor'"),
    (["--vary", "count:wild-draw-four=8..0"], "inverted range"),
    (["--vary", "count:wild-draw-four=3..3"], "empty range"),
    (["--vary", "rules.stakcing"], "unknown rule option 'stakcing'"),
    (["--vary", "rules.mercy_limit"], "is a number: give its range"),
    (["--vary", "colour"], "unknown variable 'colour'"),
    (["--vary", "count:number=0..2"], "leaves too few cards to deal to 10 players"),
    (["--budget", "0.001s"], "less than one candidate's first games take"),
    (["--budget", "soon"], "is not a time"),
])
def test_bad_targets_variables_and_budgets_are_errors_before_any_game(long_deck, no_games, tmp_path, args, said):
    res = cli("tune", long_deck, *args, "--study", tmp_path / "s.log")
    assert res.exit_code == 2, res.output
    assert said in res.output and "Traceback" not in res.output
    assert not (tmp_path / "long-tuned.toml").exists()


def test_a_count_range_deckgen_chose_starts_where_the_deck_still_deals(tmp_path, no_games):
    """Forty Wild Draw Fours among 60 cards: with no --vary, tune's own range for them (0 to 80)
    would leave 20 cards at its lowest, too few to deal 7 to 6 players; tune refused its own default
    ("start its range at 24"). Its range now starts at 24, the counts the deck can deal with; a range
    the designer writes is still refused."""
    from deckgen.tune import prepare

    text = classic_text(40).replace('values = [1, 2, 3, 4, 5, 6, 7, 8, 9]', 'values = [1]').replace(
        'players = { min = 2, max = 10 }', 'players = { min = 2, max = 6 }')
    path = tmp_path / "wd4.toml"
    path.write_text(text, encoding="utf-8")
    from deckgen import manifest

    deck = manifest.load_deck(path)
    need = 6 * 7 + 2                           # six hands, the start card and one to draw

    def total(lowest):
        return sum(lowest.get(c.kind, c.count) for c in deck.cards)

    got = prepare(path, TuneOptions(study=tmp_path / "s.log"))
    assert len(got.variables) == 5 and all(v.values[-1] == max(2 * c, c + 2) for v, c in
                                           zip(got.variables, (2, 2, 2, 4, 40)))
    lowest = {v.kind: v.values[0] for v in got.variables}
    assert total(lowest) >= need > total({k: max(0, x - 1) for k, x in lowest.items()})    # no higher than needed
    res = cli("tune", path, "--vary", "count:wild-draw-four=0..8", "--study", tmp_path / "s.log")
    assert res.exit_code == 2 and f"start its range at {need - (deck.total - 40)}" in res.output


def test_every_problem_is_said_at_once(long_deck, no_games):
    res = cli("tune", long_deck, "--target", "nope=1..2", "--vary", "count:nope=0..2", "--vary", "rules.nope")
    assert res.exit_code == 2
    assert "unknown target 'nope'" in res.output and "no card of kind 'nope'" in res.output
    assert "unknown rule option 'nope'" in res.output


def test_target_and_variable_grammar():
    t = parse_target("seat_spread<=5%")
    assert (t.low, t.high) == (None, 0.05) and t.text() == "seat_spread<=5%"
    assert parse_target("expert_edge>=8pts").low == pytest.approx(0.08)
    assert parse_target("median_turns=30..60").met(45) and not parse_target("median_turns=30..60").met(61)
    from deckgen import manifest

    deck = manifest.load_deck("classic")
    v = parse_variable("rules.mercy_limit=15..30", deck)
    assert v.values == tuple(range(15, 31)) and v.integer_range
    assert parse_variable("rules.stacking", deck).values == ("off", "same-kind", "equal-or-higher")
    assert parse_variable("count:wild-draw-four", deck).values == tuple(range(0, 9))     # 0 to twice its 4


OPTS = dict(targets=("median_turns=20..150", "finished>=97%"), variables=("count:wild-draw-four=0..24",),
            players=(2, 5), trials=8)


def test_tune_finds_counts_whose_games_end_and_the_manifest_it_writes_passes_check(long_deck, tmp_path):
    before = long_deck.read_text(encoding="utf-8")
    assert check(long_deck, CheckOptions()).errors     # the deck fails as written
    got = tune(long_deck, TuneOptions(**OPTS, study=tmp_path / "study.log"))
    assert got.chosen is not None and got.chosen.result.met and got.chosen.changes["count:wild-draw-four"] < 24
    assert got.written == tmp_path / "long-tuned.toml" and long_deck.read_text(encoding="utf-8") == before
    assert f"count = {got.chosen.changes['count:wild-draw-four']}" in got.written.read_text(encoding="utf-8") \
        or got.chosen.changes["count:wild-draw-four"] == 0
    assert got.diff.startswith(f"--- {long_deck}")
    rep = check(got.written, CheckOptions())
    assert not rep.errors, [f.format() for f in rep.errors]
    # same seed, another study file: the same candidates and the same best
    again = tune(long_deck, TuneOptions(**OPTS, study=tmp_path / "other.log", output=tmp_path / "again.toml"))
    assert again.chosen.changes == got.chosen.changes
    assert [c.changes for c in again.search.candidates] == [c.changes for c in got.search.candidates]


def test_a_study_goes_on_from_its_file(long_deck, tmp_path):
    study = tmp_path / "study.log"
    first = tune(long_deck, TuneOptions(**{**OPTS, "trials": 4}, study=study, output=tmp_path / "a.toml"))
    more = tune(long_deck, TuneOptions(**OPTS, study=study, output=tmp_path / "b.toml"))
    assert more.search.resumed == len(first.search.candidates) == 4
    assert len(more.search.candidates) == 8
    assert [c.changes for c in more.search.candidates[:4]] == [c.changes for c in first.search.candidates]


SKIPS_ONLY_NUMBERS = '''
[deck]
id = "plain"
name = "plain"
language = "en"
players = { min = 2, max = 3 }
hand_size = 7
palette = "classic"

[rules]
preset = "classic"
[rules.options]
challenge = false

[scoring]
target = 100
[scoring.points]
number = "face"
skip = 20

[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "skip"
colors = "all"
count = 2
'''


def test_a_candidate_the_manifest_rules_refuse_is_skipped_and_counted(tmp_path):
    path = tmp_path / "plain.toml"
    path.write_text(SKIPS_ONLY_NUMBERS, encoding="utf-8")
    # stacking without draw cards is an error when the manifest sets it: those candidates are skipped
    got = tune(path, TuneOptions(targets=("finished>=90%",), variables=("rules.stacking",), trials=6,
                                 study=tmp_path / "s.log"))
    assert got.search.skipped >= 1 and "rule-needs-card" in got.search.skipped_why[0]
    assert all(c.changes["rules.stacking"] == "off" for c in got.search.candidates)


def test_cli_prints_writes_json_pdf_and_says_an_impossible_target(long_deck, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = cli("tune", long_deck, "--target", "median_turns=2..3", "--vary", "count:wild-draw-four=0..4",
              "--players", "2", "--trials", "4", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["unmet"] and data["unmet"][0].startswith("no candidate met median_turns=2..3: the nearest")
    assert json.loads((tmp_path / data["json"]).read_text())["candidates"] == 4
    text = pypdf.PdfReader(tmp_path / data["pdf"]).pages[0].extract_text()
    assert "Targets" in text and "median_turns=2..3" in text
    # the same command again goes on from the study file (no new candidate) and says how close it came
    res = cli("tune", long_deck, "--target", "median_turns=2..3", "--vary", "count:wild-draw-four=0..4",
              "--players", "2", "--trials", "4")
    assert res.exit_code == 0 and "closest candidate (misses 1 of 1 target): #" in res.output, res.output


def test_with_no_targets_and_no_variables_the_verdicts_criteria_and_the_action_and_wild_counts():
    from deckgen import manifest
    from deckgen.tune.space import checked

    deck = manifest.load_deck("classic")
    targets, variables = checked((), (), deck)
    assert [t.text() for t in targets] == ["finished>=90%", "early<=10%", "seat_spread<=10%", "length_ratio=0.5..2"]
    assert [v.name for v in variables] == ["count:skip", "count:reverse", "count:draw-two", "count:wild",
                                           "count:wild-draw-four"]
    assert variables[-1].values == tuple(range(0, 9))


def test_the_deck_as_written_is_the_first_candidate_and_wins_when_it_meets_every_target(tmp_path):
    """A deck that already meets every target is told so, and nothing is written: the search used
    to try only what its sampler drew, and offered changes to a deck that needed none."""
    from deckgen.tune import to_text

    path = tmp_path / "classic.toml"
    path.write_text((decks_dir() / "classic.toml").read_text(encoding="utf-8"), encoding="utf-8")
    got = tune(path, TuneOptions(trials=4, players=(4,), study=tmp_path / "s.log"))
    first = got.search.candidates[0]
    assert first.number == 0 and first.change == 0 and first.result.met
    assert got.chosen is first and got.written is None
    text = to_text(got)
    assert "best candidate (meets every target" in text and "#0: the deck as written" in text
    assert "no manifest written" in text
    # the other candidates name only what they change, with the value as written
    assert all("(was " in line for line in text.splitlines() if line.startswith("  #") and "as written" not in line)


def test_a_search_of_one_trial_plays_the_deck_as_written(tmp_path):
    # seen: --trials 1 said "no candidate could be evaluated" (the enqueued deck as written was
    # counted as a candidate taken before it was asked)
    path = tmp_path / "classic.toml"
    path.write_text((decks_dir() / "classic.toml").read_text(encoding="utf-8"), encoding="utf-8")
    got = tune(path, TuneOptions(trials=1, players=(4,), study=tmp_path / "s.log"))
    assert [c.number for c in got.search.candidates] == [0] and got.search.candidates[0].change == 0
    assert got.search.games > 0 and got.chosen is got.search.candidates[0]
    again = tune(path, TuneOptions(trials=2, players=(4,), study=tmp_path / "s.log"))    # resumed: one more
    assert [c.number for c in again.search.candidates] == [0, 1] and again.search.resumed == 1


def test_a_build_may_follow_a_tune_in_the_same_output_folder(long_deck, tmp_path, monkeypatch):
    """tune's study file made output/<deck>/ before its other files claimed it, unmarked, and the
    next build refused output/ as "a folder that deckgen did not make"."""
    monkeypatch.chdir(tmp_path)
    res = cli("tune", long_deck, "--vary", "count:wild-draw-four=0..4", "--players", "2", "--trials", "2")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "output" / ".deckgen-output").is_file()
    assert (tmp_path / "output" / "long-classic" / ".deckgen-output").is_file()
    built = cli("build", long_deck, "--force")
    assert "did not make" not in built.output, built.output
    assert built.exit_code in (0, 1), built.output      # the long deck's games may fail the verdict: --force builds
    assert (tmp_path / "output" / "long-classic" / "long-classic-cards.pdf").is_file()


def test_a_figure_whose_interval_crosses_its_range_is_said_to_be_unclear(tmp_path):
    """A candidate's figure is judged by its value once the look budget ends: a length ratio of
    0.524 whose 95 % interval is 0.466-0.563 was printed "met", and its candidate "meets every
    target", though the games leave it open. It is now said to be met, not clearly."""
    from dataclasses import replace

    from deckgen.tune import to_text
    from deckgen.tune.pdf import _cell

    path = tmp_path / "classic.toml"
    path.write_text((decks_dir() / "classic.toml").read_text(encoding="utf-8"), encoding="utf-8")
    got = tune(path, TuneOptions(trials=1, players=(4,), study=tmp_path / "s.log"))
    c = got.chosen
    t = next(t for t in got.targets if t.name == "length_ratio")
    assert "length_ratio=0.5..2: 1.09 at 4 players (95 % interval 0.982-1.14) met\n" in to_text(got)
    open_ = replace(c.result.figures[t.text()], value=0.524, low=0.466, high=0.563, met=True)
    c2 = replace(c, result=replace(c.result, figures={**c.result.figures, t.text(): open_}))
    text = to_text(replace(got, chosen=c2, front=[c2]))
    assert "not clearly: its interval reaches past the range" in text.split("length_ratio", 1)[1]
    assert "0.524 at 4 players (95 % interval 0.466-0.563) met, not clearly" in text
    assert "best candidate (meets every target, 2 of them not clearly)" in text    # with seat_spread's
    assert _cell(t, open_).endswith("met, unclear")
