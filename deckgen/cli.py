"""The command line: a thin layer over the library. The only module that imports click.

Library errors (:class:`deckgen.errors.DeckgenError`) become messages and exit codes:
0 ok, 1 the deck has errors, 2 unusable input or usage.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from deckgen import __version__
from deckgen.atomic import claim_output
from deckgen.errors import ERROR, NOTE, WARNING, DeckgenError, Finding, error

F = TypeVar("F", bound=Callable[..., Any])

# ---------------------------------------------------------------- shared helpers

def _echo_findings(findings: Iterable[Finding]) -> None:
    for f in findings:
        color = {"error": "red", "warning": "yellow"}.get(f.severity)
        click.secho(f.format(), fg=color, err=True)


def _echo_json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def findings_json(findings: Iterable[Finding]) -> dict[str, list[dict[str, object]]]:
    """``errors``, ``warnings`` and ``notes``: the same keys in every command's JSON."""
    found = list(findings)
    return {key: [f.to_json() for f in found if f.severity == sev]
            for key, sev in (("errors", ERROR), ("warnings", WARNING), ("notes", NOTE))}


def fail(findings: Sequence[Finding], code: int, as_json: bool) -> NoReturn:
    """Report a failure: the findings as text on stderr, or with --json one object on stdout."""
    from deckgen.datafile import with_lines

    findings = with_lines(findings)
    if as_json:
        _echo_json({"ok": False, "exit_code": code, **findings_json(findings)})
    else:
        _echo_findings(findings)
    sys.exit(code)


def handle_errors(fn: F) -> F:
    """Turn deckgen's own errors into messages and exit codes, never a traceback; with --json,
    every failure is one JSON object on stdout."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except DeckgenError as exc:
            fail(exc.findings, exc.exit_code, as_json)
        except BrokenPipeError:    # `deckgen ... | head`: the reader has gone, nothing left to say
            _quiet_stdout()
            sys.exit(1)
        except OSError as exc:     # a full disk, a folder that cannot be written
            fail([error("file", "", f"cannot be written or read: {exc.strerror or exc}",
                        file=str(exc.filename) if exc.filename else None)], 2, as_json)
        except KeyboardInterrupt:
            fail([error("interrupted", "", "files already written are complete, the rest were not written")],
                 130, as_json)

    return wrapper  # type: ignore[return-value]


def _quiet_stdout() -> None:
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class Main(click.Group):
    """The ``deckgen`` group: with ``--json`` anywhere on the command line, a usage error (an
    unknown option, a bad value) is one JSON object on stdout too."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if "--json" not in argv or not standalone_mode:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(argv, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as exc:
            fail([error("usage", "", exc.format_message())], exc.exit_code, True)
        except click.Abort:
            fail([error("usage", "", "aborted")], 1, True)
        sys.exit(rv if isinstance(rv, int) else 0)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object instead of text (also for every failure).")(fn)


def jobs_option(fn: F) -> F:
    return click.option("-j", "--jobs", type=click.IntRange(1, 256), default=None,
                        help="Worker processes, 1 to 256 (default: every core).")(fn)


def think_option(fn: F) -> F:
    return click.option("--think", type=click.IntRange(1, 100_000), default=None, metavar="N",
                        help="The expert's play-outs per decision (more: stronger and slower; docs/expert.md).")(fn)


def cluster_option(fn: F) -> F:
    return click.option("--cluster", metavar="ADDRESS", default=None,
                        help="Play the games on the Dask scheduler at ADDRESS (e.g. tcp://10.0.0.5:8786) instead of "
                             "this machine's cores; same results. Needs pip install 'deckgen[cluster]' (docs/cluster.md).")(fn)


def _paths_width(paths: Iterable[object], least: int = 0) -> int:
    """A column as wide as its longest path, so long paths keep the columns after them aligned."""
    return max([least, *(len(str(p)) for p in paths)])


