"""One rulebook PDF of a deck: typeset from the checked template text, optionally imposed as a
booklet, and written atomically.

The package (:mod:`deckgen.rulebook`) re-exports these; the build's rulebook step
(:mod:`deckgen.rulebook.step`) imports them from here, so neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from deckgen.atomic import write_bytes
from deckgen.errors import DeckgenError, error
from deckgen.model import Deck
from deckgen.rulebook.text import checked_text

if TYPE_CHECKING:
    from PIL.Image import Image
    from typing_extensions import Unpack

    from deckgen.progress import Progress
    from deckgen.rulebook.context import Recorder
    from deckgen.rulebook.pdf import PDFBytes

PAPERS = ("a4", "letter")


class Pictures(TypedDict, total=False):
    """Where a rulebook's card pictures come from: ``images`` (face id -> picture) when already
    drawn, else drawn at ``image_dpi`` (default :data:`deckgen.rulebook.images.DPI`), reporting
    to ``progress``."""

    images: Mapping[str, Image] | None
    image_dpi: int | None
    progress: Progress | None
    canvas: Callable[..., Any] | None      # a print shop's canvas (deckgen.export.printshop.shop_canvas)


def build_rulebook(deck: Deck, lang: str, *, paper: str = "a4", booklet: bool = False,
                   text: tuple[str, Recorder] | None = None, **pictures: Unpack[Pictures]) -> PDFBytes:
    """The rulebook PDF as bytes. Raises DeckHasErrors when the cross-check fails.

    ``text``: the templates' text and recorder (:func:`checked_text`) when already made, e.g. by
    the process that checked the deck.

    ``booklet``: half-size pages padded to a multiple of four and imposed 2-up on landscape
    ``paper`` sheets in saddle-stitch order."""
    from deckgen.rulebook.images import DPI, card_images
    from deckgen.rulebook.pdf import build_booklet, build_pdf

    if paper not in PAPERS:
        raise DeckgenError(error("option", "--paper", f"unknown paper size '{paper}'", hint="use a4 or letter"))
    body, rec = text if text is not None else checked_text(deck, lang)
    progress = pictures.get("progress")
    images = pictures.get("images")
    if images is None:
        images = card_images(deck, pictures.get("image_dpi") or DPI, progress)
    data = build_pdf(deck, lang, (body, rec), images, paper, progress, booklet=booklet,
                     canvas=pictures.get("canvas"))
    return build_booklet(data, paper) if booklet else data


def write_rulebook(deck: Deck, lang: str, out_path: Path, *, paper: str = "a4", booklet: bool = False,
                   progress: Progress | None = None, canvas: Callable[..., Any] | None = None) -> Path:
    """Write the rulebook atomically (temp file + os.replace); same inputs -> same bytes. ``canvas``: a
    print shop's canvas class, for a rulebook the shop prints."""
    out_path = Path(out_path)
    data = build_rulebook(deck, lang, paper=paper, progress=progress, booklet=booklet, canvas=canvas)
    write_bytes(out_path, data)
    return out_path
