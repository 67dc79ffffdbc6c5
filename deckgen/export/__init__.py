"""Exports beyond the print-and-play PDF: Tabletop Simulator sheets and print-shop files.

Public API::

    export_tts(deck, out_dir, fmt="png"|"jpeg") -> TtsResult
    export_cards(deck, get_service("tgc-poker"), out_dir) -> PrintShopResult
    load_services() -> {id: Service}
"""

from deckgen.export.printshop import PrintShopResult, export_cards
from deckgen.export.run import ExportRun
from deckgen.export.services import Service, get_service, load_services
from deckgen.export.tts import MAX_COLS, MAX_ROWS, MAX_SIDE, TtsResult, TtsSheet, cell_px, export_tts, grid_for

__all__ = ["MAX_COLS", "MAX_ROWS", "MAX_SIDE", "ExportRun", "PrintShopResult", "Service", "TtsResult", "TtsSheet", "cell_px",
           "export_cards", "export_tts", "get_service", "grid_for", "load_services"]
