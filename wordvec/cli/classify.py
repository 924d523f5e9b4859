"""``wordvec test``, ``predict`` and ``embed``: what users do with a classifier, and with
vectors as a classifier's input, in fastText's forms."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from wordvec.cli.parsing import CORPUS_ARGUMENT_TYPE, Command
from wordvec.errors import ConfigError, NotAClassifier, WordvecError
from wordvec.runtime.atomic import atomic_write, check_output

TEST_EXAMPLES = """\b
Examples:
  wordvec test clf.wv cooking.valid                 # N, P@1 and R@1
  wordvec test clf.wv cooking.valid -k 5
  wordvec test clf.wv cooking.valid --per-label     # and precision, recall, F1 per label
  wordvec test clf.bin cooking.valid                # a fastText supervised .bin
  wordvec test clf.bin cooking.valid 5              # fastText's form: K (and THRESHOLD) after

\b
N counts the lines that have a label; P@k is the share of the k predictions (per line, those
above --threshold) that are among the line's labels, R@k the share of the lines' labels that
are among the predictions: fastText's definitions, so the figures compare with its 'test'.
"""

PREDICT_EXAMPLES = """\b
Examples:
  wordvec predict clf.wv cooking.valid -k 3         # the top 3 labels of each line
  printf 'how long to boil an egg\\n' | wordvec predict clf.wv
  wordvec predict clf2.wv cooking.valid --threshold 0.5 --prob
  printf 'boil an egg\\n' | wordvec predict clf.wv - 3    # fastText's form: K [THRESHOLD]

\b
One output line per input line, as fastText's predict: the labels, most probable first (with
--prob each followed by its probability, as predict-prob). Lines from a pipe are answered as
they arrive.
"""

PREDICT_PROB_EXAMPLES = """\b
Examples:
  wordvec predict-prob clf.bin cooking.valid 3         # fastText's command line, as typed
  printf 'how long to boil an egg\\n' | wordvec predict-prob clf.wv - 2
  wordvec predict-prob clf.wv cooking.valid -k 3 --threshold 0.1

\b
fastText's predict-prob, 'wordvec predict --prob': the labels, most probable first, each
followed by its probability.
"""

EMBED_EXAMPLES = """\b
Examples:
  wordvec embed clf.wv cooking.valid -o sentences.npy   # what the classifier sees
  wordvec embed model.wv cooking.valid --pooling max    # max over the words' vectors
  wordvec embed ft.bin cooking.valid                    # fastText's print-sentence-vectors
  printf 'boil an egg\\n' | wordvec embed model.wv
  wordvec embed docs.wv new-docs.txt --epochs 20      # a doc2vec model infers each line's

\b
A classifier's sentence vector is the mean of the line's input rows (words, n-grams), the
hidden vector it classifies. For word vectors, the mean (or maximum per dimension) of the
vectors of the line's words; a fastText model scales each word's vector (an unseen word's from
its n-grams) to length 1 first, as fastText's print-sentence-vectors does. Lines with no known
word get a zero vector. A doc2vec model infers a vector for each line as gensim's infer_vector
does: a new document row trained for the model's epochs (--epochs) from its --alpha, the words
and output weights frozen. Text output is one vector a line; -o FILE.npy writes a NumPy matrix.
"""


def _input_argument(name: str):
    return click.argument(name, required=False, default="-", type=CORPUS_ARGUMENT_TYPE)


_MODEL_ARGUMENT = click.argument("model_file", metavar="MODEL", type=click.Path(path_type=Path))


def _labels_per_line(ctx, param, k: int) -> int:
    if k == 0:
        raise click.BadParameter("give 1 or more labels per line, or -1 for all", ctx, param)
    return k


_K_OPTION = click.option(
    "-k", type=click.IntRange(min=-1), default=1, show_default=True,
    callback=_labels_per_line, help="Labels per line (-1: every label, as fastText's).",
)  # fmt: skip


class _Probability(click.FloatRange):
    """A number from 0 to 1; ``nan``, which click's range lets through (no comparison with it
    is false), is refused: no label would pass it and a test would print P@1 nan."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number.", param, ctx)
        return number


_ENCODING_ERRORS_OPTION = click.option(
    "--encoding-errors",
    type=click.Choice(["strict", "replace", "ignore"]),
    default="strict",
    show_default=True,
    help="What to do with bytes that are not UTF-8: stop, or replace/drop them (as the "
    "model's training text was read).",
)
_THRESHOLD_OPTION = click.option(
    "--threshold",
    type=_Probability(0, 1),
    default=0.0,
    show_default=True,
    help="Leave out labels less probable than this.",
)


_FASTTEXT_POSITIONALS = click.argument("k_threshold", nargs=-1, metavar="[K [THRESHOLD]]")
"""fastText's way to give -k and --threshold: after the file (``test MODEL FILE 5``)."""


