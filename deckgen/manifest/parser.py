"""A deck manifest (TOML) -> :class:`deckgen.model.Deck`, with every problem collected."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen import deckfs
from deckgen.datafile import Shape, names_of, read_toml, with_lines
from deckgen.errors import Collector, DeckgenError, DeckHasErrors, Finding, did_you_mean, error, exit_code
from deckgen.manifest import artpattern, sheets
from deckgen.manifest import names as naming
from deckgen.manifest.kinds import parse_kinds, standard_kinds
from deckgen.manifest.look import cards_look, deck_look, kinds_look
from deckgen.manifest.palettes import colour_ids, find_palette, load_palette_file, parse_palette
from deckgen.manifest.schema import (
    CARD_KEYS,
    COMPONENT_KEYS,
    DECK_KEYS,
    FLEX_KEYS,
    MAX_COUNT,
    MAX_DESCRIPTION,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_VALUE,
    PLAYERS_KEYS,
    RULES_KEYS,
    SCORING_KEYS,
    TOP_KEYS,
)
from deckgen.model import NUMBER, WILD, Card, Component, Deck, FlexSide, Kind, Names, Palette, Scoring
from deckgen.options import OPTIONS, PRESETS, RuleOptions, resolve
from deckgen.resources import decks_dir

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
RELATIVE = re.compile(r"^\+(\d+)$")


@dataclass
class LoadResult:
    """What reading a manifest gave: the deck (None when it could not be built) and findings."""

    deck: Deck | None
    findings: list[Finding] = field(default_factory=list)
    path: Path | None = None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.is_error]


# Data files that live beside the bundled decks but are not decks (kinds catalogue, card sizes,
# paper and print-shop presets).
NOT_DECKS = ("kinds", "card-sizes", "papers", "services")


def bundled_decks() -> dict[str, Path]:
    return {p.stem: p for p in sorted(decks_dir().glob("*.toml")) if p.stem not in NOT_DECKS}


def example_decks() -> dict[str, Path]:
    """Homemade example decks, each in its own folder with its art: ``decks/examples/<id>/<id>.toml``."""
    return {p.stem: p for p in sorted(decks_dir().glob("examples/*/*.toml")) if p.stem == p.parent.name}


def find_deck(ref: str | Path) -> Path:
    """A bundled deck name (``classic``), an example's name (``woodland``), a path to a manifest,
    or a ``.deck.zip`` (checked and mounted, :mod:`deckgen.pack`: its manifest's path in the mount)."""
    ref_s = str(ref)
    if ref_s.lower().endswith(".deck.zip") and (deckfs.locate(ref_s) or (None, ""))[1] == "":
        from deckgen.pack import open_pack

        return open_pack(ref_s).manifest_path       # checked and mounted: read in memory (deckgen.deckfs)
    bundled = {**bundled_decks(), **example_decks()}
    if ref_s in bundled:
        return bundled[ref_s]
    path = Path(ref_s)
    if path.is_file() or path.suffix == ".toml" or "/" in ref_s or path.exists():
        return path
    hint = did_you_mean(ref_s, bundled) or "bundled decks: " + ", ".join(bundled) + ", or a path to a .toml manifest"
    raise DeckgenError(error("deck", "DECK", f"'{ref_s}' is neither a bundled deck nor a file", hint=hint))


def load(ref: str | Path, palette: Palette | None = None) -> LoadResult:
    """Read and validate a manifest. Raises DeckgenError only for unreadable input."""
    path = find_deck(ref)
    data = read_toml(path)
    result = parse_manifest(data, path, palette_override=palette)
    hit = deckfs.locate(path)
    if hit is not None and result.deck is not None and not result.errors:
        from deckgen.pack import open_pack, unused_entries

        refused = unused_entries(open_pack(hit[0].root), result.deck)
        if refused:
            raise DeckgenError(refused)
    return result


def load_deck(ref: str | Path, palette: Palette | None = None) -> Deck:
    """A valid deck, or DeckHasErrors with every error (for stages after the checker);
    DeckgenError (exit 2) when a file the deck needs cannot be used."""
    result = load(ref, palette)
    if result.errors or result.deck is None:
        if exit_code(result.errors) == 2:
            raise DeckgenError(result.errors)
        raise DeckHasErrors(result.errors)
    return result.deck


def parse_manifest(data: dict[str, Any], path: Path, palette_override: Palette | None = None) -> LoadResult:
    """The deck of a parsed manifest, with every finding (each given its line in the file)."""
    result = _parse_manifest(data, path, palette_override)
    result.findings = with_lines(result.findings)
    return result


def _parse_manifest(data: dict[str, Any], path: Path, palette_override: Palette | None) -> LoadResult:
    out = Collector(str(path))
    shape = Shape(out)
    shape.table(data, "", TOP_KEYS)
    expanded = sheets.expand(data, path, out)
    data = expanded.data
    meta = _deck_meta(data.get("deck"), shape, out)
    palette = _palette(data, meta, path, out)
    if palette_override is not None and palette is not None:
        palette = _restyle(palette, palette_override)
    preset, options = _rules(data.get("rules"), shape, out)
    kinds = dict(standard_kinds(path.parent))
    broken: set[str] = set()
    patterns: dict[str, artpattern.Pattern] = {}
    if "kinds" in data:
        kinds.update(parse_kinds(_definitions(data["kinds"], kinds), "kinds", out, broken))
        kinds = kinds_look(data["kinds"], kinds, path, out, patterns)
    scoring, points = _scoring(data.get("scoring"), kinds, broken, shape, out)
    lang = meta.get("language", "es") if meta else "es"
    lines = expanded.lines
    # an inline palette with errors still names its colours: the cards' colours are checked against them
    checked_against = palette if palette is not None or "palette" not in data else colour_ids(data["palette"])
    cards = _cards(data.get("cards"), lines["cards"], _Known(kinds, broken), checked_against, points, shape, out)
    cards = cards_look(data.get("cards"), cards, path, out, lines["cards"], patterns)
    cards = artpattern.apply(cards, patterns, path.parent, out)
    look = deck_look(data.get("deck"), path, out)
    components = _components(data.get("components", []), lines["components"], shape, out)
    out.findings = expanded.places.relocate(out.findings)
    deck = None
    if not out.errors and meta is not None and palette is not None and scoring is not None:
        used = {c.kind for c in cards} | {c.flex.kind for c in cards if c.flex}
        deck = Deck(
            id=meta["id"], names=Names(meta["name"]), language=lang,
            players_min=meta["players"][0], players_max=meta["players"][1], hand_size=meta["hand_size"],
            card_size=meta.get("card_size", "uno"), palette=palette,
            kinds={k: v for k, v in kinds.items() if k in used}, cards=tuple(cards),
            components=tuple(components), rules_preset=preset, rule_options=options, scoring=scoring,
            back_text=Names(meta["back_text"]) if meta.get("back_text") else None,
            template_dir=meta.get("templates"), source=path,
            description=Names(meta["description"]) if meta.get("description") else None,
            **look,
        )
    return LoadResult(deck, out.findings, path)


def _definitions(raw: Any, standard: dict[str, Kind]) -> Any:
    """The ``[kinds.<id>]`` tables that declare a kind: a table of a standard kind with only look
    keys (``[kinds.number] art = "art/{color}.svg"``) dresses that kind instead of declaring it."""
    if not isinstance(raw, dict):
        return raw
    return {kid: t for kid, t in raw.items() if not (kid in standard and isinstance(t, dict) and t
                                                     and set(t) <= LOOK_KEYS)}


LOOK_KEYS = frozenset({"icon", "art", "art_fit", "text", "layout", "hide"})


def _deck_meta(value: Any, shape: Shape, out: Collector) -> dict[str, Any] | None:
    table = shape.table(value, "deck", DECK_KEYS)
    if table is None:
        return None
    meta: dict[str, Any] = {}
    ok = True
    if "id" in table:
        meta["id"] = _deck_id(table["id"], shape, out)
        ok &= meta["id"] is not None
    for key in ("name", "back_text", "description"):
        if key in table:
            text = shape.text(table[key], f"deck.{key}", max_len=MAX_DESCRIPTION if key == "description" else MAX_NAME)
            meta[key] = names_of(text) if text else None
            ok &= text is not None
    if "language" in table:
        meta["language"] = _deck_language(table["language"], shape, out)
        ok &= meta["language"] is not None
    if "hand_size" in table:
        meta["hand_size"] = shape.integer(table["hand_size"], "deck.hand_size", 1, 50)
        ok &= meta["hand_size"] is not None
    if "card_size" in table:
        meta["card_size"] = shape.string(table["card_size"], "deck.card_size")
        ok &= meta["card_size"] is not None
    if "palette" in table and not isinstance(table["palette"], str):
        out.error("type", "deck.palette", "expected the name or path of a palette file",
                  hint="an inline palette is a top-level [palette] table")
    if "templates" in table:
        meta["templates"] = shape.string(table["templates"], "deck.templates")
    if "players" in table:
        players = _deck_players(table["players"], shape, out)
        if players is None:
            ok = False
        else:
            meta["players"] = players
            ok &= players[0] is not None and players[1] is not None
    required = {k for k, (_, req) in DECK_KEYS.items() if req}
    return meta if ok and required <= set(meta) else None


def _deck_id(value: Any, shape: Shape, out: Collector) -> str | None:
    did = shape.string(value, "deck.id")
    if did is not None and not SLUG.match(did):
        out.error("value", "deck.id", f"'{did}' is not a valid deck id", hint="use lower-case letters, digits and hyphens")
        return None
    return did


def _deck_language(value: Any, shape: Shape, out: Collector) -> str | None:
    lang = shape.string(value, "deck.language")
    if lang is not None and not re.fullmatch(r"[a-z]{2}", lang):
        out.error("value", "deck.language", f"'{lang}' is not a two-letter language code", hint="e.g. es or en")
        return None
    return lang


def _deck_players(value: Any, shape: Shape, out: Collector) -> tuple[int | None, int | None] | None:
    """``deck.players`` as (min, max), either None where it has an error; None without both."""
    players = shape.table(value, "deck.players", PLAYERS_KEYS)
    if players is None or "min" not in players or "max" not in players:
        return None
    lo = shape.integer(players["min"], "deck.players.min", 2, MAX_PLAYERS)
    hi = shape.integer(players["max"], "deck.players.max", 2, MAX_PLAYERS)
    if lo is not None and hi is not None and lo > hi:
        out.error("players", "deck.players", f"min ({lo}) is greater than max ({hi})", hint="min must be at most max")
        lo = None
    return lo, hi


def _palette(data: dict[str, Any], meta: dict[str, Any] | None, path: Path, out: Collector) -> Palette | None:
    raw_deck = data.get("deck")
    deck: dict[str, Any] = raw_deck if isinstance(raw_deck, dict) else {}
    if "palette" in deck and "palette" in data:
        out.error("conflict", "palette", "the deck names a palette (deck.palette) and has an inline [palette]: keep one")
        return None
    if "palette" not in deck and "palette" not in data:
        out.error("missing-key", "deck.palette", "the deck has no palette",
                  hint="name one (deck.palette = \"classic\") or write an inline [palette] table")
        return None
    value = deck.get("palette", data.get("palette"))
    if isinstance(value, str):
        try:
            ppath = find_palette(value, path.parent)
        except DeckgenError as exc:
            for f in exc.findings:
                message = f"palette file {f.file}: {f.message}" if f.file else f.message
                out.error(f.code, "deck.palette" if "palette" in deck else "palette", message, hint=f.hint)
            return None
        try:
            palette, findings = load_palette_file(ppath)
        except DeckgenError as exc:
            findings, palette = exc.findings, None
        for f in findings:
            out.add(f)
        return palette
    return parse_palette(value, "palette", out, default_id="inline", source=str(path))


def _restyle(own: Palette, other: Palette) -> Palette:
    """The deck's own colours (ids and order: they fix which cards exist and where flex colours
    point) with the looks of a palette given with --palette (hex, names, shape cues)."""
    missing = [c for c in own.ids() if c not in other.ids()]
    if missing:
        raise DeckgenError(error(
            "palette", "--palette",
            f"palette '{other.id}' lacks colour{'s' if len(missing) > 1 else ''} {', '.join(missing)} of the deck's "
            f"own palette '{own.id}' ({len(own.colors)} colours)",
            hint=f"a replacement palette needs the colour ids {', '.join(own.ids())}"))
    return Palette(other.id, other.name, tuple(other.get(cid) for cid in own.ids()), other.source)


def _rules(value: Any, shape: Shape, out: Collector) -> tuple[str, RuleOptions]:
    table = shape.table(value, "rules", RULES_KEYS)
    preset = "classic"
    if table is None:
        return preset, resolve(preset)
    raw = table.get("preset", preset)
    if not isinstance(raw, str) or raw not in PRESETS:
        out.error("value", "rules.preset", f"unknown rules preset {raw!r}",
                  hint=did_you_mean(str(raw), PRESETS) or "presets: " + ", ".join(PRESETS))
    else:
        preset = raw
    overrides: dict[str, Any] = {}
    opts = table.get("options", {})
    if not isinstance(opts, dict):
        out.error("type", "rules.options", "expected a table of option = value")
        opts = {}
    for name, val in opts.items():
        where = f"rules.options.{name}"
        opt = OPTIONS.get(name)
        if opt is None:
            out.error("unknown-key", where, f"unknown rule option '{name}'",
                      hint=did_you_mean(name, OPTIONS) or "options: " + ", ".join(OPTIONS))
            continue
        good: bool | int | str | None
        if opt.type is bool:
            good = shape.boolean(val, where)
        elif opt.type is int:
            good = shape.integer(val, where, opt.minimum or 0, opt.maximum if opt.maximum is not None else 10**9)
        else:
            text = shape.string(val, where)
            if text is not None and opt.choices and text not in opt.choices:
                out.error("value", where, f"{text!r} is not a value of '{name}'",
                          hint=did_you_mean(text, opt.choices) or "expected one of: " + ", ".join(opt.choices))
                text = None
            good = text
        if good is not None:
            overrides[name] = good
    return preset, resolve(preset, overrides)


def _scoring(value: Any, kinds: dict[str, Kind], broken: set[str], shape: Shape,
             out: Collector) -> tuple[Scoring | None, dict[str, Any]]:
    table = shape.table(value, "scoring", SCORING_KEYS)
    if table is None:
        return None, {}
    target = shape.integer(table.get("target"), "scoring.target", 1, 1_000_000) if "target" in table else None
    bonus = shape.integer(table.get("knockout_bonus", 0), "scoring.knockout_bonus", 0, 1_000_000)
    points: dict[str, Any] = {}
    raw = table.get("points", {})
    if not isinstance(raw, dict):
        out.error("type", "scoring.points", "expected a table of kind = points")
        raw = {}
    for kid, val in raw.items():
        where = f"scoring.points.{kid}"
        if kid in broken:
            continue
        if kid not in kinds:
            out.error("kind", where, f"unknown card kind '{kid}'",
                      hint=did_you_mean(kid, kinds) or "declare it under [kinds] first")
        elif val == "face":
            points[kid] = "face"
        else:
            good = shape.integer(val, where, 0, 10_000, what='an integer or "face"')
            if good is not None:
                points[kid] = good
    if target is None or bonus is None:
        return None, points
    return Scoring(target, bonus), points


def _expand(entry: dict[str, Any], key1: str, key2: str, where: str, out: Collector) -> list[Any] | None:
    if key1 in entry and key2 in entry:
        out.error("conflict", where, f"give '{key1}' or '{key2}', not both")
        return None
    if key2 in entry:
        many = entry[key2]
        if isinstance(many, list) and many:
            return many
        if key2 == "colors" and many == "all":
            return ["all"]
        extra = ' or "all"' if key2 == "colors" else ""
        out.error("type", f"{where}.{key2}", f"expected a non-empty array{extra}")
        return None
    return [entry[key1]] if key1 in entry else [None]


@dataclass
class _Known:
    """The kinds a card may name, and those declared with errors (already reported)."""

    kinds: dict[str, Kind]
    broken: set[str]


def _cards(value: Any, lines: list[int | None], known: _Known, palette: Palette | None, points: dict[str, Any],
           shape: Shape, out: Collector) -> list[Card]:
    if value is None:
        return []
    if not isinstance(value, list):
        out.error("type", "cards", "expected an array of tables ([[cards]]) or a sheet (cards = \"cards.csv\")")
        return []
    if not value:
        out.error("value", "cards", "a deck needs at least one [[cards]] entry")
    cards: list[Card] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(value):
        where = f"cards[{i}]"
        line = lines[i] if i < len(lines) else None
        before = len(out.errors)
        entry = shape.table(raw, where, CARD_KEYS, line=line)
        if entry is None:
            continue
        for card in _card_entry(_Entry(entry, where, line, shape, out), known, palette, points):
            if card.id in seen:
                out.error("duplicate-id", f"{where}.id", f"card id '{card.id}' is already used by {seen[card.id]}",
                          hint="give this entry its own 'id'", line=line)
            else:
                seen[card.id] = where
            if len(out.errors) == before:
                cards.append(card)
    return cards


@dataclass
class _Entry:
    """One [[cards]] entry being read: where it is, and the fields read so far."""

    raw: dict[str, Any]
    where: str
    line: int | None
    shape: Shape
    out: Collector
    kind: Kind | None = None
    count: int | None = None
    flags: dict[str, bool] = field(default_factory=dict)
    colors: list[Any] | None = None
    values: list[Any] | None = None
    points: int | None = None
    names: dict[str, str] | None = None
    pattern: str | None = None

    def err(self, code: str, key: str, msg: str, hint: str | None = None) -> None:
        self.out.error(code, f"{self.where}.{key}" if key else self.where, msg, hint=hint, line=self.line)

    def key(self, one: str, many: str) -> str:
        """The key the entry used: 'colors' or 'color', 'values' or 'value'."""
        return many if many in self.raw else one


@dataclass
class _Read:
    """A [[cards]] entry whose fields all read: what the checks and the expansion work on."""

    e: _Entry
    kind: Kind
    count: int
    colors: list[Any]
    values: list[Any]


def _card_entry(e: _Entry, known: _Known, palette: Palette | None, points: dict[str, Any]) -> list[Card]:
    """The cards one [[cards]] entry expands to (none when it has errors)."""
    r = _read_fields(e, known, palette)
    # its colours and values are checked even when its kind or count did not read: every error at once
    ok = e.colors is None or e.values is None or _check_lists(e, e.colors, e.values, palette)
    if r is not None:
        ok &= _check_category(r)
    ok &= _check_flex(e, r.kind if r is not None else None, known.kinds, palette if r is None else None)
    if r is None:
        return []
    if not ok or (palette is None and r.colors != [None]):
        return []
    return _expand_cards(r, palette, points, known.kinds)


def _read_fields(e: _Entry, known: _Known, palette: Palette | None) -> _Read | None:
    raw, shape, where, line, kinds = e.raw, e.shape, e.where, e.line, known.kinds
    kid = raw.get("kind")
    e.kind = kinds.get(kid) if isinstance(kid, str) else None
    if "kind" in raw and e.kind is None and not (isinstance(kid, str) and kid in known.broken):
        e.err("kind", "kind", f"unknown card kind {kid!r}",
              hint=did_you_mean(str(kid), kinds) or "declare it in a [kinds.<id>] table; standard kinds: "
              + ", ".join(kinds))
    if "count" in raw:
        e.count = shape.integer(raw["count"], f"{where}.count", 1, MAX_COUNT, what="a positive whole number of copies",
                                line=line)
    for flag in ("flip_icon", "duel", "colorless"):
        e.flags[flag] = bool(shape.boolean(raw[flag], f"{where}.{flag}", line=line)) if flag in raw else False
    e.colors = _expand(raw, "color", "colors", where, e.out)
    e.values = _expand(raw, "value", "values", where, e.out)
    if "points" in raw:
        e.points = shape.integer(raw["points"], f"{where}.points", 0, 10_000, line=line)
    if "name" in raw:
        e.names = shape.text(raw["name"], f"{where}.name", line=line, max_len=MAX_NAME)
    if "id" in raw:
        e.pattern = shape.string(raw["id"], f"{where}.id", line=line)
    if e.colors == ["all"]:
        e.colors = list(palette.ids()) if palette else []
    if e.kind is None or e.count is None or e.colors is None or e.values is None:
        return None
    return _Read(e, e.kind, e.count, e.colors, e.values)


def _check_lists(e: _Entry, colors: list[Any], values: list[Any], palette: Palette | None) -> bool:
    """Every colour is in the palette and every value a card value."""
    ok = True
    ids = palette.ids() if palette else ()
    for c in colors:
        if c is not None and (not isinstance(c, str) or (palette and c not in ids)):
            e.err("color", e.key("color", "colors"), f"colour {c!r} is not in the palette", hint=color_hint(c, palette))
            ok = False
    for v in values:
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_VALUE):
            e.err("value", e.key("value", "values"), f"expected a card value from 0 to {MAX_VALUE}, got {v!r}")
            ok = False
    return ok


