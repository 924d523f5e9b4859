"""Where the evaluation sets bundled with wordvec are.

They live in the repository's ``corpora/`` folder (``corpora/README.md`` gives each one's
source and licence) and are installed inside the package as ``wordvec.evalsets`` (see
pyproject.toml), so the defaults of ``wordvec eval`` work from a wheel, an editable install or
a checkout.
"""

from __future__ import annotations

from pathlib import Path

from wordvec.errors import WordvecError

_PACKAGE = Path(__file__).resolve().parent.parent
INSTALLED = _PACKAGE / "evalsets"
CHECKOUT = _PACKAGE.parent / "corpora"


def _bundled() -> Path:
    """The sets installed with the package (a wheel), or the checkout's corpora/ (an
    editable install, or running from source)."""
    return INSTALLED if (INSTALLED / "questions-words.txt").exists() else CHECKOUT


DEFAULT_SETS = {
    "en": {
        "similarity": ["EN-WS-353-ALL.txt", "EN-WS-353-SIM.txt", "EN-WS-353-REL.txt"],
        "analogy": ["questions-words.txt"],
    },
    "zh": {
        "similarity": ["zh/wordsim-240.txt", "zh/wordsim-297.txt"],
        "analogy": ["zh/semantic.txt", "zh/morphological.txt"],
    },
}


def bundled_file(name: str) -> Path:
    """The path of the bundled file ``name`` (``questions-words.txt``); it may be missing from
    an install without the sets."""
    return _bundled() / name


def default_sets(language: str, kind: str) -> list[Path]:
    """The bundled ``kind`` ("similarity" or "analogy") sets for ``language`` ("en", "zh")."""
    folder = _bundled()
    paths = [folder / name for name in DEFAULT_SETS[language][kind]]
    missing = [p.name for p in paths if not p.exists()]
    if missing:
        raise WordvecError(
            f"the bundled evaluation sets are not here ({', '.join(missing)}): "
            "pass --similarity and --analogy files"
        )
    return paths
