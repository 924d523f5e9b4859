"""Counting on a Dask cluster: a real LocalCluster of two worker processes, its counts
identical to a local run on the same shards, even after a worker is killed mid-run."""

from __future__ import annotations

import gzip
import itertools
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

from tests.conftest import SAMPLE
from wordvec.cli import main
from wordvec.cooccur.counting import count_cooccurrences
from wordvec.errors import ConfigError

distributed = pytest.importorskip("distributed")

from wordvec.cooccur import cluster as on_cluster  # noqa: E402
from wordvec.options import ReadingOptions  # noqa: E402

SHARDS = 6
WORDS = 240_000


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    """The bundled corpus's first words in shards of unequal size, lines of 1000 words."""
    folder = tmp_path_factory.mktemp("shards")
    with gzip.open(SAMPLE, "rt", encoding="utf-8") as sample:
        words = sample.read(12 * WORDS).split()[:WORDS]
    lines = [" ".join(words[i : i + 1000]) for i in range(0, len(words), 1000)]
    cuts = np.linspace(0, len(lines), SHARDS + 1).astype(int) ** 2 // len(lines)
    for index, (a, b) in enumerate(itertools.pairwise(cuts)):
        (folder / f"part-{index}.txt").write_text("\n".join(lines[a:b]) + "\n", encoding="utf-8")
    (folder / "part-9.txt").write_text(" \n\n", encoding="utf-8")  # no words at all
    return folder


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as local_cluster:
        yield local_cluster


@pytest.fixture(scope="module")
def local_counts(shards, tmp_path_factory):
    output = tmp_path_factory.mktemp("local") / "local.cooc"
    return count_cooccurrences([shards], output, quiet=True, min_count=3, window=5)


def assert_identical(counts, expected):
    assert counts.vocab.words == expected.vocab.words
    assert np.array_equal(counts.vocab.counts, expected.vocab.counts)
    for name in ("row_ptr", "cols", "values"):
        assert np.array_equal(getattr(counts, name), getattr(expected, name)), name
    assert counts.nnz > 100_000


