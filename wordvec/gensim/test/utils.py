"""gensim's ``gensim.test.utils``: the names tutorials import (``datapath``, ``get_tmpfile``,
``temporary_file``, ``common_texts``).

``datapath(name)`` gives wordvec's own copy of a file where wordvec ships the same data under
another name (Google's analogies, WordSim-353), else the file of an installed gensim's test
data (gensim's Lee corpus, its small models), else a :class:`FileNotFoundError` that says
which file is missing and where it would be found. gensim's data is never copied into
wordvec.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from wordvec.query.evalsets import bundled_file

__all__ = ["common_texts", "datapath", "get_tmpfile", "temporary_file"]

_OWN_COPIES = {"questions-words.txt": "questions-words.txt", "wordsim353.tsv": "EN-WS-353-ALL.txt"}
"""gensim's test files that wordvec ships (:mod:`wordvec.query.evalsets`) by their names."""


def datapath(fname: str) -> str:
    """The path of the test file gensim calls ``fname`` (see the module's docstring)."""
    if fname in _OWN_COPIES:
        return str(bundled_file(_OWN_COPIES[fname]))
    folder = _gensim_test_data()
    if folder is not None and (folder / fname).exists():
        return str(folder / fname)
    where = f"in {folder}" if folder is not None else "(gensim is not installed)"
    raise FileNotFoundError(
        f"datapath({fname!r}): wordvec does not ship gensim's test file {fname}, and it is not "
        f"in an installed gensim's test data {where}; pip install gensim, or give a file of "
        f"your own"
    )


def _gensim_test_data() -> Path | None:
    """The test data folder of an installed gensim (found, not imported)."""
    spec = importlib.util.find_spec("gensim")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "test" / "test_data"


def get_tmpfile(suffix: str) -> str:
    """A path named ``suffix`` in a new temporary folder (left for the caller)."""
    return os.path.join(tempfile.mkdtemp(), suffix)


@contextlib.contextmanager
def temporary_file(name: str = "") -> Iterator[str]:
    """A path named ``name`` in a new temporary folder, removed with what it holds after the
    block."""
    folder = tempfile.mkdtemp()
    try:
        yield os.path.join(folder, name)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_TITLES = (
    "Human machine interface for ABC computer applications",
    "A survey of user opinion of computer system response time",
    "The EPS user interface management system",
    "System and human system engineering testing of EPS",
    "Relation of user perceived response time to error measurement",
    "The generation of random, binary, ordered trees",
    "The intersection graph of paths in trees",
    "Graph minors IV: Widths of trees and well-quasi-ordering",
    "Graph minors: A survey",
)
"""The nine titles of Deerwester et al. (1990), "Indexing by latent semantic analysis",
table 2: the toy corpus of the LSA paper."""


def _index_terms(titles: tuple[str, ...]) -> list[list[str]]:
    """Each title's words that occur in more than one title, lower-cased, in order: the
    paper's twelve index terms (its function words occur in several titles but are none)."""
    words = [re.findall(r"[a-z]+(?:-[a-z]+)*", title.lower()) for title in titles]
    function_words = {"a", "and", "for", "in", "of", "the", "to"}
    seen = [set(title) - function_words for title in words]
    shared = {word for word in set().union(*seen) if sum(word in title for title in seen) > 1}
    return [[word for word in title if word in shared] for title in words]


common_texts = _index_terms(_TITLES)
"""The LSA paper's toy corpus, as gensim's ``common_texts``: nine lists of index terms."""
