"""``deckgen export tts``: Tabletop Simulator deck sheets and a saved object.

TTS imports a custom deck from a grid image of at most 10 × 7 cells, no side above 4096 px,
whose last cell is the "hidden" image shown for cards in other players' hands. Each sheet
holds up to 69 distinct faces: copies of a card share its cell (the saved object lists the
card once per copy, with the same ``CardID``), so classic UNO and No Mercy fit one sheet each.
Components with their own backs (Power cards) get a front sheet and a matching back sheet
("unique backs").

Beside the sheets, ``<deck>-tts.json`` is a TTS *saved object*: the whole deck (every sheet
one ``CustomDeck`` entry, every card a ``Card`` with its name; a deck over several sheets is
a ``Deck``, one of a single sheet a ``DeckCustom``, as TTS saves them) and, for components, a
deck of their own. The images are referred to by ``file:///`` URLs, or with ``base_url`` by
the public address the designer uploads them to (``base_url`` + file name), so the object can
be shared and played online. Copied into TTS's Saved Objects folder it appears in the game's
Objects > Saved Objects, so nothing is imported by hand.
TTS draws every custom card on its own poker-shaped model (2.5 × 3.5 in); the objects' X
scale narrows (or widens) it to the deck's card shape, so UNO-size cards (56 × 87 mm) are not
shown 11 % too wide.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from deckgen.atomic import write_bytes, write_text
from deckgen.errors import DeckgenError, Finding, error
from deckgen.export.images import EXTENSIONS, save
from deckgen.export.resolution import resolution_warnings
from deckgen.export.run import ExportRun
from deckgen.layout.imposition import BACK, card_copies
from deckgen.model import Deck
from deckgen.units import mm_to_px

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1
TTS_CARD_ASPECT = 2.5 / 3.5         # width / height of TTS's card model
THUMB = 256                         # px, the Saved Objects browser's thumbnail

# Where TTS looks for saved objects (its own folder under the user's documents or data).
SAVED_OBJECTS = {
    "Windows": r"%USERPROFILE%\Documents\My Games\Tabletop Simulator\Saves\Saved Objects",
    "macOS": "~/Library/Tabletop Simulator/Saves/Saved Objects",
    "Linux": "~/.local/share/Tabletop Simulator/Saves/Saved Objects",
}


@dataclass(frozen=True)
class TtsSheet:
    path: Path
    cards: int
    cols: int
    rows: int
    backs: Path | None = None     # unique-backs sheet, same grid
    label: str = "deck"
    faces: tuple[str, ...] = ()   # the front face of each cell, in order
    component: str | None = None  # the component's id for a component's sheet
    copies: tuple[int, ...] = ()  # how many cards show each cell (copies share a cell)

    @property
    def total(self) -> int:
        """Physical cards on the sheet, copies included."""
        return sum(self.copies) if self.copies else self.cards


@dataclass(frozen=True)
class TtsResult:
    folder: Path
    sheets: tuple[TtsSheet, ...]
    back: Path
    howto: Path
    cell_px: tuple[int, int]
    saved_object: Path | None = None
    thumbnail: Path | None = None
    scale: tuple[float, float, float] = (1.0, 1.0, 1.0)
    base_url: str | None = None
    warnings: tuple[Finding, ...] = ()     # images below the sheets' resolution

    @property
    def files(self) -> list[Path]:
        out = [s.path for s in self.sheets] + [s.backs for s in self.sheets if s.backs]
        extra = [p for p in (self.saved_object, self.thumbnail) if p is not None]
        return [*out, self.back, self.howto, *extra]


def check_base_url(url: str | None) -> str | None:
    """``--base-url``: an http(s) address ending in the folder the sheets are uploaded to."""
    if url is None:
        return None
    text = url.strip()
    if not text.startswith(("https://", "http://")) or len(text.split("://", 1)[1].strip("/")) == 0 or " " in text:
        raise DeckgenError(error("option", "--base-url", f"'{url}' is not a web address",
                                 hint="the public folder the sheet images are uploaded to, such as "
                                      "https://example.org/my-deck/"))
    return text if text.endswith("/") else text + "/"


def _distinct(faces: list[tuple[str, str]]) -> list[tuple[tuple[str, str], int]]:
    """(front, back) pairs in the order they first appear, with how many cards show each."""
    counts: dict[tuple[str, str], int] = {}
    for pair in faces:
        counts[pair] = counts.get(pair, 0) + 1
    return list(counts.items())


def card_scale(trim_mm: tuple[float, float]) -> tuple[float, float, float]:
    """The Transform scale (x, y, z) that gives TTS's poker-shaped card model the card's shape:
    the height (z) stays, the width (x) follows the aspect ratio."""
    return round((trim_mm[0] / trim_mm[1]) / TTS_CARD_ASPECT, 4), 1.0, 1.0


def tts_dpi(trim_mm: tuple[float, float], max_side: int = MAX_SIDE) -> int:
    """The highest resolution at which a 10 x 7 sheet of cards stays within ``max_side`` px."""
    cw, ch = max_side // MAX_COLS, max_side // MAX_ROWS
    dpi = int(min(cw / trim_mm[0], ch / trim_mm[1]) * 25.4)
    while mm_to_px(trim_mm[0], dpi) > cw or mm_to_px(trim_mm[1], dpi) > ch:
        dpi -= 1
    return dpi


def cell_px(trim_mm: tuple[float, float], max_side: int = MAX_SIDE) -> tuple[int, int]:
    """One cell: the card (no bleed) at :func:`tts_dpi`."""
    dpi = tts_dpi(trim_mm, max_side)
    return mm_to_px(trim_mm[0], dpi), mm_to_px(trim_mm[1], dpi)


MIN_SIDE = 2        # TTS's Custom Deck dialog takes a grid of 2 to 10 columns and 2 to 7 rows


def grid_for(cards: int) -> tuple[int, int]:
    """Columns and rows for ``cards`` cards plus the hidden cell: at least 2 × 2, the smallest grid TTS's
    import dialog offers (unused cells stay white)."""
    cells = cards + 1
    cols = min(MAX_COLS, max(MIN_SIDE, cells))
    return cols, max(MIN_SIDE, math.ceil(cells / cols))


def _sheet(faces: list[str], images: dict[str, Image.Image], hidden: Image.Image, cell: tuple[int, int]) -> Image.Image:
    cols, rows = grid_for(len(faces))
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), "white")
    for i, face in enumerate(faces):
        sheet.paste(images[face], ((i % cols) * cell[0], (i // cols) * cell[1]))
    sheet.paste(hidden, ((cols - 1) * cell[0], (rows - 1) * cell[1]))
    return sheet


def export_tts(deck: Deck, out_dir: Path, *, fmt: str = "png", run: ExportRun | None = None,
               card_size: str | None = None, max_side: int = MAX_SIDE, base_url: str | None = None) -> TtsResult:
    """The sheets, saved object and how-to in ``out_dir``; the faces rendered as ``run`` says."""
    from deckgen.render import RenderSettings, card_size_mm, render_deck

    run = run or ExportRun()
    progress = run.progress

    base_url = check_base_url(base_url)
    if not 1024 <= max_side <= MAX_SIDE:
        raise DeckgenError(error("option", "--max-side", f"{max_side} px is out of range",
                                 hint=f"Tabletop Simulator takes sheets from 1024 to {MAX_SIDE} px a side"))
    trim = card_size_mm(card_size or deck.card_size, base=deck.source.parent if deck.source else None)
    cell = cell_px(trim, max_side)
    settings = RenderSettings(dpi=tts_dpi(trim, max_side), bleed_mm=0.0, card_size=card_size)
    rendered = render_deck(deck, settings, use_cache=run.use_cache, cache_dir=run.cache_dir, progress=progress,
                           jobs=run.jobs)
    images: dict[str, Image.Image] = {}
    for face, path in rendered.paths.items():
        with Image.open(path) as im:
            im = im.convert("RGB")
            images[face] = im if im.size == cell else im.resize(cell, Image.Resampling.LANCZOS)
    folder = Path(out_dir)
    ext = EXTENSIONS[fmt]
    hidden = images[BACK]
    copies = card_copies(deck)
    playing = _distinct([(c.front, c.back) for c in copies if not c.component])
    sheets = []
    chunks = [playing[i:i + PER_SHEET] for i in range(0, len(playing), PER_SHEET)]
    for n, chunk in enumerate(chunks, 1):
        faces = [front for (front, _), _ in chunk]
        path = save(_sheet(faces, images, hidden, cell), folder / f"{deck.id}-tts-{n}{ext}", fmt)
        label = f"deck {n}/{len(chunks)}" if len(chunks) > 1 else "deck"
        sheets.append(TtsSheet(path, len(chunk), *grid_for(len(chunk)), label=label, faces=tuple(faces),
                               copies=tuple(k for _, k in chunk)))
        if progress:
            progress("TTS sheets", n, len(chunks))
    for comp in deck.components:
        mine = _distinct([(c.front, c.back) for c in copies if c.component and c.front == comp.faces[0]])
        parts = [mine[i:i + PER_SHEET] for i in range(0, len(mine), PER_SHEET)]
        for n, part in enumerate(parts, 1):
            suffix = f"-{n}" if len(parts) > 1 else ""
            front = save(_sheet([f for (f, _), _ in part], images, hidden, cell),
                         folder / f"{deck.id}-tts-{comp.id}{suffix}-front{ext}", fmt)
            back = save(_sheet([b for (_, b), _ in part], images, hidden, cell),
                        folder / f"{deck.id}-tts-{comp.id}{suffix}-back{ext}", fmt)
            sheets.append(TtsSheet(front, len(part), *grid_for(len(part)), backs=back, label=comp.id + suffix,
                                   faces=tuple(f for (f, _), _ in part), component=comp.id,
                                   copies=tuple(k for _, k in part)))
    back = save(hidden, folder / f"{deck.id}-tts-back{ext}", fmt)
    scale = card_scale(trim)
    obj = saved_object(deck, sheets, back, scale, base_url)
    saved = write_bytes(folder / f"{deck.id}-tts.json",
                        (json.dumps(obj, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    thumb_im = hidden.copy()
    thumb_im.thumbnail((THUMB, THUMB), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", (THUMB, THUMB), (40, 44, 52))
    canvas.paste(thumb_im, ((THUMB - thumb_im.width) // 2, (THUMB - thumb_im.height) // 2))
    thumbnail = save(canvas, folder / f"{deck.id}-tts.png", "png")
    howto = write_text(folder / f"{deck.id}-tts-import.txt", howto_text(deck, sheets, back, saved, scale, base_url))
    low = resolution_warnings(deck, trim, 0.0, settings.safe_mm, settings.dpi, "the Tabletop Simulator sheets")
    return TtsResult(folder, tuple(sheets), back, howto, cell, saved, thumbnail, scale, base_url, tuple(low))


def _guid(*parts: object) -> str:
    """A stable 6-hex-digit object GUID (TTS's own are random; these only need to be distinct)."""
    return hashlib.sha1("/".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def _transform(x: float, scale: tuple[float, float, float], face_down: bool = True) -> dict[str, Any]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": scale[0], "scaleY": scale[1], "scaleZ": scale[2]}


def _url(path: Path, base_url: str | None) -> str:
    """Where TTS fetches an image: the public address under ``base_url``, or the file on this machine."""
    if base_url:
        from urllib.parse import quote

        return base_url + quote(path.name)
    return path.resolve().as_uri()


def _custom_deck(sheet: TtsSheet, back: Path, base_url: str | None = None) -> dict[str, Any]:
    return {"FaceURL": _url(sheet.path, base_url),
            "BackURL": _url(sheet.backs or back, base_url),
            "NumWidth": sheet.cols, "NumHeight": sheet.rows,
            "BackIsHidden": False, "UniqueBack": sheet.backs is not None, "Type": 0}


def _face_name(deck: Deck, face: str, lang: str) -> str:
    for comp in deck.components:
        if face in comp.faces:
            return comp.names.get(lang)
    return deck.card(face).name(lang)


def card_descriptions(deck: Deck, lang: str) -> dict[str, str]:
    """Each playing card's rules, as the rulebook words them (its paragraphs about the card's
    group, plain text): the tooltip TTS shows on a card, so a table new to a homemade card can
    read what it does."""
    from deckgen.rulebook.describe import group_text
    from deckgen.rulebook.groups import group_key, groups
    from deckgen.rulebook.markup import plain

    by_key = {g.key: g for g in groups(deck)}
    texts: dict[str, str] = {}
    out: dict[str, str] = {}
    for card in deck.cards:
        key = group_key(card)
        if key not in texts:
            texts[key] = "\n".join(plain(p) for p in group_text(deck, by_key[key], lang))
        out[card.id] = texts[key]
    return out


def _deck_object(deck: Deck, sheets: list[tuple[int, TtsSheet]], back: Path, scale: tuple[float, float, float],
                 at: tuple[float, str], lang: str, base_url: str | None = None) -> dict[str, Any]:
    """One deck object on the table: its sheets' cards, at ``at`` (x position, nickname), each
    playing card described by what it does."""
    x, name = at
    said = card_descriptions(deck, lang)
    ids: list[int] = []
    cards = []
    custom = {}
    for key, sheet in sheets:
        custom[str(key)] = _custom_deck(sheet, back, base_url)
        copies = sheet.copies or (1,) * len(sheet.faces)
        for i, (face, count) in enumerate(zip(sheet.faces, copies)):
            card_id = key * 100 + i
            for k in range(count):          # every copy is its own card, showing the same cell
                ids.append(card_id)
                cards.append({"GUID": _guid(deck.id, key, i, k), "Name": "Card",
                              "Transform": _transform(x, scale), "Nickname": _face_name(deck, face, lang),
                              "Description": said.get(face, ""), "CardID": card_id, "SidewaysCard": False, "Hands": True,
                              "CustomDeck": {str(key): custom[str(key)]}})
    kind = "DeckCustom" if len(custom) == 1 else "Deck"         # TTS's own names for one sheet and several
    return {"GUID": _guid(deck.id, name), "Name": kind, "Transform": _transform(x, scale), "Nickname": name,
            "Description": deck.name(lang), "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "SidewaysCard": False, "HideWhenFaceDown": True, "Hands": False,
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards}


def saved_object(deck: Deck, sheets: list[TtsSheet], back: Path, scale: tuple[float, float, float],
                 base_url: str | None = None) -> dict[str, Any]:
    """The TTS saved object: the shuffled deck of playing cards, and beside it one deck per
    component (never shuffled in), every card scaled to the deck's card shape."""
    lang = deck.language
    numbered = list(enumerate(sheets, 1))
    playing = [(k, s) for k, s in numbered if s.component is None]
    objects = [_deck_object(deck, playing, back, scale, (0.0, deck.name(lang)), lang, base_url)]
    for n, comp in enumerate(deck.components, 1):
        mine = [(k, s) for k, s in numbered if s.component == comp.id]
        if mine:
            objects.append(_deck_object(deck, mine, back, scale, (3.0 * n, comp.names.get(lang)), lang, base_url))
    return {"SaveName": deck.name(lang), "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "",
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}


def howto_text(deck: Deck, sheets: list[TtsSheet], back: Path, saved: Path | None = None,
               scale: tuple[float, float, float] = (1.0, 1.0, 1.0), base_url: str | None = None) -> str:
    lines = [f"{deck.name('en')}: Tabletop Simulator import", ""]
    if base_url:
        files = sorted({s.path.name for s in sheets} | {s.backs.name for s in sheets if s.backs} | {back.name})
        lines += [f"{saved.name if saved else 'The saved object'} refers to the sheets at {base_url}: upload these "
                  "files there, under these names,", "before anyone loads the deck (then it can be shared and "
                  "played online):"]
        lines += [f"  {name}" for name in files]
        lines += [""]
    if saved is not None and base_url:
        lines += ["Then copy " + saved.name + f" and {saved.stem}.png into Tabletop Simulator's Saved Objects folder:"]
        lines += [f"  {system:<8} {folder}" for system, folder in SAVED_OBJECTS.items()]
        lines += ["and, in a game: Objects > Saved Objects > " + saved.stem + ". Anyone with the two files",
                  "gets the same deck: TTS loads the images from the web address.", ""]
    if saved is not None and not base_url:
        lines += ["The quick way: copy " + saved.name + f" and {saved.stem}.png into Tabletop Simulator's",
                  "Saved Objects folder:"]
        lines += [f"  {system:<8} {folder}" for system, folder in SAVED_OBJECTS.items()]
        lines += ["then, in a game: Objects > Saved Objects > " + saved.stem + ". The deck (and the Power cards,",
                  "if any, as a deck of their own) appears on the table. The saved object points at the",
                  f"sheet images where they are now ({saved.parent.resolve()}): leave them there, or export again",
                  "after moving them. The cards are scaled to the deck's card shape "
                  f"(X scale {scale[0]:g}: TTS's card model is poker-shaped).", "",
                  "By hand instead: for each file below, in Tabletop Simulator: Objects > Components >",
                  "Custom > Deck,"]
    else:
        lines += ["For each file below, in Tabletop Simulator: Objects > Components > Custom > Deck,"]
    lines += ["then set Face to the sheet file, Back to the back file, Width and Height to the grid,",
              "Number to the number of cells, leave 'Back is Hidden' off and press Import. Each cell is one",
              "card there: copy the cards a deck has several of (the saved object has every copy already).",
              "Files on your disk can be chosen with the folder button (or upload them to the Steam",
              "Cloud / any web host and paste the address).", ""]
    for s in sheets:
        copies = f" ({s.total} cards with their copies)" if s.total != s.cards else ""
        if s.backs:
            lines.append(f"- {s.label}: Face {s.path.name}, Back {s.backs.name} with 'Unique Backs' on, "
                         f"Width {s.cols}, Height {s.rows}, Number {s.cards}{copies}")
        else:
            lines.append(f"- {s.label}: Face {s.path.name}, Back {back.name}, "
                         f"Width {s.cols}, Height {s.rows}, Number {s.cards}{copies}")
    lines += ["", "After importing the playing-card sheets, stack the decks together and shuffle.", ""]
    if saved is not None:
        lines += [f"En español: copia {saved.name} y {saved.stem}.png en la carpeta Saved Objects de",
                  "Tabletop Simulator (la ruta de tu sistema está arriba) y, en una partida, abre",
                  "Objetos > Objetos guardados > " + saved.stem + ". Deja las imágenes donde están: el objeto",
                  "guardado las busca ahí.", "",
                  "A mano:"]
    lines += ["En Tabletop Simulator: Objetos > Componentes > Personalizado > Mazo. Elige la hoja como",
              "cara, el dorso indicado como dorso, el ancho y alto de la cuadrícula y el número de cartas",
              "de cada línea de arriba, y pulsa Importar. Después junta los mazos y baraja.", ""]
    return "\n".join(lines)
