"""`deckgen simulate --match`: whole matches to the target score, reported per table size."""

import json

from click.testing import CliRunner

from deckgen.cli import main
from deckgen.rules.match import HandsFigures, MatchResult, match_seed, play_match, run_matches, summarize
from deckgen.rules.record import Outcome
from deckgen.rules.scenario import table_for
from deckgen.rules.simulate import PlayOptions


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_summary_of_hand_written_matches():
    results = [MatchResult(Outcome.FINISHED, 0, (510, 120, 0), 6),
               MatchResult(Outcome.FINISHED, 2, (90, 100, 530), 9),
               MatchResult(Outcome.CAPPED, None, (0, 0, 0), 500)]
    s = summarize(3, results)
    assert (s.matches, s.finished, s.unfinished) == (3, 2, 1)
    assert s.hands_per_match == HandsFigures(round(515 / 3, 2), 9, 500)
    assert s.winning_score == 520.0
    assert s.win_rate_by_seat == (0.5, 0.0, 0.5)
    assert s.win_rate_ci[1][0] == 0.0
    data = s.to_json()
    assert data["hands_per_match"] == {"mean": round(515 / 3, 2), "median": 9, "max": 500}
    assert data["win_rate_by_seat"] == [0.5, 0.0, 0.5] and data["win_rate_ci"][1] == list(s.win_rate_ci[1])


def test_matches_reach_the_target_and_do_not_depend_on_the_number_of_workers():
    table = table_for("classic")
    one = run_matches(table, [3], PlayOptions(games=6, seed=4, workers=1))
    two = run_matches(table, [3], PlayOptions(games=6, seed=4, workers=2))
    assert one == two
    for m in one[3]:
        assert m.outcome == "finished" and max(m.scores) >= table.target and m.winner is not None
        assert m.scores[m.winner] == max(m.scores) and m.hands >= 1
    assert one[3][2] == play_match(table, 3, match_seed(4, 3, 2))


def test_cli_match_report_text_and_json():
    result = run("simulate", "classic", "--match", "--players", "2-3", "--games", "4", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "4 matches to 500 points per table size" in result.stdout
    assert "match win rate by seat" in result.stdout
    result = run("simulate", "classic", "--match", "--players", "3", "--games", "4", "--jobs", "1", "--json")
    data = json.loads(result.stdout)
    t = data["tables"][0]
    assert data["target"] == 500 and t["players"] == 3 and t["matches"] == 4
    assert t["finished"] + t["unfinished"] == 4
    assert abs(sum(t["win_rate_by_seat"]) - 1) < 0.01 and t["hands_per_match"]["mean"] >= 1
