"""What ``deckgen tune`` aims at and what it may change: targets and variables, parsed and checked
before any game is played (``docs/tune.md`` lists every name).

A *target* is ``NAME=LO..HI``, ``NAME<=VALUE`` or ``NAME>=VALUE`` with one of :data:`TARGETS`;
percentages take ``%``, points ``pts``. A *variable* is ``count:KIND=LO..HI`` (the ``count`` of
each ``[[cards]]`` entry of that kind: copies per card, 0 takes the entry out), ``rules.OPTION``
(every value of a true/false or choice option), ``rules.OPTION=LO..HI`` (an integer option) or
``rules.OPTION=A,B,...``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck


@dataclass(frozen=True)
class Measure:
    """A target's figure: its unit, and whether it is a share (0-1, written as a percentage)."""

    words: str
    unit: str                 # "", "%" or "pts"
    share: bool


TARGETS: Final = {
    "median_turns": Measure("the median game length in turns (random players), at every table size tuned", "", False),
    "length_ratio": Measure("the median game length against classic UNO's at the same table size", "", False),
    "seat_spread": Measure("the largest gap between a seat's win rate and a fair share (random players)", "%", True),
    "finished": Measure("the share of games that finish (no stall, no turn cap)", "%", True),
    "early": Measure("the share of games decided before every player has played a card", "%", True),
    "expert_edge": Measure("an expert's win rate among greedy players, less a fair share, at the middle table size",
                           "pts", True),
}


