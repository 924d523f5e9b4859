"""fastText's quantized ``.ftz``, both ways: the product quantizer against plain NumPy, our
``.ftz`` read by fastText as we read it, fastText's own ``.ftz`` read by us as fastText reads
it, and a damaged one refused with one ``Error:`` line."""

from __future__ import annotations

import gzip
import struct

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.conftest import CORPORA
from wordvec.cli import main
from wordvec.formats import export, load_classifier, load_vectors
from wordvec.formats.fasttext_ftz import write_fasttext_ftz
from wordvec.formats.quantized import ProductQuantizer
from wordvec.formats.wordvec_model import read_model
from wordvec.kernels.quantize import _kmeans, _nearest

TRAIN_LINES = 3000
VALID_LINES = 1000
SETTINGS = dict(model="supervised", dim=16, epochs=25, alpha=1.0, word_ngrams=2, bucket=20_000)


def test_product_quantizer_codes_are_the_nearest_centroids():
    """Codes and decoded rows against a plain NumPy nearest-centroid search, on rows of 5
    dimensions in slices of 2 (the last slice of 1)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 5)).astype(np.float32)
    pq = ProductQuantizer.train(x, 2, np.random.default_rng(1))
    assert (pq.nsubq, pq.lastdsub) == (3, 1)
    codes = pq.encode(x)
    for m, (first, width) in enumerate([(0, 2), (2, 2), (4, 1)]):
        centroids = pq.centroids[m, :, :width]
        distances = ((x[:, None, first : first + width] - centroids[None]) ** 2).sum(axis=2)
        np.testing.assert_array_equal(codes[:, m], distances.argmin(axis=1))
        np.testing.assert_array_equal(
            pq.decode(codes)[:, first : first + width], centroids[codes[:, m]]
        )


def test_the_nearest_centroid_is_the_first_of_equals():
    """fastText's assign_centroid keeps the first of equal distances; the search compares each
    distance's bits as an integer with the centroid's index below them, which must keep it."""
    centroids = np.ones((256, 2), np.float32)
    by_column, dist = np.ascontiguousarray(centroids.T), np.empty(256, np.float32)
    x = np.zeros(2, np.float32)
    assert _nearest(x, by_column, 2, dist) == 0  # all alike
    by_column[:, 0] = 2.0
    assert _nearest(x, by_column, 2, dist) == 1
    by_column[:, [17, 200]] = 0.5  # nearer, and equal
    assert _nearest(x, by_column, 2, dist) == 17
    by_column[:, 255] = 0.0  # a distance of 0, last
    assert _nearest(x, by_column, 2, dist) == 255
    far = np.array([1e30, 0], np.float32)  # every distance overflows to inf: all alike
    assert _nearest(far, by_column, 1, dist) == 0


def _quantize_in_child(x, answers) -> None:
    pq = ProductQuantizer.train(x, 2, np.random.default_rng(1))
    answers.put((pq.centroids, pq.encode(x)))


def test_a_forked_child_of_a_process_that_quantized_quantizes_too():
    """A forked child of a process that quantized quantizes too, with the same answers: when
    the k-means was a numba ``parallel=True`` kernel, whose OpenMP threads do not survive a
    fork, the child was ended ("fork() called from a process already using GNU OpenMP"); the
    kernels now run on Python threads, which a child starts its own of."""
    import multiprocessing

    x = np.random.default_rng(0).normal(size=(400, 6)).astype(np.float32)
    pq = ProductQuantizer.train(x, 2, np.random.default_rng(1))
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    child = context.Process(target=_quantize_in_child, args=(x, answers))
    child.start()
    centroids, codes = answers.get(timeout=60)
    child.join(10)
    assert child.exitcode == 0
    np.testing.assert_allclose(centroids, pq.centroids, atol=1e-5)
    assert (codes != pq.encode(x)).mean() < 0.01


def test_a_kmeans_iteration_is_lloyds():
    """One iteration from the first k rows: each centroid the mean of the rows nearest it."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=(50, 2)).astype(np.float32)
    k = 4
    centroids = np.zeros((k, 2), np.float32)
    codes, counts = np.zeros(50, np.int64), np.zeros(k, np.int64)
    _kmeans(x, centroids, 1, np.zeros((1, k)), codes, counts)
    nearest = ((x[:, None] - x[None, :k]) ** 2).sum(axis=2).argmin(axis=1)
    expected = np.array([x[nearest == c].mean(axis=0) for c in range(k)])
    np.testing.assert_allclose(centroids, expected, rtol=1e-5)
    np.testing.assert_array_equal(counts, np.bincount(nearest, minlength=k))


def test_an_empty_cluster_takes_half_of_another():
    """Two rows and three centroids: the cluster left empty splits one that has rows."""
    x = np.array([[0, 0], [0, 0], [1, 1], [1, 1]], np.float32)
    centroids = np.zeros((3, 2), np.float32)
    codes, counts = np.zeros(4, np.int64), np.zeros(3, np.int64)
    _kmeans(x, centroids, 1, np.full((1, 3), 0.5), codes, counts)
    assert sorted(counts) == [1, 1, 2]
    assert np.isfinite(centroids).all()


