"""``wordvec quantize``: a classifier as fastText's quantized ``.ftz``, with fastText's
``quantize`` options (``export --format fasttext-ftz`` is the same with the defaults); its
form as fastText types it is :mod:`wordvec.cli.fasttext_lines`."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import CORPUS_ARGUMENT_TYPE, Command
from wordvec.errors import ConfigError
from wordvec.formats.fasttext_ftz import QNORM
from wordvec.runtime.atomic import check_output

QUANTIZE_EXAMPLES = """\b
Examples:
  wordvec quantize clf.wv -o clf.ftz                   # product-quantized input rows
  wordvec quantize clf2.wv -o small.ftz --cutoff 20000 --retrain --input cooking.train
  wordvec quantize clf.wv -o tiny.ftz --cutoff 2000 --qout --dsub 4
  wordvec export clf.wv clf.ftz --format fasttext-ftz  # the same as the first
  wordvec quantize -input cooking.train -output model_cooking -qnorm -retrain -cutoff 100000

\b
fastText's 'quantize' (-cutoff, -retrain, -qnorm, -qout, -dsub): each input row is cut into
slices of --dsub dimensions, and each slice stored as the byte of the nearest of 256 centroids
found by k-means. --cutoff N keeps the N input rows (words and n-grams) of the largest norm,
the end-of-line word always; --retrain then trains the kept rows on --input for the model's
epochs. fastText's load_model reads the file; so do wordvec's test, predict, embed, neighbors
and export. MODEL may be fastText's own supervised .bin. fastText's form, as typed (the
last example), quantizes NAME.bin to NAME.ftz with fastText's arguments.
"""


@click.command(cls=Command, epilog=QUANTIZE_EXAMPLES)
@click.argument("model_file", metavar="MODEL", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
    help="The .ftz to write.",
)  # fmt: skip
@click.option(
    "--cutoff", type=click.IntRange(min=0), default=0, show_default=True,
    help="Keep this many input rows, those of largest norm (0: all).",
)  # fmt: skip
@click.option("--retrain", is_flag=True, help="Train the kept rows again on --input.")
@click.option(
    "--input", "input_file", type=CORPUS_ARGUMENT_TYPE, help="Labelled text for --retrain."
)
@click.option(
    "--qnorm/--no-qnorm", default=QNORM, show_default=True,
    help="Quantize each row's norm apart from its direction (fastText's default: off; here on, "
    "as it kept more P@1 in 2% more bytes).",
)  # fmt: skip
@click.option("--qout", is_flag=True, help="Quantize the output rows too.")
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
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def quantize(model_file: Path, output: Path, cutoff: int, retrain: bool, input_file, qnorm: bool,
             qout: bool, dsub: int, epochs, alpha, threads, seed, quiet: bool) -> None:  # fmt: skip
    """Write the classifier MODEL (a wordvec model file, or a supervised fastText .bin) as
    fastText's quantized .ftz."""
    from wordvec.training.quantize import quantize as quantize_model

    if retrain != (input_file is not None):
        raise ConfigError("--retrain and --input go together: --retrain trains on --input FILE")
    check_output(output, model_file, input_file)
    quantize_model(model_file, output, cutoff=cutoff, qnorm=qnorm, qout=qout, dsub=dsub,
                   retrain=input_file, epochs=epochs, alpha=alpha, threads=threads, seed=seed,
                   quiet=quiet)  # fmt: skip
    click.echo(f"wrote {output} ({output.stat().st_size:,} bytes)", err=True)
