"""fastText's own command lines, as its docs type them, with ``fasttext`` replaced by
``wordvec``::

    wordvec supervised -input cooking.train -output model_cooking -lr 1.0 -wordNgrams 2
    wordvec skipgram -input data.txt -output model           (and cbow)
    wordvec quantize -input cooking.train -output model_cooking -qnorm -retrain -cutoff 100000

fastText's single-dash arguments, its defaults and its output files: ``NAME.bin`` and
``NAME.vec`` (``NAME.ftz`` with ``-autotune-modelsize``), and ``quantize`` reading ``NAME.bin``
and writing ``NAME.ftz``. Each trains or quantizes through the package face,
:mod:`wordvec.fasttext`, whose keyword arguments these are; wordvec's own ``train`` and
``quantize MODEL -o SMALL`` remain the way to wordvec's options.
"""

from __future__ import annotations

from pathlib import Path

import click

from wordvec.fasttext.arguments import SUPERVISED_DEFAULTS
from wordvec.peer_names import peer_answer
from wordvec.runtime.atomic import check_outputs

TRAINING: dict[str, tuple[str, type]] = {
    "-input": ("input", str),
    "-output": ("output", str),
    **{
        f"-{name}": (name, int if default is None else type(default))  # thread: None, cores
        for name, default in SUPERVISED_DEFAULTS.items()
        if name != "model"
    },
    "-autotune-validation": ("autotuneValidationFile", str),
    "-autotune-metric": ("autotuneMetric", str),
    "-autotune-predictions": ("autotunePredictions", int),
    "-autotune-duration": ("autotuneDuration", int),
    "-autotune-modelsize": ("autotuneModelSize", str),
}
"""The arguments of fastText's ``supervised``: the face's keyword and the value's type (its
default's, from the face's table of fastText's defaults)."""
UNSUPERVISED = {name: value for name, value in TRAINING.items() if "autotune" not in name}
"""Those of ``skipgram`` and ``cbow``: fastText tunes classifiers only."""
QUANTIZING: dict[str, tuple[str, type]] = {
    **{name: TRAINING[name] for name in ("-input", "-output", "-lr", "-epoch", "-thread")},
    "-verbose": TRAINING["-verbose"],
    "-cutoff": ("cutoff", int),
    "-dsub": ("dsub", int),
}
"""The arguments of fastText's ``quantize`` that take a value (the others are
:data:`QUANTIZING_FLAGS`)."""
QUANTIZING_FLAGS = {"-qnorm": "qnorm", "-retrain": "retrain", "-qout": "qout"}
"""fastText's ``quantize`` flags (no value follows them)."""
QUANTIZE_DEFAULTS = {"epoch": 5, "lr": 0.05}
"""What fastText's ``quantize -retrain`` trains with unless given (its defaults of all
arguments, not the model's)."""
LOSS_NAMES = {"one-vs-all": "ova"}
"""fastText's long names for losses that wordvec names as its Python package does."""


class Verbatim(click.Command):
    """A command whose arguments are fastText's, taken as typed: click would read ``-epoch``
    as the short options ``-e -p -o -c -h`` (and show the help). ``-h`` or ``--help`` alone
    shows the help; no arguments show it too, as a failure, as fastText's usage is."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args in ([], ["-h"], ["--help"]) and not ctx.resilient_parsing:  # the reference's
            click.echo(ctx.get_help())
            ctx.exit(0 if args else 2)
        ctx.params["args"] = tuple(args)
        return []


def fasttext_arguments(args: tuple[str, ...], table: dict, flags: dict, command: str) -> dict:
    """fastText's ``-name value`` pairs (and ``flags``, which take no value) as the face's
    keyword arguments; a name that ``command`` does not take, a missing or ill-typed value or a
    name twice is a one-line error naming it."""
    named: dict = {}
    at = 0
    while at < len(args):
        name = args[at]
        if name in flags:
            key, value, at = flags[name], True, at + 1
        elif name in table:
            key, kind = table[name]
            if at + 1 >= len(args):
                raise click.UsageError(f"{name} needs a value")
            value, at = _value(name, args[at + 1], kind), at + 2
        elif name == "-saveOutput":
            raise click.UsageError(peer_answer(name))
        else:
            raise click.UsageError(f"{name} is not an argument of fastText's {command}")
        if key in named:
            raise click.UsageError(f"{name} is given twice")
        named[key] = value
    if "output" not in named:
        raise click.UsageError("-output NAME is required (fastText's: NAME.bin is written)")
    return named


def _value(name: str, text: str, kind: type):
    try:
        value = kind(text)
    except ValueError:
        raise click.UsageError(f"{name} takes {_KIND[kind]}, not {text!r}") from None
    return LOSS_NAMES.get(value, value) if name == "-loss" else value


_KIND = {int: "a whole number", float: "a number", str: "text"}


def _face_call(call, *args, **kwargs):
    """The face's answer, its ValueError or TypeError (fastText's exceptions) one line."""
    try:
        return call(*args, **kwargs)
    except (ValueError, TypeError) as exc:
        raise click.ClickException(str(exc)) from None


def _trained(command: str, args: tuple[str, ...]) -> None:
    """Train as fastText's ``command`` does, then write its files."""
    from wordvec import fasttext

    table = TRAINING if command == "supervised" else UNSUPERVISED
    named = fasttext_arguments(args, table, {}, command)
    if "input" not in named:
        raise click.UsageError("-input FILE is required: the training text")
    output = named.pop("output")
    model_path = Path(f"{output}.ftz" if named.get("autotuneModelSize") else f"{output}.bin")
    vectors_path = Path(f"{output}.vec")
    check_outputs({"the model": model_path, "the vectors": vectors_path}, [named["input"]])
    if command == "supervised":
        model = _face_call(fasttext.train_supervised, **named)
    else:
        model = _face_call(fasttext.train_unsupervised, model=command, **named)
    _face_call(model.save_model, str(model_path))
    _write_vectors(model, vectors_path)
    click.echo(f"wrote {model_path} and {vectors_path}", err=True)


