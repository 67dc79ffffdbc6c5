"""How an export renders the faces it needs: the options every export shares."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from deckgen.progress import Progress


@dataclass(frozen=True)
class ExportRun:
    """The render run behind an export: through the face cache (in ``cache_dir``, default the
    user's) or not, on ``jobs`` worker processes (None: every core), reporting to ``progress``."""

    use_cache: bool = True
    cache_dir: Path | None = None
    progress: Progress | None = None
    jobs: int | None = None