def _check_category(r: _Read) -> bool:
    """What the kind's category allows: values for numbers, no colour for wilds, flags for numbers."""
    e, kind = r.e, r.kind
    flags, has_color = e.flags, r.colors != [None]
    problems: list[tuple[str, str, str, str | None]] = []
    if kind.category == NUMBER and r.values == [None]:
        problems.append(("missing-key", "value", f"a '{kind.id}' card (a number card) needs a 'value'", None))
    if kind.category != NUMBER and r.values != [None]:
        problems.append(("value", "value", f"'{kind.id}' is not a number card, so it takes no value", None))
    if kind.category == WILD and has_color:
        problems.append(("color", "color", f"'{kind.id}' is a wild card: it has no colour",
                         "remove 'color'/'colors', or use a coloured kind"))
    if kind.category != WILD and not has_color and not flags["colorless"]:
        problems.append(("missing-key", "color", f"a '{kind.id}' card needs a colour ('color' or 'colors')",
                         "or set colorless = true for a colourless number card"))
    if flags["colorless"] and (has_color or kind.category != NUMBER):
        problems.append(("value", "colorless", "only a number card without a colour can be colourless", None))
    if (flags["duel"] or flags["flip_icon"]) and kind.category != NUMBER:
        problems.append(("value", "duel" if flags["duel"] else "flip_icon",
                         "only number cards carry the duel or flip icon", None))
    for code, key, msg, hint in problems:
        e.err(code, key, msg, hint=hint)
    return not problems


