"""Watch mode (``deckgen preview DECK --watch``, ``deckgen build DECK --watch``): the edit -> look loop.

A :class:`Watcher` rebuilds a deck whenever one of the files it is made from changes (the
manifest, its palette file, the artwork and fonts it names, its rulebook templates:
:func:`deckgen.inputs.deck_files`; the layout files its faces and back are drawn from and the
``layouts/`` folders that could replace them: :func:`deckgen.render.layout.layout_files`), and
shows the result on a local page served on 127.0.0.1 only (:mod:`deckgen.localserver`: Host
guard, idle timeout, connection cap). Faces come through the face cache, so a rebuild draws only
the faces whose content changed, and the contact sheet re-shrinks only those.

A rebuild has two phases. The first is quick: the static checks, then the contact sheet
(preview) or every output of ``deckgen build``; the page shows it at once. The second runs
``deckgen check``'s simulated games and adds their findings; it is abandoned as soon as
another change arrives. The page polls ``/state.json`` and redraws itself when the version
changes. Files are watched with watchfiles (the OS's change notifications).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckgen import outputs
from deckgen.errors import DeckgenError, DeckHasErrors, Finding, error
from deckgen.localserver import HOST, LocalHandler, LocalServer
from deckgen.model import Deck, Palette

if TYPE_CHECKING:
    from deckgen.render import RenderSettings

DEFAULT_PORT = 8765
_IGNORED_SUFFIXES = (".swp", ".swx", ".tmp", "~")


@dataclass(frozen=True)
class WatchOptions:
    mode: str = "preview"                          # "preview" or "build"
    settings: Any = None                           # RenderSettings of the preview (default: 100 dpi)
    sheet_path: Path | None = None                 # preview: the PNG written on every rebuild (<deck id>-preview.png)
    build: Any = None                              # BuildOptions (build mode)
    palette: Callable[[], Palette | None] | None = None   # re-read on every rebuild (--palette/--color)
    simulate: bool = True                          # second phase: the simulated games of `check`
    port: int = DEFAULT_PORT                       # 0: any free port
    use_cache: bool = True
    only: str | None = None                        # --only: just those cards (preview; build has its own)
    lang: str | None = None                        # --lang: the faces' words in this language (preview)


@dataclass
class State:
    """What the page shows; every change bumps ``version``."""

    version: int = 0
    status: str = "starting"       # starting | building | ok | errors | unreadable
    phase: str = ""                # "" or "simulating"
    deck: str = ""
    title: str = ""
    message: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    outputs: list[dict[str, Any]] = field(default_factory=list)
    faces: int = 0
    drawn: int = 0
    seconds: float = 0.0
    rebuilds: int = 0
    updated: str = ""
    progress: dict[str, Any] | None = None
    sheet_version: int = 0
    stale: bool = False            # the sheet is from an earlier, good build
    watching: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


class _Interrupted(Exception):
    """A newer change arrived: the running phase is abandoned."""


def _finding_json(f: Finding) -> dict[str, Any]:
    data = f.to_json()
    data["severity"] = f.severity
    data["text"] = f.format()
    return data


class Watcher:
    def __init__(self, ref: str | Path, options: WatchOptions = WatchOptions(),
                 log: Callable[[str], None] | None = None):
        from deckgen.render import RenderSettings

        self.ref = ref
        self.options = options
        if options.settings is None:
            self.options = replace(options, settings=RenderSettings(dpi=100))
        self.log = log or (lambda _msg: None)
        self.state = State()
        self.sheet: bytes | None = None
        self.lock = threading.Lock()
        self.pending = threading.Event()      # a watched file changed since the last rebuild began
        self._shown = 0.0
        self._thumbs: dict[Any, Any] = {}
        self._paths: list[Path] = []
        self._signature: dict[str, tuple[int, int]] = {}

    # ------------------------------------------------------------------ state

    def publish(self, **changes: Any) -> None:
        with self.lock:
            for k, v in changes.items():
                setattr(self.state, k, v)
            self.state.version += 1

    def snapshot(self) -> tuple[dict[str, Any], bytes | None]:
        with self.lock:
            return dict(self.state.to_json()), self.sheet

    def _progress(self, label: str, done: int, total: int) -> None:
        if self.pending.is_set() and self.state.phase == "simulating":
            raise _Interrupted()
        now = time.monotonic()
        with self.lock:
            self.state.progress = {"label": label, "done": done, "total": total}
            if now - self._shown >= 0.5 or done >= total:     # the page shows progress twice a second
                self.state.version += 1
                self._shown = now

    # ------------------------------------------------------------------ what is watched

    def manifest_path(self) -> Path | None:
        from deckgen import manifest

        try:
            return Path(manifest.find_deck(self.ref)).resolve()
        except DeckgenError:
            path = Path(self.ref)
            return path.resolve() if path.suffix == ".toml" else None

    def inputs(self) -> list[Path]:
        """The files and folders the last rebuild read (the manifest at least)."""
        paths = list(self._paths)
        manifest_file = self.manifest_path()
        if manifest_file is not None and manifest_file not in paths:
            paths.insert(0, manifest_file)
        return paths

    def _watch_dirs(self) -> list[Path]:
        """Folders to subscribe to (not recursive): each file's folder, each named folder and its sub-folders."""
        dirs: dict[Path, None] = {}
        for p in self.inputs():
            if p.is_dir():
                dirs[p] = None
                for sub in sorted(p.rglob("*")):
                    if sub.is_dir() and not sub.name.startswith("."):
                        dirs[sub] = None
            else:
                parent = p.parent
                while not parent.is_dir() and parent != parent.parent:
                    parent = parent.parent
                dirs[parent] = None
        return list(dirs)

    def relevant(self, path: str) -> bool:
        """Whether a changed path is one of the deck's inputs (not an output or an editor's temp file)."""
        p = Path(path)
        if p.name.startswith(".") or p.name.endswith(_IGNORED_SUFFIXES) or p.name == "4913":
            return False
        return any(p == i or (i.is_dir() and i in p.parents) for i in self.inputs())

    def _file_signature(self) -> dict[str, tuple[int, int]]:
        """Modification time and size of every input file, to notice changes made while not watching."""
        out: dict[str, tuple[int, int]] = {}
        for p in self.inputs():
            files = [f for f in p.rglob("*") if f.is_file()] if p.is_dir() else [p]
            out.update((str(f), _stat(f)) for f in files)
        return out

    # ------------------------------------------------------------------ rebuilding

    def rebuild(self) -> None:
        """Phase one: static checks and the sheet (and the build's files); the page updates at once."""
        self.pending.clear()
        self._signature = self._file_signature()
        start = time.perf_counter()
        self.publish(status="building", phase="", progress=None)
        try:
            if self.options.mode == "build":
                deck, findings, extra = self._build()
            else:
                deck, findings, extra = self._preview()
        except DeckgenError as exc:
            self._failed(exc.findings, time.perf_counter() - start, unreadable=exc.exit_code != 1)
            return
        except Exception as exc:  # a bug must not end the watch: show it, keep watching
            import traceback

            self.log(traceback.format_exc())
            self._failed([error("internal", "watch", f"{type(exc).__name__}: {exc}",
                                hint="this is a deckgen bug; the terminal shows the details")],
                         time.perf_counter() - start, unreadable=True)
            return
        from deckgen.inputs import deck_files
        from deckgen.render.layout import layout_files

        self._paths = list(dict.fromkeys([*deck_files(deck), *layout_files(deck)]))   # its own layout files too
        seconds = time.perf_counter() - start
        errors = sum(1 for f in findings if f.is_error)
        changes = {"stale": False, "deck": deck.id, "title": deck.name(), **extra}
        self.publish(status="errors" if errors else "ok", findings=[_finding_json(f) for f in findings],
                     seconds=round(seconds, 3), rebuilds=self.state.rebuilds + 1, updated=time.strftime("%H:%M:%S"),
                     progress=None, watching=[str(p) for p in self.inputs()], **changes)
        self.log(f"{time.strftime('%H:%M:%S')} rebuilt {deck.id} in {seconds:.2f} s: "
                 f"{extra.get('drawn', 0)} of {extra.get('faces', 0)} faces drawn, "
                 f"{errors} error(s), {len(findings) - errors} warning(s)")

    def _failed(self, findings: list[Finding], seconds: float, unreadable: bool) -> None:
        self.publish(status="unreadable" if unreadable else "errors", findings=[_finding_json(f) for f in findings],
                     seconds=round(seconds, 3), stale=self.sheet is not None, rebuilds=self.state.rebuilds + 1,
                     updated=time.strftime("%H:%M:%S"), progress=None, watching=[str(p) for p in self.inputs()],
                     message="not rebuilt: " + (findings[0].message if findings else "unusable input"))
        self.log(f"{time.strftime('%H:%M:%S')} not rebuilt ({len(findings)} problem(s)); still watching")
        for f in findings:
            self.log("  " + f.format())

    def _palette(self) -> Palette | None:
        return self.options.palette() if self.options.palette else None

    def _sheet(self, deck: Deck, settings: RenderSettings) -> None:
        from deckgen.render.sheet import contact_sheet

        if self.options.mode == "build":
            target = _scratch_sheet()          # the build's files are the outputs; the sheet is for the page
        else:
            target = self.options.sheet_path or outputs.preview_png(deck.id)
        contact_sheet(deck, settings, target, self._progress, use_cache=self.options.use_cache, compress_level=1,
                      thumbs=self._thumbs)
        data = Path(target).read_bytes()
        with self.lock:
            self.sheet = data
            self.state.sheet_version = self.state.version + 1

    def _preview(self) -> tuple[Deck, list[Finding], dict[str, Any]]:
        from deckgen.check import check
        from deckgen.render.batch import render_all
        from deckgen.stages import CheckOptions

        report = check(self.ref, CheckOptions(simulate=False, palette=self._palette()))
        deck = report.deck
        if deck is None:            # the manifest itself has errors (a deck with other errors still previews)
            raise DeckHasErrors(report.findings)
        if self.options.only:
            from deckgen.selection import select

            deck = select(deck, self.options.only)
        if self.options.lang:
            from deckgen.render.faces import in_language

            deck = in_language(deck, self.options.lang)
        settings = self.options.settings
        rendered = render_all(deck, settings, None, use_cache=self.options.use_cache, progress=self._progress)
        self._sheet(deck, settings)
        sheet = str(self.options.sheet_path or outputs.preview_png(deck.id))
        return deck, report.findings, {"drawn": rendered.drawn, "faces": len(rendered.paths),
                                       "outputs": [{"kind": "contact sheet", "path": sheet}],
                                       "message": f"{deck.total} cards"}

    def _build(self) -> tuple[Deck, list[Finding], dict[str, Any]]:
        from deckgen.build import build_deck
        from deckgen.render import RenderSettings

        opts = replace(self.options.build, palette=self._palette(), use_cache=self.options.use_cache,
                       verdict=False)        # the simulated games are phase two
        result = build_deck(self.ref, opts, self._progress)
        deck = result.deck
        assert deck is not None
        settings = RenderSettings(dpi=opts.dpi, bleed_mm=opts.bleed_mm, card_size=opts.card_size)
        self._sheet(deck, settings)
        outputs = [{"kind": o.kind, "path": str(o.path), "pages": o.pages, "bytes": o.size_bytes} for o in result.outputs]
        return deck, result.errors + result.warnings, {"drawn": result.drawn, "faces": result.faces, "outputs": outputs,
                                                     "message": f"{result.cards} cards, {result.pages} pages"}

    def simulate(self) -> None:
        """Phase two: the full ``check`` with simulated games; abandoned when another change arrives."""
        from deckgen.check import check
        from deckgen.stages import CheckOptions

        if not self.options.simulate or self.state.status not in ("ok", "errors") or not self.state.deck:
            return
        self.publish(phase="simulating")
        try:
            report = check(self.ref, CheckOptions(simulate=True, palette=self._palette(), progress=self._progress))
        except _Interrupted:
            self.publish(phase="", progress=None)
            return
        except DeckgenError as exc:
            self._failed(exc.findings, 0.0, unreadable=True)
            return
        findings = report.findings
        if self.options.mode == "build":       # keep the build's own notes (layout, rulebook)
            extra = [f for f in self.state.findings if f.get("code") in ("layout",)]
        else:
            extra = []
        self.publish(phase="", progress=None, status="errors" if report.errors else "ok",
                     findings=[_finding_json(f) for f in findings] + extra)
        self.log(f"{time.strftime('%H:%M:%S')} simulated games: {len(report.errors)} error(s), "
                 f"{len(report.warnings)} warning(s)")

    # ------------------------------------------------------------------ the loop

    def _watch_thread(self, stop: threading.Event) -> threading.Thread:
        import watchfiles

        dirs = [str(d) for d in self._watch_dirs()]

        def run() -> None:
            for _changes in watchfiles.watch(*dirs, watch_filter=lambda _c, p: self.relevant(p), stop_event=stop,
                                            recursive=False, debounce=400, step=50, raise_interrupt=False):
                self.pending.set()

        thread = threading.Thread(target=run, name="deckgen-watch-files", daemon=True)
        thread.start()
        return thread

    def run(self, stop: threading.Event) -> None:
        """Rebuild now, then on every change, until ``stop`` is set."""
        self.rebuild()
        simulated = False
        watched: list[Path] = []
        watch_stop = threading.Event()
        thread = None
        while not stop.is_set():
            if self.inputs() != watched or thread is None or not thread.is_alive():
                watch_stop.set()
                if thread is not None:
                    thread.join(timeout=5)
                watch_stop = threading.Event()
                watched = self.inputs()
                thread = self._watch_thread(watch_stop)
                now = self._file_signature()
                if any(now.get(k) != v for k, v in self._signature.items()):   # changed while not watched
                    self.pending.set()
            if not self.pending.is_set() and not simulated:
                self.simulate()
                simulated = True
            while not stop.is_set() and not self.pending.wait(0.2):
                if not thread.is_alive():        # a watched folder went away: subscribe again
                    break
            if stop.is_set():
                break
            if not self.pending.is_set():
                stop.wait(0.5)
                continue
            time.sleep(0.05)
            self.rebuild()
            simulated = False
        watch_stop.set()
        if thread is not None:
            thread.join(timeout=5)


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, -1)
    return (st.st_mtime_ns, st.st_size)


