"""``wordvec bpe learn`` and ``wordvec bpe apply``: the units a model reads, before vectors."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import CORPUS_ARGUMENT, RUN_OPTIONS, CommandGroup, declared_options
from wordvec.runtime.atomic import check_output

BPE_READING = ("lowercase", "encoding_errors", "convert", "threads")
"""The options of wordvec.options that bpe takes as train does."""

LEARN_EXAMPLES = """\b
Examples:
  wordvec bpe learn corpus.txt.gz -o units.json --vocab-size 32000   # HF tokenizers' file
  wordvec bpe learn corpus.txt -o codes.txt --merges 10000 --word-end suffix  # subword-nmt's
  wordvec bpe apply units.json corpus.txt -o corpus.units.txt
  wordvec train corpus.txt -o units.wv --bpe units.json             # vectors of the units

\b
BPE as the course defines it: each word starts as its characters; the most frequent pair of
adjacent symbols inside a word is merged, again and again; ties go to the pair met first
(words in the order the corpus first shows them, left to right). --word-end none (the
default) marks no word end, so 'cats' can become 'cat' + 's'; suffix puts '</w>' on a word's
last character, as subword-nmt learns. OUTPUT ending in .json is a tokenizer.json that HF
tokenizers loads; any other name gets subword-nmt's codes.
"""

APPLY_EXAMPLES = """\b
Examples:
  wordvec bpe apply units.json corpus.txt -o corpus.units.txt   # cats -> cat@@ s
  echo 'cats and dogs' | wordvec bpe apply units.json           # standard input and output
  wordvec bpe apply codes.txt corpus.txt --format sentencepiece  # ▁cat s
  wordvec bpe apply bpemb.model corpus.txt --format ids          # a SentencePiece BPE model

\b
UNITS is a file of 'wordvec bpe learn', subword-nmt's codes, HF tokenizers' tokenizer.json
(a BPE model) or SentencePiece's BPE .model, told apart by content. Each distinct word is
segmented once, on every thread; lines are kept, words written with single spaces. With the
same codes file, the output is subword-nmt's apply-bpe's.
"""


@click.group(cls=CommandGroup)
def bpe() -> None:
    """Byte-pair encoding: learn units from a corpus, segment text into them."""


@bpe.command(epilog=LEARN_EXAMPLES)
@CORPUS_ARGUMENT
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Units file: NAME.json for tokenizer.json, else subword-nmt codes.")  # fmt: skip
@click.option("--vocab-size", type=click.IntRange(min=2),
              help="Units in all: <unk>, the corpus's characters, one per merge.")  # fmt: skip
@click.option("--merges", type=click.IntRange(min=1), help="Merges to learn (or --vocab-size).")
@click.option("--min-frequency", type=click.IntRange(min=1), default=2, show_default=True,
              help="No merge of a pair seen fewer times.")  # fmt: skip
@click.option("--word-end", type=click.Choice(["none", "suffix"]), default="none",
              show_default=True,
              help="Mark a word's end: none, or '</w>' on its last character.")  # fmt: skip
@declared_options(BPE_READING)
@RUN_OPTIONS
def learn(corpus, output, vocab_size, merges, min_frequency, word_end, quiet, tmp_dir,
          threads, **reading) -> None:  # fmt: skip
    """Learn BPE units from CORPUS and write them to OUTPUT."""
    from wordvec.bpe import learn as learn_units
    from wordvec.bpe import save_units
    from wordvec.options import ReadingOptions

    if not corpus:
        raise click.UsageError("give a CORPUS")
    check_output(output, *corpus)
    given = {name: value for name, value in reading.items() if value is not None}
    units = learn_units(list(corpus), vocab_size=vocab_size, merges=merges,
                        min_frequency=min_frequency, word_end=word_end, threads=threads,
                        quiet=quiet, tmp_dir=tmp_dir,
                        reading=ReadingOptions.of(min_count=1, **given))  # fmt: skip
    save_units(units, output)
    if not quiet:
        click.echo(f"learned {len(units.merges):,} merges ({len(units.vocab):,} units, "
                   f"{len(units.alphabet):,} characters); saved {output}", err=True)  # fmt: skip


@bpe.command(epilog=APPLY_EXAMPLES)
@click.argument("units_file", metavar="UNITS", type=click.Path(path_type=Path))
@CORPUS_ARGUMENT
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Text to write (default: standard output).")  # fmt: skip
@click.option("--format", "form", type=click.Choice(["subword-nmt", "sentencepiece", "ids"]),
              default="subword-nmt", show_default=True,
              help="cat@@ s (subword-nmt), ▁cat s (SentencePiece) or the units' ids.")  # fmt: skip
@declared_options(BPE_READING)
@RUN_OPTIONS
def apply(units_file, corpus, output, form, quiet, tmp_dir, threads, **reading) -> None:
    """Segment CORPUS (default: standard input) into the BPE units of UNITS."""
    from wordvec.bpe import load_units, segment_corpus
    from wordvec.options import ReadingOptions

    corpus = list(corpus) or ["-"]
    if output is not None:
        check_output(output, units_file, *corpus)
    units = load_units(units_file)
    given = {name: value for name, value in reading.items() if value is not None}
    done = segment_corpus(units, corpus, output, form=form, threads=threads,
                          quiet=quiet or output is None, tmp_dir=tmp_dir,
                          reading=ReadingOptions.of(min_count=1, **given))  # fmt: skip
    if not quiet and output is not None:
        click.echo(f"segmented {done.tokens:,} words ({done.words:,} distinct) into "
                   f"{done.units:,} units; saved {output}", err=True)  # fmt: skip
