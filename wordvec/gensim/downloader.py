"""gensim's ``gensim.downloader`` (``api.load("glove-wiki-gigaword-50")``) over gensim-data's
published files, in gensim's cache layout, so a cache that gensim filled serves wordvec too.

- The cache is ``~/gensim-data`` (``GENSIM_DATA_DIR`` moves it): ``NAME/FILE`` per model or
  corpus, and ``information.json``, gensim-data's list, kept from the last time it was
  fetched (and read when it cannot be).
- A missing file is downloaded from gensim-data's releases (:data:`DOWNLOAD_BASE_URL`, in parts
  where the list says), its MD5 checked against the list's, then moved into place; offline, a
  clear error says so.
- gensim runs the ``__init__.py`` that each release ships to load its data; wordvec runs no
  downloaded code. It loads what it knows: a model's vectors with
  :meth:`~wordvec.gensim.keyedvectors.KeyedVectors.load_word2vec_format` (any of the formats
  wordvec reads, compressed), ``text8`` as :class:`~wordvec.gensim.corpora.Text8Corpus`, any
  other corpus as its JSON records, one per line (what gensim-data's corpora hold).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

BASE_DIR = os.environ.get("GENSIM_DATA_DIR", os.path.expanduser("~/gensim-data"))
"""Where gensim-data's files are kept, as gensim keeps them."""
DATA_LIST_URL = "https://raw.githubusercontent.com/RaRe-Technologies/gensim-data/master/list.json"
"""gensim-data's list of models and corpora."""
DOWNLOAD_BASE_URL = "https://github.com/RaRe-Technologies/gensim-data/releases/download"
"""Where gensim-data's release files are: ``BASE/NAME/NAME.gz`` (or ``.gz_00``, ``.gz_01``...)."""

_CHUNK = 1 << 20


def info(name: str | None = None, show_only_latest: bool = True, name_only: bool = False) -> Any:
    """gensim-data's list (``{"corpora": {...}, "models": {...}}``), one entry of it
    (``name``), or only the names (``name_only``)."""
    listed = _listing()
    if name is not None:
        for kind in ("corpora", "models"):
            if name in listed[kind]:
                return listed[kind][name]
        raise ValueError(f"Incorrect model/corpus name: {name}")
    if name_only:
        return {kind: list(listed[kind]) for kind in ("corpora", "models")}
    if show_only_latest:
        return {
            kind: {key: entry for key, entry in listed[kind].items() if "__testing" not in key}
            for kind in ("corpora", "models")
        }
    return listed


def load(name: str, return_path: bool = False) -> Any:
    """The model (KeyedVectors) or corpus (an iterable) gensim-data calls ``name``, downloaded
    into the cache first where it is not there; ``return_path``: its file's path instead."""
    folder = Path(BASE_DIR) / name
    entry, kind = _entry(name, folder)
    path = folder / entry.get("file_name", f"{name}.gz")
    if not path.exists():
        _download(name, entry, folder)
    if return_path:
        return str(path)
    if kind == "models":
        from wordvec.gensim.keyedvectors import KeyedVectors

        logger.info("loading %s from %s", name, path)
        return KeyedVectors.load_word2vec_format(path)
    if name == "text8":
        from wordvec.gensim.corpora import Text8Corpus

        corpus = Text8Corpus(str(path))
        corpus.fn = str(path)  # where gensim-data's text8 object keeps its file
        return corpus
    return _Records(path)


def _entry(name: str, folder: Path) -> tuple[dict, str]:
    """``name``'s entry in gensim-data's list and its kind ("models", "corpora"); a file
    already in the cache needs no list (it is a model if wordvec reads it as vectors)."""
    try:
        listed = _listing()
    except OSError:
        cached = sorted(folder.glob("*.gz")) if folder.is_dir() else []
        if not cached:
            raise
        from wordvec.errors import FormatError
        from wordvec.formats import detect_format

        try:
            detect_format(cached[0])
            kind = "models"
        except FormatError:
            kind = "corpora"
        return {"file_name": cached[0].name}, kind
    for kind in ("models", "corpora"):
        if name in listed[kind]:
            return listed[kind][name], kind
    raise ValueError(f"Incorrect model/corpus name: {name}")


def _listing() -> dict:
    """gensim-data's list, fetched (and kept in the cache) or, offline, as last kept; an
    :class:`OSError` saying so when neither can be had."""
    kept = Path(BASE_DIR) / "information.json"
    try:
        with urllib.request.urlopen(DATA_LIST_URL, timeout=30) as response:
            data = response.read()
        kept.parent.mkdir(parents=True, exist_ok=True)
        kept.write_bytes(data)
    except (OSError, urllib.error.URLError) as exc:
        if not kept.exists():
            raise OSError(
                f"cannot fetch gensim-data's list from {DATA_LIST_URL} ({exc}), and the cache "
                f"{BASE_DIR} has none: connect to the Internet, or put the data in "
                f"{BASE_DIR}/NAME/ as gensim does"
            ) from None
        logger.info("offline: gensim-data's list as kept in %s", kept)
        data = kept.read_bytes()
    return json.loads(data)


def _download(name: str, entry: dict, folder: Path) -> None:
    """Fetch ``name``'s release file (in parts where the list says), check each part's MD5
    and move the whole into ``folder``; nothing is left there on a failure."""
    parts = int(entry.get("parts", 1))
    file_name = entry.get("file_name", f"{name}.gz")
    scratch = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=Path(BASE_DIR).parent))
    try:
        whole = scratch / file_name
        with open(whole, "wb") as out:
            for part in range(parts):
                suffix = f".gz_0{part}" if parts > 1 else ".gz"
                url = f"{DOWNLOAD_BASE_URL}/{name}/{name}{suffix}"
                checksum = entry.get(f"checksum-{part}" if parts > 1 else "checksum")
                _fetch(url, out, checksum, f"{name} ({part + 1}/{parts})")
        folder.mkdir(parents=True, exist_ok=True)
        os.replace(whole, folder / file_name)
        logger.info("%s downloaded to %s", name, folder)
    except (OSError, urllib.error.URLError) as exc:
        raise OSError(f"cannot download {name} from {DOWNLOAD_BASE_URL}: {exc}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _fetch(url: str, out, checksum: str | None, what: str) -> None:
    """Append ``url``'s bytes to ``out`` with a progress bar; an :class:`OSError` if their MD5
    is not ``checksum``."""
    from wordvec.runtime.progress import progress_bar

    digest = hashlib.md5()  # gensim-data's checksums are MD5s
    with urllib.request.urlopen(url, timeout=60) as response:
        size = int(response.headers.get("Content-Length") or 0) or None
        with progress_bar(f"downloading {what}", size, unit="B", delay=1.0) as bar:
            while chunk := response.read(_CHUNK):
                digest.update(chunk)
                out.write(chunk)
                bar.update(len(chunk))
    if checksum is not None and digest.hexdigest() != checksum:
        raise OSError(f"{url}: its MD5 is {digest.hexdigest()}, gensim-data's list says {checksum}")


class _Records:
    """A gensim-data corpus: its JSON records, one per line of its gzipped file, read afresh
    at each pass."""

    def __init__(self, path: Path):
        self.path = path

    def __iter__(self) -> Iterator[Any]:
        from wordvec.gensim.utils import open as open_packed

        with open_packed(self.path, "rb") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)