class Progress:
    """A click progress bar driven by the core's ``progress(label, done, total)`` callbacks."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None
        self.label: str | None = None

    def __call__(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None or label != self.label:
            self.close()
            self.label = label
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
            self.bar.__enter__()
        self.bar.length = total              # a build finds more to do as it goes
        self.bar.update(done - self.bar.pos)
        if done >= total:
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _only(deck_obj, only):
    """The deck cut down to ``--only`` (deckgen.selection), or as it is."""
    from deckgen.selection import select

    return select(deck_obj, only)


ONLY_HELP = "Only these cards, N copies each (default 1), e.g. red-5x2,wild: for reprints."


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

@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckgen")
def main():
    """deckgen: check, render and print UNO-style card games.

    Example:

        deckgen check classic
    """


@main.command("list")
@click.option("--deck", "deck_ref", metavar="DECK", default=None,
              help="Also list the presets beside this manifest (its folder's own files).")
@json_option
@handle_errors
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
    decks = []
    for name, example in [*((n, False) for n in manifest.bundled_decks()),
                          *((n, True) for n in manifest.example_decks())]:
        result = manifest.load(name)
        deck = result.deck
        decks.append({"name": name, "example": example, "title": deck.name() if deck else None,
                      "cards": deck.total if deck else None,
                      "extras": sum(c.count for c in deck.components) if deck else None,
                      "file": str(result.path), "has_errors": deck is None or bool(result.errors)})
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
        _echo_json(data)
        return
    width = _paths_width([d["name"] for d in decks] + [n for entries in rows.values() for n, _, _ in entries], 12)
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
        dw = _paths_width([detail for _, detail, _ in entries])
        for name, detail, e in entries:
            where = "bundled" if e.origin == "bundled" else f"{e.origin}: {e.file}"
            click.echo(f"  {name:<{width}} {detail:<{dw}}  {where}")
    click.echo(f"Your own presets: {user}/ (card-sizes.toml, papers.toml, services.toml, kinds.toml, palettes/*.toml, "
               "layouts/*.toml)")
    _echo_findings(notes)


def _plural(label: str) -> str:
    return label + "s"


def _preset_detail(label: str, value: Any) -> str:
    """One line about a preset for ``deckgen list``."""
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


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK ...]")
@json_option
@click.option("--games", type=click.IntRange(1, 100_000), default=None,
              help="Simulated games per table size and player (default: as many as the verdict needs).")
@click.option("--no-sim", is_flag=True, help="Skip simulated play (and the playability verdict).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for simulated play.")
@click.option("--strict", is_flag=True, help="Count warnings as errors (exit code 1), e.g. for your own CI.")
@click.option("--no-cache", is_flag=True, help="Play the games again instead of reading an unchanged deck's verdict.")
@jobs_option
@palette_options
@handle_errors
def check(decks, as_json, games, no_sim, seed, strict, no_cache, jobs, palette, colors):
    """Check a deck before printing it: schema, counts, palette, text, fonts, rules and a
    playability verdict from simulated games (every finding code: docs/checks.md).

    DECK is a bundled deck name (see `deckgen list`) or a path to a manifest; with no DECK,
    every bundled deck. Exit code 0: no errors (warnings allowed; none with --strict);
    1: a deck has errors; 2: a file could not be read or the command was misused.

    Example:

        deckgen check classic

        deckgen check my-deck.toml --json

        deckgen check my-deck.toml --strict
    """
    from deckgen import report
    from deckgen.build import bundled_refs
    from deckgen.check import CheckOptions, check_many
    from deckgen.errors import exit_code

    refs = list(decks) or bundled_refs()
    progress = Progress(enabled=not as_json)
    requests = [(ref, CheckOptions(simulate=not no_sim, games=games, seed=seed, strict=strict, jobs=jobs,
                                   use_cache=not no_cache, palette=resolve_palette(ref, palette, colors),
                                   progress=progress), None) for ref in refs]
    reps = check_many(requests)
    progress.close()
    if len(reps) == 1 and isinstance(reps[0], DeckgenError):
        raise reps[0]
    codes = [r.exit_code if isinstance(r, DeckgenError) else exit_code(r.findings) for r in reps]
    code = max(codes)
    if as_json:
        objs = [{"deck": ref, "exit_code": c, **findings_json(r.findings)} if isinstance(r, DeckgenError)
                else {**report.to_json(r), "exit_code": c} for ref, r, c in zip(refs, reps, codes)]
        _echo_json(objs[0] if len(objs) == 1 else {"decks": objs, "exit_code": code})
    else:
        for i, (ref, r) in enumerate(zip(refs, reps)):
            if i:
                click.echo("")
            if isinstance(r, DeckgenError):
                _echo_findings(r.findings)
                click.echo(f"{ref}: could not be read")
            else:
                click.echo(report.to_text(r))
    sys.exit(code)


@main.command("new")
@click.argument("name")
@click.option("--lang", type=click.Choice(["en", "es"]), default="en", show_default=True,
              help="The deck's language: the words on its cards and its rulebook's default.")
@handle_errors
def new(name, lang):
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


# ---- commands added by later stages are registered below, one block per stage ----

# [render commands]

def _render_settings(dpi, card_size, bleed, safe, symbols, corner_guide):
    from deckgen.render import RenderSettings
    from deckgen.units import parse_length

    return RenderSettings(dpi=dpi, bleed_mm=parse_length(bleed, "--bleed"), safe_mm=parse_length(safe, "--safe"),
                          card_size=card_size, symbols=symbols, corner_guide=corner_guide)


def render_options(fn):
    """Options shared by ``render`` and ``preview``."""
    fn = click.option("--corner-guide", is_flag=True, help="Draw a thin rounded-corner cutting guide on the trim line.")(fn)
    fn = click.option("--symbols/--no-symbols", default=None,
                      help="Colour-blind shape cues (default: on for palettes of more than 4 colours).")(fn)
    fn = click.option("--safe", default="3mm", show_default=True, metavar="LENGTH",
                      help="Safe zone inside the trim that holds every symbol and text.")(fn)
    fn = click.option("--bleed", default="3mm", show_default=True, metavar="LENGTH",
                      help="Bleed around the trim (the artwork runs on into it).")(fn)
    fn = click.option("--card-size", metavar="PRESET|WxH",
                      help="Card size preset (poker, bridge, uno, tarot, mini, euro; see deckgen list) or WxH "
                           "such as 63x88 (mm) or 2.5inx3.5in (default: the deck's).")(fn)
    return fn


def _load_for_render(deck, palette, colors):
    from deckgen import manifest

    return manifest.load_deck(deck, palette=resolve_palette(deck, palette, colors))


@main.command()
@click.argument("deck")
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the PNG files (created if missing).")
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True, help="Resolution.")
@render_options
@click.option("--no-cache", is_flag=True, help="Draw every face again instead of reusing the render cache.")
@jobs_option
@click.option("--only", metavar="ID[xN],...", default=None, help=ONLY_HELP)
@palette_options
@json_option
@handle_errors
def render(deck, out_dir, dpi, card_size, bleed, safe, symbols, corner_guide, no_cache, jobs, only, palette, colors,
           as_json):
    """Draw every distinct card face, the back and the components as print-ready PNGs.

    One PNG per face, named by card id (plus back.png and e.g. power-green.png), with the
    bleed included and the DPI and physical size recorded in the file. Faces that have not
    changed since the last run come from the render cache.

    Example:

        deckgen render classic -o out/classic

        deckgen render flex-spectrum -o out/spectrum --dpi 600 --card-size poker --color red=#E53935
    """
    from deckgen.render import render_deck

    settings = _render_settings(dpi, card_size, bleed, safe, symbols, corner_guide)
    the_deck = _only(_load_for_render(deck, palette, colors), only)
    claim_output(out_dir, folder=True)
    progress = Progress(enabled=not as_json)
    result = render_deck(the_deck, settings, out_dir, use_cache=not no_cache, progress=progress, jobs=jobs)
    progress.close()
    if as_json:
        _echo_json({"ok": True, "exit_code": 0, "deck": the_deck.id, "output": str(out_dir),
                    "faces": {fid: str(p) for fid, p in result.paths.items()}, "drawn": result.drawn,
                    "from_cache": len(result.paths) - result.drawn, "size_px": list(result.size_px),
                    "trim_mm": list(result.trim_mm), "bleed_mm": result.bleed_mm, "dpi": result.dpi,
                    **findings_json([])})
        return
    w, h = result.size_px
    click.echo(f"{len(result.paths)} faces in {out_dir} ({result.drawn} drawn, {len(result.paths) - result.drawn} "
               f"from cache): {w}x{h} px = {result.trim_mm[0]:g}x{result.trim_mm[1]:g} mm + "
               f"{result.bleed_mm:g} mm bleed at {result.dpi} dpi")


@main.command()
@click.argument("deck")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The PNG to write (default: DECK-preview.png in the current folder).")
@click.option("--dpi", type=click.IntRange(30, 1200), default=100, show_default=True,
              help="Resolution the faces are drawn at before they are shrunk onto the sheet.")
@render_options
@click.option("--only", metavar="ID[xN],...", default=None, help=ONLY_HELP)
@palette_options
@click.option("--no-cache", is_flag=True, help="Draw every face again instead of reusing the face cache.")
@click.option("--watch", is_flag=True, help="Keep running: redraw on every change and show it on a local page.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port of the --watch page on 127.0.0.1 (0: any free port).")
@json_option
@handle_errors
def preview(deck, out_path, dpi, card_size, bleed, safe, symbols, corner_guide, only, palette, colors, no_cache, watch,
            port, as_json):
    """Write one contact-sheet PNG of every distinct face with its copy count.

    With --watch it keeps running: whenever the manifest, its palette, its artwork or its
    templates change, the changed faces are drawn again and the sheet and the check's
    findings appear on a page at http://127.0.0.1:PORT/ that refreshes itself.

    Example:

        deckgen preview no-mercy -o no-mercy.png

        deckgen preview my-deck.toml --watch
    """
    from deckgen.render import preview as make_preview

    settings = _render_settings(dpi, card_size, bleed, safe, symbols, corner_guide)
    if out_path is not None:
        claim_output(out_path, folder=False)
    if watch:
        from deckgen.watch import WatchOptions

        if as_json:
            raise DeckgenError(Finding("error", "usage", "--watch", "--watch keeps running and prints no JSON",
                                       hint="leave out --json"))
        _watch(deck, WatchOptions("preview", settings=settings, sheet_path=out_path,
                                  palette=lambda: resolve_palette(deck, palette, colors), port=port,
                                  use_cache=not no_cache, only=only))
        return
    the_deck = _only(_load_for_render(deck, palette, colors), only)
    progress = Progress(enabled=not as_json)
    path = make_preview(the_deck, settings, out_path, progress, use_cache=not no_cache)
    progress.close()
    if as_json:
        _echo_json({"ok": True, "exit_code": 0, "deck": the_deck.id, "output": str(path), **findings_json([])})
        return
    click.echo(f"contact sheet: {path}")


def _watch(deck, options) -> None:
    """Run --watch until Ctrl-C: print the page's address and one line per rebuild."""
    from deckgen.watch import watch

    try:
        watch(deck, options, log=lambda line: click.echo(line, err=True),
              on_ready=lambda url: click.echo(f"watching {deck}: open {url} (Ctrl-C stops)", err=True))
    except KeyboardInterrupt:
        click.echo("stopped watching", err=True)


