"""Hypothesis over what a stranger's deck is made of: manifests, preset files, fonts and SVGs.
Whatever the input, reading and checking it ends in a value or deckgen's own error (exit 1 or
2 with a message), never another exception, a hang or a crash (docs/security.md).

Each property has a small example budget, so the whole file runs in well under a minute."""

from __future__ import annotations

import math
import re
import shutil
import struct
import tempfile
from pathlib import Path

import pytest
from hostile import MINIMAL
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckgen import catalogues, datafile, fonts, images, manifest, presets
from deckgen.errors import Collector, DeckgenError, printable

FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)

# ------------------------------------------------------------------ TOML values

_NASTY_STRINGS = ["/dev/zero", "../secret.txt", "/etc/passwd", "a\x00b", "\x1b]52;c;aGk=\x07", "data:/dev/zero",
                  "{{ 7*7 }}", "~/x", ".", "..", "", " ", "é" * 300, "x" * 5000, "1e308mm", "nan", "63x88",
                  "100000000x1mm", "classic", "all", "-1", "\u202e", "palettes/../../x.toml"]


def _toml_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in '"\\' or ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _literal(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_literal(v) for v in value) + "]"
    return "{ " + ", ".join(f"{_toml_string(k)} = {_literal(v)}" for k, v in value.items()) + " }"


scalars = st.one_of(
    st.sampled_from(_NASTY_STRINGS), st.text(max_size=40),
    st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1), st.sampled_from([0, 1, 2, 10 ** 9, -1, 101, 500]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans())
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["id", "kind", "count", "colors", "op", "n", "x"]) |
                                                  st.text(max_size=8), inner, max_size=4)), max_leaves=12)

_ASSIGN = re.compile(r"^(\s*[A-Za-z_][A-Za-z0-9_.]*\s*=\s*)(.+)$", re.M)


@st.composite
def manifests(draw) -> str:
    """MINIMAL with some values replaced and some keys or tables added."""
    lines = MINIMAL.splitlines()
    spots = [i for i, line in enumerate(lines) if _ASSIGN.match(line)]
    for i in draw(st.lists(st.sampled_from(spots), max_size=4, unique=True)):
        m = _ASSIGN.match(lines[i])
        assert m
        lines[i] = m.group(1) + _literal(draw(values))
    extra = draw(st.lists(st.tuples(st.sampled_from(["deck.logo", "deck.back_image", "deck.fonts", "deck.templates",
                                                     "deck.card_size", "deck.back_text", "deck.description",
                                                     "rules.options", "kinds.zap", "scoring.target"]), values),
                          max_size=3))
    text = "\n".join(lines) + "\n"
    for key, value in extra:
        table, name = key.split(".")
        text = text.replace(f"[{table}]\n", f"[{table}]\n{name} = {_literal(value)}\n", 1) if f"[{table}]\n" in text \
            else text + f"\n[{table}]\n{name} = {_literal(value)}\n"
    if draw(st.booleans()):                       # a byte-level cut or splice
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["", "[", "]]", "\"", "=", "\x00", "\n[[cards]]\n", "[" * 40]))
        text += "\n" + MINIMAL[at:]
    return text


def _ends_well(fn) -> None:
    try:
        fn()
    except DeckgenError as exc:
        assert exc.exit_code in (1, 2) and exc.findings
        for f in exc.findings:
            assert "\x1b" not in f.format()


