"""Every kind of preset deckgen reads, gathered from the stages that own them, for ``deckgen list``.

Each stage declares its own preset file (a :class:`deckgen.presets.PresetFile`) beside the code
that uses it and reads it with the generic loader in :mod:`deckgen.presets`. This module is the
one place that knows them all, so the loader itself imports no stage.
"""

from __future__ import annotations

from typing import Any

from deckgen.presets import PresetFile


def all_kinds() -> list[PresetFile[Any]]:
    """Every preset kind in the order ``deckgen list`` shows them (imported lazily: each lives with its stage)."""
    from deckgen.export.services import SERVICES
    from deckgen.layout.papers import PAPERS
    from deckgen.manifest.kinds import KINDS
    from deckgen.manifest.palettes import PALETTES
    from deckgen.render.geometry import CARD_SIZES
    from deckgen.render.layout import LAYOUTS

    return [PALETTES, CARD_SIZES, PAPERS, SERVICES, KINDS, LAYOUTS]
