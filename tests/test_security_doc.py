"""docs/security.md names, for each promise, the tests that hold it: every one of them exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITED = re.compile(r"`(tests/test_[a-z0-9_]+\.py)::(test_[a-z0-9_]+)`")


def test_every_test_the_security_page_names_exists():
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    cited = CITED.findall(text)
    assert len(cited) > 100
    missing = [f"{file}::{name}" for file, name in cited
               if not re.search(rf"^def {name}\(", (ROOT / file).read_text(encoding="utf-8"), re.M)]
    assert not missing, missing


def test_every_promise_names_its_tests():
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    promises = re.split(r"^## \d\. ", text, flags=re.M)[1:]
    assert len(promises) == 7
    for promise in promises:
        assert CITED.search(promise), promise.splitlines()[0]
