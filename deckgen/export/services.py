"""Print-shop presets (``decks/services.toml``), validated on load."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from deckgen import presets
from deckgen.datafile import read_toml
from deckgen.errors import Collector, DeckgenError, did_you_mean, error
from deckgen.resources import decks_dir
from deckgen.units import parse_length

KEYS = ("name", "dpi", "bleed", "card_size", "format")
FORMATS = ("png", "jpeg")


@dataclass(frozen=True)
class Service:
    id: str
    name: str
    dpi: int
    bleed_mm: float
    card_size: str | None = None
    format: str = "png"


def services_file() -> Path:
    return decks_dir() / "services.toml"


def load_services(path: Path | None = None, *, base: Path | None = None) -> dict[str, Service]:
    """Every print-shop preset: the bundled, user and (with ``base``) the manifest folder's (see
    :mod:`deckgen.presets`), or only those of ``path``."""
    if path is not None:
        return dict(presets.load_file(SERVICES, Path(path)))
    return presets.catalogue(SERVICES, base).values()


def _load(path: str) -> tuple[tuple[str, Service], ...]:
    data = read_toml(Path(path))
    out = Collector(file=path)
    services = []
    for sid, raw in data.items():
        if not isinstance(raw, dict):
            out.error("service", sid, "expected a table such as [generic] with dpi and bleed")
            continue
        for key in sorted(set(raw) - set(KEYS)):
            hint = did_you_mean(key, KEYS) or "accepted keys: " + ", ".join(KEYS)
            out.error("unknown-key", f"{sid}.{key}", f"unknown key '{key}'", hint=hint)
        dpi = raw.get("dpi")
        if not isinstance(dpi, int) or isinstance(dpi, bool) or not 72 <= dpi <= 1200:
            out.error("service", f"{sid}.dpi", f"expected a whole number of dots per inch from 72 to 1200, got {dpi!r}")
        bleed = None
        try:
            bleed = parse_length(raw.get("bleed", ""), f"{sid}.bleed")
        except DeckgenError as exc:
            out.findings.extend(dataclasses.replace(f, file=path) for f in exc.findings)
        fmt = raw.get("format", "png")
        if fmt not in FORMATS:
            out.error("service", f"{sid}.format", f"unknown format {fmt!r}", hint="use png or jpeg")
        size = raw.get("card_size")
        if size is not None and not isinstance(size, str):
            out.error("service", f"{sid}.card_size", "expected a card size name or WxH string")
        if bleed is not None and isinstance(dpi, int):
            services.append((sid, Service(sid, str(raw.get("name", sid)), dpi, bleed, size, fmt)))
    if out.errors:
        raise DeckgenError(out.findings)
    return tuple(services)


SERVICES: presets.PresetFile[Service] = presets.PresetFile("print-shop preset", "services.toml", _load)


def get_service(name: str, *, base: Path | None = None) -> Service:
    """A print-shop preset by name; ``base``: the manifest's folder, whose ``services.toml`` is read too."""
    services = load_services(base=base)
    key = str(name).strip().lower()
    if key in services:
        return services[key]
    hint = did_you_mean(key, services) or "presets: " + ", ".join(services)
    raise DeckgenError(error("service", "--service", f"unknown print-shop preset '{name}'",
                             hint=f"{hint} (add your own in {presets.user_dir() / 'services.toml'})"))
