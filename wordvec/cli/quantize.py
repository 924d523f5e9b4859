"""``wordvec quantize``: a classifier as fastText's quantized ``.ftz``, with fastText's
``quantize`` options (``export --format fasttext-ftz`` is the same with the defaults; fastText's
form as typed is :mod:`wordvec.cli.fasttext_lines`); a word model or vector file as a small
wordvec model (:mod:`wordvec.compression`), with a report of the quality kept.
"""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from wordvec.cli.parsing import CORPUS_ARGUMENT_TYPE, Command
from wordvec.compression.rows import ORDERS
from wordvec.errors import ConfigError
from wordvec.formats.fasttext_ftz import QNORM
from wordvec.runtime.atomic import check_output

QUANTIZE_EXAMPLES = """\b
Examples:
  wordvec quantize ft.wv -o ft-small.wv                # a fastText model at ~1% of its size
  wordvec quantize ft.bin -o ft-2mb.wv --size 2MB      # fastText's .bin, to fit in 2 MB
  wordvec quantize ft.wv -o ft-tiny.wv --ngram-cutoff 20000 --dsub 4 --no-report
  wordvec quantize GoogleNews-vectors-negative300.bin.gz -o gn.wv --cutoff 500000 --by norm
  wordvec quantize clf.wv -o clf.ftz                   # product-quantized input rows
  wordvec quantize clf2.wv -o small.ftz --cutoff 20000 --retrain --input cooking.train
  wordvec quantize clf.wv -o tiny.ftz --cutoff 2000 --qout --dsub 4
  wordvec export clf.wv clf.ftz --format fasttext-ftz  # the same as the first
  wordvec quantize -input cooking.train -output model_cooking -qnorm -retrain -cutoff 100000

\b
A word model (any --model but supervised) or vector file becomes a wordvec model file a
fraction of its size: the --cutoff most frequent words kept (or of largest norm: --by norm),
and of a fastText model the n-gram buckets that words read (--ngram-cutoff: the most frequent);
each row stored as a byte per --dsub dimensions, its length apart (--qnorm); --size picks
--dsub and the cutoffs. A word cut from a fastText model is answered from its n-grams, as any
unseen word. Every command and both faces (wordvec.gensim, wordvec.fasttext) read the small
model; export writes it out whole again. The report scores both models on WS-353, the bundled
analogies and (fastText) unseen words: pairs scored from their n-grams only.

\b
A classifier: fastText's 'quantize' (-cutoff, -retrain, -qnorm, -qout, -dsub): each input row
is cut into slices of --dsub dimensions, and each slice stored as the byte of the nearest of
256 centroids found by k-means. --cutoff N keeps the N input rows (words and n-grams) of the
largest norm, the end-of-line word always; --retrain then trains the kept rows on --input for
the model's epochs. fastText's load_model reads the file; so do wordvec's test, predict, embed,
neighbors and export. MODEL may be fastText's own supervised .bin. fastText's form, as typed
(the last example), quantizes NAME.bin to NAME.ftz with fastText's arguments.
"""


CLASSIFIER_ONLY = ("retrain", "input_file", "qout", "epochs", "alpha", "threads")
WORDS_ONLY = ("ngram_cutoff", "by", "size_text", "report")


