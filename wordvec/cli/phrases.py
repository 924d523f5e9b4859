"""``wordvec phrases``: word2vec's word2phrase, the step before training on real text."""

from __future__ import annotations

import click

from wordvec.cli.parsing import (
    CORPUS_ARGUMENT,
    LOCAL_PATH_OR_URL,
    RUN_OPTIONS,
    Command,
    declared_options,
)
from wordvec.options import MIN_COUNT, PHRASE_PASSES, PHRASE_THRESHOLD
from wordvec.runtime.atomic import check_output

PHRASES_READING = (
    "lowercase", "encoding_errors", "convert", "tokenizer", "vocab_memory", "threads", "memory",
)  # fmt: skip
"""The options of wordvec.options that phrases takes as train and cooccur do (its --min-count
is the phrase rule's)."""

PHRASES_EXAMPLES = """\b
Examples:
  wordvec phrases corpus.txt.gz -o phrased.txt                 # new york -> new_york
  wordvec phrases corpus.txt -o phrased.txt --passes 2 --threshold 200  # up to 4 words
  wordvec phrases corpus.txt -o phrased.txt --min-count 10 --lowercase
  wordvec train phrased.txt -o model.wv                        # then train on the phrases

\b
Scores each pair of adjacent words as word2phrase does, (count(a b) - min_count) / count(a)
/ count(b) * total words, and joins with '_' the pairs over --threshold whose words and pair
occur --min-count times or more; a word joined to the one before it starts no pair, so each
pass makes two-token phrases, and --passes 2 phrases of up to four words. Lines are not
crossed. The same phrases as word2phrase at the same settings.
"""


@click.command(cls=Command, epilog=PHRASES_EXAMPLES)
@CORPUS_ARGUMENT
@click.option("-o", "--output", required=True, type=LOCAL_PATH_OR_URL,
              help="Text to write, with the phrases joined.")  # fmt: skip
@click.option("--min-count", type=click.IntRange(min=1), default=MIN_COUNT, show_default=True,
              help="Words and pairs seen fewer times are never joined.")  # fmt: skip
@click.option("--threshold", type=click.FloatRange(min=0), default=PHRASE_THRESHOLD,
              show_default=True,
              help="Join a pair whose score is over this (higher: fewer phrases).")  # fmt: skip
@click.option("--passes", type=click.IntRange(min=1, max=8), default=PHRASE_PASSES,
              show_default=True,
              help="Passes over the text: each can join phrases into longer ones.")  # fmt: skip
@declared_options(PHRASES_READING)
@RUN_OPTIONS
def phrases(corpus, output, min_count, threshold, passes, quiet, tmp_dir, **options) -> None:
    """Join the frequent word pairs of CORPUS into phrases (new_york) and write it to OUTPUT."""
    from wordvec.cooccur.phrases import find_phrases

    if not corpus:
        raise click.UsageError("give a CORPUS")
    check_output(output, *corpus)
    given = {name: value for name, value in options.items() if value is not None}
    report = find_phrases(list(corpus), output, min_count=min_count, threshold=threshold,
                          passes=passes, quiet=quiet, tmp_dir=tmp_dir, **given)  # fmt: skip
    if not quiet:
        times = f"{sum(report.joined):,} times in {passes} pass{'es' if passes > 1 else ''}"
        click.echo(f"{sum(report.phrases):,} phrases joined {times}; saved {output}", err=True)
