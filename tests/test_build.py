"""`deckgen build`: check first, render through the renderer, write the PDF atomically."""

import io

import pypdf
import pytest
from click.testing import CliRunner

from deckgen import build as build_mod
from deckgen.build import BuildOptions, build_deck
from deckgen.cli import main
from deckgen.errors import DeckHasErrors
from deckgen.layout import LayoutOptions

LOW = dict(dpi=50)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def opts(out, cache, **kw):
    layout = kw.pop("layout", LayoutOptions())
    return BuildOptions(out_dir=out, cache_dir=cache, layout=layout, **{**LOW, "rulebook": False, **kw})


def test_build_writes_the_cards_pdf_with_every_copy(tmp_path, cache):
    res = build_deck("classic", opts(tmp_path, cache))
    pdf = tmp_path / "classic" / "classic-cards.pdf"
    assert [o.path for o in res.outputs] == [pdf] and res.outputs[0].kind == "cards"
    assert res.cards == 108 and res.faces == len({"back"} | {c.id for c in build_mod.load_checked(
        "classic", BuildOptions())[0].cards})
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == res.outputs[0].pages == 2 + 2 * 11        # cover + 11 duplex sheets (10 a sheet)
    assert res.outputs[0].size_bytes == pdf.stat().st_size
    assert set(res.timings) == {"check", "render", "write"}


def test_components_are_laid_out_with_both_faces(tmp_path, cache):
    # the sheets' count only: the verdict's games (played by the bundled-deck tests) are left out
    res = build_deck("flex-spectrum", opts(tmp_path, cache, verdict=False))
    assert res.cards == 236 + 10


def test_two_builds_are_byte_identical(tmp_path, cache):
    a = build_deck("classic", opts(tmp_path / "a", cache)).outputs[0].path.read_bytes()
    b = build_deck("classic", opts(tmp_path / "b", cache, use_cache=False)).outputs[0].path.read_bytes()
    assert a == b


