"""The ``wordvec`` command line: a thin click layer over the Python API.

Each command parses its options, calls one library function, and prints. Errors the user can
fix (:class:`~wordvec.errors.WordvecError`) become one line, ``Error: ...``, and exit status 1.
Nothing here imports numba: training and counting do when they run, and so do fastText
models when a query needs an unseen word's n-grams.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import click

from wordvec import __version__
from wordvec.atomic import check_output
from wordvec.errors import WordvecError
from wordvec.format_names import EXPORT_FORMATS


class _Group(click.Group):
    """Turns domain errors, OS errors and Ctrl-C (or SIGTERM, SIGHUP) into one-line messages
    instead of tracebacks."""

    def invoke(self, ctx: click.Context):
        signals: list[int] = []
        try:
            with _signals_as_interrupts(signals):
                return super().invoke(ctx)
        except BaseException as exc:
            if signals or isinstance(exc, KeyboardInterrupt):
                # A library can swallow the KeyboardInterrupt raised in its Python callbacks
                # and raise something else (numpy's tofile: a TypeError): the signal decides.
                click.echo("\nError: interrupted; no output was written", err=True)
                sys.exit(130)
            raise _one_line(exc) from None


def _one_line(exc: BaseException) -> BaseException:
    """The click error that prints ``exc`` as one line, or ``exc`` itself (a bug, or click's
    own exceptions, which click handles)."""
    if isinstance(exc, WordvecError):
        return click.ClickException(str(exc))
    if isinstance(exc, OSError):  # permissions, a full disk, a vanished directory
        where = f"{exc.filename}: " if exc.filename else ""
        return click.ClickException(f"{where}{exc.strerror or exc}")
    if isinstance(exc, MemoryError):
        return click.ClickException(
            "out of memory; try a smaller --dim, --max-vocab or a higher --min-count"
        )
    return exc


@contextlib.contextmanager
def _signals_as_interrupts(received: list[int]) -> Iterator[None]:
    """While a command runs, Ctrl-C, SIGTERM and SIGHUP raise KeyboardInterrupt and are noted
    in ``received``: temporary files are removed and earlier outputs stay as they were (the
    default of SIGTERM and SIGHUP ends the process at once)."""

    def interrupt(signum, frame):
        received.append(signum)
        raise KeyboardInterrupt

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            previous[number] = signal.signal(number, interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@click.group(
    cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
@click.version_option(__version__, prog_name="wordvec")
def main() -> None:
    """Train classic word vectors (word2vec, fastText, GloVe) fast, query and export them.

    \b
    Quick start:
      wordvec train corpus.txt.gz -o model.wv
      wordvec neighbors model.wv paris king
      wordvec export model.wv vectors.bin --format word2vec-binary
    """


def _options(*options):
    """Apply click options in the order they are listed (shared by several commands)."""

    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


READING_OPTIONS = _options(
    click.option(
        "--min-count",
        type=click.IntRange(min=1),
        default=5,
        show_default=True,
        help="Ignore words seen fewer times.",
    ),
    click.option(
        "--max-vocab",
        type=click.IntRange(min=1),
        default=None,
        help="Keep at most this many of the most frequent words.",
    ),
    click.option("--lowercase", is_flag=True, help="Lowercase the text before counting."),
    click.option(
        "--tokenizer",
        type=click.Choice(["whitespace", "char", "jieba"]),
        default="whitespace",
        show_default=True,
        help="How lines become words: whitespace-separated (also for segmented "
        "Chinese); char: each CJK character a word, Latin words whole; jieba: "
        "Chinese word segmentation (pip install 'wordvec[zh]').",
    ),
    click.option(
        "--encoding-errors",
        type=click.Choice(["strict", "replace", "ignore"]),
        default="strict",
        show_default=True,
        help="What to do with bytes that are not UTF-8: stop, or replace/drop them.",
    ),
    click.option(
        "--threads",
        type=click.IntRange(min=1),
        default=None,
        help="Threads. [default: all cores]",
    ),
    click.option(
        "--tmp-dir",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        default=None,
        help="Where temporary files go (the encoded corpus, spilled counts). "
        "[default: system temp]",
    ),
    click.option("-q", "--quiet", is_flag=True, help="No progress bar or summary."),
)
"""How a corpus is read and its vocabulary chosen: the same for ``train`` and ``cooccur``."""

COUNTING_OPTIONS = _options(
    click.option(
        "--asymmetric",
        "symmetric",
        flag_value=False,
        default=True,
        help="Count left contexts only (GloVe's -symmetric 0).",
    ),
    click.option(
        "--no-distance-weighting",
        "distance_weighting",
        flag_value=False,
        default=True,
        help="Count 1 per pair instead of 1/distance.",
    ),
    click.option(
        "--memory",
        type=click.FloatRange(min=0, min_open=True),
        default=0.5,
        show_default=True,
        help="GB for the counting tables (the process takes ~0.4 GB more); beyond it, "
        "sorted shards spill to --tmp-dir.",
    ),
)
"""How co-occurrences are counted: for ``cooccur`` and GloVe/PPMI-SVD ``train``."""


TRAIN_EXAMPLES = """\b
Examples:
  wordvec train corpus.txt.gz -o model.wv
  wordvec train corpus.txt -o model.wv --model cbow --dim 200 --epochs 10 --threads 8
  wordvec train corpus.txt -o model.wv --threads 1 --seed 7   # byte-identical reruns
  wordvec train corpus.txt -o model.wv --per-pair-negatives    # word2vec's skip-gram updates
  wordvec train zhwiki.txt -o zh.wv --tokenizer jieba           # unsegmented Chinese
  wordvec train corpus.txt -o ft.wv --model fasttext --bucket 200000  # subword vectors
  wordvec train corpus.txt -o ft.wv --model fasttext --arch cbow --minn 2 --maxn 5
  wordvec train corpus.txt -o glove.wv --model glove               # counts, then GloVe
  wordvec train corpus.txt -o svd.wv --model ppmi-svd --dim 300    # PPMI + SVD baseline