@dataclass(frozen=True)
class Target:
    name: str
    low: float | None          # None: no lower bound
    high: float | None

    def text(self) -> str:
        m = TARGETS[self.name]

        def fmt(x: float) -> str:
            return f"{x * 100:g}{m.unit}" if m.share else f"{x:g}"

        if self.low is not None and self.high is not None:
            return f"{self.name}={fmt(self.low)}..{fmt(self.high)}"
        return f"{self.name}>={fmt(self.low)}" if self.low is not None else f"{self.name}<={fmt(self.high or 0)}"

    def met(self, value: float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def shortfall(self, value: float) -> float:
        """How far ``value`` is outside the target, as a share of the bound it misses (0: met)."""
        if self.low is not None and value < self.low:
            return (self.low - value) / max(abs(self.low), 0.01)
        if self.high is not None and value > self.high:
            return (value - self.high) / max(abs(self.high), 0.01)
        return 0.0

    def margin(self, value: float) -> float:
        """How far ``value`` is inside the target, as a share of the nearer bound (negative: outside)."""
        room = [(value - self.low) / max(abs(self.low), 0.01)] if self.low is not None else []
        room += [(self.high - value) / max(abs(self.high), 0.01)] if self.high is not None else []
        return min(room)

    def clear(self, low: float, high: float) -> bool:
        """Whether an interval ``low``-``high`` answers the target either way."""
        inside = (self.low is None or low >= self.low) and (self.high is None or high <= self.high)
        outside = (self.low is not None and high < self.low) or (self.high is not None and low > self.high)
        return inside or outside


@dataclass(frozen=True)
class Variable:
    """A count (``kind``) or a rule option (``option``) and the values it may take, in order."""

    name: str                  # as written: count:wild-draw-four, rules.stacking
    values: tuple[Any, ...]
    kind: str | None = None
    option: str | None = None
    own_range: bool = True     # False: a count's range deckgen chose (none was written), narrowed to what deals

    @property
    def integer_range(self) -> bool:
        return all(isinstance(v, int) and not isinstance(v, bool) for v in self.values) and \
            list(self.values) == list(range(self.values[0], self.values[-1] + 1))


def _bad(where: str, message: str, hint: str) -> Finding:
    return error("tune", where, message, hint=hint)


_TARGET_RE = re.compile(r"^\s*([A-Za-z_]+)\s*(<=|>=|=)\s*(.+?)\s*$")


def _number(text: str, measure: Measure) -> float:
    t = text.strip().lower()
    if measure.share:
        if t.endswith("%") or t.endswith("pts"):
            return float(t.rstrip("%").removesuffix("pts").strip()) / 100
        value = float(t)
        return value / 100 if value > 1 else value
    return float(t)


def parse_target(text: str) -> Target | Finding:
    """A target, or the finding that says why it is not one."""
    m = _TARGET_RE.match(text)
    names = ", ".join(TARGETS)
    if not m:
        return _bad("--target", f"'{text}' is not NAME=LO..HI, NAME<=VALUE or NAME>=VALUE",
                    f"e.g. --target 'median_turns=30..60'; targets: {names}")
    name, op, rest = m.group(1), m.group(2), m.group(3)
    measure = TARGETS.get(name)
    if measure is None:
        from deckgen.errors import did_you_mean

        near = did_you_mean(name, TARGETS)
        return _bad("--target", f"unknown target '{name}'", (f"{near} " if near else "") + f"targets: {names}")
    try:
        if op == "=":
            lo_text, sep, hi_text = rest.partition("..")
            if not sep:
                return _bad("--target", f"'{text}': '=' takes a range LO..HI", f"e.g. {name}=30..60, or {name}<=VALUE")
            low, high = _number(lo_text, measure), _number(hi_text, measure)
        elif op == "<=":
            low, high = None, _number(rest, measure)
        else:
            low, high = _number(rest, measure), None
    except ValueError:
        return _bad("--target", f"'{text}': '{rest}' is not a number or range of numbers", f"e.g. {name}=30..60")
    bounds = [b for b in (low, high) if b is not None]
    if any(not math.isfinite(b) for b in bounds):
        return _bad("--target", f"'{text}': bounds must be finite numbers", f"e.g. {name}=30..60")
    if low is not None and high is not None and low >= high:
        return _bad("--target", f"'{text}' is an {'empty' if low == high else 'inverted'} range",
                    "write the lower bound first, and a range that holds more than one value")
    return Target(name, low, high)


def parse_variable(text: str, deck: Deck) -> Variable | Finding:
    """A variable of this deck, or the finding that says why it is not one."""
    name, sep, values = text.partition("=")
    name = name.strip()
    if name.startswith("count:"):
        return _count(name, values if sep else None, deck, text)
    if name.startswith("rules."):
        return _option(name, values if sep else None, deck, text)
    return _bad("--vary", f"unknown variable '{name}'",
                "write count:KIND=LO..HI (a kind's copies per card) or rules.OPTION[=values]; docs/tune.md")


def _int_range(text: str, where: str, name: str) -> tuple[int, int] | Finding:
    lo_text, sep, hi_text = text.partition("..")
    try:
        lo, hi = int(lo_text), int(hi_text)
    except ValueError:
        return _bad("--vary", f"'{where}': '{text}' is not a range of whole numbers LO..HI", f"e.g. {name}=0..8")
    if not sep:
        return _bad("--vary", f"'{where}': '{text}' is one value, not a range LO..HI", f"e.g. {name}=0..8")
    if lo >= hi:
        return _bad("--vary", f"'{where}' is an {'empty' if lo == hi else 'inverted'} range",
                    "write the lower bound first, and a range that holds more than one value")
    return lo, hi


def _count(name: str, values: str | None, deck: Deck, text: str) -> Variable | Finding:
    kind = name.removeprefix("count:")
    entries = [c for c in deck.cards if c.kind == kind]
    if not entries:
        from deckgen.errors import did_you_mean

        kinds = sorted({c.kind for c in deck.cards})
        near = did_you_mean(kind, kinds)
        return _bad("--vary", f"'{name}': the deck has no card of kind '{kind}'",
                    (f"{near} " if near else "") + "kinds on its cards: " + ", ".join(kinds))
    current = max(c.count for c in entries)
    if values is None:
        lo, hi = 0, max(2 * current, current + 2)
    else:
        got = _int_range(values, text, name)
        if isinstance(got, Finding):
            return got
        lo, hi = got
    if lo < 0 or hi > 200:
        return _bad("--vary", f"'{text}': a card's count is from 0 to 200", f"e.g. {name}=0..8")
    return Variable(name, tuple(range(lo, hi + 1)), kind=kind, own_range=values is not None)


def _option(name: str, values: str | None, deck: Deck, text: str) -> Variable | Finding:
    from deckgen.options import OPTIONS, parse_value

    option = name.removeprefix("rules.")
    opt = OPTIONS.get(option)
    if opt is None:
        from deckgen.errors import did_you_mean

        near = did_you_mean(option, OPTIONS)
        return _bad("--vary", f"unknown rule option '{option}'", (f"{near} " if near else "") + "options: "
                    + ", ".join(OPTIONS))
    try:
        if values is None:
            if opt.type is bool:
                choices: tuple[Any, ...] = (False, True)
            elif opt.choices:
                choices = opt.choices
            else:
                return _bad("--vary", f"'{name}' is a number: give its range", f"e.g. {name}=15..30")
        elif opt.type is int and ".." in values:
            got = _int_range(values, text, name)
            if isinstance(got, Finding):
                return got
            for bound in got:
                parse_value(option, str(bound))
            choices = tuple(range(got[0], got[1] + 1))
        else:
            choices = tuple(dict.fromkeys(parse_value(option, v) for v in values.split(",") if v.strip()))
    except DeckgenError as exc:
        return exc.findings[0]
    if len(choices) < 2:
        return _bad("--vary", f"'{text}' gives one value: nothing to search", "give two values or more")
    return Variable(name, choices, option=option)


def default_variables(deck: Deck) -> list[Variable]:
    """The counts of the deck's action and wild kinds, each from 0 to twice its count (at least +2)."""
    out = []
    for kind in dict.fromkeys(c.kind for c in deck.cards):
        if deck.kinds[kind].category in ("action", "wild"):
            got = _count(f"count:{kind}", None, deck, f"count:{kind}")
            if isinstance(got, Variable):
                out.append(got)
    return out


def default_targets() -> list[Target]:
    """The verdict's own criteria and a median length near classic's at the same table size."""
    return [Target("finished", 0.9, None), Target("early", None, 0.1), Target("seat_spread", None, 0.1),
            Target("length_ratio", 0.5, 2.0)]


def checked(targets: Sequence[str], variables: Sequence[str], deck: Deck) -> tuple[list[Target], list[Variable]]:
    """Every target and variable parsed, the defaults where none is given; every problem at once as
    DeckgenError (exit 2), before any game is played."""
    problems: list[Finding] = []
    ts: list[Target] = []
    for t in targets:
        got = parse_target(t)
        (problems.append(got) if isinstance(got, Finding) else ts.append(got))
    vs: list[Variable] = []
    for v in variables:
        got_v = parse_variable(v, deck)
        (problems.append(got_v) if isinstance(got_v, Finding) else vs.append(got_v))
    seen = [v.name for v in vs]
    for name in dict.fromkeys(n for n in seen if seen.count(n) > 1):
        problems.append(_bad("--vary", f"'{name}' is varied twice", "give each variable once"))
    if problems:
        raise DeckgenError(problems)
    vs = vs or default_variables(deck)
    if not vs:
        raise DeckgenError(_bad("--vary", "nothing to vary: the deck has no action or wild card",
                                "give variables, e.g. --vary count:KIND=0..8 or --vary rules.stacking"))
    return ts or default_targets(), vs
