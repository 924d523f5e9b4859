"""PV-DM over the concatenated window (``--context concat``, gensim's ``dm_concat=1``): the job
and inference against NumPy, the step against finite differences, and a small real run through
the CLI and the gensim face."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.test_doc2vec import LINES, N_WORDS, _frozen_step, _ids
from tests.test_kernels import ALPHA, DIM, NEGATIVE, NOISE, reference_window
from wordvec.cli import main
from wordvec.corpus.output_layer import build_alias_table, output_layer, pack_alias_table
from wordvec.errors import ConfigError
from wordvec.kernels.documents import infer_documents
from wordvec.kernels.windows import PV_DM_CONCAT, Sampling, window_job
from wordvec.query.documents import document_memory
from wordvec.training.config import TrainConfig
from wordvec.training.doc2vec import DocumentTags
from wordvec.training.windows import own_rows, window_memory

WIDTH = 3 * DIM  # window 1: the document's place and one word's each side
PAD = N_WORDS + len(LINES)  # the pad row, after the documents'


def concat_setup(seed: int, tags=None, negative: int = NEGATIVE):
    """Five words, a document row per line (or ``tags``' documents), the pad row, window 1,
    no subsampling, every noise word NOISE."""
    rng = np.random.default_rng(seed)
    w_in = rng.normal(scale=0.5, size=(PAD + 1, DIM)).astype(np.float32)
    w_out = rng.normal(scale=0.5, size=(N_WORDS, WIDTH)).astype(np.float32)
    p = np.zeros(N_WORDS)
    p[NOISE] = 1.0
    out = output_layer("ns", w_out, negative=negative,
                       noise_table=pack_alias_table(build_alias_table(p)))  # fmt: skip
    lines = DocumentTags.one_per_line(len(LINES)) if tags is None else DocumentTags.of_lines(tags)
    sampling = Sampling(np.ones(N_WORDS, np.float32), 1, 1000, lines.numbers + N_WORDS,
                        lines.starts)  # fmt: skip
    config = TrainConfig(model="doc2vec", arch="dm", context="concat", dim=DIM, window=1,
                         negative=negative, threads=1).resolved()  # fmt: skip
    memory = window_memory(config, out, 1, document_rows=int(np.diff(lines.starts).max()))
    memory.loss.rng[0] = 12345
    return w_in, out, sampling, memory


def _places(sentence, i, doc):
    return [doc] + [sentence[j] if 0 <= j < len(sentence) else PAD for j in (i - 1, i + 1)]


def test_the_config_widens_the_output_layer_for_the_window():
    config = TrainConfig(model="doc2vec", arch="dm", context="concat", dim=8, window=3)
    assert config.resolved().output_width == 7 * 8
    assert TrainConfig(model="doc2vec", arch="dm", dim=8).resolved().output_width == 8
    with pytest.raises(ConfigError, match="--context concat is doc2vec's"):
        TrainConfig(model="cbow", context="concat").resolved()
    with pytest.raises(ConfigError, match="--context does not apply with --arch dbow"):
        TrainConfig(model="doc2vec", arch="dbow", context="concat").resolved()


def test_pv_dm_concat_job_equals_numpy():
    """Each word is predicted from the document's row and its neighbours' rows, each in its
    place (the pad row past the line's ends, twice for a one-word line's sides); each row
    then takes its place's part of the step, the pad row once per place it fills."""
    w_in, out, sampling, memory = concat_setup(3)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    for line, sentence in enumerate(LINES):
        for i, centre in enumerate(sentence):
            places = _places(sentence, i, N_WORDS + line)
            step = reference_window(np.concatenate(ref_in[places]), [centre], ref_out, ALPHA)
            for s, row in enumerate(places):
                ref_in[row] += step[s * DIM : (s + 1) * DIM]
    _, predictions, done, _ = window_job(
        _ids(), 9, ALPHA, ALPHA, PV_DM_CONCAT, w_in, own_rows(N_WORDS), out, sampling, memory
    )
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)
    assert done == 9 and predictions == 9


def test_the_step_is_minus_alpha_times_the_gradient_of_each_row():
    """A one-word line: its document's row and the pad row (both of the word's sides) step by
    -alpha dL/drow of the logistic loss, the pad row's the sum over its two places."""
    w_in, out, sampling, memory = concat_setup(5, negative=1)
    word, doc = 2, N_WORDS
    start = w_in.astype(np.float64)
    w_out = out.w_out.astype(np.float64)

    def loss(rows):
        h = np.concatenate([rows[doc], rows[PAD], rows[PAD]])
        return np.logaddexp(0.0, -(w_out[word] @ h)) + np.logaddexp(0.0, w_out[NOISE] @ h)

    eps = 1e-6
    numeric = np.zeros_like(start)
    for row in (doc, PAD):
        for k in range(DIM):
            up, down = start.copy(), start.copy()
            up[row, k] += eps
            down[row, k] -= eps
            numeric[row, k] = (loss(up) - loss(down)) / (2 * eps)
    window_job(np.array([word, -1], np.int32), 1, ALPHA, ALPHA, PV_DM_CONCAT, w_in,
               own_rows(N_WORDS), out, sampling, memory)  # fmt: skip
    np.testing.assert_allclose(w_in - start, -ALPHA * numeric, rtol=1e-4, atol=1e-6)


def test_lines_of_another_number_of_documents_train_nothing():
    """The layer has one document's place: a line of two documents or none is skipped, as
    gensim skips a document without ``dm_tag_count`` tags."""
    w_in, out, sampling, memory = concat_setup(4, tags=[[0, 1], [], [2]])
    before = w_in.copy()
    _, predictions, _, _ = window_job(
        _ids(), 9, ALPHA, ALPHA, PV_DM_CONCAT, w_in, own_rows(N_WORDS), out, sampling, memory
    )
    assert predictions == len(LINES[2])
    moved = np.flatnonzero(np.any(w_in != before, axis=1))
    assert set(moved) == {*LINES[2], N_WORDS + 2, PAD}