@main.group("palette")
def palette_group():
    """Palette tools: check that a palette's colours can be told apart.

    Example:

        deckgen palette check spectrum
    """


@palette_group.command("check")
@click.argument("palette_ref", metavar="PALETTE")
@click.option("--color", "colors", multiple=True, metavar="NAME=#RRGGBB", help="Override one colour (repeatable).")
@click.option("--symbols/--no-symbols", default=None,
              help="Whether cards carry shape cues (default: on for more than 4 colours).")
@json_option
@handle_errors
def palette_check(palette_ref, colors, symbols, as_json):
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
    from deckgen.palette import VISIONS, analyse, findings

    pal = manifest.load_palette(palette_ref)
    if colors:
        pal = manifest.apply_overrides(pal, dict(manifest.parse_color_override(c) for c in colors))
    rep = analyse(pal)
    symbols_on = len(pal.colors) > 4 if symbols is None else symbols
    found = findings(rep, symbols_on, file=pal.source)
    if as_json:
        data = rep.to_json()
        data["warnings"] = [f.to_json() for f in found]
        data["passes_normal_vision"] = rep.passes_normal
        data["exit_code"] = 0 if rep.passes_normal else 1
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        click.echo(f"Palette {pal.id}: {pal.name}, {len(pal.colors)} colours")
        click.echo("Smallest CIEDE2000 distance between two colours:")
        cw = _paths_width(pal.ids(), 13)
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
        _echo_findings(found)
        click.echo("passes normal vision" if rep.passes_normal else "FAILS normal vision")
    sys.exit(0 if rep.passes_normal else 1)

# [build commands]

def _length(value: str, where: str) -> float:
    from deckgen.units import parse_length

    return parse_length(value, where, default_unit="mm")


def _offset(value: str) -> tuple[float, float]:
    parts = [p for p in str(value).replace(";", ",").split(",")]
    if len(parts) != 2:
        raise DeckgenError(Finding("error", "back-offset", "--back-offset", f"'{value}' is not X,Y",
                                   hint="two lengths such as 0.5mm,-1mm (bare numbers are millimetres)"))
    return _signed(parts[0], "--back-offset"), _signed(parts[1], "--back-offset")


def _signed(value: str, where: str) -> float:
    text = value.strip()
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * _length(text.lstrip("+-").strip(), where)


