"""The documentation says what the code does: the command reference is made from the commands,
the README stays one screenful of tour, and every relative link leads to a file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wordvec.cli.reference import render

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
README_MAX_LINES = 300


def test_the_command_reference_is_up_to_date():
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == render(), "docs/cli.md is stale: run 'make docs'"


def test_the_command_reference_lists_every_option_of_train():
    from wordvec.options import OPTIONS

    reference = render()
    missing = [o.cli_name for o in OPTIONS if o.spelling(True) not in reference]
    assert not missing


def test_the_readme_is_short():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS], ids=lambda path: path.name)
def test_relative_links_lead_to_files(page):
    text = page.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    broken = [
        target for target in targets if "://" not in target and not (page.parent / target).exists()
    ]
    assert not broken


def test_the_guides_vocab_memory_example_prints_what_it_shows(sample_model, tmp_path):
    """The example showed 615,156 tokens and 41,210 drops, long after the code had changed,
    and ran on two threads, whose counts differ from run to run: now one thread, run here."""
    import subprocess
    import sys

    from wordvec.model import Model

    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(guide) if "--vocab-memory 0.0002" in line)
    command, shown = guide[at][2:], guide[at + 1 : at + 3]
    assert "--threads 1" in command and shown[1].startswith("note: ")
    Model.load(sample_model).vocab.write_word2vec(tmp_path / "vocab.txt")  # --save-vocab's
    (tmp_path / "corpora").symlink_to(ROOT / "corpora")
    done = subprocess.run([sys.executable, "-c", "from wordvec.cli import main; main()",
                           *command.split()[1:]], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    printed = done.stderr.splitlines()
    assert all(line in printed for line in shown), (shown, printed)


def _guide() -> str:
    return " ".join((ROOT / "docs" / "guide.md").read_text(encoding="utf-8").split())


def _value(text: str):
    """A default as the guide writes it (100, 0.75, 30,000, `both`)."""
    text = text.strip("` ").replace(",", "")
    try:
        return float(text)
    except ValueError:
        return text


def test_the_guides_option_tables_quote_the_option_tables_defaults():
    """Each row ``| `--a`, `--b` | x, y | ...`` of the guide's tables gives each option's default
    for the models the table is about (GloVe's and PPMI-SVD's)."""
    from wordvec.options import OPTION

    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (`--[a-z-]+`(?:, `--[a-z-]+`)*) \| ([^|]+) \|", guide, flags=re.M)
    assert len(rows) >= 7
    for names, values in rows:
        options = [
            name.strip("` ").removeprefix("--").replace("-", "_") for name in names.split(",")
        ]
        for name, value in zip(options, values.split(", ")):
            model = "ppmi-svd" if name in ("cds", "neg", "eig") else "glove"
            default = OPTION[name].default_for(model)
            assert _value(value) == (default if isinstance(default, str) else float(default)), name


def test_the_guides_defaults_in_prose_are_the_codes():
    from wordvec.options import OPTION
    from wordvec.query import ANALOGY_VOCABULARY, NEIGHBOURS

    guide = _guide()
    supervised = re.search(r"Defaults are fastText's: `([^`]+)`", guide).group(1).split()
    for name, value in zip(supervised[::2], supervised[1::2]):
        default = OPTION[name.removeprefix("--").replace("-", "_")].default_for("supervised")
        assert float(value) == default, name
    assert f"`--window` ({OPTION['window'].default_for('glove')}) apart" in guide
    assert f"`--memory` GB (default {OPTION['memory'].default:g};" in guide
    assert f"(`-k`, default {NEIGHBOURS})" in guide
    assert f"`--restrict` most frequent words, default {ANALOGY_VOCABULARY:,}" in guide
