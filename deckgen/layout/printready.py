"""What every PDF deckgen writes carries for print shops and preflight tools.

The pieces live in :mod:`deckgen.pdfkit` (ReportLab's public API and subclasses, nothing patched):
:func:`prepare` makes a canvas's document declare PDF 1.4 (and gives a PDF/X file its output intent),
:class:`PrintCanvas` is the canvas that also writes ICC-tagged images, and
:class:`TaggedTTFont` gives every font subset its own tag.
"""

from deckgen.pdfkit import PDF_VERSION, PrintCanvas, TaggedTTFont, icc_colorspace, icc_reference, prepare, subset_tag

__all__ = ["PDF_VERSION", "PrintCanvas", "TaggedTTFont", "icc_colorspace", "icc_reference", "prepare", "subset_tag"]
