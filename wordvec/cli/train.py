"""``wordvec train``: train a model on a corpus and save it."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import (
    CORPUS_ARGUMENT,
    LOCAL_PATH_OR_URL,
    RUN_OPTIONS,
    Command,
    declared_options,
    given_options,
)
from wordvec.errors import TrainingInterrupted
from wordvec.formats.names import suffix_format
from wordvec.options import OPTIONS
from wordvec.runtime.atomic import planned_output

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
  wordvec train cooking.train -o tuned.ftz --model supervised --autotune-validation \
      cooking.valid --autotune-duration 5 --autotune-model-size 300k   # and a .ftz that fits
  wordvec train corpus.txt -o units.wv --bpe units.json     # vectors of BPE units
  wordvec train questions.txt -o docs.wv --model doc2vec --arch dbow  # a vector per line
  wordvec train questions.txt -o d.wv --model doc2vec --arch dbow --dbow-words --per-pair-negatives
  wordvec train questions.txt -o dmc.wv --model doc2vec --context concat  # gensim's dm_concat=1
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


@click.command(cls=Command, epilog=TRAIN_EXAMPLES)
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
@declared_options([option.name for option in OPTIONS])
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
    given = given_options(ctx, options, output, *corpus, options["cooccur"])
    sized = options["autotune_model_size"] is not None
    fasttext_file = suffix_format(output, options["model"]) == "fasttext-bin" or sized
    if fasttext_file and (options["hidden"] or options["pooling"] not in (None, "mean")):
        from wordvec.formats.wordvec_model import FASTTEXT_CANNOT_HOLD

        raise click.UsageError(FASTTEXT_CANNOT_HOLD)
    if sized and not str(output).endswith(".ftz"):
        raise click.UsageError("--autotune-model-size writes a quantized model: -o NAME.ftz")
    try:
        with planned_output(output):
            model = train_model(list(corpus) or None, quiet=quiet, tmp_dir=tmp_dir, **given)
    except TrainingInterrupted as stop:
        if save_on_interrupt:
            save_model_as(stop.model, output, suffix_format(output, stop.model.settings["model"]))
            stop.saved = output
        raise
    fmt = "fasttext-ftz" if sized else suffix_format(output, model.settings["model"])
    if sized:  # the best trial's quantization, as fastText's autotune ends
        from wordvec.training.autotune import write_sized

        write_sized(model, output, list(corpus))
    else:
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
