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
