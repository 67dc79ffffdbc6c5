"""The balance report: why a game plays the way it does, in charts (``deckgen report``).

- :mod:`~deckgen.balance.figures`: the shape of every figure (the report is its own JSON);
- :mod:`~deckgen.balance.collect`: figures from game records;
- :mod:`deckgen.stats` (below this package, shared with the rules engine): intervals and tests;
- :mod:`~deckgen.balance.report`: variants, simulation and the report's figures;
- :mod:`~deckgen.balance.text`: the words (es, en) and the plain-words summary;
- :mod:`~deckgen.balance.charts`, :mod:`~deckgen.balance.pdf`: the PDF.
"""

from deckgen.balance.report import ReportOptions, Variant, build_report, default_path, parse_vary, write_report

__all__ = ["ReportOptions", "Variant", "build_report", "default_path", "parse_vary", "write_report"]
