"""The size limits of the rulebook sandbox: no value a template builds is over a size limit.

A deck's templates are untrusted (``docs/security.md``). jinja2's sandbox stops them from
reaching Python's internals, but not from building huge values: ``s.replace("x", "y" * 10**6)``,
``([s] * 3000)|join``, a macro that doubles a string forty times, ``"{0:0900000000}".format(1)``
or a chain of big-integer squarings (one C call a timer cannot stop) each asks for gigabytes or
minutes in a single step. :class:`BoundedEnvironment` checks each such step *before* it runs:

- every text, list or table a template makes holds at most :data:`MAX_SIZE` characters or items:
  ``*``, ``+`` and ``~`` on texts and lists, ``%`` and ``.format`` (their widths and precisions,
  and the values they print), the text of a block, a macro or ``{% set %}``, the ``str`` methods
  that grow a text (``replace``, ``join``, ``expandtabs``, ``translate``) and the filters that do
  (``replace``, ``join``, ``format``, ``indent``, ``wordwrap``, ``urlize``, ``sum``, ``string``,
  ``pprint``, ``tojson``, ``xmlattr``); every other filter's and method's result is checked too;
- every whole number has at most :data:`MAX_DIGITS` digits (4,300, the most Python prints),
  checked before ``*`` and ``**`` compute it;
- a number above :data:`MAX_NUMBER` is never handed to a filter or a method (a width, a count).

Going over a limit raises :class:`TooLarge` (a jinja2 ``SecurityError``), which
:mod:`deckgen.rulebook.env` reports with the template's file and line. What these checks cannot
foresee (Python's ``str()`` of some odd object) is stopped by the memory limit of the process the
templates run in (:mod:`deckgen.rulebook.run`).
"""

from __future__ import annotations

import functools
import math
import re
import string
from collections.abc import Callable, Iterable
from typing import Any

import jinja2
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Namespace

MAX_NUMBER = 100_000             # the largest number a filter or method is given (a width, a count)
MAX_SIZE = 1_000_000             # characters of a text, items of a list or table a template makes
MAX_DIGITS = 4_300               # digits of a whole number: the most Python prints (sys.get_int_max_str_digits)
MAX_INT_BITS = math.ceil(MAX_DIGITS * math.log2(10))
_SMALL = 24                      # what an object we do not walk counts for (its repr is short)


class TooLarge(SecurityError):
    """A step of a template that would make a value over a limit of this module."""


def too_big(what: str) -> TooLarge:
    return TooLarge(f"{what} is too large for a rulebook (at most {MAX_SIZE:,} characters or items)")


def size(value: Any, indent: int = 0, limit: int = MAX_SIZE) -> int:
    """About the characters ``str(value)`` (or ``repr``, JSON, a pretty print indenting ``indent``
    per level) takes, found without making it; the count stops soon after ``limit``. Texts count
    their length, numbers their digits, lists, tables and namespaces their items and brackets. It
    is never less for plain text; a text of control characters prints longer inside a list (as
    ``\\x00``), at most ten times: the memory limit of the templates' process covers that."""
    if isinstance(value, str):
        return len(value)
    total = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and total <= limit:
        item, depth = stack.pop()
        total += indent * depth
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, bool) or item is None:
            total += 5
        elif isinstance(item, int):
            total += item.bit_length() * 30103 // 100000 + 2
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += 2 + 2 * len(item)
            stack.extend((x, depth + 1) for x in _first(item, limit))
        elif isinstance(item, dict):
            total += 2 + 4 * len(item)
            stack.extend((x, depth + 1) for kv in _first(item.items(), limit) for x in kv)
        elif isinstance(item, Namespace):       # its attributes, as jinja2 3.1 keeps them
            attrs = _namespace(item)
            total += 16 + 4 * len(attrs)
            stack.extend((x, depth + 1) for x in attrs.values())
        else:
            total += _SMALL
    return total


def _namespace(ns: Namespace) -> dict[str, Any]:
    try:
        attrs = object.__getattribute__(ns, "_Namespace__attrs")
    except AttributeError:
        return {}
    return attrs if isinstance(attrs, dict) else {}


def _first(items: Iterable[Any], limit: int) -> list[Any]:
    """At most ``limit`` of a collection's items: each counts 2 or more, so no more can matter."""
    out = []
    for i, x in enumerate(items):
        if i >= limit:
            break
        out.append(x)
    return out


