"""fastText's arguments, by name or position, with its defaults, and the wordvec options
they become (:func:`wordvec.fasttext.train_supervised` and ``train_unsupervised``)."""

from __future__ import annotations

import os


def default_threads() -> int:
    """fastText's default ``thread``: the cores less one."""
    return max(1, (os.cpu_count() or 2) - 1)


UNSUPERVISED_DEFAULTS = {
    "model": "skipgram", "lr": 0.05, "dim": 100, "ws": 5, "epoch": 5, "minCount": 5,
    "minCountLabel": 0, "minn": 3, "maxn": 6, "neg": 5, "wordNgrams": 1, "loss": "ns",
    "bucket": 2000000, "thread": None, "lrUpdateRate": 100, "t": 1e-4, "label": "__label__",
    "verbose": 2, "pretrainedVectors": "", "seed": 0,
}  # fmt: skip
"""fastText's arguments and defaults for word vectors (``thread`` None: the cores less one)."""
SUPERVISED_DEFAULTS = {
    **UNSUPERVISED_DEFAULTS, "model": "supervised", "lr": 0.1, "minCount": 1, "minn": 0,
    "maxn": 0, "loss": "softmax",
}  # fmt: skip
"""fastText's arguments and defaults for a classifier."""
AUTOTUNE = {
    "autotuneValidationFile": "autotune_validation", "autotuneMetric": "autotune_metric",
    "autotunePredictions": "autotune_predictions", "autotuneDuration": "autotune_duration",
    "autotuneModelSize": "autotune_model_size",
}  # fmt: skip
"""fastText's autotune arguments (``train_supervised``) and wordvec's names for them."""
SEARCHED = {
    "lr": "alpha", "dim": "dim", "epoch": "epochs", "wordNgrams": "word_ngrams", "minn": "minn",
    "maxn": "maxn", "bucket": "bucket", "loss": "loss",
}  # fmt: skip
"""The arguments autotune draws when not given, and wordvec's names for them."""


SUPERVISED_ORDER = ("input", *(name for name in SUPERVISED_DEFAULTS if name != "model"),
                    *AUTOTUNE)  # fmt: skip
"""``train_supervised``'s arguments in fastText's order, as they may be given by position."""
UNSUPERVISED_ORDER = ("input", *(name for name in UNSUPERVISED_DEFAULTS if name != "seed"))
"""``train_unsupervised``'s, as fastText orders them (``seed``, wordvec's, by name only)."""
ALIASES = {
    "min_count": "minCount", "word_ngrams": "wordNgrams", "lr_update_rate": "lrUpdateRate",
    "label_prefix": "label", "pretrained_vectors": "pretrainedVectors",
}  # fmt: skip
"""The package's other names for some arguments."""
PYTHON_NAMES = {
    "--alpha": "lr", "--dim": "dim", "--epochs": "epoch", "--word-ngrams": "wordNgrams",
    "--window": "ws", "--min-count": "minCount", "--negative": "neg", "--threads": "thread",
    "--sample": "t", "--bucket": "bucket", "--minn": "minn", "--maxn": "maxn", "--loss": "loss",
    "--lr-update-rate": "lrUpdateRate", "--seed": "seed", "--label": "label",
    "--pretrained-vectors": "pretrainedVectors",
    "--autotune-validation": "autotuneValidationFile", "--autotune-metric": "autotuneMetric",
    "--autotune-predictions": "autotunePredictions", "--autotune-duration": "autotuneDuration",
    "--autotune-model-size": "autotuneModelSize",
}  # fmt: skip
"""wordvec's options by the names the package's functions take them under: an error from
``train_supervised(lr=-0.1)`` names ``lr``, not the command line's ``--alpha``."""


def python_names(message: str) -> str:
    """``message`` with each wordvec option it names replaced by the package's name for it."""
    import re

    return re.sub(r"--[a-z][a-z-]*", lambda m: PYTHON_NAMES.get(m.group(), m.group()), message)


def named_arguments(order: tuple[str, ...], positional: tuple, given: dict) -> dict:
    """The arguments by name: those ``positional`` in fastText's ``order``, then ``given``
    (fastText's other names, :data:`ALIASES`, taken); a name twice, or no ``input``, is a
    TypeError, as for any Python function."""
    if len(positional) > len(order):
        raise TypeError(f"takes at most {len(order)} positional arguments")
    named = dict(zip(order, positional))
    for name, value in given.items():
        name = ALIASES.get(name, name)
        if name in named:
            raise TypeError(f"multiple values for argument {name!r}")
        named[name] = value
    if "input" not in named:
        raise TypeError("missing required argument 'input'")
    return named


def with_defaults(defaults: dict, given: dict) -> dict:
    """``defaults`` updated with the arguments ``given`` (a name fastText does not take is a
    TypeError, as for any Python function)."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    return {**defaults, **given}


def common_options(args: dict) -> dict:
    """wordvec's options for fastText's arguments common to both kinds of model."""
    minn, maxn, bucket, word_ngrams = args["minn"], args["maxn"], args["bucket"], args["wordNgrams"]
    if args["minCountLabel"] > 1:  # 0 and 1 (the README's default) keep every label
        raise ValueError("minCountLabel is not supported by wordvec (every label is kept)")
    options = dict(
        alpha=args["lr"], dim=args["dim"], window=args["ws"], epochs=args["epoch"],
        min_count=args["minCount"], negative=args["neg"], sample=args["t"],
        threads=args["thread"] or default_threads(), seed=args["seed"], quiet=args["verbose"] < 2,
    )  # fmt: skip
    if maxn > 0:
        options.update(minn=minn, maxn=maxn)
    else:
        options.update(maxn=0)
    if (maxn > 0 or word_ngrams > 1) and bucket <= 0:
        raise ValueError("bucket must be positive with subwords or word n-grams")
    if bucket > 0:
        options["bucket"] = bucket
    if args["pretrainedVectors"]:
        options["init_vectors"] = args["pretrainedVectors"]
    return options


def applying_options(options: dict) -> dict:
    """``options`` less those that do nothing for the model (fastText takes every argument
    for every model; wordvec refuses one that does not apply, such as a classifier's
    ``--window``)."""
    from wordvec.options import OPTION, resolve
    from wordvec.training.config import NAMES

    settings = {name: value for name, value in options.items() if name in OPTION}
    values = resolve(settings, NAMES, settings["model"], check_applies=False)
    return {
        name: value
        for name, value in options.items()
        if name not in OPTION or not OPTION[name].does_not_apply(values)
    }