def test_inference_trains_only_the_new_row():
    """Inference: the new row in the document's place, the frozen words' and pad rows in
    theirs, the step's document part added to the row."""
    w_in, out, sampling, _ = concat_setup(6)
    memory = document_memory(out, 1000, 3)
    memory.loss.rng[0] = 12345
    frozen = np.concatenate([w_in[:N_WORDS], w_in[PAD:]])  # the words', then the pad row
    w_out = out.w_out.copy()
    start = np.random.default_rng(1).normal(scale=0.1, size=(1, DIM)).astype(np.float32)
    rows = start.copy()
    sentence = LINES[0]
    infer_documents(np.array([*sentence, -1], np.int32), 1, ALPHA, ALPHA, PV_DM_CONCAT,
                    frozen.copy(), rows, out, sampling, memory)  # fmt: skip
    np.testing.assert_array_equal(out.w_out, w_out)
    ref, pad = start[0].astype(np.float64), len(frozen) - 1
    for i, centre in enumerate(sentence):
        words = [frozen[sentence[j] if 0 <= j < len(sentence) else pad] for j in (i - 1, i + 1)]
        h = np.concatenate([ref, *words])
        ref = ref + _frozen_step(h, centre, w_out.astype(np.float64))[:DIM]
    np.testing.assert_allclose(rows[0], ref, rtol=1e-5, atol=1e-6)


def test_a_real_run_through_the_cli_and_the_gensim_face(cooking_docs, tmp_path):
    """The cooking questions: a trained question's inferred vector has its own trained vector
    among its ten nearest far more often than chance (the concatenated window learns short
    documents slowly: gensim's dm_concat, 10 epochs, 2.8% of 249 questions, wordvec's 5.2%,
    against chance's 0.08%); the model file keeps its pad row, continues (--init), exports to
    fastText's .bin, compresses, and loads in the gensim face as ``Doc2Vec<dm/c,...>``, which
    trains one of its own too."""
    path, texts, _ = cooking_docs
    model = tmp_path / "c.wv"
    done = CliRunner().invoke(main, ["train", str(path), "-o", str(model), "--model", "doc2vec",
                                     "--context", "concat", "--window", "2", "--epochs", "10",
                                     "--min-count", "2", "--seed", "1", "-q"])  # fmt: skip
    assert done.exit_code == 0, done.output
    trained = wordvec.Model.load(model)
    assert trained.arrays["w_out"].shape == (len(trained.vocab), 5 * 100)
    assert trained.arrays["pad_vector"].shape == (1, 100)
    probe = np.arange(0, len(texts), 50)
    docs = np.asarray(trained.arrays["doc_vectors"])
    unit = docs / np.linalg.norm(docs, axis=1, keepdims=True)
    inferred = trained.infer_vectors([texts[i].split() for i in probe])
    rank = [int(np.sum(unit @ row > unit[i] @ row)) for i, row in zip(probe, inferred)]
    assert np.mean(np.array(rank) < 10) > 0.02, rank  # chance: 0.001; gensim's here 0.028
    binary = tmp_path / "c.bin"  # fastText's .bin: the words, its output layer zeros (it has
    done = CliRunner().invoke(main, ["export", str(model), str(binary)])  # no such model)
    assert done.exit_code == 0, done.output
    back = wordvec.load_vectors(binary)
    np.testing.assert_array_equal(back.vector("rice"), trained.wv.vector("rice"))
    again = wordvec.train(path, init=model, alpha=1e-9, epochs=1, threads=1, quiet=True)
    np.testing.assert_allclose(again.arrays["pad_vector"], trained.arrays["pad_vector"],
                               atol=1e-6)  # fmt: skip
    few = tmp_path / "few.txt"  # compressed: a small model's, as k-means takes a while
    few.write_text("\n".join(texts[:300]) + "\n", encoding="utf-8")
    wordvec.train(few, model="doc2vec", context="concat", dim=8, epochs=1, quiet=True).save(
        tmp_path / "few.wv"
    )
    small = tmp_path / "small.wv"
    done = CliRunner().invoke(main, ["quantize", str(tmp_path / "few.wv"), "-o", str(small),
                                     "--no-report", "-q"])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert wordvec.Model.load(small).infer_vectors([["boil", "an", "egg"]]).shape == (1, 8)

    from wordvec.gensim.models.doc2vec import Doc2Vec, TaggedDocument

    face = Doc2Vec.load(str(model))
    assert str(face).startswith("Doc2Vec<dm/c,d100,n5,w2") and face.dm_concat == 1
    assert face.infer_vector(texts[0].split()).shape == (100,)
    documents = [TaggedDocument(text.split(), [i]) for i, text in enumerate(texts[:2000])]
    own = Doc2Vec(dm_concat=1, vector_size=16, window=2, epochs=2, min_count=2)
    own.build_vocab(documents)  # then trained on them in another order: words in another order
    assert own.layer1_size == 5 * 16 and own.syn1neg.shape == (len(own.wv), 5 * 16)
    own.train(documents[::-1], total_examples=len(documents), epochs=own.epochs)
    assert own.syn1neg.shape == (len(own.wv), 5 * 16) and np.any(own.syn1neg)
    with pytest.raises(ConfigError, match="dm_tag_count=1"):
        Doc2Vec(documents, dm_concat=1, dm_tag_count=2)
