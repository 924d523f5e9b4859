"""Compressed word models (``wordvec quantize MODEL -o SMALL.wv``): the compressed matrix
against plain NumPy, exact where rows are few, a damaged file refused before a row is
decoded, the size target kept, and the small model read by every door (commands, the gensim
and fastText faces) with the full model's answers, unseen words included."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.conftest import SAMPLE
from wordvec.cli import main
from wordvec.compression import compress
from wordvec.compression.rows import Buckets, kept_buckets, kept_words
from wordvec.compression.sizing import Plan, estimated_bytes, parse_size, plan_for_size
from wordvec.errors import ConfigError, FormatError
from wordvec.formats import load_vectors
from wordvec.formats.compressed import compress_rows, read_compressed
from wordvec.formats.container import read_container, write_container
from wordvec.formats.quantized import KSUB

FASTTEXT = dict(model="fasttext", dim=24, epochs=2, bucket=50_000, threads=1, seed=5)


@pytest.fixture(scope="module")
def fasttext_model(tmp_path_factory):
    """A fastText model of the bundled sample, and its compressed form at the defaults."""
    folder = tmp_path_factory.mktemp("compress")
    full, small = folder / "ft.wv", folder / "ft-small.wv"
    wordvec.train(SAMPLE, quiet=True, **FASTTEXT).save(full)
    report = compress(full, small, report=True)
    return full, small, report


def test_few_rows_compress_exactly():
    """Fewer distinct rows than centroids: each is a centroid of its own, so the codes give the
    rows back (lengths too, quantized apart), and rows not kept read as zeros."""
    rng = np.random.default_rng(0)
    matrix = np.zeros((1000, 6), np.float32)
    kept = np.sort(rng.choice(1000, 40, replace=False))
    matrix[kept] = rng.normal(size=(40, 6))
    entry, arrays = compress_rows("ngrams", matrix, kept, dsub=2, qnorm=True, rng=rng)
    rows = read_compressed("f", {"ngrams": entry}, dict(arrays))["ngrams"]
    assert rows.shape == (1000, 6) and len(rows) == 1000
    np.testing.assert_allclose(np.asarray(rows), matrix, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rows[[kept[3], 7, -1]], matrix[[kept[3], 7, 999]], atol=1e-6)
    np.testing.assert_allclose(rows[kept[0] : kept[0] + 3], matrix[kept[0] : kept[0] + 3],
                               atol=1e-6)  # fmt: skip
    assert rows[np.array([[1, 2]])].shape == (1, 2, 6)
    with pytest.raises(IndexError):
        rows[[1000]]


def test_codes_are_the_nearest_centroids_of_the_unit_rows():
    """Many rows: each decoded row is its direction's nearest centroids (per slice of dsub)
    times its quantized length, as plain NumPy finds them."""
    rng = np.random.default_rng(1)
    matrix = rng.normal(size=(2000, 5)).astype(np.float32)
    entry, arrays = compress_rows("vectors", matrix, None, dsub=2, qnorm=True, rng=rng)
    rows = read_compressed("f", {"vectors": entry}, dict(arrays))["vectors"]
    norms = np.linalg.norm(matrix, axis=1)
    unit = matrix / norms[:, None]
    expected = np.empty_like(matrix)
    for m, (first, width) in enumerate([(0, 2), (2, 2), (4, 1)]):
        centroids = arrays["vectors.centroids"][m, :, :width]
        nearest = ((unit[:, None, first : first + width] - centroids) ** 2).sum(2).argmin(1)
        expected[:, first : first + width] = centroids[nearest]
    lengths = arrays["vectors.norm_centroids"]
    expected *= lengths[np.abs(norms[:, None] - lengths).argmin(1)][:, None]
    np.testing.assert_allclose(np.asarray(rows), expected, rtol=1e-5, atol=1e-6)
    cosines = (np.asarray(rows) * matrix).sum(1) / np.linalg.norm(np.asarray(rows), axis=1) / norms
    assert np.median(cosines) > 0.95


def _damaged(arrays: dict, entry: dict, **changes) -> tuple[dict, dict]:
    arrays, entry = dict(arrays), dict(entry)
    for name, value in changes.items():
        if name in ("rows", "dim"):
            entry[name] = value
        elif value is None:
            arrays.pop(f"ngrams.{name}")
        else:
            arrays[f"ngrams.{name}"] = value
    return arrays, entry


def test_a_damaged_compressed_matrix_is_refused_before_decoding():
    rng = np.random.default_rng(2)
    matrix = rng.normal(size=(600, 8)).astype(np.float32)
    kept = np.arange(0, 600, 2)
    entry, arrays = compress_rows("ngrams", matrix, kept, dsub=2, qnorm=True, rng=rng)
    nan = arrays["ngrams.centroids"].copy()
    nan[1, 2, 0] = np.nan
    damages = {
        "a centroid not finite": dict(centroids=nan),
        "codes of another width": dict(codes=arrays["ngrams.codes"][:, :3]),
        "codes for other rows": dict(codes=arrays["ngrams.codes"][:-1]),
        "rows kept not increasing": dict(kept=kept[::-1].astype(np.int32)),
        "a row kept past the end": dict(kept=(kept + 2).astype(np.int32)),
        "rows kept of another type": dict(kept=kept.astype(np.int64)),
        "norms without their centroids": dict(norm_centroids=None),
        "rows true": dict(rows=True),
        "negative rows": dict(rows=-1),
        "another dim": dict(dim=9),
        "no codes": dict(codes=None),
    }
    for why, change in damages.items():
        damaged, damaged_entry = _damaged(arrays, entry, **change)
        with pytest.raises(FormatError, match="corrupt"):
            read_compressed("f.wv", {"ngrams": damaged_entry}, damaged)
            pytest.fail(why)
    with pytest.raises(FormatError, match="corrupt"):  # only bucket rows may be cut
        read_compressed("f.wv", {"vectors": entry}, {k.replace("ngrams", "vectors"): v
                                                     for k, v in arrays.items()})  # fmt: skip
    with pytest.raises(FormatError, match="corrupt"):
        read_compressed("f.wv", {"labels": entry}, dict(arrays))


def test_sizes_and_plans():
    assert parse_size("50MB") == 50_000_000
    assert parse_size("1.5 GiB") == int(1.5 * 1024**3)
    assert parse_size("800kb") == 800_000
    for bad in ("", "MB", "-3MB", "0", "5 parsecs"):
        with pytest.raises(ConfigError, match="not a size"):
            parse_size(bad)
    args = dict(words=10_000, ngrams=80_000, dim=100, word_matrices=2, vocab_bytes=16,
                qnorm=True)  # fmt: skip
    every = estimated_bytes(Plan(10_000, 80_000, 2), 100, 2, 16, True)
    assert plan_for_size(every, **args) == Plan(10_000, 80_000, 2)
    assert plan_for_size(every - 1, **args) == Plan(10_000, 79_999, 2)  # one n-gram less
    half = estimated_bytes(Plan(10_000, 40_000, 2), 100, 2, 16, True)
    assert plan_for_size(half, **args) == Plan(10_000, 40_000, 2)  # n-grams cut to half first,
    assert plan_for_size(half - 1, **args).dsub == 3  # then coarser slices
    third = estimated_bytes(Plan(10_000, 1_000, 3), 100, 2, 16, True)  # few n-grams to cut
    assert plan_for_size(third, **{**args, "ngrams": 1_000}) == Plan(10_000, 1_000, 3)
    cut = plan_for_size(every // 3, **args)
    assert (cut.words, cut.dsub) == (10_000, 4) and KSUB <= cut.ngrams < 80_000
    assert estimated_bytes(cut, 100, 2, 16, True) <= every // 3
    with pytest.raises(ConfigError, match="too small"):
        plan_for_size(50_000, **args)


def test_rows_kept_by_frequency_or_norm():
    vectors = np.array([[3.0, 0], [1, 0], [0, 2], [0.5, 0]], np.float32)
    counts = np.array([9, 7, 5, 1])
    assert kept_words(vectors, counts, 2, "frequency").tolist() == [0, 1]
    assert kept_words(vectors, counts, 2, "norm").tolist() == [0, 2]
    assert kept_words(vectors, counts, 0, "norm").tolist() == [0, 1, 2, 3]
    buckets = Buckets(np.array([4, 9, 20]), np.array([1.0, 50, 3]), np.array([5.0, 1, 2]))
    assert kept_buckets(buckets, 2, "frequency").tolist() == [9, 20]
    assert kept_buckets(buckets, 2, "norm").tolist() == [4, 20]


def test_a_fasttext_model_compressed_keeps_its_answers(fasttext_model):
    """At the defaults: a fraction of the file, the quality measures within 0.03 on this
    small model, the vectors nearly the full model's, unseen words answered."""
    full, small, report = fasttext_model
    assert report.small_bytes == small.stat().st_size
    assert report.ratio < 0.2  # dim 24 and 50,000 buckets: the 2% is at dim 100, 2M buckets
    assert estimated_bytes(report.plan, FASTTEXT["dim"], 2, 30, True) > report.small_bytes
    from wordvec.formats import export

    export(full, full.with_suffix(".bin"), "fasttext-bin")  # what its users compare with
    assert abs(report.fasttext_bytes - full.with_suffix(".bin").stat().st_size) < 1_000
    for measure in ("WS-353", "analogies", "unseen words"):
        assert abs(report.full[measure] - report.small[measure]) < 0.03, measure
    a, b = load_vectors(full), load_vectors(small)
    assert a.words == b.words
    cosines = [float(a.unit_vector(w) @ b.unit_vector(w)) for w in a.words[:2000]]
    assert np.median(cosines) > 0.98
    for word in ("citizenships", "neighbourhoodz"):
        assert word not in a.index
        assert float(a.unit_vector(word) @ b.unit_vector(word)) > 0.95
    top = [w for w, _ in a.most_similar(["city"], topn=10)]
    assert len(set(top) & {w for w, _ in b.most_similar(["city"], topn=10)}) >= 7


