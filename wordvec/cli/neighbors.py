"""``wordvec neighbors``: nearest neighbours and analogies, from the command line or as a
prompt on standard input."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from wordvec.cli.parsing import Command
from wordvec.errors import WordvecError, shown
from wordvec.query import NEIGHBOURS

NEIGHBORS_EXAMPLES = """\b
Examples:
  wordvec neighbors model.wv paris king -k 5
  wordvec neighbors model.wv --analogy man king woman     # king - man + woman
  printf 'france\\nman king woman\\n' | wordvec neighbors model.wv
  wordvec neighbors crawl-300d-2M.vec paris --index crawl-300d-2M.vec.index

\b
--analogy A B C reads "A is to B as C is to ?" and ranks words by cosine to B - A + C
(3CosAdd; the three words themselves are left out), as word2vec's analogy tool does. On
standard input each line is one query, answered as it arrives: a word, three words for an
analogy, or two (or four or more) words, whose unit vectors are summed as word2vec's distance
tool sums them; on a terminal wordvec prompts for them until an empty line or Ctrl-D. A word that is
not in the vocabulary but whose lowercase form is, is looked up lowercased (with a note).
VECTORS may be a wordvec model or a word2vec text/binary, GloVe, .vec, TSV or .npy file.
With an index (wordvec index VECTORS writes VECTORS.index, found there) the search is
approximate and its first line says so; the similarities shown are exact.
"""


@click.command(cls=Command, epilog=NEIGHBORS_EXAMPLES)
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
@click.option(
    "--doc", "documents", is_flag=True,
    help="A doc2vec model: WORDS are documents' tags (line numbers, from 0), answered with "
    "the nearest documents.",
)  # fmt: skip
@click.option(
    "--index", "index_file", type=click.Path(dir_okay=False, path_type=Path),
    help="Search through this approximate index (wordvec index) [default: VECTORS.index, if "
    "there].",
)  # fmt: skip
@click.option("--exact", is_flag=True, help="Search every word, even with an index beside VECTORS.")
@click.option(
    "--ef", type=click.IntRange(1, 1 << 16),
    help="Candidates an index weighs per query [as built]: more is nearer exact, slower.",
)  # fmt: skip
def neighbors(
    vectors_file: Path, words: tuple[str, ...], k: int, analogy: tuple[tuple[str, str, str], ...],
    documents: bool, index_file: Path | None, exact: bool, ef: int | None,
) -> None:  # fmt: skip
    """Print the nearest neighbours by cosine of WORDS (or of lines on standard input: on a
    terminal, a prompt until an empty line or Ctrl-D)."""
    from wordvec.formats import load_vectors

    index_file = _index_file(vectors_file, index_file, exact, ef, documents)
    if documents:
        from wordvec.model import Model

        vectors = Model.load(vectors_file).dv
    else:
        vectors = load_vectors(vectors_file)
    given = click.get_current_context().get_parameter_source("k").name == "COMMANDLINE"
    if given and k >= len(vectors):  # the default is cut to what a small model has
        raise click.BadParameter(f"{k} neighbours asked of {len(vectors):,} words", param_hint="-k")
    index = None
    if index_file is not None:
        from wordvec.index.approximate import NeighbourIndex

        index = NeighbourIndex.open(index_file, vectors, vectors_file.name)
        if ef is not None:
            index.expansion_search = ef
        click.echo(
            f"search: approximate, through {index_file}: {index.describe()}; --exact for exact"
        )
    queries: list[tuple[str, ...]] = [(w,) for w in words] + list(analogy)
    if queries:
        queries = [_known(vectors, query) for query in queries]  # all checked before printing
        for query in queries:
            _answer(vectors, query, k, index)
        return
    failed = answered = 0
    for line in _query_lines():
        fields = tuple(line.split())
        if not fields:
            continue
        try:
            _answer(vectors, _known(vectors, fields), k, index)
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


def _index_file(
    vectors_file: Path, given: Path | None, exact: bool, ef: int | None, documents: bool
) -> Path | None:
    """The index to search through: the one given, else the one beside the vectors (unless
    ``exact``); None for exact search. Options that do not go together are errors."""
    from wordvec.index.files import default_path

    if given is not None and (exact or documents):
        raise click.UsageError(f"--index and {'--exact' if exact else '--doc'} do not go together")
    beside = default_path(vectors_file)
    found = given or (beside if not (exact or documents) and beside.is_file() else None)
    if ef is not None and found is None:
        raise click.UsageError(f"--ef sets an index's search, and there is no {beside.name}")
    return found


def _answer(vectors, query: tuple[str, ...], k: int, index=None) -> None:
    if len(query) != 3:  # one word, or the sum of several (word2vec's distance)
        click.echo(" + ".join(query))
        results = vectors.most_similar(list(query), k=k, index=index)
    else:
        a, b, c = query
        click.echo(f"{a} : {b} :: {c} : ?")
        results = vectors.analogy(a, b, c, k=k, index=index)
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
