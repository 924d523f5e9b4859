"""Byte-pair encoding: the units a model reads, learned and applied at native speed.

- :mod:`.units`: :class:`~wordvec.bpe.units.Units` (alphabet, ordered merges, word-end
  convention), segmenting words and the units' text forms;
- :mod:`.learning`: :func:`learn` from any corpus wordvec reads;
- :mod:`.segmenting`: :func:`segment_corpus`, a corpus written as units;
- :mod:`.files`: subword-nmt codes, HF ``tokenizer.json``, SentencePiece ``.model``.

Example::

    >>> from wordvec import bpe
    >>> units = bpe.learn("corpus.txt", vocab_size=32000)
    >>> units.encode("unfathomable")
    ['un@@', 'fath@@', 'om@@', 'able']
    >>> bpe.save_units(units, "units.json")
"""

import importlib
from typing import Any

_LAZY = {
    "Units": "wordvec.bpe.units",
    "learn": "wordvec.bpe.learning",
    "load_units": "wordvec.bpe.files",
    "save_units": "wordvec.bpe.files",
    "segment_corpus": "wordvec.bpe.segmenting",
}
"""Loaded on first use: a model file's loader reads units (``bpe.files``) and should not
load the corpus reader that learning and segmenting need."""

__all__ = list(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'wordvec.bpe' has no attribute {name!r}")