def _layout_options(paper, gap, margin, duplex, back_offset, mark_length, mark_stroke, mark_offset, guides,
                    layout="sheets", backs="deck", orientation="auto", base=None, fit="most", cut_file="none",
                    corner_radius="auto", back_style="full", registration="none", corner_guides=False,
                    card_ids=False):
    from deckgen.layout import LayoutOptions, MarkStyle, parse_paper

    return LayoutOptions(paper=parse_paper(paper, base=base), margin_mm=_margin(margin),
                         gap_mm=None if str(gap).strip().lower() == "auto" else _length(gap, "--gap"),
                         duplex=duplex, back_offset_mm=_offset(back_offset),
                         marks=MarkStyle(_length(mark_length, "--mark-length"), _length(mark_stroke, "--mark-stroke"),
                                         _length(mark_offset, "--mark-offset")),
                         guides=guides, layout=layout, backs=backs, orientation=orientation, fit=fit,
                         cut_file=cut_file, corner_radius_mm=None if str(corner_radius).strip().lower() == "auto"
                         else _length(corner_radius, "--corner-radius"), back_style=back_style,
                         registration=registration, corner_guides=corner_guides, card_ids=card_ids)


def _margin(value: str) -> float | None:
    """``--margin``: a length, or ``paper`` for the paper preset's own (5 mm; 1/4 in on US papers)."""
    return None if str(value).strip().lower() == "paper" else _length(value, "--margin")


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


def sheet_options(fn):
    """Paper, margin and back offset options shared by build and calibrate (each has its own --duplex)."""
    for decorator in reversed([
        click.option("--paper", default="a4", show_default=True, metavar="NAME|WxH",
                     help="Paper preset (a4, letter, legal, a3 ...) or a size such as 210mmx297mm."),
        click.option("--margin", default="paper", show_default=True, metavar="LENGTH|paper",
                     help="Band along every edge that nothing enters, crop marks included "
                          "(paper: the preset's, 5mm; 0.25in on US papers)."),
        click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
                     help="Shift the backs X right and Y down (measure it with deckgen calibrate)."),
    ]):
        fn = decorator(fn)
    return fn


@main.command()
@click.argument("decks", nargs=-1, metavar="[DECK ...]")
@click.option("-o", "--output", "out_dir", default="output", show_default=True, type=click.Path(file_okay=False),
              help="Folder for the files; each deck gets OUTPUT/<deck>/.")
@sheet_options
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True,
              help="Flip edge for double-sided printing; none: backs on their own pages for gluing.")
@click.option("--layout", type=click.Choice(["sheets", "fold"]), default="sheets", show_default=True,
              help="sheets: fronts and backs on their own pages; fold: both on one side, backs mirrored across a fold line.")
@click.option("--backs", type=click.Choice(["deck", "none"]), default="deck", show_default=True,
              help="deck: print every card's back; none: fronts only.")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default="auto", show_default=True,
              help="Page orientation; auto: whichever holds more cards with full bleed and marks.")
@click.option("--fit", type=click.Choice(["most", "full-bleed"]), default="most", show_default=True,
              help="most: as many cards as the printable area holds, edge to edge on shared cut lines where "
                   "separate bleeds would cost cards; full-bleed: every card its own bleed and full crop marks.")
@click.option("--back-style", type=click.Choice(["full", "light"]), default="full", show_default=True,
              help="light: an ink-saving back (outline and logo or name on white, no solid fill).")
@click.option("--cut-file", type=click.Choice(["none", "svg"]), default="none", show_default=True,
              help="svg: also write, per sheet, an SVG of the card outlines for print-then-cut machines.")
@click.option("--corner-radius", default="auto", show_default=True, metavar="LENGTH|auto",
              help="Corner radius of the --cut-file outlines; auto: 5% of the card's shorter side.")
@click.option("--registration", type=click.Choice(["none", "silhouette", "cricut"]), default="none",
              show_default=True, help="silhouette: print Silhouette Studio's Type 1 registration marks (inset "
              "10 mm, length 20 mm, thickness 0.5 mm) on the fronts and in the cut file; cricut: refused, "
              "Design Space adds its own.")
@click.option("--corner-guides", is_flag=True,
              help="Draw the rounded cut outline (--corner-radius) faintly on every card front.")
@click.option("--card-ids", is_flag=True,
              help="Print each card's id small in the gutter under it, for sorting reprints (needs a gap: "
                   "--fit full-bleed or --gap).")
@click.option("--only", metavar="ID[xN],...", default=None, help=ONLY_HELP)
@click.option("--card-size", metavar="NAME|WxH", help="Card size instead of the deck's (uno, poker, 63mmx88mm ...).")
@click.option("--dpi", type=click.IntRange(30, 1200), default=300, show_default=True, help="Face resolution.")
@click.option("--bleed", default="3mm", show_default=True, metavar="LENGTH", help="Bleed around every card.")
@click.option("--gap", default="auto", show_default=True, metavar="LENGTH|auto",
              help="Space between cards; auto: twice the bleed, so every card keeps its full bleed; "
                   "0: neighbours share their cut lines.")
@click.option("--mark-length", default="5mm", show_default=True, metavar="LENGTH", help="Crop-mark length.")
@click.option("--mark-stroke", default="0.3mm", show_default=True, metavar="LENGTH", help="Crop-mark line width.")
@click.option("--mark-offset", default="1mm", show_default=True, metavar="LENGTH",
              help="Distance between the card block's bleed and the crop marks.")
