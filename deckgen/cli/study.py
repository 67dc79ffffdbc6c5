"""The commands that study a deck before it is printed: ``check`` (every finding and the
playability verdict), ``simulate`` (many games, in figures) and ``report`` (a balance report PDF)."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from deckgen.atomic import claim_output
from deckgen.cli.base import Command, Progress, echo_findings, echo_json, findings_json
from deckgen.cli.params import (
    PaletteChoice,
    cluster_option,
    gather,
    jobs_option,
    json_option,
    palette_options,
    think_option,
)
from deckgen.errors import DeckgenError

if TYPE_CHECKING:
    from deckgen.balance import ReportOptions
    from deckgen.check import CheckReport
    from deckgen.model import Deck
    from deckgen.runner import Cluster
    from deckgen.stages import CheckOptions


# ---------------------------------------------------------------- check

def check_options(games: int | None, no_sim: bool, seed: int, strict: bool, no_cache: bool,  # noqa: PLR0913 (one per option)
                  jobs: int | None, cluster: Cluster | None, sizes: tuple[str, ...] = ()) -> CheckOptions:
    """``check``'s options as the core's :class:`deckgen.check.CheckOptions` (the palette and the
    progress bar are set per deck)."""
    from deckgen.stages import CheckOptions

    return CheckOptions(simulate=not no_sim, games=games, seed=seed, strict=strict, jobs=jobs, use_cache=not no_cache,
                        cluster=cluster, sizes=tuple(sizes))


@click.command("check", cls=Command)
@click.argument("decks", nargs=-1, metavar="[DECK ...]")
@json_option
@click.option("--games", type=click.IntRange(1, 100_000), default=None,
              help="Simulated games per table size and player (default: as many as the verdict needs).")
@click.option("--no-sim", is_flag=True, help="Skip simulated play (and the playability verdict).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for simulated play.")
@click.option("--strict", is_flag=True, help="Count warnings as errors (exit code 1), e.g. for your own CI.")
@click.option("--no-cache", is_flag=True, help="Play the games again instead of reading an unchanged deck's verdict.")
@click.option("--size", "sizes", multiple=True, metavar="NAME",
              help="Also audit every face at this card size or print-shop preset (repeatable), e.g. --size tgc-poker.")
@jobs_option
@cluster_option
@palette_options
@gather("options", check_options, "games", "no_sim", "seed", "strict", "no_cache", "jobs", "cluster", "sizes")
def check(decks: tuple[str, ...], as_json: bool, options: CheckOptions, palette: PaletteChoice) -> None:
    """Check a deck before printing it: schema, counts, palette, text, fonts, rules and a
    playability verdict from simulated games (every finding code: docs/checks.md).

    DECK is a bundled deck name (see `deckgen list`) or a path to a manifest; with no DECK,
    every bundled deck. Exit code 0: no errors (warnings allowed; none with --strict);
    1: a deck has errors; 2: a file could not be read or the command was misused.

    Example:

        deckgen check classic

        deckgen check my-deck.toml --json

        deckgen check my-deck.toml --strict

        deckgen check my-deck.toml --size tgc-poker
    """
    from deckgen import manifest
    from deckgen.check import check_many
    from deckgen.errors import exit_code

    refs = list(decks) or list(manifest.bundled_decks())
    progress = Progress(enabled=not as_json)
    requests = [(ref, dataclasses.replace(options, palette=palette.for_deck(ref), progress=progress), None)
                for ref in refs]
    reps = check_many(requests)
    progress.close()
    if len(reps) == 1 and isinstance(reps[0], DeckgenError):
        raise reps[0]
    codes = [r.exit_code if isinstance(r, DeckgenError) else exit_code(r.findings) for r in reps]
    _echo_checked(refs, reps, codes, as_json)
    sys.exit(max(codes))


def _echo_checked(refs: list[str], reps: list[CheckReport | DeckgenError], codes: list[int], as_json: bool) -> None:
    """Every deck's report (text), or one JSON object (a deck's, or ``decks`` and the worst exit code)."""
    from deckgen import report

    if as_json:
        objs = [{"deck": ref, "exit_code": c, **findings_json(r.findings)} if isinstance(r, DeckgenError)
                else {**report.to_json(r), "exit_code": c} for ref, r, c in zip(refs, reps, codes)]
        echo_json(objs[0] if len(objs) == 1 else {"decks": objs, "exit_code": max(codes)})
        return
    for i, (ref, r) in enumerate(zip(refs, reps)):
        if i:
            click.echo("")
        if isinstance(r, DeckgenError):
            echo_findings(r.findings)
            click.echo(f"{ref}: could not be read")
        else:
            click.echo(report.to_text(r))


# ---------------------------------------------------------------- simulate

@dataclasses.dataclass(frozen=True)
class GamesChoice:
    """How ``simulate`` plays: how many games, from which seed, by whom, on which processes or cluster."""

    games: int
    seed: int
    agent: str
    think: int | None
    jobs: int | None
    cluster: Cluster | None


def _players(d: Deck, players_text: str | None) -> list[int]:
    """The table sizes to play (--players, else the deck's range); a size the deck cannot be dealt
    for stops the command: exit 2 when asked for, 1 when it is the deck's own range."""
    from deckgen.check import deal_problems
    from deckgen.errors import DeckHasErrors
    from deckgen.rules import simulate as sim

    players = (sim.parse_players(players_text, d.players_min, d.players_max) if players_text
               else list(range(d.players_min, d.players_max + 1)))
    undealt = deal_problems(d, players, "--players" if players_text else "deck.players")
    if undealt:        # asked for: a misused command (2); the deck's own range: the deck has errors (1)
        raise (DeckgenError if players_text else DeckHasErrors)(undealt)
    return players


@click.command("simulate", cls=Command)
@click.argument("deck")
@click.option("--players", "players_text", metavar="N|A-B", default=None,
              help="Table size, or a range like 2-10 (default: the deck's whole player range).")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=200, show_default=True,
              help="Games per table size.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed; the same seed gives the same report.")
