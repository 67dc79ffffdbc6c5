"""The playability verdict (deckgen/verdict.py, docs/checks.md): each case of issue 17's "Why",
and others like them, as a small manifest that gets its finding and exit code."""

import json

import pytest
from click.testing import CliRunner

from deckgen import verdict
from deckgen.check import check
from deckgen.cli import main
from deckgen.rules.record import CAUSES, GameRecord
from deckgen.stages import CheckOptions

HEAD = '''
[deck]
id = "{id}"
name = "{id}"
language = "en"
players = {{ min = {lo}, max = {hi} }}
hand_size = {hand}
palette = "classic"

[rules]
preset = "classic"
[rules.options]
challenge = false
{options}

[scoring]
target = 100
[scoring.points]
number = "face"
skip = 20
reverse = 20
draw-two = 20
draw-four = 50
wild = 50
wild-draw-four = 50
'''


def deck(id, body, lo=2, hi=4, hand=7, options=""):
    return HEAD.format(id=id, lo=lo, hi=hi, hand=hand, options=options) + body


# Every number card makes everyone draw 4: no game ends.
NUMBERS_DRAW_FOUR = deck("numbers-draw-four", '''
[kinds.number]
category = "number"
name = "Number"
effects = [{ op = "everyone_draws", n = 4 }]

[[cards]]
kind = "number"
colors = "all"
values = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "wild"
count = 4
''')

# Every card a Draw Four: at 3 and 5 players the games hit the turn cap; at 2 the second seat always wins
# (the first only draws its penalties).
ALL_DRAW_FOUR = deck("all-draw-four", '''
[[cards]]
kind = "draw-four"
colors = "all"
count = 27
''', hi=5)

# A Mercy limit of 10 with an everyone-draws-9 card: players are knocked out before they play.
MERCY = deck("mercy", '''
[kinds.nine]
category = "action"
name = "Everyone draws 9"
effects = [{ op = "everyone_draws", n = 9 }]

[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "nine"
colors = "all"
count = 3
points = 20
''', options="mercy_limit = 10")

# Two colours whose numbers never meet: cards go round and round.
NEVER_MATCH = deck("never-match", '''
[[cards]]
kind = "number"
colors = ["red"]
values = [1, 2]
count = 3

[[cards]]
kind = "number"
colors = ["blue"]
values = [3, 4]
count = 3
''', lo=2, hi=2, hand=4, options="turn_cap = 200")

# One card dealt each: the first player sheds it at once.
ONE_CARD = deck("one-card", '''
[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "wild"
count = 8
''', hand=1)

SOUND = deck("sound", '''
[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
count = 2

[[cards]]
kind = "skip"
colors = "all"
count = 2

[[cards]]
kind = "wild"
count = 4
''')


def run(write_manifest, text, **kw):
    return check(write_manifest(text), CheckOptions(**kw))


