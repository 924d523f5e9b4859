"""Where the evaluation sets bundled in the repository's ``corpora/`` folder are.

They ship with the source (``corpora/README.md`` gives each one's source and licence), so the
defaults of ``wordvec eval`` work in a checkout or an editable install; elsewhere, pass the
files explicitly.
"""

from __future__ import annotations

from pathlib import Path

from wordvec.errors import WordvecError

CORPORA = Path(__file__).resolve().parent.parent / "corpora"

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


def default_sets(language: str, kind: str) -> list[Path]:
    """The bundled ``kind`` ("similarity" or "analogy") sets for ``language`` ("en", "zh")."""
    paths = [CORPORA / name for name in DEFAULT_SETS[language][kind]]
    missing = [p.name for p in paths if not p.exists()]
    if missing:
        raise WordvecError(
            f"the bundled evaluation sets are not here ({', '.join(missing)}): "
            "pass --similarity and --analogy files"
        )
    return paths