def _check_flex(e: _Entry, kind: Kind | None, kinds: dict[str, Kind], palette: Palette | None) -> bool:
    """The flex table's shape; its colour is resolved per card in :func:`_expand_cards`, or here
    (``palette``) when the entry's kind or count did not read and no card will be made of it."""
    if e.raw.get("flex") is None:
        return True
    table = e.shape.table(e.raw["flex"], f"{e.where}.flex", FLEX_KEYS, line=e.line)
    if table is None:
        return False
    ok = "kind" in table
    fk = table.get("kind")
    if "kind" in table and (not isinstance(fk, str) or fk not in kinds):
        e.err("kind", "flex.kind", f"unknown card kind {fk!r}",
              hint=did_you_mean(str(fk), kinds) or "standard kinds: " + ", ".join(kinds))
        ok = False
    raw = table.get("color")
    if palette is not None and raw is not None and not (isinstance(raw, str) and RELATIVE.match(raw)):
        ok &= _flex_color(raw, None, palette, e.where, e.line, e.out) is not None
    if kind is None:
        return ok
    if kind.category != WILD and "color" not in table:
        e.err("missing-key", "flex.color", "the flex side of a coloured card needs a colour",
              hint="a palette colour id, or '+k' for the colour k places later")
        ok = False
    if kind.category == WILD and "color" in table:
        e.err("value", "flex.color", "a wild card's flex side has no colour")
        ok = False
    return ok