def cli(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def by_code(rep, code):
    return [f for f in rep.findings if f.code == code]


def test_numbers_that_make_everyone_draw_never_finish_and_the_cause_is_named(write_manifest):
    path = write_manifest(NUMBERS_DRAW_FOUR)
    res = cli("check", path)
    assert res.exit_code == 1, res.output
    (f,) = [line for line in res.output.splitlines() if line.startswith("error[does-not-finish]")]
    assert "'Number' cards (99.9%)" in f          # which kind accounts for the cards drawn (not '100%')
    assert "hands of 7 dealt grew to" in f          # how hands grow
    # the fix names the card by its name, not its rulebook paragraph, and the command that searches for one
    assert "print fewer 'Number' cards (80 of the 84 cards are 'Number')" in f and "Every other player" not in f
    assert f"deckgen tune {path}" in f
    assert "verdict: not ready to print" in res.output


def test_every_card_a_draw_four_does_not_finish_and_the_second_seat_always_wins(write_manifest):
    rep = run(write_manifest, ALL_DRAW_FOUR)
    (stuck,) = by_code(rep, "does-not-finish")
    assert stuck.is_error and "3 players" in stuck.message and "5 players" in stuck.message
    assert "turn cap" in stuck.message
    seats = {f.where: f for f in by_code(rep, "unfair-seat")}
    two = seats["deck.players[2]"]
    # an extreme seat (half way to always winning, at 2 players) is an error
    assert two.is_error and "seat 2 wins 100%" in two.message and "family-wise interval" in two.message


def test_a_mercy_limit_reached_at_the_deal_decides_the_game_before_play(write_manifest):
    path = write_manifest(MERCY)
    rep = check(path, CheckOptions())
    (early,) = by_code(rep, "decided-before-play")
    assert early.is_error and "mercy_limit" in early.hint and "7 + 9" in early.hint
    assert cli("check", path, "--json").exit_code == 1


def test_one_card_hands_are_decided_before_play(write_manifest):
    rep = run(write_manifest, ONE_CARD)
    (early,) = by_code(rep, "decided-before-play")
    assert "hand_size" in early.hint
    assert not by_code(rep, "games-too-short")       # said once, by the error


def test_cards_that_never_match_stall_and_the_fix_says_so(write_manifest):
    rep = run(write_manifest, NEVER_MATCH)
    (stuck,) = by_code(rep, "does-not-finish")
    assert "200-turn cap" in stuck.message
    assert "rarely match" in stuck.hint


def test_a_deck_that_cannot_be_dealt_to_players_max_is_an_error(write_manifest):
    rep = run(write_manifest, SOUND.replace("max = 4", "max = 12").replace("values = [1, 2, 3, 4, 5, 6, 7, 8, 9]",
                                                                             "values = [1, 2, 3]"))
    (f,) = by_code(rep, "too-few-cards")
    assert f.is_error and "12 players" in f.message
    assert "simulation" not in rep.sections          # no game is played with a deck that cannot be dealt


def test_a_sound_deck_is_ready_to_print(write_manifest):
    path = write_manifest(SOUND)
    res = cli("check", path, "--json")
    data = json.loads(res.output)
    assert res.exit_code == 0, res.output
    assert data["verdict"] == {"ready": True, "given": True, "strict": False, "line": data["verdict"]["line"]}
    assert data["verdict"]["line"].startswith("ready to print")
    sim = data["simulation"]
    assert [t["players"] for t in sim["tables"]] == [2, 3, 4]
    assert [t["players"] for t in sim["greedy"]["tables"]] == [2, 3, 4]
    # the seat test plays at least its first look at every table size
    assert all(t["games"] >= verdict.SEAT_FIRST_LOOK for t in sim["tables"])


def test_strict_turns_warnings_into_errors(write_manifest):
    # no number card and an unused challenge option: warnings only
    path = write_manifest(SOUND.replace("challenge = false", "challenge = true"))
    plain = cli("check", path, "--no-sim")
    strict = cli("check", path, "--no-sim", "--strict")
    assert plain.exit_code == 0 and "warning[rule-needs-card]" in plain.output
    assert strict.exit_code == 1 and "error[rule-needs-card]" in strict.output
    assert "verdict (--strict): not ready to print" in strict.output


def test_the_verdict_is_deterministic_and_cached(write_manifest, tmp_path):
    path = write_manifest(ALL_DRAW_FOUR)
    opts = dict(cache_dir=tmp_path / "cache")
    first = check(path, CheckOptions(**opts))
    again = verdict.start([first.deck], cache_dir=tmp_path / "cache")
    assert again.pending is None                       # read from the cache, no game played
    fresh = check(path, CheckOptions(use_cache=False, jobs=1))
    assert fresh.sections["simulation"] == first.sections["simulation"]
    assert fresh.findings == first.findings
    cached = [(f.code, f.message) for f in again.result(0).findings]
    judged = ("does-not-finish", "decided-before-play", "unfair-seat")
    assert cached == [(f.code, f.message) for f in first.findings if f.code in judged]


def test_a_copy_of_a_deck_elsewhere_reads_the_verdict_and_its_findings_name_the_copy(write_manifest, tmp_path):
    import dataclasses

    from deckgen import manifest

    path = write_manifest(ALL_DRAW_FOUR)
    first = check(path, CheckOptions())
    (tmp_path / "copy").mkdir()
    copy = tmp_path / "copy" / "deck.toml"
    copy.write_text(ALL_DRAW_FOUR, encoding="utf-8")
    assert verdict.start([manifest.load(copy).deck]).pending is None      # its verdict is there: no game to play
    again = check(copy, CheckOptions(jobs=1))
    judged = [f for f in again.findings if f.code in ("does-not-finish", "unfair-seat")]
    assert judged and {f.file for f in judged} == {str(copy)}
    assert [f.file for f in first.findings if f.code == "does-not-finish"] == [str(path)]
    # the fix the hints give is the copy's own command (it said "deckgen tune <the first deck>")
    tune_first, tune_copy = verdict.tune_command(first.deck), verdict.tune_command(again.deck)
    assert tune_first != tune_copy and any(tune_copy in (f.hint or "") for f in judged)
    assert not any(tune_first in (f.hint or "") + f.message for f in again.findings)
    assert again.findings == [
        dataclasses.replace(f, file=str(copy), hint=(f.hint or "").replace(tune_first, tune_copy) or f.hint)
        if f.file == str(path) else f for f in first.findings]
    assert again.sections["simulation"] == first.sections["simulation"]


def test_the_verdict_on_a_builds_workers_is_the_verdict_played_here(write_manifest):
    """Same seed, same games, same findings whether the games run in this process or as jobs on a
    shared pool of workers beside other jobs."""
    from deckgen import manifest
    from deckgen.workers import Workers

    deck = manifest.load(write_manifest(ALL_DRAW_FOUR)).deck
    here = verdict.start([deck], use_cache=False, workers=1).result(0)
    with Workers(2) as pool, verdict.sharing(pool):
        pool.submit("other", pow, (2, 10))
        shared = verdict.start([deck], use_cache=False).result(0)
        assert pool.wait() == ("other", 1024)
    assert shared == here
    assert shared.to_json() == here.to_json()


def test_games_fixed_by_the_option_are_played_exactly(write_manifest):
    rep = run(write_manifest, SOUND, games=6)
    sim = rep.sections["simulation"]
    assert sim["games_per_table_size"] == 6
    assert all(t["games"] == 6 for t in sim["tables"] + sim["greedy"]["tables"])


# ---------------------------------------------------------------- the criteria on hand-made records

def record(turns=60, winner=0, outcome="finished", plays=(5, 5), players=2):
    return GameRecord(outcome, winner, turns, turns, 10, 0, 0, 0, 0, 9, 0, 0, tuple(plays),
                      tuple([10] + [0] * (len(CAUSES) - 1)), tuple(0 for _ in plays),
                      tuple(tuple(plays) for _ in range(players)), tuple(0 for _ in plays),
                      ((5, 20, tuple([7] * players)),), ())


class FakeTable:
    kinds = ("number", "wild")

    class rules:
        turn_cap = 5000
        mercy_limit = 0
        stacking = "off"
        power_cards = False

    any_flex = False
    move_kind = (0, 0, 1, 1)
    has_flex = (False, False)
    n_faces = 2


def judge(recs_by_cell, games=None):
    from deckgen import manifest

    d = manifest.load_deck("classic")
    cells = []
    for (agent, n), recs in recs_by_cell.items():
        c = verdict.Cell(0, agent, n, games)
        c.recs = recs
        cells.append(c)
    return d, verdict.judge(d, FakeTable, cells, 1, games)


def test_long_and_short_games_are_measured_against_classic():
    _, got = judge({("random", 2): [record(turns=1000) for _ in range(20)],
                    ("greedy", 2): [record(turns=8) for _ in range(20)]})
    codes = {f.code: f for f in got.findings}
    assert "median 1000 turns against classic's 51.5" in codes["games-too-long"].message
    assert "median 8 turns against classic's 40" in codes["games-too-short"].message


def test_a_kind_never_played_is_a_dead_card():
    # 20 games cannot tell a Wild (4 copies) played less than a tenth as often as the numbers from one
    # never played; 400 can (the upper bound of its rate falls below a tenth of theirs)
    _, got = judge({("random", 2): [record(plays=(9, 0)) for _ in range(20)]})
    assert not [f for f in got.findings if f.code == "dead-card"]
    _, got = judge({("random", 2): [record(plays=(9, 0)) for _ in range(400)]})
    (dead,) = [f for f in got.findings if f.code == "dead-card"]
    assert dead.where == "kinds.wild" and "never played" in dead.message and not dead.is_error


def test_a_few_unfinished_games_are_a_warning_and_many_an_error():
    few = [record() for _ in range(39)] + [record(turns=5000, outcome="capped", winner=None)]
    _, got = judge({("random", 3): few})
    assert [f.code for f in got.findings if f.code.endswith("finish")] == ["some-games-do-not-finish"]
    many = [record() for _ in range(30)] + [record(turns=5000, outcome="capped", winner=None)] * 10
    _, got = judge({("random", 3): many})
    assert [f.code for f in got.findings if f.code.endswith("finish")] == ["does-not-finish"]


def test_classic_medians_are_what_the_engine_plays_now():
    from deckgen import manifest
    from deckgen.rules.simulate import PlayOptions, simulate

    d = manifest.load_deck("classic")
    for agent in verdict.AGENTS:
        rep = simulate(d, [2, 4, 7, 10], PlayOptions(games=120, seed=7, agent=agent, workers=1))
        for t in rep.tables:
            ref = verdict.CLASSIC_MEDIAN[agent][t.players]
            assert abs(t.turns.median - ref) <= 0.2 * ref, (agent, t.players, t.turns.median, ref)


# seeds 1 to 20 were all run for docs/checks.md (each clean); the suite plays two of them per deck
@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 10])
@pytest.mark.parametrize("name", ["classic", "no-mercy", "flex-spectrum"])
def test_bundled_decks_have_no_errors_and_no_warnings(name, seed):
    rep = check(name, CheckOptions(use_cache=False, seed=seed))
    assert rep.findings == [f for f in rep.findings if f.severity == "note"], [f.format() for f in rep.findings]
    assert rep.verdict_line() == "ready to print"


