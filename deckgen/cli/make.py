"""The commands that make the printable files: ``build`` (card sheets and rulebooks), ``render``
(one PNG per face) and ``rulebook``."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from deckgen import outputs
from deckgen.atomic import claim_output
from deckgen.cli.base import Command, Progress, counted, echo_findings, echo_json, findings_json, paths_width, size_text
from deckgen.cli.params import (
    DeckChoice,
    PaletteChoice,
    Watching,
    auto_length,
    deck_options,
    gather,
    jobs_option,
    json_option,
    lang_option,
    length,
    margin,
    offset,
    only_option,
    palette_options,
    render_options,
    sheet_options,
    usage_error,
    watch_options,
)
from deckgen.errors import DeckgenError, DeckHasErrors

if TYPE_CHECKING:
    from deckgen.build import BuildOptions, BuildResult
    from deckgen.layout import LayoutOptions
    from deckgen.render import RenderSettings


# ---------------------------------------------------------------- build's option groups

@dataclasses.dataclass(frozen=True)
class LayoutChoice:
    """The card sheets' layout options as typed. Every one is checked when the command starts
    (:attr:`options`), except the paper, which is read per deck (:meth:`for_deck`: a manifest's
    folder may add papers)."""

    paper: str
    margin: str
    back_offset: str
    duplex: str
    layout: str
    backs: str
    orientation: str
    fit: str
    back_style: str
    cut_file: str
    corner_radius: str
    registration: str
    corner_guides: bool
    card_ids: bool
    gap: str
    mark_length: str
    mark_stroke: str
    mark_offset: str
    guides: bool
    options: LayoutOptions = dataclasses.field(init=False)     # on a4 until :meth:`for_deck`

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", self._options())

    def _options(self) -> LayoutOptions:
        from deckgen.layout import LayoutOptions, MarkStyle, parse_paper

        return LayoutOptions(
            paper=parse_paper("a4"), margin_mm=margin(self.margin), gap_mm=auto_length(self.gap, "--gap"),
            duplex=self.duplex, back_offset_mm=offset(self.back_offset),
            marks=MarkStyle(length(self.mark_length, "--mark-length"), length(self.mark_stroke, "--mark-stroke"),
                            length(self.mark_offset, "--mark-offset")),
            guides=self.guides, layout=self.layout, backs=self.backs, orientation=self.orientation, fit=self.fit,
            cut_file=self.cut_file, corner_radius_mm=auto_length(self.corner_radius, "--corner-radius"),
            back_style=self.back_style, registration=self.registration, corner_guides=self.corner_guides,
            card_ids=self.card_ids)

    def for_deck(self, deck_ref: str) -> LayoutOptions:
        from deckgen import manifest
        from deckgen.layout import parse_paper

        base = manifest.find_deck(deck_ref).parent
        return dataclasses.replace(self.options, paper=parse_paper(self.paper, base=base))


LAYOUT_FIELDS = tuple(f.name for f in dataclasses.fields(LayoutChoice) if f.init)


@dataclasses.dataclass(frozen=True)
class BuildChoice:
    """What ``build`` makes beside the layout: which cards, at what size and resolution, whether
    rulebooks and booklets too, whether despite errors, through the cache, on how many processes."""

    only: str | None
    card_size: str | None
    dpi: int
    bleed: str
    no_rulebook: bool
    booklet: bool
    force: bool
    no_cache: bool
    jobs: int | None
    lang: str | None = None

    def for_deck(self, out_dir: str, layout: LayoutOptions, palette: PaletteChoice, ref: str) -> BuildOptions:
        from deckgen.build import BuildOptions

        return BuildOptions(out_dir=Path(out_dir), dpi=self.dpi, bleed_mm=length(self.bleed, "--bleed"),
                            card_size=self.card_size, layout=layout, palette=palette.for_deck(ref), force=self.force,
                            use_cache=not self.no_cache, jobs=self.jobs, rulebook=not self.no_rulebook,
                            only=self.only, booklet=self.booklet, lang=self.lang)

    def for_watch(self, out_dir: str, layout: LayoutOptions) -> BuildOptions:
        """The build ``--watch`` runs again (it reads the palette and the cache setting itself)."""
        from deckgen.build import BuildOptions

        return BuildOptions(out_dir=Path(out_dir), dpi=self.dpi, bleed_mm=length(self.bleed, "--bleed"),
                            card_size=self.card_size, layout=layout, force=self.force, jobs=self.jobs,
                            rulebook=not self.no_rulebook, only=self.only, booklet=self.booklet, lang=self.lang)


# ---------------------------------------------------------------- build

@click.command("build", cls=Command)
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
              help="Page orientation; auto: whichever holds more cards as --fit lays them out.")
@click.option("--fit", type=click.Choice(["most", "full-bleed"]), default="most", show_default=True,
              help="most: as many cards as the printable area holds with at least 1.5 mm of bleed round the "
                   "block, edge to edge on shared cut lines where separate bleeds would cost cards; full-bleed: "
                   "every card its own bleed and full crop marks.")
@click.option("--back-style", type=click.Choice(["full", "light"]), default="full", show_default=True,
              help="light: an ink-saving back (outline and logo or name on white, no solid fill).")
@click.option("--cut-file", type=click.Choice(["none", "svg", "dxf"]), default="none", show_default=True,
              help="svg or dxf: also write, per sheet, the card outlines at true size for print-then-cut "
                   "machines (DXF for the free Silhouette Studio); the cards move apart where that costs no card.")
@click.option("--corner-radius", default="auto", show_default=True, metavar="LENGTH|auto",
              help="Corner radius of the --cut-file outlines; auto: 5% of the card's shorter side.")
@click.option("--registration", type=click.Choice(["none", "silhouette", "cricut"]), default="none",
              show_default=True, help="silhouette: print Silhouette Studio's Type 1 registration marks (inset "
              "10 mm, length 20 mm, thickness 0.5 mm) on the fronts and in the cut file, the cards apart where "
              "that costs no card; cricut: refused, Design Space adds its own.")
@click.option("--corner-guides", is_flag=True,
              help="Draw the rounded cut outline (--corner-radius) faintly on every card front.")
@click.option("--card-ids", is_flag=True,
              help="Print each card's id small in the gutter under it, for sorting reprints (needs a gap: "
                   "--fit full-bleed or --gap).")
@only_option
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
@lang_option
@jobs_option
@json_option
@watch_options("build again")
@gather("layout", LayoutChoice, *LAYOUT_FIELDS)
@gather("make", BuildChoice, "only", "card_size", "dpi", "bleed", "no_rulebook", "booklet", "force", "no_cache", "jobs",
        "lang")
def build(decks: tuple[str, ...], out_dir: str, layout: LayoutChoice, make: BuildChoice, palette: PaletteChoice,
          as_json: bool, live: Watching) -> None:
    """Build the print-and-play PDF of one or more decks.

    Writes OUTPUT/<deck>/<deck>-cards.pdf: two cover pages (what is inside, how to print
    and the order to cut in), then sheets of card fronts (odd pages) and backs (even pages).
    The layout picks the orientation and grid that hold the most cards (--fit most: edge to
    edge where separate bleeds would cost cards, at least 1.5 mm of bleed round the block;
    --fit full-bleed: every card its own bleed). Crop marks go where they fit; cut lines
    that the cutting order leaves without a mark are printed as thin grey lines.
    With no DECK, builds every bundled deck. A deck with errors is not built unless --force.
    Lengths take mm, cm, in or pt.

    Example:

        deckgen build classic

        deckgen build no-mercy --paper letter --duplex short -o prints

        deckgen build flex-spectrum --layout fold --only red-5x2,power

        deckgen build classic --lang en
    """
    from deckgen.build import bundled_refs

    start = time.perf_counter()
    refs = list(decks) or bundled_refs()
    claim_output(out_dir, folder=True)
    if live.watch:
        if len(decks) != 1 or as_json:
            raise usage_error("--watch", "--watch follows exactly one DECK, without --json",
                              hint="e.g. deckgen build my-deck.toml --watch")
        _watch_build(decks[0], out_dir, layout, make, palette, live.port)
        return
    outcomes = _build_all(refs, out_dir, layout, make, palette, as_json)
    sys.exit(_build_summary(refs, outcomes, as_json, start))


def _watch_build(deck_ref: str, out_dir: str, layout: LayoutChoice, make: BuildChoice, palette: PaletteChoice,
                 port: int) -> None:
    """``build --watch``: build the deck again on every change until Ctrl-C."""
    from deckgen.cli.live import watch
    from deckgen.watch import WatchOptions

    opts = make.for_watch(out_dir, layout.for_deck(deck_ref))
    watch(deck_ref, WatchOptions("build", build=opts, palette=lambda: palette.for_deck(deck_ref),
                                 port=port, use_cache=not make.no_cache))


def _build_all(refs: list[str], out_dir: str, layout: LayoutChoice, make: BuildChoice, palette: PaletteChoice,
               as_json: bool) -> list[BuildResult | DeckgenError]:
    """Each deck's options (a deck whose options fail gets that error), then every deck built at
    once; a result or an error per ref, in the refs' order."""
    from deckgen.build import build_decks

    outcomes: dict[int, BuildResult | DeckgenError] = {}
    requests: list[tuple[int, str, BuildOptions]] = []
    for i, ref in enumerate(refs):
        try:
            opts = make.for_deck(out_dir, layout.for_deck(ref), palette, ref)
        except DeckgenError as exc:
            outcomes[i] = exc
            continue
        requests.append((i, ref, opts))
    progress = Progress(enabled=not as_json)
    try:
        built = build_decks([(ref, opts) for _, ref, opts in requests], progress, make.jobs)
    finally:
        progress.close()
    outcomes.update((i, outcome) for (i, _, _), outcome in zip(requests, built))
    return [outcomes[i] for i in range(len(refs))]