def _expand_cards(r: _Read, palette: Palette | None, points: dict[str, Any], kinds: dict[str, Kind]) -> list[Card]:
    """One card per colour and value of the entry."""
    e = r.e
    flex_raw, kind, cards = e.raw.get("flex"), r.kind, []
    for color in r.colors:
        flex = None
        if flex_raw is not None:
            fcolor = _flex_color(flex_raw.get("color"), color, palette, e.where, e.line, e.out)
            if flex_raw.get("color") is not None and fcolor is None:
                continue
            if fcolor is not None and fcolor == color:
                e.err("flex-color", "flex.color", f"the flex side's colour '{fcolor}' is the card's own colour",
                      hint="a flex side must point to another colour")
                continue
            flex = FlexSide(fcolor, flex_raw["kind"])
        for value in r.values:
            cid = naming.card_id(e.pattern, kind, color, value, e.flags, flex)
            if not SLUG.match(cid):
                e.err("value", "id", f"card id '{cid}' is not valid", hint="use lower-case letters, digits and hyphens")
                continue
            pts = e.points if e.points is not None else points.get(kind.id)
            if pts == "face":
                pts = value
            names = names_of(e.names) if e.names else naming.card_names(kind, color, value, e.flags, flex, palette,
                                                                        kinds)
            cards.append(Card(cid, kind.id, color, value, r.count, pts, Names(names),
                              flip_icon=e.flags["flip_icon"], duel=e.flags["duel"],
                              colorless=e.flags["colorless"], flex=flex, where=e.where))
    return cards


