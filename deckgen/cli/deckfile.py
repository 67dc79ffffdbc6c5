"""A deck as files to share and to bring in: ``pack``, ``unpack``, ``import`` and ``export sheet``."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from deckgen import outputs
from deckgen.atomic import claim_output
from deckgen.cli.base import Command, Progress, counted, echo_findings, echo_json, findings_json
from deckgen.cli.params import gather, json_option, usage_error


@dataclasses.dataclass(frozen=True)
class ImportChoice:
    """How ``deckgen import`` reads its file: which tool's conventions, sheet, copies column, mapping."""

    tool: str | None
    sheet: str | None
    count: str | None
    maps: tuple[str, ...]

    def mapping(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for item in self.maps:
            column, sep, key = item.partition("=")
            if not sep or not column.strip() or not key.strip():
                raise usage_error("--map", f"'{item}' is not COLUMN=KEY", "e.g. --map Copies=count or --map Flavour=-")
            out[column.strip()] = key.strip()
        return out


def _write(path: Path, data: bytes, claim: bool = True) -> Path:
    """Write atomically; the folder is claimed as deckgen's output unless the user named the file."""
    from deckgen.atomic import make_folder, write_bytes

    if claim:
        claim_output(path.parent, folder=True)
    else:
        make_folder(path.parent)
    return write_bytes(path, data)


@click.command("pack", cls=Command)
@click.argument("deck")
@click.option("-o", "--output", "out", default=None, type=click.Path(dir_okay=False),
              help="The pack's file (default: output/<deck>/<deck>.deck.zip).")
@json_option
def pack_cmd(deck: str, out: str | None, as_json: bool) -> None:
    """Pack DECK into one file, <id>.deck.zip, to share: the manifest and the files it uses.

    The pack holds the manifest, its art and icons, its fonts with their licence files, its own
    layouts, kinds, palettes and presets, its rulebook templates and card sheets, and an index
    of their SHA-256 hashes; nothing else. The same folder always gives the same bytes. Every
    command that takes a deck reads the pack directly (deckgen check fox.deck.zip), without
    unpacking it.

    Example:

        deckgen pack woodland

        deckgen check output/woodland/woodland.deck.zip
    """
    from deckgen import manifest, pack

    path = manifest.find_deck(deck)
    the_deck = manifest.load_deck(path)
    data = pack.pack_bytes(the_deck, path)
    _, names = pack.used_files(the_deck, path)
    target = _write(Path(out) if out else outputs.pack_file(the_deck.id), data, claim=not out)
    if as_json:
        echo_json({"ok": True, "deck": the_deck.id, "pack": str(target), "bytes": len(data), "files": names})
        return
    click.echo(f"{target}: {counted(len(names), 'file')}, {len(data):,} bytes")
    for name in names:
        click.echo(f"  {name}")


@click.command("unpack", cls=Command)
@click.argument("pack_file", metavar="PACK")
@click.argument("folder", required=False)
@json_option
def unpack_cmd(pack_file: str, folder: str | None, as_json: bool) -> None:
    """Extract a checked PACK (.deck.zip) into a new FOLDER (default: the pack's name without .deck.zip).

    The pack is checked first, as check and build check it (names, links, sizes, hashes, files
    the manifest does not use), and the deck is read from it: nothing is written unless all of
    that passes. FOLDER must not exist.

    Example:

        deckgen unpack woodland.deck.zip woodland-copy
    """
    from deckgen import manifest, pack

    if not pack.is_pack(pack_file):
        raise usage_error("PACK", f"'{pack_file}' is not a .deck.zip", "give the path of a file deckgen pack wrote")
    result = manifest.load(pack_file)
    if result.errors:
        from deckgen.errors import DeckHasErrors

        raise DeckHasErrors(result.errors)
    opened = pack.open_pack(pack_file)
    dest = Path(folder) if folder else Path(Path(pack_file).name[: -len(pack.SUFFIX)])
    written = pack.unpack(opened, dest)
    if as_json:
        echo_json({"ok": True, "folder": str(dest), "manifest": str(dest / opened.manifest),
                   "files": [str(p) for p in written]})
        return
    click.echo(f"{dest}: {counted(len(written), 'file')}; the manifest is {dest / opened.manifest}")


@click.command("import", cls=Command)
@click.argument("source", metavar="FILE")
@click.option("--from", "tool", type=click.Choice(["squib", "nandeck"]), default=None,
              help="The tool the data comes from (default: nandeck for a .nde script, else squib).")
@click.option("--sheet", default=None, help="The sheet of a workbook (default: the first).")
@click.option("--count", "count", default=None, metavar="COLUMN",
              help="The column of copies (Squib's explode column, default qty; nanDECK's LINKMULTI).")
@click.option("--map", "maps", multiple=True, metavar="COLUMN=KEY",
              help="Map a column to a card key (count, color, value, kind, name, text, art, text.en ...); KEY - leaves it out.")
@click.option("-o", "--output", "out", default=None, type=click.Path(file_okay=False),
              help="The new deck's folder (default: the file's name without its extension).")
@click.option("--lang", type=click.Choice(["en", "es"]), default=None,
              help="The deck's language [default: the language of the data's colours and kinds (rojo, Salta: es), "
                   "else en].")
@json_option
@gather("reading", ImportChoice, "tool", "sheet", "count", "maps")
def import_cmd(source: str, reading: ImportChoice, out: str | None, lang: str | None, as_json: bool) -> None:
    """Make a deck from the card data of Squib or nanDECK: FILE is a CSV, XLSX or ODS data file
    (one row per card design, a copies column) or a nanDECK script (.nde) that links one.

    Writes a new folder with the manifest and its card sheet (cards.csv), checks the deck, and
    reports which columns it mapped to which keys, which it left, and which rows it left out.

    Example:

        deckgen import docs/examples/squib/data.csv -o my-deck

        deckgen import docs/examples/nandeck/uno.nde -o mi-uno
    """
    from deckgen import importer, manifest
    from deckgen.check import check as run_check
    from deckgen.stages import CheckOptions

    src = Path(source)
    chosen = reading.tool or ("nandeck" if src.suffix.lower() == ".nde" else "squib")
    result = importer.convert(src, tool=chosen, sheet=reading.sheet, count=reading.count, maps=reading.mapping())
    stem = src.name.split(".")[0]
    dest = Path(out) if out else Path(stem)
    deck_id = importer.slug(dest.name)
    if (dest / f"{deck_id}.toml").exists():
        raise usage_error("-o", f"{dest / (deck_id + '.toml')} already exists", "choose another folder with -o")
    inferred = lang is None
    lang = lang or result.language or "en"
    text = importer.manifest_text(result, deck_id, stem.replace("_", " ").replace("-", " ").title(), lang, "cards.csv")
    claim_output(dest, folder=True)
    _write(dest / "cards.csv", importer.sheet_bytes(result))
    path = _write(dest / f"{deck_id}.toml", text.encode("utf-8"))
    # the whole check, simulated games included, as deckgen check runs it: its verdict is the one printed
    progress = Progress(enabled=not as_json)
    checked = run_check(path, CheckOptions(progress=progress), loaded=manifest.load(path))
    progress.close()
    if as_json:
        echo_json({"ok": not checked.errors, "manifest": str(path), "tool": result.tool, "cards": result.cards,
                   "mapped": result.mapped, "left": result.left, "skipped": result.skipped, "language": lang,
                   "verdict": checked.verdict_line(), **findings_json(checked.findings)})
    else:
        click.echo(f"{path}: {result.cards} cards in {len(result.rows)} rows, from {src} ({result.tool})")
        click.echo("  mapped: " + ", ".join(f"{c} -> {k}" for c, k in result.mapped.items()))
        click.echo("  left: " + (", ".join(result.left) or "nothing"))
        if inferred and result.language == "es":
            click.echo("  language: es, as the data's colours and kinds are written (--lang en for an English deck)")
        for why in result.skipped:
            click.echo(f"  left out: {why}")
        echo_findings(checked.findings)
        click.echo(f"  check: {checked.verdict_line()} (deckgen check {path})")
    if checked.errors:                  # printed above; the exit code deckgen check gives them
        from deckgen.errors import exit_code

        sys.exit(exit_code(checked.findings))


@click.command("sheet", cls=Command)
@click.argument("deck")
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx", "ods"]), default="csv", show_default=True,
              help="The sheet's format.")
