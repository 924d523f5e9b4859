"""The ``wordvec`` command line: a thin click layer over the Python API.

This module is the group and its error funnel; each command lives in a module named for it
(:mod:`wordvec.cli.train`, ...), built on :mod:`wordvec.cli.parsing`, and joins the group here.
Each command parses its options, calls one library function, and prints. Errors the user can
fix (:class:`~wordvec.errors.WordvecError`) become one line, ``Error: ...``, and exit status 1.
Nothing here imports numba: training and counting do when they run, and so do fastText
models when a query needs an unseen word's n-grams.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator

import click

from wordvec import __version__
from wordvec.cli.parsing import Command
from wordvec.errors import TrainingInterrupted, WordvecError
from wordvec.peer_names import PEER_COMMANDS
from wordvec.runtime.startup import exit_without_collecting


class _Group(click.Group):
    """Turns domain errors, OS errors and Ctrl-C (or SIGTERM, SIGHUP) into one-line messages
    instead of tracebacks."""

    command_class = Command

    def invoke(self, ctx: click.Context):
        signals: list[int] = []
        exit_without_collecting()
        try:
            with _signals_as_interrupts(signals):
                return super().invoke(ctx)
        except BrokenPipeError:
            _stop_writing_stdout()  # `wordvec predict ... | head`: the reader had enough
            sys.exit(1)
        except BaseException as exc:
            if signals or isinstance(exc, KeyboardInterrupt):
                # A library can swallow the KeyboardInterrupt raised in its Python callbacks
                # and raise something else (numpy's tofile: a TypeError): the signal decides.
                click.echo(f"\nError: {_interrupted(exc)}", err=True)
                sys.exit(130)
            raise _one_line(exc) from None

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """The command; ``quantize -output NAME ...`` is fastText's form of it."""
        name, command, rest = super().resolve_command(ctx, args)
        if name == "quantize" and "-output" in rest:
            from wordvec.cli.fasttext_lines import quantize_as_fasttext

            return name, quantize_as_fasttext, rest
        return name, command, rest

    def get_command(self, ctx: click.Context, name: str):
        """A command, or for the name of a fastText command that wordvec answers under
        another name, the one-line pointer to it."""
        if name in PEER_COMMANDS and name not in self.commands:
            raise click.UsageError(f"'{name}' is fastText's command; {PEER_COMMANDS[name]}", ctx)
        return super().get_command(ctx, name)


def _interrupted(exc: BaseException) -> str:
    """What an interrupted command says: how far training got, and what it wrote (only
    ``train --save-on-interrupt`` writes, the model trained so far)."""
    if not isinstance(exc, TrainingInterrupted):
        return "interrupted; no output file was written"
    done = f"interrupted after {exc.epochs_done} of {exc.epochs} epochs"
    if exc.saved is not None:
        return f"{done}; saved the model trained so far to {exc.saved}"
    return f"{done}; no output was written (--save-on-interrupt saves the model trained so far)"


def _stop_writing_stdout() -> None:
    """After the reader of standard output has gone: end quietly, as Unix tools do, with
    nothing more written there (Python would report the failed flush at exit)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _one_line(exc: BaseException) -> BaseException:
    """The click error that prints ``exc`` as one line, or ``exc`` itself (a bug, or click's
    own exceptions, which click handles)."""
    if isinstance(exc, WordvecError):
        return click.ClickException(str(exc))
    if isinstance(exc, OSError):  # permissions, a full disk, a vanished directory
        where = f"{exc.filename}: " if exc.filename else ""
        return click.ClickException(f"{where}{exc.strerror or exc}")
    if isinstance(exc, MemoryError):
        return click.ClickException(
            "out of memory; try a smaller --dim, --max-vocab or a higher --min-count"
        )
    return exc


@contextlib.contextmanager
def _signals_as_interrupts(received: list[int]) -> Iterator[None]:
    """While a command runs, Ctrl-C, SIGTERM and SIGHUP raise KeyboardInterrupt and are noted
    in ``received``: temporary files are removed and earlier outputs stay as they were (the
    default of SIGTERM and SIGHUP ends the process at once)."""

    def interrupt(signum, frame):
        received.append(signum)
        raise KeyboardInterrupt

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # Windows has no SIGHUP
            if hasattr(signal, name):
                number = getattr(signal, name)
                previous[number] = signal.signal(number, interrupt)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@click.group(
    cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}
)
@click.version_option(__version__, prog_name="wordvec")
def main() -> None:
    """Train classic word vectors (word2vec, fastText, GloVe) fast, query and export them.

    \b
    Quick start:
      wordvec train corpus.txt.gz -o model.wv
      wordvec neighbors model.wv paris king
      wordvec export model.wv vectors.bin --format word2vec-binary
    """


def _register() -> None:
    """Each command, from the module named for it, joins ``main`` (in this order, the order
    of the command reference)."""
    from wordvec.cli import (
        bpe,
        classify,
        cooccur,
        evaluate,
        export,
        fasttext_lines,
        index,
        neighbors,
        phrases,
        plot,
        print_vectors,
        quantize,
        serve,
        train,
        warmup,
    )  # fmt: skip

    for command in (
        train.train, cooccur.cooccur, index.index, neighbors.neighbors, export.export,
        evaluate.evaluate, plot.plot, bpe.bpe, classify.test_classifier, classify.predict,
        classify.predict_prob, classify.embed, phrases.phrases,
        print_vectors.print_word_vectors, print_vectors.print_ngrams, quantize.quantize,
        serve.serve, warmup.warmup, fasttext_lines.supervised, fasttext_lines.skipgram,
        fasttext_lines.cbow,
    ):  # fmt: skip
        main.add_command(command)


_register()
