"""The jinja2 sandbox the rulebook templates run in, and where templates are looked up.

Lookup order for a deck, a language ``L`` and the deck's rules preset ``P``:

1. the deck's own folder (``deck.templates`` in the manifest): ``<dir>/L/`` then ``<dir>/``
2. ``templates/P/L/``   the preset's text (what the game is, its rule decisions)
3. ``templates/shared/L/``   the shared layout and the option-driven sections

A template may also name ``preset/<file>`` or ``shared/<file>`` explicitly, which lets a
homemade ``rulebook.j2`` extend the bundled one and override a single block.

A deck's templates are untrusted (``docs/security.md``). They run in jinja2's immutable
sandbox (jinja2 3.1.6 or newer: older releases have known sandbox escapes, and are refused);
the deck's template folder must lie inside the manifest's folder, and the loader reads only
regular files inside the folder it searches (a symlink that leads out, a FIFO, a file over
:data:`MAX_TEMPLATE` bytes are refused). A rulebook has a budget (:class:`Budget`): at most
:data:`MAX_SECONDS` seconds and :data:`MAX_OUTPUT` characters per language; numbers handed to
filters and methods, and the results of ``*`` and ``**``, are bounded, so no single expression
can allocate gigabytes.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from deckgen import safefile
from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.resources import templates_dir
from deckgen.rulebook.lookup import languages, user_dir
from deckgen.rulebook.markup import as_is

ENTRY = "rulebook.j2"
JINJA_MIN = (3, 1, 6)            # 3.1.4 and 3.1.5 have sandbox escapes (a template file name, |attr("format"))
MAX_TEMPLATE = 1_000_000         # bytes of one template file
MAX_SECONDS = 20.0               # seconds to run one rulebook's templates (one language)
MAX_OUTPUT = 4_000_000           # characters of one rulebook's text
MAX_NUMBER = 100_000             # the largest number a filter or method is given (a width, a count)
MAX_SIZE = 1_000_000             # the longest string or list ``*`` may make; the largest ``**`` result digits
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$")


def _jinja_version() -> tuple[int, ...]:
    parts = []
    for piece in jinja2.__version__.split(".")[:3]:
        digits = re.match(r"\d+", piece)
        parts.append(int(digits.group()) if digits else 0)
    return tuple(parts)


def require_safe_jinja() -> None:
    """Refuse to run a deck's templates on a jinja2 with known sandbox escapes."""
    if _jinja_version() < JINJA_MIN:
        raise DeckgenError(error("install", "jinja2", f"jinja2 {jinja2.__version__} is installed; deckgen needs "
                                 f"{'.'.join(map(str, JINJA_MIN))} or newer to run a deck's templates safely",
                                 hint="upgrade it: pip install -U 'jinja2>=3.1.6'"))


def search_path(deck: Deck, lang: str) -> list[Path]:
    return [d for d, _ in _search_roots(deck, lang)]


def _search_roots(deck: Deck, lang: str) -> list[tuple[Path, Path]]:
    """(folder searched, the folder no template may leave): the deck's own, then the bundled ones."""
    root = templates_dir().resolve()
    dirs = []
    own = user_dir(deck)
    if own is not None:
        dirs += [(own / lang, own), (own, own)]
    dirs += [(root / deck.rules_preset / lang, root), (root / "shared" / lang, root)]
    return [(d, r) for d, r in dirs if d.is_dir()]


class _ConfinedLoader(jinja2.BaseLoader):
    """Templates from folders, each read only if it is a regular file that stays inside its root.

    A name with ``..``, an absolute name, a symlink that leads out of the root, a FIFO or a file
    over :data:`MAX_TEMPLATE` bytes is not found (or is an error), never read."""

    def __init__(self, folders: list[tuple[Path, Path]]):
        self.folders = [(str(d), str(r)) for d, r in folders]

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        if not _SAFE_NAME.match(template) or ".." in template.split("/"):
            raise jinja2.TemplateNotFound(template)
        pieces = jinja2.loaders.split_template_path(template)
        for folder, root in self.folders:
            filename = os.path.join(folder, *pieces)
            if not os.path.lexists(filename):
                continue
            real = os.path.realpath(filename)
            if os.path.commonpath([real, root]) != root:
                raise SecurityError(f"template '{template}' is a symlink that leads outside {root}")
            try:
                text = safefile.read_text(Path(real), MAX_TEMPLATE)
            except UnicodeDecodeError:
                raise SecurityError(f"template '{template}' is not UTF-8 text") from None
            except OSError as exc:
                raise SecurityError(f"template '{template}' cannot be read: it {exc.strerror}") from None
            mtime = os.path.getmtime(real)
            return text, os.path.normpath(filename), lambda real=real, mtime=mtime: _unchanged(real, mtime)
        raise jinja2.TemplateNotFound(template)


def _unchanged(path: str, mtime: float) -> bool:
    try:
        return os.path.getmtime(path) == mtime
    except OSError:
        return False