def _echo_built(ref: str, res: BuildResult) -> None:
    """One built deck: its errors when forced, its layout notes, then every file written."""
    echo_findings(res.errors)
    if res.errors:
        click.secho(f"{ref}: built anyway (--force) with {len(res.errors)} error(s); the cards PDF's cover says so",
                    fg="red", err=True)
    echo_findings([w for w in res.warnings if w.code == "layout"])
    others = sum(1 for w in res.warnings if w.code != "layout")
    note = f"  ({others} deck warning{'s' if others > 1 else ''}: see deckgen check {ref})" if others else ""
    click.echo(f"{res.deck_id}: {res.name}{note}")
    width = paths_width((o.path for o in res.outputs), 48)
    for o in res.outputs:
        pages = f"{o.pages} pages" if o.pages is not None else ""
        click.echo(f"  {o.path!s:<{width}} {pages:>10} {size_text(o.size_bytes):>9}")
    if res.sheet:
        click.echo(f"  sheet: {res.sheet}")
    click.echo(f"  {res.cards} cards, {res.faces} distinct faces ({res.drawn} drawn now), {res.seconds:.2f} s")


def _build_summary(refs: list[str], outcomes: list[BuildResult | DeckgenError], as_json: bool, start: float) -> int:
    """Print what the build did (text, or one JSON object); the exit code: the worst failure's."""
    results: list[BuildResult] = []
    failures: list[dict[str, Any]] = []
    failed = 0
    for ref, res in zip(refs, outcomes):
        if isinstance(res, DeckgenError):
            failures.append({"deck": ref, "exit_code": res.exit_code, **findings_json(res.findings)})
            if not as_json:
                echo_findings(res.findings)
                forceable = isinstance(res, DeckHasErrors) and res.forceable
                click.secho(f"{ref}: not built" + (" (use --force to build anyway)" if forceable else ""),
                            fg="red", err=True)
            failed = max(failed, res.exit_code)
            continue
        results.append(res)
        if not as_json:
            _echo_built(ref, res)
    if as_json:
        echo_json({"ok": failed == 0, "decks": [r.to_json() for r in results], "failed": failures,
                   "errors": [{"deck": fl["deck"], **f} for fl in failures for f in fl["errors"]],
                   "exit_code": failed, "seconds": round(time.perf_counter() - start, 3)})
    elif results:
        files = sum(len(r.outputs) for r in results)
        click.echo(f"{counted(len(results), 'deck')}: {counted(files, 'file')}, "
                   f"{counted(sum(r.pages for r in results), 'page')}, {counted(sum(r.cards for r in results), 'card')}, "
                   f"{size_text(sum(r.size_bytes for r in results))}, "
                   f"{time.perf_counter() - start:.2f} s")
    return failed


