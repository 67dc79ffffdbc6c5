"""`--json`: every command's output, and every failure, is one JSON object on stdout with the same
findings and exit code as the text."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckgen.cli import main


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def one_object(result):
    """stdout holds exactly one JSON object and nothing else."""
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


COMMANDS = {
    "check": lambda deck, tmp: ["check", deck, "--no-sim"],
    "render": lambda deck, tmp: ["render", deck, "-o", tmp / "faces"],
    "preview": lambda deck, tmp: ["preview", deck, "-o", tmp / "p.png"],
    "export tts": lambda deck, tmp: ["export", "tts", deck, "-o", tmp / "tts"],
    "export cards": lambda deck, tmp: ["export", "cards", deck, "--service", "tgc-poker", "-o", tmp / "shop"],
    "simulate": lambda deck, tmp: ["simulate", deck, "--games", "2"],
    "build": lambda deck, tmp: ["build", deck, "-o", tmp / "out"],
    "palette check": lambda deck, tmp: ["palette", "check", deck],
}


def broken_files(tmp_path, minimal_text):
    syntax = tmp_path / "syntax.toml"
    syntax.write_text(minimal_text.replace("hand_size = 5", "hand_size = = 5"), "utf-8")
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes(minimal_text.replace('name = "Mini"', 'name = "Mañana"').encode("latin-1"))
    return {"syntax": (syntax, "TOML syntax error"), "missing": (tmp_path / "nope.toml", "no such file"),
            "latin1": (latin1, "is not UTF-8")}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("case", ["syntax", "missing", "latin1"])
def test_every_failure_is_one_json_object_with_the_texts_findings(tmp_path, minimal_text, command, case):
    path, words = broken_files(tmp_path, minimal_text)[case]
    args = COMMANDS[command](path, tmp_path)
    text = run(*args)
    as_json = run(*args, "--json")
    assert text.exit_code == as_json.exit_code == 2
    assert text.stdout == "" or command == "check"
    data = one_object(as_json)
    assert data["exit_code"] == 2 and data["ok"] is False
    [err] = data["errors"]
    assert words in err["message"] and err["file"] == str(path)
    assert err["message"] in text.stderr
    if case != "missing":
        assert err["line"] >= 1 and f"{path}:{err['line']}:" in text.stderr


def test_a_usage_error_under_json_is_json_too():
    result = run("render", "classic", "-o", "x", "--dpi", "5", "--json")
    data = one_object(result)
    assert result.exit_code == 2 and data["exit_code"] == 2
    assert "--dpi" in data["errors"][0]["message"]
    result = run("simulate", "classic", "--bogus", "--json")
    assert result.exit_code == 2 and "--bogus" in one_object(result)["errors"][0]["message"]


@pytest.mark.parametrize(("args", "where"), [(("render", "classic", "-o", "x", "--dpi", "5"), "--dpi"),
                                             (("simulate", "classic", "--bogus"), "--bogus"),
                                             (("check", "classic", "-j", "0"), "--jobs"),
                                             (("render",), "DECK")])
def test_a_usage_error_under_json_names_its_option_or_argument(args, where):
    """The finding's 'where' names the option or argument, as the findings of deckgen's own option
    checks do ('--players'); it was empty."""
    result = run(*args, "--json")
    assert result.exit_code == 2 and one_object(result)["errors"][0]["where"] == where


def test_deck_errors_under_json_keep_exit_code_1(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace('kind = "skip"', 'kind = "skipp"'))
    for args in (["render", path, "-o", tmp_path / "f"], ["preview", path], ["simulate", path]):
        text, as_json = run(*args), run(*args, "--json")
        data = one_object(as_json)
        assert text.exit_code == as_json.exit_code == data["exit_code"] == 1
        assert [e["code"] for e in data["errors"]] == ["kind"]
        assert data["errors"][0]["message"] in text.stderr


def test_build_json_lists_the_errors_of_a_deck_not_built(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text.replace('kind = "skip"', 'kind = "skipp"'))
    result = run("build", path, "-o", tmp_path / "out", "--json")
    data = one_object(result)
    assert result.exit_code == 1 and data["exit_code"] == 1 and data["ok"] is False
    assert data["decks"] == []
    [failed] = data["failed"]
    assert failed["deck"] == str(path) and failed["exit_code"] == 1
    assert [e["code"] for e in failed["errors"]] == ["kind"]
    assert data["errors"][0]["deck"] == str(path) and data["errors"][0]["line"] > 1


@pytest.mark.slow
def test_render_and_preview_json(tmp_path, write_manifest, minimal_text):
    path = write_manifest(minimal_text)
    data = one_object(run("render", path, "-o", tmp_path / "faces", "--dpi", "30", "--json"))
    assert data["ok"] is True and data["exit_code"] == 0 and data["dpi"] == 30
    assert set(data["faces"]) >= {"red-0", "blue-skip", "wild", "back"}
    assert all((tmp_path / "faces" / f"{fid}.png").is_file() for fid in data["faces"])
    assert data["drawn"] + data["from_cache"] == len(data["faces"])
    data = one_object(run("preview", path, "-o", tmp_path / "p.png", "--dpi", "30", "--json"))
    assert data["output"] == str(tmp_path / "p.png") and (tmp_path / "p.png").is_file()


def test_list_json_is_one_object():
    data = one_object(run("list", "--json"))
    assert {d["name"] for d in data["decks"] if not d["example"]} == {"classic", "no-mercy", "flex-spectrum"}
    assert {d["name"] for d in data["decks"] if d["example"]} == {"woodland"}
    assert {"palettes", "card_sizes", "papers", "print_shop_presets", "kinds", "notes"} <= set(data)


def test_export_json(tmp_path, write_manifest, minimal_text):
    """The JSON of both exports, on three cards of two faces (the whole deck at a print shop's
    resolution is test_export.py's)."""
    path = write_manifest(minimal_text)
    only = ("--only", "red-1x2,wild")
    data = one_object(run("export", "cards", path, "--service", "tgc-poker", "-o", tmp_path / "shop", *only, "--json"))
    assert data["service"] == "tgc-poker" and data["pages"] == 2 * 3          # a front and a back per copy
    assert (tmp_path / "shop").is_dir() and sorted(Path(p).name for p in data["images"]) == ["back.png", "red-1.png", "wild.png"]
    assert all(Path(p).is_file() for p in data["images"])
    data = one_object(run("export", "tts", path, "-o", tmp_path / "tts", *only, "--json"))
    assert sum(s["copies"] for s in data["sheets"]) == 3 and sum(s["cards"] for s in data["sheets"]) == 2   # "cards": cells, one per distinct face


@pytest.mark.parametrize("as_json", [False, True])
def test_an_internal_error_is_a_message_and_a_crash_report_not_a_traceback(tmp_path, monkeypatch, as_json):
    """A bug (an exception deckgen did not expect) ends with exit code 70 and one finding, text or
    JSON, naming the exception and the crash report that keeps its traceback; DECKGEN_DEBUG=1
    lets the exception through."""
    import deckgen.check

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a planted bug")

    monkeypatch.setattr(deckgen.check, "_run_stages", broken)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)      # TMPDIR read again
    args = ["check", "classic", "--no-cache", *(["--json"] if as_json else [])]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 70
    assert "Traceback" not in result.output
    reports = list(tmp_path.glob("deckgen-crash-*.txt"))
    assert len(reports) == 1
    text = reports[0].read_text(encoding="utf-8")
    assert "Traceback" in text and "a planted bug" in text and "check" in text
    if as_json:
        data = json.loads(result.output)
        assert data["ok"] is False and data["exit_code"] == 70
        [finding] = data["errors"]
        assert finding["code"] == "internal" and "ZeroDivisionError: a planted bug" in finding["message"]
        assert str(reports[0]) in finding["hint"]
    else:
        assert "ZeroDivisionError: a planted bug" in result.output and str(reports[0]) in result.output
    monkeypatch.setenv("DECKGEN_DEBUG", "1")
    result = CliRunner().invoke(main, args)
    assert isinstance(result.exception, ZeroDivisionError)
