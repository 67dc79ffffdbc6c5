"""The smaller tools: ``list`` (decks and presets), ``new`` (a deck to start from), ``palette
check``, ``calibrate`` (the printer's duplex shift) and ``cache``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from deckgen.atomic import claim_output
from deckgen.cli import params
from deckgen.cli.base import Command, Group, counted, echo_findings, echo_json, findings_json, paths_width, size_text
from deckgen.cli.params import json_option, sheet_options
from deckgen.errors import DeckgenError, warning

if TYPE_CHECKING:
    from deckgen.errors import Finding
    from deckgen.model import Palette
    from deckgen.palette import PaletteReport


# ---------------------------------------------------------------- list

def _plural(label: str) -> str:
    return label + "s"


def _preset_detail(label: str, value: Any) -> str:
    """One line about a preset for ``deckgen list`` (``value``: a catalogue entry's, of the kind ``label`` names)."""
    if label == "palette":
        from deckgen import manifest

        try:
            pal = manifest.load_palette(str(value))
        except DeckgenError as exc:
            return f"(unusable: {exc.findings[0].message})"
        return f"{len(pal.colors):>2} colours: {', '.join(pal.ids())}"
    if label == "card size":
        return f"{value[0]:g} × {value[1]:g} mm"
    if label == "paper":
        return str(value.describe())
    if label == "print-shop preset":
        return f"{value.dpi} dpi, {value.bleed_mm:g} mm bleed: {value.name}"
    if label == "kind":
        return f"{value.category:<7} {value.names.get('en')}"
    return str(value)


def _decks() -> list[dict[str, Any]]:
    """The bundled decks, then the examples: name, title, counts, file and whether it has errors."""
    from deckgen import manifest

    decks = []
    for name, example in [*((n, False) for n in manifest.bundled_decks()),
                          *((n, True) for n in manifest.example_decks())]:
        result = manifest.load(name)
        deck = result.deck
        decks.append({"name": name, "example": example, "title": deck.name() if deck else None,
                      "cards": deck.total if deck else None,
                      "extras": sum(c.count for c in deck.components) if deck else None,
                      "file": str(result.path), "has_errors": deck is None or bool(result.errors)})
    return decks


def _echo_list(decks: list[dict[str, Any]], rows: dict[str, list[tuple[str, str, Any]]], user: Path) -> None:
    width = paths_width([d["name"] for d in decks] + [n for entries in rows.values() for n, _, _ in entries], 12)
    for d in decks:
        if d is decks[0] or (d["example"] and not any(e["example"] for e in decks[:decks.index(d)])):
            click.echo("Examples (homemade, with art):" if d["example"] else "Decks:")
        if d["has_errors"]:
            click.echo(f"  {d['name']:<{width}} (has errors: run deckgen check {d['name']})")
            continue
        extra = f" + {d['extras']} printed extras" if d["extras"] else ""
        click.echo(f"  {d['name']:<{width}} {d['cards']:>4} cards{extra:<22} {d['title']}")
    for label, entries in rows.items():
        click.echo(f"{_plural(label).capitalize()}:")
        dw = paths_width([detail for _, detail, _ in entries])
        for name, detail, e in entries:
            where = "bundled" if e.origin == "bundled" else f"{e.origin}: {e.file}"
            click.echo(f"  {name:<{width}} {detail:<{dw}}  {where}")
    click.echo(f"Your own presets: {user}/ (card-sizes.toml, papers.toml, services.toml, kinds.toml, palettes/*.toml, "
               "layouts/*.toml)")


@click.command("list", cls=Command)
@click.option("--deck", "deck_ref", metavar="DECK", default=None,
              help="Also list the presets beside this manifest (its folder's own files).")
@json_option
def list_cmd(deck_ref: str | None, as_json: bool) -> None:
    """List the bundled decks and every preset: palettes, card sizes, papers, print-shop presets
    and card kinds, each with where it comes from.

    Presets are read from deckgen's bundled data, then from the user data folder (shown at the
    end), then from the manifest's folder (with --deck). A user entry with a bundled name
    replaces the bundled one; a note says so.

    Example:

        deckgen list

        deckgen list --deck my-deck/my-deck.toml --json
    """
    from deckgen import catalogues, manifest, presets

    base = manifest.find_deck(deck_ref).parent if deck_ref else None
    decks = _decks()
    sections = {kind.label: (kind, presets.catalogue(kind, base)) for kind in catalogues.all_kinds()}
    notes = [n for _, cat in sections.values() for n in cat.notes]
    rows = {label: [(name, _preset_detail(kind.label, entry.value), entry) for name, entry in cat.entries.items()]
            for label, (kind, cat) in sections.items()}
    user = presets.user_dir()
    if as_json:
        data: dict[str, object] = {"decks": decks}
        for label, entries in rows.items():
            data[_plural(label).replace(" ", "_").replace("-", "_")] = [
                {"name": name, "detail": detail, "origin": e.origin, "file": str(e.file),
                 **({"replaces": str(e.replaces.file)} if e.replaces else {})} for name, detail, e in entries]
        data["user_data_folder"] = str(user)
        data.update(findings_json(notes))
        echo_json(data)
        return
    _echo_list(decks, rows, user)
    echo_findings(notes)


# ---------------------------------------------------------------- new

@click.command("new", cls=Command)
@click.argument("name")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              help="The deck's language: the words on its cards and its rulebook's default.")
def new(name: str, lang: str) -> None:
    """Start a deck: write NAME/NAME.toml, a playable deck whose comments explain every key.

    NAME is the deck's id (lowercase letters, digits and '-'). The deck has its own palette,
    the classic rules and one homemade card kind, and passes deckgen check as written.
    An existing file is never overwritten.

    Example:

        deckgen new my-game

        deckgen preview my-game/my-game.toml --watch
    """
    from deckgen.scaffold import new_deck

    path = new_deck(name, lang=lang)
    click.echo(f"wrote {path}\nnext: deckgen check {path}   (or deckgen preview {path} --watch)")


