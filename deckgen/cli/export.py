"""``deckgen export``: a deck's files for other tools, Tabletop Simulator (``tts``) and print
shops (``cards``)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import click

from deckgen import outputs
from deckgen.atomic import claim_output
from deckgen.cli.base import Command, Group, Progress, echo_findings, echo_json, findings_json
from deckgen.cli.params import (
    Body,
    PaletteChoice,
    gather,
    jobs_option,
    json_option,
    lang_option,
    length,
    only_option,
    palette_options,
    stack,
    usage_error,
)

if TYPE_CHECKING:
    from deckgen.errors import Finding
    from deckgen.export.printshop import PrintShopResult
    from deckgen.export.services import Service
    from deckgen.export.tts import TtsResult
    from deckgen.model import Deck


@dataclasses.dataclass(frozen=True)
class ExportChoice:
    """Which deck an export draws (``--only``, the palette), whether despite errors, through the
    face cache, on how many processes."""

    only: str | None
    palette: PaletteChoice
    force: bool
    no_cache: bool
    jobs: int | None
    lang: str | None = None

    def load(self, deck_ref: str, sizes: tuple[str, ...] = ()) -> tuple[Deck, list[Finding]]:
        """The checked deck (its faces audited at ``sizes`` too: what the export draws) cut down to
        --only, in --lang, and its errors (there are some only with --force)."""
        from deckgen.build import BuildOptions, load_checked
        from deckgen.selection import select

        deck_obj, errors, _ = load_checked(deck_ref, BuildOptions(palette=self.palette.for_deck(deck_ref),
                                                                  force=self.force, lang=self.lang, sizes=sizes))
        return select(deck_obj, self.only), errors


def export_options(fn: Body) -> Body:
    """``--only``, ``--lang``, the palette options, ``--force``, ``--no-cache`` and ``-j``: the command
    gets ``source: ExportChoice``."""
    return stack(gather("source", ExportChoice, "only", "palette", "force", "no_cache", "jobs", "lang")(fn),
                 only_option,
                 lang_option,
                 palette_options,
                 click.option("--force", is_flag=True, help="Export even if the deck has errors."),
                 click.option("--no-cache", is_flag=True, help="Redraw every face instead of using the face cache."),
                 jobs_option)


@click.group("export", cls=Group)
def export_group() -> None:
    """Export a deck for other tools: Tabletop Simulator, print shops.

    Example:

        deckgen export tts classic
    """


# ---------------------------------------------------------------- tts

@dataclasses.dataclass(frozen=True)
class TtsChoice:
    """The Tabletop Simulator sheets: image format, card size, largest side, where they are uploaded."""

    fmt: str
    card_size: str | None
    max_side: int
    base_url: str | None


@export_group.command("tts", cls=Command)
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
@export_options
@json_option
@gather("sheets", TtsChoice, "fmt", "card_size", "max_side", "base_url")
def export_tts_cmd(deck: str, out_dir: str | None, sheets: TtsChoice, source: ExportChoice, as_json: bool) -> None:
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
    from deckgen.export import ExportRun, export_tts

    deck_obj, errors = source.load(deck, (sheets.card_size,) if sheets.card_size else ())
    if not as_json:
        echo_findings(errors)
    folder = claim_output(out_dir or outputs.tts_folder(deck_obj.id), folder=True)
    progress = Progress(enabled=not as_json)
    res = export_tts(deck_obj, folder, fmt=sheets.fmt,
                     run=ExportRun(use_cache=not source.no_cache, progress=progress, jobs=source.jobs),
                     card_size=sheets.card_size, max_side=sheets.max_side, base_url=sheets.base_url)
    progress.close()
    if as_json:
        echo_json({"ok": True, "exit_code": 0, "deck": deck_obj.id, "output": str(res.folder),
                   "sheets": [{"path": str(s.path), "cols": s.cols, "rows": s.rows, "cards": s.cards,
                               "copies": s.total, "backs": str(s.backs) if s.backs else None} for s in res.sheets],
                   "base_url": res.base_url,
                   "back": str(res.back), "howto": str(res.howto), "cell_px": list(res.cell_px),
                   **findings_json([*errors, *res.warnings])})
        return
    _echo_tts(res)


def _echo_tts(res: TtsResult) -> None:
    echo_findings(list(res.warnings))
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


# ---------------------------------------------------------------- cards

@dataclasses.dataclass(frozen=True)
class ShopChoice:
    """The print shop's preset and what is changed from it: card size, bleed, safe zone."""

    service: str | None
    card_size: str | None
    bleed: str | None
    safe: str | None

    def preset(self, deck_ref: str) -> Service:
        """The shop's preset (the manifest's folder may add some); --service is required."""
        from deckgen import manifest
        from deckgen.export import get_service, load_services

        base = manifest.find_deck(deck_ref).parent
        if self.service is None:
            raise usage_error("--service", "name the print shop's preset with --service",
                              hint="presets: " + ", ".join(load_services(base=base)))
        return get_service(self.service, base=base)

    def bleed_mm(self) -> float | None:
        return length(self.bleed, "--bleed") if self.bleed is not None else None

    def safe_mm(self) -> float | None:
        return length(self.safe, "--safe") if self.safe is not None else None


