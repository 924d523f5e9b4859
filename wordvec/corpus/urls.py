"""Corpus files at URLs (``s3://bucket/prefix/``, ``gs://``, ``https://``, ``file://``), read
through fsspec, the file-system layer Dask uses (installed with ``wordvec[dask]``; S3 needs
``s3fs``, Google Cloud Storage ``gcsfs``). A URL names a file or a prefix whose files are
read in name order, as a local directory's are.
"""

from __future__ import annotations

from typing import BinaryIO

from wordvec.corpus.folders import folder_files
from wordvec.errors import CorpusError


def _file_system(url: str):
    try:
        import fsspec
    except ImportError:
        raise CorpusError(
            f"reading {url} needs fsspec: pip install 'wordvec[dask]' (and s3fs for s3://, "
            "gcsfs for gs://)"
        ) from None
    try:
        return fsspec.core.url_to_fs(url, **deadlines(url.split("://", 1)[0].lower()))
    except (ImportError, ValueError) as exc:  # no such protocol, or its package is missing
        raise CorpusError(f"cannot read {url}: {exc}") from None


NETWORK_TIMEOUT = 60.0
"""Seconds that connecting, or waiting for the next bytes, may take before a read fails."""


def deadlines(protocol: str) -> dict:
    """fsspec's options that give every network wait of ``protocol`` a deadline: the HTTP
    client's default waits for ever for a server that accepts and never answers."""
    if protocol in ("http", "https"):
        try:
            import aiohttp
        except ImportError:  # fsspec will say that http:// needs it
            return {}
        wait = aiohttp.ClientTimeout(sock_connect=NETWORK_TIMEOUT, sock_read=NETWORK_TIMEOUT)
        return {"client_kwargs": {"timeout": wait}}
    if protocol in ("s3", "s3a"):  # botocore's own settings
        return {
            "config_kwargs": {"connect_timeout": NETWORK_TIMEOUT, "read_timeout": NETWORK_TIMEOUT}
        }
    return {}


def url_files(url: str) -> list[str]:
    """The files a URL names: itself, or those under it (a prefix) in name order."""
    fs, root = _file_system(url)
    try:
        if fs.isdir(root):
            found = fs.find(root, detail=True)
            entries = [
                (path[len(root) :].strip("/"), fs.unstrip_protocol(path),
                 info.get("size") or 0 if info.get("type") == "file" else None)  # None: a FIFO
                for path, info in found.items()
            ]  # fmt: skip
            return folder_files(url, entries)
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
    try:
        return fs.open(root, "rb")
    except FileNotFoundError as exc:  # fsspec's HTTP says so of a refused connection too
        if isinstance(exc.__cause__, OSError):
            raise CorpusError(f"cannot read {url}: {exc.__cause__}") from None
        raise
