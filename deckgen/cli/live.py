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
    humans: int
    bots: str
    seat: int
    seed: int | None
    rules: tuple[str, ...]
    whole_match: bool
    pace: float
    lang: str | None
    uno: str

    def size(self, deck: Deck) -> int:
        """--players, or 4 within the deck's range (and at least --humans)."""
        if self.players is not None:
            return self.players
        return min(max(4, deck.players_min, self.humans), deck.players_max)

    def options(self, deck: Deck) -> PlayOptions:
        from deckgen.play import PlayOptions

        return PlayOptions(players=self.size(deck), bots=self.bots, seat=self.seat - 1, humans=self.humans,
                           seed=self.seed, rules=deck.rule_options.replace(**_rule_overrides(self.rules)),
                           pace=self.pace, match=self.whole_match, lang=self.lang, uno=self.uno)


def lan_address() -> str:
    """This machine's address on its local network: the one its default route leaves from (a UDP
    socket's connect() picks it and sends nothing)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))          # TEST-NET-1: never reached, only routed
            addr = str(s.getsockname()[0])
        except OSError:
            addr = ""
    if not addr or addr.startswith(("127.", "0.")):
        raise usage_error("--lan", "this computer has no local network address to serve on",
                          hint="connect to the network, or name the address: --lan 192.168.1.20")
    return addr


def checked_address(text: str) -> str:
    """--lan ADDRESS: one of this machine's addresses on a network, never "every interface"."""
    import ipaddress

    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        raise usage_error("--lan", f"'{text}' is not an IP address",
                          hint="--lan alone finds this machine's address; put the deck before it: "
                               "deckgen play DECK --lan") from None
    if ip.is_unspecified or ip.is_loopback or ip.is_multicast:
        raise usage_error("--lan", f"{ip} is not an address on the local network",
                          hint="name this machine's address on it, e.g. 192.168.1.20, or leave it out")
    return str(ip)


@click.command("play", cls=Command)
@click.argument("deck")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Players at the table, people and bots (default: 4, within the deck's range).")
@click.option("--humans", type=click.IntRange(1, 10), default=1, show_default=True,
              help="People at the table: you and friends who join with their own link.")
@click.option("--bots", default="greedy", show_default=True, metavar="NAME",
              help="Who plays the other seats: random, greedy or expert (the agents of simulate's --agent).")
@click.option("--seat", type=click.IntRange(1, 10), default=1, show_default=True,
              help="Your seat; the other people sit after you. Seat 1 plays first in the first hand.")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 1), default=None,
              help="Seed of the first game (the deal, the bots' luck); without it every game gets a secret one.")
@click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
              help="Change one rule option for this table, e.g. --rule stacking=same-kind (repeatable).")
@click.option("--match", "whole_match", is_flag=True, help="Play hands until someone reaches the deck's target score.")
@click.option("--pace", type=click.FloatRange(0, 10), default=0.8, show_default=True,
              help="Seconds before each bot move you watch is shown.")
@click.option("--uno", type=click.Choice(["ask", "race"]), default="ask", show_default=True,
              help="ask: a question when you have one card left; race: press UNO in time, and catching is a race.")
@click.option("--lang", type=click.Choice(["es", "en"]), default=None,
              help="Language of the table, and of the faces when the deck has texts in it (default: the deck's).")
@click.option("--lan", is_flag=False, flag_value="auto", default=None, metavar="[ADDRESS]",
              help="Serve the table to the local network too (on this machine's address, or the one named).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to serve on (0: any free port, or the saved game's with --resume).")
@click.option("--save", "save_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The table's save file (default: play/DECK.jsonl in deckgen's user data folder).")
@click.option("--resume", is_flag=True, help="Continue the game saved in the save file.")
@click.option("--no-open", is_flag=True, help="Do not open a browser; just print the links.")
@gather("table", TableChoice, "players", "humans", "bots", "seat", "seed", "rules", "whole_match", "pace", "lang",
        "uno")
def play_cmd(deck: str, table: TableChoice, lan: str | None, port: int, save_path: Path | None, resume: bool,
             no_open: bool) -> None:
    """Sit at a table with your deck, with friends and bots, on a page in your browser.

    Your hand is drawn with the deck's own faces; the engine decides every rule and offers
    only the legal answers; the log says what happened in the deck's language. With --humans
    and --lan, friends join from their phones with the links (and QR codes) it prints. The
    game is saved after every decision: --resume continues it. Ctrl-C stops.

    Example:

        deckgen play classic

        deckgen play no-mercy --players 3 --bots expert --match

        deckgen play classic --humans 3 --lan --uno race

        deckgen play my-deck.toml --rule stacking=same-kind --pace 0.3 --no-open
    """
    from deckgen import manifest
    from deckgen.play import PlayServer, Serving, play
    from deckgen.render.faces import in_language, languages_of

    d = manifest.load_deck(deck)
    if table.lang in languages_of(d):
        d = in_language(d, table.lang)        # the faces in the table's language, when the deck has its texts
    options = table.options(d)
    address = (lan_address() if lan == "auto" else checked_address(lan)) if lan else None

    def ready(server: PlayServer) -> None:
        from deckgen.play import qr

        s = server.s
        click.echo(f"{d.name()}: a table for {s.n} (Ctrl-C stops; saved after every decision)", err=True)
        for q, link in server.links.items():
            who = "you" if q == s.host else f"player {q + 1}"
            click.echo(f"  seat {q + 1} ({who}): {link}", err=True)
            if q != s.host and address:
                click.echo(qr.terminal(link), err=True, nl=False)
        if not no_open:
            import contextlib
            import webbrowser

            with contextlib.suppress(Exception):     # no browser is not an error: the links are printed
                webbrowser.open(server.local_link(s.host))

    try:
        play(d, options, Serving(port=port, lan=address, save=save_path, resume=resume), on_ready=ready,
             log=lambda line: click.echo(line, err=True))
    except KeyboardInterrupt:
        again = f"deckgen play {deck} --resume" + (f" --save {save_path}" if save_path else "")
        click.echo(f"table closed ({again} continues it)", err=True)