@click.command(cls=Command, epilog=QUANTIZE_EXAMPLES)
@click.argument("model_file", metavar="MODEL", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
    help="The file to write: a classifier's .ftz, a word model's wordvec model (.wv).",
)  # fmt: skip
@click.option(
    "--cutoff", type=click.IntRange(min=0), default=0, show_default=True,
    help="Words kept (a classifier: input rows, those of largest norm) (0: all).",
)  # fmt: skip
@click.option(
    "--ngram-cutoff", type=click.IntRange(min=0), default=0, show_default=True,
    help="A fastText model's n-gram rows kept, of those words read (0: all).",
)  # fmt: skip
@click.option(
    "--by", type=click.Choice(ORDERS), default="frequency", show_default=True,
    help="Which words and n-grams the cutoffs keep: the most frequent, or of largest norm.",
)  # fmt: skip
@click.option(
    "--size", "size_text", metavar="SIZE",
    help="Fit the file in SIZE (50MB, 800KB): picks --dsub and the cutoffs.",
)  # fmt: skip
@click.option("--retrain", is_flag=True, help="Train the kept rows again on --input.")
@click.option(
    "--input", "input_file", type=CORPUS_ARGUMENT_TYPE, help="Labelled text for --retrain."
)
@click.option(
    "--qnorm/--no-qnorm", default=QNORM, show_default=True,
    help="Quantize each row's length apart from its direction (fastText's default: off; here "
    "on: it keeps more quality in 2% more bytes).",
)  # fmt: skip
@click.option("--qout", is_flag=True, help="A classifier: quantize the output rows too.")
@click.option(
    "--dsub", type=click.IntRange(min=1), default=2, show_default=True,
    help="Dimensions per slice (one byte each).",
)  # fmt: skip
@click.option("--epochs", type=click.IntRange(min=1), help="--retrain's epochs [the model's].")
@click.option(
    "--alpha", type=click.FloatRange(min=0, min_open=True), help="--retrain's rate [the model's]."
)
@click.option("--threads", type=click.IntRange(min=1), help="--retrain's threads [the model's].")
@click.option("--seed", type=int, help="Seeds the k-means samples [the model's seed].")
@click.option(
    "--report/--no-report", default=True, show_default=True,
    help="A word model: score the full and the small model.",
)  # fmt: skip
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def quantize(model_file: Path, output: Path, quiet: bool, **options) -> None:
    """Write the classifier MODEL (a wordvec model, or a supervised fastText .bin) as
    fastText's quantized .ftz, or the word model or vector file MODEL as a small wordvec
    model."""
    from wordvec.training.quantize import is_classifier

    check_output(output, model_file, options["input_file"])
    classifier = is_classifier(model_file)
    source = click.get_current_context().get_parameter_source
    given = {name for name in options if source(name) != ParameterSource.DEFAULT}
    wrong = sorted(given & set(WORDS_ONLY if classifier else CLASSIFIER_ONLY))
    if wrong:
        kind = "a classifier" if classifier else "a word model"
        raise ConfigError(f"{_flag(wrong[0])} does not apply to {kind} ({model_file.name})")
    if classifier:
        _quantize_classifier(model_file, output, quiet, options)
    else:
        _compress_words(model_file, output, given, quiet, options)


def _flag(name: str) -> str:
    return {"input_file": "--input", "size_text": "--size"}.get(name, "--" + name.replace("_", "-"))


def _quantize_classifier(model_file: Path, output: Path, quiet: bool, options: dict) -> None:
    from wordvec.training.quantize import quantize as quantize_model

    if options["retrain"] != (options["input_file"] is not None):
        raise ConfigError("--retrain and --input go together: --retrain trains on --input FILE")
    if output.suffix == ".wv":
        raise ConfigError(f"a classifier is quantized to fastText's .ftz, not {output.name}")
    quantize_model(model_file, output, cutoff=options["cutoff"], qnorm=options["qnorm"],
                   qout=options["qout"], dsub=options["dsub"], retrain=options["input_file"],
                   epochs=options["epochs"], alpha=options["alpha"],
                   threads=options["threads"], seed=options["seed"], quiet=quiet)  # fmt: skip
    click.echo(f"wrote {output} ({output.stat().st_size:,} bytes)", err=True)


def _compress_words(model_file: Path, output: Path, given: set, quiet: bool, options: dict) -> None:
    from wordvec.compression import compress
    from wordvec.compression.quality import format_quality
    from wordvec.compression.sizing import parse_size

    if output.suffix == ".ftz":
        raise ConfigError("a .ftz holds a classifier: write a word model's small form as NAME.wv")
    size = options["size_text"]
    if size is not None and given & {"dsub", "cutoff", "ngram_cutoff"}:
        raise ConfigError("--size picks --dsub and the cutoffs: give it or them, not both")
    done = compress(
        model_file, output, cutoff=options["cutoff"], ngram_cutoff=options["ngram_cutoff"],
        by=options["by"], dsub=options["dsub"], qnorm=options["qnorm"], seed=options["seed"],
        size=None if size is None else parse_size(size), report=options["report"], quiet=quiet,
    )  # fmt: skip
    plan = done.plan
    kept = f"{plan.words:,} words" + ("" if plan.ngrams is None else f", {plan.ngrams:,} n-grams")
    fasttext = ""
    if done.fasttext_bytes:
        fasttext = (f"; {done.small_bytes / done.fasttext_bytes:.2%} of fastText's .bin of it, "
                    f"about {done.fasttext_bytes:,}")  # fmt: skip
    sizes = f"{done.small_bytes:,} bytes, {done.ratio:.2%} of {done.source_bytes:,}{fasttext}"
    click.echo(f"wrote {output} ({sizes}): {kept}, --dsub {plan.dsub}", err=True)
    if options["report"]:
        click.echo(format_quality(done.full, done.small))