@click.option("--guides", is_flag=True, help="Also draw thin cut-line guides across the card block.")
@palette_options
@click.option("--no-rulebook", is_flag=True, help="Write only the card sheets, not the rulebooks.")
@click.option("--booklet", is_flag=True, help="Also write each rulebook as a booklet to fold and staple.")
@click.option("--force", is_flag=True, help="Build even if the deck has errors (they are printed).")
@click.option("--no-cache", is_flag=True, help="Redraw every face instead of using the face cache.")
@jobs_option
@json_option
@click.option("--watch", is_flag=True, help="Keep running: build again on every change and show it on a local page.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port of the --watch page on 127.0.0.1 (0: any free port).")
@handle_errors
def build(decks, out_dir, paper, margin, back_offset, duplex, layout, backs, orientation, fit, back_style, cut_file,
          corner_radius, registration, corner_guides, card_ids, only, card_size, dpi, bleed, gap, mark_length,
          mark_stroke, mark_offset, guides, palette, colors,
          no_rulebook, booklet, force, no_cache, jobs, as_json, watch, port):
    """Build the print-and-play PDF of one or more decks.

    Writes OUTPUT/<deck>/<deck>-cards.pdf: a cover page, then sheets of card fronts (odd
    pages) and backs (even pages) with crop marks. Every card keeps its full bleed and every
    cut line its crop marks; the layout picks the orientation and grid that fit the most.
    With no DECK, builds every bundled deck. A deck with errors is not built unless --force.
    Lengths take mm, cm, in or pt.

    Example:

        deckgen build classic

        deckgen build no-mercy --paper letter --duplex short -o prints

        deckgen build flex-spectrum --layout fold --only red-5x2,power
    """
    import time

    from deckgen import manifest
    from deckgen.build import BuildOptions, build_decks, bundled_refs

    start = time.perf_counter()
    # every option but the paper checked once; the paper per deck (a manifest's folder may add papers)
    _layout_options("a4", gap, margin, duplex, back_offset, mark_length, mark_stroke, mark_offset, guides,
                    layout, backs, orientation, fit=fit, cut_file=cut_file, corner_radius=corner_radius,
                    back_style=back_style, registration=registration,
                    corner_guides=corner_guides, card_ids=card_ids)
    refs = list(decks) or bundled_refs()
    claim_output(out_dir, folder=True)
    if watch:
        from deckgen.watch import WatchOptions

        if len(decks) != 1 or as_json:
            raise DeckgenError(Finding("error", "usage", "--watch", "--watch follows exactly one DECK, without --json",
                                       hint="e.g. deckgen build my-deck.toml --watch"))
        layout_opts = _layout_options(paper, gap, margin, duplex, back_offset, mark_length, mark_stroke, mark_offset,
                                      guides, layout, backs, orientation, base=manifest.find_deck(decks[0]).parent,
                                      fit=fit, cut_file=cut_file, corner_radius=corner_radius,
                                      back_style=back_style, registration=registration,
                    corner_guides=corner_guides, card_ids=card_ids)
        opts = BuildOptions(out_dir=Path(out_dir), dpi=dpi, bleed_mm=_length(bleed, "--bleed"), card_size=card_size,
                            layout=layout_opts, force=force, jobs=jobs, rulebook=not no_rulebook, only=only,
                            booklet=booklet)
        _watch(decks[0], WatchOptions("build", build=opts, palette=lambda: resolve_palette(decks[0], palette, colors),
                                      port=port, use_cache=not no_cache))
        return
    results, failed = [], 0
    failures: list[dict[str, Any]] = []
    outcomes: dict[int, Any] = {}           # the refs' order -> a BuildResult or the error that stopped it
    requests: list[tuple[int, Any, BuildOptions]] = []
    for i, ref in enumerate(refs):
        try:
            layout_opts = _layout_options(paper, gap, margin, duplex, back_offset, mark_length, mark_stroke,
                                          mark_offset, guides, layout, backs, orientation,
                                          base=manifest.find_deck(ref).parent, fit=fit, cut_file=cut_file,
                                          corner_radius=corner_radius, back_style=back_style, registration=registration,
                    corner_guides=corner_guides, card_ids=card_ids)
            opts = BuildOptions(out_dir=Path(out_dir), dpi=dpi, bleed_mm=_length(bleed, "--bleed"), card_size=card_size,
                                layout=layout_opts, palette=resolve_palette(ref, palette, colors), force=force,
                                use_cache=not no_cache, jobs=jobs, rulebook=not no_rulebook, only=only,
                                booklet=booklet)
        except DeckgenError as exc:
            outcomes[i] = exc
            continue
        requests.append((i, ref, opts))
    progress = Progress(enabled=not as_json)
    try:
        built = build_decks([(ref, opts) for _, ref, opts in requests], progress, jobs)
    finally:
        progress.close()
    outcomes.update((i, outcome) for (i, _, _), outcome in zip(requests, built))
    for i, ref in enumerate(refs):
        res = outcomes[i]
        if isinstance(res, DeckgenError):
            failures.append({"deck": ref, "exit_code": res.exit_code, **findings_json(res.findings)})
            if not as_json:
                _echo_findings(res.findings)
                click.secho(f"{ref}: not built" + (" (use --force to build anyway)" if res.exit_code == 1 else ""),
                            fg="red", err=True)
            failed = max(failed, res.exit_code)
            continue
        results.append(res)
        if as_json:
            continue
        _echo_findings(res.errors)
        if res.errors:
            click.secho(f"{ref}: built anyway (--force) with {len(res.errors)} error(s); the cards PDF's cover says so",
                        fg="red", err=True)
        _echo_findings([w for w in res.warnings if w.code == "layout"])
        others = sum(1 for w in res.warnings if w.code != "layout")
        note = f"  ({others} deck warning{'s' if others > 1 else ''}: see deckgen check {ref})" if others else ""
        click.echo(f"{res.deck_id}: {res.name}{note}")
        width = _paths_width((o.path for o in res.outputs), 48)
        for o in res.outputs:
            pages = f"{o.pages} pages" if o.pages is not None else ""
            click.echo(f"  {o.path!s:<{width}} {pages:>10} {_size(o.size_bytes):>9}")
        if res.sheet:
            click.echo(f"  sheet: {res.sheet}")
        click.echo(f"  {res.cards} cards, {res.faces} distinct faces ({res.drawn} drawn now), {res.seconds:.2f} s")
    if as_json:
        _echo_json({"ok": failed == 0, "decks": [r.to_json() for r in results], "failed": failures,
                    "errors": [{"deck": fl["deck"], **f} for fl in failures for f in fl["errors"]],
                    "exit_code": failed, "seconds": round(time.perf_counter() - start, 3)})
    elif results:
        files = sum(len(r.outputs) for r in results)
        click.echo(f"{len(results)} deck(s): {files} files, {sum(r.pages for r in results)} pages, "
                   f"{sum(r.cards for r in results)} cards, {_size(sum(r.size_bytes for r in results))}, "
                   f"{time.perf_counter() - start:.2f} s")
    sys.exit(failed)


@main.command()
@click.option("-o", "--output", "out_file", default="calibration.pdf", show_default=True,
              type=click.Path(dir_okay=False), help="The PDF to write.")
