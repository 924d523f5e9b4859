"""What a path given to wordvec names: a URL (``scheme://...``) or a local path."""

from __future__ import annotations

import re

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(path) -> bool:
    """Whether a path is a URL (``scheme://...``) rather than a local path."""
    return isinstance(path, str) and bool(_URL.match(path))
