"""Model files and vector formats: round trips, detection, strict errors, gensim interop."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from wordvec.cli import main
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import FormatError
from wordvec.formats import EXPORT_FORMATS, detect_format, load_vectors, save_vectors
from wordvec.formats.container import read_container, write_container
from wordvec.formats.names import MODEL_ONLY_FORMATS
from wordvec.model import Model
from wordvec.query.vectors import Vectors

WORDS = ["the", "cat", "zürich", "北京"]


@pytest.fixture
def vectors():
    rng = np.random.default_rng(0)
    return Vectors(WORDS, rng.normal(size=(4, 6)).astype(np.float32), np.array([9, 5, 3, 2]))


@pytest.fixture
def model(vectors):
    rng = np.random.default_rng(1)
    return Model(
        Vocabulary(WORDS, vectors.counts),
        vectors.vectors,
        settings={"model": "sg", "dim": 6},
        arrays={"w_out": rng.normal(size=(4, 6)).astype(np.float32)},
    )


def test_model_file_round_trip_is_exact_and_memory_mapped(tmp_path, model):
    path = tmp_path / "m.wv"
    model.save(path)
    loaded = Model.load(path)
    assert loaded.vocab.words == WORDS
    assert loaded.vocab.counts.tolist() == [9, 5, 3, 2]
    assert loaded.settings == {"model": "sg", "dim": 6}
    assert isinstance(loaded.vectors, np.memmap)
    np.testing.assert_array_equal(loaded.vectors, model.vectors)
    np.testing.assert_array_equal(loaded.arrays["w_out"], model.arrays["w_out"])
    assert detect_format(path) == "model"


def test_model_file_truncated_or_corrupt(tmp_path, model):
    path = tmp_path / "m.wv"
    model.save(path)
    data = path.read_bytes()
    cases = {
        "short.wv": (data[:10], "truncated \\(no complete header\\)"),
        "cut.wv": (data[:-20], "truncated \\(array 'w_out' is cut short\\)"),
        "header.wv": (data[:30] + b"\xff" + data[31:], "corrupt \\(unreadable header\\)"),
        "version.wv": (data[:8] + b"\x07" + data[9:], "format version 7"),
    }
    for name, (content, message) in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(FormatError, match=message):
            Model.load(tmp_path / name)


def test_model_file_accepts_only_plain_dtypes(tmp_path):
    with pytest.raises(ValueError, match="unsupported dtype"):
        write_container(tmp_path / "x", {}, {"objects": np.array([{"a": 1}], dtype=object)})
    write_container(tmp_path / "ok", {"k": [1]}, {"empty": np.zeros((0, 3), np.float32)})
    meta, arrays = read_container(tmp_path / "ok")
    assert meta == {"k": [1]} and arrays["empty"].shape == (0, 3)


@pytest.mark.parametrize("fmt", [f for f in EXPORT_FORMATS if f not in MODEL_ONLY_FORMATS])
def test_every_format_round_trips(tmp_path, vectors, fmt):
    path = tmp_path / ("vectors.tsv" if fmt == "tsv" else f"vectors.{fmt}")
    written = save_vectors(vectors, path, fmt)
    assert all(p.exists() for p in written)
    loaded = load_vectors(path)
    assert loaded.words == WORDS
    exact = fmt in ("word2vec-binary", "npy")
    np.testing.assert_allclose(
        loaded.vectors, vectors.vectors, rtol=0 if exact else 1e-5, atol=0 if exact else 1e-6
    )
    expected = {"vec": "word2vec", "wordvec": "model"}.get(fmt, fmt)
    assert detect_format(path) == expected


def test_text_formats_look_as_documented(tmp_path, vectors):
    save_vectors(vectors, tmp_path / "w2v.txt", "word2vec")
    save_vectors(vectors, tmp_path / "glove.txt", "glove")
    save_vectors(vectors, tmp_path / "p.tsv", "tsv")
    w2v = (tmp_path / "w2v.txt").read_text(encoding="utf-8").splitlines()
    assert w2v[0] == "4 6" and w2v[1].split()[0] == "the" and len(w2v[1].split()) == 7
    assert (tmp_path / "glove.txt").read_text(encoding="utf-8").splitlines()[0] == w2v[1]
    assert (tmp_path / "p.metadata.tsv").read_text(encoding="utf-8") == "\n".join(WORDS) + "\n"
    assert len((tmp_path / "p.tsv").read_text().splitlines()[0].split("\t")) == 6


def test_broken_vector_files_are_clear_errors(tmp_path, vectors):
    save_vectors(vectors, tmp_path / "v.bin", "word2vec-binary")
    save_vectors(vectors, tmp_path / "v.txt", "word2vec")
    binary = (tmp_path / "v.bin").read_bytes()
    text = (tmp_path / "v.txt").read_text(encoding="utf-8").splitlines()
    cases = {
        "cut.bin": (binary[:-30], "truncated: its header says 4 words, it holds 3"),
        "cut.txt": (
            "\n".join(text[:-1]).encode(),
            "truncated: its header says 4 words, it holds 3",
        ),
        "ragged.txt": (
            "\n".join(text[:2] + ["cat 1 2"] + text[3:]).encode(),
            "line 3: expected a word and 6 numbers, found 3 fields",
        ),
        "nan.txt": (
            "\n".join(text[:2] + ["cat " + " ".join(["x"] * 6)]).encode(),
            "line 3: not a number",
        ),
        "empty.txt": (b"", "is empty"),
        "random.dat": (bytes(range(256)) * 4, "not a vector file"),
        # a header claiming ~10^12 rows once made the reader allocate them first
        "huge.bin": (b"999999999999 6" + binary[binary.index(b"\n") :], "it holds 4"),
        "inf.txt": (
            "\n".join([*text[:2], "cat " + " ".join(["inf"] * 6), *text[3:]]).encode(),
            r"the vector of 'cat' is not finite \(NaN or infinite\)",
        ),
        "nan.npy": (None, r"the vector of '\w+' is not finite"),
    }
    matrix = np.asarray(vectors.vectors).copy()
    matrix[1, 2] = np.nan
    save_vectors(Vectors(vectors.words, matrix), tmp_path / "nan.npy", "npy")
    for name, (content, message) in cases.items():
        if content is not None:
            (tmp_path / name).write_bytes(content)
        with pytest.raises(FormatError, match=message):
            load_vectors(tmp_path / name)
    (tmp_path / "v.metadata.tsv").write_bytes(b"cat\n\xff\xfe\n")
    save_vectors(vectors, tmp_path / "w.tsv", "tsv")
    (tmp_path / "w.metadata.tsv").write_bytes(b"\xffcat\n" * len(vectors))
    with pytest.raises(FormatError, match="w.metadata.tsv is not UTF-8 text"):
        load_vectors(tmp_path / "w.tsv")
    with pytest.raises(FormatError, match="file not found"):
        load_vectors(tmp_path / "missing.txt")


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "compiled"])
def test_both_binary_scans_read_the_same_and_refuse_the_same(tmp_path, vectors, monkeypatch,
                                                              compiled):  # fmt: skip
    """Big files are scanned by a numba kernel, small ones in Python: the same words, rows and
    messages either way (the kernel is made to read these small files)."""
    from wordvec.formats import binvec

    if compiled:
        monkeypatch.setattr(binvec, "FAST_BYTES", 0)
    save_vectors(vectors, tmp_path / "v.bin", "word2vec-binary")
    loaded = load_vectors(tmp_path / "v.bin")
    assert loaded.words == vectors.words
    np.testing.assert_array_equal(loaded.vectors, vectors.vectors)
    binary = (tmp_path / "v.bin").read_bytes()
    first = binary.index(b"\n") + 1
    second = binary.index(b" ", first) + 1 + 4 * vectors.dim + 1
    cases = {
        "cut.bin": (binary[:-30], "v.bin is truncated: its header says 4 words, it holds 3"),
        "huge.bin": (b"999999999999 6" + binary[first - 1 :], "its header says 999999999999 "
                     "words, it holds 4"),
        "newline.bin": (binary[: second + 1] + b"\n" + binary[second + 2 :],
                        "is corrupt: word 2 holds a newline"),
        "latin1.bin": (binary[:second] + b"\xe9" + binary[second + 1 :],
                       "is corrupt: word 2 is not UTF-8"),
        "blank.bin": (binary[:first] + b"\n \n" + binary[first:], None),  # skipped, as word2vec
    }  # fmt: skip
    for name, (content, message) in cases.items():
        (tmp_path / "v.bin").write_bytes(content)
        if message is None:
            assert load_vectors(tmp_path / "v.bin").words == vectors.words
            continue
        with pytest.raises(FormatError) as raised:
            load_vectors(tmp_path / "v.bin")
        assert message in str(raised.value), name


def test_the_compiled_scan_reads_across_its_chunks(tmp_path, monkeypatch):
    """Words and rows that straddle the chunks the file is read in (8 KB ones here)."""
    from wordvec.formats import binvec, mapped

    rng = np.random.default_rng(3)
    words = [f"w{i}-{'é' * (i % 7)}" for i in range(3000)]
    many = Vectors(words, rng.standard_normal((3000, 7)).astype(np.float32))
    save_vectors(many, tmp_path / "many.bin", "word2vec-binary")
    monkeypatch.setattr(binvec, "FAST_BYTES", 0)
    monkeypatch.setattr(mapped, "WINDOW_BYTES", 1)
    loaded = load_vectors(tmp_path / "many.bin")
    assert loaded.words == words
    np.testing.assert_array_equal(loaded.vectors, many.vectors)
    assert "norms" in loaded.__dict__  # worked out while copying, as Vectors would
    np.testing.assert_allclose(loaded.norms, np.linalg.norm(many.vectors, axis=1), rtol=1e-6)
    (tmp_path / "cut.bin").write_bytes((tmp_path / "many.bin").read_bytes()[:-5000])
    messages = []
    for fast_bytes in (0, 1 << 40):  # compiled, then Python
        monkeypatch.setattr(binvec, "FAST_BYTES", fast_bytes)
        with pytest.raises(FormatError, match="its header says 3000 words, it holds 28") as raised:
            load_vectors(tmp_path / "cut.bin")
        messages.append(str(raised.value))
    assert messages[0] == messages[1]


def _read_both_ways(path, monkeypatch):
    """What load_vectors gives (vectors, or the error's message) with the compiled scan, small
    windows, and with the Python loop alone."""
    from wordvec.formats import mapped, textvec

    outcomes = []
    for fast_bytes in (0, 1 << 40):
        monkeypatch.setattr(textvec, "FAST_BYTES", fast_bytes)
        monkeypatch.setattr(mapped, "WINDOW_BYTES", 1)
        try:
            loaded = load_vectors(path)
            outcomes.append((loaded.words, np.asarray(loaded.vectors).tobytes()))
        except FormatError as exc:
            outcomes.append(str(exc))
    return outcomes


def test_the_compiled_text_scan_reads_what_python_reads(tmp_path, monkeypatch):
    """Numbers as %.6g (what word2vec and wordvec write), %.9g, exponents, signs, zeros; 17
    digits and powers of ten beyond 1e+-22 (left to the Python loop); CRLF, trailing spaces,
    blank lines, no final newline; and broken files, which must give the same message."""
    rng = np.random.default_rng(5)
    values = (rng.standard_normal((400, 5)) * 10.0 ** rng.integers(-8, 8, (400, 5))).astype(
        np.float32
    )
    values[0] = [0.0, -0.0, 1e-22, 1.5e22, -3e-7]
    words = [f"w{i}é" for i in range(len(values))]
    lines = [
        f"{word} " + " ".join(("%.6g", "%.9g")[i % 2] % float(x) for x in row)
        for i, (word, row) in enumerate(zip(words, values))
    ]
    seventeen = [
        f"{word} " + " ".join(repr(float(x)) for x in row) for word, row in zip(words, values)
    ]
    cases = {
        "plain": "400 5\n" + "\n".join(lines) + "\n",
        "seventeen-digits": "400 5\n" + "\n".join(seventeen) + "\n",
        "extreme-exponents": "400 5\n" + "\n".join(["w0 1.4013e-45 3.4e+38 -1e-30 0 1"]
                                                    + lines[1:]) + "\n",
        "crlf-trailing-space": "400 5\r\n" + "".join(line + " \r\n" for line in lines),
        "blank-lines-no-final-newline": "400 5\n\n" + "\n\n".join(lines),
        "exponents": "400 5\n" + "\n".join(lines).replace("e-0", "E-0") + "\n",
        "one-line-short": "400 5\n" + "\n".join(lines[:-1]) + "\n",
        "one-line-more": "400 5\n" + "\n".join(lines + lines[:1]) + "\n",
        "ragged": "400 5\n" + "\n".join(lines[:9] + ["w9 1 2 3"] + lines[10:]) + "\n",
        "two-spaces": "400 5\n" + "\n".join(lines[:3] + [lines[3].replace(" ", "  ", 1)]
                                             + lines[4:]) + "\n",
        "nan": "400 5\n" + "\n".join(lines[:5] + ["w5 nan 1 2 3 4"] + lines[6:]) + "\n",
        "huge": "400 5\n" + "\n".join(lines[:5] + ["w5 1e39 1 2 3 4"] + lines[6:]) + "\n",
        "latin1": ("400 5\n" + "\n".join(lines) + "\n").encode().replace(b"w7\xc3\xa9",
                                                                         b"w7\xe9"),
    }  # fmt: skip
    for name, content in cases.items():
        path = tmp_path / f"{name}.txt"
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        compiled, python = _read_both_ways(path, monkeypatch)
        assert compiled == python, name
    from wordvec.formats.sources import vector_source
    from wordvec.formats.textvec import _read_compiled

    taken = {
        name
        for name in cases
        if _read_compiled(vector_source(tmp_path / f"{name}.txt")) is not None
    }
    assert taken == {"plain", "crlf-trailing-space", "blank-lines-no-final-newline", "exponents"}


def test_sidecar_formats_need_their_words(tmp_path, vectors):
    save_vectors(vectors, tmp_path / "v.npy", "npy")
    (tmp_path / "v.words.txt").unlink()
    with pytest.raises(FormatError, match="v.words.txt not found"):
        load_vectors(tmp_path / "v.npy")


@pytest.mark.parametrize(("fmt", "binary"), [("word2vec", False), ("word2vec-binary", True)])
def test_gensim_loads_our_exports_unchanged(tmp_path, vectors, fmt, binary):
    keyed = pytest.importorskip("gensim.models").KeyedVectors
    path = tmp_path / f"v.{fmt}"
    save_vectors(vectors, path, fmt)
    loaded = keyed.load_word2vec_format(str(path), binary=binary)
    assert loaded.index_to_key == WORDS
    np.testing.assert_allclose(loaded.vectors, vectors.vectors, rtol=1e-5, atol=1e-6)


def test_we_read_gensim_exports(tmp_path, vectors):
    keyed = pytest.importorskip("gensim.models").KeyedVectors
    kv = keyed(vector_size=6)
    kv.add_vectors(WORDS, vectors.vectors)
    for binary in (False, True):
        path = tmp_path / f"gensim-{binary}"
        kv.save_word2vec_format(str(path), binary=binary)
        loaded = load_vectors(path)
        assert loaded.words == WORDS
        np.testing.assert_allclose(loaded.vectors, vectors.vectors, rtol=1e-5, atol=1e-6)


def test_most_similar_and_analogy_by_hand():
    v = Vectors(
        ["a", "b", "c", "d", "e"], np.array([[1, 0], [0, 1], [1, 1], [-1, 0], [2, 0.1]], np.float32)
    )
    top = v.most_similar("a", k=2)
    assert [w for w, _ in top] == ["e", "c"]
    assert top[1][1] == pytest.approx(1 / np.sqrt(2))
    # b - a + c with unit vectors: (0,1) - (1,0) + (.707,.707) -> nearest of d, e is d
    assert v.analogy("a", "b", "c", k=1)[0][0] == "d"
    assert v.most_similar("a", k=100)[-1][0] == "d"  # k larger than the vocabulary is fine


def test_a_word_listed_twice_keeps_its_first_row_and_the_index_is_in_row_order():
    """A foreign file may list a word twice: lookups find its first row, scanned or indexed,
    and the index lists the words as stored (gensim's ``key_to_index`` order)."""
    v = Vectors(["b", "a", "b", "c"], np.eye(4, dtype=np.float32))
    assert [v.row_of(w) for w in "abc"] == [1, 0, 3]  # the first lookups scan the list
    assert v.index == {"b": 0, "a": 1, "c": 3} and list(v.index) == ["b", "a", "c"]
    assert Vectors(["b", "a"], np.eye(2, dtype=np.float32)).index == {"b": 0, "a": 1}


DATA = Path(__file__).resolve().parent / "data"


@pytest.mark.parametrize(
    ("name", "queries"),
    [("sg-0201791", ["king", "france", "music"]), ("fasttext-0201791", ["city", "music", "citys"])],
)
def test_models_saved_by_an_earlier_version_give_the_same_neighbours(name, queries):
    result = CliRunner().invoke(main, ["neighbors", str(DATA / f"{name}.wv"), *queries, "-k", "5"])
    assert result.exit_code == 0, result.output
    assert result.output == (DATA / f"{name}.neighbors.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["sg-0201791", "fasttext-0201791"])
def test_a_model_saved_again_is_the_same_file(name, tmp_path):
    """Loading a model written by an earlier version and saving it gives its bytes again."""
    Model.load(DATA / f"{name}.wv").save(tmp_path / "again.wv")
    assert (tmp_path / "again.wv").read_bytes() == (DATA / f"{name}.wv").read_bytes()


def holes_supported(folder: Path) -> bool:
    """Whether the file system of ``folder`` keeps a sparse file's holes unallocated."""
    probe = folder / "probe"
    with open(probe, "wb") as f:
        f.truncate(1 << 20)
        f.seek(0)
        f.write(b"x")
    return probe.stat().st_blocks * 512 < 1 << 20


def sparse_subword_model() -> Model:
    """A fastText model of three words and 50,000 buckets, as training leaves it: the
    buckets its words' n-grams hash to hold values, the others are zero."""
    from wordvec.corpus.subwords import ngram_hashes
    from wordvec.runtime.memory import lazy_zeros

    words, dim, bucket = ["republic", "music", "city"], 100, 50_000
    rng = np.random.default_rng(4)
    ngrams = lazy_zeros((bucket, dim), np.float32)
    used = np.unique(ngram_hashes(words, 3, 6)[1] % bucket).astype(np.int64)
    ngrams[used] = rng.normal(size=(len(used), dim))
    rows = rng.normal(size=(3, dim)).astype(np.float32)
    settings = {"model": "fasttext", "dim": dim, "minn": 3, "maxn": 6, "bucket": bucket}
    return Model(Vocabulary(words, np.array([9, 5, 3])), rows, settings=settings,
                 arrays={"word_rows": rows, "ngrams": ngrams})  # fmt: skip


def test_zero_blocks_of_the_buckets_are_holes_that_read_back_as_written(tmp_path):
    """The n-gram buckets go to the file with holes where whole blocks are zero: the file's
    bytes are those of the plain write, it reads back value for value, and takes less disk."""
    model = sparse_subword_model()
    model.save(tmp_path / "holes.wv")
    arrays = {**model.vocab.to_arrays(), "vectors": model.vectors, **model.arrays}
    meta = {"format": "wordvec-model", "settings": model.settings}
    write_container(tmp_path / "plain.wv", meta, arrays)
    assert (tmp_path / "holes.wv").read_bytes() == (tmp_path / "plain.wv").read_bytes()
    loaded = Model.load(tmp_path / "holes.wv")
    for name in ("word_rows", "ngrams"):
        assert np.array_equal(loaded.arrays[name], model.arrays[name]), name
    assert loaded.wv.vector("republics").tolist() == model.wv.vector("republics").tolist()
    if holes_supported(tmp_path):
        size = (tmp_path / "holes.wv").stat()
        assert size.st_blocks * 512 < size.st_size // 10  # 97% of the blocks are zero


def test_holes_end_where_the_array_does(tmp_path):
    """Holes start and end at block boundaries of the file whatever the array's offset, and a
    hole at the end still makes the file its full length."""
    data = np.zeros(5 * 4096 + 40, np.uint8)
    data[[0, 4095, 2 * 4096 + 7, 5 * 4096 + 39]] = [1, 2, 3, 4]
    for last in (data, data[:-1] * 0):
        write_container(tmp_path / "a", {}, {"pad": np.ones(3, np.uint8), "x": last}, holes=["x"])
        write_container(tmp_path / "b", {}, {"pad": np.ones(3, np.uint8), "x": last})
        assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes()
        assert np.array_equal(read_container(tmp_path / "a")[1]["x"], last)


def test_a_hand_edited_or_cut_sparse_file_is_a_one_line_error(tmp_path):
    """Values written into a hole reach the query's check; a file cut inside its last hole is
    truncated, not zeros."""
    from wordvec.corpus.subwords import ngram_hashes

    model = sparse_subword_model()
    path = tmp_path / "holes.wv"
    model.save(path)
    ngrams = model.arrays["ngrams"]
    buckets = ngram_hashes(["republics"], 3, 6)[1] % 50_000  # an unseen word's n-grams
    bucket = int(next(b for b in buckets if not ngrams[b - 20 : b + 21].any()))  # in a hole
    at = read_container(path)[1]["ngrams"].offset + bucket * 400  # its row in the file
    data = bytearray(path.read_bytes())
    data[at : at + 400] = np.full(100, np.nan, np.float32).tobytes()
    (tmp_path / "edited.wv").write_bytes(bytes(data))
    edited = str(tmp_path / "edited.wv")
    assert CliRunner().invoke(main, ["neighbors", edited, "music"]).exit_code == 0  # no NaN read
    result = CliRunner().invoke(main, ["neighbors", edited, "republics"])
    assert result.exit_code == 1
    assert result.output == (
        "Error: the n-gram rows of 'republics' are not finite (NaN or infinite)\n"
    )
    (tmp_path / "cut.wv").write_bytes(bytes(data[:-4096]))
    result = CliRunner().invoke(main, ["neighbors", str(tmp_path / "cut.wv"), "music"])
    assert result.exit_code == 1
    assert result.output == "Error: cut.wv is truncated (array 'ngrams' is cut short)\n"


def test_a_trained_fasttext_model_stores_the_bucket_rows_its_words_read(tmp_path):
    """Training leaves the buckets as the rows its words read (SparseRows); the file holds
    those rows and their bucket numbers, reads back value for value, and refuses a damaged
    table or rows before a query reads them."""
    import wordvec
    from wordvec.formats.kept_rows import SparseRows

    model = wordvec.train(_cats_and_dogs(tmp_path), model="fasttext", dim=8, bucket=50_000,
                          min_count=1, epochs=1, threads=1, seed=1, quiet=True)  # fmt: skip
    ngrams = model.arrays["ngrams"]
    assert isinstance(ngrams, SparseRows) and 0 < len(ngrams.kept) < 2_000
    model.save(tmp_path / "ft.wv")
    assert (tmp_path / "ft.wv").stat().st_size < 50_000 * 8 * 4 // 10
    loaded = Model.load(tmp_path / "ft.wv")
    assert np.array_equal(np.asarray(loaded.arrays["ngrams"]), np.asarray(ngrams))
    assert loaded.wv.vector("catz").tolist() == model.wv.vector("catz").tolist()
    meta, arrays = read_container(tmp_path / "ft.wv")
    nan = np.array(arrays["ngrams.rows"])
    nan[0, 0] = np.nan
    for damage in (
        {"meta": {"sparse": {"ngrams": {"rows": -1, "dim": 8}}}},
        {"meta": {"sparse": {"ngrams": {"rows": 50_000, "dim": True}}}},
        {"meta": {"sparse": {"w_out": meta["sparse"]["ngrams"]}}},
        {"meta": {"sparse": [1]}},
        {"arrays": {"ngrams.kept": np.array(arrays["ngrams.kept"])[::-1].copy()}},
        {"arrays": {"ngrams.kept": np.array(arrays["ngrams.kept"]).astype(np.int64)}},
        {"arrays": {"ngrams.rows": np.array(arrays["ngrams.rows"])[:-1]}},
        {"arrays": {"ngrams.rows": nan}},
    ):
        write_container(tmp_path / "bad.wv", {**meta, **damage.get("meta", {})},
                        {**arrays, **damage.get("arrays", {})})  # fmt: skip
        with pytest.raises(FormatError, match="corrupt|not finite"):
            Model.load(tmp_path / "bad.wv")


def _cats_and_dogs(folder: Path) -> Path:
    path = folder / "toy.txt"
    path.write_text("\n".join(["I like cats", "I like dogs", "cats and dogs"] * 50) + "\n")
    return path