def _k_and_threshold(ctx: click.Context, given: tuple[str, ...], k: int, threshold: float):
    """-k and --threshold, or fastText's positional K and THRESHOLD after the file (not both)."""
    if not given:
        return k, threshold
    if len(given) > 2:
        raise click.UsageError(f"unexpected arguments after K and THRESHOLD: {' '.join(given[2:])}")
    for name, option in (("k", "-k"), ("threshold", "--threshold"))[: len(given)]:
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError(f"give {option} once: as the option or after the file")
    try:
        k = int(given[0])
        threshold = float(given[1]) if len(given) > 1 else threshold
    except ValueError:
        k = 0
    if k < -1 or k == 0 or not 0 <= threshold <= 1:
        raise click.UsageError(
            f"after the file come K, 1 or more labels (-1: all), and THRESHOLD, from 0 to 1: "
            f"not {' '.join(given)}"
        )
    return k, threshold


@click.command("test", cls=Command, epilog=TEST_EXAMPLES)
@_MODEL_ARGUMENT
@_input_argument("test_file")
@_FASTTEXT_POSITIONALS
@_K_OPTION
@_THRESHOLD_OPTION
@click.option("--per-label", is_flag=True, help="Also precision, recall and F1 per label.")
@_ENCODING_ERRORS_OPTION
@click.pass_context
def test_classifier(
    ctx: click.Context,
    model_file: Path,
    test_file: Path | str,
    k_threshold: tuple[str, ...],
    k: int,
    threshold: float,
    per_label: bool,
    encoding_errors: str,
) -> None:
    """Score the classifier MODEL on the labelled lines of TEST (a file, or '-')."""
    from wordvec.corpus.sources import text_lines
    from wordvec.formats import load_classifier

    k, threshold = _k_and_threshold(ctx, k_threshold, k, threshold)

    classifier = load_classifier(model_file)
    report = classifier.test(text_lines(test_file, encoding_errors), k, threshold)
    if not report.examples:
        raise WordvecError(f"{test_file} has no line with a label the model knows")
    if per_label:
        for label, scores in report.labels.items():
            if scores.gold or scores.predicted:
                metrics = "".join(
                    f"{name} : {_fixed(value)}  "
                    for name, value in (
                        ("F1-Score", scores.f1),
                        ("Precision", scores.precision),
                        ("Recall", scores.recall),
                    )
                )
                click.echo(f"{metrics} {label}")
    click.echo(f"N\t{report.examples}")
    click.echo(f"P@{k}\t{report.precision:.3g}")
    click.echo(f"R@{k}\t{report.recall:.3g}")


def _block(input_file: Path | str) -> int:
    """Lines a classifier reads at a time: one from standard input or a named pipe, whose
    lines are answered as they come; :data:`~wordvec.query.classifier.BLOCK_LINES` from a
    regular file."""
    from wordvec.query.classifier import BLOCK_LINES

    return BLOCK_LINES if input_file != "-" and Path(input_file).is_file() else 1


def _fixed(value: float) -> str:
    """fastText's test-label column: 6 decimals, dashes for an undefined figure."""
    return f"{value:9.6f}" if value == value else "--------"


def _prediction_parameters(command):
    """The arguments and options of ``predict`` and ``predict-prob``, in help's order."""
    shared = (_MODEL_ARGUMENT, _input_argument("input_file"), _FASTTEXT_POSITIONALS, _K_OPTION,
              _THRESHOLD_OPTION, _ENCODING_ERRORS_OPTION, click.pass_context)  # fmt: skip
    for decorate in reversed(shared):
        command = decorate(command)
    return command


@click.command(cls=Command, epilog=PREDICT_EXAMPLES)
@click.option(
    "--prob/--labels-only", default=False,
    help="Each label's probability after it (fastText's predict-prob), or labels alone (its "
    "predict).  [default: --labels-only]",
)  # fmt: skip
@_prediction_parameters
def predict(
    ctx: click.Context,
    model_file: Path,
    input_file: Path | str,
    k_threshold: tuple[str, ...],
    k: int,
    threshold: float,
    prob: bool,
    encoding_errors: str,
) -> None:
    """Print the most probable labels of each line of INPUT (a file, or '-' for standard
    input, the default)."""
    from wordvec.corpus.sources import text_lines
    from wordvec.formats import load_classifier

    k, threshold = _k_and_threshold(ctx, k_threshold, k, threshold)
    classifier = load_classifier(model_file)
    lines = text_lines(input_file, encoding_errors)
    for predictions in classifier.predict_lines(lines, k, threshold, block=_block(input_file)):
        fields = [f"{label} {p:.6g}" if prob else label for label, p in predictions]
        click.echo(" ".join(fields))
        sys.stdout.flush()  # each answer before the next line is read


