"""The commands that keep running: ``play`` (a table in the browser), ``preview`` (a contact
sheet, with ``--watch`` redrawn on every change) and the watcher ``build --watch`` shares."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from deckgen.atomic import claim_output
from deckgen.cli.base import Command, Progress, echo_json, findings_json
from deckgen.cli.params import DeckChoice, Watching, deck_options, gather, json_option, render_options, usage_error, watch_options
from deckgen.errors import DeckgenError, Finding, error

if TYPE_CHECKING:
    from deckgen.model import Deck
    from deckgen.play import PlayOptions
    from deckgen.render import RenderSettings
    from deckgen.watch import WatchOptions


def watch(deck: str, options: WatchOptions) -> None:
    """Run --watch until Ctrl-C: print the page's address and one line per rebuild."""
    from deckgen.watch import watch as run

    try:
        run(deck, options, log=lambda line: click.echo(line, err=True),
            on_ready=lambda url: click.echo(f"watching {deck}: open {url} (Ctrl-C stops)", err=True))
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)


# ---------------------------------------------------------------- preview

@click.command("preview", cls=Command)
@click.argument("deck")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The PNG to write (default: DECK-preview.png in the current folder).")
@render_options(100, "Resolution the faces are drawn at before they are shrunk onto the sheet.")
@deck_options
@click.option("--no-cache", is_flag=True, help="Draw every face again instead of reusing the face cache.")
@watch_options("redraw")
@json_option
def preview(deck: str, out_path: Path | None, settings: RenderSettings, cards: DeckChoice, no_cache: bool,
            live: Watching, as_json: bool) -> None:
    """Write one contact-sheet PNG of every distinct face with its copy count.

    With --watch it keeps running: whenever the manifest, its palette, its artwork or its
    templates change, the changed faces are drawn again and the sheet and the check's
    findings appear on a page at http://127.0.0.1:PORT/ that refreshes itself.

    Example:

        deckgen preview no-mercy -o no-mercy.png

        deckgen preview my-deck.toml --watch
    """
    from deckgen.render import preview as make_preview

    if out_path is not None:
        claim_output(out_path, folder=False)
    if live.watch:
        from deckgen.watch import WatchOptions

        if as_json:
            raise usage_error("--watch", "--watch keeps running and prints no JSON", hint="leave out --json")
        watch(deck, WatchOptions("preview", settings=settings, sheet_path=out_path,
                                 palette=lambda: cards.palette.for_deck(deck), port=live.port,
                                 use_cache=not no_cache, only=cards.only, lang=cards.lang))
        return
    the_deck = cards.load(deck)
    progress = Progress(enabled=not as_json)
    path = make_preview(the_deck, settings, out_path, progress, use_cache=not no_cache)
    progress.close()
    if as_json:
        echo_json({"ok": True, "exit_code": 0, "deck": the_deck.id, "output": str(path), **findings_json([])})
        return
    click.echo(f"contact sheet: {path}")


# ---------------------------------------------------------------- play

def _rule_overrides(texts: tuple[str, ...]) -> dict[str, Any]:
    """``--rule NAME=VALUE`` (repeatable) -> the rule options to change; every bad one reported at once."""
    from deckgen.options import parse_value

    out: dict[str, Any] = {}
    problems: list[Finding] = []
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            problems.append(error("option", "--rule", f"'{text}' is not NAME=VALUE",
                                  hint="for example --rule stacking=same-kind"))
            continue
        try:
            out[name.strip().replace("-", "_")] = parse_value(name.strip().replace("-", "_"), value)
        except DeckgenError as exc:
            problems.extend(exc.findings)
    if problems:
        raise DeckgenError(problems)
    return out


@dataclasses.dataclass(frozen=True)
class TableChoice:
    """Who sits at the table and under which rules (every option of ``play`` but the page's)."""

    players: int | None
    bots: str
    seat: int
    seed: int
    rules: tuple[str, ...]
    whole_match: bool
    pace: float
    lang: str | None

    def size(self, deck: Deck) -> int:
        """--players, or 4 within the deck's range."""
        return self.players if self.players is not None else min(max(4, deck.players_min), deck.players_max)

    def options(self, deck: Deck) -> PlayOptions:
        from deckgen.play import PlayOptions

        return PlayOptions(players=self.size(deck), bots=self.bots, seat=self.seat - 1, seed=self.seed,
                           rules=deck.rule_options.replace(**_rule_overrides(self.rules)), pace=self.pace,
                           match=self.whole_match, lang=self.lang)


@click.command("play", cls=Command)
@click.argument("deck")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players at the table, you included (default: 4, within the deck's range).")
@click.option("--bots", default="greedy", show_default=True, metavar="NAME",
              help="Who the other players are: an agent of simulate's --agent (random, greedy).")
@click.option("--seat", type=click.IntRange(1, 10), default=1, show_default=True,
              help="Your seat; seat 1 plays first in the first hand.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game (the deal, the bots' luck).")
@click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
              help="Change one rule option for this table, e.g. --rule stacking=same-kind (repeatable).")
@click.option("--match", "whole_match", is_flag=True, help="Play hands until someone reaches the deck's target score.")
@click.option("--pace", type=click.FloatRange(0, 10), default=0.8, show_default=True,
              help="Seconds a bot waits before each move you watch.")
@click.option("--lang", type=click.Choice(["es", "en"]), default=None,
              help="Language of the table, and of the faces when the deck has texts in it (default: the deck's).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free port; the address is printed).")
@click.option("--no-open", is_flag=True, help="Do not open a browser; just print the address.")
@gather("table", TableChoice, "players", "bots", "seat", "seed", "rules", "whole_match", "pace", "lang")
def play_cmd(deck: str, table: TableChoice, port: int, no_open: bool) -> None:
    """Sit at a table with your deck against bots, on a page in your browser.

    Your hand is drawn with the deck's own faces; the engine decides every rule and offers
    only the legal answers; the log says what happened in the deck's language. Ctrl-C stops.

    Example:

        deckgen play classic

        deckgen play no-mercy --players 3 --bots random --seed 7 --match

        deckgen play my-deck.toml --rule stacking=same-kind --pace 0.3 --no-open
    """
    from deckgen import manifest
    from deckgen.play import play
    from deckgen.render.faces import in_language, languages_of

    d = manifest.load_deck(deck)
    if table.lang in languages_of(d):
        d = in_language(d, table.lang)        # the faces in the table's language, when the deck has its texts
    n = table.size(d)
    options = table.options(d)

    def ready(url: str) -> None:
        click.echo(f"{d.name()}: a table for {n} at {url} (you are seat {table.seat}; Ctrl-C stops)", err=True)
        if not no_open:
            import contextlib
            import webbrowser

            with contextlib.suppress(Exception):     # no browser is not an error: the address is printed
                webbrowser.open(url)

    try:
        play(d, options, port, on_ready=ready, log=lambda line: click.echo(line, err=True))
    except KeyboardInterrupt:
        click.echo("table closed", err=True)
