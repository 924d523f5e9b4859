"""Vector files as they are published: gzip, bzip2, xz (told by their bytes, not their
names) and zip archives, read as a stream and written where the name says; GloVe rows whose
word holds spaces."""

from __future__ import annotations

import bz2
import gzip
import lzma
import shutil
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec.cli import main
from wordvec.errors import FormatError
from wordvec.formats import binvec, load_vectors, save_vectors, textvec
from wordvec.query.vectors import Vectors

COMPRESSORS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}
FORMATS = {"txt": "word2vec", "bin": "word2vec-binary", "glove": "glove", "vec": "vec"}


@pytest.fixture(scope="module")
def vectors() -> Vectors:
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(200)] + ["naïve", "東京"]
    return Vectors(words, rng.standard_normal((len(words), 12)).astype(np.float32))


def _plain(tmp_path, vectors, suffix) -> object:
    path = tmp_path / f"plain.{suffix}"
    save_vectors(vectors, path, FORMATS[suffix])
    return path


@pytest.mark.parametrize("suffix", FORMATS)
@pytest.mark.parametrize("packing", [*COMPRESSORS, "zip"])
def test_a_packed_file_reads_as_the_plain_one(tmp_path, vectors, suffix, packing):
    plain = _plain(tmp_path, vectors, suffix)
    packed = tmp_path / f"packed.{suffix}.{packing}"
    if packing == "zip":
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(plain, plain.name)
    else:
        packed.write_bytes(COMPRESSORS[packing](plain.read_bytes()))
    expected, found = load_vectors(plain), load_vectors(packed)
    assert found.words == expected.words
    np.testing.assert_array_equal(found.vectors, expected.vectors)
    assert found.most_similar("naïve", topn=5) == expected.most_similar("naïve", topn=5)


@pytest.mark.parametrize("suffix", ["txt", "bin"])
@pytest.mark.parametrize("packing", list(COMPRESSORS))
def test_a_name_that_says_so_is_written_compressed_and_gensim_reads_it(
    tmp_path, vectors, suffix, packing
):
    gensim_models = pytest.importorskip("gensim.models")
    path = tmp_path / f"v.{suffix}.{packing}"
    save_vectors(vectors, path)
    assert path.read_bytes()[:2] == {"gz": b"\x1f\x8b", "bz2": b"BZ", "xz": b"\xfd7"}[packing]
    theirs = gensim_models.KeyedVectors.load_word2vec_format(str(path), binary=suffix == "bin")
    assert theirs.index_to_key == vectors.words
    np.testing.assert_allclose(theirs.vectors, vectors.vectors, rtol=1e-5)


def test_the_content_not_the_name_says_what_a_file_is(tmp_path, vectors):
    plain = _plain(tmp_path, vectors, "bin")
    misnamed = tmp_path / "vectors.txt"  # gzip data under a plain name
    misnamed.write_bytes(gzip.compress(plain.read_bytes()))
    assert load_vectors(misnamed).words == vectors.words


def test_a_zip_of_several_files_names_its_members(tmp_path, vectors):
    archive = tmp_path / "glove.6B.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for dim in (3, 5):
            few = Vectors(vectors.words, vectors.vectors[:, :dim])
            save_vectors(few, tmp_path / f"g{dim}.txt", "glove")
            out.write(tmp_path / f"g{dim}.txt", f"glove.6B.{dim}d.txt")
    with pytest.raises(FormatError, match=r"holds 2 files: name one as glove.6B.zip:MEMBER "
                       r"\(it holds glove.6B.3d.txt, glove.6B.5d.txt\)"):  # fmt: skip
        load_vectors(archive)
    assert load_vectors(f"{archive}:glove.6B.5d.txt").dim == 5
    with pytest.raises(FormatError, match="has no member glove.6B.9d.txt; it holds"):
        load_vectors(f"{archive}:glove.6B.9d.txt")


