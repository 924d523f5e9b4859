"""An HNSW graph's settings, their defaults and their bounds (no library needed to read
them: the command line's options show them)."""

from __future__ import annotations

from typing import NamedTuple

PRECISIONS = ("f32", "f16", "i8")
"""How the graph stores its copy of the unit vectors: f32 searches fastest; f16 (half the
memory) and i8 (a quarter) decode each row they visit, about 2.5x slower per query. The
vectors themselves score the answers in every case (:mod:`wordvec.index.approximate`)."""


class Settings(NamedTuple):
    """An HNSW graph's settings: ``connectivity`` links per node (M), ``expansion_add`` the
    candidates weighed when a node is linked (efConstruction), ``expansion_search`` those
    weighed per query (efSearch: more is slower and nearer exact), ``precision`` one of
    :data:`PRECISIONS`."""

    connectivity: int = 16
    expansion_add: int = 128
    expansion_search: int = 96
    precision: str = "f32"


LIMITS = {
    "connectivity": (2, 256),
    "expansion_add": (1, 1 << 16),
    "expansion_search": (1, 1 << 16),
}
"""The range of each count setting (a graph of 256 links a node is many times its vectors)."""


def settings_problem(settings: Settings) -> str | None:
    """What is wrong with ``settings``, or None."""
    for name, (low, high) in LIMITS.items():
        value = getattr(settings, name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            return f"{name} must be a whole number from {low} to {high}, not {value!r}"
    if settings.precision not in PRECISIONS:
        return f"precision must be one of {', '.join(PRECISIONS)}, not {settings.precision!r}"
    return None
