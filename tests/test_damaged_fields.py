"""Issue 43's faults of damaged files, each found by the fuzz test's field mutations or by hand:
sizes that overflow before they are checked, weights that are not finite, vectors of no
dimensions, words an export cannot write, thresholds that are not numbers. Each gets one
``Error:`` line naming the file, never a traceback or an answer of NaN."""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from wordvec.cli import main
from wordvec.errors import FormatError
from wordvec.formats import load_classifier, load_vectors
from wordvec.model import Model

from .conftest import TOY_LINES
from .test_fuzz import fields, model_fields

HUGE = (-1, 2**31 - 1, 2**62, 2**63 - 1, 2**64)


def cli(*args, input: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_error(result, *parts: str) -> str:
    """The run's one ``Error:`` line, which must hold each of ``parts``."""
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("Error: ") and not any("Traceback" in line for line in lines)
    assert all(part in lines[-1] for part in parts), lines[-1]
    return lines[-1]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    """A word2vec model, a classifier with word n-grams, and a counts file, all tiny."""
    from wordvec.cooccur.counting import count_cooccurrences

    folder = tmp_path_factory.mktemp("fields")
    toy = folder / "toy.txt"
    toy.write_text("\n".join(TOY_LINES * 3) + "\n")
    quick = dict(dim=4, epochs=1, threads=1, min_count=1, quiet=True)
    wordvec.train(toy, model="sg", **quick).save(folder / "sg.wv")
    labelled = folder / "labelled.txt"
    labelled.write_text("".join(f"__label__l{i % 2} {line}\n" for i, line in enumerate(TOY_LINES)))
    wordvec.train(labelled, model="supervised", word_ngrams=2, bucket=50, **quick).save(
        folder / "clf.wv"
    )
    count_cooccurrences(toy, folder / "c.cooc", min_count=1, window=2, quiet=True)
    return {"sg": folder / "sg.wv", "clf": folder / "clf.wv", "cooc": folder / "c.cooc"}


def _with_field(path: Path, out: Path, key: tuple, value: int) -> Path:
    """``path`` with the model-file header's integer at ``key`` set to ``value``."""
    out.write_bytes(model_fields(path.read_bytes())[key](value))
    return out


# --- item 9: sizes bounded before any arithmetic --------------------------------------------


SPECS = [("arrays", "vectors", "shape", 0), ("arrays", "vectors", "shape", 1),
         ("arrays", "words", "shape", 0), ("arrays", "w_out", "offset")]  # fmt: skip


@pytest.mark.parametrize("value", HUGE)
@pytest.mark.parametrize("key", SPECS)
def test_a_model_files_array_spec_set_to_a_huge_value_is_one_error(files, tmp_path, key, value):
    """2^62 and 2^64 wrapped numpy's int64 product of the shape, so the size check passed
    and numpy then failed ("array is too big", "Python int too large", "memory mapped
    length must be positive")."""
    damaged = _with_field(files["sg"], tmp_path / "d.wv", key, value)
    with pytest.raises(FormatError, match=r"^d\.wv is (corrupt|truncated)"):
        load_vectors(damaged)
    one_error(cli("neighbors", damaged, "cats"), "d.wv")


@pytest.mark.parametrize("key", SPECS)
def test_a_model_files_array_spec_set_to_json_true_is_one_error(files, tmp_path, key):
    """JSON's ``true`` is a Python int too: every command met it as a TypeError."""
    damaged = _with_field(files["sg"], tmp_path / "d.wv", key, True)
    with pytest.raises(FormatError, match=r"^d\.wv is corrupt"):
        load_vectors(damaged)
    one_error(cli("neighbors", damaged, "cats"), "d.wv")


@pytest.mark.parametrize("value", [2**62, 2**64])
def test_a_counts_files_shape_set_to_a_huge_value_is_one_error(files, tmp_path, value):
    damaged = _with_field(
        files["cooc"], tmp_path / "d.cooc", ("arrays", "values", "shape", 0), value
    )
    result = cli("train", "--model", "glove", "--cooccur", damaged, "-o", tmp_path / "g.wv",
                 "--dim", "4", "--epochs", "1", "-q")  # fmt: skip
    one_error(result, "d.cooc")
    assert not (tmp_path / "g.wv").exists()


@pytest.mark.parametrize("suffix", [".txt", ".bin", ".vec"])
def test_a_word2vec_header_of_huge_dimensions_is_one_error(tmp_path, suffix, monkeypatch):
    """``1 100000000000000000000`` sized numpy's array by the header ("Maximum allowed
    dimension exceeded"), in the Python loop and the compiled scans alike."""
    from wordvec.formats import binvec, textvec

    path = tmp_path / f"v{suffix}"
    row = b"0.5 0.25\n" if suffix != ".bin" else struct.pack("<2f", 0.5, 0.25) + b"\n"
    path.write_bytes(b"1 100000000000000000000\ncats " + row)
    for fast_bytes in (binvec.FAST_BYTES, 0):
        monkeypatch.setattr(binvec, "FAST_BYTES", fast_bytes)
        monkeypatch.setattr(textvec, "FAST_BYTES", fast_bytes)
        with pytest.raises(FormatError, match=r"more than its \d+ bytes hold"):
            load_vectors(path)
    one_error(cli("neighbors", path, "cats"), f"v{suffix}: header says 1 words")


@pytest.mark.parametrize("value", [2**31 - 1, 2**63 - 1, 2**64])
def test_a_classifiers_word_ngrams_set_to_a_huge_value(files, tmp_path, value):
    """2^63 - 1 overflowed the kernel's loop bound (a segmentation fault) and sized an array
    ("Maximum allowed dimension exceeded"); 2^31 - 1 is a setting training allows, whose
    n-grams a line's length bounds: it answers, with no memory error."""
    key = ("meta", "settings", "word_ngrams")
    damaged = _with_field(files["clf"], tmp_path / "d.wv", key, value)
    result = cli("predict", damaged, "-", input="I like cats\n")
    if value < 2**31:
        assert result.exit_code == 0 and result.output.startswith("__label__l")
    else:
        one_error(result, "d.wv is corrupt (classifier settings)")


def test_every_array_spec_of_a_classifier_at_every_extreme_is_one_error_or_an_answer(
    files, tmp_path
):
    places = fields(files["clf"].read_bytes(), "classifier")
    for value in (0, *HUGE):
        for place in places:
            damaged = tmp_path / "d.wv"
            damaged.write_bytes(place(value))
            try:
                load_classifier(damaged).predict("I like cats")
            except FormatError as exc:
                assert str(exc).startswith("d.wv"), exc


# --- item 10: classifier weights checked finite; fastText .bin exports checked -------------


def _damaged_model(source: Path, out: Path, **arrays) -> Path:
    model = Model.load(source)
    Model(model.vocab, model.vectors, settings=model.settings,
          arrays={**model.arrays, **arrays}).save(out)  # fmt: skip
    return out


@pytest.mark.parametrize("array", ["w_out", "ngrams"])
def test_a_classifier_with_a_nan_weight_is_refused(files, tmp_path, array):
    """``test`` printed P@1 nan, ``predict`` empty lines, ``embed`` rows of nan, with exit 0."""
    weights = np.array(Model.load(files["clf"]).arrays[array])
    weights[:] = np.nan
    damaged = _damaged_model(files["clf"], tmp_path / "d.wv", **{array: weights})
    labelled = tmp_path / "t.txt"
    labelled.write_text("__label__l0 I like cats\n")
    for command in (
        ["test", damaged, labelled],
        ["predict", damaged, "-"],
        ["embed", damaged, "-"],
    ):
        one_error(cli(*command, input="I like cats\n"), "d.wv is corrupt", "NaN")
    exported = tmp_path / "d.bin"
    one_error(cli("export", damaged, exported, "--format", "fasttext-bin"), "d.wv is corrupt")
    assert not exported.exists()


def test_a_fasttext_classifier_bin_with_a_nan_is_refused(files, tmp_path):
    exported = tmp_path / "clf.bin"
    assert cli("export", files["clf"], exported, "--format", "fasttext-bin").exit_code == 0
    data = bytearray(exported.read_bytes())
    data[-4:] = struct.pack("<f", math.nan)  # the output matrix's last number
    exported.write_bytes(bytes(data))
    one_error(cli("predict", exported, "-", input="I like cats\n"), "clf.bin is corrupt", "NaN")


def test_fasttext_bin_export_checks_the_output_weights(files, tmp_path):
    """A ``w_out`` of the wrong shape exported with exit 0, and wordvec then called the export
    corrupt; a NaN in it was copied."""
    sg = Model.load(files["sg"])
    for w_out in (
        np.zeros((len(sg.vocab), 0), np.float32),
        np.full(sg.arrays["w_out"].shape, np.nan, np.float32),
    ):
        damaged = _damaged_model(files["sg"], tmp_path / "d.wv", w_out=w_out)
        exported = tmp_path / "d.bin"
        one_error(cli("export", damaged, exported, "--format", "fasttext-bin"), "d.wv is corrupt")
        assert not exported.exists()


@pytest.mark.parametrize("loss", ["hs", "hs+ns"])
def test_a_doc2vec_model_whose_output_layer_lost_rows_is_refused(tmp_path, loss):
    """Inference reads the output rows the loss's tables name (the tree's nodes after the
    words' with hs+ns): a file with fewer is corrupt, not read past its end."""
    toy = tmp_path / "toy.txt"
    toy.write_text("\n".join(TOY_LINES * 3) + "\n")
    source = tmp_path / "d2v.wv"
    wordvec.train(toy, model="doc2vec", loss=loss, dim=4, epochs=1, threads=1, min_count=1,
                  quiet=True).save(source)  # fmt: skip
    w_out = Model.load(source).arrays["w_out"]
    damaged = _damaged_model(source, tmp_path / "d.wv", w_out=np.array(w_out[:2]))
    one_error(cli("embed", damaged, "-", input="I like cats\n"), "d.wv is corrupt", "output")


def test_a_word_vector_model_holding_a_classifiers_arrays_is_refused(files, tmp_path):
    clf = Model.load(files["clf"])
    damaged = tmp_path / "d.wv"
    Model(clf.vocab, clf.vectors, settings={**clf.settings, "model": "sg"}, arrays=clf.arrays).save(
        damaged
    )
    one_error(cli("neighbors", damaged, "cats"), "d.wv is corrupt", "labels")


# --- item 11: vectors of no dimensions; strict JSON ------------------------------------------


def test_vectors_of_no_dimensions_are_refused(files, tmp_path):
    """They were answered with cosine 0, exported as "3 vectors of 0 dims", scored NaN."""
    matrix = tmp_path / "m.npy"
    np.save(matrix, np.zeros((3, 0), np.float32))
    (tmp_path / "m.words.txt").write_text("i\nlike\ncats\n")
    one_error(cli("neighbors", matrix, "cats"), "m.npy holds vectors of 0 dimensions")
    sg = Model.load(files["sg"])
    flat = tmp_path / "flat.wv"
    Model(sg.vocab, np.zeros((len(sg.vocab), 0), np.float32), settings=sg.settings).save(flat)
    for command in (
        ["neighbors", flat, "cats"],
        ["export", flat, tmp_path / "o.txt"],
        ["eval", flat],
    ):
        one_error(cli(*command), "flat.wv is corrupt")
    assert not (tmp_path / "o.txt").exists()


def test_eval_json_writes_null_for_a_score_that_is_not_a_number(files, tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("unknown words 5.0\n")  # no pair covered: Spearman's rho is NaN
    result = cli("eval", files["sg"], "--similarity", pairs, "--json")
    assert result.exit_code == 0, result.output
    assert '"spearman": null' in result.output and "NaN" not in result.output
    assert json.loads(result.output)["similarity"][0]["spearman"] is None


# --- item 12: words an export cannot hold -----------------------------------------------------


def test_export_refuses_a_word_its_format_cannot_hold(tmp_path):
    """A TSV metadata file's "new york" was written as it was: two fields of a word2vec
    line, and the file corrupt."""
    matrix = tmp_path / "p.tsv"
    matrix.write_text("0.5\t0.25\n0.125\t1\n")
    (tmp_path / "p.metadata.tsv").write_text("paris\nnew york\n")
    for fmt in ("word2vec", "word2vec-binary", "glove", "vec"):
        out = tmp_path / f"o.{fmt}"
        expected = f"cannot write {fmt}: word 2, 'new york', holds whitespace"
        one_error(cli("export", matrix, out, "--format", fmt), expected, "--format npy")
        assert not out.exists()
    assert cli("export", matrix, tmp_path / "o.npy", "--format", "npy").exit_code == 0
    assert load_vectors(tmp_path / "o.npy").words == ["paris", "new york"]


# --- item 13: a threshold that is not a number ------------------------------------------------


@pytest.mark.parametrize("command", ["test", "predict"])
def test_a_threshold_of_nan_is_refused(files, command):
    """``predict`` printed nothing and ``test`` P@1 nan, with exit 0."""
    result = cli(command, files["clf"], "-", "--threshold", "nan", input="__label__l0 I like\n")
    assert (
        result.exit_code == 2
        and "Invalid value for '--threshold': 'nan' is not a number" in result.output
    )


# --- item 19: the small ones --------------------------------------------------------------------


def test_huge_scores_give_probabilities_without_numpy_warnings(files, tmp_path):
    """An ns classifier trained with a high --alpha: ``test`` printed numpy's overflow
    RuntimeWarning (exp of a score of -1000)."""
    import warnings

    classifier = load_classifier(files["clf"])
    classifier.loss = "ns"
    classifier.w_out = np.ones((len(classifier.labels), 4), np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        probabilities = classifier.probabilities(np.array([[-1e3] * 4, [1e3] * 4]))
    assert np.isfinite(probabilities).all() and probabilities.max() <= 1


def test_a_ragged_tsv_error_is_ours_not_numpys_advice(tmp_path):
    matrix = tmp_path / "r.tsv"
    matrix.write_text("1\t2\n3\t4\t5\n")
    (tmp_path / "r.metadata.tsv").write_text("a\nb\n")
    assert one_error(cli("neighbors", matrix, "a")) == (
        "Error: r.tsv is not a tab-separated matrix of numbers (the number of columns changed "
        "from 2 to 3 at row 2)"
    )


@pytest.mark.parametrize(
    "extra, why", [([], ""), (["--min-count", "5"], " occurring --min-count 5 times or more")]
)
def test_a_classifier_needs_words_besides_its_labels(tmp_path, extra, why):
    """Lines of labels alone trained a classifier of one word (the end of line) that gave
    every line the same label, with exit 0."""
    labelled = tmp_path / "l.txt"
    labelled.write_text(
        "__label__a\n__label__b __label__a\n" + ("__label__b cats\n" if extra else "")
    )
    result = cli("train", labelled, "-o", tmp_path / "c.wv", "--model", "supervised", "-q",
                 "--dim", "4", "--min-count", "1", *extra)  # fmt: skip
    one_error(result, f"l.txt has labels but no words{why}: a classifier learns which words")
    assert not (tmp_path / "c.wv").exists()


def test_the_python_api_refuses_a_threshold_of_nan(files):
    from wordvec.errors import ConfigError

    classifier = load_classifier(files["clf"])
    with pytest.raises(ConfigError, match=r"threshold must be a number from 0 to 1, not nan"):
        classifier.predict("I like cats", threshold=math.nan)


def test_a_window_still_looked_into_by_a_finishing_thread_is_no_error(tmp_path):
    """make fuzz met one BufferError ("cannot close exported pointers exist") in 1,000 runs of
    the compiled binary scan: a pool thread that had set its done event still held the mapped
    window's view when the scan closed the map. Here a step keeps the view on purpose."""
    from wordvec.formats.mapped import scan_windows

    path = tmp_path / "data.bin"
    path.write_bytes(b"x" * 100)
    kept = []

    def step(window, pos, first, todo, words, fill, final):
        kept.append(window)  # as a finishing thread's frame does, for an instant
        return 0, todo, len(window), fill

    class Bar:
        def update(self, n):
            pass

    assert scan_windows(path, 0, 100, 1, Bar(), step, longest=10, more=1) == (0, 1, 100, b"")
    assert len(kept) == 1


def test_a_stream_buffer_still_looked_into_by_a_finishing_thread_is_no_error():
    """The same for a compressed file's buffer (a 3.6 GB .bin.gz failed to load 10 times in
    11 with "Existing exports of data: object cannot be re-sized"): a step keeps each view,
    and reads a record a window."""
    import io

    from wordvec.formats.mapped import scan_stream

    kept = []

    def step(window, pos, first, todo, words, fill, final):
        kept.append(window)
        return (0, first + todo, 10, fill) if final else (1, first + 1, 10, fill)

    class Bar:
        def update(self, n):
            pass

    stream = io.BytesIO(b"y" * 40)
    status, done, _, words = scan_stream(stream, b"x" * 10, 5, Bar(), step, longest=10,
                                            more=1)  # fmt: skip
    assert (status, words) == (0, b"") and done >= 1
