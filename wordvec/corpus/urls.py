"""Corpus files at URLs (``s3://bucket/prefix/``, ``gs://``, ``https://``, ``file://``), read
through fsspec, the file-system layer Dask uses (installed with ``wordvec[dask]``; S3 needs
``s3fs``, Google Cloud Storage ``gcsfs``). A URL names a file or a prefix whose files are
read in name order, as a local directory's are.
"""

from __future__ import annotations

import re
from typing import BinaryIO

from wordvec.errors import CorpusError

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def is_url(path) -> bool:
    """Whether a corpus path is a URL (``scheme://...``) rather than a local path."""
    return isinstance(path, str) and bool(_URL.match(path))


def _file_system(url: str):
    try:
        import fsspec
    except ImportError:
        raise CorpusError(
            f"reading {url} needs fsspec: pip install 'wordvec[dask]' (and s3fs for s3://, "
            "gcsfs for gs://)"
        ) from None
    try:
        return fsspec.core.url_to_fs(url)
    except (ImportError, ValueError) as exc:  # no such protocol, or its package is missing
        raise CorpusError(f"cannot read {url}: {exc}") from None


def url_files(url: str) -> list[str]:
    """The files a URL names: itself, or those under it (a prefix) in name order."""
    fs, root = _file_system(url)
    try:
        if fs.isdir(root):
            inside = sorted(
                path for path in fs.find(root) if not path.rsplit("/", 1)[-1].startswith(".")
            )
            if not inside:
                raise CorpusError(f"corpus directory has no files: {url}")
            return [fs.unstrip_protocol(path) for path in inside]
        if not fs.exists(root):
            raise CorpusError(f"corpus file not found: {url}")
    except OSError as exc:
        raise CorpusError(f"cannot read {url}: {exc}") from None
    return [url]


def url_size(url: str) -> int:
    """The size of the file at ``url`` in bytes."""
    fs, root = _file_system(url)
    return int(fs.size(root))


def open_url(url: str) -> BinaryIO:
    """The file at ``url``, opened for bytes (a context manager)."""
    fs, root = _file_system(url)
    return fs.open(root, "rb")
