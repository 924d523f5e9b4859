"""Tokenizers for Chinese text, and the PCA picture."""

import gzip
import sys

import numpy as np
import pytest

from wordvec.corpus.python_reader import read_pieces
from wordvec.corpus.text import char_tokens, get_tokenizer
from wordvec.errors import ConfigError, WordvecError
from wordvec.query.plot import pca_2d, plot_words
from wordvec.query.vectors import Vectors


def test_char_tokenizer_splits_cjk_and_keeps_latin_words():
    assert char_tokens("我爱Python 3和北京，OK!") == [
        "我",
        "爱",
        "Python",
        "3",
        "和",
        "北",
        "京",
        "，",
        "OK!",
    ]
    assert char_tokens("  ") == []


def test_jieba_tokenizer_segments_words():
    pytest.importorskip("jieba")
    tokens = get_tokenizer("jieba")("我爱北京天安门 and Python")
    assert tokens == ["我", "爱", "北京", "天安门", "and", "Python"]


def test_jieba_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "jieba", None)
    with pytest.raises(ConfigError, match=r"pip install 'wordvec\[zh\]'"):
        get_tokenizer("jieba")


def test_unsegmented_long_line_is_cut_not_rejected(tmp_path):
    path = tmp_path / "zh.txt"
    path.write_text("北京" * 120_000 + "\n", encoding="utf-8")  # 240k chars, no whitespace
    pieces = list(read_pieces(path, tokenizer="char", block_chars=50_000))
    tokens = [t for piece, _ in pieces for t in piece]
    assert len(tokens) == 240_000 and set(tokens) == {"北", "京"}
    assert max(len(piece) for piece, _ in pieces) <= 150_000
    with pytest.raises(WordvecError, match="use --tokenizer char or jieba"):
        list(read_pieces(path, block_chars=50_000))


def test_pca_2d_by_hand():
    # points on the line y = 2x in 3-D: all variance on the first component
    points = np.array([[0, 0, 1], [1, 2, 1], [2, 4, 1], [3, 6, 1]], float)
    projected = pca_2d(points)
    np.testing.assert_allclose(projected[:, 0], np.array([-1.5, -0.5, 0.5, 1.5]) * np.sqrt(5))
    np.testing.assert_allclose(projected[:, 1], 0, atol=1e-12)


def small_vectors():
    rng = np.random.default_rng(0)
    words = ["cat", "dog", "horse", "france", "italy", "北京", "上海"]
    return Vectors(words, rng.normal(size=(len(words), 5)).astype(np.float32))


@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<?xml")])
def test_plot_writes_a_picture(tmp_path, suffix, magic):
    pytest.importorskip("matplotlib")
    path = plot_words(
        small_vectors(),
        ["cat", "北京"],
        tmp_path / f"p{suffix}",
        groups={"animals": ["dog", "horse"], "places": ["france", "上海"]},
    )
    data = path.read_bytes()
    assert data.startswith(magic) and len(data) > 5_000
    assert [p.name for p in tmp_path.iterdir()] == [f"p{suffix}"]


def test_plot_errors(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match="must be .png or .svg"):
        plot_words(small_vectors(), ["cat", "dog"], tmp_path / "p.jpg")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(WordvecError, match=r"pip install 'wordvec\[plot\]'"):
        plot_words(small_vectors(), ["cat", "dog"], tmp_path / "p.png")


def test_progress_in_a_log_is_plain_lines(capsys):
    """Not on a terminal: plain lines, not one per update (a line every LOG_SECONDS at most:
    here, the first and the last)."""
    from wordvec.runtime import progress

    with progress.progress_bar("step", 1000) as bar:
        for _ in range(1000):
            bar.update(1)
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("step:   0%") and lines[1].startswith("step: 100%")


def test_convert_t2s_reads_traditional_chinese_as_simplified(tmp_path):
    pytest.importorskip("opencc")
    import wordvec

    path = tmp_path / "zh.txt"
    path.write_text("漢字 簡化 爭論\n北京 機關 漢字\n", encoding="utf-8")
    assert [tokens for tokens, _ in read_pieces(path, convert="t2s")] == [
        ["汉字", "简化", "争论"],
        ["北京", "机关", "汉字"],
    ]
    model = wordvec.train(path, convert="t2s", min_count=2, epochs=1, quiet=True)
    assert model.vocab.words == ["汉字"]


def test_labels_are_placed_where_they_overlap_nothing():
    """Points in a row closer than a label is wide: labels all up and to the right would
    overlap; placed, none overlaps another label or covers a point."""
    from wordvec.query.plot import _overlap, place_labels

    anchors = np.array([[100, 100], [120, 100], [140, 100], [160, 100], [180, 100]], float)
    sizes = np.array([[30, 10]] * len(anchors), float)

    def boxes(offsets):
        return [(x + dx, y + dy, x + dx + w, y + dy + h)
                for (x, y), (dx, dy), (w, h) in zip(anchors, offsets, sizes)]  # fmt: skip

    naive = boxes(np.full((len(anchors), 2), 2.0))
    assert _overlap(naive[0], naive[1])
    placed = boxes(place_labels(anchors, sizes, gap=2))
    for i, box in enumerate(placed):
        assert not any(_overlap(box, other) for other in placed[:i])
        assert not any(box[0] <= x <= box[2] and box[1] <= y <= box[3] for x, y in anchors)


def test_plot_of_many_words_labels_only_the_first(tmp_path, sample_model):
    pytest.importorskip("matplotlib")
    from click.testing import CliRunner

    from wordvec.cli import main

    result = CliRunner().invoke(
        main, ["plot", str(sample_model), "--top", "400", "-o", str(tmp_path / "p.png")]
    )
    assert result.exit_code == 0, result.output
    assert "note: 400 words plotted, labelled the first 300" in result.output


def test_jieba_on_worker_processes_segments_as_one_process(tmp_path):
    pytest.importorskip("jieba")
    from tests.conftest import CORPORA

    with gzip.open(CORPORA / "zhwiki-sample.txt.gz", "rt", encoding="utf-8") as sample:
        text = sample.read(30_000)
    path = tmp_path / "zh.txt"
    path.write_text(text, encoding="utf-8")
    alone = list(read_pieces(path, tokenizer="jieba", block_chars=5_000))
    assert list(read_pieces(path, tokenizer="jieba", workers=2, block_chars=5_000)) == alone
    assert sum(len(tokens) for tokens, _ in alone) > 10_000


def test_jieba_workers_leave_signals_to_the_parent(tmp_path, capfd):
    """The CLI turns SIGTERM into a KeyboardInterrupt; the pool's workers must not inherit
    that. Before, a worker could swallow the pool's SIGTERM and hang the join for good (a CI
    run timed out so), and interrupted workers printed tracebacks. Now a finished read ends its
    workers with no signal, and one stopped early ends them at once and silently."""
    pytest.importorskip("jieba")
    import multiprocessing
    import signal

    from tests.conftest import CORPORA

    with gzip.open(CORPORA / "zhwiki-sample.txt.gz", "rt", encoding="utf-8") as sample:
        text = sample.read(20_000)
    path = tmp_path / "zh.txt"
    path.write_text(text, encoding="utf-8")

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        for _ in range(10):
            pieces = read_pieces(path, tokenizer="jieba", workers=2, block_chars=2_000)
            next(pieces)
            pieces.close()  # the pool is terminated
            assert not multiprocessing.active_children()
        assert sum(1 for _ in read_pieces(path, tokenizer="jieba", workers=2)) > 10
        assert not multiprocessing.active_children()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert "Traceback" not in capfd.readouterr().err
