"""Results as plain data: what a cluster's worker sends back, and how it is checked on arrival.

A task's result travels from a Dask worker to deckgen as one JSON document (UTF-8 bytes),
never as a pickle, so a worker cannot make deckgen run code by what it sends
(``docs/cluster.md``). The document is::

    {"deckgen": "<version>", "ok": <value>}        the task's result
    {"deckgen": "<version>", "error": "<text>"}    the task raised (the text is shown, never run)

and a value is JSON's own ``null``, booleans, numbers, strings and lists, plus three tagged
objects: ``{"(": [...]}`` a tuple, ``{"{": [[key, value], ...]}`` a dict, and
``{"$": NAME, "v": [...]}`` one of the record types of :data:`TYPES` (its fields in order; an
enumeration's value). On arrival every record is rebuilt only from its declared field types
(``int``, ``str``, tuples of them, ...) and refused otherwise; nothing else is ever constructed.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
import types
import typing
from typing import Any, Final, Union

from deckgen.errors import DeckgenError, error

# the types a result may hold, by the name they travel under: (module, name). They are looked up in
# the modules already imported here (the caller that asked for the games imported them), never imported.
TYPES: Final = {
    "GameRecord": ("deckgen.rules.record", "GameRecord"),
    "Outcome": ("deckgen.rules.record", "Outcome"),
    "MatchResult": ("deckgen.rules.match", "MatchResult"),
}
MAX_BYTES: Final = 64 << 20      # one task's result
MAX_DEPTH: Final = 32


class WireError(ValueError):
    """A result that is not plain data of the documented shape."""


def _name_of(cls: type) -> str | None:
    for name, (mod, attr) in TYPES.items():
        if cls.__module__ == mod and cls.__qualname__ == attr:
            return name
    return None


def to_plain(value: Any) -> Any:
    """A result as plain JSON-ready data (on the worker)."""
    if value is None or (isinstance(value, (bool, int, float)) and not isinstance(value, enum.Enum)):
        return value
    name = _name_of(type(value))
    if name is not None:
        if isinstance(value, enum.Enum):
            return {"$": name, "v": value.value}
        return {"$": name, "v": [to_plain(getattr(value, f)) for f in _fields(type(value))]}
    if isinstance(value, str):
        return str(value)
    if isinstance(value, tuple):
        return {"(": [to_plain(v) for v in value]}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {"{": [[to_plain(k), to_plain(v)] for k, v in value.items()]}
    raise WireError(f"a result of type {type(value).__name__} cannot travel as plain data")


def dumps(version: str, value: Any = None, failure: str | None = None) -> bytes:
    """The document a worker sends back."""
    doc = {"deckgen": version, "error": failure} if failure is not None else {"deckgen": version, "ok": to_plain(value)}
    return json.dumps(doc, separators=(",", ":"), allow_nan=False).encode("utf-8")


def loads(data: object, version: str, where: str) -> Any:
    """A worker's document, checked: its value, or DeckgenError (exit 2) naming ``where`` for a
    document that is not of the documented shape, another deckgen version, or a task that failed."""
    if not isinstance(data, bytes) or len(data) > MAX_BYTES:
        raise _bad(where, "sent something that is not a result document (bytes of JSON)")
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise _bad(where, f"sent a result that is not JSON ({exc})") from None
    if not isinstance(doc, dict) or set(doc) not in ({"deckgen", "ok"}, {"deckgen", "error"}):
        raise _bad(where, "sent a result of another shape than {'deckgen', 'ok' | 'error'}")
    if doc["deckgen"] != version:
        raise DeckgenError(error("cluster", "--cluster", f"{where} runs deckgen {str(doc['deckgen'])[:40]!r}, not {version}",
                                 hint="install the same deckgen on every worker machine"))
    if "error" in doc:
        raise DeckgenError(error("cluster", "--cluster", f"a task failed on {where}: {str(doc['error'])[:2000]}",
                                 hint="run the same command without --cluster to see the error here"))
    try:
        return from_plain(doc["ok"])
    except (WireError, RecursionError) as exc:
        raise _bad(where, str(exc)) from None


def _no_constant(name: str) -> None:
    raise WireError(f"{name} is not a number JSON allows")


def _bad(where: str, what: str) -> DeckgenError:
    return DeckgenError(error("cluster", "--cluster", f"{where} {what}; nothing it sent was used",
                              hint="a scheduler or worker you do not control may be answering (docs/cluster.md)"))


def from_plain(value: Any, depth: int = 0) -> Any:
    """Plain data back to a result: tuples, dicts and the record types of :data:`TYPES`, each
    record's fields checked against its declared types."""
    if depth > MAX_DEPTH:
        raise WireError("a result nested too deeply")
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [from_plain(v, depth + 1) for v in value]
    if not isinstance(value, dict):
        raise WireError(f"a value of type {type(value).__name__}")
    if set(value) == {"("} and isinstance(value["("], list):
        return tuple(from_plain(v, depth + 1) for v in value["("])
    if set(value) == {"{"} and isinstance(value["{"], list):
        pairs = value["{"]
        if not all(isinstance(p, list) and len(p) == 2 for p in pairs):
            raise WireError("a dict whose items are not pairs")
        out = {}
        for k, v in pairs:
            key = from_plain(k, depth + 1)
            if not isinstance(key, (str, int, tuple)):
                raise WireError("a dict key that is not a string, number or tuple")
            out[key] = from_plain(v, depth + 1)
        return out
    if set(value) == {"$", "v"} and isinstance(value["$"], str):
        return _record(value["$"], value["v"], depth)
    raise WireError("an object of no documented shape")