\b
The corpus is plain text, .gz or .bz2: words separated by whitespace (or see --tokenizer),
one sentence per line (longer lines are cut every --max-sentence-length words). It is read
once and kept as word ids in a temporary file (4 bytes a token) while training. Several
threads train at once without locks (as word2vec and gensim do), so only --threads 1 runs
are exactly reproducible.
"""


@main.command(epilog=TRAIN_EXAMPLES)
@click.argument("corpus", type=click.Path(path_type=Path), required=False)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Model file to write (wordvec's format; see 'wordvec export').",
)
@click.option(
    "--model",
    type=click.Choice(["sg", "cbow", "fasttext", "glove", "ppmi-svd"]),
    default="sg",
    show_default=True,
    help="Skip-gram (predict the window from the word), CBOW (the word from the window), "
    "fastText (skip-gram or CBOW, see --arch, over words and their character n-grams), "
    "GloVe (least squares on co-occurrence counts) or PPMI-SVD (the count-based baseline).",
)
@click.option(
    "--arch",
    type=click.Choice(["sg", "cbow"]),
    default="sg",
    show_default=True,
    help="fastText's window model: skip-gram or CBOW.",
)
@click.option(
    "--loss",
    type=click.Choice(["ns", "hs", "softmax"]),
    default="ns",
    show_default=True,
    help="Output layer: negative sampling, hierarchical softmax, or the full softmax "
    "(exact, but O(vocabulary) per prediction and one thread: small vocabularies only).",
)
@click.option(
    "--dim",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Vector dimensions (word2vec's -size).",
)
@click.option(
    "--window",
    type=click.IntRange(min=1),
    default=None,
    help="Maximum distance to a context word; word2vec and fastText draw each word's from "
    "1..window. [default: 5; glove, ppmi-svd 10]",
)
@click.option(
    "--epochs",
    type=click.IntRange(min=1),
    default=None,
    help="Passes over the corpus (word2vec's -iter). [default: 5; glove 15]",
)
@click.option(
    "--alpha",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Start learning rate, decaying linearly; for glove, GloVe's -alpha, the exponent of "
    "its weighting function. [default: 0.025 sg, 0.05 cbow and fasttext, 0.75 glove]",
)
@click.option(
    "--negative",
    type=click.IntRange(min=0),
    default=5,
    show_default=True,
    help="Noise words per prediction with --loss ns (at most 999).",
)
@click.option(
    "--shared-negatives/--per-pair-negatives",
    default=None,
    help="Skip-gram with --loss ns: each window's context words predict its centre with one "
    "draw of noise words and one update for the window (pWord2Vec's HogBatch; the default, "
    "about 1.7x faster), or one draw and update per (word, context) pair, as word2vec and "
    "gensim.",
)
@click.option(
    "--ns-exponent",
    type=float,
    default=None,
    help="Noise distribution: count ** exponent. [default: 0.75; fasttext 0.5]",
)
@click.option(
    "--min-alpha",
    type=click.FloatRange(min=0),
    default=None,
    help="Final learning rate. [default: alpha * 0.0001]",
)
@click.option(
    "--sample",
    type=click.FloatRange(0, 1, max_open=True),
    default=None,
    help="Subsampling threshold for frequent words (0: off). [default: 1e-3; fasttext 1e-4]",
)
@click.option(
    "--minn",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="fasttext: shortest character n-gram.",
)
@click.option(
    "--maxn",
    type=click.IntRange(min=0),
    default=6,
    show_default=True,
    help="fasttext: longest character n-gram (0: no subwords, word2vec with fastText's defaults).",
)
@click.option(
    "--bucket",
    type=click.IntRange(min=1, max=2**31 - 1),
    default=2_000_000,
    show_default=True,
    help="fasttext: rows shared by all n-grams (hashed). Costs bucket x dim x 4 bytes "
    "(800 MB at the defaults) while training and in the model file; a smaller --bucket "
    "saves memory at some cost to rare and unseen words.",
)
@click.option(
    "--cooccur",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="glove, ppmi-svd: train on these counts (from 'wordvec cooccur'), not on CORPUS.",
)
@COUNTING_OPTIONS
@click.option(
    "--x-max",
    type=click.FloatRange(min=0, min_open=True),
    default=100.0,
    show_default=True,
    help="glove: counts above this get full weight, f(x) = min(1, (x/x_max)^alpha).",
)
@click.option(
    "--eta",
    type=click.FloatRange(min=0, min_open=True),
    default=0.05,
    show_default=True,
    help="glove: AdaGrad's initial learning rate.",
)
@click.option(
    "--glove-output",
    type=click.Choice(["both", "word"]),
    default="both",
    show_default=True,
    help="glove: vectors W + W~ (GloVe's -model 2) or W alone.",
)
@click.option(
    "--cds",
    type=click.FloatRange(0, 1, min_open=True),
    default=0.75,
    show_default=True,
    help="ppmi-svd: context distribution smoothing exponent.",
)
@click.option(
    "--neg",
    type=click.FloatRange(min=1),
    default=1.0,
    show_default=True,
    help="ppmi-svd: shift PMI by log(neg) (1: no shift).",
)
@click.option(
    "--eig",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="ppmi-svd: vectors are U * S^eig.",
)
@READING_OPTIONS
@click.option(
    "--seed", type=click.IntRange(min=0), default=1, show_default=True, help="Random seed."
)
@click.option(
    "--max-sentence-length",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Cut longer lines into pieces of this many words.",
)
def train(corpus: Path | None, output: Path, quiet: bool, tmp_dir: Path | None, **options) -> None:
    """Train word vectors on CORPUS and save the model to OUTPUT."""
    from wordvec.training import train as train_model

    if corpus is None and options["cooccur"] is None:
        raise click.UsageError("give a CORPUS (or, for glove and ppmi-svd, --cooccur COUNTS)")
    check_output(output, corpus, options["cooccur"])
    options["cooccur"] = options["cooccur"] and str(options["cooccur"])
    model = train_model(corpus, quiet=quiet, tmp_dir=tmp_dir, **options)
    model.save(output)
    if not quiet:
        report = model.report
        threads = model.settings["threads"]
        loss = f"final loss {report.epoch_loss[-1]:.4f}; " if report.epoch_loss else ""
        rate = f"{report.words_per_second / threads:,.0f} {report.unit}/s/thread, " * bool(
            report.words
        )
        click.echo(
            f"trained {len(model.vocab):,} words x {model.vectors.shape[1]} dims in "
            f"{report.seconds:.1f} s ({rate}{threads} thread{'s' if threads > 1 else ''}); "
            f"{loss}saved {output}",
            err=True,
        )


COOCCUR_EXAMPLES = """\b
Examples:
  wordvec cooccur corpus.txt.gz -o counts.cooc                 # window 10, 1/d weights
  wordvec cooccur corpus.txt -o counts.cooc --window 15 --memory 4
  wordvec cooccur corpus.txt -o left.cooc --asymmetric --no-distance-weighting
  wordvec train --model glove --cooccur counts.cooc -o glove.wv
  wordvec train --model ppmi-svd --cooccur counts.cooc -o svd.wv

