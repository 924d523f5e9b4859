"""``wordvec phrases``: word2vec's word2phrase, the step before training on real text."""

from __future__ import annotations

import click

from wordvec.cli import CORPUS_ARGUMENT, LOCAL_PATH_OR_URL, RUN_OPTIONS, main
from wordvec.options import OPTION, TOKENIZERS
from wordvec.runtime.atomic import check_output

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


@main.command(epilog=PHRASES_EXAMPLES)
@CORPUS_ARGUMENT
@click.option("-o", "--output", required=True, type=LOCAL_PATH_OR_URL,
              help="Text to write, with the phrases joined.")  # fmt: skip
@click.option("--min-count", type=click.IntRange(min=1), default=5, show_default=True,
              help="Words and pairs seen fewer times are never joined.")  # fmt: skip
@click.option("--threshold", type=click.FloatRange(min=0), default=100.0, show_default=True,
              help="Join a pair whose score is over this (higher: fewer phrases).")  # fmt: skip
@click.option("--passes", type=click.IntRange(min=1, max=8), default=1, show_default=True,
              help="Passes over the text: each can join phrases into longer ones.")  # fmt: skip
@click.option("--lowercase", is_flag=True, help="Lowercase the text first.")
@click.option("--tokenizer", type=click.Choice(TOKENIZERS), default="whitespace",
              show_default=True, help="How lines become words (as train's).")  # fmt: skip
@click.option("--encoding-errors", type=click.Choice(OPTION["encoding_errors"].choices),
              default="strict", show_default=True,
              help="Bytes that are not UTF-8: stop, or replace/drop them.")  # fmt: skip
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="Threads reading the text. [default: all cores]")  # fmt: skip
@click.option("--memory", type=click.FloatRange(min=0, min_open=True), default=0.5,
              show_default=True, help="GB for counting pairs (beyond it, they spill).")  # fmt: skip
@RUN_OPTIONS
def phrases(corpus, output, min_count, threshold, passes, lowercase, tokenizer, encoding_errors,
            threads, memory, quiet, tmp_dir) -> None:  # fmt: skip
    """Join the frequent word pairs of CORPUS into phrases (new_york) and write it to OUTPUT."""
    from wordvec.cooccur.phrases import find_phrases

    if not corpus:
        raise click.UsageError("give a CORPUS")
    check_output(output, *corpus)
    report = find_phrases(list(corpus), output, min_count=min_count, threshold=threshold,
                          passes=passes, threads=threads, memory=memory, quiet=quiet,
                          tmp_dir=tmp_dir, lowercase=lowercase, tokenizer=tokenizer,
                          encoding_errors=encoding_errors)  # fmt: skip
    if not quiet:
        times = f"{sum(report.joined):,} times in {passes} pass{'es' if passes > 1 else ''}"
        click.echo(f"{sum(report.phrases):,} phrases joined {times}; saved {output}", err=True)
