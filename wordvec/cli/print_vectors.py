"""``wordvec print-word-vectors`` and ``print-ngrams``: fastText's commands of the same names,
over the fastText face (:mod:`wordvec.fasttext`), so they print what fastText prints."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from wordvec.cli.parsing import Command
from wordvec.errors import WordvecError

PRINT_WORD_VECTORS_EXAMPLES = """\b
Examples:
  printf 'egg\\nbread\\nunseenword\\n' | wordvec print-word-vectors ft.wv
  printf 'egg bread\\n' | wordvec print-word-vectors ft.bin    # fastText's own .bin too
  printf 'egg\\n' | wordvec print-word-vectors clf.wv          # a classifier's word vectors

\b
Reads words from standard input (whitespace-separated, any number a line) and prints each
word and its vector, as fastText's print-word-vectors does: the mean of the word's own row
and its character n-grams' rows (an unseen word's n-grams' only; zero when it has none).
"""

PRINT_NGRAMS_EXAMPLES = """\b
Examples:
  wordvec print-ngrams ft.wv republics
  wordvec print-ngrams ft.bin unseenword           # fastText's own .bin too
  wordvec print-ngrams clf.wv eggs                 # a classifier: its own row (no --maxn)

\b
Prints each character n-gram of WORD (and the word itself, if in the vocabulary) with its input
row, as fastText's print-ngrams does.
"""


def _model(path: Path):
    from wordvec.fasttext import load_model

    try:
        return load_model(str(path))
    except ValueError as exc:
        raise WordvecError(str(exc)) from None


def _print(name: str, vector) -> None:
    click.echo(name + " " + " ".join(f"{x:.5g}" for x in vector.tolist()) + " ")


@click.command("print-word-vectors", cls=Command, epilog=PRINT_WORD_VECTORS_EXAMPLES)
@click.argument("model_file", metavar="MODEL", type=click.Path(path_type=Path))
def print_word_vectors(model_file: Path) -> None:
    """Print the vector of each word read from standard input (fastText's command)."""
    model = _model(model_file)
    for line in sys.stdin:
        for word in line.split():
            _print(word, model.get_word_vector(word))
            sys.stdout.flush()


@click.command("print-ngrams", cls=Command, epilog=PRINT_NGRAMS_EXAMPLES)
@click.argument("model_file", metavar="MODEL", type=click.Path(path_type=Path))
@click.argument("word")
def print_ngrams(model_file: Path, word: str) -> None:
    """Print WORD's character n-grams and their rows (fastText's command)."""
    model = _model(model_file)
    names, ids = model.get_subwords(word)
    if not len(ids):
        raise WordvecError(f"{model_file.name} gives {word!r} no n-grams (it has no subwords)")
    for name, row in zip(names, ids):
        _print(name, model.get_input_vector(int(row)))