fasttext = pytest.importorskip("fasttext")


@pytest.fixture(scope="module")
def cooking(tmp_path_factory):
    """Slices of the cooking data, a small bigram classifier of ours and its ``.bin``."""
    folder = tmp_path_factory.mktemp("ftz")
    for name, lines in (("train", TRAIN_LINES), ("valid", VALID_LINES)):
        text = gzip.decompress((CORPORA / f"cooking.{name}.gz").read_bytes()).decode()
        (folder / f"cooking.{name}").write_text("".join(text.splitlines(True)[:lines]))
    model = wordvec.train(folder / "cooking.train", threads=1, seed=1, quiet=True, **SETTINGS)
    model.save(folder / "clf.wv")
    export(folder / "clf.wv", folder / "clf.bin", "fasttext-bin")
    return folder


def _valid(folder) -> list[str]:
    return (folder / "cooking.valid").read_text().splitlines()


def _agreement(ours, theirs, lines: list[str]) -> float:
    """The share of ``lines`` on which fastText's top label is ours."""
    texts = [" ".join(w for w in line.split() if not w.startswith("__label__")) for line in lines]
    top = [predicted[0][0] for predicted in ours.predict_lines(texts, block=len(texts))]
    labels, _ = theirs.predict(texts)
    return np.mean([mine == found[0] for mine, found in zip(top, labels)])


def test_our_ftz_is_read_by_fasttext_as_we_read_it(cooking):
    """Cut to 5,000 rows of 23,000, retrained, norms quantized: 0.3 of the .bin or less, P@1
    close to the full model's (0.003 apart for two seeds; 0.02 allowed), fastText's answers
    ours; and fastText's save of it reads back the same."""
    ftz = cooking / "ours.ftz"
    wordvec.quantize(cooking / "clf.wv", ftz, cutoff=5000, qnorm=True,
                     retrain=cooking / "cooking.train", threads=1)  # fmt: skip
    assert ftz.stat().st_size <= 0.3 * (cooking / "clf.bin").stat().st_size
    lines = _valid(cooking)
    full = load_classifier(cooking / "clf.wv").test(lines).precision
    ours = load_classifier(ftz)
    report = ours.test(lines)
    assert abs(report.precision - full) <= 0.02
    theirs = fasttext.load_model(str(ftz))
    _, precision, _ = theirs.test(str(cooking / "cooking.valid"))
    assert precision == pytest.approx(report.precision, abs=1e-9)
    assert _agreement(ours, theirs, lines) >= 0.99
    theirs.save_model(str(cooking / "again.ftz"))
    again = load_classifier(cooking / "again.ftz")
    assert [p for p in again.predict_lines(lines)] == [p for p in ours.predict_lines(lines)]


@pytest.mark.parametrize(
    "quantize",
    [dict(cutoff=2000, retrain=True, qnorm=True), dict(cutoff=3000, qout=True, dsub=4)],
    ids=["cutoff-retrain-qnorm", "cutoff-qout-dsub4-subwords"],
)
def test_we_read_fasttexts_own_ftz_as_it_does(cooking, tmp_path, quantize):
    from tests.test_supervised import _by_fasttext

    train = str(cooking / "cooking.train")
    subwords = dict(minn=2, maxn=4) if "qout" in quantize else {}
    # fastText's default 2M buckets: with fewer it reads memory it never set, and runs into NaN
    theirs = _by_fasttext(fasttext.train_supervised, train, epoch=5, lr=0.5, wordNgrams=2,
                          dim=16, **subwords)  # fmt: skip
    theirs.quantize(input=train if quantize.get("retrain") else None, **quantize)
    theirs.save_model(str(tmp_path / "ft.ftz"))
    ours = load_classifier(tmp_path / "ft.ftz")
    lines = _valid(cooking)
    _, precision, _ = theirs.test(str(cooking / "cooking.valid"))
    assert abs(ours.test(lines).precision - precision) <= 0.002
    assert _agreement(ours, theirs, lines) >= 0.99
    vectors = load_vectors(tmp_path / "ft.ftz")  # a classifier's word rows: neighbors, export
    word = vectors.words[5]
    np.testing.assert_allclose(vectors[word], theirs.get_word_vector(word), atol=1e-5)