\b
Counts every pair of words at most --window apart on one line (lines are never crossed),
weighted 1/distance as GloVe does, in both directions unless --asymmetric. When the tables
outgrow --memory, sorted shards spill to --tmp-dir and are merged at the end; temporary files
are removed however the run ends. The output is sparse rows (CSR) that NumPy memory-maps:
see the wordvec.cooccur module for the layout.
"""


@main.command(epilog=COOCCUR_EXAMPLES)
@click.argument("corpus", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Counts file to write.",
)
@click.option(
    "--window",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Largest distance between two words counted together.",
)
@COUNTING_OPTIONS
@READING_OPTIONS
def cooccur(corpus: Path, output: Path, quiet: bool, tmp_dir: Path | None, **options) -> None:
    """Count word co-occurrences in CORPUS and save them to OUTPUT."""
    from wordvec.cooccur import count_cooccurrences

    check_output(output, corpus)
    counts = count_cooccurrences(corpus, output, quiet=quiet, tmp_dir=tmp_dir, **options)
    if not quiet:
        click.echo(
            f"{counts.nnz:,} nonzero pairs of {len(counts.vocab):,} words; saved {output}",
            err=True,
        )


NEIGHBORS_EXAMPLES = """\b
Examples:
  wordvec neighbors model.wv paris king -k 5
  wordvec neighbors model.wv --analogy man king woman     # king - man + woman
  printf 'france\\nman king woman\\n' | wordvec neighbors model.wv