def _scratch_sheet() -> Path:
    import tempfile

    global _SCRATCH
    if _SCRATCH is None:
        _SCRATCH = tempfile.TemporaryDirectory(prefix="deckgen-watch-")
    return Path(_SCRATCH.name) / "sheet.png"


_SCRATCH: Any = None


# ---------------------------------------------------------------------- the page

class _Handler(LocalHandler):
    """The page, its state and its sheet; the Host guard, timeouts and the connection cap are LocalServer's."""

    watcher: Watcher

    def do_GET(self) -> None:
        route = self.path.split("?", 1)[0]
        state, sheet = self.watcher.snapshot()
        if route == "/":
            self.send(200, PAGE.encode("utf-8"), "text/html; charset=utf-8")
        elif route == "/state.json":
            self.send(200, json.dumps(state, ensure_ascii=False).encode("utf-8"), "application/json")
        elif route == "/sheet.png" and sheet is not None:
            self.send(200, sheet, "image/png")
        else:
            self.send(404, b"not found", "text/plain")


def serve(watcher: Watcher, port: int = DEFAULT_PORT) -> tuple[LocalServer, str]:
    """Start the page's server on 127.0.0.1 in a thread; returns the server and its address."""
    handler = type("Handler", (_Handler,), {"watcher": watcher})
    server = LocalServer(handler, port, code="watch").start()
    return server, server.url