def test_limit_stops_reading(tmp_path):
    """The first rows of a file cut short load: nothing far after them is read."""
    rng = np.random.default_rng(2)
    vectors = Vectors([f"w{i}" for i in range(4000)], rng.random((4000, 8), dtype=np.float32))
    for suffix in ("txt", "bin"):
        whole = _plain(tmp_path, vectors, suffix).read_bytes()
        cut = tmp_path / f"cut.{suffix}.gz"
        cut.write_bytes(gzip.compress(whole)[: len(gzip.compress(whole)) * 2 // 3])
        with pytest.raises(FormatError):
            load_vectors(cut)
        first = load_vectors(cut, limit=20)
        assert first.words == vectors.words[:20]
        np.testing.assert_allclose(first.vectors, vectors.vectors[:20], rtol=1e-5)


@pytest.mark.parametrize("suffix", ["txt", "bin"])
def test_the_compiled_scan_of_a_stream_reads_what_python_reads(
    tmp_path, vectors, suffix, monkeypatch
):
    """A big compressed file is scanned by the compiled kernels a buffer at a time; here the
    buffers are small, so rows cross from one to the next."""
    from wordvec.formats import mapped

    path = tmp_path / f"v.{suffix}.gz"
    save_vectors(vectors, path)
    python = load_vectors(path)
    monkeypatch.setattr(mapped, "WINDOW_BYTES", 999)
    monkeypatch.setattr(binvec, "FAST_BYTES", 0)
    monkeypatch.setattr(textvec, "FAST_BYTES", 0)
    compiled = load_vectors(path)
    assert compiled.words == python.words
    np.testing.assert_array_equal(compiled.vectors, python.vectors)
    assert load_vectors(path, limit=33).words == python.words[:33]


def test_glove_words_holding_spaces(tmp_path):
    """glove.840B.300d has rows such as '. . . 0.1 ...': the last fields are the vector."""
    path = tmp_path / "glove.txt"
    path.write_text("the 1 0 0\n. . . 0 1 0\nnew york 0 0 1\n, 1 1 0\n", encoding="utf-8")
    found = load_vectors(path)
    assert found.words == ["the", ". . .", "new york", ","]
    np.testing.assert_array_equal(found.vectors[2], [0, 0, 1])


def test_damaged_and_misused_packed_files_are_one_line_errors(tmp_path, vectors, monkeypatch):
    plain = _plain(tmp_path, vectors, "bin")
    packed = gzip.compress(plain.read_bytes())
    (tmp_path / "cut.bin.gz").write_bytes(packed[: len(packed) // 2])
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    (tmp_path / "plain.bin.gz").write_bytes(packed)
    runner = CliRunner()
    cases = {
        ("neighbors", "cut.bin.gz", "w1"): "cut.bin.gz cannot be decompressed",
        ("neighbors", "bad.zip", "w1"): "bad.zip is a damaged zip archive",
        ("neighbors", "plain.bin:w1"): "plain.bin is not a zip archive",
        ("export", "plain.bin.gz", "m.wv.gz"): "m.wv.gz: a wordvec model file is not written",
    }
    monkeypatch.chdir(tmp_path)
    for args, message in cases.items():
        result = runner.invoke(main, list(args))
        assert result.exit_code == 1, args
        assert result.output.startswith(f"Error: {message}"), result.output
        assert result.output.count("\n") == 1


def test_export_converts_a_published_file_to_a_mapped_model(tmp_path, vectors):
    published = tmp_path / "GoogleNews.bin.gz"
    save_vectors(vectors, published)
    runner = CliRunner()
    result = runner.invoke(main, ["export", str(published), str(tmp_path / "gn.wv")])
    assert result.exit_code == 0, result.output
    shutil.copy(tmp_path / "gn.wv", tmp_path / "copy")
    from wordvec.gensim import KeyedVectors

    mapped = KeyedVectors.load(str(tmp_path / "gn.wv"), mmap="r")
    assert mapped.index_to_key == vectors.words
    assert isinstance(mapped.vectors, np.memmap)
    result = runner.invoke(main, ["neighbors", str(tmp_path / "gn.wv"), "naïve", "-k", "2"])
    assert result.exit_code == 0 and "naïve" in result.output


@pytest.mark.parametrize("reader", ["isal", "zlib"])
def test_gzip_is_read_by_isal_where_installed_and_by_zlib_otherwise(tmp_path, vectors, reader,
                                                                    monkeypatch):  # fmt: skip
    from wordvec.runtime import compression

    if reader == "isal":
        pytest.importorskip("isal")  # the gzip extra (a test dependency)
    else:
        monkeypatch.setattr(compression, "_igzip", None)
    path = tmp_path / "v.bin.gz"
    save_vectors(vectors, path)
    with open(path, "rb") as raw:
        assert type(compression.decompressed(raw)).__module__.startswith(
            "isal" if reader == "isal" else "gzip"
        )
    assert load_vectors(path).words == vectors.words
    data = path.read_bytes()
    (tmp_path / "bad.bin.gz").write_bytes(data[:30] + bytes(40) + data[70:])
    with pytest.raises(FormatError, match="bad.bin.gz cannot be decompressed"):
        load_vectors(tmp_path / "bad.bin.gz")
