"""The one font lookup of deckgen: card faces (Pillow), the cards PDF and the rulebook (ReportLab).

A font is chosen per **role**:

- ``display``: big numbers, indices, +N, the card back's title (card faces);
- ``text``: captions, rules text, labels (card faces, contact sheet);
- ``body``, ``bold``, ``italic``, ``bold_italic``: the PDFs (rulebook, cards PDF cover and labels).

Folders are searched in this order, and the first one that names a role in its ``fonts.toml``
wins for that role:

1. the deck's own folder, ``deck.fonts`` in the manifest (beside the manifest);
2. the user folder: ``$DECKGEN_FONTS`` when set (it must exist), else the platform's user data
   folder for deckgen (``platformdirs``), e.g. ``~/.local/share/deckgen/fonts`` on Linux;
3. the bundled fonts: League Spartan for the card faces (``fonts/`` in the package), Bitstream
   Vera for the PDFs (shipped inside ReportLab).

A ``fonts.toml`` names a file per role (``display = "MyFont-Black.ttf"``). In one folder,
``bold``, ``italic`` and ``bold_italic`` default to that folder's ``body`` font. A named font
must exist, load, and have the Spanish letters; PDF roles need TrueType outlines (ReportLab
cannot embed CFF ``.otf`` fonts). Each named font is opened when it is looked up (so at
``check``) by the code a build uses: Pillow for the faces, ReportLab (and its subsetting) for the
PDFs, in a child process with a memory and time limit (:mod:`deckgen.probe`), so a font that
would fail, crash or run away at build is an error at check. Anything else is a :class:`DeckgenError` naming the
``fonts.toml`` and the role, never a silent fallback. Nothing is ever downloaded.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from deckgen import deckfs, safefile
from deckgen.errors import DeckgenError, Finding, did_you_mean, error
from deckgen.resources import fonts_dir

if TYPE_CHECKING:
    from PIL import ImageFont

    from deckgen.model import Deck

CARD_ROLES = ("display", "text")
PDF_ROLES = ("body", "bold", "italic", "bold_italic")
ROLES = CARD_ROLES + PDF_ROLES
SPANISH = "áéíóúñÁÉÍÓÚÑ¿¡ü"
FONT_SUFFIXES = (".ttf", ".otf", ".ttc")
MAX_FONT = 32 * 1024 * 1024      # bytes of one font file
FAMILY = "DeckgenSans"          # the PDF family of the default fonts (always registered)
_VERA = {"body": "Vera.ttf", "bold": "VeraBd.ttf", "italic": "VeraIt.ttf", "bold_italic": "VeraBI.ttf"}
RegisterKey = tuple[tuple[str, str, str], ...]   # (role, file, digest) of each PDF role
_STYLE_FALLBACK = {"bold": ("body",), "italic": ("body",), "bold_italic": ("bold", "italic", "body")}


@dataclass(frozen=True)
class FontRef:
    """One font file. Its repr (and equality) is its content digest, not where it is installed,
    so a face's cache key follows the font's content."""

    path: str = field(repr=False, compare=False)
    digest: str


@dataclass(frozen=True)
class FontSet:
    """The font file of every role, and where each came from (for messages)."""

    refs: tuple[tuple[str, FontRef], ...]

    def ref(self, role: str) -> FontRef:
        return dict(self.refs)[role]

    def path(self, role: str) -> Path:
        return Path(self.ref(role).path)

    def signature(self) -> str:
        return ";".join(f"{role}={ref.digest}" for role, ref in self.refs)


def user_fonts_dir() -> Path:
    """``$DECKGEN_FONTS``, else the platform's user data folder for deckgen + ``fonts``."""
    env = os.environ.get("DECKGEN_FONTS")
    if env:
        return safefile.user_path(env)
    return _platform_fonts_dir(os.environ.get("XDG_DATA_HOME"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=4)
def _platform_fonts_dir(xdg: str | None, home: str | None) -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("deckgen", appauthor=False)) / "fonts"


