"""The options several commands share, as decorators (the sqlite-utils pattern), and
:func:`gather`, which collects a group of click parameters into one typed object before the
command's body runs: a command receives ``palette: PaletteChoice`` or ``settings:
RenderSettings``, not each of their options as a keyword argument.

The typed objects that can be built from the options alone are built once, inside the command's
error handling (:class:`deckgen.cli.base.Command`); those that need the deck (its folder's
papers, its palette) keep the text and are resolved per deck by a method.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from deckgen.errors import DeckgenError, Finding

if TYPE_CHECKING:
    from deckgen.model import Deck, Palette
    from deckgen.render import RenderSettings

Body = Callable[..., Any]
Decorator = Callable[[Body], Body]


def gather(name: str, make: Callable[..., object], *fields: str) -> Decorator:
    """Replace the keyword arguments ``fields`` with one, ``name=make(**fields)``.

    Put it below the click options it collects (it runs before the body, after click has parsed
    them), or let a shared option decorator apply it."""

    def decorator(fn: Body) -> Body:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {field: kwargs.pop(field) for field in fields}
            kwargs[name] = make(**values)
            return fn(*args, **kwargs)

        return wrapper

    return decorator


def stack(fn: Body, *decorators: Decorator) -> Body:
    """``decorators`` applied as if written above ``fn`` in this order (the first outermost)."""
    for decorator in reversed(decorators):
        fn = decorator(fn)
    return fn


# ---------------------------------------------------------------- single options

def json_option(fn: Body) -> Body:
    return click.option("--json", "as_json", is_flag=True,
                        help="Print one JSON object instead of text (also for every failure).")(fn)


def jobs_option(fn: Body) -> Body:
    return click.option("-j", "--jobs", type=click.IntRange(1, 256), default=None,
                        help="Worker processes, 1 to 256 (default: every core).")(fn)


def think_option(fn: Body) -> Body:
    return click.option("--think", type=click.IntRange(1, 100_000), default=None, metavar="N",
                        help="The expert's play-outs per decision (more: stronger and slower; docs/expert.md).")(fn)


def _cluster(cluster: str | None, cluster_ca: str | None, cluster_cert: str | None, cluster_key: str | None,
             cluster_insecure_no_tls: bool) -> object:
    """The --cluster options as one checked :class:`deckgen.runner.Cluster` (None: this
    machine); an odd address is a usage error here, before anything is opened."""
    if cluster is None:
        if cluster_ca or cluster_cert or cluster_key or cluster_insecure_no_tls:
            raise usage_error("--cluster", "--cluster-ca, --cluster-cert, --cluster-key and --cluster-insecure-no-tls "
                              "go with --cluster", "give the scheduler's address with --cluster")
        return None
    from deckgen.runner import Cluster, cluster_of

    return cluster_of(Cluster(cluster, cluster_ca, cluster_cert, cluster_key, cluster_insecure_no_tls))


def cluster_option(fn: Body) -> Body:
    """--cluster ADDRESS and its TLS files (docs/cluster.md), gathered into ``cluster``."""
    fn = gather("cluster", _cluster, "cluster", "cluster_ca", "cluster_cert", "cluster_key",
                "cluster_insecure_no_tls")(fn)
    for decorator in reversed([
        click.option("--cluster", metavar="ADDRESS", default=None,
                     help="Play the games on the Dask scheduler at ADDRESS instead of this machine's cores; same "
                          "results: tcp://127.0.0.1:PORT on this machine, tls://HOST:PORT with the three files below "
                          "elsewhere. Needs pip install 'deckgen[cluster]' (docs/cluster.md)."),
        click.option("--cluster-ca", metavar="FILE", default=None, help="With a tls:// --cluster: the certificate "
                     "authority that signed the scheduler's certificate."),
        click.option("--cluster-cert", metavar="FILE", default=None, help="With a tls:// --cluster: this client's "
                     "certificate."),
        click.option("--cluster-key", metavar="FILE", default=None, help="With a tls:// --cluster: this client's "
                     "private key."),
        click.option("--cluster-insecure-no-tls", is_flag=True,
                     help="Allow a plain tcp:// --cluster on another machine: anyone on the network can read the "
                          "games, and anyone who reaches the scheduler can run code on its workers. Only on a "
                          "network you trust entirely."),
    ]):
        fn = decorator(fn)
    return fn


ONLY_HELP = "Only these cards, N copies each (default 1), e.g. red-5x2,wild: for reprints."


def only_option(fn: Body) -> Body:
    return click.option("--only", metavar="ID[xN],...", default=None, help=ONLY_HELP)(fn)


def usage_error(where: str, message: str, hint: str) -> DeckgenError:
    """A misused command (exit 2): ``where`` is the option."""
    return DeckgenError(Finding("error", "usage", where, message, hint=hint))


# ---------------------------------------------------------------- lengths

def length(value: str, where: str) -> float:
    """A length option in millimetres (a bare number is mm)."""
    from deckgen.units import parse_length

    return parse_length(value, where, default_unit="mm")


def _signed(value: str, where: str) -> float:
    text = value.strip()
    sign = -1.0 if text.startswith("-") else 1.0
    return sign * length(text.lstrip("+-").strip(), where)


def offset(value: str) -> tuple[float, float]:
    """``--back-offset X,Y`` in millimetres."""
    parts = [p for p in str(value).replace(";", ",").split(",")]
    if len(parts) != 2:
        raise DeckgenError(Finding("error", "back-offset", "--back-offset", f"'{value}' is not X,Y",
                                   hint="two lengths such as 0.5mm,-1mm (bare numbers are millimetres)"))
    return _signed(parts[0], "--back-offset"), _signed(parts[1], "--back-offset")


def margin(value: str) -> float | None:
    """``--margin``: a length, or ``paper`` for the paper preset's own (5 mm; 1/4 in on US papers)."""
    return None if str(value).strip().lower() == "paper" else length(value, "--margin")


