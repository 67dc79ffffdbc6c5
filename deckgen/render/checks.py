"""What ``deckgen check`` learns from the renderer: palette distinguishability, the card size,
kind symbols the renderer does not know, and the audit of every face as drawn at the deck's card
size and each size asked for (:mod:`deckgen.render.audit`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckgen.errors import DeckgenError, Finding, did_you_mean, error, warning
from deckgen.palette import stage_check as palette_check
from deckgen.render.geometry import card_size_mm
from deckgen.render.symbols import SHAPES, SYMBOLS
from deckgen.stages import StageResult

if TYPE_CHECKING:
    from deckgen.model import Deck
    from deckgen.stages import CheckOptions

KNOWN = set(SYMBOLS) | set(SHAPES) | {"wild", "roulette", "wheel", "none"}


def stage_check(deck: Deck, options: CheckOptions) -> StageResult:
    palette = palette_check(deck, options)
    out = list(palette.findings)
    file = str(deck.source) if deck.source else None
    try:
        card_size_mm(deck.card_size, base=deck.source.parent if deck.source else None)
    except DeckgenError as exc:
        for f in exc.findings:
            out.append(error("card-size", "deck.card_size", f.message, file=file, hint=f.hint))
    from deckgen.render.look import look_check

    out.extend(look_check(deck))          # images' resolution, back image shape, rules text fit
    from deckgen.render.audit import audit
    out.extend(_unknown_sizes(deck, options.sizes, options.size_option))

    # every face audited as drawn, at the deck's card size and the sizes asked for (kept in the cache)
    out.extend(audit(deck, [deck.card_size, *options.sizes], use_cache=options.use_cache, cache_dir=options.cache_dir))
    used = {c.kind for c in deck.cards} | {c.flex.kind for c in deck.cards if c.flex}
    for kid in sorted(used):
        kind = deck.kinds.get(kid)
        if kind is not None and kind.symbol and kind.symbol not in KNOWN:
            out.append(warning("symbol", f"kinds.{kid}.symbol",
                               f"the renderer has no symbol '{kind.symbol}'; the card shows one derived from "
                               "its effects", file=file,
                               hint=did_you_mean(kind.symbol, KNOWN) or "symbols: " + ", ".join(sorted(KNOWN))))
    return StageResult(out, palette.sections)


def _unknown_sizes(deck: Deck, sizes: tuple[str, ...], option: str) -> list[Finding]:
    """An error for each size asked for (``check --size``, ``build --card-size``: ``option``) that
    is no card size nor shop preset: a bad option, so the command ends with exit code 2."""
    from deckgen.render.fit import target

    out: list[Finding] = []
    for name in sizes:
        try:
            target(name, deck)
        except DeckgenError as exc:  # noqa: PERF203  (a few names, each tried once)
            out.extend(error("option", option, f.message, hint=f.hint) for f in exc.findings)
    return out
