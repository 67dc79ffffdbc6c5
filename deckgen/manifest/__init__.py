"""Deck manifests: reading, validating and building the deck model."""

from deckgen.manifest.palettes import apply_overrides, bundled_palettes, load_palette, parse_color_override
from deckgen.manifest.parser import LoadResult, bundled_decks, example_decks, find_deck, load, load_deck

__all__ = [
           "LoadResult",
           "apply_overrides",
           "bundled_decks",
           "bundled_palettes",
           "example_decks",
           "find_deck",
           "load",
           "load_deck",
           "load_palette",
           "parse_color_override",
]
