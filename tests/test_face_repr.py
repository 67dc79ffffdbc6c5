"""A face's repr is its cache key's text (render.batch.face_key): the layout's part is remembered
per layout object, and the repr stays exactly the dataclass repr of every field."""

from dataclasses import fields, replace

from deckgen import manifest
from deckgen.render.batch import face_specs
from deckgen.render.layout import Layout


def _plain(spec: object) -> str:
    return f"{type(spec).__qualname__}(" + ", ".join(f"{f.name}={getattr(spec, f.name)!r}" for f in fields(spec)) + ")"


def test_a_face_repr_is_the_dataclass_repr_of_every_field():
    deck = manifest.load("flex-spectrum").deck
    specs = list(face_specs(deck, True).values())
    assert all(repr(s) == _plain(s) for s in specs)
    assert all(repr(s) == _plain(s) for s in specs)           # again, from the remembered layout reprs
    spec = specs[0]
    assert spec.layout is not None and "layout=None" in repr(replace(spec, layout=None))
    other = Layout(spec.layout.id, spec.layout.name + " (changed)", spec.layout.description, spec.layout.target,
                   spec.layout.elements)
    changed = replace(spec, layout=other)
    assert repr(changed) == _plain(changed) != repr(spec)