def auto_length(value: str, where: str) -> float | None:
    """A length option that may be ``auto`` (None)."""
    return None if str(value).strip().lower() == "auto" else length(value, where)


# ---------------------------------------------------------------- --palette and --color

@dataclass(frozen=True)
class PaletteChoice:
    """``--palette NAME|FILE`` and repeated ``--color NAME=#RRGGBB``, resolved per deck."""

    palette: str | None
    colors: tuple[str, ...]

    def for_deck(self, deck_ref: str) -> Palette | None:
        """The palette a command should use: the deck's own (None) unless --palette/--color say otherwise."""
        from deckgen import manifest

        if not self.palette and not self.colors:
            return None
        if self.palette:
            pal = manifest.load_palette(self.palette)
        else:
            result = manifest.load(deck_ref)
            if result.deck is None:
                raise DeckgenError(result.errors)
            pal = result.deck.palette
        overrides = dict(manifest.parse_color_override(c) for c in self.colors)
        return manifest.apply_overrides(pal, overrides)

    def load(self, deck_ref: str) -> Deck:
        """The deck with this palette."""
        from deckgen import manifest

        return manifest.load_deck(deck_ref, palette=self.for_deck(deck_ref))


def palette_options(fn: Body) -> Body:
    """``--palette NAME|FILE`` and repeated ``--color NAME=#RRGGBB``: the command gets ``palette: PaletteChoice``."""
    return stack(gather("palette", PaletteChoice, "palette", "colors")(fn),
                 click.option("--palette", metavar="NAME|FILE", help="Use another palette (bundled name or file)."),
                 click.option("--color", "colors", multiple=True, metavar="NAME=#RRGGBB",
                              help="Override one palette colour (repeatable)."))


@dataclass(frozen=True)
class DeckChoice:
    """``--only``, ``--lang`` and the palette options: which deck a command draws, which of its
    cards, in which of its languages."""

    only: str | None
    palette: PaletteChoice
    lang: str | None = None

    def cut(self, deck: Deck) -> Deck:
        """The deck cut down to ``--only`` (deckgen.selection), or as it is."""
        from deckgen.selection import select

        return select(deck, self.only)

    def load(self, deck_ref: str) -> Deck:
        from deckgen.render.faces import in_language

        return in_language(self.cut(self.palette.load(deck_ref)), self.lang)