def _resolve(name: str) -> type:
    spot = TYPES.get(name)
    mod = sys.modules.get(spot[0]) if spot else None
    cls = getattr(mod, spot[1], None) if spot and mod else None
    if not isinstance(cls, type):
        raise WireError(f"a record of type {name[:40]!r}, which no result here holds")
    return cls


def _fields(cls: type) -> tuple[str, ...]:
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls))
    return tuple(getattr(cls, "_fields", ()))


def _record(name: str, raw: Any, depth: int) -> Any:
    cls = _resolve(name)
    if issubclass(cls, enum.Enum):
        try:
            return cls(raw)
        except ValueError:
            raise WireError(f"{raw!r} is not a {name}") from None
    names = _fields(cls)
    if not isinstance(raw, list) or len(raw) != len(names):
        raise WireError(f"a {name} needs {len(names)} fields")
    hints = typing.get_type_hints(cls, vars(sys.modules[cls.__module__]))
    values = [_typed(from_plain(v, depth + 1), hints[f], f"{name}.{f}") for f, v in zip(names, raw)]
    return cls(*values)


def _typed(value: Any, hint: Any, where: str) -> Any:
    """``value`` as the declared type ``hint`` (an enumeration from its value), or WireError."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        return _union(value, typing.get_args(hint), where)
    if hint is type(None):
        if value is None:
            return None
        raise WireError(f"{where}: expected nothing")
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _member(value, hint, where)
    if hint in (int, float, str, bool):
        return _scalar(value, hint, where)
    if origin is tuple:
        return _tuple(value, typing.get_args(hint), where)
    if isinstance(hint, type) and isinstance(value, hint):
        return value
    raise WireError(f"{where}: {value!r:.40} is not a {hint}")


def _union(value: Any, arms: tuple[Any, ...], where: str) -> Any:
    # the arms deckgen's records declare are one type or None
    if value is None and type(None) in arms:
        return None
    real = [a for a in arms if a is not type(None)]
    if len(real) != 1:
        raise WireError(f"{where}: a field of several types")
    return _typed(value, real[0], where)


def _member(value: Any, hint: type[enum.Enum], where: str) -> Any:
    if isinstance(value, hint):
        return value
    try:
        return hint(value)
    except ValueError:
        raise WireError(f"{where}: {value!r:.40} is not a {hint.__name__}") from None


def _scalar(value: Any, hint: type, where: str) -> Any:
    if isinstance(value, bool) and hint is not bool:
        raise WireError(f"{where}: {value!r} is not {hint.__name__}")
    ok = isinstance(value, hint) or (hint is float and isinstance(value, int))
    if not ok:
        raise WireError(f"{where}: {value!r:.40} is not {hint.__name__}")
    return value


def _tuple(value: Any, args: tuple[Any, ...], where: str) -> tuple[Any, ...]:
    if not isinstance(value, tuple):
        raise WireError(f"{where}: expected a tuple")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_typed(v, args[0], where) for v in value)
    if len(args) != len(value):
        raise WireError(f"{where}: expected {len(args)} items")
    return tuple(_typed(v, a, where) for v, a in zip(value, args))