def watch(ref: str | Path, options: WatchOptions, stop: threading.Event | None = None,
          log: Callable[[str], None] | None = None, on_ready: Callable[[str], None] | None = None) -> None:
    """Serve the page and rebuild on every change until ``stop`` is set (or Ctrl-C)."""
    watcher = Watcher(ref, options, log)
    server, url = serve(watcher, options.port)
    if on_ready:
        on_ready(url)
    try:
        watcher.run(stop or threading.Event())
    finally:
        server.stop()


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>deckgen watch</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #ecece8; color: #1e1e1e; }
header { position: sticky; top: 0; background: #1e1e1e; color: #fff; padding: 10px 16px; display: flex;
         gap: 14px; align-items: baseline; flex-wrap: wrap; z-index: 1; }
header h1 { font-size: 18px; margin: 0; }
.badge { padding: 2px 9px; border-radius: 10px; font-weight: 600; font-size: 13px; }
.ok { background: #2e7d32; } .errors, .unreadable { background: #c62828; }
.building, .starting { background: #f9a825; color: #000; }
.gone { background: #616161; }
#summary { color: #ddd; font-size: 13px; }
main { padding: 12px 16px; }
#findings { list-style: none; padding: 0; margin: 0 0 12px; }
#findings li { padding: 6px 10px; margin: 4px 0; border-radius: 4px; background: #fff; border-left: 5px solid #f9a825; }
#findings li.error { border-left-color: #c62828; }
#findings .code { font-weight: 600; } #findings .where { color: #555; font-family: monospace; }
#findings .hint { color: #555; }
#none { color: #2e7d32; margin: 0 0 12px; }
#outputs { font-family: monospace; font-size: 13px; margin: 0 0 12px; padding-left: 18px; }
#sheet { max-width: 100%; display: block; border: 1px solid #ccc; }
.stale #sheet { opacity: 0.45; }
</style></head>
<body data-version="-1">
<header><h1 id="title">deckgen</h1><span id="status" class="badge starting">starting</span>
<span id="summary"></span></header>
<main>
<p id="message"></p>
<ul id="findings"></ul><p id="none" hidden>No errors, no warnings.</p>
<ul id="outputs"></ul>
<img id="sheet" alt="contact sheet">
</main>
<script>
"use strict";
window.deckgenLoadedAt = Date.now();
let shown = -1, sheetShown = -1;
const $ = (id) => document.getElementById(id);
function text(tag, cls, value) { const e = document.createElement(tag); e.className = cls; e.textContent = value; return e; }
function render(s) {
  const mark = s.status === "ok" ? "✓ " : s.status === "building" ? "… " : "✗ ";
  document.title = mark + (s.title || "deckgen") + " · deckgen watch";
  $("title").textContent = s.title || s.deck || "deckgen";
  const st = $("status");
  st.className = "badge " + s.status;
  st.textContent = s.status + (s.phase ? " · " + s.phase : "") +
    (s.progress && s.progress.total > 1 ? " " + Math.round(100 * s.progress.done / s.progress.total) + "%" : "");
  const errs = s.findings.filter(f => f.severity === "error").length;
  $("summary").textContent = s.updated ? "rebuild " + s.rebuilds + " at " + s.updated + " in " +
    s.seconds.toFixed(2) + " s · " + s.drawn + " of " + s.faces + " faces drawn · " + errs + " error(s), " +
    (s.findings.length - errs) + " warning(s)" : "";
  $("message").textContent = s.message || "";
  const list = $("findings");
  list.replaceChildren();
  for (const f of s.findings) {
    const li = document.createElement("li");
    li.className = f.severity;
    li.dataset.code = f.code;
    li.append(text("span", "code", f.severity + " [" + f.code + "] "));
    const loc = [f.file ? f.file + (f.line ? ":" + f.line : "") : "", f.where].filter(Boolean).join(": ");
    if (loc) li.append(text("span", "where", loc + ": "));
    li.append(text("span", "message", f.message));
    if (f.hint) li.append(text("span", "hint", " (" + f.hint + ")"));
    list.append(li);
  }
  $("none").hidden = s.findings.length > 0 || s.status === "building";
  const outs = $("outputs");
  outs.replaceChildren(...s.outputs.filter(o => o.path).map(o => text("li", "", o.kind + ": " + o.path +
    (o.pages ? " (" + o.pages + " pages)" : ""))));
  document.body.classList.toggle("stale", !!s.stale);
  if (s.sheet_version !== sheetShown && s.sheet_version > 0) {
    $("sheet").src = "/sheet.png?v=" + s.sheet_version;
    sheetShown = s.sheet_version;
  }
  document.body.dataset.version = s.version;
  document.body.dataset.status = s.status;
}
async function poll() {
  try {
    const r = await fetch("/state.json", {cache: "no-store"});
    const s = await r.json();
    if (s.version !== shown) { render(s); shown = s.version; }
  } catch (e) {
    $("status").className = "badge gone";
    $("status").textContent = "watch stopped";
  }
  setTimeout(poll, 400);
}
poll();
</script>
</body></html>
"""

__all__ = ["DEFAULT_PORT", "HOST", "PAGE", "State", "WatchOptions", "Watcher", "serve", "watch"]
