"""Card kinds: the standard catalogue in ``decks/kinds.toml`` plus a manifest's own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from deckgen import presets
from deckgen.datafile import Shape, names_of, read_toml
from deckgen.effects import PRIMITIVES, Effect, Param
from deckgen.errors import Collector, DeckgenError, did_you_mean
from deckgen.manifest.schema import EFFECT_KEYS, KIND_KEYS, MAX_LABEL, MAX_NAME
from deckgen.model import CATEGORIES, Kind, Names

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def _parse_file(path: str) -> list[tuple[str, Kind]]:
    data = read_toml(Path(path))
    out = Collector(path)
    Shape(out).table(data, "", {"kinds": ("table", True)})
    kinds = parse_kinds(data.get("kinds", {}), "kinds", out)
    if out.errors:
        raise DeckgenError(out.errors)
    return list(kinds.items())


KINDS: presets.PresetFile[Kind] = presets.PresetFile("kind", "kinds.toml", _parse_file)


def standard_kinds(base: Path | None = None) -> dict[str, Kind]:
    """The kinds every manifest may use: the bundled catalogue, the user's ``kinds.toml`` and
    (with ``base``) the one beside the manifest (see :mod:`deckgen.presets`)."""
    return presets.catalogue(KINDS, base).values()


def parse_kinds(value: Any, where: str, out: Collector, broken: set[str] | None = None) -> dict[str, Kind]:
    """``[kinds.<id>]`` tables -> kinds; the ids of kinds with errors go into ``broken`` (so cards
    of such a kind are not reported again as of an unknown kind)."""
    shape = Shape(out)
    if not isinstance(value, dict):
        out.error("type", where, "expected a table of kinds ([kinds.<id>])")
        return {}
    kinds = {}
    for kid, raw in value.items():
        kw = f"{where}.{kid}"
        if not SLUG.match(kid):
            out.error("value", kw, f"'{kid}' is not a valid kind id", hint="use lower-case letters, digits and hyphens")
            if broken is not None:
                broken.add(kid)
            continue
        kind = parse_kind(kid, raw, kw, shape, out)
        if kind is not None:
            kinds[kid] = kind
        elif broken is not None:
            broken.add(kid)
    return kinds


def parse_kind(kid: str, raw: Any, where: str, shape: Shape, out: Collector) -> Kind | None:
    table = shape.table(raw, where, KIND_KEYS)
    if table is None:
        return None
    ok = True
    category = table.get("category")
    if category is not None and category not in CATEGORIES:
        out.error("value", f"{where}.category", f"unknown category {category!r}",
                  hint=did_you_mean(str(category), CATEGORIES) or "expected one of: " + ", ".join(CATEGORIES))
        ok = False
    names = shape.text(table.get("name"), f"{where}.name", max_len=MAX_NAME) if "name" in table else None
    effects = parse_effects(table.get("effects", []), f"{where}.effects", out)
    symbol = table.get("symbol")
    if symbol is not None and shape.string(symbol, f"{where}.symbol") is None:
        ok = False
    label = None
    if table.get("label") == "":
        label = {"": ""}                  # an empty label: the centre shows no text (art unobstructed)
    elif "label" in table:
        label = shape.text(table["label"], f"{where}.label", max_len=MAX_LABEL)
    if not ok or names is None or effects is None or category is None:
        return None
    return Kind(kid, category, Names(names_of(names)), effects, symbol, Names(names_of(label)) if label else None)


def parse_effects(value: Any, where: str, out: Collector) -> tuple[Effect, ...] | None:
    if not isinstance(value, list):
        out.error("type", where, "expected an array of effects, e.g. [\"skip\"] or [{ op = \"draw\", n = 2 }]")
        return None
    effects = []
    ok = True
    for i, raw in enumerate(value):
        effect = parse_effect(raw, f"{where}[{i}]", out)
        if effect is None:
            ok = False
        else:
            effects.append(effect)
    return tuple(effects) if ok else None


def parse_effect(raw: Any, where: str, out: Collector) -> Effect | None:
    if isinstance(raw, str):
        raw = {"op": raw}
    if not isinstance(raw, dict):
        out.error("type", where, "expected an effect name or a table with 'op'")
        return None
    op = raw.get("op")
    if not isinstance(op, str) or op not in PRIMITIVES:
        hint = did_you_mean(str(op), PRIMITIVES) or "effects: " + ", ".join(PRIMITIVES)
        out.error("effect", f"{where}.op" if "op" in raw else where,
                  f"unknown effect {op!r}" if op is not None else "an effect needs 'op'", hint=hint)
        return None
    prim = PRIMITIVES[op]
    kwargs: dict[str, Any] = {}
    ok = True
    for key, val in raw.items():
        if key == "op":
            continue
        if key not in prim.params:
            accepted = ", ".join(prim.params) or "none"
            out.error("unknown-key", f"{where}.{key}", f"effect '{op}' takes no parameter '{key}'",
                      hint=(did_you_mean(key, prim.params) or f"its parameters: {accepted}"))
            ok = False
        elif _param_ok(prim.params[key], val, f"{where}.{key}", out):
            kwargs[key] = val
        else:
            ok = False
    for name, param in prim.params.items():
        if param.required and name not in raw:
            out.error("missing-key", f"{where}.{name}", f"effect '{op}' needs '{name}' ({param.doc})")
            ok = False
    assert set(kwargs) <= EFFECT_KEYS
    return Effect(op, **kwargs) if ok else None


def _param_ok(param: Param, val: Any, where: str, out: Collector) -> bool:
    """Whether an effect parameter's value has its type and lies in its range or choices (else an error)."""
    if param.type is int and (isinstance(val, bool) or not isinstance(val, int)):
        out.error("type", where, f"expected an integer, got {val!r}")
    elif param.type is int and not (param.minimum <= val <= param.maximum):
        out.error("range", where, f"expected {param.minimum} to {param.maximum}, got {val}")
    elif param.type is bool and not isinstance(val, bool):
        out.error("type", where, f"expected true or false, got {val!r}")
    elif param.type is str and (not isinstance(val, str) or (param.choices and val not in param.choices)):
        out.error("value", where, f"expected one of {', '.join(param.choices)}, got {val!r}")
    else:
        return True
    return False
