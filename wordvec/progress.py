"""The one style of progress bar every long step shows on stderr (tqdm)."""

from __future__ import annotations

import sys

from tqdm import tqdm


def progress_bar(desc: str, total: int | None = None, *, unit: str = "w", quiet: bool = False):
    """A tqdm bar: rate with SI prefixes (words/s, updates/s), ETA when ``total`` is known."""
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        unit_scale=True,
        file=sys.stderr,
        disable=quiet,
        dynamic_ncols=True,
        smoothing=0.1,
        mininterval=0.5,
    )
