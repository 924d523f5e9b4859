"""The names that word2vec, fastText and gensim users bring (options, Python keywords,
commands), and wordvec's answer to each: the CLI and ``wordvec.train`` say what to use instead,
in one line, rather than "no such option"."""

from __future__ import annotations


def _peer(tool: str, ours: str, *names: str) -> dict[str, tuple[str, str]]:
    return {name: (tool, ours) for name in names}


PEER_NAMES: dict[str, tuple[str, str]] = {
    **_peer("word2vec", "--dim", "-size", "--size"),
    **_peer("word2vec", "--epochs", "-iter", "--iter"),
    **_peer("word2vec", "--model cbow (or sg)", "-cbow", "--cbow"),
    **_peer("word2vec", "--loss hs", "-hs"),
    **_peer("word2vec", "CORPUS (an argument)", "-train", "--train"),
    **_peer("word2vec", "-o NAME.bin (word2vec binary) or NAME.txt (text)", "-binary", "--binary"),
    **_peer(
        "word2vec",
        "nothing: wordvec does not cluster; export the vectors and use scikit-learn's KMeans",
        "-classes",
        "--classes",
    ),
    **_peer("word2vec", "--min-count", "-min-count"),
    **_peer("word2vec", "--window", "-window"),
    **_peer("word2vec", "--negative", "-negative"),
    **_peer("word2vec", "--sample", "-sample"),
    **_peer("word2vec", "--threads", "-threads"),
    **_peer("word2vec", "--alpha", "-alpha"),
    **_peer("word2vec", "--save-vocab", "-save-vocab"),
    **_peer("word2vec", "--read-vocab", "-read-vocab"),
    **_peer("word2vec", "nothing: a wordvec run prints progress unless -q", "-debug"),
    **_peer("fastText", "--dim", "-dim"),
    **_peer("fastText", "--window", "-ws", "--ws"),
    **_peer("fastText", "--epochs", "-epoch", "--epoch"),
    **_peer("fastText", "--min-count", "-minCount", "--minCount", "--mincount"),
    **_peer("fastText", "--negative (wordvec's --neg is PPMI's shift)", "-neg"),
    **_peer("fastText", "--alpha", "-lr", "--lr"),
    **_peer("fastText", "--threads", "-thread", "--thread"),
    **_peer("fastText", "--sample", "-t"),
    **_peer("fastText", "CORPUS (an argument)", "-input", "--input"),
    **_peer("fastText", "--minn", "-minn"),
    **_peer("fastText", "--maxn", "-maxn"),
    **_peer("fastText", "--bucket", "-bucket"),
    **_peer("fastText", "--loss", "-loss"),
    **_peer("fastText", "--word-ngrams", "-wordNgrams", "--wordNgrams"),
    **_peer("fastText", "--init-vectors", "-pretrainedVectors", "--pretrainedVectors"),
    **_peer("fastText", "--label", "-label"),
    **_peer(
        "word2vec and fastText",
        "-o NAME.bin (fastText's .bin for fasttext and supervised models, word2vec's binary "
        "otherwise) or -o NAME.vec (text)",
        "-output",
    ),
    **_peer(
        "fastText",
        "nothing: wordvec lowers the rate every span of 10,000 words",
        "-lrUpdateRate",
        "--lrUpdateRate",
    ),
    **_peer(
        "fastText", "nothing: a wordvec run prints progress unless -q", "-verbose", "--verbose"
    ),
    **_peer("fastText", "--autotune-validation", "-autotune-validation"),
    **_peer("fastText", "--autotune-duration", "-autotune-duration"),
    **_peer("fastText", "--autotune-model-size", "-autotune-modelsize"),
    **_peer("fastText", "--autotune-metric", "-autotune-metric"),
    **_peer("fastText", "--autotune-predictions", "-autotune-predictions"),
    **_peer("fastText", "--seed", "-seed"),
    **{
        name: ("fastText", f"'wordvec quantize MODEL -o NAME.ftz --{name[1:]}'")
        for name in ("-cutoff", "-qnorm", "-dsub", "-retrain", "-qout")
    },
    **_peer(
        "fastText",
        "nothing: the output matrix stays in the model; 'wordvec export MODEL OUT' writes its "
        "vectors",
        "-saveOutput",
    ),
    **_peer("fastText", "nothing: wordvec keeps every label", "-minCountLabel"),
    **_peer("gensim", "--dim", "--vector-size", "--vector_size"),
    **_peer("gensim", "--min-count", "--min_count"),
    **_peer("gensim", "--threads", "--workers"),
    **_peer("gensim", "--model sg (or cbow)", "--sg"),
    **_peer("gensim", "--loss hs", "--hs"),
    **_peer("gensim", "--max-vocab", "--max-final-vocab", "--max_final_vocab"),
    **_peer("gensim", "--vocab-memory", "--max-vocab-size", "--max_vocab_size"),
    **_peer("gensim", "--ns-exponent", "--ns_exponent"),
}
"""Option names users bring from word2vec, fastText and gensim: (tool, wordvec's spelling, or
``nothing: why``)."""