def _write_vectors(model, path: Path) -> None:
    """fastText's ``NAME.vec``: each dictionary word's vector (an unsupervised model's ``</s>``
    too), as ``get_word_vector`` answers it (the face's own matrix of them)."""
    from wordvec.formats import save_vectors

    save_vectors(model._word_vectors, path, "vec")


def _training_command(command: str, what: str):
    @click.command(command, cls=Verbatim, epilog=EXAMPLES[command],
                   options_metavar="-input FILE -output NAME [ARGUMENTS]")  # fmt: skip
    def train_as_fasttext(args: tuple[str, ...]) -> None:
        _trained(command, args)

    train_as_fasttext.help = (
        f"fastText's '{command}' as its docs type it: {what} from -input, written to NAME.bin "
        "and NAME.vec, with fastText's arguments and defaults (the model is the one 'wordvec "
        f"train' makes). fastText's arguments: "
        f"{' '.join(TRAINING if command == 'supervised' else UNSUPERVISED)}."
    )
    return train_as_fasttext


EXAMPLES = {
    "supervised": """\b
Examples:
  wordvec supervised -input cooking.train -output model_cooking
  wordvec supervised -input cooking.train -output model_cooking -lr 1.0 -epoch 25 -wordNgrams 2 \\
    -bucket 200000 -dim 50 -loss hs
  wordvec supervised -input cooking.train -output tuned -autotune-validation cooking.valid \\
    -autotune-duration 10
""",
    "skipgram": """\b
Examples:
  wordvec skipgram -input corpus.txt -output model
  wordvec skipgram -input corpus.txt -output small -minn 2 -maxn 5 -dim 50 -bucket 200000
  wordvec skipgram -input corpus.txt -output quick -epoch 1 -lr 0.5 -thread 2 -bucket 200000
""",
    "cbow": """\b
Examples:
  wordvec cbow -input corpus.txt -output cbow -bucket 200000
  wordvec cbow -input corpus.txt -output cbow50 -dim 50 -ws 10 -bucket 200000
  wordvec cbow -input corpus.txt -output whole -minn 0 -maxn 0  # no subwords
""",
}

supervised = _training_command("supervised", "a text classifier")
skipgram = _training_command("skipgram", "skip-gram word vectors with subwords")
cbow = _training_command("cbow", "CBOW word vectors with subwords")


@click.command("quantize", cls=Verbatim, options_metavar="-output NAME [ARGUMENTS]")
def quantize_as_fasttext(args: tuple[str, ...]) -> None:
    from wordvec import fasttext

    named = fasttext_arguments(args, QUANTIZING, QUANTIZING_FLAGS, "quantize")
    output = named.pop("output")
    source, target = Path(f"{output}.bin"), Path(f"{output}.ftz")
    if named.get("retrain") and "input" not in named:
        raise click.UsageError("-retrain trains on -input FILE: give the training text")
    check_outputs({"the output": target}, [source, named.get("input")])
    model = _face_call(fasttext.load_model, str(source))
    _face_call(model.quantize, **{**QUANTIZE_DEFAULTS, **named})
    _face_call(model.save_model, str(target))
    click.echo(f"wrote {target} ({target.stat().st_size:,} bytes)", err=True)


quantize_as_fasttext.help = (
    "fastText's 'quantize' as its docs type it: the classifier NAME.bin (fastText's or "
    "wordvec's) quantized to NAME.ftz, with fastText's arguments and defaults (-retrain: "
    f"{QUANTIZE_DEFAULTS['epoch']} epochs at rate {QUANTIZE_DEFAULTS['lr']} unless -epoch, -lr). "
    f"fastText's arguments: {' '.join([*QUANTIZING, *QUANTIZING_FLAGS])}. 'wordvec quantize "
    "MODEL -o SMALL.ftz' is wordvec's form."
)