def check_size(value: Any, what: str = "the value", indent: int = 0) -> Any:
    if size(value, indent) > MAX_SIZE:
        raise too_big(what)
    return value


def _result(value: Any, what: str) -> Any:
    """A filter's or method's result: a text, list or table over the limit is refused."""
    if isinstance(value, (str, list, tuple, dict, set, frozenset)) and len(value) > MAX_SIZE:
        raise too_big(what)
    return value


def check_numbers(args: Iterable[Any]) -> None:
    for value in args:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise TooLarge(f"the number {value} is too large for a rulebook (at most {MAX_NUMBER})")


def _int_bits(bits: int, what: str) -> None:
    if bits > MAX_INT_BITS:
        raise TooLarge(f"{what} would have about {math.floor(bits * math.log10(2)):,} digits, too large for a "
                       f"rulebook (at most {MAX_DIGITS:,})")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse ``left <operator> right`` when its result would be over a limit, before computing it."""
    if _is_int(left) and _is_int(right):
        if operator == "**" and right > 0 and abs(left) > 1:
            _int_bits(math.ceil(right * math.log2(abs(left))), "the power")
        elif operator == "*":
            _int_bits(abs(left).bit_length() + abs(right).bit_length(), "the product")
        return
    seqs = (str, list, tuple)
    if operator == "*" and (isinstance(left, seqs) or isinstance(right, seqs)):
        seq, times = (left, right) if isinstance(left, seqs) else (right, left)
        if _is_int(times) and len(seq) * max(times, 0) > MAX_SIZE:
            raise TooLarge(f"repeating a text or list {times} times is too much for a rulebook")
    elif operator == "+" and isinstance(left, seqs) and isinstance(right, seqs):
        if len(left) + len(right) > MAX_SIZE:
            raise too_big("the joined text or list")
    elif operator == "%" and isinstance(left, str):
        check_percent(left, right)


# ---------------------------------------------------------------- format strings

_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0 +\-]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?[A-Za-z%]")


def check_percent(fmt: str, values: Any) -> None:
    """``fmt % values`` (and the ``format`` filter): every width and precision within
    :data:`MAX_NUMBER`, and the whole result within :data:`MAX_SIZE`."""
    args = values if isinstance(values, tuple) else tuple(values.values()) if isinstance(values, dict) else (values,)
    check_numbers(a for a in args if _is_int(a))            # a width given by ``*``
    total = len(fmt)
    biggest = max((size(a) for a in args), default=0)
    for m in _PERCENT.finditer(fmt):
        total += biggest + sum(MAX_NUMBER if group == "*" else _spec_number(group) for group in m.groups() if group)
    if total > MAX_SIZE:
        raise too_big("the formatted text")


def _spec_number(digits: str) -> int:
    number = int(digits[:7])
    if len(digits) > 6 or number > MAX_NUMBER:
        raise TooLarge(f"a format width or precision of {digits} is too large for a rulebook (at most {MAX_NUMBER})")
    return number


def check_format(fmt: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """``fmt.format(*args, **kwargs)``: no width or precision over :data:`MAX_NUMBER`, none taken
    from a value (``{0:{1}}``), and the whole result within :data:`MAX_SIZE`."""
    total = 0
    biggest = max((size(v) for v in (*args, *kwargs.values())), default=0)
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return                                        # str.format raises its own error
    for literal, name, spec, _ in fields:
        total += len(literal)
        if name is None:
            continue
        if spec and "{" in spec:
            raise TooLarge("a format width taken from a value ({0:{1}}) could be too large for a rulebook, and is "
                           "not allowed")
        total += biggest + sum(_spec_number(d) for d in re.findall(r"\d+", spec or ""))
        if total > MAX_SIZE:
            raise too_big("the formatted text")


# ---------------------------------------------------------------- str methods

def checked_call(obj: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The arguments of a call, once the ``str`` methods whose result can be far longer than
    their text are found to stay within the limit (``join``'s items are listed to be measured)."""
    check_numbers(args)
    check_numbers(kwargs.values())
    owner = getattr(obj, "__self__", None)
    if not isinstance(owner, str):
        return args
    name = getattr(obj, "__name__", "")
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        _check_replace(owner, args[0], args[1], count if _is_int(count) else -1)
    elif name == "join" and len(args) == 1:
        items = _listed(args[0])
        _check_join(owner, items)
        return (items,)
    elif name == "expandtabs":
        tab = args[0] if args else kwargs.get("tabsize", 8)
        if _is_int(tab) and len(owner) + owner.count("\t") * max(tab, 0) > MAX_SIZE:
            raise too_big("the text with its tabs expanded")
    elif name == "translate" and args and isinstance(args[0], dict):
        longest = max((size(v) for v in args[0].values()), default=1)
        if len(owner) * max(longest, 1) > MAX_SIZE:
            raise too_big("the translated text")
    return args