# ---------------------------------------------------------------- render

@click.command("render", cls=Command)
@click.argument("deck")
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the PNG files (created if missing).")
@render_options(300, "Resolution.")
@click.option("--no-cache", is_flag=True, help="Draw every face again instead of reusing the render cache.")
@jobs_option
@deck_options
@json_option
def render(deck: str, out_dir: Path, settings: RenderSettings, no_cache: bool, jobs: int | None, cards: DeckChoice,
           as_json: bool) -> None:
    """Draw every distinct card face, the back and the components as print-ready PNGs.

    One PNG per face, named by card id (plus back.png and e.g. power-green.png), with the
    bleed included and the DPI and physical size recorded in the file. Faces that have not
    changed since the last run come from the render cache.

    Example:

        deckgen render classic -o out/classic

        deckgen render flex-spectrum -o out/spectrum --dpi 600 --card-size poker --color red=#E53935
    """
    from deckgen.render import render_deck

    the_deck = cards.load(deck)
    claim_output(out_dir, folder=True)
    progress = Progress(enabled=not as_json)
    result = render_deck(the_deck, settings, out_dir, use_cache=not no_cache, progress=progress, jobs=jobs)
    progress.close()
    if as_json:
        echo_json({"ok": True, "exit_code": 0, "deck": the_deck.id, "output": str(out_dir),
                   "faces": {fid: str(p) for fid, p in result.paths.items()}, "drawn": result.drawn,
                   "from_cache": len(result.paths) - result.drawn, "size_px": list(result.size_px),
                   "trim_mm": list(result.trim_mm), "bleed_mm": result.bleed_mm, "dpi": result.dpi,
                   **findings_json([])})
        return
    w, h = result.size_px
    click.echo(f"{len(result.paths)} faces in {out_dir} ({result.drawn} drawn, {len(result.paths) - result.drawn} "
               f"from cache): {w}x{h} px = {result.trim_mm[0]:g}x{result.trim_mm[1]:g} mm + "
               f"{result.bleed_mm:g} mm bleed at {result.dpi} dpi")


