"""The ``wordvec`` command line: a thin click layer over the Python API.

Each command parses its options, calls one library function, and prints. Errors the user can
fix (:class:`~wordvec.errors.WordvecError`) become one line, ``Error: ...``, and exit status 1.
Nothing here imports numba: training and counting do when they run, and so do fastText
models when a query needs an unseen word's n-grams.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import click

from wordvec import __version__
from wordvec.errors import TrainingInterrupted, WordvecError, shown
from wordvec.formats.names import EXPORT_FORMATS, suffix_format
from wordvec.options import (
    ANALOGY_VOCABULARY,
    COUNTING,
    COUNTING_MODEL,
    NEIGHBOURS,
    OPTION,
    OPTIONS,
    Option,
)
from wordvec.peer_names import PEER_COMMANDS, PEER_NAMES, peer_answer
from wordvec.runtime.atomic import check_output, check_outputs, planned_output
from wordvec.runtime.paths import is_url
from wordvec.runtime.startup import skip_numba_blas_probe


class _Group(click.Group):
    """Turns domain errors, OS errors and Ctrl-C (or SIGTERM, SIGHUP) into one-line messages
    instead of tracebacks."""

    def invoke(self, ctx: click.Context):
        signals: list[int] = []
        skip_numba_blas_probe()
        try:
            with _signals_as_interrupts(signals):
                return super().invoke(ctx)
        except BrokenPipeError:
            _stop_writing_stdout()  # `wordvec predict ... | head`: the reader had enough
            sys.exit(1)
        except BaseException as exc:
            if signals or isinstance(exc, KeyboardInterrupt):
                # A library can swallow the KeyboardInterrupt raised in its Python callbacks
                # and raise something else (numpy's tofile: a TypeError): the signal decides.
                click.echo(f"\nError: {_interrupted(exc)}", err=True)
                sys.exit(130)
            raise _one_line(exc) from None

    def get_command(self, ctx: click.Context, name: str):
        """A command, or for the name of a fastText command that wordvec answers under
        another name, the one-line pointer to it."""
        if name in PEER_COMMANDS and name not in self.commands:
            raise click.UsageError(f"'{name}' is fastText's command; {PEER_COMMANDS[name]}", ctx)
        return super().get_command(ctx, name)


def _interrupted(exc: BaseException) -> str:
    """What an interrupted command says: how far training got, and what it wrote (only
    ``train --save-on-interrupt`` writes, the model trained so far)."""
    if not isinstance(exc, TrainingInterrupted):
        return "interrupted; no output file was written"
    done = f"interrupted after {exc.epochs_done} of {exc.epochs} epochs"
    if exc.saved is not None:
        return f"{done}; saved the model trained so far to {exc.saved}"
    return f"{done}; no output was written (--save-on-interrupt saves the model trained so far)"


def _stop_writing_stdout() -> None:
    """After the reader of standard output has gone: end quietly, as Unix tools do, with
    nothing more written there (Python would report the failed flush at exit)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


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
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # Windows has no SIGHUP
            if hasattr(signal, name):
                number = getattr(signal, name)
                previous[number] = signal.signal(number, interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class _Command(click.Command):
    """Answers an option that word2vec, fastText or gensim users type with wordvec's name
    for it (``--size is word2vec's name; use --dim``). Checked before click parses, which
    would otherwise read ``-output x`` as ``-o utput`` and ``-save-vocab`` as ``-s``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        own = {name for param in self.params for name in getattr(param, "opts", ())}
        answers = []  # all of them at once: a word2vec command line has ten
        for at, arg in enumerate(args):
            if arg == "--":
                break
            name, _, value = arg.partition("=")
            if name in PEER_NAMES and name not in own:
                value = value or (args[at + 1] if at + 1 < len(args) else None)
                answers.append(peer_answer(name, value=value))
        if answers:
            raise click.UsageError("\n       ".join(answers), ctx)
        return super().parse_args(ctx, args)


_Group.command_class = _Command


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


GROUP_ORDER = (
    "model", "window", "training", "negative sampling", "subwords", "labels", "vocabulary",
    "reading", "counting", "glove", "ppmi", "run",
)  # fmt: skip
"""The order in which ``--help`` lists the options of wordvec.options, by group."""


def _declared_options(names, model: str | None = None):
    """The click options of wordvec.options' ``names``, in group order; defaults shown are
    ``model``'s, or (None) the default and where a model's differs."""
    ordered = sorted(names, key=lambda name: GROUP_ORDER.index(OPTION[name].group))
    return _options(*(_click_option(OPTION[name], model) for name in ordered))


def _click_option(option: Option, model: str | None):
    """One declared option as click's: click's default is None (or a flag's off state), so
    that a command passes on only what was given (see :func:`_given`)."""
    if option.flag and "/" in option.flag:
        return click.option(option.flag, option.name, default=None, help=_help(option, model))
    if option.flag:
        return click.option(
            option.flag, option.name, flag_value=not option.default, default=option.default,
            help=_help(option, model),
        )  # fmt: skip
    return click.option(
        option.cli_name, option.name, type=_click_type(option), default=None,
        help=_help(option, model),
    )  # fmt: skip


def _click_type(option: Option):
    if option.choices:
        return click.Choice(option.choices)
    if option.kind is Path:
        return LOCAL_PATH_OR_URL
    if option.low is None and option.high is None:
        return option.kind
    bounds = {"min": option.low, "max": option.high}
    opens = {"min_open": option.low_open, "max_open": option.high_open}
    if option.kind is int:
        return click.IntRange(**bounds, **opens)
    return click.FloatRange(**bounds, **opens)


def _help(option: Option, model: str | None) -> str:
    if option.flag and "/" not in option.flag:
        return option.help
    if option.default_help:
        return f"{option.help} [default: {option.default_help}]"
    if option.default is None:
        return option.help
    if model is not None:
        return f"{option.help} [default: {_shown(option.default_for(model))}]"
    by_value: dict[object, list[str]] = {}
    for name, value in option.by_model:
        by_value.setdefault(value, []).append(name)
    others = "".join(f"; {', '.join(names)} {_shown(value)}" for value, names in by_value.items())
    return f"{option.help} [default: {_shown(option.default)}{others}]"


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


LOCAL_INPUT_FILES = ("init", "init_vectors", "cooccur", "bpe")
"""The options of wordvec.options that name local files a command reads."""
INPUT_FILES = ("read_vocab", *LOCAL_INPUT_FILES)
"""... and all that name files it reads (--read-vocab may be a URL)."""


def _given(ctx: click.Context, options: dict, output: Path, *corpus: Path | str) -> dict:
    """The options the user gave (on the command line or in the environment), once the files
    the command will write (``output``, and ``--save-vocab``'s) are known writable and none of
    the files it reads: a run must not fail after hours for an unwritable output."""
    for name in LOCAL_INPUT_FILES:
        if is_url(options.get(name)):
            raise WordvecError(f"--{name.replace('_', '-')} reads a local file, not a URL")
    inputs = [*corpus, *(options.get(name) for name in INPUT_FILES)]
    check_outputs({"the output": output, "--save-vocab": options.get("save_vocab")}, inputs)
    return {
        name: value
        for name, value in options.items()
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    }


RUN_OPTIONS = _options(
    click.option(
        "--tmp-dir",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        default=None,
        help="Where temporary files go: the encoded corpus (4 bytes a token), spilled counts. "
        "[default: $TMPDIR or /tmp]",
    ),
    click.option("-q", "--quiet", is_flag=True, help="No progress bar or summary."),
)
"""How ``train`` and ``cooccur`` run, beside the options that decide their output."""


TRAIN_EXAMPLES = """\b
Examples:
  wordvec train corpus.txt.gz -o model.wv
  wordvec train corpus.txt -o model.wv --model cbow --dim 200 --epochs 10 --threads 8
  wordvec train corpus.txt -o model.wv --threads 1 --seed 7   # byte-identical reruns
  wordvec train corpus.txt -o model.wv --per-pair-negatives    # word2vec's skip-gram updates
  wordvec train zhwiki.txt -o zh.wv --tokenizer jieba           # unsegmented Chinese
  wordvec train zhwiki.txt -o zh.wv --convert t2s --tokenizer jieba  # traditional -> simplified
  wordvec train corpus.txt -o ft.wv --model fasttext --bucket 200000  # subword vectors
  wordvec train cooking.train -o clf.wv --model supervised    # a text classifier (fastText's)
  wordvec train tagged.txt -o tagged.wv --model supervised --label __tag__  # other labels
  wordvec train cooking.train -o clf2.wv --model supervised --epochs 25 --alpha 1.0 \\
      --word-ngrams 2 --bucket 200000 --loss hs
  wordvec train corpus.txt -o ft.wv --model fasttext --arch cbow --minn 2 --maxn 5
  wordvec train cooking.train -o ff.wv --model supervised --hidden 64 --pooling max --alpha 0.2
  wordvec train cooking.train -o tuned.wv --model supervised --autotune-validation \
      cooking.valid --autotune-duration 5                    # fastText's autotune search
  wordvec train corpus.txt -o units.wv --bpe units.json     # vectors of BPE units
  wordvec train corpus.txt -o glove.wv --model glove               # counts, then GloVe
  wordvec train corpus.txt -o svd.wv --model ppmi-svd --dim 300    # PPMI + SVD baseline
  zcat corpus.txt.gz | wordvec train - -o model.wv                 # from standard input
  wordvec train wiki-dump/ -o model.wv --vocab-memory 8   # every file of a folder; 8 GB of words
  wordvec train s3://my-bucket/wiki-dump/ -o model.wv   # files at a URL (wordvec[dask], s3fs)
  wordvec train more.txt -o more.wv --init model.wv                # continue training a model
  wordvec train corpus.txt -o model.wv --init-vectors pretrained.vec  # start from known vectors
  wordvec train corpus.txt -o model.wv --phrases 1   # new york -> new_york first (word2phrase)
  wordvec train corpus.txt -o model.wv --save-vocab vocab.txt      # word2vec's -save-vocab
  wordvec train more.txt -o fixed.wv --read-vocab vocab.txt        # ... and -read-vocab

\b
The corpus is plain text, .gz or .bz2: words separated by whitespace (or see --tokenizer),
one sentence per line (longer lines are cut every --max-sentence-length words); several files
or folders, URLs (s3://, gs://, https://, through fsspec), or '-' for standard input, are read
one after another. It is read once, on every core, and kept as word ids in a temporary file
(4 bytes a token) while training. Several threads train at once without locks (as word2vec
and gensim do), so only --threads 1 runs are exactly reproducible.
"""


class _PathOrURL(click.ParamType):
    """A local path (a :class:`Path`, or '-' where ``dash`` stands for standard input) or a
    URL, kept as written (a Path would fold its '//')."""

    name = "path"

    def __init__(self, dash: bool):
        self.dash = dash

    def convert(self, value, param, ctx):
        if isinstance(value, str) and ((self.dash and value == "-") or is_url(value)):
            return value
        return Path(value)


CORPUS_ARGUMENT_TYPE = _PathOrURL(dash=True)
LOCAL_PATH_OR_URL = _PathOrURL(dash=False)
"""The type of the file options of wordvec.options (those that take no URL say so)."""
CORPUS_ARGUMENT = click.argument("corpus", nargs=-1, type=CORPUS_ARGUMENT_TYPE)
"""CORPUS...: files (plain, .gz, .bz2), directories (their files in name order), '-' for
standard input, a FIFO, or URLs (s3://bucket/prefix/, with fsspec); read one after another as
one corpus."""


@main.command(epilog=TRAIN_EXAMPLES)
@CORPUS_ARGUMENT
@click.option(
    "-o",
    "--output",
    required=True,
    type=LOCAL_PATH_OR_URL,
    help="Model file to write (wordvec's format; see 'wordvec export'); a name ending .txt or "
    ".vec gets word2vec text, .bin word2vec binary (fastText's .bin for --model fasttext and "
    "supervised).",
)
@_declared_options([option.name for option in OPTIONS])
@click.option(
    "--save-on-interrupt",
    is_flag=True,
    help="On Ctrl-C (or SIGTERM, SIGHUP) during the epochs, save the model trained so far.",
)
@RUN_OPTIONS
@click.pass_context
def train(
    ctx: click.Context,
    corpus: tuple[Path, ...],
    output: Path,
    save_on_interrupt: bool,
    quiet: bool,
    tmp_dir: Path | None,
    **options,
) -> None:
    """Train word vectors (or, with --model supervised, a text classifier) on CORPUS and save
    the model to OUTPUT.

    CORPUS is one or more files (plain, .gz, .bz2), directories (their files in name order)
    or '-' for standard input, read one after another.
    """
    from wordvec.formats import save_model_as
    from wordvec.training import train as train_model

    if not corpus and options["cooccur"] is None:
        raise click.UsageError("give a CORPUS (or, for glove and ppmi-svd, --cooccur COUNTS)")
    if corpus and options["cooccur"] is not None:
        raise click.UsageError("give a CORPUS or --cooccur COUNTS, not both")
    given = _given(ctx, options, output, *corpus, options["cooccur"])
    try:
        with planned_output(output):
            model = train_model(list(corpus) or None, quiet=quiet, tmp_dir=tmp_dir, **given)
    except TrainingInterrupted as stop:
        if save_on_interrupt:
            save_model_as(stop.model, output, suffix_format(output, stop.model.settings["model"]))
            stop.saved = output
        raise
    fmt = suffix_format(output, model.settings["model"])
    save_model_as(model, output, fmt)
    if not quiet:
        report = model.report
        threads = model.settings["threads"]
        loss = f"final loss {report.epoch_loss[-1]:.4f}; " if report.epoch_loss else ""
        rate = f"{report.words_per_second / threads:,.0f} {report.unit}/s/thread, " * bool(
            report.words
        )
        what = f"{len(model.vocab):,} words x {model.vectors.shape[1]} dims"
        if "labels" in model.arrays:
            what = f"a classifier of {len(model.arrays['label_counts']):,} labels over {what}"
        click.echo(
            f"trained {what} in {report.seconds:.1f} s "
            f"({rate}{threads} thread{'s' if threads > 1 else ''}); {loss}saved {output}"
            + (f" as {fmt} (its suffix's format; .wv keeps the whole model)" if fmt else ""),
            err=True,
        )


COOCCUR_EXAMPLES = """\b
Examples:
  wordvec cooccur corpus.txt.gz -o counts.cooc                 # window 10, 1/d weights
  wordvec cooccur corpus.txt -o counts.cooc --window 15 --memory 4
  wordvec cooccur corpus.txt -o left.cooc --asymmetric --no-distance-weighting
  wordvec cooccur wiki-dump/ -o counts.cooc --read-vocab vocab.txt  # a fixed vocabulary
  wordvec cooccur shards/ -o counts.cooc --scheduler tcp://10.0.0.1:8786  # on a Dask cluster
  wordvec train --model glove --cooccur counts.cooc -o glove.wv
  wordvec train --model ppmi-svd --cooccur counts.cooc -o svd.wv

\b
Counts every pair of words at most --window apart on one line (lines are never crossed),
weighted 1/distance as GloVe does, in both directions unless --asymmetric. When the tables
outgrow --memory, sorted shards spill to --tmp-dir and are merged at the end; temporary files
are removed however the run ends. The output is sparse rows (CSR) that NumPy memory-maps:
see the wordvec.cooccur.counts module for the layout.
"""


@main.command(epilog=COOCCUR_EXAMPLES)
@CORPUS_ARGUMENT
@click.option(
    "-o",
    "--output",
    required=True,
    type=LOCAL_PATH_OR_URL,
    help="Counts file to write.",
)
@_declared_options(COUNTING, COUNTING_MODEL)
@click.option(
    "--scheduler",
    envvar="DASK_SCHEDULER_ADDRESS",
    help="Count on the Dask cluster of this scheduler (tcp://host:8786); the workers must "
    "read CORPUS at the same paths. Needs wordvec[dask]. [env: DASK_SCHEDULER_ADDRESS]",
)
@RUN_OPTIONS
@click.pass_context
def cooccur(
    ctx: click.Context,
    corpus: tuple[Path, ...],
    output: Path,
    scheduler: str | None,
    quiet: bool,
    tmp_dir: Path | None,
    **options,
) -> None:
    """Count word co-occurrences in CORPUS (files, directories or '-') and save them to
    OUTPUT."""
    from wordvec.cooccur.counting import count_cooccurrences

    if not corpus:
        raise click.UsageError("give a CORPUS")
    given = _given(ctx, options, output, *corpus)
    if scheduler:
        from wordvec.cooccur.cluster import count_on_cluster

        counts = count_on_cluster(
            list(corpus), output, scheduler, quiet=quiet, tmp_dir=tmp_dir, **given
        )
    else:
        counts = count_cooccurrences(list(corpus), output, quiet=quiet, tmp_dir=tmp_dir, **given)
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
standard input each line is one query, answered as it arrives: a word, three words for an
analogy, or two (or four or more) words, whose unit vectors are summed as word2vec's distance
tool sums them; on a terminal wordvec prompts for them until an empty line or Ctrl-D. A word that is
not in the vocabulary but whose lowercase form is, is looked up lowercased (with a note).
VECTORS may be a wordvec model or a word2vec text/binary, GloVe, .vec, TSV or .npy file.
"""


@main.command(epilog=NEIGHBORS_EXAMPLES)
@click.argument("vectors_file", metavar="VECTORS", type=click.Path(path_type=Path))
@click.argument("words", nargs=-1)
@click.option(
    "-k",
    "--topn",
    "k",
    type=click.IntRange(min=1),
    default=NEIGHBOURS,
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
    """Print the nearest neighbours by cosine of WORDS (or of lines on standard input: on a
    terminal, a prompt until an empty line or Ctrl-D)."""
    from wordvec.formats import load_vectors

    vectors = load_vectors(vectors_file)
    queries: list[tuple[str, ...]] = [(w,) for w in words] + list(analogy)
    if queries:
        queries = [_known(vectors, query) for query in queries]  # all checked before printing
        for query in queries:
            _answer(vectors, query, k)
        return
    failed = answered = 0
    for line in _query_lines():
        fields = tuple(line.split())
        if not fields:
            continue
        try:
            _answer(vectors, _known(vectors, fields), k)
            answered += 1
        except WordvecError as exc:  # one bad line does not end the others
            click.echo(f"Error: {exc}", err=True)
            failed += 1
        sys.stdout.flush()  # each answer as soon as its line came
    if failed:
        sys.exit(1)
    if not answered:
        raise WordvecError("no queries on standard input")


def _query_lines() -> Iterator[str]:
    """Lines of standard input as they come; on a terminal, after a prompt, until an empty
    line or end of input."""
    from wordvec.corpus.sources import standard_input

    stdin = standard_input()
    interactive = stdin.isatty()
    while True:
        if interactive:
            click.echo("query (a word, A B C for an analogy, or words to sum; empty line "
                       "ends): ", nl=False, err=True)  # fmt: skip
        line = stdin.readline()
        if not line or (interactive and not line.strip()):
            return
        yield line


def _known(vectors, query: tuple[str, ...]) -> tuple[str, ...]:
    """The query's words as the vectors know them: a word that is not there but whose
    lowercase form is (as eval lowercases) is replaced by it, with a note."""
    known = []
    for word in query:
        if word not in vectors and word.lower() != word and word.lower() in vectors:
            click.echo(f"note: {shown(word)} is not in the vocabulary; using {shown(word.lower())}",
                       err=True)  # fmt: skip
            word = word.lower()
        vectors.vector(word)  # an unknown word: VocabularyError, the message says why
        known.append(word)
    return tuple(known)


def _answer(vectors, query: tuple[str, ...], k: int) -> None:
    if len(query) != 3:  # one word, or the sum of several (word2vec's distance)
        click.echo(" + ".join(query))
        results = vectors.most_similar(list(query), k=k)
    else:
        a, b, c = query
        click.echo(f"{a} : {b} :: {c} : ?")
        results = vectors.analogy(a, b, c, k=k)
    width = max((display_width(word) for word, _ in results), default=0)
    for rank, (word, score) in enumerate(results, start=1):
        padding = " " * (width - display_width(word))
        click.echo(f"  {rank:>3}  {word}{padding}  {score:.4f}")


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: two for a wide (CJK) character, none for a
    combining mark, one for the rest, so that columns of Chinese words line up."""
    import unicodedata

    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


EXPORT_EXAMPLES = """\b
Examples:
  wordvec export model.wv vectors.txt                          # word2vec text (gensim, fastText)
  wordvec export model.wv vectors.bin --format word2vec-binary
  wordvec export model.wv glove.txt --format glove             # no header line
  wordvec export model.wv projector.tsv --format tsv           # + projector.metadata.tsv
  wordvec export model.wv vectors.npy --format npy             # + vectors.words.txt
  wordvec export ft.wv ft.bin --format fasttext-bin  # fastText/gensim load_facebook_model
  wordvec export clf.wv clf.bin --format fasttext-bin  # fastText's load_model(...).predict

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
    from wordvec.formats import format_files

    written = dict(zip(("the output", "its words file"), format_files(output, fmt)))
    check_outputs(written, format_files(vectors_file))
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
  wordvec eval ft.wv --oov skip                  # fastText without its subword vectors
  wordvec eval model.wv --similarity my-pairs.txt --analogy my-questions.txt --json

\b
Similarity files hold 'word1 word2 score' lines; analogy files 'a b c d' lines under ': section'
lines (tabs or spaces, CRLF, '#' comments). Similarity is Spearman's rho over the pairs whose
words are both known (the rest are counted, not guessed); a fastText model also scores words
outside its vocabulary from their n-grams, unless --oov skip. Analogies are answered among the
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
    help="Word-pair similarity file (repeatable; '-': standard input). [default: bundled sets]",
)
@click.option(
    "--analogy",
    "analogy_files",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Analogy questions file (repeatable; '-': standard input, as word2vec's "
    "compute-accuracy reads them). [default: bundled sets]",
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
    default=ANALOGY_VOCABULARY,
    show_default=True,
    help="Search analogy answers among this many most frequent words.",
)
@click.option(
    "--oov",
    type=click.Choice(["subwords", "skip"]),
    default="subwords",
    show_default=True,
    help="Similarity pairs with a word outside the vocabulary: scored with subword vectors "
    "(fastText models, as fastText's own evaluation), or left out.",
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
    oov: str,
    case_sensitive: bool,
    sections: bool,
    as_json: bool,
) -> None:
    """Score VECTORS on word similarity and analogy benchmarks."""
    from wordvec.formats import load_vectors
    from wordvec.query.evalsets import default_sets
    from wordvec.query.report import evaluation_report, format_report, report_json

    if not similarity_files and not analogy_files:
        similarity_files = tuple(default_sets(lang, "similarity"))
        analogy_files = tuple(default_sets(lang, "analogy"))
    files = (*similarity_files, *analogy_files)
    if files.count(Path("-")) > 1:
        raise click.UsageError("standard input ('-') can be read once: give it to one option")
    for path in files:
        if str(path) != "-" and not path.is_file():
            raise WordvecError(f"evaluation file not found: {path}")
    vectors = load_vectors(vectors_file)
    report = evaluation_report(
        vectors,
        similarity_files,
        analogy_files,
        restrict=restrict,
        lowercase=not case_sensitive,
        oov=oov,
    )
    if as_json:
        click.echo(report_json(report))
    else:
        click.echo(format_report(report, sections=sections))


PLOT_EXAMPLES = """\b
Examples:
  wordvec plot model.wv king queen man woman paris france -o words.png
  wordvec plot model.wv --top 100 -o top100.svg
  wordvec plot model.wv -o groups.png --group animals=dog,horse,bird,fish \\
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
    from wordvec.query.plot import plot_words

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
    check_output(output, vectors_file, words_file)
    vectors = load_vectors(vectors_file)
    if top is not None:
        chosen += vectors.words[:top]
    written = plot_words(vectors, chosen, output, groups=named_groups, title=title)
    click.echo(f"wrote {written}", err=True)


from wordvec.cli import (  # noqa: E402, F401  (their commands join main)
    bpe,
    classify,
    phrases,
    print_vectors,
    quantize,
)