@click.option("--agent", type=click.Choice(["random", "greedy", "expert"]), default="random", show_default=True,
              help="Who plays: uniformly random legal players, simple greedy ones, or experts that search "
                   "(docs/expert.md; thousands of times slower).")
@think_option
@jobs_option
@cluster_option
@click.option("--match", "whole_match", is_flag=True,
              help="Play whole matches to the deck's target score instead of single hands (--games: matches).")
@json_option
@gather("play", GamesChoice, "games", "seed", "agent", "think", "jobs", "cluster")
def simulate(deck: str, players_text: str | None, play: GamesChoice, whole_match: bool, as_json: bool) -> None:
    """Play many simulated games of a deck and report how they go at each table size.

    Per table size: games finished / stalled / capped, turns per game (mean, median, 90th
    percentile), win rate by seat, draws and reshuffles per game, knock-outs, the largest
    stack and hand, Flex plays and Power flips, and how often each card kind is played.
    With --match: whole matches to the target score, with matches played, hands per match
    and the match win rate by seat. Results depend only on the seed, not on the number of cores.

    Example:

        deckgen simulate classic --players 4 --games 1000

        deckgen simulate no-mercy --players 2-10 --agent greedy --json

        deckgen simulate classic --match --players 4 --games 100
    """
    from deckgen import manifest
    from deckgen.errors import warning
    from deckgen.rules import expert, match
    from deckgen.rules import simulate as sim

    d = manifest.load_deck(deck)
    players = _players(d, players_text)
    outside = [n for n in players if not d.players_min <= n <= d.players_max]
    found = [warning("players", "--players",
                     f"the deck is for {d.players_min}-{d.players_max} players; "
                     f"{', '.join(map(str, outside))} {'is' if len(outside) == 1 else 'are'} outside it",
                     hint="the games are played anyway; set deck.players in the manifest to change the range")
             ] if outside else []
    progress = Progress(enabled=not as_json)
    options = sim.PlayOptions(games=play.games, seed=play.seed, agent=play.agent, workers=play.jobs,
                              cluster=play.cluster, think=play.think or expert.THINK)
    if whole_match:
        matches = match.simulate_matches(d, players, options, progress)
        rep, text = matches.to_json(), match.to_text(matches)
    else:
        report = sim.simulate(d, players, options, progress)
        rep, text = report.to_json(), sim.to_text(report, names={kid: k.names.get(d.language)
                                                                 for kid, k in d.kinds.items()})
    progress.close()
    if as_json:
        echo_json({**rep, **findings_json(found)})
    else:
        echo_findings(found)
        click.echo(text)


