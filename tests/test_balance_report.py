"""`deckgen report`: the PDF read back with pdfplumber and pypdf (every chart and its labels),
the JSON figures, variants with their tests, languages, output path and exit codes."""

import json

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from deckgen.balance import ReportOptions, build_report
from deckgen.balance.pdf import report_pdf
from deckgen.cli import main

BLUE = (0.0, 0.447, 0.698)      # variant A's bars (#0072B2)
SMALL = ["--players", "3-4", "--games", "20", "--agent", "random", "--jobs", "1", "--skill-games", "0"]


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _is(color, rgb):
    return color is not None and len(color) == 3 and all(abs(a - b) < 0.01 for a, b in zip(color, rgb))


def _page(pdf, heading):
    for page in pdf.pages:
        if heading in (page.extract_text() or ""):
            return page
    raise AssertionError(f"no page with {heading!r}")


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "classic-report.pdf"
    result = run("report", "classic", *SMALL, "--lang", "en", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out


def test_json_has_every_figure_behind_the_charts(english):
    rep, out = english
    assert rep["pdf"] == str(out)
    assert [v["id"] for v in rep["variants"]] == ["A"] and rep["tests"] == []
    assert {(g["agent"], g["players"]) for g in rep["groups"]} == {("random", 3), ("random", 4)}
    g = rep["groups"][0]
    assert g["games"] == 20 == g["finished"] + g["stalled"] + g["capped"]
    assert sum(g["turns"]["histogram"]["counts"]) + g["capped"] == 20
    assert g["draws"]["per_game"] == pytest.approx(sum(g["draws"]["by_cause"].values()), abs=0.05)
    assert len(g["seats"]["by_seat"]) == 3 and g["hands"]["points"][0]["turn"] == 0
    assert set(g["events"]) == {"capped", "stalled", "dry", "knockout"}
    assert "draw-two" in rep["kinds"] and rep["kinds"]["draw-two"] == "Draw Two"
    assert rep["methods"]["interval"].startswith("Wilson")
    assert rep["summary"] and rep["summary"][-1]["bullets"]


def test_pdf_pages_carry_each_chart_with_its_labels(english):
    rep, out = english
    with pdfplumber.open(out) as pdf:
        first = pdf.pages[0].extract_text()
        assert "Classic UNO" in first and "Balance report" in first and "In plain words" in first
        assert "Key figures: random players" in first
        assert rep["summary"][-1]["bullets"][0][:40] in first.replace("\n", " ")

        length = _page(pdf, "Game length: random players")
        text = length.extract_text()
        for label in ("3 players", "4 players", "turns", "cap", "median", "90th percentile"):
            assert label in text
        # one blue bar per non-empty histogram bin, in both charts
        bars = [r for r in length.rects if _is(r.get("non_stroking_color"), BLUE)]
        want = sum(1 for g in rep["groups"] for c in g["turns"]["histogram"]["counts"] if c)
        assert len(bars) == want

        draws = _page(pdf, "Where drawn cards come from")
        text = draws.extract_text()
        for key, name in rep["causes"].items():
            assert name in text, key
        assert "players" in text
        # the y-axis title runs upwards: its letters read bottom to top
        upright = sorted((c for c in draws.chars if not c["upright"]), key=lambda c: -c["top"])
        assert "cards drawn per game" in "".join(c["text"] for c in upright)
        segments = sum(1 for g in rep["groups"] for v in g["draws"]["by_cause"].values() if v > 0)
        assert len(draws.rects) >= segments + len(rep["causes"])

        hands = _page(pdf, "Hand size over a game: random players").extract_text()
        assert "draw pile" in hands and "middle 80 % of hands" in hands
        seats = _page(pdf, "Win rate by seat: random players")
        assert "fair share" in seats.extract_text() and "seat" in seats.extract_text()
        # a dot and an interval per seat: 3 + 4 seats
        assert sum(1 for c in seats.curves if _is(c.get("non_stroking_color"), BLUE)) >= 7

        kinds = _page(pdf, "Card kinds").extract_text()
        for name in ("Draw Two", "Wild Draw Four", "played per game", "win rate of hands that played it"):
            assert name in kinds
        assert "How this report was made" in pdf.pages[-1].extract_text()


def test_pdf_metadata_and_outline(english):
    _, out = english
    reader = PdfReader(out)
    assert reader.metadata.title == "Classic UNO: Balance report"
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert "In plain words" in titles and "Where drawn cards come from" in titles


def test_variants_are_tested_and_summarised_in_spanish(tmp_path):
    out = tmp_path / "r.pdf"
    result = run("report", "classic", *SMALL, "--vary", "stacking=off,same-kind", "--vary", "uno_penalty=4",
                 "--lang", "es", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    # the deck's own value (off) is variant A, not repeated
    assert [(v["id"], v["changes"]) for v in rep["variants"]] == [
        ("A", {}), ("B", {"stacking": "same-kind"}), ("C", {"uno_penalty": 4})]
    assert rep["variants"][0]["label"] == "la baraja tal como está escrita (stacking=off, uno_penalty=2)"
    assert {t["method"] for t in rep["tests"]} == {"Mann-Whitney U", "Fisher exact"}
    assert len(rep["tests"]) == 2 * 2 * 4          # variants B, C x 2 table sizes x 4 tests
    assert all(t["p_holm"] >= t["p"] for t in rep["tests"])
    with pdfplumber.open(out) as pdf:
        first = pdf.pages[0].extract_text().replace("\n", " ")
        assert "Informe de equilibrio" in first and "Variantes" in first
        assert "Con stacking=same-kind (jugadores al azar):" in first
        assert "Con uno_penalty=4 (jugadores al azar):" in first
        text = "\n".join(p.extract_text() for p in pdf.pages)
        assert "Duración de la partida: jugadores al azar" in text
        assert "Mann-Whitney" in text and "Holm" in text


def test_same_seed_same_figures_and_same_pdf_bytes():
    opts = ReportOptions(games=12, players=(3,), agents=("greedy",), workers=1, skill_games=2, think=2)
    a, b = build_report("classic", opts), build_report("classic", opts)
    assert a == b
    assert report_pdf(a) == report_pdf(b)


def test_default_output_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("report", "classic", "--players", "2", "--games", "10", "--agent", "greedy", "--jobs", "1", "--skill-games", "0")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "classic" / "classic-report.pdf").is_file()
    assert "wrote output/classic/classic-report.pdf" in result.stdout
    assert not [p for p in (tmp_path / "output" / "classic").iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("vary", "message", "listed"), [
    ("no_such_option=1", "unknown rule option 'no_such_option'", "duel_penalty_max"),
    ("stacking=sideways", "'sideways' is not a value of rule option 'stacking'", "equal-or-higher"),
    ("duel_penalty_max=0", "'0' is not a value of rule option 'duel_penalty_max'", "an integer from 1"),
    ("stacking", "'stacking' is not OPTION=V1,V2,...", "turn_cap"),
])
def test_unknown_option_or_value_is_exit_2_with_the_list(tmp_path, vary, message, listed):
    out = tmp_path / "r.pdf"
    result = run("report", "classic", *SMALL, "--vary", vary, "-o", str(out))
    assert result.exit_code == 2
    assert message in result.stderr and listed in result.stderr
    assert not out.exists()


def test_a_deck_with_errors_gets_its_findings_not_a_report(write_manifest, minimal_text, tmp_path):
    path = write_manifest(minimal_text.replace("hand_size = 5", "hand_size = 5\nhand_sise = 6"))
    out = tmp_path / "r.pdf"
    result = run("report", str(path), "--games", "10", "--skill-games", "0", "-o", str(out))
    assert result.exit_code == 1
    assert "hand_sise" in result.stderr and "did you mean 'hand_size'" in result.stderr
    assert not out.exists()
    # the same for a deck given to --compare
    result = run("report", "classic", *SMALL, "--compare", str(path), "-o", str(out))
    assert result.exit_code == 1 and "hand_sise" in result.stderr


def test_compare_puts_another_manifest_beside_the_deck(write_manifest, minimal_text, tmp_path):
    path = write_manifest(minimal_text)
    out = tmp_path / "r.pdf"
    result = run("report", "classic", *SMALL, "--compare", str(path), "--lang", "en", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    assert [v["deck"] for v in rep["variants"]] == ["classic", "mini"]
    assert rep["variants"][1]["label"] == "Mini (deck.toml)"
    # the 5-card hands of the mini deck give shorter games
    a = {g["players"]: g for g in rep["groups"] if g["variant"] == "A"}
    b = {g["players"]: g for g in rep["groups"] if g["variant"] == "B"}
    assert b[4]["hands"]["points"][0]["median"] == 5 and a[4]["hands"]["points"][0]["median"] == 7
    with pdfplumber.open(out) as pdf:
        assert "B: Mini (deck.toml)" in pdf.pages[0].extract_text() or "Mini (deck.toml)" in pdf.pages[0].extract_text()


def test_records_are_the_seeded_games_whatever_the_number_of_workers():
    from deckgen import manifest
    from deckgen.balance.report import make_variants, simulate_variants
    from deckgen.rules.bots import make as make_agent
    from deckgen.rules.simulate import play_record
    from deckgen.rules.table import compile_deck

    deck = manifest.load_deck("classic")
    variants = make_variants(deck, ["uno_penalty=4"], [], "en")
    one = simulate_variants(variants, [3, 4], ReportOptions(games=10, seed=7, workers=1, skill_games=0))
    two = simulate_variants(variants, [3, 4], ReportOptions(games=10, seed=7, workers=2, skill_games=0))
    assert one == two
    assert len(one.games) == 2 * 2 * 2 and all(len(v) == 10 for v in one.games.values()) and not one.skill
    table = compile_deck(variants[1].deck)
    assert one.games[("B", "greedy", 4)][9] == play_record(table, make_agent("greedy"), 7, 4, 9)


def test_compared_decks_play_the_table_sizes_they_share(write_manifest, minimal_text, tmp_path):
    path = write_manifest(minimal_text.replace("players = { min = 2, max = 4 }", "players = { min = 4, max = 6 }"))
    result = run("report", "classic", "--games", "10", "--agent", "greedy", "--jobs", "1", "--skill-games", "0", "--compare", str(path),
                 "-o", str(tmp_path / "r.pdf"), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"] == [4, 5, 6]
    other = write_manifest(minimal_text.replace("players = { min = 2, max = 4 }", "players = { min = 2, max = 3 }"),
                           name="small.toml")
    result = run("report", str(path), "--games", "10", "--skill-games", "0", "--compare", str(other), "-o", str(tmp_path / "r.pdf"))
    assert result.exit_code == 2 and "share no table size" in result.stderr


def test_events_chart_places_a_dot_per_turn_bin_with_events(tmp_path):
    out = tmp_path / "nm.pdf"
    result = run("report", "no-mercy", "--players", "3", "--games", "12", "--agent", "random", "--jobs", "1", "--skill-games", "0",
                 "--lang", "en", "-o", str(out), "--json")
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    g = rep["groups"][0]
    assert g["events"]["knockout"]["count"] > 0
    with pdfplumber.open(out) as pdf:
        page = _page(pdf, "Events the checker warns about")
        text = page.extract_text()
        for label in ("knock-out", "capped", "stalled", "dry draw pile", "3 players", "turns", "cap"):
            assert label in text
        grey = (0.271, 0.353, 0.392)           # knock-outs (#455A64)
        dots = [c for c in page.curves if _is(c.get("non_stroking_color"), grey)]
        bins = sum(1 for c in g["events"]["knockout"]["by_turn"] if c)
        assert len(dots) == bins + 2           # one per bin, the legend's and the count's


def test_how_games_with_knock_outs_are_won_is_said_and_counted(english, tmp_path):
    # No Mercy among greedy players: most games go to the last player standing (77 % at 4 players
    # over 300 games), which the report did not say
    result = run("report", "no-mercy", "--players", "3", "--games", "24", "--agent", "random", "--jobs", "1",
                 "--skill-games", "0", "--lang", "en", "-o", str(tmp_path / "nm.pdf"), "--json")
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    (g,) = rep["groups"]
    assert 0 < g["standing"] <= g["finished"] <= g["games"]
    share = round(100 * g["standing"] / g["finished"])
    said = [b for p in rep["summary"] for b in p.get("bullets", []) if "last player standing" in b]
    assert said == [f"The last player standing, every other knocked out, wins {share} % of the finished games at 3 "
                    f"players ({g['standing']} of {g['finished']}); the rest are won by a player who empties their "
                    f"hand."]
    classic, _ = english                                     # no knock-outs: nothing said, nothing counted
    assert all(x["standing"] == 0 for x in classic["groups"])
    assert not [b for p in classic["summary"] for b in p.get("bullets", []) if "standing" in b]


def test_a_share_that_is_not_nothing_is_never_said_as_0_percent():
    """The report said the last player standing "wins 0 % of the finished games (1 of 200)":
    a share rounded to a whole percentage took the decimals it needs only when it was not 0.5."""
    from deckgen.balance.text import pct

    assert [pct(x, "en") for x in (0, 1 / 200, 0.0004, 0.36, 199 / 200, 0.9996, 1)] == [
        "0 %", "0.5 %", "0.04 %", "36 %", "99.5 %", "99.96 %", "100 %"]
    assert pct(1 / 200, "es") == "0,5 %"
