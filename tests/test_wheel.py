"""A wheel of wordvec evaluates out of the box: the bundled evaluation sets are inside it."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_installed_wheel_evaluates_with_its_bundled_sets(tmp_path, sample_model):
    source, wheels, target = tmp_path / "source", tmp_path / "wheels", tmp_path / "installed"
    # built from a copy: setuptools' build/ folder in the checkout could hold stale modules
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.egg-info")
    for folder in ("wordvec", "corpora"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", str(source), "-w",
                    str(wheels)], check=True, capture_output=True, cwd=tmp_path)  # fmt: skip
    (wheel,) = wheels.glob("wordvec-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)],
                   check=True, capture_output=True)  # fmt: skip
    environment = {**os.environ, "PYTHONPATH": str(target)}
    packages = sorted(  # nested ones too (wordvec.gensim.models): pyproject lists each
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "wordvec").rglob("__init__.py")
    )
    # -S: no .pth files, so no editable install of the checkout answers for a missing package
    isolated = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *site.getsitepackages()])}
    command = [sys.executable, "-S", "-c", f"import {', '.join(packages)}"]
    imported = subprocess.run(command, cwd=tmp_path, env=isolated, capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr  # every package is in the wheel
    cli = [sys.executable, "-c", "import wordvec.cli as c; print(c.__file__); c.main()"]
    for lang, expected in (("en", "EN-WS-353-ALL"), ("zh", "wordsim-297")):
        done = subprocess.run([*cli, "eval", str(sample_model), "--lang", lang], cwd=tmp_path,
                              env=environment, capture_output=True, text=True)  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[0].startswith(str(target))  # the wheel's wordvec
        assert expected in done.stdout
