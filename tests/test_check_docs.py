"""docs/checks.md lists every finding code `deckgen check` can report."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the modules whose findings reach `deckgen check` (reading the manifest, the static checks, the
# stages' checks, the verdict)
SOURCES = ["check.py", "verdict.py", "claims.py", "glyphs.py", "rules/checks.py", "rules/effect_checks.py",
           "manifest/*.py", "palette.py", "render/checks.py", "render/look.py", "rulebook/text.py",
           "rulebook/env.py", "rulebook/context.py", "rulebook/__init__.py", "presets.py", "datafile.py",
           "images.py", "fonts.py"]
CODE = re.compile(r"""(?:\b(?:error|warning|note)\(\s*|code=|kind = |kind, hint, msg = )"([a-z][a-z0-9-]+)\"""")


def emitted() -> set[str]:
    found: set[str] = set()
    for pattern in SOURCES:
        for path in sorted((ROOT / "deckgen").glob(pattern)):
            found |= set(CODE.findall(path.read_text(encoding="utf-8")))
    for name in ("games-too-short", "games-too-long"):      # made from a table in verdict.py
        assert f'"{name}"' in (ROOT / "deckgen" / "verdict.py").read_text(encoding="utf-8")
        found.add(name)
    return found


def test_every_finding_code_is_documented():
    doc = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z][a-z0-9-]+)`", doc))
    codes = emitted()
    assert {"does-not-finish", "unfair-seat", "missing-glyph", "label-contradicts-effect", "language"} <= codes
    assert codes - documented == set()