@click.command("predict-prob", cls=Command, epilog=PREDICT_PROB_EXAMPLES)
@_prediction_parameters
def predict_prob(ctx: click.Context, **arguments: Any) -> None:
    """Print the most probable labels of each line of INPUT with their probabilities, as
    fastText's predict-prob (and wordvec's predict --prob) do."""
    ctx.invoke(predict.callback, prob=True, **arguments)


@click.command(cls=Command, epilog=EMBED_EXAMPLES)
@_MODEL_ARGUMENT
@_input_argument("input_file")
@click.option(
    "--pooling",
    type=click.Choice(["mean", "max"]),
    default="mean",
    show_default=True,
    help="How the words' vectors become one (word vectors only).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the vectors to this .npy file instead of standard output.",
)
@click.option(
    "--epochs",
    type=click.IntRange(min=1),
    default=None,
    help="doc2vec: inference passes over each line [default: the model's epochs].",
)
@click.option("--alpha", type=click.FloatRange(min=0, max=10, min_open=True, max_open=True),
              default=None, help="doc2vec: inference's first learning rate [default: the "
              "model's].")  # fmt: skip
@_ENCODING_ERRORS_OPTION
def embed(
    model_file: Path,
    input_file: Path | str,
    pooling: str,
    output: Path | None,
    epochs: int | None,
    alpha: float | None,
    encoding_errors: str,
) -> None:
    """Print a sentence vector for each line of INPUT (a file, or '-' for standard input)."""
    import numpy as np

    from wordvec.corpus.sources import text_lines
    from wordvec.formats import load_classifier
    from wordvec.query.pooling import sentence_vector

    if output is not None:
        if output.suffix != ".npy":
            raise ConfigError("-o/--output writes NumPy's format: give a name ending in .npy")
        check_output(output, model_file, *([] if input_file == "-" else [input_file]))
    documents = None
    try:
        classifier = load_classifier(model_file)
    except NotAClassifier:
        classifier = None
        vectors, documents = _vectors_and_documents(model_file)
    else:
        if pooling != "mean":
            raise ConfigError(
                f"--pooling {pooling} does not apply to a classifier: its sentence vector is the "
                "mean of the line's rows, the one it classifies"
            )
    if documents is None and (epochs, alpha) != (None, None):
        raise ConfigError("--epochs and --alpha apply to a doc2vec model's inference only")
    if documents is not None and pooling != "mean":
        raise ConfigError(f"--pooling {pooling} does not apply to a doc2vec model: it infers")
    rows, empty = [], 0
    lines = text_lines(input_file, encoding_errors)
    if documents is not None:
        line_vectors = _inferred(documents, lines, epochs, alpha, _block(input_file))
    elif classifier is not None:
        line_vectors = classifier.sentence_vectors(lines, block=_block(input_file))
    else:
        line_vectors = (sentence_vector(vectors, line.split(), pooling) for line in lines)
    for vector in line_vectors:
        if vector is None:
            empty += 1
            vector = np.zeros(vectors.dim, dtype=np.float32)
        if output is None:
            click.echo(" ".join(f"{x:.6g}" for x in vector.tolist()))
            sys.stdout.flush()
        else:
            rows.append(vector)
    if output is not None:
        dim = classifier.dim if classifier is not None else vectors.dim
        with atomic_write(output, "wb") as out:
            np.save(out, np.array(rows, dtype=np.float32).reshape(len(rows), dim))
        click.echo(f"wrote {len(rows):,} sentence vectors of {dim} dims to {output}", err=True)
    if empty:
        lines = "1 line" if empty == 1 else f"{empty:,} lines"
        click.echo(f"note: {lines} had no word with a vector (zero vectors)", err=True)


def _vectors_and_documents(model_file: Path):
    """The word vectors of ``model_file`` (checked, as every query reads them), and its model
    when it is a doc2vec model (else None; a model file is memory-mapped, so its second
    opening reads only its header)."""
    from wordvec.formats import detect_format, load_vectors

    vectors = load_vectors(model_file)
    if detect_format(model_file) != "model":
        return vectors, None
    from wordvec.model import Model

    model = Model.load(model_file)
    return vectors, model if "doc_vectors" in model.arrays else None


def _inferred(model, lines, epochs: int | None, alpha: float | None, block: int):
    """Each line's inferred vector, ``block`` lines at a time (one at a time from a terminal
    or a pipe, so that each answer comes before the next line is read)."""
    import itertools

    lines = iter(lines)
    while chunk := list(itertools.islice(lines, block)):
        yield from model.infer_vectors([line.split() for line in chunk], epochs=epochs,
                                       alpha=alpha)  # fmt: skip
