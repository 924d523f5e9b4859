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

from wordvec.bpe.files import load_units, save_units
from wordvec.bpe.learning import learn
from wordvec.bpe.segmenting import segment_corpus
from wordvec.bpe.units import Units

__all__ = ["Units", "learn", "load_units", "save_units", "segment_corpus"]