# ---------------------------------------------------------------- report

@dataclasses.dataclass(frozen=True)
class ReportChoice:
    """What the balance report plays and compares (every option of ``report`` but -o and --json)."""

    vary: tuple[str, ...]
    compare: tuple[str, ...]
    players_text: str | None
    games: int
    agents: tuple[str, ...]
    seed: int
    lang: str | None
    skill_games: int | None
    think: int | None
    jobs: int | None
    cluster: Cluster | None

    def options(self, deck: str) -> ReportOptions:
        from deckgen import manifest
        from deckgen.balance import ReportOptions
        from deckgen.balance.report import SKILL_GAMES, SKILL_THINK
        from deckgen.rules.simulate import parse_players

        players = None
        if self.players_text:
            d = manifest.load_deck(deck)
            players = tuple(parse_players(self.players_text, d.players_min, d.players_max))
        return ReportOptions(games=self.games, seed=self.seed, players=players,
                             agents=tuple(self.agents) or ("random", "greedy"), lang=self.lang, vary=tuple(self.vary),
                             compare=tuple(self.compare), workers=self.jobs, cluster=self.cluster,
                             skill_games=SKILL_GAMES if self.skill_games is None else self.skill_games,
                             think=self.think or SKILL_THINK,
                             skill_players=None if self.skill_games is None else (players or ()))


@click.command("report", cls=Command)
@click.argument("deck")
@click.option("--vary", multiple=True, metavar="OPTION=V1,V2,...",
              help="Also play the deck with each of these values of a rule option, same seeds (repeatable).")
@click.option("--compare", multiple=True, metavar="OTHER.toml",
              help="Also play another manifest the same way and put it beside the deck (repeatable).")
@click.option("--players", "players_text", metavar="N|A-B", default=None,
              help="Table size, or a range like 2-10 (default: the deck's whole player range).")
@click.option("--games", type=click.IntRange(10, 100_000), default=200, show_default=True,
              help="Games per table size, agent and variant.")
@click.option("--agent", "agents", type=click.Choice(["random", "greedy", "expert"]), multiple=True,
              help="Who plays (repeatable; default: both random and greedy players).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed; the same seed gives the same report.")
@click.option("--lang", type=click.Choice(["es", "en"]), default=None, help="Language of the report (default: the deck's).")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The PDF to write (default: output/<deck>/<deck>-report.pdf).")
@click.option("--skill-games", type=click.IntRange(0, 100_000), default=None, metavar="N",
              help="'Does skill matter?': games of one expert among greedy or random players per table size "
                   "and opponent (default: up to 96, in looks until the answer is clear, at the fewest players, "
                   "4 and the most; N: up to N at every table size; 0 leaves the section out).")
@think_option
@jobs_option
@cluster_option
@click.option("--json", "as_json", is_flag=True,
              help="Also print every figure behind the charts as one JSON object (and every failure as JSON).")
@gather("plan", ReportChoice, "vary", "compare", "players_text", "games", "agents", "seed", "lang", "skill_games",
        "think", "jobs", "cluster")
def report_cmd(deck: str, out_path: Path | None, plan: ReportChoice, as_json: bool) -> None:
    """Write a balance report PDF: why the game plays the way it does, in charts.

    Per table size, with random and greedy players: game length, where drawn cards come from,
    hand size over a game, win rate by seat with 95 % intervals, each card kind's plays and
    win rate, and the events the checker warns about. --vary and --compare put rule variants
    or other decks beside it on the same axes, with the significant differences marked and
    summarised in plain words on the first page. A deck with errors gets its findings (exit 1).

    Example:

        deckgen report flex-spectrum

        deckgen report flex-spectrum --vary duel_penalty_max=2,4 --lang en
    """
    from deckgen import outputs
    from deckgen.balance import build_report, write_report

    if out_path is not None:
        claim_output(out_path, folder=False)
    opts = plan.options(deck)
    progress = Progress(enabled=not as_json)
    rep = build_report(deck, opts, progress)
    target = out_path or claim_output(outputs.report_pdf(rep["deck"]), folder=False)   # made and marked
    write_report(rep, target, progress)
    progress.close()
    if as_json:
        echo_json({**rep, "pdf": str(target)})
    else:
        for para in rep["summary"]:
            click.echo(para["text"])
            for b in para["bullets"]:
                click.echo(f"  - {b}")
        click.echo(f"wrote {target}")