# ---------------------------------------------------------------- issue 35: the false alarm and the miss

def _classic_with(options: str) -> str:
    from deckgen.resources import decks_dir

    text = (decks_dir() / "classic.toml").read_text(encoding="utf-8")
    return text.replace('[rules]\npreset = "classic"\n', '[rules]\npreset = "classic"\n[rules.options]\n' + options + "\n")


def test_classic_with_draw_until_playable_and_must_play_is_ready(write_manifest):
    """A draw pile that runs dry is a rule of the game (the turn passes), not a game that fails."""
    text = _classic_with('no_playable_card = "draw-until-playable"\nplay_drawn = "must"')
    rep = check(write_manifest(text), CheckOptions(use_cache=False))
    assert rep.deck.rule_options.no_playable_card == "draw-until-playable"
    assert not rep.errors and not rep.warnings, [f.format() for f in rep.findings]
    assert rep.verdict_line() == "ready to print"
    # the greedy player's rare endless games at odd table sizes (a few in a hundred) are a note, not a failure
    assert all(f.severity == "note" for f in by_code(rep, "some-games-do-not-finish"))


# Only Skips: the first player is skipped by the start card and every card after, so at 2 players
# seat 2 always wins and seat 1 never plays; at 3 to 6 players seat 2 wins nine games in ten.
ALL_SKIPS = deck("all-skips", '''
[[cards]]
kind = "skip"
colors = "all"
count = 12
''', hi=6, hand=5)