# ---------------------------------------------------------------- palette

@click.group("palette", cls=Group)
def palette_group() -> None:
    """Palette tools: check that a palette's colours can be told apart.

    Example:

        deckgen palette check spectrum
    """


def _palette_json(rep: PaletteReport, found: list[Finding]) -> None:
    data = rep.to_json()
    data["warnings"] = [f.to_json() for f in found]
    data["passes_normal_vision"] = rep.passes_normal
    data["exit_code"] = 0 if rep.passes_normal else 1
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _palette_text(pal: Palette, rep: PaletteReport, symbols_on: bool, found: list[Finding]) -> None:
    from deckgen.palette import VISIONS

    click.echo(f"Palette {pal.id}: {pal.name}, {len(pal.colors)} colours")
    click.echo("Smallest CIEDE2000 distance between two colours:")
    cw = paths_width(pal.ids(), 13)
    for vision in VISIONS:
        p = rep.minimum.get(vision)
        if p is None:
            continue
        limit = rep.threshold(vision)
        verdict = "ok" if p.distance >= limit else f"too close (want {limit:g})"
        click.echo(f"  {vision:<13} {p.distance:6.1f}  {p.a}/{p.b}  {verdict}")
        for c in rep.clashes.get(vision, []):
            cue = ""
            if vision != "normal":
                cue = "  (told apart by shapes)" if symbols_on and rep.shapes_separate(c) else "  (no shape cue)"
            click.echo(f"      clash: {c.a}/{c.b} {c.distance:.1f}{cue}")
    click.echo("Card text contrast (WCAG):")
    for cid, value in rep.text.items():
        click.echo(f"  {cid:<{cw}} {value:5.1f}:1")
    echo_findings(found)
    click.echo("passes normal vision" if rep.passes_normal else "FAILS normal vision")


@palette_group.command("check", cls=Command)
@click.argument("palette_ref", metavar="PALETTE")
@click.option("--color", "colors", multiple=True, metavar="NAME=#RRGGBB", help="Override one colour (repeatable).")
@click.option("--symbols/--no-symbols", default=None,
              help="Whether cards carry shape cues (default: on for more than 4 colours).")
@json_option
def palette_check(palette_ref: str, colors: tuple[str, ...], symbols: bool | None, as_json: bool) -> None:
    """Check a palette: CIEDE2000 distances in normal and simulated colour-blind vision, and
    the contrast of card text on each colour.

    PALETTE is a palette name (see `deckgen list`), a palette file, or a deck manifest (its inline
    [palette] or the palette it names). Exit code 0 when
    every pair is far enough apart for normal vision (colour-blind clashes are warnings),
    1 when two colours are too close for normal vision, 2 for unusable input.

    Example:

        deckgen palette check spectrum

        deckgen palette check my-colours.toml --color lime=#7CB342 --json
    """
    from deckgen import manifest
    from deckgen.palette import analyse, findings, print_findings

    pal = manifest.load_palette(palette_ref)
    if colors:
        pal = manifest.apply_overrides(pal, dict(manifest.parse_color_override(c) for c in colors))
    rep = analyse(pal)
    symbols_on = len(pal.colors) > 4 if symbols is None else symbols
    found = findings(rep, symbols_on, file=pal.source) + print_findings(pal, file=pal.source)
    if as_json:
        _palette_json(rep, found)
    else:
        _palette_text(pal, rep, symbols_on, found)
    sys.exit(0 if rep.passes_normal else 1)


