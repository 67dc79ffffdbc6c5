"""Paper presets (``papers.toml``, found by :mod:`deckgen.presets`) and ``--paper`` values: a preset name or WxH."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from deckgen import presets as preset_files
from deckgen.datafile import read_toml
from deckgen.errors import Collector, DeckgenError, did_you_mean, error
from deckgen.units import parse_length, parse_size


@dataclass(frozen=True)
class Paper:
    id: str
    name: str
    width_mm: float
    height_mm: float
    margin_mm: float = 5.0      # what the printer cannot print near the edge; crop marks stay inside it

    @property
    def size_mm(self) -> tuple[float, float]:
        return self.width_mm, self.height_mm

    def describe(self) -> str:
        """The paper's name and size; a custom size (whose name is its size) said once."""
        if self.id == "custom":
            return self.name
        return f"{self.name} ({self.width_mm:g} × {self.height_mm:g} mm)"


DEFAULT_MARGIN = 5.0


def _same_size(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 0.05 and abs(a[1] - b[1]) < 0.05


def load_papers(path: Path | None = None, *, base: Path | None = None) -> dict[str, Paper]:
    """Every paper preset, validated, all problems reported at once: the bundled, user and (with
    ``base``) the manifest folder's (see :mod:`deckgen.presets`), or only those of ``path``."""
    if path is not None:
        return dict(preset_files.load_file(PAPERS, Path(path)))
    return preset_files.catalogue(PAPERS, base).values()


def _load(path: str) -> tuple[tuple[str, Paper], ...]:
    data = read_toml(Path(path))
    out = Collector(file=path)
    papers = []
    for pid, raw in data.items():
        if not isinstance(raw, dict):
            out.error("paper", pid, "expected a table such as [a4] with a size key")
            continue
        unknown = sorted(set(raw) - {"name", "size", "margin"})
        for key in unknown:
            out.error("unknown-key", f"{pid}.{key}", f"unknown key '{key}'", hint="accepted keys: name, size, margin")
        margin = DEFAULT_MARGIN
        if "margin" in raw:
            try:
                margin = parse_length(str(raw["margin"]), f"{pid}.margin")
            except DeckgenError as exc:
                out.findings.extend(dataclasses.replace(f, file=path) for f in exc.findings)
                continue
        size = raw.get("size")
        if not isinstance(size, str):
            out.error("paper", f"{pid}.size", "expected a size string such as \"210mm x 297mm\"")
            continue
        try:
            w, h = parse_size(size, f"{pid}.size")
        except DeckgenError as exc:
            out.findings.extend(dataclasses.replace(f, file=path) for f in exc.findings)
            continue
        if w <= 0 or h <= 0:
            out.error("paper", f"{pid}.size", "width and height must be above zero")
            continue
        papers.append((pid, Paper(pid, str(raw.get("name", pid)), w, h, margin)))
    if out.errors:
        raise DeckgenError(out.findings)
    return tuple(papers)


PAPERS: preset_files.PresetFile[Paper] = preset_files.PresetFile("paper", "papers.toml", _load)


def parse_paper(text: str | Paper, where: str = "--paper", *, base: Path | None = None) -> Paper:
    """``a4``, ``Letter``, ``200mmx280mm`` or ``200x280`` (mm) -> Paper. Raises DeckgenError with a hint.

    ``base``: the manifest's folder, whose own ``papers.toml`` is read too.
    """
    if isinstance(text, Paper):
        return text
    presets = load_papers(base=base)
    key = str(text).strip().lower()
    if key in presets:
        return presets[key]
    if any(ch.isdigit() for ch in key) and any(sep in key for sep in "x×,"):
        w, h = parse_size(text, where)
        if w <= 0 or h <= 0:
            raise DeckgenError(error("paper", where, f"'{text}' has no area", hint="e.g. 210mmx297mm"))
        # a preset's size in either orientation keeps the preset's margin (11inx8.5in: Letter's 1/4 in)
        same = [p for p in presets.values() if _same_size((w, h), p.size_mm) or _same_size((h, w), p.size_mm)]
        margin = same[0].margin_mm if same else DEFAULT_MARGIN
        return Paper("custom", f"{w:g} × {h:g} mm", w, h, margin)
    hint = did_you_mean(key, presets) or ("presets: " + ", ".join(presets) + "; or WIDTHxHEIGHT such as 210x297 (mm)")
    raise DeckgenError(error("paper", where, f"unknown paper '{text}'", hint=hint))