def test_a_deck_of_only_skips_is_an_error(write_manifest):
    rep = run(write_manifest, ALL_SKIPS)
    assert rep.errors and not rep.verdict_line().startswith("ready")
    seats = [f for f in by_code(rep, "unfair-seat") if f.is_error]
    assert seats and any("seat 2 wins" in f.message for f in seats)
    assert {f.where for f in seats} >= {"deck.players[3]", "deck.players[4]"}
    (early,) = by_code(rep, "decided-before-play")
    assert "2 players" in early.message


def test_no_sim_says_the_verdict_was_not_given(write_manifest):
    path = write_manifest(SOUND)
    res = cli("check", path, "--no-sim")
    assert res.exit_code == 0
    assert "verdict: not given: no simulated game was played (--no-sim)" in res.output
    assert "ready to print" not in res.output
    data = json.loads(cli("check", path, "--no-sim", "--json").output)
    assert data["verdict"]["given"] is False and data["verdict"]["ready"] is False


# ---------------------------------------------------------------- build runs the same verdict

@pytest.fixture(scope="module")
def never_ending(tmp_path_factory):
    """NUMBERS_DRAW_FOUR at one path for the two build tests below: the verdict's cache key holds
    the manifest's path, so the second build reads the verdict the first played (the suite's
    cache) instead of playing its never-ending games again. They test what the build does with
    the verdict; the verdict itself is tested above, each test playing its own."""
    path = tmp_path_factory.mktemp("never-ending") / "deck.toml"
    path.write_text(NUMBERS_DRAW_FOUR, encoding="utf-8")
    return path