def test_the_small_model_opens_at_every_door(fasttext_model, tmp_path):
    _, small, _ = fasttext_model
    from wordvec import fasttext as face
    from wordvec.gensim.models import KeyedVectors
    from wordvec.gensim.models.fasttext import FastTextKeyedVectors

    kv = KeyedVectors.load(str(small))
    assert isinstance(kv, FastTextKeyedVectors)
    assert "citizenships" not in kv.key_to_index and kv["citizenships"].shape == (24,)
    ft = face.load_model(str(small))
    np.testing.assert_allclose(ft.get_word_vector("citizenships"), kv["citizenships"],
                               atol=1e-6)  # fmt: skip
    runner = CliRunner()
    for args in (["neighbors", str(small), "city", "citizenships", "-k", "3"],
                 ["eval", str(small), "--json"],
                 ["export", str(small), str(tmp_path / "s.vec")]):  # fmt: skip
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
    assert load_vectors(tmp_path / "s.vec").words == load_vectors(small).words
    result = runner.invoke(main, ["train", str(SAMPLE), "--init", str(small), "-o",
                                  str(tmp_path / "x.wv"), "-q"])  # fmt: skip
    assert result.exit_code == 1 and "compressed (wordvec quantize)" in result.output


def test_the_command_cuts_to_a_size_and_refuses_what_does_not_apply(fasttext_model, tmp_path):
    full, _, _ = fasttext_model
    runner = CliRunner()
    out = tmp_path / "tiny.wv"
    result = runner.invoke(main, ["quantize", str(full), "-o", str(out), "--size", "600KB"])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size <= 600_000
    assert "WS-353" in result.output and "unseen words" in result.output
    cut = tmp_path / "cut.wv"
    result = runner.invoke(main, ["quantize", str(full), "-o", str(cut), "--cutoff", "500",
                                  "--ngram-cutoff", "3000", "--no-report"])  # fmt: skip
    assert result.exit_code == 0, result.output
    small = load_vectors(cut)
    assert len(small) == 500 and small.ngrams.kept.shape == (3000,)
    assert small.vector(load_vectors(full).words[900]).shape == (24,)  # cut: from n-grams
    for args, error in (
        (["--retrain"], "--retrain does not apply to a word model"),
        (["--qout"], "--qout does not apply to a word model"),
        (["--size", "1MB", "--dsub", "4"], "--size picks --dsub"),
        (["--size", "lots"], "not a size"),
        (["--size", "2KB"], "too small"),
    ):
        result = runner.invoke(main, ["quantize", str(full), "-o", str(out), *args])
        assert result.exit_code == 1 and error in result.output, (args, result.output)
    result = runner.invoke(main, ["quantize", str(full), "-o", str(tmp_path / "x.ftz")])
    assert result.exit_code == 1 and "a .ftz holds a classifier" in result.output
    result = runner.invoke(main, ["quantize", str(out), "-o", str(tmp_path / "again.wv")])
    assert result.exit_code == 1 and "compressed already" in result.output


