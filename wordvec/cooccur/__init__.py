"""Word co-occurrence counts: counting a corpus's id stream within a memory budget
(:mod:`.counting`), the counts artefact and its file (:mod:`.counts`), and counting on a Dask
cluster (:mod:`.cluster`). GloVe and PPMI-SVD train on the counts."""