@export_group.command("cards", cls=Command)
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
@export_options
@json_option
@gather("shop", ShopChoice, "service", "card_size", "bleed", "safe")
def export_cards_cmd(deck: str, shop: ShopChoice, out_dir: str | None, source: ExportChoice, as_json: bool) -> None:
    """The files a print shop asks for: one image per face at the shop template's pixel size,
    a quantities list and a one-card-per-page PDF with TrimBox and BleedBox.

    Warns when the faces' symbols and text would reach into the shop's unsafe border, or
    when --card-size/--bleed leave the shop's template size.

    Example:

        deckgen export cards classic --service tgc-poker

        deckgen export cards flex-spectrum --service mpc-poker --bleed 3mm
    """
    from deckgen.export import ExportRun, export_cards

    svc = shop.preset(deck)
    bleed_mm = shop.bleed_mm()
    safe_mm = shop.safe_mm()
    deck_obj, errors = source.load(deck, (svc.id,) + ((shop.card_size,) if shop.card_size else ()))
    if not as_json:
        echo_findings(errors)
    folder = claim_output(out_dir or outputs.print_shop_folder(deck_obj.id, svc.id), folder=True)
    progress = Progress(enabled=not as_json)
    res = export_cards(deck_obj, svc, folder,
                       run=ExportRun(use_cache=not source.no_cache, progress=progress, jobs=source.jobs),
                       card_size=shop.card_size, bleed_mm=bleed_mm, safe_mm=safe_mm)
    progress.close()
    if as_json:
        echo_json({"ok": True, "exit_code": 0, "deck": deck_obj.id, "service": svc.id, "output": str(res.folder),
                   "images": [str(p) for p in res.images], "pdf": str(res.pdf), "pages": res.pages,
                   "quantities": str(res.quantities), "size_px": list(res.size_px), "trim_mm": list(res.trim_mm),
                   "bleed_mm": res.bleed_mm, "resized": res.resized, **findings_json([*errors, *res.warnings])})
        return
    _echo_cards(res, svc)


def _echo_cards(res: PrintShopResult, svc: Service) -> None:
    echo_findings(list(res.warnings))
    click.echo(f"{svc.name}")
    click.echo(f"  {len(res.images)} face images, {res.size_px[0]}x{res.size_px[1]} px "
               f"({res.trim_mm[0]:g} x {res.trim_mm[1]:g} mm + {res.bleed_mm:g} mm bleed) in {res.folder / 'faces'}")
    if res.resized:
        click.echo(f"  {res.resized}")
    l, t, r, b = res.safe_box
    line = f"  symbols and text inside {r - l}x{b - t} px"
    if res.shop_safe_box:
        sl, st, sr, sb = res.shop_safe_box
        line += f"; the shop's safe zone is {sr - sl}x{sb - st} px"
    click.echo(line)
    order = "back, front" if svc.pdf_order == "back-front" else "front, back"
    kind = ""
    if svc.pdf == "pdfx-1a":
        from deckgen.icc import SWOP_TAC

        limit = SWOP_TAC if svc.ink_limit is None else svc.ink_limit
        kind = f", PDF/X-1a in CMYK, at most {limit:g} % total ink"
    click.echo(f"  {res.pdf}  {res.pages} pages ({order} for every card{kind})\n  {res.quantities}")
    if svc.source:
        click.echo(f"  figures: {svc.source}")