@sheet_options
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="Flip edge you will print the cards with.")
@click.option("--orientation", type=click.Choice(["portrait", "landscape"]), default=None,
              help="Page orientation of the card sheets you will print (the cards PDF's cover names it); "
                   "default: the paper as given.")
@handle_errors
def calibrate(out_file, paper, margin, back_offset, duplex, orientation):
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
    data = calibration_pdf(parse_paper(paper), duplex, _margin(margin), _offset(back_offset), orientation)
    path = write_bytes(Path(out_file), data)
    turn = f", {orientation}" if orientation else ""
    click.echo(f"{path}: 2 pages, {_size(len(data))}. Print double-sided ({duplex}-edge flip{turn}) at actual size.")


@main.group()
def export():
    """Export a deck for other tools: Tabletop Simulator, print shops.

    Example:

        deckgen export tts classic
    """


@export.command("tts")
@click.argument("deck")
@click.option("-o", "--output", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Folder for the files [default: output/<deck>/tts].")
@click.option("--format", "fmt", type=click.Choice(["png", "jpeg"]), default="png", show_default=True,
              help="Image format of the sheets.")
@click.option("--card-size", metavar="NAME|WxH", help="Card size instead of the deck's.")
@click.option("--max-side", type=click.IntRange(1024, 4096), default=4096, show_default=True,
              help="Largest sheet side in pixels (smaller sheets load faster in TTS).")
@click.option("--base-url", metavar="URL", default=None,
              help="Public folder you upload the sheet images to: the saved object refers to them there "
                   "(shareable, playable online) instead of by file:/// URLs.")
@click.option("--only", metavar="ID[xN],...", default=None, help=ONLY_HELP)
@palette_options
@click.option("--force", is_flag=True, help="Export even if the deck has errors.")
@click.option("--no-cache", is_flag=True, help="Redraw every face instead of using the face cache.")
@jobs_option
@json_option
@handle_errors
def export_tts_cmd(deck, out_dir, fmt, card_size, max_side, base_url, only, palette, colors, force, no_cache, jobs,
                   as_json):
    """Tabletop Simulator deck sheets (10 x 7 cells at most, 4096 px at most), a back image and
    a TTS saved object.

    <deck>-tts.json (with its thumbnail <deck>-tts.png) refers to the sheets by file:/// URLs:
    copied into TTS's Saved Objects folder it puts the whole deck on the table, its cards scaled
    to the deck's card shape. <deck>-tts-import.txt says where that folder is on each system,
    and the numbers for importing the sheets by hand. Copies of a card share its cell. With
    --base-url the saved object refers to the sheets at that web address instead (upload them
    there): the deck can then be shared and played online.

    Example:

        deckgen export tts no-mercy --format jpeg

        deckgen export tts classic --base-url https://example.org/uno/
    """
    from deckgen.build import BuildOptions, load_checked
    from deckgen.export import ExportRun, export_tts

    deck_obj, errors, _ = load_checked(deck, BuildOptions(palette=resolve_palette(deck, palette, colors), force=force))
    deck_obj = _only(deck_obj, only)
    if not as_json:
        _echo_findings(errors)
    folder = claim_output(out_dir or Path("output") / deck_obj.id / "tts", folder=True)
    progress = Progress(enabled=not as_json)
    res = export_tts(deck_obj, folder, fmt=fmt, run=ExportRun(use_cache=not no_cache, progress=progress, jobs=jobs),
                     card_size=card_size, max_side=max_side, base_url=base_url)
    progress.close()
    if as_json:
        _echo_json({"ok": True, "exit_code": 0, "deck": deck_obj.id, "output": str(res.folder),
                    "sheets": [{"path": str(s.path), "cols": s.cols, "rows": s.rows, "cards": s.cards,
                                "copies": s.total, "backs": str(s.backs) if s.backs else None} for s in res.sheets],
                    "base_url": res.base_url,
                    "back": str(res.back), "howto": str(res.howto), "cell_px": list(res.cell_px),
                    **findings_json([*errors, *res.warnings])})
        return
    _echo_findings(list(res.warnings))
    for s in res.sheets:
        click.echo(f"  {s.path}  {s.cols}x{s.rows} cells, {s.cards} faces, {s.total} cards"
                   + (f" (backs: {s.backs.name})" if s.backs else ""))
    thumb = res.thumbnail.name if res.thumbnail else "none"
    click.echo(f"  {res.back}\n  {res.saved_object}  (TTS saved object, thumbnail {thumb})"
               f"\n  {res.howto}  (how to import)")
    where = (f"Upload the sheets and the back to {res.base_url} first." if res.base_url
             else "The sheets must stay where they are.")
    click.echo("Copy the .json and its .png into Tabletop Simulator's Saved Objects folder, e.g. "
               "~/.local/share/Tabletop Simulator/Saves/Saved Objects (Linux); the other systems' folders "
               f"are in {res.howto.name}. {where}")


@export.command("cards")
@click.argument("deck")
@click.option("--service", default=None, metavar="NAME",
              help="Print-shop preset from decks/services.toml: tgc-poker, tgc-bridge, tgc-mini, tgc-tarot, "
                   "tgc-square, dtc-poker, mpc-poker, own-size, own-size-3mm.")
@click.option("--card-size", metavar="NAME|WxH", help="Card size instead of the preset's (poker, bridge, 63mmx88mm ...).")
@click.option("--bleed", metavar="LENGTH", default=None, help="Bleed instead of the preset's, e.g. 3mm or 0.125in.")
@click.option("--safe", metavar="LENGTH", default=None,
              help="How far inside the cut line symbols and text stay (default: the shop's safe zone, at least 3mm).")
@click.option("-o", "--output", "out_dir", default=None, type=click.Path(file_okay=False),
              help="Folder for the files [default: output/<deck>/print-<service>].")
@click.option("--only", metavar="ID[xN],...", default=None, help=ONLY_HELP)
@palette_options
@click.option("--force", is_flag=True, help="Export even if the deck has errors.")
@click.option("--no-cache", is_flag=True, help="Redraw every face instead of using the face cache.")
@jobs_option
@json_option
@handle_errors
def export_cards_cmd(deck, service, card_size, bleed, safe, out_dir, only, palette, colors, force, no_cache, jobs,
                     as_json):
    """The files a print shop asks for: one image per face at the shop template's pixel size,
    a quantities list and a one-card-per-page PDF with TrimBox and BleedBox.

    Warns when the faces' symbols and text would reach into the shop's unsafe border, or
    when --card-size/--bleed leave the shop's template size.

    Example:

        deckgen export cards classic --service tgc-poker

        deckgen export cards flex-spectrum --service mpc-poker --bleed 3mm
    """
    from deckgen import manifest
    from deckgen.build import BuildOptions, load_checked
    from deckgen.export import ExportRun, export_cards, get_service, load_services

    base = manifest.find_deck(deck).parent
    if service is None:
        raise DeckgenError(Finding("error", "usage", "--service", "name the print shop's preset with --service",
                                   hint="presets: " + ", ".join(load_services(base=base))))
    svc = get_service(service, base=base)
    bleed_mm = _length(bleed, "--bleed") if bleed is not None else None
    safe_mm = _length(safe, "--safe") if safe is not None else None
    deck_obj, errors, _ = load_checked(deck, BuildOptions(palette=resolve_palette(deck, palette, colors), force=force))
    deck_obj = _only(deck_obj, only)
    if not as_json:
        _echo_findings(errors)
    folder = claim_output(out_dir or Path("output") / deck_obj.id / f"print-{svc.id}", folder=True)
    progress = Progress(enabled=not as_json)
    res = export_cards(deck_obj, svc, folder, run=ExportRun(use_cache=not no_cache, progress=progress, jobs=jobs),
                       card_size=card_size, bleed_mm=bleed_mm, safe_mm=safe_mm)
    progress.close()
    if as_json:
        _echo_json({"ok": True, "exit_code": 0, "deck": deck_obj.id, "service": svc.id, "output": str(res.folder),
                    "images": [str(p) for p in res.images], "pdf": str(res.pdf), "pages": res.pages,
                    "quantities": str(res.quantities), "size_px": list(res.size_px), "trim_mm": list(res.trim_mm),
                    "bleed_mm": res.bleed_mm, **findings_json([*errors, *res.warnings])})
        return
    _echo_findings(list(res.warnings))
    click.echo(f"{svc.name}")
    click.echo(f"  {len(res.images)} face images, {res.size_px[0]}x{res.size_px[1]} px "
               f"({res.trim_mm[0]:g} x {res.trim_mm[1]:g} mm + {res.bleed_mm:g} mm bleed) in {res.folder / 'faces'}")
    l, t, r, b = res.safe_box
    line = f"  symbols and text inside {r - l}x{b - t} px"
    if res.shop_safe_box:
        sl, st, sr, sb = res.shop_safe_box
        line += f"; the shop's safe zone is {sr - sl}x{sb - st} px"
    click.echo(line)
    order = "back, front" if svc.pdf_order == "back-front" else "front, back"
    click.echo(f"  {res.pdf}  {res.pages} pages ({order} for every card)\n  {res.quantities}")
    if svc.source:
        click.echo(f"  figures: {svc.source}")

# [simulate commands]

@main.command()
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
@handle_errors
def simulate(deck, players_text, games, seed, agent, think, jobs, cluster, whole_match, as_json):
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
    from deckgen.rules import match
    from deckgen.rules import simulate as sim

    d = manifest.load_deck(deck)
    players = (sim.parse_players(players_text, d.players_min, d.players_max) if players_text
               else list(range(d.players_min, d.players_max + 1)))
    from deckgen.check import deal_problems
    from deckgen.errors import DeckHasErrors

    undealt = deal_problems(d, players, "--players" if players_text else "deck.players")
    if undealt:        # asked for: a misused command (2); the deck's own range: the deck has errors (1)
        raise (DeckgenError if players_text else DeckHasErrors)(undealt)
    outside = [n for n in players if not d.players_min <= n <= d.players_max]
    found = [warning("players", "--players",
                     f"the deck is for {d.players_min}-{d.players_max} players; "
                     f"{', '.join(map(str, outside))} {'is' if len(outside) == 1 else 'are'} outside it",
                     hint="the games are played anyway; set deck.players in the manifest to change the range")
             ] if outside else []
    progress = Progress(enabled=not as_json)
    play = sim.PlayOptions(games=games, seed=seed, agent=agent, workers=jobs, cluster=cluster,
                           think=think or sim.expert.THINK)
    if whole_match:
        matches = match.simulate_matches(d, players, play, progress)
        rep, text = matches.to_json(), match.to_text(matches)
    else:
        report = sim.simulate(d, players, play, progress)
        rep, text = report.to_json(), sim.to_text(report, names={kid: k.names.get(d.language)
                                                                 for kid, k in d.kinds.items()})
    progress.close()
    if as_json:
        _echo_json({**rep, **findings_json(found)})
    else:
        _echo_findings(found)
        click.echo(text)


# [play command]

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


@main.command("play")
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
@click.option("--lang", type=click.Choice(["es", "en"]), default=None, help="Language of the table (default: the deck's).")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: any free port; the address is printed).")
@click.option("--no-open", is_flag=True, help="Do not open a browser; just print the address.")
@handle_errors
def play_cmd(deck, players, bots, seat, seed, rules, whole_match, pace, lang, port, no_open):
    """Sit at a table with your deck against bots, on a page in your browser.

    Your hand is drawn with the deck's own faces; the engine decides every rule and offers
    only the legal answers; the log says what happened in the deck's language. Ctrl-C stops.

    Example:

        deckgen play classic

        deckgen play no-mercy --players 3 --bots random --seed 7 --match

        deckgen play my-deck.toml --rule stacking=same-kind --pace 0.3 --no-open
    """
    from deckgen import manifest
    from deckgen.play import PlayOptions, play

    d = manifest.load_deck(deck)
    n = players if players is not None else min(max(4, d.players_min), d.players_max)
    options = PlayOptions(players=n, bots=bots, seat=seat - 1, seed=seed,
                          rules=d.rule_options.replace(**_rule_overrides(rules)), pace=pace, match=whole_match,
                          lang=lang)

    def ready(url: str) -> None:
        click.echo(f"{d.name()}: a table for {n} at {url} (you are seat {seat}; Ctrl-C stops)", err=True)
        if not no_open:
            import contextlib
            import webbrowser

            with contextlib.suppress(Exception):     # no browser is not an error: the address is printed
                webbrowser.open(url)

    try:
        play(d, options, port, on_ready=ready, log=lambda line: click.echo(line, err=True))
    except KeyboardInterrupt:
        click.echo("table closed", err=True)