# ---------------------------------------------------------------- calibrate

@click.command("calibrate", cls=Command)
@click.option("-o", "--output", "out_file", default="calibration.pdf", show_default=True,
              type=click.Path(dir_okay=False), help="The PDF to write.")
@sheet_options
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="Flip edge you will print the cards with.")
@click.option("--orientation", type=click.Choice(["portrait", "landscape"]), default=None,
              help="Page orientation of the card sheets you will print (the cards PDF's cover names it); "
                   "default: the paper as given.")
def calibrate(out_file: str, paper: str, margin: str, back_offset: str, duplex: str,
              orientation: str | None) -> None:
    """Write a one-sheet duplex test to measure how far your printer shifts the backs.

    Print it double-sided at 100 %, hold it against the light and read X and Y on the
    back's scales where the front's lines show through; then build with --back-offset X,Y.
    Print it again with that offset to confirm the lines now sit on 0. The offset is
    measured in the frame of the sheets you print: use the paper, orientation and duplex
    of the card sheets (the cards PDF's cover gives the exact command).

    Example:

        deckgen calibrate --paper letter -o calibration.pdf

        deckgen calibrate --paper a4 --orientation landscape --duplex long
    """
    from deckgen.layout import calibration_pdf, parse_paper, write_bytes

    claim_output(out_file, folder=False)
    data = calibration_pdf(parse_paper(paper), duplex, params.margin(margin), params.offset(back_offset),
                           orientation)
    path = write_bytes(Path(out_file), data)
    turn = f", {orientation}" if orientation else ""
    click.echo(f"{path}: 2 pages, {size_text(len(data))}. Print double-sided ({duplex}-edge flip{turn}) at actual size.")


# ---------------------------------------------------------------- cache

@click.group("cache", cls=Group, invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.pass_context
def cache_group(ctx: click.Context, as_json: bool) -> None:
    """Show where the cache of drawn faces and built documents is and how big it is.

    The cache is capped automatically (least recently used entries go first); the cap is
    $DECKGEN_CACHE_MAX_SIZE, 1 GB by default. $DECKGEN_CACHE moves it.

    Example:

        deckgen cache

        deckgen cache prune --max-size 200MB
    """
    from deckgen import cache

    if ctx.invoked_subcommand is not None:
        return
    use = cache.usage()
    if as_json:
        click.echo(json.dumps(use.to_json(), ensure_ascii=False, indent=2))
        return
    click.echo(f"cache: {use.root}")
    click.echo(f"  {cache.format_size(use.bytes)} in {counted(use.files, 'file')} (cap {cache.format_size(cache.max_size())})")
    for name, (files, size) in use.sections.items():
        click.echo(f"  {name:<10} {cache.format_size(size):>9}  {counted(files, 'file')}")
    if use.root.exists() and not use.root.is_dir():
        echo_findings([warning("cache", "cache", f"{use.root} is not a folder: nothing is cached there",
                               hint=f"set {cache.ENV_DIR} to a folder of your own")])


@cache_group.command("clear", cls=Command)
def cache_clear() -> None:
    """Delete everything in the cache (it fills again on the next run).

    Example:

        deckgen cache clear
    """
    from deckgen import cache

    before = cache.clear()
    click.echo(f"removed {counted(before.files, 'file')} ({cache.format_size(before.bytes)}) from {before.root}")


@cache_group.command("prune", cls=Command)
@click.option("--max-size", "max_size", required=True, metavar="SIZE",
              help="Keep at most this much, e.g. 200MB or 1GB (a bare number is MB).")
def cache_prune(max_size: str) -> None:
    """Delete the least recently used entries until the cache is at most SIZE.

    Example:

        deckgen cache prune --max-size 200MB
    """
    from deckgen import cache

    limit = cache.parse_size(max_size)
    done = cache.prune(limit)
    click.echo(f"removed {counted(done.removed, 'file')} ({cache.format_size(done.freed)}); "
               f"{cache.format_size(done.left)} left in {cache.cache_root()}")
