"""Join links as QR codes, for friends to open on their phones: a picture for the host's page and
text for the terminal (segno: both made here, nothing fetched)."""

from __future__ import annotations

import io


def svg_uri(text: str) -> str:
    """A ``data:`` URI of the QR code of ``text`` as SVG (dark on light, a quiet zone of 4)."""
    import segno

    return str(segno.make(text, error="m").svg_data_uri(scale=4, border=4, dark="#000", light="#fff"))


def terminal(text: str) -> str:
    """The QR code of ``text`` as lines of block characters for a terminal (two rows a line)."""
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


__all__ = ["svg_uri", "terminal"]
