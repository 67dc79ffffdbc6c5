"""The progress callback every long-running stage accepts: ``progress(label, done, total)``.

The core never draws progress bars itself; ``deckgen.cli`` passes a callback that does.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, int], None]