def test_build_does_not_print_a_deck_whose_games_never_end(never_ending, tmp_path):
    path = never_ending
    out = tmp_path / "out"
    res = cli("build", path, "-o", out, "--no-rulebook", "--dpi", "30")
    assert res.exit_code == 1
    assert "does-not-finish" in res.output and "--force" in res.output
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_a_forced_build_says_so_on_the_cover(never_ending, tmp_path):
    import pypdf

    path = never_ending
    out = tmp_path / "out"
    res = cli("build", path, "-o", out, "--no-rulebook", "--force", "--dpi", "30")
    assert res.exit_code == 0, res.output
    assert "built anyway (--force)" in res.output
    (pdf,) = out.rglob("*-cards.pdf")
    cover = pypdf.PdfReader(pdf).pages[0].extract_text()
    assert "PRINTED WITH ERRORS (--force)" in cover and "does-not-finish" in cover


# Forty Wild Draw Fours among sixty cards, challenges on (classic): hands only grow.
WILD_DRAW_FOURS = HEAD.format(id="wild-draw-fours", lo=2, hi=6, hand=7, options="").replace(
    "challenge = false", "challenge = true") + '''
[[cards]]
kind = "number"
colors = "all"
values = [1, 2]
count = 1

[[cards]]
kind = "wild-draw-four"
count = 40

[[cards]]
kind = "reverse"
colors = "all"
count = 3
'''


def test_cards_drawn_by_a_challenge_are_the_challenged_cards_doing_and_the_fix_names_them(write_manifest):
    """A challenged Wild Draw Four draws its own four (and a failed challenger two more): those
    cards come from the Wild Draw Four, so the finding names it and the fix is to print fewer of
    them; "lost challenges" named most of them and the fix offered wilds, which the deck is full of."""
    rep = run(write_manifest, WILD_DRAW_FOURS, games=100)
    (stuck,) = by_code(rep, "does-not-finish")
    assert "came from 'Wild Draw Four' cards (9" in stuck.message and "lost challenges" not in stuck.message
    assert stuck.hint.startswith("print fewer 'Wild Draw Four' cards (40 of the 60 cards are 'Wild Draw Four')")


def test_a_game_decided_before_play_by_cards_that_cost_a_turn_names_them(write_manifest):
    """When the games that end before every player has played are mostly one card that makes the
    next player lose their turn, the fix names that card (it said to deal more cards, which does
    not help a player who never gets a turn)."""
    rep = run(write_manifest, WILD_DRAW_FOURS, games=100)
    (early,) = by_code(rep, "decided-before-play")
    assert "of the cards played in these games were 'Wild Draw Four', which costs the next player their turn: " \
           "print fewer of them (40 of the 60 cards)" in early.hint
    assert "hand_size" not in early.hint


def test_the_length_a_decided_early_finding_gives_is_that_of_those_games():
    """"2 players 3 of 5 (over in a median of 2 turns)": the median of the three games that ended
    before every player had played, not of all five (it gave the five's, which read as theirs)."""
    from types import SimpleNamespace

    from deckgen import manifest
    from deckgen.rules.table import compile_deck

    deck = manifest.load_deck("classic")
    table = compile_deck(deck)
    games = [SimpleNamespace(turns=t, plays_by_kind=[0] * len(table.kinds), penalty_by_kind=[0] * len(table.kinds),
                             draws_by_cause=[0] * len(CAUSES)) for t in (1, 2, 3, 200, 300)]
    cell = SimpleNamespace(players=2, agent="random", recs=games)
    found = verdict._decided_early(deck, [(cell, games[:3])], table)
    assert "random player: 2 players 3 of 5 (over in a median of 2 turns)" in found.message
