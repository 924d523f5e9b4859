"""``wordvec plot``: draw words' vectors in two dimensions."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import Command
from wordvec.errors import WordvecError
from wordvec.runtime.atomic import check_output

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


@click.command(cls=Command, epilog=PLOT_EXAMPLES)
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
