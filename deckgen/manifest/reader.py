"""Moved to :mod:`deckgen.datafile` (shared by every package that reads a TOML file); kept so
existing imports keep working."""

from deckgen.datafile import LineIndex, Shape, names_of, read_toml, table_lines, type_name, with_lines

__all__ = ["LineIndex", "Shape", "names_of", "read_toml", "table_lines", "type_name", "with_lines"]