# [report commands]

@main.command("report")
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
                   "and opponent (default 8, at the fewest players, 4 and the most; N plays every table size; "
                   "0 leaves the section out).")
@think_option
@jobs_option
@cluster_option
@click.option("--json", "as_json", is_flag=True,
              help="Also print every figure behind the charts as one JSON object (and every failure as JSON).")
@handle_errors
def report_cmd(deck, vary, compare, players_text, games, agents, seed, lang, out_path, skill_games, think, jobs,
               cluster, as_json):
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
    from deckgen import manifest
    from deckgen.balance import ReportOptions, build_report, default_path, write_report
    from deckgen.balance.report import SKILL_GAMES, SKILL_THINK
    from deckgen.rules.simulate import parse_players

    if out_path is not None:
        claim_output(out_path, folder=False)
    players = None
    if players_text:
        d = manifest.load_deck(deck)
        players = tuple(parse_players(players_text, d.players_min, d.players_max))
    opts = ReportOptions(games=games, seed=seed, players=players, agents=tuple(agents) or ("random", "greedy"),
                         lang=lang, vary=tuple(vary), compare=tuple(compare), workers=jobs,
                         cluster=cluster, skill_games=SKILL_GAMES if skill_games is None else skill_games,
                         think=think or SKILL_THINK,
                         skill_players=None if skill_games is None else (players or ()))
    progress = Progress(enabled=not as_json)
    rep = build_report(deck, opts, progress)
    target = out_path or default_path(rep["deck"])
    write_report(rep, target, progress)
    progress.close()
    if as_json:
        _echo_json({**rep, "pdf": str(target)})
    else:
        for para in rep["summary"]:
            click.echo(para["text"])
            for b in para["bullets"]:
                click.echo(f"  - {b}")
        click.echo(f"wrote {target}")


