"""Text to word ids: a corpus is read once, down this package in one direction.

- :mod:`.sources`: the files, folders, standard input and URLs (:mod:`.urls`) a corpus is
  read from, as binary streams (gzip and bzip2 undone).
- :mod:`.text`: how a line becomes words (tokenizers, traditional-to-simplified conversion).
- :mod:`.numba_reader` (whitespace text, every core) and :mod:`.python_reader` (the other
  tokenizers and bytes that need its judgement): streams to counted words, the same result.
- :mod:`.vocab` (the vocabulary and the tables derived from its counts) and
  :mod:`.vocab_choice` (min count, max size, --read-vocab, a continued model's).
- :mod:`.encoded`: the id stream on disk that training and counting read in slices.
- :mod:`.reading`: the orchestration, :func:`~wordvec.corpus.reading.read_corpus`.
- :mod:`.subwords`: fastText's character n-grams and their hashed buckets.
"""