\b
--analogy A B C reads "A is to B as C is to ?" and ranks words by cosine to B - A + C
(3CosAdd; the three words themselves are left out), as word2vec's analogy tool does. On
standard input each line is one query: a word, or three words for an analogy. VECTORS may be
a wordvec model or a word2vec text/binary, GloVe, .vec, TSV or .npy file (detected).
"""


@main.command(epilog=NEIGHBORS_EXAMPLES)
@click.argument("vectors_file", metavar="VECTORS", type=click.Path(path_type=Path))
@click.argument("words", nargs=-1)
@click.option(
    "-k",
    "--topn",
    "k",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Neighbours per query.",
)
@click.option(
    "--analogy",
    nargs=3,
    multiple=True,
    metavar="A B C",
    help="Answer 'A is to B as C is to ?' (repeatable).",
)
def neighbors(
    vectors_file: Path, words: tuple[str, ...], k: int, analogy: tuple[tuple[str, str, str], ...]
) -> None:
    """Print the nearest neighbours by cosine of WORDS (or of lines on standard input)."""
    from wordvec.formats import load_vectors

    queries: list[tuple[str, ...]] = [(w,) for w in words] + list(analogy)
    if not queries:
        if sys.stdin.isatty():
            raise click.UsageError("give query words, --analogy A B C, or queries on stdin")
        queries = _stdin_queries()
    vectors = load_vectors(vectors_file)
    for query in queries:  # check every word before printing anything
        for word in query:
            vectors.vector(word)
    for query in queries:
        if len(query) == 1:
            click.echo(query[0])
            results = vectors.most_similar(query[0], k=k)
        else:
            a, b, c = query
            click.echo(f"{a} : {b} :: {c} : ?")
            results = vectors.analogy(a, b, c, k=k)
        width = max((len(word) for word, _ in results), default=0)
        for rank, (word, score) in enumerate(results, start=1):
            click.echo(f"  {rank:>3}  {word:<{width}}  {score:.4f}")


def _stdin_queries() -> list[tuple[str, ...]]:
    queries = []
    for number, line in enumerate(sys.stdin, start=1):
        fields = tuple(line.split())
        if not fields:
            continue
        if len(fields) not in (1, 3):
            raise WordvecError(
                f"stdin line {number}: expected a word or three words (A B C), got {len(fields)}"
            )
        queries.append(fields)
    if not queries:
        raise WordvecError("no queries on standard input")
    return queries


EXPORT_EXAMPLES = """\b
Examples:
  wordvec export model.wv vectors.txt                          # word2vec text (gensim, fastText)
  wordvec export model.wv vectors.bin --format word2vec-binary
  wordvec export model.wv glove.txt --format glove             # no header line
  wordvec export model.wv projector.tsv --format tsv           # + projector.metadata.tsv
  wordvec export model.wv vectors.npy --format npy             # + vectors.words.txt
  wordvec export ft.wv ft.bin --format fasttext-bin  # fastText/gensim load_facebook_model

