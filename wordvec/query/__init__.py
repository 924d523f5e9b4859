"""Using trained vectors: the vectors and their similarity queries (:mod:`.vectors`, and
:mod:`.subword_vectors` for fastText models), intrinsic evaluation (:mod:`.evaluate`,
:mod:`.report`, the bundled sets in :mod:`.evalsets`) and pictures (:mod:`.plot`). No
training state lives here."""

NEIGHBOURS = 10
"""How many neighbours a query answers with (``wordvec neighbors -k``, ``most_similar``)."""
ANALOGY_VOCABULARY = 30_000
"""Analogy answers are sought among this many of the most frequent words (``wordvec eval
--restrict``), as word2vec's compute-accuracy and gensim's ``restrict_vocab`` do."""
