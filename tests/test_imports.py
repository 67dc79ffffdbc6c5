"""What a build imports before its workers start is time no core can share: the heavy libraries
only some steps need stay out of it (benchmarks/build.py measures the whole build)."""

import json
import subprocess
import sys


def test_starting_a_build_does_not_import_libraries_only_some_steps_need():
    code = ("import json, sys, deckgen.cli, deckgen.build, deckgen.render.batch, deckgen.render.draw, "
            "deckgen.rulebook.pdf, deckgen.workers; "
            "print(json.dumps(sorted(m for m in ('coloraide', 'pypdf', 'urllib.request', 'http.client') "
            "if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []
