"""``deckgen new NAME``: a playable starting deck whose comments teach every key.

It writes ``NAME/NAME.toml`` (with ``lang="es"`` every comment and word in Spanish, each printed
text given in both languages so that both rulebooks are complete): a four-colour deck with its own inline palette, the classic
rules, one homemade card kind composed from effect primitives, and every card count chosen
so that ``deckgen check`` passes with no error and no warning. Edit it, run
``deckgen preview NAME/NAME.toml --watch`` and look. The manifest's text, comments included, is
:data:`deckgen.words.STARTER_MANIFEST`.
"""

from __future__ import annotations

import re
from pathlib import Path

from deckgen.atomic import write_text
from deckgen.errors import DeckgenError, error
from deckgen.words import STARTER_DESCRIPTION_EN, STARTER_DESCRIPTION_ES, STARTER_MANIFEST

LANGUAGES = ("en", "es")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def slug_of(text: str) -> str:
    """``My Game!`` -> ``my-game``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def manifest_text(slug: str, lang: str = "en") -> str:
    title = " ".join(w.capitalize() for w in slug.split("-"))
    template = STARTER_MANIFEST["es" if lang == "es" else "en"]
    description = STARTER_DESCRIPTION_ES if lang == "es" else STARTER_DESCRIPTION_EN
    return template.format(slug=slug, title=title, lang=lang, file=f"{slug}/{slug}.toml", description=description,
                           back=title.upper()[:12] if len(title) > 1 else title)


def new_deck(name: str, parent: Path | None = None, lang: str = "en") -> Path:
    """Write ``<parent>/<name>/<name>.toml`` and return its path; never overwrites a file."""
    name = str(name)
    if not _SLUG.fullmatch(name):
        suggestion = slug_of(name)
        raise DeckgenError(error("usage", "NAME", f"'{name}' is not a deck id (lowercase letters, digits and '-')",
                                 hint=f"try deckgen new {suggestion}" if suggestion else "e.g. deckgen new my-game"))
    if lang not in LANGUAGES:
        raise DeckgenError(error("usage", "--lang", f"no language '{lang}'", hint="use en or es"))
    path = (Path(parent) if parent is not None else Path()) / name / f"{name}.toml"
    if path.exists():
        raise DeckgenError(error("exists", str(path), "the file already exists; deckgen new never overwrites",
                                 hint="pick another NAME, or move the file away"))
    return write_text(path, manifest_text(name, lang))
