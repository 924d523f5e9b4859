"""Using trained vectors: the vectors and their similarity queries (:mod:`.vectors`, and
:mod:`.subword_vectors` for fastText models), intrinsic evaluation (:mod:`.evaluate`,
:mod:`.report`, the bundled sets in :mod:`.evalsets`) and pictures (:mod:`.plot`). No
training state lives here."""