def _reportlab_fonts() -> Path:
    import reportlab

    return Path(reportlab.__file__).resolve().parent / "fonts"


@functools.lru_cache(maxsize=64)
def _digest(path: str, size: int, mtime: int) -> str:
    return hashlib.sha256(safefile.read_bytes(path, MAX_FONT)).hexdigest()[:16]


def _ref(path: Path) -> FontRef:
    """A font file; one inside a mounted pack is handed to libraries as an in-memory file
    (:func:`deckgen.deckfs.library_path`), so FreeType, ReportLab and resvg open it by path."""
    st = deckfs.stat(path)
    return FontRef(deckfs.library_path(path), _digest(str(path), st.st_size, st.st_mtime_ns))


def _fonts_in(folder: Path) -> list[str]:
    return [n for n in deckfs.listdir(folder) if Path(n).suffix.lower() in FONT_SUFFIXES]


def _inside(folder: Path, name: str, role: str) -> None:
    """A deck's font folder is untrusted: its ``fonts.toml`` and the fonts it names must lie inside
    it (a symlink leading out is refused, never read)."""
    root = os.path.realpath(folder)
    real = os.path.realpath(folder / name)         # a path in a mounted pack stays as it is
    if real != root and os.path.commonpath([real, root]) != root:
        raise DeckgenError(error("file", role, f"'{name}' is a symlink that leads outside the deck's fonts folder "
                                 f"({root})", file=str(folder), hint="copy the file into the deck's fonts folder"))


def _read_conf(folder: Path, label: str, confined: bool = False) -> dict[str, str]:
    """The roles a folder's ``fonts.toml`` names (file names inside the folder). ``confined``: a
    deck's folder, whose files must lie inside it."""
    from deckgen.datafile import read_toml

    conf = folder / "fonts.toml"
    if confined and (deckfs.exists(conf) or conf.is_symlink()):
        _inside(folder, "fonts.toml", "fonts.toml")
    if not deckfs.is_file(conf):
        there = _fonts_in(folder)
        if there:
            raise DeckgenError(error(
                "font", label, f"the fonts folder {folder} has font files but no fonts.toml naming them",
                hint=f'write {conf} with e.g. display = "{there[0]}" (roles: {", ".join(ROLES)})'))
        return {}
    data = read_toml(conf)
    problems = []
    for key, value in data.items():
        if key not in ROLES:
            problems.append(error("unknown-key", key, f"unknown font role '{key}'", file=str(conf),
                                  hint=did_you_mean(key, ROLES) or "roles: " + ", ".join(ROLES)))
        elif not isinstance(value, str) or not value:
            problems.append(error("type", key, "expected a font file name", file=str(conf),
                                  hint='e.g. display = "MyFont-Black.ttf"'))
        elif Path(value).name != value:
            problems.append(error("font", key, f"'{value}' is not a file name in {folder}", file=str(conf),
                                  hint="put the font file in the same folder as fonts.toml"))
    if problems:
        raise DeckgenError(problems)
    return dict(data)


def covers_spanish(path: Path) -> bool:
    return _covers_spanish(deckfs.library_path(path), deckfs.stamp(path)[0])


@functools.lru_cache(maxsize=32)
def _covers_spanish(path: str, mtime: int) -> bool:
    """Pillow can load the font and it draws every Spanish letter (none is the missing glyph)."""
    from PIL import ImageFont

    try:
        font = ImageFont.truetype(str(path), 40)
        notdef = font.getmask("\uffff").getbbox()
        for ch in SPANISH:
            box = font.getmask(ch).getbbox()
            if box is None or box == notdef:
                return False
    except Exception:         # a damaged font: FreeType raises OSError ("too many hints"), ValueError ...
        return False
    return True