def _check_replace(text: str, old: str, new: str, count: int) -> None:
    found = len(text) + 1 if not old else text.count(old)
    if count >= 0:
        found = min(found, count)
    if len(text) + found * (len(new) - len(old)) > MAX_SIZE:
        raise too_big("the text with its replacements")


def _check_join(separator: str, items: list[Any]) -> None:
    total = len(separator) * max(len(items) - 1, 0)
    for item in items:
        total += size(item)
        if total > MAX_SIZE:
            raise too_big("the joined text")


def _listed(items: Any) -> list[Any]:
    """The items of an iterable as a list, refused past :data:`MAX_SIZE` of them."""
    if isinstance(items, list):
        return items
    out = []
    for x in items:
        out.append(x)
        if len(out) > MAX_SIZE:
            raise too_big("the list")
    return out


# ---------------------------------------------------------------- filters

def _text(value: Any) -> str:
    """The text a filter makes of its value (``str``), measured before it is made."""
    return value if isinstance(value, str) else str(check_size(value, "the value as text"))


def _filter_replace(s: Any, old: Any, new: Any, count: Any = None) -> None:
    if isinstance(old, str) and isinstance(new, str):
        _check_replace(_text(s), old, new, count if _is_int(count) else -1)


def _filter_indent(s: Any, width: Any = 4, first: bool = False, blank: bool = False) -> None:
    text = _text(s)
    per_line = len(width) if isinstance(width, str) else width if _is_int(width) else 4
    if len(text) + (text.count("\n") + 1) * max(per_line, 0) > MAX_SIZE:
        raise too_big("the indented text")


def _filter_wordwrap(s: Any, width: Any = 79, break_long_words: bool = True, wrapstring: Any = None,
                     break_on_hyphens: bool = True) -> None:
    text = _text(s)
    lines = len(text.split()) + text.count("\n") + len(text) // max(width if _is_int(width) else 1, 1) + 1
    if len(text) + lines * len(wrapstring if isinstance(wrapstring, str) else "\n") > MAX_SIZE:
        raise too_big("the wrapped text")


def _filter_urlize(value: Any, trim_url_limit: Any = None, nofollow: bool = False, target: Any = None,
                   rel: Any = None, extra_schemes: Any = None) -> None:
    text = _text(value)
    extra = 64 + sum(len(x) for x in (target, rel) if isinstance(x, str))
    if 3 * len(text) + (len(text.split()) + 1) * extra > MAX_SIZE:
        raise too_big("the text with its links")


def _filter_sum(iterable: Any, attribute: Any = None, start: Any = 0) -> None:
    if isinstance(iterable, (list, tuple)) and (isinstance(start, (list, tuple, str))
                                               or any(isinstance(x, (list, tuple)) for x in iterable)):
        total = len(start) if isinstance(start, (list, tuple, str)) else 0
        for item in iterable:
            total += size(item)
            if total > MAX_SIZE:
                raise too_big("the sum of the lists")


def _filter_tojson(value: Any, indent: Any = None) -> None:
    if 6 * size(value, indent if _is_int(indent) else 0) > MAX_SIZE:      # escapes: < -> \u003c
        raise too_big("the JSON text")


def _filter_format(value: Any, *args: Any, **kwargs: Any) -> None:
    check_percent(_text(value), kwargs or args)


def _filter_join(value: Any, d: Any = "", attribute: Any = None) -> None:
    _check_join(d if isinstance(d, str) else "", _listed(value) if not isinstance(value, str) else list(value))


def _filter_size(what: str, indent: int = 0) -> Callable[..., None]:
    def check(value: Any, *args: Any, **kwargs: Any) -> None:
        check_size(value, what, indent)
    return check