def test_quantize_command_and_its_export_alias(cooking, tmp_path):
    runner = CliRunner()
    model = str(cooking / "clf.wv")
    result = runner.invoke(main, ["quantize", model, "-o", str(tmp_path / "a.ftz")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(main, ["export", model, str(tmp_path / "b.ftz"), "-f", "fasttext-ftz"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "b.ftz").read_bytes() == (tmp_path / "a.ftz").read_bytes()
    wordvec.quantize(wordvec.Model.load(model), tmp_path / "e.ftz")  # the Python API's
    assert (tmp_path / "e.ftz").read_bytes() == (tmp_path / "a.ftz").read_bytes()
    result = runner.invoke(main, ["neighbors", str(tmp_path / "a.ftz"), "bread", "-k", "3"])
    assert result.exit_code == 0 and "bread" in result.output, result.output
    errors = {
        ("--retrain",): "Error: --retrain and --input go together",
        ("--cutoff", "100"): "Error: product quantisation needs at least 256 rows",
        ("--input", str(cooking / "cooking.valid")): "Error: --retrain and --input go together",
        ("--seed", "-1"): "Error: --seed must be a whole number from 0, not -1",
    }
    for options, message in errors.items():
        result = runner.invoke(main, ["quantize", model, "-o", str(tmp_path / "c.ftz"), *options])
        assert result.exit_code == 1 and result.output.startswith(message), result.output
    vectors = tmp_path / "sg.wv"
    wordvec.train(cooking / "cooking.train", dim=8, epochs=1, quiet=True).save(vectors)
    result = runner.invoke(main, ["quantize", str(vectors), "-o", str(tmp_path / "d.ftz")])
    assert result.exit_code == 1 and "a .ftz holds a classifier" in result.output, result.output
    for options, message in (  # a word model's options, or its output, for a classifier
        (["-o", str(tmp_path / "c.wv")], "a classifier is quantized to fastText's .ftz"),
        (["-o", str(tmp_path / "c.ftz"), "--size", "1MB"], "--size does not apply to a classifier"),
        (["-o", str(tmp_path / "c.ftz"), "--by", "norm"], "--by does not apply to a classifier"),
    ):
        result = runner.invoke(main, ["quantize", model, *options])
        assert result.exit_code == 1 and message in result.output, result.output


def _fields(path) -> dict[str, int]:
    """Byte offsets of the fields a damaged header test changes, in our .ftz with cutoff."""
    data = path.read_bytes()
    offsets = {"dict": 8 + 12 * 4 + 8}
    (size,) = struct.unpack_from("<i", data, offsets["dict"])
    at = offsets["dict"] + 28
    for _ in range(size):
        at = data.index(b"\0", at) + 1 + 9
    offsets["pruneidx"] = at
    (prune_size,) = struct.unpack_from("<q", data, offsets["dict"] + 20)
    offsets["quantized"] = at + 8 * prune_size
    offsets["codesize"] = offsets["quantized"] + 1 + 1 + 16
    (codesize,) = struct.unpack_from("<i", data, offsets["codesize"])
    offsets["pq"] = offsets["codesize"] + 4 + codesize
    offsets["centroids"] = offsets["pq"] + 16
    return offsets


@pytest.mark.parametrize(
    ("field", "value", "fmt", "message"),
    [
        ("pruneidx", 10**9, "<i", "pruned bucket index"),
        ("pruneidx", -1, "<i", "pruned bucket index"),
        ("quantized", 7, "<B", "input matrix flag 7"),
        ("codesize", 12345, "<i", "codes 12345 for"),
        ("pq", 15, "<i", "quantizer of dim 15"),
        ("pq", 16 << 8, "<i", "quantizer of dim"),
        ("centroids", 0x7FC00000, "<I", "a centroid is not finite"),
    ],
)
def test_a_damaged_ftz_is_one_error_line(cooking, tmp_path, field, value, fmt, message):
    good = cooking / "small.ftz"
    if not good.exists():
        write_fasttext_ftz(read_model(cooking / "clf.wv"), good, cutoff=1000, qnorm=True)
    data = bytearray(good.read_bytes())
    at = _fields(good)[field] + (4 if (field, value) == ("pq", 16 << 8) else 0)
    struct.pack_into(fmt, data, at, value)
    bad = tmp_path / "bad.ftz"
    bad.write_bytes(bytes(data))
    for command in (
        ["test", str(bad), str(cooking / "cooking.valid")],
        ["neighbors", str(bad), "egg"],
    ):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 1, result.output
        assert result.output.startswith(f"Error: bad.ftz is corrupt ({message}"), result.output
        assert result.output.count("\n") == 1
    bad.write_bytes(good.read_bytes()[: len(data) // 2])
    result = CliRunner().invoke(main, ["predict", str(bad)], input="boil an egg\n")
    assert result.output == "Error: bad.ftz is truncated\n"


@pytest.mark.parametrize("seed", [-1, 1.5, "hs", float("nan"), True])
def test_a_hand_edited_models_seed_does_not_stop_quantize(cooking, tmp_path, seed):
    """A model file's seed that cannot seed k-means (the fuzz's finds) is not used."""
    model = wordvec.Model.load(cooking / "clf.wv")
    model.settings["seed"] = seed
    wordvec.quantize(model, tmp_path / "q.ftz")
    assert wordvec.load_classifier(tmp_path / "q.ftz").predict("how to boil eggs", k=1)
