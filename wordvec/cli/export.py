"""``wordvec export``: write a model's vectors in another format."""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.cli.parsing import Command
from wordvec.formats.names import EXPORT_FORMATS
from wordvec.runtime.atomic import check_outputs

EXPORT_EXAMPLES = """\b
Examples:
  wordvec export model.wv vectors.txt                          # word2vec text (gensim, fastText)
  wordvec export model.wv vectors.bin                          # word2vec binary
  wordvec export model.wv vectors.txt.gz                       # gzipped (also .bz2, .xz)
  wordvec export GoogleNews-vectors-negative300.bin.gz gn.wv   # opens in a moment from now on
  wordvec export glove.6B.zip:glove.6B.50d.txt glove50.wv      # a zip's member
  wordvec export model.wv glove.txt --format glove             # no header line
  wordvec export model.wv projector.tsv                        # + projector.metadata.tsv
  wordvec export model.wv vectors.npy                          # + vectors.words.txt
  wordvec export ft.wv ft.bin --format fasttext-bin  # fastText/gensim load_facebook_model
  wordvec export clf.wv clf.bin --format fasttext-bin  # fastText's load_model(...).predict
  wordvec export docs.wv docs.vec --doc-vectors       # a doc2vec model's document vectors

\b
MODEL is any file wordvec reads: plain, .gz, .bz2, .xz or a .zip (ARCHIVE.zip:MEMBER names
one of several files). The format is OUTPUT's suffix's unless --format says; word2vec text
and binary, GloVe and .vec are compressed where OUTPUT ends in .gz, .bz2 or .xz. TSV files
load in the TensorBoard embedding projector (projector.tensorflow.org): its vectors file and
its metadata file (one word a line). Files are written atomically.
"""


@click.command(cls=Command, epilog=EXPORT_EXAMPLES)
@click.argument("vectors_file", metavar="MODEL", type=click.Path(path_type=Path))
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    help="Output format [default: as OUTPUT's suffix says: .bin word2vec-binary, .wv wordvec, "
    ".tsv, .npy; else word2vec].",
)
@click.option(
    "--doc-vectors", "documents", is_flag=True,
    help="Write a doc2vec model's document vectors (keyed by line number) instead of its "
    "words'.",
)  # fmt: skip
def export(vectors_file: Path, output: Path, fmt: str | None, documents: bool) -> None:
    """Write the vectors of MODEL (or any vector file) to OUTPUT in another format."""
    from wordvec.formats import export as export_file
    from wordvec.formats import format_files
    from wordvec.formats.names import output_format

    fmt = fmt or output_format(output)
    written = dict(zip(("the output", "its words file"), format_files(output, fmt)))
    check_outputs(written, format_files(vectors_file))
    vectors, written = export_file(vectors_file, output, fmt, documents=documents)
    click.echo(
        f"wrote {len(vectors):,} vectors of {vectors.dim} dims to {', '.join(map(str, written))}",
        err=True,
    )
