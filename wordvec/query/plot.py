"""2-D pictures of word vectors: a PCA projection with labelled, optionally grouped, points.

matplotlib is an optional dependency (``pip install 'wordvec[plot]'``); only drawing needs it.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from wordvec.errors import ConfigError, WordvecError
from wordvec.query.vectors import Vectors
from wordvec.runtime.atomic import atomic_write
from wordvec.runtime.progress import note

FORMATS = (".png", ".svg")
CJK_FONTS = (
    "Noto Sans CJK",
    "Noto Sans SC",
    "Noto Sans TC",
    "Source Han Sans",
    "WenQuanYi",
    "SimHei",
    "Microsoft YaHei",
    "PingFang",
    "Heiti",
    "AR PL",
    "Droid Sans Fallback",
)


def pca_2d(matrix: np.ndarray) -> np.ndarray:
    """Project rows onto their first two principal components (centred; signs fixed so that
    the largest coordinate of each component is positive)."""
    centred = np.asarray(matrix, dtype=np.float64) - np.mean(matrix, axis=0)
    _, _, components = np.linalg.svd(centred, full_matrices=False)
    components = components[:2]
    signs = np.sign(components[np.arange(len(components)), np.abs(components).argmax(axis=1)])
    projected = centred @ (components * signs[:, None]).T
    if projected.shape[1] < 2:  # a single point or a single dimension
        projected = np.pad(projected, ((0, 0), (0, 2 - projected.shape[1])))
    return projected


def _cjk_font() -> str | None:
    from matplotlib import font_manager

    for font in font_manager.fontManager.ttflist:
        if any(name.lower() in font.name.lower() for name in CJK_FONTS):
            return font.name
    return None


MAX_LABELS = 300
"""Words labelled in one picture; the others are points only."""
_FONT = 9


def _padded(values: np.ndarray) -> tuple[float, float]:
    low, high = float(values.min()), float(values.max())
    pad = 0.08 * (high - low or 1.0)
    return low - pad, high + pad


def place_labels(anchors: np.ndarray, sizes: np.ndarray, *, gap: float) -> np.ndarray:
    """Where each label goes (its lower-left corner, relative to its point, in pixels): the
    first of eight places around the point whose box overlaps no label placed before it and
    no point; the first place if none is free. Greedy, in order: earlier words win."""
    around = [(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0), (-1, 0), (0, 1), (0, -1)]
    placed: list[tuple[float, float, float, float]] = []
    offsets = np.zeros((len(anchors), 2))
    for i, ((x, y), (width, height)) in enumerate(zip(anchors, sizes)):
        for k, (sx, sy) in enumerate(around):
            dx = gap if sx > 0 else -gap - width if sx < 0 else -width / 2
            dy = gap if sy > 0 else -gap - height if sy < 0 else -height / 2
            box = (x + dx, y + dy, x + dx + width, y + dy + height)
            covers_a_point = np.any(
                (anchors[:, 0] >= box[0]) & (anchors[:, 0] <= box[2])
                & (anchors[:, 1] >= box[1]) & (anchors[:, 1] <= box[3])
            )  # fmt: skip
            clear = not covers_a_point and not any(_overlap(box, other) for other in placed)
            if clear or k == len(around) - 1:
                if not clear:  # nowhere free: the first place
                    dx, dy = gap, gap
                    box = (x + dx, y + dy, x + dx + width, y + dy + height)
                placed.append(box)
                offsets[i] = dx, dy
                break
    return offsets


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def plot_words(
    vectors: Vectors,
    words: Sequence[str],
    path: str | os.PathLike,
    *,
    groups: Mapping[str, Sequence[str]] | None = None,
    title: str | None = None,
) -> Path:
    """Draw ``words`` (and every word of ``groups``, coloured by group) at their PCA
    coordinates; write a PNG or SVG (by ``path``'s suffix) atomically."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ConfigError(f"the picture must be .png or .svg, not {path.name}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise WordvecError("plot needs matplotlib: pip install 'wordvec[plot]'") from None

    groups = dict(groups or {})
    labelled = [(word, None) for word in words] + [
        (word, name) for name, members in groups.items() for word in members
    ]
    if len(labelled) < 2:
        raise ConfigError("give at least two words to plot")
    # each word's own vector: an unseen word's too, where the vectors build one from parts
    points = pca_2d(np.array([vectors.unit_vector(word) for word, _ in labelled]))

    style = {}
    if any(not word.isascii() for word, _ in labelled):
        font = _cjk_font()
        if font:
            style["font.sans-serif"] = [font, *plt.rcParams["font.sans-serif"]]
        else:
            note(
                "warning: no CJK font found; Chinese labels may show as boxes "
                "(install one, e.g. Debian's fonts-noto-cjk)"
            )
    # Settings and warning filters last for this picture only; a missing CJK glyph is said
    # once above, not once per character.
    with plt.rc_context(style), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        figure, axes = plt.subplots(figsize=(8, 6), dpi=120)
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        names = [None, *groups]
        for n, name in enumerate(names):
            members = [i for i, (_, g) in enumerate(labelled) if g == name]
            if members:
                axes.scatter(
                    points[members, 0],
                    points[members, 1],
                    s=18,
                    color="grey" if name is None else colours[(n - 1) % len(colours)],
                    label=name,
                )
        shown = labelled[:MAX_LABELS]
        if len(labelled) > MAX_LABELS:
            note(
                f"note: {len(labelled):,} words plotted, labelled the first {MAX_LABELS} "
                "(more labels only pile up, and take minutes to draw)"
            )
        axes.set_xlim(*_padded(points[:, 0]))
        axes.set_ylim(*_padded(points[:, 1]))
        scale = figure.dpi / 72  # pixels per point
        anchors = axes.transData.transform(points[: len(shown)])
        sizes = np.array([(_FONT * 0.62 * len(word) * scale, _FONT * scale) for word, _ in shown])
        offsets = place_labels(anchors, sizes, gap=3 * scale)
        for (word, _), (x, y), (dx, dy) in zip(shown, points, offsets / scale):
            axes.annotate(word, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=_FONT)
        if groups:
            axes.legend(loc="best", fontsize=9)
        axes.set_xlabel("principal component 1")
        axes.set_ylabel("principal component 2")
        axes.set_title(title or f"{len(labelled)} words, PCA of {vectors.dim}-d vectors")
        figure.tight_layout()
        with atomic_write(path, "wb") as out:
            figure.savefig(out, format=path.suffix[1:].lower())
        plt.close(figure)
    return path