@FAST
@given(manifests())
def test_any_manifest_is_read_or_refused_with_findings(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")

        def read() -> None:
            result = manifest.load(path)
            for f in result.findings:
                assert printable(f.format()) == f.format()

        _ends_well(read)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(manifests())
def test_any_manifest_checks_without_a_traceback(text):
    from deckgen.check import check
    from deckgen.stages import CheckOptions

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        _ends_well(lambda: check(path, CheckOptions(simulate=False)))


# ------------------------------------------------------------------ preset files

@st.composite
def preset_texts(draw) -> str:
    names = draw(st.lists(st.sampled_from(["a4", "letter", "poker", "mini", "x", "zap"]), min_size=1, max_size=3))
    keys = ["name", "size", "margin", "width", "height", "hex", "colors", "effects", "category", "id", "dpi",
            "bleed", "sheet", "url"]
    parts = []
    for name in names:
        parts.append(f"[{name}]")
        for key, value in draw(st.lists(st.tuples(st.sampled_from(keys), values), max_size=4, unique_by=lambda t: t[0])):
            parts.append(f"{key} = {_literal(value)}")
    text = "\n".join(parts) + "\n"
    if draw(st.booleans()):
        text = "[x]\ny = " + "[" * draw(st.integers(1, 400)) + "]" * draw(st.integers(0, 400)) + "\n" + text
    return text


@FAST
@given(st.data())
def test_any_preset_file_is_read_or_refused_with_findings(data):
    kind = data.draw(st.sampled_from(catalogues.all_kinds()))
    text = data.draw(preset_texts())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("palette.toml" if kind.folder else kind.filename)
        path.write_text(text, encoding="utf-8")
        _ends_well(lambda: list(presets.load_file(kind, path)))


@FAST
@given(st.text(max_size=300) | st.builds(lambda s: "[" + ".".join(["a"] * s) + "]\n", st.integers(1, 30000)))
def test_any_text_gets_a_line_index_quickly(text):
    index = datafile.LineIndex(text)
    index.line("a.a.a")
    _ends_well(lambda: datafile.parse_toml(text, "x.toml"))


# ------------------------------------------------------------------ fonts

def _vera() -> bytes:
    import reportlab

    return (Path(reportlab.__file__).parent / "fonts" / "Vera.ttf").read_bytes()


_DAMAGE = st.lists(st.tuples(st.sampled_from(["table-tag", "table-offset", "table-length", "byte", "truncate"]),
                             st.integers(0, 2 ** 20), st.integers(0, 255)), min_size=1, max_size=6)


def _damaged(damage: list[tuple[str, int, int]]) -> bytes:
    """Vera with some damage (kept as a short list, so a failing case prints small)."""
    data = bytearray(_vera())
    n = struct.unpack(">H", data[4:6])[0]
    for how, where, value in damage:
        at = 12 + 16 * (where % n)
        if how == "table-tag":
            data[at:at + 4] = [b"xost", b"OS/3", b"glyf", b"CFF ", b"\0\0\0\0"][value % 5]
        elif how == "table-offset":
            data[at + 8:at + 12] = struct.pack(">I", [0, 1, len(data) - 4, 2 ** 31, 2 ** 32 - 1][value % 5])
        elif how == "table-length":
            data[at + 12:at + 16] = struct.pack(">I", [0, 1, 2 ** 31, 2 ** 32 - 1][value % 4])
        elif how == "byte":
            data[where % len(data)] = value
        else:
            del data[12 + where % max(1, len(data) - 12):]   # truncated twice: nothing left to cut
    return bytes(data)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(_DAMAGE, st.sampled_from(["display", "body"]))
def test_any_damaged_font_is_used_or_refused_at_lookup(damage, role):
    data = _damaged(damage)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "F.ttf").write_bytes(data)
        (folder / "fonts.toml").write_text(f'{role} = "F.ttf"\n', encoding="utf-8")
        fonts.clear_caches()
        try:
            fonts.font_set(folder)
        except DeckgenError as exc:
            assert exc.findings[0].code == "font"
            return
        finally:
            fonts.clear_caches()
        # accepted: then the build's own code can use it, and it gives every character a width
        assert fonts._opens(str(folder / "F.ttf"), role == "body") == b"[]"


# ------------------------------------------------------------------ SVGs

_ATTRS = st.sampled_from([
    'width="10" height="10"', 'fill="red"', 'href="#a"', 'href="data:x"', 'href="data:/dev/zero"',
    'href="file:///etc/passwd"', 'href="data:image/png;base64,iVBORw0KGgo="', 'style="fill:url(#g)"',
    'style="fill:url(/x.svg#a)"', 'id="a"', 'transform="scale(1e30)"', 'viewBox="0 0 inf 1"', 'width="1.2.3"',
    'filter="url(#f)"', 'xlink:href="other.svg"', 'stdDeviation="1e9"'])
_TAGS = st.sampled_from(["g", "rect", "circle", "use", "image", "text", "filter", "feGaussianBlur", "pattern",
                         "linearGradient", "svg", "style"])


def _element(draw, depth: int) -> str:
    tag = draw(_TAGS)
    attrs = " ".join(draw(st.lists(_ATTRS, max_size=3)))
    if depth <= 0 or draw(st.booleans()):
        return f"<{tag} {attrs}/>"
    inner = "".join(_element(draw, depth - 1) for _ in range(draw(st.integers(0, 3))))
    return f"<{tag} {attrs}>{inner}</{tag}>"


@st.composite
def svgs(draw) -> bytes:
    body = "".join(_element(draw, 4) for _ in range(draw(st.integers(0, 4))))
    nest = draw(st.sampled_from([0, 0, 0, 10, 65, 500]))
    body = "<g>" * nest + body + "</g>" * nest
    root = draw(st.sampled_from(['width="64" height="64"', 'viewBox="0 0 10 10"', "", 'width="100000" height="1"']))
    text = f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" {root}>{body}</svg>'
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "<!ENTITY a 'b'>", "&a;", "<", "]]>"])) + text[cut:]
    return text.encode("utf-8")


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(svgs())
def test_any_svg_is_drawn_or_refused(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.svg"
        path.write_bytes(data)
        out = Collector("deck.toml")
        ref = images.load_image("x.svg", "deck.logo", Path(tmp), out)
        if ref is None:
            assert out.errors and out.errors[0].code == "image"
            return
        pic = images.picture(ref, (40, 56))               # what a build does with it
        assert pic.size == (40, 56)


@pytest.fixture(autouse=True, scope="module")
def _fresh_fonts():
    yield
    fonts.clear_caches()
    shutil.rmtree(Path(tempfile.gettempdir()) / "deckgen-fuzz", ignore_errors=True)