@click.option("-o", "--output", "out", default=None, type=click.Path(dir_okay=False),
              help="The sheet's file (default: output/<deck>/<deck>-cards.<format>).")
@click.option("--manifest", "manifest_out", default=None, type=click.Path(dir_okay=False),
              help="Also write a copy of the manifest that reads its cards from the sheet (cards = \"...\").")
@json_option
def export_sheet_cmd(deck: str, fmt: str, out: str | None, manifest_out: str | None, as_json: bool) -> None:
    """Write DECK's cards as a sheet (CSV, XLSX or ODS) that reads back to the same deck.

    One row per card with its copies in the count column; what the manifest derives anyway (ids,
    names, points) is left out. Put cards = "<the sheet>" in the manifest in place of its
    [[cards]] tables, or let --manifest write that copy of the manifest. Paths in the sheet
    (art) are relative to the manifest's folder: keep the sheet and the new manifest there.

    Example:

        deckgen export sheet classic --format xlsx

        deckgen export sheet my-deck/my-deck.toml -o my-deck/cards.csv --manifest my-deck/from-sheet.toml
    """
    from deckgen import manifest
    from deckgen.datafile import read_text
    from deckgen.manifest.tosheet import manifest_with_sheet, write

    path = manifest.find_deck(deck)
    the_deck = manifest.load_deck(path)
    target = _write(Path(out) if out else outputs.sheet_file(the_deck.id, fmt), write(the_deck, fmt), claim=not out)
    written = [str(target)]
    if manifest_out:
        import os

        mpath = Path(manifest_out)
        sheet_ref = Path(os.path.relpath(target.resolve(), mpath.resolve().parent)).as_posix()
        if mpath.exists():
            raise usage_error("--manifest", f"{mpath} already exists", "name a new file; a manifest is never overwritten")
        written.append(str(_write(mpath, manifest_with_sheet(read_text(path), sheet_ref).encode("utf-8"), claim=False)))
    if as_json:
        echo_json({"ok": True, "deck": the_deck.id, "files": written, "cards": len(the_deck.cards)})
        return
    for w in written:
        click.echo(w)
