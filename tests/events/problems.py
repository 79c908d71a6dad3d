"""A problem an invariant saw, and where two documents differ."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    surface: str
    who: str
    what: str

    def __str__(self) -> str:
        return (
            f"{self.surface}: {self.who}: {self.what}"
            if self.who
            else f"{self.surface}: {self.what}"
        )


def first_difference(
    a: dict, b: dict, what: str = "round trip", left: str = "exported", right: str = "re-exported"
) -> str:
    """Where two documents first differ, shown around the place."""
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            one, other = (
                json.dumps(a.get(key), ensure_ascii=False),
                json.dumps(b.get(key), ensure_ascii=False),
            )
            at = next((i for i, (x, y) in enumerate(zip(one, other, strict=False)) if x != y), 0)
            return (
                f"{what} differs in {key!r}: {left} …{one[max(0, at - 80) : at + 120]}… "
                f"{right} …{other[max(0, at - 80) : at + 120]}…"
            )
    return f"{what} differs in key order or spacing"