def test_plain_vectors_and_doc2vec_compress(sample_model, tmp_path):
    """A vector file (word2vec text, gzipped) and a doc2vec model: its documents and inference
    kept."""
    from wordvec.formats import export

    vec = tmp_path / "v.txt.gz"
    export(sample_model, vec, "word2vec")
    small = tmp_path / "v.wv"
    compress(vec, small)
    a, b = load_vectors(vec), load_vectors(small)
    assert a.words == b.words and b.dim == a.dim
    assert np.median([a.unit_vector(w) @ b.unit_vector(w) for w in a.words[:500]]) > 0.98
    lines = tmp_path / "docs.txt"
    lines.write_text("\n".join(["the cat sat on the mat", "dogs chase the cat"] * 200) + "\n")
    doc2vec = wordvec.train(lines, model="doc2vec", dim=8, min_count=1, epochs=2, seed=1,
                            threads=1, quiet=True)  # fmt: skip
    doc2vec.save(tmp_path / "d.wv")
    compress(tmp_path / "d.wv", tmp_path / "d-small.wv")
    model = wordvec.Model.load(tmp_path / "d-small.wv")
    assert model.dv.vectors.shape == (400, 8)
    assert model.infer_vector(["the", "cat"]).shape == (8,)
    with pytest.raises(ConfigError, match="keeps every word"):
        compress(tmp_path / "d.wv", tmp_path / "d2.wv", cutoff=2)


def test_the_header_table_is_checked(fasttext_model, tmp_path):
    """A hand-edited header: an unknown matrix, a table of the wrong type."""
    _, small, _ = fasttext_model
    meta, arrays = read_container(small)
    for table in ({"hidden": meta["compressed"]["vectors"]}, [1, 2], {"vectors": 3}):
        path = tmp_path / "edited.wv"
        write_container(path, {**meta, "compressed": table}, arrays)
        result = CliRunner().invoke(main, ["neighbors", str(path), "city"])
        assert result.exit_code == 1 and result.output.startswith("Error: "), json.dumps(table)
        assert "corrupt" in result.output


def test_the_small_model_is_served(fasttext_model):
    """``wordvec serve`` answers from a compressed model, an unseen word included."""
    pytest.importorskip("starlette")
    from tests.test_serve import Server

    _, small, _ = fasttext_model
    server = Server(str(small))
    try:
        status, answer = server.get("/api/neighbors?word=citizenships&k=3")
    finally:
        server.close()
    assert status == 200 and len(answer["neighbors"]) == 3, answer
    expected = load_vectors(small).most_similar(["citizenships"], topn=3)
    assert [n["word"] for n in answer["neighbors"]] == [w for w, _ in expected]