def test_interrupted_build_leaves_the_previous_pdf(tmp_path, cache, monkeypatch):
    first = build_deck("classic", opts(tmp_path, cache)).outputs[0].path
    before = first.read_bytes()

    def half_then_die(fh, data):
        fh.write(data[: len(data) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr("deckgen.atomic._write_chunks", half_then_die)
    with pytest.raises(KeyboardInterrupt):
        build_deck("classic", opts(tmp_path, cache, layout=LayoutOptions(paper="letter")))
    assert first.read_bytes() == before
    assert sorted(p.name for p in first.parent.iterdir()) == ["classic-cards.pdf"]     # no temp file left


BROKEN = '''
[deck]
id = "tiny"
name = "Tiny"
language = "en"
players = { min = 2, max = 10 }
hand_size = 7
palette = "classic"
[rules]
preset = "classic"
[scoring]
target = 100
[scoring.points]
number = "face"
[[cards]]
kind = "number"
colors = "all"
values = [1, 2, 3]
count = 1
'''


def test_a_deck_with_errors_is_not_built_unless_forced(tmp_path, cache, write_manifest):
    path = write_manifest(BROKEN)
    with pytest.raises(DeckHasErrors) as exc:
        build_deck(path, opts(tmp_path, cache))
    assert any(f.code == "too-few-cards" for f in exc.value.findings)
    assert not (tmp_path / "tiny").exists()
    res = build_deck(path, opts(tmp_path, cache, force=True))
    assert res.errors and res.outputs[0].path.is_file() and res.cards == 12


# ------------------------------------------------------------------ CLI

def test_cli_build_prints_a_summary(tmp_path, cache, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(cache))
    result = CliRunner().invoke(main, ["build", "classic", "-o", str(tmp_path), "--dpi", "50", "--paper", "letter",
                                       "--duplex", "short", "--gap", "2mm", "--back-offset", "0.5,-0.25mm",
                                       "--no-rulebook"])
    assert result.exit_code == 0, result.output
    assert "classic-cards.pdf" in result.output and "108 cards" in result.output and "pages" in result.output
    assert (tmp_path / "classic" / "classic-cards.pdf").is_file()


def test_cli_bad_options_are_usage_errors(tmp_path):
    runner = CliRunner()
    bad_paper = runner.invoke(main, ["build", "classic", "-o", str(tmp_path), "--paper", "a44"])
    assert bad_paper.exit_code == 2 and "did you mean 'a4'" in bad_paper.output
    bad_len = runner.invoke(main, ["build", "classic", "-o", str(tmp_path), "--bleed", "3 parsecs"])
    assert bad_len.exit_code == 2 and "--bleed" in bad_len.output
    bad_off = runner.invoke(main, ["build", "classic", "-o", str(tmp_path), "--back-offset", "1"])
    assert bad_off.exit_code == 2 and "X,Y" in bad_off.output
    assert not (tmp_path / "classic").exists()


def test_cli_deck_with_errors_exits_1(tmp_path, cache, write_manifest, monkeypatch):
    monkeypatch.setenv("DECKGEN_CACHE", str(cache))
    path = write_manifest(BROKEN)
    result = CliRunner().invoke(main, ["build", str(path), "-o", str(tmp_path / "out"), "--dpi", "50"])
    assert result.exit_code == 1
    assert "too-few-cards" in result.output and "--force" in result.output


def test_cli_a_deck_that_cannot_be_read_is_not_offered_force(tmp_path, write_manifest):
    """--force builds a deck with errors; one whose manifest could not be read as a deck has
    nothing to build, so the summary does not suggest it (and --force does not build it)."""
    path = write_manifest(BROKEN.replace("hand_size = ", "hand_size = 900 # "))
    for extra in ([], ["--force"]):
        result = CliRunner().invoke(main, ["build", str(path), "-o", str(tmp_path / "out"), *extra])
        assert result.exit_code == 1 and "hand_size" in result.output
        assert "not built" in result.output and "--force" not in result.output


def test_cli_calibrate(tmp_path):
    out = tmp_path / "cal.pdf"
    result = CliRunner().invoke(main, ["calibrate", "-o", str(out), "--paper", "letter", "--back-offset", "1,2"])
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    assert len(reader.pages) == 2
    assert float(reader.pages[0].mediabox.width) == pytest.approx(612, abs=0.01)
    assert "100 mm" in reader.pages[0].extract_text() and "--back-offset" in reader.pages[1].extract_text()
    for page in reader.pages:                      # every font embedded (no bare Helvetica)
        for ref in page["/Resources"]["/Font"].values():
            assert "/FontFile2" in ref.get_object()["/FontDescriptor"].get_object()
    assert CliRunner().invoke(main, ["calibrate", "-o", str(out), "--duplex", "none"]).exit_code == 2


def test_building_every_bundled_deck_skips_data_files():
    from deckgen.build import bundled_refs

    assert bundled_refs() == ["classic", "flex-spectrum", "no-mercy"]


def test_cli_build_json_summary(tmp_path, cache, monkeypatch):
    import json

    monkeypatch.setenv("DECKGEN_CACHE", str(cache))
    result = CliRunner().invoke(main, ["build", "no-mercy", "-o", str(tmp_path), "--dpi", "50", "--json",
                                       "--no-rulebook"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    deck = data["decks"][0]
    assert deck["deck"] == "no-mercy" and deck["cards"] == 168 and deck["pages"] == 2 + 2 * 17
    assert deck["outputs"][0]["kind"] == "cards" and deck["outputs"][0]["path"].endswith("no-mercy-cards.pdf")


def test_build_writes_the_rulebook_in_both_languages_beside_the_cards(tmp_path, cache):
    res = build_deck("no-mercy", opts(tmp_path, cache, rulebook=True))
    folder = tmp_path / "no-mercy"
    assert [(o.kind, o.path) for o in res.outputs] == [
        ("cards", folder / "no-mercy-cards.pdf"),
        ("rulebook", folder / "no-mercy-rulebook-en.pdf"),
        ("rulebook", folder / "no-mercy-rulebook-es.pdf")]
    text = pypdf.PdfReader(folder / "no-mercy-rulebook-es.pdf").pages[0].extract_text()
    assert "No Mercy" in text
    for out in res.outputs:
        assert len(pypdf.PdfReader(out.path).pages) == out.pages


# ------------------------------------------------------------------ several decks on one pool of workers

def _bytes(res) -> dict[str, bytes]:
    return {o.path.name: o.path.read_bytes() for o in res.outputs}


def test_decks_built_together_are_the_bytes_each_gives_alone(tmp_path):
    from deckgen.build import build_decks

    together = build_decks([(d, opts(tmp_path / "together", tmp_path / "c1", rulebook=True, dpi=30))
                            for d in ("classic", "no-mercy")], jobs=2)
    # alone, the reference bytes: without the verdict's games (they write nothing; the build
    # together plays them beside the faces and rulebooks on the same workers)
    alone = [build_deck(d, opts(tmp_path / "alone", tmp_path / "c2", rulebook=True, dpi=30, jobs=1, verdict=False))
             for d in ("classic", "no-mercy")]
    assert [r.deck_id for r in together] == ["classic", "no-mercy"]
    for t, a in zip(together, alone):
        assert _bytes(t) == _bytes(a) and len(t.outputs) == 3          # the sheets and both rulebooks
        assert [o.kind for o in t.outputs] == ["cards", "rulebook", "rulebook"]
    # No Mercy shows many of classic's faces: drawn once, by the first deck that needs them
    faces = {p for d in ("classic", "no-mercy") for p in _face_files(d)}
    assert together[0].drawn + together[1].drawn == len(faces) < together[0].faces + together[1].faces


def _face_files(name: str) -> set[str]:
    from deckgen.render import RenderSettings
    from deckgen.render.batch import face_key
    from deckgen.render.faces import face_ids, face_spec

    deck = build_mod.load_checked(name, BuildOptions())[0]
    settings = RenderSettings(dpi=30)
    frame = settings.frame(deck)
    return {face_key(face_spec(deck, f, settings.symbols_on(deck)), frame, False) for f in face_ids(deck)}


def test_a_deck_with_errors_stops_alone_and_the_others_are_built(tmp_path, cache, write_manifest):
    from deckgen.build import build_decks

    broken = write_manifest(BROKEN)
    outcomes = build_decks([(broken, opts(tmp_path, cache)), ("classic", opts(tmp_path, cache))],
                           jobs=2)
    assert isinstance(outcomes[0], DeckHasErrors) and any(f.code == "too-few-cards" for f in outcomes[0].findings)
    assert not (tmp_path / "tiny").exists()
    assert outcomes[1].outputs[0].path.is_file() and outcomes[1].cards == 108


def test_cli_builds_several_decks_and_reports_each_in_the_order_given(tmp_path, cache, monkeypatch, write_manifest):
    monkeypatch.setenv("DECKGEN_CACHE", str(cache))
    broken = write_manifest(BROKEN)
    result = CliRunner().invoke(main, ["build", "no-mercy", str(broken), "classic", "-o", str(tmp_path / "out"),
                                       "--dpi", "30", "--no-rulebook"])
    assert result.exit_code == 1
    out = result.output
    assert out.index("no-mercy: ") < out.index("not built") < out.index("classic: ")
    out_dir = tmp_path / "out"                 # not tmp_path itself: the manifest is there (a folder deckgen did not make)
    assert (out_dir / "classic" / "classic-cards.pdf").is_file() and not (out_dir / "tiny").exists()


def test_faces_without_images_go_three_to_a_job_and_faces_sharing_images_stay_together():
    from types import SimpleNamespace

    from deckgen.build import FACES_PER_JOB, _batches
    from deckgen.render.batch import FaceJob

    def job(name, art=None):
        return FaceJob(SimpleNamespace(art=art, icon=None, back_image=None, logo=None), None, False, name, None)

    shared = [job("fox-1", "fox.svg"), job("fox-2", "fox.svg")]
    plain = [[job(f"red-{i}")] for i in range(7)]
    batches = _batches([shared, *plain])
    assert batches[0] == shared
    assert [len(b) for b in batches[1:]] == [FACES_PER_JOB, FACES_PER_JOB, 1]
    assert [j.path for b in batches for j in b] == ["fox-1", "fox-2"] + [f"red-{i}" for i in range(7)]