def pdf_problem(path: Path) -> str | None:
    """Why ReportLab cannot embed a font, or None: it needs one TrueType font (``glyf`` outlines),
    not CFF outlines (most ``.otf``) nor a collection. Read from the table directory alone;
    the Spanish letters are checked with :func:`covers_spanish`."""
    import struct

    try:
        data = safefile.read_bytes(path, MAX_FONT)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    tag, n = data[:4], struct.unpack(">H", data[4:6])[0] if len(data) >= 6 else 0
    tables = {data[12 + 16 * i: 16 + 16 * i] for i in range(min(n, 512))}
    if tag == b"OTTO" or b"CFF " in tables:
        return "has PostScript (CFF) outlines, which PDFs made by ReportLab cannot embed; use a TrueType .ttf font"
    if tag == b"ttcf":
        return "is a font collection; name a single .ttf font"
    if tag not in (b"\x00\x01\x00\x00", b"true") or b"glyf" not in tables:
        return "is not a TrueType font; use a .ttf font"
    return None


@functools.lru_cache(maxsize=32)
def _pdf_problem(path: str, mtime: int) -> str | None:
    return pdf_problem(Path(path))


# Characters every font must give a width: text is measured with them (a zero advance made
# ReportLab's dot leaders in the rulebook's contents divide by zero, and lays letters on each other).
WIDTH_CHARS = string.ascii_letters + string.digits + " .,:;!?-" + SPANISH


def _opens(path: str, pdf: bool) -> bytes:
    """Open a font the way a build does: Pillow draws the Spanish letters; for a PDF role ReportLab
    reads it and makes the subset a PDF embeds. Raises what either library raises; returns (JSON)
    the characters of :data:`WIDTH_CHARS` either library gives no width."""
    from PIL import ImageFont

    font = ImageFont.truetype(path, 40)
    for ch in string.printable.strip() + SPANISH + "\uffff":
        font.getmask(ch)
    flat = [ch for ch in WIDTH_CHARS if not font.getlength(ch) > 0]
    if pdf:
        from reportlab.pdfbase.ttfonts import TTFont

        face = TTFont("DeckgenProbe", path)
        face.face.makeSubset([ord(c) for c in "Aa0 .,:" + SPANISH])
        flat += [ch for ch in WIDTH_CHARS if not face.stringWidth(ch, 10) > 0 and ch not in flat]
    return json.dumps(flat).encode("utf-8")


_opened_safely: set[tuple[str, bool]] = set()     # (content digest, pdf) of fonts that opened in a child


@functools.lru_cache(maxsize=64)
def _open_problem(path: str, mtime: int, size: int, pdf: bool) -> str | None:
    """Why the font cannot be used as the build uses it (it fails to open in a child process: a
    font can crash a library or make it allocate without end; or it gives characters no width),
    or None. The same bytes (a copy in another folder) are opened in a child once per process."""
    key = (_digest(path, size, mtime), pdf)
    if key in _opened_safely:
        return None
    import reportlab.pdfbase.ttfonts  # noqa: F401  (imported before the fork, not inside the child)
    from PIL import ImageFont  # noqa: F401

    from deckgen import probe

    try:
        flat = json.loads(probe.run(_opens, path, pdf, seconds=30))
    except probe.Failed as exc:
        return f"cannot be opened: {exc.reason}"
    if flat:
        shown = ", ".join(f"'{ch}'" for ch in flat[:8]) + (f" and {len(flat) - 8} more" if len(flat) > 8 else "")
        return f"gives no width to {shown}, so text set in it would overlap or fail (a damaged font?)"
    _opened_safely.add(key)
    return None


