"""deckgen: design, check, render and print UNO-style card games."""

__version__ = "0.1.0"