LANG_HELP = ("Language of the words on the faces (captions, labels, rules text): any the deck has texts for "
             "(default: the deck's).")


def lang_option(fn: Body) -> Body:
    """``--lang``: the faces' language (the rulebook's is its own option)."""
    return click.option("--lang", metavar="LANG", default=None, help=LANG_HELP)(fn)


def deck_options(fn: Body) -> Body:
    """``--only``, ``--lang``, ``--palette`` and ``--color``: the command gets ``cards: DeckChoice``."""
    return stack(gather("cards", DeckChoice, "only", "palette", "lang")(fn), only_option, lang_option, palette_options)


# ---------------------------------------------------------------- render settings

def _render_settings(dpi: int, card_size: str | None, bleed: str, safe: str, symbols: bool | None,
                     corner_guide: bool) -> RenderSettings:
    from deckgen.render import RenderSettings
    from deckgen.units import parse_length

    return RenderSettings(dpi=dpi, bleed_mm=parse_length(bleed, "--bleed"), safe_mm=parse_length(safe, "--safe"),
                          card_size=card_size, symbols=symbols, corner_guide=corner_guide)


def render_options(dpi_default: int, dpi_help: str) -> Decorator:
    """``--dpi`` and the face options shared by ``render`` and ``preview``: the command gets
    ``settings: RenderSettings``."""

    def decorator(fn: Body) -> Body:
        return stack(
            gather("settings", _render_settings, "dpi", "card_size", "bleed", "safe", "symbols", "corner_guide")(fn),
            click.option("--dpi", type=click.IntRange(30, 1200), default=dpi_default, show_default=True, help=dpi_help),
            click.option("--card-size", metavar="PRESET|WxH",
                         help="Card size preset (poker, bridge, uno, tarot, mini, euro; see deckgen list) or WxH "
                              "such as 63x88 (mm) or 2.5inx3.5in (default: the deck's)."),
            click.option("--bleed", default="3mm", show_default=True, metavar="LENGTH",
                         help="Bleed around the trim (the artwork runs on into it)."),
            click.option("--safe", default="3mm", show_default=True, metavar="LENGTH",
                         help="Safe zone inside the trim that holds every symbol and text."),
            click.option("--symbols/--no-symbols", default=None,
                         help="Colour-blind shape cues (default: on for palettes of more than 4 colours)."),
            click.option("--corner-guide", is_flag=True, help="Draw a thin rounded-corner cutting guide on the trim line."))

    return decorator


# ---------------------------------------------------------------- --watch and --port

@dataclass(frozen=True)
class Watching:
    """``--watch`` and its page's ``--port``."""

    watch: bool
    port: int


def watch_options(what: str) -> Decorator:
    """``--watch`` (``what`` it does again on every change) and ``--port``: the command gets ``live: Watching``."""

    def decorator(fn: Body) -> Body:
        return stack(gather("live", Watching, "watch", "port")(fn),
                     click.option("--watch", is_flag=True,
                                  help=f"Keep running: {what} on every change and show it on a local page."),
                     click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
                                  help="Port of the --watch page on 127.0.0.1 (0: any free port)."))

    return decorator


# ---------------------------------------------------------------- paper and sheets

def sheet_options(fn: Body) -> Body:
    """Paper, margin and back offset options shared by build and calibrate (each has its own --duplex)."""
    return stack(fn,
                 click.option("--paper", default="a4", show_default=True, metavar="NAME|WxH",
                              help="Paper preset (a4, letter, legal, a3 ...) or a size such as 210mmx297mm."),
                 click.option("--margin", default="paper", show_default=True, metavar="LENGTH|paper",
                              help="Band along every edge that nothing enters, crop marks included "
                                   "(paper: the preset's, 5mm; 0.25in on US papers)."),
                 click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
                              help="Shift the backs X right and Y down (measure it with deckgen calibrate)."))