def _flex_color(raw: Any, color: str | None, palette: Palette | None, where: str, line: int | None,
                out: Collector) -> str | None:
    if raw is None or palette is None:
        return None
    ids = palette.ids()
    if isinstance(raw, str) and (m := RELATIVE.match(raw)):
        if color is None:
            out.error("flex-color", f"{where}.flex.color", "a relative flex colour needs the card to have a colour",
                      line=line)
            return None
        return ids[(palette.index(color) + int(m.group(1))) % len(ids)]
    if isinstance(raw, str) and raw in ids:
        return raw
    out.error("color", f"{where}.flex.color", f"colour {raw!r} is not in the palette", line=line,
              hint=color_hint(raw, palette, "a palette colour id, or '+k' for the colour k places later"))
    return None


def _fold(text: Any) -> str:
    """Lower case without accents, so 'marron' finds 'marrón'."""
    decomposed = unicodedata.normalize("NFKD", str(text).lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def color_hint(value: Any, palette: Palette | None, fallback: str | None = None) -> str:
    """'rojo' -> "'rojo' is the name of colour 'red': use its id"; else a did-you-mean."""
    if palette is None:
        return fallback or ""
    for color in palette.colors:
        if any(_fold(value) == _fold(n) for n in color.names.values.values()):
            return f"'{value}' is the name of colour '{color.id}': write its id, '{color.id}'"
    return did_you_mean(str(value), palette.ids()) or fallback or "palette colours: " + ", ".join(palette.ids())


def _components(value: Any, lines: list[int | None], shape: Shape, out: Collector) -> list[Component]:
    if value is None:
        return []
    if not isinstance(value, list):
        out.error("type", "components", "expected an array of tables ([[components]]) or a sheet")
        return []
    comps = []
    for i, raw in enumerate(value):
        where = f"components[{i}]"
        line = lines[i] if i < len(lines) else None
        table = shape.table(raw, where, COMPONENT_KEYS, line=line)
        if table is None or not set(COMPONENT_KEYS) <= set(table):
            continue
        cid = shape.string(table["id"], f"{where}.id", line=line)
        kind = shape.string(table["kind"], f"{where}.kind", line=line)
        count = shape.integer(table["count"], f"{where}.count", 1, MAX_COUNT, what="a positive whole number",
                              line=line)
        names = shape.text(table["name"], f"{where}.name", line=line, max_len=MAX_NAME)
        faces = table["faces"]
        if not isinstance(faces, list) or not faces or not all(isinstance(f, str) and SLUG.match(f) for f in faces):
            out.error("type", f"{where}.faces", "expected a non-empty array of face ids", line=line,
                      hint='e.g. faces = ["power-green", "power-red"]')
            continue
        if cid is None or kind is None or count is None or names is None:
            continue
        comps.append(Component(cid, kind, count, Names(names_of(names)), tuple(faces), where))
    return comps
