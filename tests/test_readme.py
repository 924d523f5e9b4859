"""The README's code blocks marked ``<!-- test: runs -->`` run as written, so the README cannot
drift from the code: each ``$`` line of a shell block in one folder (where the bundled corpora
are), in order, and each Python block, in the same folder after them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPORA, ROOT

MARKER = "<!-- test: runs -->"
BLOCK = re.compile(re.escape(MARKER) + r"\n```(\w*)\n(.*?)\n```", re.S)


def runnable_blocks() -> list[tuple[str, str]]:
    """(language, text) of each marked block, in README order."""
    return BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def shell_commands(block: str) -> list[tuple[str, list[str]]]:
    """Each ``$`` command of a shell block with the README's lines of output under it."""
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands and line:
            commands[-1][1].append(line)
    return commands


def test_the_readme_marks_its_runnable_blocks():
    languages = [language for language, _ in runnable_blocks()]
    assert languages.count("") == 5 and languages.count("python") == 1


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    here = tmp_path_factory.mktemp("readme")
    (here / "corpora").symlink_to(CORPORA)
    return here


@pytest.mark.slow  # trains the tour's model and classifier as the README does
def test_the_readmes_shell_blocks_run(folder):
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    for _, block in (b for b in runnable_blocks() if b[0] == ""):
        for command, shown in shell_commands(block):
            done = subprocess.run(["bash", "-c", command], cwd=folder,
                                  env=environment, capture_output=True, text=True,
                                  timeout=300)  # fmt: skip
            errors = [line for line in shown if line.startswith("Error: ")]
            if errors:  # a refusal the README shows: exactly that line
                assert done.returncode != 0 and done.stderr.strip().splitlines()[-1] == errors[-1]
                continue
            assert done.returncode == 0, f"$ {command}\n{done.stderr[-2000:]}"
            assert "Error" not in done.stderr, f"$ {command}\n{done.stderr[-2000:]}"
            if done.stdout.strip():  # the answer starts as the README's does
                first = done.stdout.split(None, 1)[0]
                assert _shape(first) == _shape(shown[0].split(None, 1)[0]), f"$ {command}"


def _shape(token: str) -> str:
    """What a first token must match: a number or a label as such (they vary from run to run
    with two threads), any other word as it is."""
    if token.startswith("__label__"):
        return "a label"
    try:
        float(token)
    except ValueError:
        return token
    return "a number"


@pytest.mark.slow  # trains each model of the block, one epoch each
def test_the_readmes_python_block_runs(folder, monkeypatch):
    """As written, but every training run for one epoch (what the block shows is the calls,
    not the quality)."""
    import wordvec

    train = wordvec.train

    def one_epoch(*args, **options):
        return train(*args, **{**options, "epochs": 1, "quiet": True})

    monkeypatch.setattr(wordvec, "train", one_epoch)
    monkeypatch.chdir(folder)
    [(_, code)] = [b for b in runnable_blocks() if b[0] == "python"]
    exec(compile(code, "README.md", "exec"), {})
    assert (folder / "sample.wv").exists() and (folder / "vectors.bin").exists()


def test_make_demo_writes_the_model_the_tour_queries_and_says_how_to_run_it():
    """``make demo`` wrote out/demo.wv while the tour queried demo.wv, and nothing said where
    the installed ``wordvec`` is (a new shell answered "command not found")."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = re.search(r"^DEMO\s*:=\s*(\S+)$", makefile, re.M).group(1)
    trained = re.search(r"\$\(BIN\)/wordvec train \S+ -o \$\(DEMO\)(\.wv)", makefile)
    tour = shell_commands(runnable_blocks()[0][1])[0][0]
    assert trained and f"-o {demo}.wv " in tour
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`.venv/bin/wordvec`" in readme and "`source .venv/bin/activate`" in readme
