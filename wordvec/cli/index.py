"""``wordvec index``: build an approximate nearest-neighbour index of a vector file."""

from __future__ import annotations

import time
from pathlib import Path

import click

from wordvec.cli.parsing import Command
from wordvec.index.settings import LIMITS, PRECISIONS, Settings
from wordvec.runtime.atomic import check_output

DEFAULT = Settings()

INDEX_EXAMPLES = """\b
Examples:
  wordvec index crawl-300d-2M.vec                # writes crawl-300d-2M.vec.index
  wordvec neighbors crawl-300d-2M.vec paris      # finds the index beside it and uses it
  wordvec neighbors crawl-300d-2M.vec paris --exact
  wordvec index GoogleNews-vectors-negative300.bin.gz -o gn.index --precision f32

\b
The index is an HNSW graph (faiss; pip install 'wordvec[index]') of the vectors' unit rows.
A query through it reads a few thousand rows rather than all of them, and the vectors score
what it finds exactly: the similarities are exact search's, the words nearly always the same
(recall@10 at least 0.95 on a million words at the default settings). The file records
which vectors it indexes: a changed vector file makes it an error, not wrong answers. It is
opened memory-mapped.
"""


@click.command(cls=Command, epilog=INDEX_EXAMPLES)
@click.argument("vectors_file", metavar="VECTORS", type=click.Path(path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
    help="The index file [default: VECTORS.index, where neighbors looks for it].",
)  # fmt: skip
@click.option(
    "--connectivity", "-M", type=click.IntRange(*LIMITS["connectivity"]),
    default=DEFAULT.connectivity, show_default=True,
    help="Links per word in the graph: more finds neighbours more surely, in a larger file.",
)  # fmt: skip
@click.option(
    "--expansion-add", "--ef-construction", type=click.IntRange(*LIMITS["expansion_add"]),
    default=DEFAULT.expansion_add, show_default=True,
    help="Candidates weighed as each word is linked.",
)  # fmt: skip
@click.option(
    "--expansion-search", "--ef", type=click.IntRange(*LIMITS["expansion_search"]),
    default=DEFAULT.expansion_search, show_default=True,
    help="Candidates weighed per query (neighbors --ef changes it).",
)  # fmt: skip
@click.option(
    "--precision", type=click.Choice(PRECISIONS), default=DEFAULT.precision, show_default=True,
    help="The graph's copy of the vectors: f16 and i8 are smaller, slower (the vectors "
    "themselves score the answers).",
)  # fmt: skip
@click.option("--threads", type=click.IntRange(min=1), help="Threads [every core].")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def index(
    vectors_file: Path, output: Path | None, connectivity: int, expansion_add: int,
    expansion_search: int, precision: str, threads: int | None, quiet: bool,
) -> None:  # fmt: skip
    """Build an approximate nearest-neighbour index of VECTORS, for neighbors (and serve)."""
    from wordvec.formats import load_vectors
    from wordvec.index.approximate import NeighbourIndex
    from wordvec.index.engine import check_library
    from wordvec.index.files import default_path

    output = output or default_path(vectors_file)
    check_output(output, vectors_file)
    check_library()  # before the vectors are read
    vectors = load_vectors(vectors_file)
    started = time.perf_counter()
    settings = Settings(connectivity, expansion_add, expansion_search, precision)
    built = NeighbourIndex.build(vectors, settings, threads=threads or 0, quiet=quiet)
    built.save(output)
    click.echo(
        f"indexed {len(vectors):,} vectors of {vectors.dim} dims in "
        f"{time.perf_counter() - started:.1f} s: {output} ({output.stat().st_size / 1e6:,.1f} MB)",
        err=True,
    )