def test_cluster_counts_are_those_of_a_local_run(cluster, shards, local_counts, tmp_path):
    result = CliRunner().invoke(
        main,
        ["cooccur", str(shards), "-o", str(tmp_path / "c.cooc"), "--min-count", "3",
         "--window", "5", "--scheduler", cluster.scheduler_address],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    from wordvec.cooccur.counts import Cooccurrences

    assert_identical(Cooccurrences.load(tmp_path / "c.cooc"), local_counts)


def test_shards_at_a_url_count_the_same(cluster, shards, local_counts, tmp_path):
    """A URL prefix (file:// here, s3:// on a cloud) is read through fsspec by the workers."""
    counts = on_cluster.count_on_cluster(
        shards.as_uri() + "/", tmp_path / "c.cooc", cluster.scheduler_address, quiet=True,
        min_count=3, window=5,
    )  # fmt: skip
    assert_identical(counts, local_counts)


def test_a_worker_killed_while_counting_changes_nothing(cluster, shards, local_counts, tmp_path):
    """One worker process is killed as soon as it counts pairs: Dask reruns what it held on
    the other worker (and the restarted one); the file is still identical."""
    watcher = distributed.Client(cluster.scheduler_address)
    pids = watcher.run(os.getpid)
    outcome: dict = {}

    def count():
        try:
            outcome["counts"] = on_cluster.count_on_cluster(
                [shards], tmp_path / "c.cooc", cluster.scheduler_address, quiet=True,
                min_count=3, window=5,
            )  # fmt: skip
        except BaseException as exc:
            outcome["error"] = exc

    counting = threading.Thread(target=count)
    counting.start()
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and counting.is_alive() and time.monotonic() < deadline:
        for address, keys in watcher.processing().items():
            if any("range_pairs" in str(key) for key in keys):
                os.kill(pids[address], signal.SIGKILL)
                killed = address
                break
        time.sleep(0.01)
    counting.join(120)
    watcher.close()
    assert killed is not None, "no worker was seen counting pairs"
    assert "error" not in outcome, outcome.get("error")
    assert_identical(outcome["counts"], local_counts)


def test_a_bad_shard_is_one_error_line(cluster, shards, tmp_path):
    (tmp_path / "bad.txt").write_bytes(b"text\x00\x01binary")
    output = tmp_path / "c.cooc"
    result = CliRunner().invoke(
        main,
        ["cooccur", str(shards), str(tmp_path / "bad.txt"), "-o", str(output),
         "--scheduler", cluster.scheduler_address, "-q"],
    )  # fmt: skip
    assert result.exit_code == 1
    assert result.output == "Error: bad.txt looks like a binary file (it contains NUL bytes)\n"
    assert not output.exists()


def test_an_unreachable_scheduler_is_one_error_line(shards, tmp_path, monkeypatch):
    monkeypatch.setattr(on_cluster, "CONNECT_TIMEOUT", 1.0)
    output = tmp_path / "c.cooc"
    result = CliRunner().invoke(
        main, ["cooccur", str(shards), "-o", str(output), "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot reach the Dask scheduler at")
    assert not output.exists()


def test_the_scheduler_can_come_from_the_environment(shards, tmp_path, monkeypatch):
    monkeypatch.setattr(on_cluster, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setenv("DASK_SCHEDULER_ADDRESS", "tcp://127.0.0.1:9")
    result = CliRunner().invoke(main, ["cooccur", str(shards), "-o", str(tmp_path / "c.cooc")])
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


def test_without_dask_the_option_says_what_to_install(shards, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = CliRunner().invoke(
        main, ["cooccur", str(shards), "-o", str(tmp_path / "c.cooc"), "--scheduler", "x:1"]
    )
    assert result.exit_code == 1
    assert "Error: --scheduler needs Dask: pip install 'wordvec[dask]'" in result.output


@pytest.mark.parametrize("option", [{"threads": 2}, {"vocab_memory": 1.0}])
def test_options_of_a_local_run_are_refused(shards, tmp_path, option):
    with pytest.raises(ConfigError, match="does not apply with --scheduler"):
        on_cluster.count_on_cluster([shards], tmp_path / "c.cooc", "tcp://127.0.0.1:9", **option)


def test_word_counts_merge_in_first_seen_order():
    first = (["b", "a"], np.array([1, 2]))
    second = (["c", "a", "d"], np.array([5, 1, 1]))
    words, counts = on_cluster._merge_words(first, second)
    assert words == ["b", "a", "c", "d"]
    assert counts.tolist() == [1, 3, 5, 1]


def test_a_task_of_shards_without_words_counts_nothing(shards, local_counts):
    from wordvec.options import CooccurConfig

    config = CooccurConfig(min_count=3, window=5).resolved()
    counted = on_cluster._shard_words([str(shards / "part-9.txt")], ReadingOptions())
    assert counted.words == [] and counted.ids.tolist() == [-1, -1]
    encoded = on_cluster._encoded(counted, local_counts.vocab)
    row_ptr, cols, counts = on_cluster._range_pairs(encoded, local_counts.vocab, config, 0, 5)
    assert (row_ptr.tolist(), len(cols), len(counts)) == ([0] * 6, 0, 0)


def test_counted_words_renumbered_are_the_encoded_corpus(shards, tmp_path):
    """count_words then encode_counted with the vocabulary: the ids encode_corpus writes."""
    from wordvec.corpus.reading import count_words, encode_corpus, encode_counted

    files = sorted(str(path) for path in shards.iterdir())[:3]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    vocab, encoded = encode_corpus(files, tmp_path / "a", threads=2, min_count=3)
    counted = count_words(files, tmp_path / "b", threads=1)
    again = encode_counted(counted, vocab)
    assert (again.length, again.words) == (encoded.length, encoded.words)
    assert np.array_equal(again.read(0, again.length), encoded.read(0, encoded.length))


def test_vocabulary_files_work_on_the_cluster(cluster, shards, tmp_path):
    """--save-vocab writes the local run's file; --read-vocab fixes the vocabulary as locally."""
    options = {"min_count": 3, "window": 5, "quiet": True}
    count_cooccurrences([shards], tmp_path / "l.cooc", save_vocab=tmp_path / "l.txt", **options)
    on_cluster.count_on_cluster(
        [shards], tmp_path / "c.cooc", cluster.scheduler_address,
        save_vocab=tmp_path / "c.txt", **options,
    )  # fmt: skip
    assert (tmp_path / "c.txt").read_text() == (tmp_path / "l.txt").read_text()
    fixed = tmp_path / "fixed.txt"
    fixed.write_text("".join((tmp_path / "l.txt").read_text().splitlines(True)[::3]))
    local = count_cooccurrences([shards], tmp_path / "l2.cooc", read_vocab=fixed, **options)
    counts = on_cluster.count_on_cluster(
        [shards], tmp_path / "c2.cooc", cluster.scheduler_address, read_vocab=fixed, **options
    )
    assert len(counts.vocab) == len(local.vocab) < 3000
    assert_identical(counts, local)