# A filter's check before it runs: (value, its arguments) -> raises SecurityError. ``join`` and
# ``sum`` get their iterable as a list (listed once, then handed to the filter).
_BEFORE: dict[str, Callable[..., None]] = {
    "replace": _filter_replace, "indent": _filter_indent, "wordwrap": _filter_wordwrap, "urlize": _filter_urlize,
    "sum": _filter_sum, "tojson": _filter_tojson, "format": _filter_format, "join": _filter_join,
    "pprint": _filter_size("the printed value", 1), "xmlattr": _filter_size("the attributes"),
}
# The filters that make a text of their value (a list becomes its ``str``): the value is measured first.
_TEXT = frozenset({"capitalize", "center", "e", "escape", "forceescape", "lower", "safe", "string", "striptags",
                   "title", "trim", "truncate", "upper", "urlencode", "wordcount"})
for _name in _TEXT:
    _BEFORE.setdefault(_name, _filter_size("the value as text"))
_LISTED = frozenset({"join", "sum"})


def bounded_filter(name: str, f: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that refuses huge numbers among its arguments (``|center(10**9)``), is checked
    before it runs when it can grow a text (:data:`_BEFORE`), and whose result is checked."""
    passes = getattr(f, "jinja_pass_arg", None)
    before = _BEFORE.get(name)
    what = f"the result of |{name}"

    @functools.wraps(f)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        head, rest = (args[:1], args[1:]) if passes is not None else ((), args)   # the context it passes
        check_numbers(rest[1:])
        check_numbers(kwargs.values())
        if before is not None and rest:
            if name in _LISTED and not isinstance(rest[0], (str, list, tuple)):
                rest = (_listed(rest[0]), *rest[1:])
            before(*rest, **kwargs)
        return _result(f(*head, *rest, **kwargs), what)

    if passes is not None:
        bounded.jinja_pass_arg = passes        # type: ignore[attr-defined]
    return bounded


# ---------------------------------------------------------------- the environment

def sized(parts: tuple[Any, ...]) -> tuple[Any, ...]:
    """The parts of ``a ~ b ~ c``, checked before they are joined."""
    total = 0
    for part in parts:
        total += size(part)
        if total > MAX_SIZE:
            raise too_big("the joined text")
    return parts


def bounded_concat(parts: Iterable[str]) -> str:
    """``environment.concat``: the text of a block, a macro, ``{% set %}...{% endset %}``."""
    items = parts if isinstance(parts, list) else _listed(parts)
    if sum(map(len, items)) > MAX_SIZE:
        raise too_big("the text of a block or macro")
    return "".join(items)


class _BoundedCodeGenerator(CodeGenerator):
    """jinja2's code generator, with every ``a ~ b`` measured before it is joined."""

    def visit_Concat(self, node: jinja2.nodes.Concat, frame: Frame) -> None:
        if frame.eval_ctx.volatile:
            func_name = "(markup_join if context.eval_ctx.volatile else str_join)"
        elif frame.eval_ctx.autoescape:
            func_name = "markup_join"
        else:
            func_name = "str_join"
        self.write(f"{func_name}(environment.sized((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write(")))")


class BoundedEnvironment(ImmutableSandboxedEnvironment):
    """The immutable sandbox in which no step makes a value over the limits of this module."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _BoundedCodeGenerator
    concat = staticmethod(bounded_concat)
    sized = staticmethod(sized)

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.globals.pop("lipsum", None)           # lipsum(100000, max=100000): ten billion words
        self.filters = {name: bounded_filter(name, f) for name, f in self.filters.items()}

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        check_binop(operator, left, right)
        return _result(super().call_binop(context, operator, left, right), "the result")

    def call(__self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        args = checked_call(__obj, args, kwargs)
        return _result(super().call(__context, __obj, *args, **kwargs), "the result")

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt: str = value.__self__
        is_map = value.__name__ == "format_map"

        @functools.wraps(wrapped)
        def bounded(*args: Any, **kwargs: Any) -> str:
            if is_map and len(args) == 1 and isinstance(args[0], dict):
                check_format(fmt, (), args[0])
            else:
                check_format(fmt, args, kwargs)
            text: str = _result(wrapped(*args, **kwargs), "the formatted text")
            return text

        return bounded


__all__ = ["MAX_DIGITS", "MAX_INT_BITS", "MAX_NUMBER", "MAX_SIZE", "BoundedEnvironment", "TooLarge", "check_size", "size"]
