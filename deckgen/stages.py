"""What a pipeline stage adds to ``deckgen check``: the options every stage reads
(:class:`CheckOptions`) and what a stage gives back (:class:`StageResult`: its findings and the
report sections it fills). It lies below every stage and below :mod:`deckgen.check`, which calls
the stages and builds the report from their results, so no stage imports the module that calls
it (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from deckgen.errors import Finding
from deckgen.model import Deck, Palette
from deckgen.progress import Progress


@dataclass
class CheckOptions:
    """What ``check`` runs beyond the static checks."""

    simulate: bool = True
    games: int | None = None     # games per table size and player; None: the verdict's own plan
    seed: int = 1
    palette: Palette | None = None
    progress: Progress | None = None
    strict: bool = False         # warnings count as errors (--strict)
    jobs: int | None = None      # worker processes for the simulated games; None: every core
    use_cache: bool = True       # the verdict of an unchanged deck is read from the cache
    cache_dir: Path | None = None
    sizes: tuple[str, ...] = ()  # card sizes and print-shop presets the faces are audited at, beside the deck's
    size_option: str = "--size"  # the command-line option the sizes came from (named by an unknown size's error)
    cluster: Any = None          # a Dask scheduler's address (deckgen.runner.Cluster) for the verdict's games


@dataclass(frozen=True)
class StageResult:
    """A stage's part of the check: its findings, and the report's sections it fills, by name
    (``palette``: deckgen.palette.PaletteReport, ``rulebook``: deckgen.rulebook.lookup.RulebookSummary)."""

    findings: list[Finding]
    sections: Mapping[str, object] = field(default_factory=dict)


StageCheck = Callable[[Deck, CheckOptions], StageResult]
"""A stage's check: ``(deck, options) -> StageResult``."""


__all__ = ["CheckOptions", "StageCheck", "StageResult"]
