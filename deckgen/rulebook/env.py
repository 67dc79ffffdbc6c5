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
:data:`MAX_TEMPLATE` bytes are refused). No value a template builds is over the limits of
:mod:`deckgen.rulebook.bounds`. A rulebook has a budget (:class:`Budget`): at most
:data:`MAX_SECONDS` seconds and :data:`MAX_OUTPUT` characters per language; and the templates
run in a child process (:mod:`deckgen.rulebook.run`) with at most :data:`MAX_MEMORY` bytes of
memory, killed :data:`GRACE` seconds after their time is up, so no step of theirs, however long
or large, can take more.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from types import FrameType
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError

from deckgen import deckfs, safefile
from deckgen.errors import DeckgenError, Finding, did_you_mean, error
from deckgen.model import Deck
from deckgen.resources import templates_dir
from deckgen.rulebook.bounds import MAX_DIGITS, MAX_NUMBER, MAX_SIZE, BoundedEnvironment, TooLarge, check_size
from deckgen.rulebook.lookup import languages, user_dir
from deckgen.rulebook.markup import as_is

ENTRY = "rulebook.j2"
JINJA_MIN = (3, 1, 6)            # 3.1.4 and 3.1.5 have sandbox escapes (a template file name, |attr("format"))
MAX_TEMPLATE = 1_000_000         # bytes of one template file
MAX_SECONDS = 20.0               # seconds to run one rulebook's templates (one language)
MAX_OUTPUT = 4_000_000           # characters of one rulebook's text
MAX_MEMORY = 512 * 1024 * 1024   # bytes of memory the templates may take (deckgen.rulebook.run)
GRACE = 5.0                      # seconds past MAX_SECONDS before the templates' process is killed
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
    return [(d, r) for d, r in dirs if deckfs.is_dir(d)]


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
            if not os.path.lexists(filename) and not deckfs.exists(filename):     # on disk, or in a mounted pack
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
            stamp = deckfs.stamp(real)
            return text, os.path.normpath(filename), lambda real=real, stamp=stamp: deckfs.stamp(real) == stamp
        raise jinja2.TemplateNotFound(template)


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


def environment(deck: Deck, lang: str) -> BoundedEnvironment:
    """A sandbox: no attribute starting with '_', no mutation, undefined names are errors, and no
    value over the limits of :mod:`deckgen.rulebook.bounds`."""
    if lang not in languages(deck):
        raise DeckgenError(error("language", "--lang", f"no rulebook templates in language '{lang}'",
                                 hint="available: " + ", ".join(languages(deck))))
    require_safe_jinja()
    return _environment(_search_roots(deck, lang), deck.rules_preset, lang)


def _environment(roots: list[tuple[Path, Path]], preset: str, lang: str) -> BoundedEnvironment:
    root = templates_dir().resolve()
    loader = jinja2.ChoiceLoader([
        _ConfinedLoader(roots),
        jinja2.PrefixLoader({
            "preset": _ConfinedLoader([(root / preset / lang, root)]),
            "shared": _ConfinedLoader([(root / "shared" / lang, root)]),
        }),
    ])
    return BoundedEnvironment(
        loader=loader, undefined=jinja2.StrictUndefined, autoescape=True,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, bytecode_cache=_BYTECODE,
        finalize=_printed)


def _printed(value: Any) -> Any:
    """What ``{{ value }}`` writes: measured first (a list of big texts prints as one huge text)."""
    return as_is(check_size(value, "the printed value"))


_warmed: set[tuple[str, str]] = set()


def warm(deck: Deck, lang: str) -> None:
    """Compile deckgen's own templates of the deck's preset and language here, once per process,
    so every child process that runs a deck's templates (:mod:`deckgen.rulebook.run`) finds them
    compiled. Only the bundled folders are read: a deck's own templates are compiled in the
    child, under its limits."""
    key = (deck.rules_preset, lang)
    if key in _warmed:
        return
    _warmed.add(key)
    root = templates_dir().resolve()
    bundled = [(d, r) for d, r in _search_roots(deck, lang) if r == root]
    env = _environment(bundled, deck.rules_preset, lang)
    names: list[str] = []
    for folder, prefix in ((root / deck.rules_preset / lang, "preset"), (root / "shared" / lang, "shared")):
        for path in sorted(folder.glob("*.j2")) if folder.is_dir() else []:
            names += [path.name, f"{prefix}/{path.name}"]
    for name in dict.fromkeys(names):
        with contextlib.suppress(Exception):        # a broken bundled template is reported when it runs
            env.get_template(name)


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


