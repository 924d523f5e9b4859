"""``wordvec cooccur``: count word co-occurrences for GloVe and PPMI-SVD."""

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
from wordvec.options import COUNTING, COUNTING_MODEL

COOCCUR_EXAMPLES = """\b
Examples:
  wordvec cooccur corpus.txt.gz -o counts.cooc                 # window 10, 1/d weights
  wordvec cooccur corpus.txt -o counts.cooc --window 15 --memory 4
  wordvec cooccur corpus.txt -o left.cooc --asymmetric --no-distance-weighting
  wordvec cooccur wiki-dump/ -o counts.cooc --read-vocab vocab.txt  # a fixed vocabulary
  wordvec cooccur shards/ -o counts.cooc --scheduler tcp://10.0.0.1:8786  # on a Dask cluster
  wordvec train --model glove --cooccur counts.cooc -o glove.wv
  wordvec train --model ppmi-svd --cooccur counts.cooc -o svd.wv

\b
Counts every pair of words at most --window apart on one line (lines are never crossed),
weighted 1/distance as GloVe does, in both directions unless --asymmetric. When the tables
outgrow --memory, sorted shards spill to --tmp-dir and are merged at the end; temporary files
are removed however the run ends. The output is sparse rows (CSR) that NumPy memory-maps:
see the wordvec.cooccur.counts module for the layout.
"""


@click.command(cls=Command, epilog=COOCCUR_EXAMPLES)
@CORPUS_ARGUMENT
@click.option(
    "-o",
    "--output",
    required=True,
    type=LOCAL_PATH_OR_URL,
    help="Counts file to write.",
)
@declared_options(COUNTING, COUNTING_MODEL)
@click.option(
    "--scheduler",
    envvar="DASK_SCHEDULER_ADDRESS",
    help="Count on the Dask cluster of this scheduler (tcp://host:8786); the workers must "
    "read CORPUS at the same paths. Needs wordvec[dask]. [env: DASK_SCHEDULER_ADDRESS]",
)
@RUN_OPTIONS
@click.pass_context
def cooccur(
    ctx: click.Context,
    corpus: tuple[Path, ...],
    output: Path,
    scheduler: str | None,
    quiet: bool,
    tmp_dir: Path | None,
    **options,
) -> None:
    """Count word co-occurrences in CORPUS (files, directories or '-') and save them to
    OUTPUT."""
    from wordvec.cooccur.counting import count_cooccurrences

    if not corpus:
        raise click.UsageError("give a CORPUS")
    given = given_options(ctx, options, output, *corpus)
    if scheduler:
        from wordvec.cooccur.cluster import count_on_cluster

        counts = count_on_cluster(
            list(corpus), output, scheduler, quiet=quiet, tmp_dir=tmp_dir, **given
        )
    else:
        counts = count_cooccurrences(list(corpus), output, quiet=quiet, tmp_dir=tmp_dir, **given)
    if not quiet:
        click.echo(
            f"{counts.nnz:,} nonzero pairs of {len(counts.vocab):,} words; saved {output}",
            err=True,
        )
