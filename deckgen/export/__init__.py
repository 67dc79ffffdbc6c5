"""Exports beyond the print-and-play PDF: Tabletop Simulator sheets and print-shop files.

Public API::

    export_tts(deck, out_dir, fmt="png"|"jpeg") -> TtsResult
    export_cards(deck, get_service("tgc-poker"), out_dir) -> PrintShopResult
    load_services() -> {id: Service}

Each name is imported from its module when first used, so the print-shop presets
(:mod:`.services`, which the render check reads) come without ReportLab and the image writers.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deckgen.export.printshop import PrintShopResult, export_cards
    from deckgen.export.run import ExportRun
    from deckgen.export.services import Service, get_service, load_services
    from deckgen.export.tts import MAX_COLS, MAX_ROWS, MAX_SIDE, TtsResult, TtsSheet, cell_px, export_tts, grid_for

__all__ = ["MAX_COLS", "MAX_ROWS", "MAX_SIDE", "ExportRun", "PrintShopResult", "Service", "TtsResult", "TtsSheet", "cell_px",
           "export_cards", "export_tts", "get_service", "grid_for", "load_services"]

_MODULE_OF = {"PrintShopResult": "printshop", "export_cards": "printshop", "ExportRun": "run", "Service": "services",
              "get_service": "services", "load_services": "services", "MAX_COLS": "tts", "MAX_ROWS": "tts",
              "MAX_SIDE": "tts", "TtsResult": "tts", "TtsSheet": "tts", "cell_px": "tts", "export_tts": "tts",
              "grid_for": "tts"}


def _module(name: str) -> ModuleType:
    if name == "printshop":
        from deckgen.export import printshop

        return printshop
    if name == "run":
        from deckgen.export import run

        return run
    if name == "services":
        from deckgen.export import services

        return services
    from deckgen.export import tts

    return tts


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked for."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_module(_MODULE_OF[name]), name)
    globals()[name] = value
    return value