\b
TSV files load in the TensorBoard embedding projector (projector.tensorflow.org): its
vectors file and its metadata file (one word a line). Files are written atomically.
"""


@main.command(epilog=EXPORT_EXAMPLES)
@click.argument("vectors_file", metavar="MODEL", type=click.Path(path_type=Path))
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default="word2vec",
    show_default=True,
    help="Output format.",
)
def export(vectors_file: Path, output: Path, fmt: str) -> None:
    """Write the vectors of MODEL (or any vector file) to OUTPUT in another format."""
    from wordvec.formats import export as export_file

    check_output(output, vectors_file)
    vectors, written = export_file(vectors_file, output, fmt)
    click.echo(
        f"wrote {len(vectors):,} vectors of {vectors.dim} dims to {', '.join(map(str, written))}",
        err=True,
    )


EVAL_EXAMPLES = """\b
Examples:
  wordvec eval model.wv                          # WS-353 and Google analogies (bundled)
  wordvec eval vectors.bin --lang zh             # wordsim-240/297 and CA8
  wordvec eval model.wv --sections                 # and every analogy section
  wordvec eval model.wv --similarity my-pairs.txt --analogy my-questions.txt --json

\b
Similarity files hold 'word1 word2 score' lines; analogy files 'a b c d' lines under ': section'
lines (tabs or spaces, CRLF, '#' comments). Similarity is Spearman's rho over the pairs whose
words are both known (the rest are counted, not guessed). Analogies are answered among the
--restrict most frequent words, a, b and c excluded, by 3CosAdd (b - a + c) and 3CosMul; a
question is covered when its four words are all among them. Words are lowercased unless
--case-sensitive. Google's gram* sections are reported as syntactic, the rest as semantic.
"""


@main.command("eval", epilog=EVAL_EXAMPLES)
@click.argument("vectors_file", metavar="VECTORS", type=click.Path(path_type=Path))
@click.option(
    "--similarity",
    "similarity_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Word-pair similarity file (repeatable). [default: bundled sets]",
)
@click.option(
    "--analogy",
    "analogy_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Analogy questions file (repeatable). [default: bundled sets]",
)
@click.option(
    "--lang",
    type=click.Choice(["en", "zh"]),
    default="en",
    show_default=True,
    help="Which bundled sets are the defaults.",
)
@click.option(
    "--restrict",
    type=click.IntRange(min=1),
    default=30_000,
    show_default=True,
    help="Search analogy answers among this many most frequent words.",
)
@click.option("--case-sensitive", is_flag=True, help="Do not lowercase the test words.")
@click.option("--sections", is_flag=True, help="Show the accuracy of every analogy section.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def evaluate(
    vectors_file: Path,
    similarity_files: tuple[Path, ...],
    analogy_files: tuple[Path, ...],
    lang: str,
    restrict: int,
    case_sensitive: bool,
    sections: bool,
    as_json: bool,
) -> None:
    """Score VECTORS on word similarity and analogy benchmarks."""
    from wordvec.datasets import default_sets
    from wordvec.evaluation_report import evaluation_report, format_report
    from wordvec.formats import load_vectors

    if not similarity_files and not analogy_files:
        similarity_files = tuple(default_sets(lang, "similarity"))
        analogy_files = tuple(default_sets(lang, "analogy"))
    for path in (*similarity_files, *analogy_files):
        if not path.is_file():
            raise WordvecError(f"evaluation file not found: {path}")
    vectors = load_vectors(vectors_file)
    report = evaluation_report(
        vectors, similarity_files, analogy_files, restrict=restrict, lowercase=not case_sensitive
    )
    if as_json:
        import json

        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        click.echo(format_report(report, sections=sections))


PLOT_EXAMPLES = """\b
Examples:
  wordvec plot model.wv king queen man woman paris france -o words.png
  wordvec plot model.wv --top 100 -o top100.svg
  wordvec plot model.wv -o groups.png --group animals=cat,dog,horse,cow \\
      --group countries=france,germany,italy,spain --group numbers=one,two,three,four