class _MemoryBytecode(jinja2.BytecodeCache):
    """Compiled templates shared by every environment of the process (keyed by name, file and
    source checksum), so a template is compiled once per run, not once per deck and check."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.store.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


_BYTECODE = _MemoryBytecode()


def environment(deck: Deck, lang: str) -> ImmutableSandboxedEnvironment:
    """A sandbox: no attribute starting with '_', no mutation, undefined names are errors."""
    if lang not in languages(deck):
        raise DeckgenError(error("language", "--lang", f"no rulebook templates in language '{lang}'",
                                 hint="available: " + ", ".join(languages(deck))))
    require_safe_jinja()
    root = templates_dir().resolve()
    loader = jinja2.ChoiceLoader([
        _ConfinedLoader(_search_roots(deck, lang)),
        jinja2.PrefixLoader({
            "preset": _ConfinedLoader([(root / deck.rules_preset / lang, root)]),
            "shared": _ConfinedLoader([(root / "shared" / lang, root)]),
        }),
    ])
    env = _BoundedEnvironment(
        loader=loader, undefined=jinja2.StrictUndefined, autoescape=True,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, bytecode_cache=_BYTECODE,
        finalize=as_is)
    env.filters = {name: _bounded_filter(f) for name, f in env.filters.items()}
    return env


class _BoundedEnvironment(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with no call given a huge number and no ``*``/``**`` making a huge value."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        if operator == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and \
                    right * max(1, abs(left).bit_length()) > MAX_SIZE * 3:
                raise SecurityError(f"{left} ** {right} is too large for a rulebook")
        elif isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple)):
            seq, times = (left, right) if isinstance(left, (str, list, tuple)) else (right, left)
            if isinstance(times, int) and len(seq) * times > MAX_SIZE:
                raise SecurityError(f"repeating a text or list {times} times is too much for a rulebook")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_numbers(args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)


def _check_numbers(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    for value in (*args, *kwargs.values()):
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise SecurityError(f"the number {value} is too large for a rulebook (at most {MAX_NUMBER})")


def _bounded_filter(f: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that refuses huge numbers among its arguments (``|center(10**9)``, ``|batch(...)``)."""

    @functools.wraps(f)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_numbers(args[1:], kwargs)          # args[0]: the value (or the context it passes)
        return f(*args, **kwargs)

    for attr in ("jinja_pass_arg",):
        if hasattr(f, attr):
            setattr(bounded, attr, getattr(f, attr))
    return bounded


class TemplateBudget(Exception):
    """A rulebook's templates ran too long or wrote too much."""


class Budget:
    """Run one rulebook's templates within :data:`MAX_SECONDS` and :data:`MAX_OUTPUT`.

    The time limit is kept by a timer that raises :class:`TemplateBudget` inside the thread
    running the templates (CPython's asynchronous exception), so even a loop that writes
    nothing and calls nothing is stopped."""

    def __init__(self, seconds: float | None = None, output: int | None = None):
        self.seconds = MAX_SECONDS if seconds is None else seconds
        self.output = MAX_OUTPUT if output is None else output
        self._lock = threading.Lock()
        self._done = False
        self.expired = False

    def render(self, template: jinja2.Template) -> str:
        thread = threading.get_ident()
        timer = threading.Timer(self.seconds, self._expire, args=(thread,))
        timer.daemon = True
        chunks: list[str] = []
        size = 0
        timer.start()
        try:
            try:
                for chunk in template.generate():
                    size += len(chunk)
                    if size > self.output:
                        raise TemplateBudget(f"the rulebook's text grew past {self.output:,} characters")
                    chunks.append(chunk)
            finally:
                with self._lock:
                    self._done = True
                timer.cancel()
        except _Expired as exc:        # keep the traceback: it names the template and line that looped
            raise TemplateBudget(f"the templates ran longer than {self.seconds:g} s").with_traceback(
                exc.__traceback__) from None
        return "".join(chunks)

    def _expire(self, thread: int) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(_Expired))


class _Expired(TemplateBudget):
    """Raised inside the templates' thread when the time is up."""


def caller() -> tuple[str | None, int | None]:
    """The template file and line that called the running helper."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        tmpl = frame.f_globals.get("__jinja_template__")
        if tmpl is not None:
            return tmpl.filename or tmpl.name, tmpl.get_corresponding_lineno(frame.f_lineno)
        frame = frame.f_back
    return None, None


def template_finding(exc: Exception, entry_file: str | None = None) -> Finding:
    """A template failure as a finding that names the template file and line."""
    file, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if file is None or isinstance(exc, SecurityError) or not isinstance(exc, jinja2.TemplateSyntaxError):
        for fs in traceback.extract_tb(exc.__traceback__):
            if fs.filename.endswith((".j2", ".jinja", ".html", ".txt")) or "/templates" in fs.filename:
                file, line = fs.filename, fs.lineno
    if isinstance(exc, jinja2.TemplateNotFound):
        kind = "template-missing"
        hint = "the template folders are searched in order: the deck's own, the preset's, shared"
        msg = f"template '{exc.name}' not found"
    elif isinstance(exc, SecurityError):
        kind, hint, msg = "template-sandbox", "templates may only use the rulebook helpers and plain values", \
            f"not allowed in a rulebook template: {exc}"
    elif isinstance(exc, jinja2.UndefinedError):
        kind, hint, msg = "template-undefined", "see templates/README.md for the names a template may use", str(exc)
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        kind, hint, msg = "template-syntax", None, exc.message or str(exc)
    elif isinstance(exc, TemplateBudget):
        kind = "template-budget"
        hint = "a rulebook's templates may loop over the deck, not without end"
        msg = str(exc)
    elif isinstance(exc, (RecursionError, MemoryError)):
        kind, hint, msg = "template-budget", "a macro or template that calls itself without end?", \
            "the templates nest too deeply" if isinstance(exc, RecursionError) else "the templates ran out of memory"
    else:
        kind, hint, msg = "template", None, f"{type(exc).__name__}: {exc}"
    return error(kind, "rulebook", msg, file=file or entry_file, line=line, hint=hint)
