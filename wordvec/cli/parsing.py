"""How a command line becomes options: the click options of :mod:`wordvec.options`' table,
the arguments that name corpora, the checks every command makes of what it reads and writes,
and the answer to an option that another tool's users type (``--size is word2vec's name``).
Every command module builds on this; none imports the package face, :mod:`wordvec.cli`."""

from __future__ import annotations

import re
from pathlib import Path

import click

from wordvec.errors import WordvecError
from wordvec.options import OPTION, Option
from wordvec.peer_names import PEER_NAMES, peer_answer
from wordvec.runtime.atomic import check_outputs
from wordvec.runtime.paths import is_url


class Command(click.Command):
    """Answers an option that word2vec, fastText or gensim users type with wordvec's name
    for it (``--size is word2vec's name; use --dim``). Checked before click parses, which
    would otherwise read ``-output x`` as ``-o utput`` and ``-save-vocab`` as ``-s``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        own = {name for param in self.params for name in getattr(param, "opts", ())}
        answers = []  # all of them at once: a word2vec command line has ten
        for at, arg in enumerate(args):
            if arg == "--":
                break
            name, _, value = arg.partition("=")
            if name in PEER_NAMES and name not in own:
                value = value or (args[at + 1] if at + 1 < len(args) else None)
                answers.append(peer_answer(name, value=value))
        if answers:
            raise click.UsageError("\n       ".join(answers), ctx)
        return super().parse_args(ctx, self._negative_numbers_as_arguments(args))

    def _negative_numbers_as_arguments(self, args: list[str]) -> list[str]:
        """``args`` with ``--`` before a negative number that no option takes as its value,
        where only arguments follow it: fastText's ``test m.bin f -1 0.5`` (K -1: every
        label), which click would read as an option ``-1``."""
        takes_value = {
            name
            for param in self.params
            if isinstance(param, click.Option) and not param.is_flag and not param.count
            for name in param.opts
        }
        for at, arg in enumerate(args):
            if arg == "--":
                break
            if _NEGATIVE.match(arg) and (at == 0 or args[at - 1] not in takes_value):
                rest = args[at:]
                if all(not a.startswith("-") or _NEGATIVE.match(a) for a in rest):
                    return [*args[:at], "--", *rest]
                break
        return args


_NEGATIVE = re.compile(r"-(\d+\.?\d*|\.\d+)$")


class CommandGroup(click.Group):
    """A group of commands (``wordvec bpe learn``) whose commands are :class:`Command`."""

    command_class = Command


def _options(*options):
    """Apply click options in the order they are listed (shared by several commands)."""

    def decorate(command):
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


GROUP_ORDER = (
    "model", "window", "training", "negative sampling", "subwords", "labels", "vocabulary",
    "reading", "counting", "glove", "ppmi", "run",
)  # fmt: skip
"""The order in which ``--help`` lists the options of wordvec.options, by group."""


def declared_options(names, model: str | None = None):
    """The click options of wordvec.options' ``names``, in group order; defaults shown are
    ``model``'s, or (None) the default and where a model's differs."""
    ordered = sorted(names, key=lambda name: GROUP_ORDER.index(OPTION[name].group))
    return _options(*(click_option(OPTION[name], model) for name in ordered))


def click_option(option: Option, model: str | None):
    """One declared option as click's: click's default is None (or a flag's off state), so
    that a command passes on only what was given (see :func:`given_options`)."""
    if option.flag and "/" in option.flag:
        return click.option(option.flag, option.name, default=None, help=option_help(option, model))
    if option.flag:
        return click.option(
            option.flag, option.name, flag_value=not option.default, default=option.default,
            help=option_help(option, model),
        )  # fmt: skip
    return click.option(
        option.cli_name, option.name, type=click_type(option), default=None,
        help=option_help(option, model),
    )  # fmt: skip


def click_type(option: Option):
    if option.choices:
        return click.Choice(option.choices)
    if option.kind is Path:
        return LOCAL_PATH_OR_URL
    if option.low is None and option.high is None:
        return option.kind
    bounds = {"min": option.low, "max": option.high}
    opens = {"min_open": option.low_open, "max_open": option.high_open}
    if option.kind is int:
        return click.IntRange(**bounds, **opens)
    return click.FloatRange(**bounds, **opens)


def option_help(option: Option, model: str | None) -> str:
    if option.flag and "/" not in option.flag:
        return option.help
    if option.default_help:
        return f"{option.help} [default: {option.default_help}]"
    if option.default is None:
        return option.help
    if model is not None:
        return f"{option.help} [default: {shown_default(option.default_for(model))}]"
    by_value: dict[object, list[str]] = {}
    for name, value in option.by_model:
        by_value.setdefault(value, []).append(name)
    others = "".join(
        f"; {', '.join(names)} {shown_default(value)}" for value, names in by_value.items()
    )
    return f"{option.help} [default: {shown_default(option.default)}{others}]"


def shown_default(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


LOCAL_INPUT_FILES = ("init", "init_vectors", "cooccur", "bpe")
"""The options of wordvec.options that name local files a command reads."""
INPUT_FILES = ("read_vocab", *LOCAL_INPUT_FILES)
"""... and all that name files it reads (--read-vocab may be a URL)."""


def given_options(ctx: click.Context, options: dict, output: Path, *corpus: Path | str) -> dict:
    """The options the user gave (on the command line or in the environment), once the files
    the command will write (``output``, and ``--save-vocab``'s) are known writable and none of
    the files it reads: a run must not fail after hours for an unwritable output."""
    for name in LOCAL_INPUT_FILES:
        if is_url(options.get(name)):
            raise WordvecError(f"--{name.replace('_', '-')} reads a local file, not a URL")
    inputs = [*corpus, *(options.get(name) for name in INPUT_FILES)]
    check_outputs({"the output": output, "--save-vocab": options.get("save_vocab")}, inputs)
    return {
        name: value
        for name, value in options.items()
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    }


RUN_OPTIONS = _options(
    click.option(
        "--tmp-dir",
        type=click.Path(exists=True, file_okay=False, path_type=Path),
        default=None,
        help="Where temporary files go: the encoded corpus (4 bytes a token), spilled counts. "
        "[default: $TMPDIR or /tmp]",
    ),
    click.option("-q", "--quiet", is_flag=True, help="No progress bar or summary."),
)
"""How ``train`` and ``cooccur`` run, beside the options that decide their output."""


class PathOrURL(click.ParamType):
    """A local path (a :class:`Path`, or '-' where ``dash`` stands for standard input) or a
    URL, kept as written (a Path would fold its '//')."""

    name = "path"

    def __init__(self, dash: bool):
        self.dash = dash

    def convert(self, value, param, ctx):
        if isinstance(value, str) and ((self.dash and value == "-") or is_url(value)):
            return value
        return Path(value)


CORPUS_ARGUMENT_TYPE = PathOrURL(dash=True)
LOCAL_PATH_OR_URL = PathOrURL(dash=False)
"""The type of the file options of wordvec.options (those that take no URL say so)."""
CORPUS_ARGUMENT = click.argument("corpus", nargs=-1, type=CORPUS_ARGUMENT_TYPE)
"""CORPUS...: files (plain, .gz, .bz2), directories (their files in name order), '-' for
standard input, a FIFO, or URLs (s3://bucket/prefix/, with fsspec); read one after another as
one corpus."""