# [rulebook commands]

@main.command()
@click.argument("deck")
@click.option("--lang", type=click.Choice(["es", "en", "all"]), default=None,
              help="Language of the rulebook (default: the deck's); all: one file per language.")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The PDF to write (default: output/<deck>/<deck>-rulebook-<lang>.pdf).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="Paper size.")
@click.option("--booklet", is_flag=True,
              help="A saddle-stitched booklet: half-size pages, padded to a multiple of 4, 2-up on landscape sheets.")
@palette_options
@handle_errors
def rulebook(deck, lang, out_path, paper, booklet, palette, colors):
    """Write the rulebook PDF of a deck from its templates, in Spanish or English.

    Card counts, points and effect descriptions come from the manifest and its rule options;
    the text is cross-checked first (every card a template names must exist, every kind in
    the deck must be explained), and a failed check writes nothing (exit code 1).
    A deck may point at its own templates with deck.templates in its manifest.

    Example:

        deckgen rulebook classic --lang en

        deckgen rulebook flex-spectrum --lang es --paper letter -o reglas.pdf

        deckgen rulebook classic --lang all --booklet
    """
    from deckgen import manifest
    from deckgen.rulebook import languages, write_rulebook

    the_deck = manifest.load_deck(deck, palette=resolve_palette(deck, palette, colors))
    langs = languages(the_deck) if lang == "all" else [lang or the_deck.language]
    if out_path is not None and len(langs) > 1:
        raise DeckgenError(Finding("error", "usage", "-o", "-o names one file, but --lang all writes several",
                                   hint="leave out -o, or pick one --lang"))
    if out_path is not None:
        claim_output(out_path, folder=False)
    progress = Progress()
    for code in langs:
        suffix = "-booklet" if booklet else ""
        target = out_path or Path("output") / the_deck.id / f"{the_deck.id}-rulebook-{code}{suffix}.pdf"
        write_rulebook(the_deck, code, target, paper=paper, booklet=booklet, progress=progress)
        progress.close()
        sheets = _rulebook_pages(target)
        if booklet:
            click.echo(f"wrote {target} ({sheets} sheet sides = {sheets // 2} sheets, {2 * sheets} booklet pages, "
                       f"{code}, {paper} landscape): print double-sided, flip on the short edge, fold, staple")
        else:
            click.echo(f"wrote {target} ({sheets} pages, {code}, {paper})")


# [cache commands]

@main.group("cache", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.pass_context
@handle_errors
def cache_group(ctx, as_json):
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
    click.echo(f"  {cache.format_size(use.bytes)} in {use.files} files (cap {cache.format_size(cache.max_size())})")
    for name, (files, size) in use.sections.items():
        click.echo(f"  {name:<10} {cache.format_size(size):>9}  {files} files")


@cache_group.command("clear")
@handle_errors
def cache_clear():
    """Delete everything in the cache (it fills again on the next run).

    Example:

        deckgen cache clear
    """
    from deckgen import cache

    before = cache.clear()
    click.echo(f"removed {before.files} files ({cache.format_size(before.bytes)}) from {before.root}")


@cache_group.command("prune")
@click.option("--max-size", "max_size", required=True, metavar="SIZE",
              help="Keep at most this much, e.g. 200MB or 1GB (a bare number is MB).")
@handle_errors
def cache_prune(max_size):
    """Delete the least recently used entries until the cache is at most SIZE.

    Example:

        deckgen cache prune --max-size 200MB
    """
    from deckgen import cache

    limit = cache.parse_size(max_size)
    done = cache.prune(limit)
    click.echo(f"removed {done.removed} files ({cache.format_size(done.freed)}); "
               f"{cache.format_size(done.left)} left in {cache.cache_root()}")


def _rulebook_pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)


if __name__ == "__main__":  # pragma: no cover
    main()
