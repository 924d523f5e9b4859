"""``wordvec warmup``: compile the kernels ahead of time (:mod:`wordvec.training.warmup`)."""

from __future__ import annotations

import click

from wordvec.cli.parsing import Command
from wordvec.options import MODELS

WARMED_CHOICES = [*MODELS, "reading", "quantize", "phrases"]
"""``training.warmup.WARMED``, named here so that the command line's import loads no numba
(importing ``wordvec.training`` does; a test holds the two equal)."""

WARMUP_EXAMPLES = """\b
Examples:
  wordvec warmup --model sg                    # the model you will train
  wordvec warmup --model ppmi-svd --model supervised --jobs 1
  wordvec warmup --model reading -q            # the reader of corpora of 2 MB and more
  wordvec warmup --model quantize --model phrases   # those commands' kernels

\b
A model's first run compiles its kernels (numba keeps them in its cache, NUMBA_CACHE_DIR if
set): seconds that a later run does not wait. warmup spends them now, each model at its
defaults in a process of its own, --jobs at a time; with no --model, every model, the reader,
quantize and phrases. After an install or an upgrade, or in a container's build.
"""


@click.command(cls=Command, epilog=WARMUP_EXAMPLES)
@click.option(
    "--model", "models", multiple=True, type=click.Choice(WARMED_CHOICES),
    help="A model to compile for (repeat for several; 'reading': the reader of corpora of "
    "2 MB and more; 'quantize', 'phrases': those commands) [all of them].",
)  # fmt: skip
@click.option("--jobs", type=click.IntRange(min=1), help="Processes at a time [every core].")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
def warmup(models: tuple[str, ...], jobs: int | None, quiet: bool) -> None:
    """Compile the kernels of each model's first run now, so that it starts at once."""
    from wordvec.training.warmup import WARMED, warm_up

    warm_up(models or WARMED, jobs=jobs, quiet=quiet)