def _check_named(folder: Path, role: str, path: Path) -> None:
    conf = str(folder / "fonts.toml")
    if not deckfs.is_file(path):
        there = _fonts_in(folder)
        raise DeckgenError(error("font", role, f"no font file '{path.name}' in {folder}", file=conf,
                                 hint=("fonts there: " + ", ".join(there)) if there else
                                 "copy the .ttf or .otf file into that folder"))
    try:
        st = safefile.check_regular(path, MAX_FONT)
    except OSError as exc:
        raise DeckgenError(error("font", role, f"'{path.name}' {exc.strerror}", file=conf,
                                 hint="name a font file in that folder")) from None
    if role not in PDF_ROLES or _pdf_problem(str(path), st.st_mtime_ns) is None:   # else: the message below
        problem = _open_problem(deckfs.library_path(path), st.st_mtime_ns, st.st_size, role in PDF_ROLES)
        if problem:
            raise DeckgenError(error("font", role, f"'{path.name}' {problem}", file=conf,
                                     hint="the font file is damaged or of a kind deckgen cannot use; "
                                          "choose another .ttf font"))
    if not covers_spanish(path):
        raise DeckgenError(error("font", role, f"'{path.name}' cannot be loaded or lacks Spanish letters "
                                 f"({SPANISH})", file=conf, hint="choose a font with full Latin-1 coverage"))
    if role in PDF_ROLES:
        problem = _pdf_problem(str(path), deckfs.stamp(path)[0])
        if problem:
            raise DeckgenError(error("font", role, f"'{path.name}' {problem}", file=conf,
                                     hint="the PDF roles (body, bold, italic, bold_italic) need .ttf fonts"))


def _layer(folder: Path, confined: bool = False) -> dict[str, Path]:
    """role -> file a folder names, with bold/italic defaulting to the folder's body font.
    ``confined``: a deck's folder, whose files must lie inside it."""
    named = {role: folder / name for role, name in _read_conf(folder, str(folder), confined).items()}
    if confined:
        for role, path in named.items():
            _inside(folder, path.name, role)
    for role, fallbacks in _STYLE_FALLBACK.items():
        if role not in named:
            base = next((named[r] for r in fallbacks if r in named), None)
            if base is not None:
                named[role] = base
    problems: list[Finding] = []                # every file's problem at once, not the first one's
    broken: set[Path] = set()
    for role, path in named.items():            # the roles named first, then those falling back on them
        if path in broken:
            continue                            # (a style falling back on a file already reported)
        try:
            _check_named(folder, role, path)
        except DeckgenError as exc:
            broken.add(path)
            problems.extend(exc.findings)
    if problems:
        raise DeckgenError(problems)
    return named


def _bundled() -> dict[str, Path]:
    folder = fonts_dir()
    named = {role: folder / name for role, name in _read_conf(folder, "bundled fonts").items()}
    rl = _reportlab_fonts()
    for role, name in _VERA.items():
        named.setdefault(role, rl / name)
    missing = [f"{role} ({p})" for role, p in named.items() if not p.is_file()]
    if missing or set(named) != set(ROLES):
        raise DeckgenError(error("font", "bundled fonts", "the installation lacks its fonts: " + ", ".join(missing),
                                 hint="reinstall deckgen"))
    return named


def font_folders(deck_fonts: Path | None = None) -> list[Path]:
    """The folders searched before the bundled fonts, in order (missing optional ones left out)."""
    folders = []
    if deck_fonts is not None:
        folders.append(Path(deck_fonts))
    user = user_fonts_dir()
    if os.environ.get("DECKGEN_FONTS") and not user.is_dir():
        raise DeckgenError(error("font", "DECKGEN_FONTS", f"DECKGEN_FONTS points at {user}, which is not a folder",
                                 hint="create the folder, fix the path, or unset DECKGEN_FONTS"))
    if user.is_dir():
        folders.append(user)
    return folders


def font_set(deck_fonts: Path | str | None = None) -> FontSet:
    """The fonts for a deck (its ``deck.fonts`` folder, or None), resolved now."""
    deck_key = str(Path(deck_fonts).resolve()) if deck_fonts is not None else None
    return _font_set(deck_key, os.environ.get("DECKGEN_FONTS"), _conf_stamp(deck_key))


def _conf_stamp(deck_key: str | None) -> tuple[int | None, ...]:
    """What may change between two lookups in one process: the fonts.toml files' times."""
    stamps: list[int | None] = []
    for folder in ([Path(deck_key)] if deck_key else []) + [user_fonts_dir()]:
        conf = folder / "fonts.toml"
        mtime, size = deckfs.stamp(conf)
        stamps.append(mtime if (mtime, size) != (0, 0) else None)
    return tuple(stamps)


