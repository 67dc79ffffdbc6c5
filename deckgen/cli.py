"""The command line: a thin layer over the library. The only module that imports click.

Library errors (:class:`deckgen.errors.DeckgenError`) become messages and exit codes:
0 ok, 1 the deck has errors, 2 unusable input or usage.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from deckgen import __version__
from deckgen.errors import DeckgenError, Finding


# ---------------------------------------------------------------- shared helpers

def _echo_findings(findings: list[Finding]) -> None:
    for f in findings:
        color = "red" if f.is_error else "yellow"
        click.secho(f.format(), fg=color, err=True)


def handle_errors(fn):
    """Turn deckgen's own errors into messages and exit codes, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except DeckgenError as exc:
            _echo_findings(exc.findings)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.secho("interrupted: files already written are complete, the rest were not written", err=True)
            sys.exit(130)

    return wrapper


class Progress:
    """A click progress bar driven by the core's ``progress(label, done, total)`` callbacks."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = None
        self.label = None

    def __call__(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None or label != self.label:
            self.close()
            self.label = label
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def palette_options(fn):
    """``--palette NAME|FILE`` and repeated ``--color NAME=#RRGGBB``."""
    fn = click.option("--color", "colors", multiple=True, metavar="NAME=#RRGGBB",
                      help="Override one palette colour (repeatable).")(fn)
    fn = click.option("--palette", metavar="NAME|FILE", help="Use another palette (bundled name or file).")(fn)
    return fn


def resolve_palette(deck_ref: str, palette: str | None, colors: tuple[str, ...]):
    """The palette a command should use: the deck's own unless --palette/--color say otherwise."""
    from deckgen import manifest

    if not palette and not colors:
        return None
    if palette:
        pal = manifest.load_palette(palette)
    else:
        result = manifest.load(deck_ref)
        if result.deck is None:
            raise DeckgenError(result.errors)
        pal = result.deck.palette
    overrides = dict(manifest.parse_color_override(c) for c in colors)
    return manifest.apply_overrides(pal, overrides)


# ---------------------------------------------------------------- the group

@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckgen")
def main():
    """deckgen: check, render and print UNO-style card games.

    Example:

        deckgen check classic
    """


@main.command("list")
@handle_errors
def list_cmd():
    """List the bundled decks and palettes.

    Example:

        deckgen list
    """
    from deckgen import manifest

    click.echo("Decks:")
    for name in manifest.bundled_decks():
        result = manifest.load(name)
        if result.deck is None:
            click.echo(f"  {name:<16} (has errors: run deckgen check {name})")
            continue
        deck = result.deck
        extras = sum(c.count for c in deck.components)
        extra = f" + {extras} printed extras" if extras else ""
        click.echo(f"  {name:<16} {deck.total:>4} cards{extra:<22} {deck.name()}")
    click.echo("Palettes:")
    for name in manifest.bundled_palettes():
        pal = manifest.load_palette(name)
        click.echo(f"  {name:<16} {len(pal.colors):>4} colours  {', '.join(pal.ids())}")


@main.command()
@click.argument("deck")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--games", type=click.IntRange(1, 100_000), default=None,
              help="Simulated games per table size (default: a few hundred).")
@click.option("--no-sim", is_flag=True, help="Skip simulated play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for simulated play.")
@palette_options
@handle_errors
def check(deck, as_json, games, no_sim, seed, palette, colors):
    """Check a deck before printing it: schema, counts, palette, rules.

    DECK is a bundled deck name (see `deckgen list`) or a path to a manifest.
    Exit code 0: no errors (warnings allowed); 1: the deck has errors;
    2: the file could not be read or the command was misused.

    Example:

        deckgen check classic

        deckgen check my-deck.toml --json
    """
    from deckgen import report
    from deckgen.check import CheckOptions, check as run_check

    progress = Progress(enabled=not as_json)
    opts = CheckOptions(simulate=not no_sim, games=games, seed=seed,
                        palette=resolve_palette(deck, palette, colors), progress=progress)
    rep = run_check(deck, opts)
    progress.close()
    if as_json:
        click.echo(json.dumps(report.to_json(rep), ensure_ascii=False, indent=2))
    else:
        click.echo(report.to_text(rep))
    sys.exit(1 if rep.errors else 0)


# ---- commands added by later stages are registered below, one block per stage ----

# [render commands]

# [build commands]

# [simulate commands]

# [rulebook commands]


if __name__ == "__main__":  # pragma: no cover
    main()
