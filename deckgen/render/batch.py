"""Rendering a whole deck: each distinct face once, on every core, through a content-hash cache.

The cache key of a face is a hash of what the face shows (its :class:`FaceSpec`, which names
its fonts and images by content digest), the pixel frame (card size, DPI, bleed, safe zone),
the Pillow version and the renderer version; a face is drawn again only when one of these
changes. Cache files and output files are written atomically. The cache folder, its cap and its
upkeep are :mod:`deckgen.cache`'s; without the cache (``use_cache=False``) faces are drawn into a
temporary folder that lives as long as the :class:`RenderResult`, and the cache folder is never
touched.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import PIL

from deckgen import cache
from deckgen.atomic import copy_file, write_bytes
from deckgen.errors import DeckgenError, error
from deckgen.memo import IdentityMemo
from deckgen.model import Deck
from deckgen.render import pngfile
from deckgen.render.faces import FaceSpec, face_ids, face_spec
from deckgen.render.geometry import Frame
from deckgen.render.settings import RENDERER_VERSION, RenderResult, RenderSettings, settings_check

if TYPE_CHECKING:
    import tempfile

    from PIL import Image

    from deckgen.progress import Progress

PARALLEL_MIN = 6      # below this many faces to draw, one process is faster than starting workers


cache_root = cache.cache_root


def face_key(spec: FaceSpec, frame: Frame, corner_guide: bool) -> str:
    # the spec's repr holds the content digests of its fonts and images
    text = "|".join([RENDERER_VERSION, pngfile.FORMAT, PIL.__version__, repr(frame), str(corner_guide),
                     spec_repr(spec)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_SPEC_REPRS: IdentityMemo[str] = IdentityMemo(4096)


def spec_repr(spec: FaceSpec) -> str:
    """``repr(spec)``, worked out once per spec: the faces' cache keys and the fit check's key both
    hash every spec of a deck."""
    return _SPEC_REPRS.get(spec, lambda: repr(spec))


def png_text(face_id: str, frame: Frame) -> dict[str, str]:
    """Text chunks recording what the PNG is (no time chunks: output stays byte-identical)."""
    w, h = frame.trim_mm
    full_w, full_h = w + 2 * frame.bleed_mm, h + 2 * frame.bleed_mm
    return {
        "Software": "deckgen",
        "deckgen:face": face_id,
        "deckgen:dpi": str(frame.dpi),
        "deckgen:trim_mm": f"{w:g}x{h:g}",
        "deckgen:bleed_mm": f"{frame.bleed_mm:g}",
        "deckgen:safe_mm": f"{frame.safe_mm:g}",
        "deckgen:size_mm": f"{full_w:g}x{full_h:g}",
    }


@dataclass(frozen=True)
class FaceCheck:
    """Whether a cached face PNG is whole (every chunk's CRC-32 right, IEND last) and is the face
    it is filed as (its text chunks, :func:`png_text`, as :func:`pngfile.encode` wrote them): the
    render cache's check of a face, in place of a checksum file (:func:`deckgen.cache.verified`)."""

    text: tuple[tuple[str, str], ...]

    @staticmethod
    def of(face_id: str, frame: Frame) -> FaceCheck:
        return FaceCheck(tuple(sorted(pngfile.as_written(png_text(face_id, frame)).items())))

    def __call__(self, data: bytes) -> bool:
        text = pngfile.whole_text(data)
        return text is not None and tuple(sorted(text.items())) == self.text


SPILL_REASON = ".reason"
_spill: tempfile.TemporaryDirectory[str] | None = None


def spill_folder() -> str:
    """This process's folder for faces a full cache could not take; one for all its decks (they
    share faces), made before workers need it and removed when the process ends."""
    global _spill
    if _spill is None:
        import tempfile

        _spill = tempfile.TemporaryDirectory(prefix="deckgen-spill-")
    return _spill.name


def write_png(img: Image.Image, path: Path, face_id: str, frame: Frame, compress_level: int = pngfile.FACE_LEVEL,
              spill: str | None = None) -> None:
    """Encode a face (DPI and physical size recorded) and save it atomically, with the checksum a
    later build verifies it by. With ``spill`` (a cache face): when the cache cannot take it (full,
    or no longer writable), the face goes into that folder instead and the build goes on
    (:func:`settle` then points at it and warns once)."""
    data = pngfile.encode(img, frame.dpi, png_text(face_id, frame), compress_level)
    if spill is None:
        cache.store(Path(path), data, checksum=False)       # a PNG carries its own (FaceCheck)
        return
    try:
        cache.store(Path(path), data, checksum=False)
    except (OSError, DeckgenError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else exc.findings[0].message
        write_bytes(Path(spill) / Path(path).name, data)
        write_bytes(Path(spill) / SPILL_REASON, str(why or exc).encode("utf-8", "replace"))    # the latest


class FaceJob(NamedTuple):
    """One face to draw and where its PNG goes."""

    spec: FaceSpec
    frame: Frame
    corner_guide: bool
    path: str
    spill: str | None           # where it goes when the cache cannot take it (see write_png)

    def draw(self) -> str:
        """Draw the face and write it (in a worker process, or here)."""
        from deckgen.render.draw import draw_face

        write_png(draw_face(self.spec, self.frame, self.corner_guide), Path(self.path), self.spec.face_id, self.frame,
                  spill=self.spill)
        return self.spec.face_id

    def images(self) -> tuple[object, ...]:
        """The images the face shows (faces showing the same ones are drawn together)."""
        return (self.spec.art, self.spec.icon, self.spec.back_image, self.spec.logo)


def draw_group(group: list[FaceJob]) -> int:
    """Worker: draw faces that share their images (each image is then rendered once)."""
    for job in group:
        job.draw()
    return len(group)


def groups(jobs_list: list[FaceJob]) -> list[list[FaceJob]]:
    """Faces grouped by the images they show (art, icon, back image, logo), costliest group first
    (a face counts 1, each image to render 4); faces without images stay one per group."""
    by_images: dict[object, list[FaceJob]] = {}
    for i, job in enumerate(jobs_list):
        key = job.images()
        by_images.setdefault(key if any(key) else i, []).append(job)

    def cost(group: list[FaceJob]) -> int:
        return len(group) + 4 * sum(x is not None for x in group[0].images())

    return sorted(by_images.values(), key=cost, reverse=True)


def _run(jobs_list: list[FaceJob], jobs: int | None, progress: Progress | None) -> None:
    """Draw the faces on up to ``jobs`` worker processes (:mod:`deckgen.workers`), in this process
    when there are only a few."""
    from deckgen.workers import Workers

    total = len(jobs_list)
    n_proc = 1 if total < PARALLEL_MIN else min(jobs or os.cpu_count() or 1, total)
    if n_proc > 1:
        from deckgen.render import draw  # noqa: F401  (imported once here: forked workers inherit it)
    done = 0
    with Workers(n_proc) as pool:
        for i, group in enumerate(groups(jobs_list)):
            pool.submit(i, draw_group, (group,))
        while pool.pending:
            done += pool.wait()[1]
            if progress:
                progress("Rendering faces", done, total)


@dataclass
class FacePlan:
    """What rendering a deck's faces takes: where every face is (or will be), and the faces still
    to draw (``todo``, grouped by :func:`groups`). The result holds the scratch folder when the
    cache is off."""

    result: RenderResult
    todo: list[FaceJob] = field(default_factory=list)
    root: Path = Path()
    spill: Path | None = None      # where faces go that the cache could not take (see write_png)


def settle(plan: FacePlan) -> RenderResult:
    """The plan's result once its faces are drawn: a face the cache could not take is read from
    the spill folder instead, with one warning for the whole run."""
    if plan.spill is None:
        return plan.result
    try:
        spilled = {name for name in os.listdir(plan.spill) if name != SPILL_REASON}
        why = (plan.spill / SPILL_REASON).read_text("utf-8", "replace") if spilled else ""
    except OSError:
        return plan.result
    moved = {p.name for p in plan.result.paths.values() if p.name in spilled and not p.exists()}
    if not moved:       # (a face kept out in an earlier run of this process may be in the cache now)
        return plan.result
    paths = {fid: plan.spill / p.name if p.name in moved else p for fid, p in plan.result.paths.items()}
    cache._warn_once(f"write:{plan.root.parent}", f"cannot write to the render cache at {plan.root} ({why}): "
                     "faces are kept outside it; the build goes on "
                     f"(free some space, or set {cache.ENV_DIR} to a writable folder)")
    return replace(plan.result, paths=paths)


_SPECS: IdentityMemo[dict[str, FaceSpec]] = IdentityMemo(8)


def face_specs(deck: Deck, symbols: bool) -> dict[str, FaceSpec]:
    """Every distinct face's spec, in face order; remembered for the last few decks (a deck is
    frozen), so the check's fit test and the build's faces work them out once."""
    return _SPECS.get(deck, lambda: {fid: face_spec(deck, fid, symbols) for fid in face_ids(deck)}, tag=symbols)


def plan_faces(deck: Deck, settings: RenderSettings, *, use_cache: bool = True, cache_dir: Path | None = None,
               verify: bool = True) -> FacePlan:
    """Every distinct face's file (in the cache, or a scratch folder without it) and the ones not
    drawn yet; nothing is drawn here. ``verify=False`` (with the cache) only names the files:
    none is read, touched or drawn (a build whose card sheets come from the cache needs no face)."""
    settings_check(settings)
    frame = settings.frame(deck)
    symbols = settings.symbols_on(deck)
    scratch = None
    if use_cache and verify and not cache.usable(cache.cache_root(cache_dir) / "faces"):
        use_cache = False                  # an unusable cache is skipped (one warning): drawn into a scratch folder
    if use_cache:
        root = cache.cache_root(cache_dir) / "faces"
    else:
        import tempfile

        scratch = tempfile.TemporaryDirectory(prefix="deckgen-faces-")
        root = Path(scratch.name)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DeckgenError(error("cache", "cache", f"cannot create the render cache at {root}: {exc.strerror}",
                                 hint="set DECKGEN_CACHE to a writable folder, or use --no-cache")) from None
    cached: dict[str, Path] = {}
    todo = []
    spill = spill_folder() if use_cache and verify else None
    for fid, spec in face_specs(deck, symbols).items():
        key = face_key(spec, frame, settings.corner_guide)
        path = root / key[:2] / f"{key}.png"
        cached[fid] = path
        if use_cache and not verify:
            continue
        if use_cache and cache.verified(path, FaceCheck.of(spec.face_id, frame)):   # whole, this face, owner; else drawn again
            cache.touch(path)
        else:
            todo.append(FaceJob(spec, frame, settings.corner_guide, str(path), spill))
    result = RenderResult(cached, frame.full, frame.trim_mm, frame.bleed_mm, frame.dpi, len(todo), scratch)
    return FacePlan(result, todo, root, Path(spill) if spill else None)


def cache_write_error(root: Path, exc: OSError) -> DeckgenError:
    return DeckgenError(error("cache", "cache", f"cannot write to the render cache {root}: {exc.strerror}",
                              hint="free some space or set DECKGEN_CACHE to a writable folder"))


def render_all(deck: Deck, settings: RenderSettings, out_dir: Path | None, *, use_cache: bool = True,
               cache_dir: Path | None = None, progress: Progress | None = None, jobs: int | None = None) -> RenderResult:
    plan = plan_faces(deck, settings, use_cache=use_cache, cache_dir=cache_dir)
    todo = plan.todo
    if progress and not todo:
        progress("Rendering faces", 1, 1)
    try:
        _run(todo, jobs, progress)
    except OSError as exc:
        raise cache_write_error(plan.root, exc) from None
    if use_cache and todo:
        cache.note_added(len(todo))
        cache.auto_prune(cache_dir)
    result = settle(plan)
    cached = result.paths
    if out_dir is None:
        return result
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DeckgenError(error("output", "-o", f"cannot create the folder {out_dir}: {exc.strerror}")) from None
    paths = {fid: out_dir / f"{fid}.png" for fid in cached}
    try:
        for fid, src in cached.items():
            copy_file(src, paths[fid])
    except OSError as exc:
        raise DeckgenError(error("output", "-o", f"cannot write into {out_dir}: {exc.strerror}")) from None
    return replace(result, paths=paths)
