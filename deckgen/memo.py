"""Values worked out once per object, by identity, in this process.

For objects that do not change once made (a loaded deck, a frozen face spec or layout) and that
several steps ask the same question of: a cache key's text, a deck's input files. Each entry holds
its object, so the object's id cannot be reused by another while the entry lives; the oldest
entries go beyond the memo's limit, so a long-running process (``--watch``) keeps only the last few.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class IdentityMemo(Generic[V]):
    """``make()``'s value for an object (and a tag), remembered for the last ``limit`` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen: dict[tuple[int, Hashable], tuple[object, V]] = {}

    def has(self, obj: object, tag: Hashable = None) -> bool:
        hit = self.seen.get((id(obj), tag))
        return hit is not None and hit[0] is obj

    def get(self, obj: object, make: Callable[[], V], tag: Hashable = None) -> V:
        key = (id(obj), tag)
        hit = self.seen.get(key)
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = make()
        if len(self.seen) >= self.limit:
            self.seen.pop(next(iter(self.seen)))
        self.seen[key] = (obj, value)
        return value