@functools.lru_cache(maxsize=16)
def _font_set(deck_key: str | None, env: str | None, stamp: tuple[int | None, ...]) -> FontSet:
    chosen: dict[str, Path] = {}
    for i, folder in enumerate(font_folders(Path(deck_key) if deck_key else None)):
        if not deckfs.is_dir(folder):
            raise DeckgenError(error("font", "deck.fonts", f"{folder} is not a folder",
                                     hint="deck.fonts names a folder beside the manifest"))
        for role, path in _layer(folder, confined=bool(deck_key) and i == 0).items():
            chosen.setdefault(role, path)
    for role, path in _bundled().items():
        chosen.setdefault(role, path)
    return FontSet(tuple((role, _ref(chosen[role])) for role in ROLES))


def deck_fonts(deck: Deck) -> FontSet:
    """The font set of a deck model (``deck.fonts``, else the user's and the bundled fonts)."""
    return font_set(getattr(deck, "fonts", None))


def font_path(role: str, deck_fonts: Path | str | None = None) -> Path:
    """The font file used for a role."""
    return font_set(deck_fonts).path(role)


@functools.lru_cache(maxsize=512)
def pil_font(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    """A Pillow font of a file at a pixel size (cached per process)."""
    from PIL import ImageFont

    return ImageFont.truetype(path, max(4, int(size_px)))


@dataclass(frozen=True)
class PdfFonts:
    """ReportLab font names registered for a font set: a family with its four styles."""

    family: str
    regular: str
    bold: str
    italic: str
    bold_italic: str


def register_pdf(fonts: FontSet | None = None) -> PdfFonts:
    """Register a font set's PDF roles with ReportLab (once per process and set); returns the names.

    The default fonts are the family ``DeckgenSans``; another set gets a name derived from its
    files' content, so the same fonts always give the same PDF bytes.
    """
    fonts = fonts or font_set(None)
    default = _register(font_set_default_key())
    key = tuple((role, fonts.ref(role).path, fonts.ref(role).digest) for role in PDF_ROLES)
    if key == font_set_default_key():
        return default
    return _register(key)


def font_set_default_key() -> RegisterKey:
    rl = _reportlab_fonts()
    return tuple((role, str(rl / _VERA[role]), _ref(rl / _VERA[role]).digest) for role in PDF_ROLES)


@functools.lru_cache(maxsize=16)
def _register(key: RegisterKey) -> PdfFonts:
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics

    from deckgen.pdfkit import TaggedTTFont as TTFont  # a tag of its own for every font subset

    is_default = key == font_set_default_key()
    family = FAMILY if is_default else FAMILY + "-" + hashlib.sha256(repr([k[2] for k in key]).encode()).hexdigest()[:8]
    names = {}
    for (role, path, _), suffix in zip(key, ("", "-Bold", "-Italic", "-BoldItalic")):
        name = family + suffix
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, path))
        names[role] = name
    for bold, italic, role in ((0, 0, "body"), (1, 0, "bold"), (0, 1, "italic"), (1, 1, "bold_italic")):
        addMapping(family, bold, italic, names[role])
    return PdfFonts(family, names["body"], names["bold"], names["italic"], names["bold_italic"])


def register_fonts(deck_fonts: Path | str | None = None) -> tuple[str, str]:
    """(regular, bold) ReportLab font names for the cards PDF and calibration sheet."""
    pdf = register_pdf(font_set(deck_fonts))
    return pdf.regular, pdf.bold


def clear_caches() -> None:
    """Forget every lookup (tests that change DECKGEN_FONTS or font folders)."""
    _font_set.cache_clear()
    _digest.cache_clear()
    _platform_fonts_dir.cache_clear()
    _covers_spanish.cache_clear()
    _pdf_problem.cache_clear()
    _open_problem.cache_clear()
    _opened_safely.clear()