\b
Points are the words' unit vectors projected on their first two principal components (PCA).
Needs matplotlib: pip install 'wordvec[plot]'. Chinese labels need a CJK font installed.
"""


@main.command(epilog=PLOT_EXAMPLES)
@click.argument("vectors_file", metavar="VECTORS", type=click.Path(path_type=Path))
@click.argument("words", nargs=-1)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Picture to write: .png or .svg.",
)
@click.option(
    "--words-file", type=click.Path(dir_okay=False, path_type=Path), help="More words, one a line."
)
@click.option(
    "--top", type=click.IntRange(min=2), default=None, help="Plot the N most frequent words."
)
@click.option(
    "--group",
    "groups",
    multiple=True,
    metavar="NAME=W1,W2,...",
    help="A coloured group of words (repeatable).",
)
@click.option("--title", default=None, help="Title of the picture.")
def plot(
    vectors_file: Path,
    words: tuple[str, ...],
    output: Path,
    words_file: Path | None,
    top: int | None,
    groups: tuple[str, ...],
    title: str | None,
) -> None:
    """Draw a 2-D PCA picture of WORDS from VECTORS."""
    from wordvec.formats import load_vectors
    from wordvec.plot import plot_words

    named_groups = {}
    for spec in groups:
        name, _, members = spec.partition("=")
        if not name or not members:
            raise WordvecError(f"--group takes NAME=WORD1,WORD2,..., not {spec!r}")
        named_groups[name] = [w for w in members.split(",") if w]
    chosen = list(words)
    if words_file is not None:
        if not words_file.is_file():
            raise WordvecError(f"words file not found: {words_file}")
        chosen += words_file.read_text(encoding="utf-8").split()
    check_output(output, vectors_file)
    vectors = load_vectors(vectors_file)
    if top is not None:
        chosen += vectors.words[:top]
    written = plot_words(vectors, chosen, output, groups=named_groups, title=title)
    click.echo(f"wrote {written}", err=True)