_UNDEFINED = re.compile(r"has no attribute '([^']+)'|^'([^']+)' is undefined")


def _names_in(values: Mapping[str, Any]) -> set[str]:
    """The names a template may use: the globals, and the keys of the tables they hold (two deep:
    ``deck.name``, ``deck.scoring.target``)."""
    names = set(values)
    for table in (v for v in values.values() if isinstance(v, Mapping)):
        names.update(k for k in table if isinstance(k, str))
        for inner in table.values():
            if isinstance(inner, Mapping):
                names.update(k for k in inner if isinstance(k, str))
    return names


def _undefined_hint(msg: str, known: Mapping[str, Any] | None) -> str:
    """Where to read the names a template may use, after a "did you mean" for a misspelt one."""
    m = _UNDEFINED.search(msg)
    close = did_you_mean(m.group(1) or m.group(2), sorted(_names_in(known))) if m and known else None
    if close:
        return f"{close} See templates/README.md for the names a template may use"
    return "see templates/README.md for the names a template may use"


_NO_ATTRIBUTE = re.compile(r"^'(\w+) object' has no attribute '(\w+)'$")


def _named_owner(msg: str, file: str | None, line: int | None) -> str:
    """Jinja's "'dict object' has no attribute 'nmae'" as the template wrote it ("'deck' has no
    attribute 'nmae'"), when the template's line names one owner of that attribute."""
    m = _NO_ATTRIBUTE.match(msg)
    if m is None or not file or not line:
        return msg
    try:
        text = safefile.read_text(Path(file), MAX_TEMPLATE).splitlines()[line - 1]
    except (OSError, UnicodeDecodeError, IndexError):
        return msg
    owners = set(re.findall(rf"([A-Za-z_][\w.]*)\.{m.group(2)}\b", text))
    return f"'{owners.pop()}' has no attribute '{m.group(2)}'" if len(owners) == 1 else msg


def template_finding(exc: Exception, entry_file: str | None = None,
                     known: Mapping[str, Any] | None = None) -> Finding:
    """A template failure as a finding that names the template file and line (``known``: the
    template's globals, for a "did you mean" on a misspelt name)."""
    file, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if file is None or isinstance(exc, SecurityError) or not isinstance(exc, jinja2.TemplateSyntaxError):
        for fs in traceback.extract_tb(exc.__traceback__):
            if fs.filename.endswith((".j2", ".jinja", ".html", ".txt")) or "/templates" in fs.filename:
                file, line = fs.filename, fs.lineno
    if isinstance(exc, jinja2.TemplateNotFound):
        kind = "template-missing"
        hint = "the template folders are searched in order: the deck's own, the preset's, shared"
        msg = f"template '{exc.name}' not found"
    elif isinstance(exc, TooLarge):
        kind, msg = "template-sandbox", str(exc)
        hint = (f"a template may make texts and lists of at most {MAX_SIZE:,} characters or items, numbers of "
                f"at most {MAX_DIGITS:,} digits, and give a filter or method numbers up to {MAX_NUMBER:,}")
    elif isinstance(exc, SecurityError):
        kind, hint, msg = "template-sandbox", "templates may only use the rulebook helpers and plain values", \
            f"not allowed in a rulebook template: {exc}"
    elif isinstance(exc, jinja2.UndefinedError):
        kind, msg = "template-undefined", str(exc)
        hint = _undefined_hint(msg, known)
        msg = _named_owner(msg, file, line)
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        kind, hint, msg = "template-syntax", None, exc.message or str(exc)
    elif isinstance(exc, TemplateBudget):
        kind = "template-budget"
        hint = "a rulebook's templates may loop over the deck, not without end"
        msg = str(exc)
    elif isinstance(exc, RecursionError):
        kind, hint, msg = "template-budget", "a macro or template that calls itself without end?", \
            "the templates nest too deeply"
    elif isinstance(exc, MemoryError):
        kind, hint = "template-budget", "a template that builds ever more texts or lists?"
        msg = f"the templates used more than {MAX_MEMORY // (1024 * 1024)} MB of memory"
    else:
        kind, hint, msg = "template", None, f"{type(exc).__name__}: {exc}"
    return error(kind, "rulebook", msg, file=file or entry_file, line=line, hint=hint)
