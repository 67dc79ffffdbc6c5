"""The jinja2 sandbox the rulebook templates run in, and where templates are looked up.

Lookup order for a deck, a language ``L`` and the deck's rules preset ``P``:

1. the deck's own folder (``deck.templates`` in the manifest): ``<dir>/L/`` then ``<dir>/``
2. ``templates/P/L/``   the preset's text (what the game is, its rule decisions)
3. ``templates/shared/L/``   the shared layout and the option-driven sections

A template may also name ``preset/<file>`` or ``shared/<file>`` explicitly, which lets a
homemade ``rulebook.j2`` extend the bundled one and override a single block.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path
from types import FrameType

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from deckgen.errors import DeckgenError, Finding, error
from deckgen.model import Deck
from deckgen.resources import templates_dir

ENTRY = "rulebook.j2"


def user_dir(deck: Deck) -> Path | None:
    """The deck's own template folder, resolved against the manifest's folder."""
    if not deck.template_dir:
        return None
    base = deck.source.parent if deck.source else Path.cwd()
    path = (base / deck.template_dir).resolve()
    if not path.is_dir():
        raise DeckgenError(error("file", "deck.templates", f"template folder '{deck.template_dir}' does not exist",
                                 file=str(deck.source) if deck.source else None,
                                 hint=f"looked for {path}; the path is relative to the manifest"))
    return path


def search_path(deck: Deck, lang: str) -> list[Path]:
    root = templates_dir()
    dirs = []
    own = user_dir(deck)
    if own is not None:
        dirs += [own / lang, own]
    dirs += [root / deck.rules_preset / lang, root / "shared" / lang]
    return [d for d in dirs if d.is_dir()]


def languages(deck: Deck) -> list[str]:
    """The languages a rulebook can be written in for this deck."""
    found = set()
    root = templates_dir()
    own = user_dir(deck)
    for base in [root / "shared", root / deck.rules_preset] + ([own] if own else []):
        if base.is_dir():
            found |= {p.name for p in base.iterdir() if p.is_dir() and len(p.name) == 2}
    return sorted(found)


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
    root = templates_dir()
    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader([str(d) for d in search_path(deck, lang)]),
        jinja2.PrefixLoader({
            "preset": jinja2.FileSystemLoader(str(root / deck.rules_preset / lang)),
            "shared": jinja2.FileSystemLoader(str(root / "shared" / lang)),
        }),
    ])
    return ImmutableSandboxedEnvironment(
        loader=loader, undefined=jinja2.StrictUndefined, autoescape=True,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, bytecode_cache=_BYTECODE)


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
    else:
        kind, hint, msg = "template", None, f"{type(exc).__name__}: {exc}"
    return error(kind, "rulebook", msg, file=file or entry_file, line=line, hint=hint)