# ---------------------------------------------------------------- rulebook

@click.command("rulebook", cls=Command)
@click.argument("deck")
@click.option("--lang", type=click.Choice(["es", "en", "all"]), default=None,
              help="Language of the rulebook (default: the deck's); all: one file per language.")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The PDF to write (default: output/<deck>/<deck>-rulebook-<lang>.pdf).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True, help="Paper size.")
@click.option("--booklet", is_flag=True,
              help="A saddle-stitched booklet: half-size pages, padded to a multiple of 4, 2-up on landscape sheets.")
@click.option("--service", default=None, metavar="NAME",
              help="Made for this print shop's preset: for one that takes PDF/X-1a (dtc-poker), CMYK within its ink "
                   "limit and no transparency; written as <deck>-rulebook-<lang>-<service>.pdf.")
@palette_options
def rulebook(deck: str, lang: str | None, out_path: Path | None, paper: str, booklet: bool, service: str | None,
             palette: PaletteChoice) -> None:
    """Write the rulebook PDF of a deck from its templates, in Spanish or English.

    Card counts, points and effect descriptions come from the manifest and its rule options;
    the text is cross-checked first (every card a template names must exist, every kind in
    the deck must be explained), and a failed check writes nothing (exit code 1).
    A deck may point at its own templates with deck.templates in its manifest.

    Example:

        deckgen rulebook classic --lang en

        deckgen rulebook flex-spectrum --lang es --paper letter -o reglas.pdf

        deckgen rulebook classic --lang all --booklet

        deckgen rulebook classic --service dtc-poker
    """
    from deckgen.rulebook import languages, write_rulebook

    canvas, suffix = _shop_canvas(deck, service, booklet)
    the_deck = palette.load(deck)
    langs = languages(the_deck) if lang == "all" else [lang or the_deck.language]
    if out_path is not None and len(langs) > 1:
        raise usage_error("-o", "-o names one file, but --lang all writes several", hint="leave out -o, or pick one --lang")
    if out_path is not None:
        claim_output(out_path, folder=False)
    progress = Progress()
    for code in langs:
        target = out_path or outputs.rulebook_pdf(the_deck.id, code, booklet)
        if out_path is None and suffix:
            target = target.with_name(f"{target.stem}-{suffix}.pdf")
        if out_path is None:
            claim_output(target, folder=False)          # output/<deck>/ made and marked as deckgen's
        write_rulebook(the_deck, code, target, paper=paper, booklet=booklet, progress=progress, canvas=canvas)
        progress.close()
        sheets = _pdf_pages(target)
        if booklet:
            click.echo(f"wrote {target} ({sheets} sheet sides = {sheets // 2} sheets, {2 * sheets} booklet pages, "
                       f"{code}, {paper} landscape): print double-sided, flip on the short edge, fold, staple")
        else:
            click.echo(f"wrote {target} ({sheets} pages, {code}, {paper})")


def _shop_canvas(deck_ref: str, service: str | None, booklet: bool) -> tuple[Any, str]:
    """The canvas class of a rulebook made for a print shop's preset, and the file name's suffix."""
    if service is None:
        return None, ""
    if booklet:
        raise usage_error("--service", "a print shop binds the rulebook itself: --booklet is for printing at home",
                          hint="leave out --booklet")
    from deckgen import manifest
    from deckgen.export import get_service
    from deckgen.export.printshop import shop_canvas

    svc = get_service(service, base=manifest.find_deck(deck_ref).parent)
    return shop_canvas(svc), svc.id


def _pdf_pages(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(path).pages)