PEER_VALUES: dict[tuple[str, str], str] = {
    **{(name, "0"): "--loss ns (the default)" for name in ("-hs", "--hs")},
    **{(name, "1"): "--loss hs" for name in ("-hs", "--hs")},
    **{(name, "0"): "--model sg (the default)" for name in ("-cbow", "--cbow")},
    **{(name, "1"): "--model cbow" for name in ("-cbow", "--cbow")},
    ("--sg", "0"): "--model cbow",
    ("--sg", "1"): "--model sg (the default)",
    **{(name, "0"): "-o NAME.txt (word2vec text)" for name in ("-binary", "--binary")},
    **{(name, "1"): "-o NAME.bin (word2vec binary)" for name in ("-binary", "--binary")},
}
"""Peer options whose value decides wordvec's answer (``-hs 0`` is not ``--loss hs``)."""


def peer_answer(
    name: str, table: dict[str, tuple[str, str]] = PEER_NAMES, value: str | None = None
) -> str:
    """What a user who typed a peer tool's ``name`` (with ``value`` after it) is told."""
    tool, ours = table[name]
    ours = PEER_VALUES.get((name, value), ours)
    if (name, value) in PEER_VALUES:
        return f"{name} {value} is {tool}'s; use {ours}"
    if ours.startswith("nothing: "):
        return f"{name} is {tool}'s option; wordvec needs none like it ({ours[9:]})"
    return f"{name} is {tool}'s name; use {ours}"


PYTHON_PEER_NAMES: dict[str, tuple[str, str]] = {
    "sentences": ("gensim", "corpus (the first argument: a path, a file or the sentences)"),
    "corpus_file": ("gensim", "corpus (the first argument)"),
    "vector_size": ("gensim", "dim"),
    "size": ("gensim 3", "dim"),
    "workers": ("gensim", "threads"),
    "sg": ("gensim", "model='sg' (or 'cbow')"),
    "hs": ("gensim", "loss='hs'"),
    "iter": ("gensim 3", "epochs"),
    "max_final_vocab": ("gensim", "max_vocab"),
    "max_vocab_size": ("gensim", "vocab_memory (GB of words while counting)"),
    "input": ("fastText", "corpus (the first argument)"),
    "lr": ("fastText", "alpha"),
    "ws": ("fastText", "window"),
    "epoch": ("fastText", "epochs"),
    "minCount": ("fastText", "min_count"),
    "wordNgrams": ("fastText", "word_ngrams"),
    "thread": ("fastText", "threads"),
    "t": ("fastText", "sample"),
    "pretrainedVectors": ("fastText", "init_vectors"),
}
"""Keywords that gensim and fastText's Python users pass to ``train``: (tool, wordvec's)."""


PEER_COMMANDS = {
    "print-sentence-vectors": "use 'wordvec embed MODEL [FILE]' (standard input by default)",
    "nn": "use 'wordvec neighbors MODEL -k K', which reads a query a line from standard input",
    "analogies": "use 'wordvec neighbors MODEL -k K', which answers a line of three words "
    "A B C with the words nearest B - A + C",
    "test-label": "use 'wordvec test MODEL FILE --per-label'",
    "dump": "use 'wordvec export MODEL OUT --format vec' (or tsv) to read a model's rows",
}
"""fastText's commands that wordvec has under other names, and where to find them."""