# ---------------------------------------------------------------- tune

@dataclasses.dataclass(frozen=True)
class TuneChoice:
    """What ``tune`` searches and how (every option of ``tune`` but -o and --json)."""

    targets: tuple[str, ...]
    variables: tuple[str, ...]
    budget: str
    trials: int
    seed: int
    players_text: str | None
    study: Path | None
    jobs: int | None
    cluster: Cluster | None


@click.command("tune", cls=Command)
@click.argument("deck")
@click.option("--target", "targets", multiple=True, metavar="NAME=LO..HI|NAME<=V|NAME>=V",
              help="What the games must show (repeatable): median_turns, length_ratio, seat_spread, finished, early, "
                   "expert_edge (docs/tune.md). Default: the verdict's criteria and a length near classic's.")
@click.option("--vary", "variables", multiple=True, metavar="count:KIND=LO..HI|rules.OPTION[=...]",
              help="What may change (repeatable): a kind's copies per card, or a rule option. Default: the counts "
                   "of the deck's action and wild kinds.")
@click.option("--budget", default="10m", show_default=True, metavar="TIME",
              help="Stop searching after this long (90s, 10m, 1h); the study file keeps what was found.")
@click.option("--trials", type=click.IntRange(1, 10_000), default=40, show_default=True,
              help="Candidates to evaluate at most (in the study, counting those of an earlier run).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the search and the games.")
@click.option("--players", "players_text", metavar="N|A-B", default=None,
              help="Table sizes to play (default: the fewest, 4 and the most).")
@click.option("--study", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The study file to keep the search in and go on from (default: output/<deck>/<deck>-tune-study.log).")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The new manifest (default: <manifest>-tuned.toml beside the original; never the original).")
@jobs_option
@cluster_option
@json_option
@gather("plan", TuneChoice, "targets", "variables", "budget", "trials", "seed", "players_text", "study", "jobs",
        "cluster")
def tune_cmd(deck: str, out_path: Path | None, plan: TuneChoice, as_json: bool) -> None:
    """Search the counts and rule options that make a deck meet its targets, with simulated games.

    Prints the best candidate with its figures and 95 % intervals and the trade-off between the
    targets; writes them as JSON and a PDF page (output/<deck>/<deck>-tune.json, .pdf), and the
    chosen candidate as a new manifest beside the original, with a diff. Same seed, same result,
    on any number of cores or a cluster; run it again to go on from its study file.

    Example:

        deckgen tune my-deck.toml

        deckgen tune my-deck.toml --target "median_turns=30..60" --vary "count:wild-draw-four=0..8" --vary rules.stacking
    """
    from deckgen import manifest, outputs
    from deckgen.atomic import write_bytes, write_text
    from deckgen.rules.simulate import parse_players
    from deckgen.tune import TuneOptions, to_text, tune
    from deckgen.tune.pdf import tune_pdf

    if out_path is not None:
        claim_output(out_path, folder=False)
    d = manifest.load_deck(deck)
    json_path, pdf_path, study_path = outputs.tune_files(d.id)
    # the default files claimed before the search, whose study file is the first written: output/<deck>/
    # made and marked as deckgen's, so that a build may write there next
    for path in (json_path, pdf_path, *(() if plan.study else (study_path,))):
        claim_output(path, folder=False)
    players = None
    if plan.players_text:
        players = tuple(parse_players(plan.players_text, d.players_min, d.players_max))
    options = TuneOptions(targets=plan.targets, variables=plan.variables, seed=plan.seed, trials=plan.trials,
                          budget=plan.budget, players=players, study=plan.study, output=out_path, workers=plan.jobs,
                          cluster=plan.cluster)
    progress = Progress(enabled=not as_json)
    result = tune(deck, options, progress)
    progress.close()
    data = result.to_json()
    write_text(json_path, json.dumps(data, indent=2, sort_keys=True, default=str) + "\n")
    write_bytes(pdf_path, tune_pdf(result))
    if as_json:
        echo_json({**data, "json": str(json_path), "pdf": str(pdf_path)})
    else:
        click.echo(to_text(result))
        click.echo(f"wrote {json_path} and {pdf_path}")
