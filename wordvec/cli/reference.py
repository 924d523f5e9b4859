"""The command reference, ``docs/cli.md``, made from the click commands and wordvec.options.

Nothing in it is written by hand: each command's ``--help`` (its options' help and defaults come
from :data:`wordvec.options.OPTIONS`) and a table of the options of ``train`` and ``cooccur``
with their defaults per model and the models they apply to. ``make docs`` (``python -m
wordvec.cli.reference docs/cli.md``) rewrites it; ``tests/test_docs.py`` fails when it is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from wordvec.cli import main
from wordvec.cli.parsing import GROUP_ORDER
from wordvec.options import COUNTING, MODELS, OPTIONS, Option
from wordvec.runtime.atomic import atomic_write

WIDTH = 100
HEADER = """# Command reference

Made by `make docs` from the commands themselves (`wordvec COMMAND --help` prints the same);
a test fails when it is out of date. The [guide](guide.md) says what each command does and why.

"""


def render() -> str:
    """The whole of ``docs/cli.md``."""
    # Contexts made as click makes them for --help (the commands' own context settings: -h and
    # the width), at a fixed terminal width, so the text does not depend on the terminal.
    root = main.make_context("wordvec", [], resilient_parsing=True, terminal_width=WIDTH)
    links = " · ".join(f"[{name}](#wordvec-{name})" for name in main.commands)
    parts = [HEADER, f"Commands: {links}\n\n", _help_block(main, root)]
    for name, command in main.commands.items():
        context = command.make_context(name, [], parent=root, resilient_parsing=True)
        parts.append(f"\n## wordvec {name}\n\n" + _help_block(command, context))
        for sub_name, sub in getattr(command, "commands", {}).items():  # a group's commands
            sub_context = sub.make_context(sub_name, [], parent=context, resilient_parsing=True)
            parts.append(f"\n### wordvec {name} {sub_name}\n\n" + _help_block(sub, sub_context))
        if name == "train":
            parts.append("\n" + _options_table(OPTIONS, "Defaults by model"))
        if name == "cooccur":
            counting = [option for option in OPTIONS if option.name in COUNTING]
            parts.append("\n" + _options_table(counting, "Defaults"))
    return "".join(parts).rstrip() + "\n"


def _help_block(command: click.Command, context: click.Context) -> str:
    return f"```\n{command.get_help(context)}\n```\n"


def _options_table(options, title: str) -> str:
    rows = [
        f"**{title}** (`-` where the option does not apply):\n",
        "| option | group | " + " | ".join(MODELS) + " |",
        "|---|---|" + "---|" * len(MODELS),
    ]
    ordered = sorted(options, key=lambda option: GROUP_ORDER.index(option.group))
    for option in ordered:
        if option.name == "model":
            continue  # the columns
        cells = [_default_cell(option, model) for model in MODELS]
        rows.append(f"| `{option.spelling(True)}` | {option.group} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def _default_cell(option: Option, model: str) -> str:
    if model not in option.models:
        return "-"
    if option.default_help:
        return option.default_help
    value = option.default_for(model)
    if value is None:
        return "none"
    if option.kind is bool and option.flag and "/" not in option.flag:
        return "off" if value == option.default else "on"
    return f"{value:g}" if isinstance(value, float) else f"{value}"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/cli.md")
    with atomic_write(target, "w", encoding="utf-8") as out:
        out.write(render())
    print(f"wrote {target}")
