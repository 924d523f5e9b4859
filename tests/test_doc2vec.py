"""Paragraph vectors: PV-DBOW and PV-DM jobs against NumPy, inference against the same steps
with the output layer frozen, reproducibility, and a small real run's quality floor."""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.test_kernels import (
    ALPHA,
    DIM,
    NEGATIVE,
    NOISE,
    reference_shared_sentence,
    reference_window,
)
from wordvec.cli import main
from wordvec.corpus.output_layer import build_alias_table, output_layer, pack_alias_table
from wordvec.errors import ConfigError
from wordvec.kernels.documents import infer_documents
from wordvec.kernels.windows import (
    CBOW_SUM,
    PV_DBOW,
    PV_DBOW_SHARED_TARGETS,
    PV_DBOW_WORDS,
    PV_DM,
    PV_DM_SUM,
    Sampling,
    window_job,
)
from wordvec.query.documents import document_memory
from wordvec.training.config import TrainConfig
from wordvec.training.doc2vec import DocumentTags
from wordvec.training.windows import own_rows, window_memory

N_WORDS = 5
LINES = [[0, 1, 2, 3], [3, 2], [1, 0, 2]]


def tiny_setup(seed: int, arch: str, dbow_words: bool = False, tags=None):
    """Five words, a document row per line after theirs (or the documents ``tags`` gives each
    line, of as many), window 1, no subsampling, and every noise word NOISE: each draw is
    known."""
    rng = np.random.default_rng(seed)
    w_in = rng.normal(scale=0.5, size=(N_WORDS + len(LINES), DIM)).astype(np.float32)
    w_out = rng.normal(scale=0.5, size=(N_WORDS, DIM)).astype(np.float32)
    p = np.zeros(N_WORDS)
    p[NOISE] = 1.0
    table = pack_alias_table(build_alias_table(p))
    out = output_layer("ns", w_out, negative=NEGATIVE, noise_table=table)
    lines = DocumentTags.one_per_line(len(LINES)) if tags is None else DocumentTags.of_lines(tags)
    assert lines.count == len(LINES)
    documents = (lines.numbers + N_WORDS, lines.starts)
    sampling = Sampling(np.ones(N_WORDS, np.float32), 1, 1000, *documents)
    config = TrainConfig(model="doc2vec", arch=arch, dim=DIM, window=1, negative=NEGATIVE,
                         threads=1, **({"dbow_words": True} if dbow_words else {})
                         ).resolved()  # fmt: skip
    memory = window_memory(config, out, 1, document_rows=int(np.diff(lines.starts).max()))
    memory.loss.rng[0] = 12345
    return w_in, out, sampling, memory


def _ids() -> np.ndarray:
    return np.array([word for line in LINES for word in [*line, -1]], np.int32)


@pytest.mark.parametrize("words", [None, "pairs", "shared"])
def test_pv_dbow_job_equals_numpy(words):
    """Each line's document row predicts each of its words, one step a word; with word
    training, skip-gram over the line's words follows: a step a (centre, context) pair, or
    (shared negatives, the default) a step a window, its context words sharing the centre's
    targets."""
    w_in, out, sampling, memory = tiny_setup(3, "dbow", dbow_words=words is not None)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    for line, sentence in enumerate(LINES):
        doc = N_WORDS + line
        for word in sentence:
            ref_in[doc] += reference_window(ref_in[doc].copy(), [word], ref_out, ALPHA)
        if words == "shared":
            reference_shared_sentence(ref_in, [[w] for w in range(N_WORDS)], sentence, ref_out)
        for i, centre in enumerate(sentence if words == "pairs" else []):
            for j in (i - 1, i + 1):
                if 0 <= j < len(sentence):
                    step = reference_window(ref_in[centre].copy(), [sentence[j]], ref_out, ALPHA)
                    ref_in[centre] += step
    model = {None: PV_DBOW, "pairs": PV_DBOW_WORDS, "shared": PV_DBOW_SHARED_TARGETS}[words]
    _, predictions, done, _ = window_job(
        _ids(), 9, ALPHA, ALPHA, model, w_in, own_rows(N_WORDS), out, sampling, memory
    )
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)
    assert done == 9 and predictions == 9 + (12 if words else 0)


def test_document_rows_without_their_starts_are_refused():
    """A job given its lines' document rows but not where each line's begin would train no
    document step at all, silently (a test once did): the kernel refuses it."""
    w_in, out, sampling, memory = tiny_setup(3, "dbow")
    rows_alone = Sampling(sampling.keep, sampling.window, 1000, sampling.documents)
    with pytest.raises(ValueError, match="document_starts"):
        window_job(_ids(), 9, ALPHA, ALPHA, PV_DBOW, w_in, own_rows(N_WORDS), out, rows_alone,
                   memory)  # fmt: skip


def test_dbow_words_shares_negatives_unless_asked_per_pair():
    """``--dbow-words`` trains its words as skip-gram does: shared negatives by default (1.6x
    faster, the documents' vectors as good: docs/guide.md), per pair when asked (the gensim
    face asks, as gensim draws per pair), and hierarchical softmax a step a window."""
    from wordvec.gensim import Doc2Vec
    from wordvec.training.doc2vec import _window_mode

    def mode(**options):
        config = TrainConfig(model="doc2vec", arch="dbow", dbow_words=True, **options)
        return _window_mode(config.resolved())

    assert mode() == PV_DBOW_SHARED_TARGETS
    assert mode(shared_negatives=False) == PV_DBOW_WORDS
    assert mode(loss="hs") == PV_DBOW_SHARED_TARGETS
    face = Doc2Vec(dm=0, dbow_words=1)._options(1, 0.025, 0.0001)
    assert face["shared_negatives"] is False


@pytest.mark.parametrize(
    "model, document, summed",
    [(PV_DM, True, False), (PV_DM_SUM, True, True), (CBOW_SUM, False, True)],
    ids=["dm", "dm_sum", "cbow_sum"],
)
def test_pv_dm_and_summed_cbow_jobs_equal_numpy(model, document, summed):
    """Each window's context rows (and the document's, for PV-DM), averaged, predict the
    centre; the step goes to each of them (word2vec's CBOW rule). Summed instead (gensim's
    cbow_mean=0 / dm_mean=0), each row gets the step divided by their number, gensim's rule."""
    w_in, out, sampling, memory = tiny_setup(4, "dm")
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    for line, sentence in enumerate(LINES):
        for i, centre in enumerate(sentence):
            rows = [sentence[j] for j in (i - 1, i + 1) if 0 <= j < len(sentence)]
            rows += [N_WORDS + line] if document else []
            hidden = ref_in[rows].sum(axis=0) if summed else ref_in[rows].mean(axis=0)
            step = reference_window(hidden, [centre], ref_out, ALPHA)
            for row in rows:
                ref_in[row] += step / len(rows) if summed else step
    window_job(_ids(), 9, ALPHA, ALPHA, model, w_in, own_rows(N_WORDS), out, sampling, memory)
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)


TAGS = [[0, 2], [], [2]]
"""Line 0 is documents 0 and 2, line 1 none, line 2 document 2; document 1 is on no line."""


@pytest.mark.parametrize("arch", ["dbow", "dm"])
def test_lines_of_several_documents_or_none_equal_numpy(arch):
    """A line of several documents (gensim's tags) trains each one's row: PV-DBOW has each
    predict every word of the line, PV-DM puts all of them in every window; a line of none
    trains its words alone (PV-DM) or nothing (PV-DBOW); a document on no line keeps its row."""
    w_in, out, sampling, memory = tiny_setup(5, arch, tags=TAGS)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    for sentence, documents in zip(LINES, TAGS):
        rows = [N_WORDS + d for d in documents]
        for doc in rows if arch == "dbow" else []:
            for word in sentence:
                ref_in[doc] += reference_window(ref_in[doc].copy(), [word], ref_out, ALPHA)
        for i, centre in enumerate(sentence if arch == "dm" else []):
            window = [sentence[j] for j in (i - 1, i + 1) if 0 <= j < len(sentence)] + rows
            step = reference_window(ref_in[window].mean(axis=0), [centre], ref_out, ALPHA)
            ref_in[window] += step
    model = PV_DBOW if arch == "dbow" else PV_DM
    untouched = w_in[N_WORDS + 1].copy()
    _, predictions, done, _ = window_job(
        _ids(), 9, ALPHA, ALPHA, model, w_in, own_rows(N_WORDS), out, sampling, memory
    )
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)
    assert np.array_equal(w_in[N_WORDS + 1], untouched) and done == 9
    assert predictions == (4 * 2 + 3 if arch == "dbow" else 9)


def test_pv_dbow_step_is_minus_alpha_times_the_gradient():
    """With one noise word, the document row's step is -alpha dL/dd of the logistic loss."""
    w_in, out, sampling, _ = tiny_setup(5, "dbow")
    out = out._replace(negative=1)
    config = TrainConfig(model="doc2vec", arch="dbow", dim=DIM, window=1, negative=1,
                         threads=1).resolved()  # fmt: skip
    memory = window_memory(config, out, 1)
    doc, word = w_in[N_WORDS].astype(np.float64), 2
    w_out = out.w_out.astype(np.float64)

    def loss(d):
        return np.logaddexp(0.0, -(w_out[word] @ d)) + np.logaddexp(0.0, w_out[NOISE] @ d)

    eps = 1e-6
    numeric = np.array([(loss(doc + e) - loss(doc - e)) / (2 * eps) for e in np.eye(DIM) * eps])
    ids = np.array([word, -1], np.int32)
    window_job(ids, 1, ALPHA, ALPHA, PV_DBOW, w_in, own_rows(N_WORDS), out, sampling, memory)
    np.testing.assert_allclose(w_in[N_WORDS] - doc, -ALPHA * numeric, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("model", [PV_DBOW, PV_DM, PV_DM_SUM], ids=["dbow", "dm", "dm_sum"])
def test_inference_trains_only_the_new_row(model):
    """Inference takes training's steps for a fresh row, with the words' rows and the output
    layer left as they are: the same row as a job over that line with a copy of them."""
    w_in, out, sampling, _ = tiny_setup(6, "dbow" if model == PV_DBOW else "dm")
    memory = document_memory(out, 1000, 11)
    memory.loss.rng[0] = 12345
    words, w_out = w_in[:N_WORDS].copy(), out.w_out.copy()
    start = np.random.default_rng(1).normal(scale=0.1, size=(1, DIM)).astype(np.float32)
    rows = start.copy()
    infer_documents(np.array([*LINES[0], -1], np.int32), 1, ALPHA, ALPHA, model, words, rows,
                    out, sampling, memory)  # fmt: skip
    np.testing.assert_array_equal(words, w_in[:N_WORDS])
    np.testing.assert_array_equal(out.w_out, w_out)
    ref = start[0].astype(np.float64)
    for i, centre in enumerate(LINES[0]):
        h, share = ref, 1
        if model != PV_DBOW:
            context = [words[LINES[0][j]] for j in (i - 1, i + 1) if 0 <= j < len(LINES[0])]
            h = np.sum(context, axis=0) + ref
            if model == PV_DM:
                h = h / (len(context) + 1)
            else:
                share = len(context) + 1
        ref = ref + _frozen_step(h, centre, w_out.astype(np.float64)) / share
    np.testing.assert_allclose(rows[0], ref, rtol=1e-5, atol=1e-6)


def _frozen_step(h, centre, w_out):
    """NumPy: the step for ``h`` predicting ``centre`` against its targets (itself, then
    NEGATIVE draws of NOISE), every target's row as it was."""
    targets = [(centre, 1.0)] + [(NOISE, 0.0)] * NEGATIVE
    return sum(ALPHA * (label - 1 / (1 + np.exp(-(w_out[row] @ h)))) * w_out[row]
               for row, label in targets)  # fmt: skip


def test_a_new_documents_row_starts_from_its_words():
    """Inference starts a document's row from the seed and its words alone (gensim seeds it
    from the text): the same words alike wherever they stand, other words or seeds not,
    uniform within +-0.5/dim."""
    from wordvec.kernels.documents import start_documents

    ids = np.array([3, 1, -1, 2, -1, 3, 1, -1], dtype=np.int32)
    starts = np.array([0, 3, 5, 8], dtype=np.int64)
    rows = np.empty((3, 50), dtype=np.float32)
    start_documents(ids, starts, np.uint64(7), np.zeros(1, np.uint64), rows)
    np.testing.assert_array_equal(rows[0], rows[2])
    assert not np.allclose(rows[0], rows[1])
    assert np.abs(rows).max() <= 0.5 / 50 and rows.std() > 0.1 / 50
    alone = np.empty((1, 50), dtype=np.float32)
    start_documents(ids[5:], starts[2:] - 5, np.uint64(7), np.zeros(1, np.uint64), alone)
    np.testing.assert_array_equal(alone[0], rows[0])
    start_documents(ids[5:], starts[2:] - 5, np.uint64(8), np.zeros(1, np.uint64), alone)
    assert not np.allclose(alone[0], rows[0])


def test_one_thread_with_a_seed_is_reproducible_and_doc_vectors_are_documents(cooking_docs):
    path, texts, _ = cooking_docs
    options = dict(model="doc2vec", arch="dbow", epochs=1, min_count=2, threads=1, seed=4,
                   quiet=True)  # fmt: skip
    one, two = wordvec.train(path, **options), wordvec.train(path, **options)
    assert one.arrays["doc_vectors"].shape == (len(texts), 100)
    np.testing.assert_array_equal(one.arrays["doc_vectors"], two.arrays["doc_vectors"])
    np.testing.assert_array_equal(one.vectors, two.vectors)
    assert one.dv.most_similar("0", topn=1)[0][0] != "0"  # tags are line numbers
    firsts = [text.split() for text in texts[:3]]
    np.testing.assert_array_equal(one.infer_vectors(firsts), two.infer_vectors(firsts))


def test_doc2vec_quality_floor_and_inference_finds_its_document(cooking_docs, tmp_path):
    """PV-DBOW on the cooking questions: a question's nearest other question shares its tag
    far more often than chance (a broken model scores chance), and a trained question's
    inferred vector has its own trained vector among its nearest (gensim's sanity check)."""
    path, texts, labels = cooking_docs
    model = wordvec.train(path, model="doc2vec", arch="dbow", epochs=20, min_count=2, seed=1,
                          quiet=True)  # fmt: skip
    docs = np.asarray(model.arrays["doc_vectors"])
    unit = docs / np.linalg.norm(docs, axis=1, keepdims=True)
    probe = np.arange(0, len(texts), 25)
    sims = unit[probe] @ unit.T
    sims[np.arange(len(probe)), probe] = -2
    agree = float(np.mean(labels[np.argmax(sims, axis=1)] == labels[probe]))
    chance = float(sum((np.mean(labels == label)) ** 2 for label in set(labels)))
    assert agree > 0.06 > 2 * chance, (agree, chance)
    inferred = model.infer_vectors([texts[i].split() for i in probe[:100]])
    inferred /= np.linalg.norm(inferred, axis=1, keepdims=True)
    rank = [int(np.sum(unit @ row > unit[i] @ row)) for i, row in zip(probe, inferred)]
    assert np.mean(np.array(rank) < 10) > 0.4, rank


def test_a_tag_on_many_lines_learns_what_they_share(cooking_docs):
    """``document_tags``: each question is a document of its own and, tagged with its label
    too, one line of its label's document (gensim's ``TaggedDocument(words, [i, label])``).
    Each label's row, trained by all of its questions, is the nearest of the labels' rows to
    the mean of its questions' vectors; the number of lines is checked."""
    path, texts, labels = cooking_docs
    names = ["__label__baking", "__label__food-safety", "__label__equipment", "__label__bread"]
    tags = [[i, len(texts) + names.index(label)] if label in names else [i]
            for i, label in enumerate(labels)]  # fmt: skip
    options = dict(model="doc2vec", arch="dbow", epochs=5, min_count=2, threads=1, seed=1,
                   quiet=True)  # fmt: skip
    rows = wordvec.train(path, document_tags=tags, **options).arrays["doc_vectors"]
    assert rows.shape == (len(texts) + len(names), 100)
    centred = rows - rows[: len(texts)].mean(axis=0)  # PV-DBOW's rows share a large part
    unit = centred / np.linalg.norm(centred, axis=1, keepdims=True)
    means = np.stack([unit[: len(texts)][labels == name].mean(axis=0) for name in names])
    nearest = np.argmax(means @ unit[len(texts) :].T, axis=1)
    assert list(nearest) == list(range(len(names)))
    with pytest.raises(ConfigError, match="the documents of 2 lines; the corpus has 12,404"):
        wordvec.train(path, document_tags=[[0], [1]], **options)
    with pytest.raises(ConfigError, match="document_tags says which documents"):
        wordvec.train(path, document_tags=tags, **{**options, "model": "sg", "arch": None})


def test_the_cli_trains_exports_and_infers(cooking_docs, tmp_path):
    path, texts, _ = cooking_docs
    model = tmp_path / "docs.wv"
    runner = CliRunner()
    done = runner.invoke(main, ["train", str(path), "-o", str(model), "--model", "doc2vec",
                                "--epochs", "1", "--threads", "1", "-q"])  # fmt: skip
    assert done.exit_code == 0, done.output
    done = runner.invoke(main, ["export", str(model), str(tmp_path / "d.vec"), "--doc-vectors"])
    assert done.exit_code == 0, done.output
    header = (tmp_path / "d.vec").read_text(encoding="utf-8").split("\n", 2)
    assert header[0] == f"{len(texts)} 100" and header[1].startswith("0 ")
    done = runner.invoke(main, ["neighbors", str(model), "--doc", "17", "-k", "2"])
    assert done.exit_code == 0 and done.output.startswith("17\n"), done.output
    done = runner.invoke(main, ["neighbors", str(model), "--doc", "999999"])
    expected = f"is not a document's tag (the {len(texts):,} documents are tagged 0 to "
    assert done.exit_code == 1 and expected in done.output, done.output
    done = runner.invoke(main, ["embed", str(model), "-", "--epochs", "3"], input="boil an egg\n")
    assert done.exit_code == 0 and len(done.output.split()) == 100, done.output


def test_both_output_layers_train_and_infer_as_one_model(cooking_docs, tmp_path):
    """``--loss hs+ns`` (gensim's ``Doc2Vec(hs=1)``, its ``negative=5`` kept): the output
    layer holds the words' rows, then the tree's; the model saves, and the CLI infers from
    it a trained question's own vector among its nearest, as with one layer."""
    path, texts, _ = cooking_docs
    model = wordvec.train(path, model="doc2vec", arch="dbow", loss="hs+ns", epochs=10,
                          min_count=2, seed=1, quiet=True)  # fmt: skip
    words = len(model.vocab)
    assert model.arrays["w_out"].shape == (2 * words - 1, 100)
    assert np.any(model.arrays["w_out"][:words], axis=1).mean() > 0.99  # noise words' rows
    assert np.any(model.arrays["w_out"][words:], axis=1).mean() > 0.99  # the tree's
    model.save(tmp_path / "both.wv")
    probe = list(range(0, len(texts), 500))
    done = CliRunner().invoke(main, ["embed", str(tmp_path / "both.wv"), "-"],
                              input="".join(texts[i] + "\n" for i in probe))  # fmt: skip
    assert done.exit_code == 0, done.output
    inferred = np.array([line.split() for line in done.output.splitlines()], dtype=np.float32)
    docs = np.asarray(model.arrays["doc_vectors"])
    unit = docs / np.linalg.norm(docs, axis=1, keepdims=True)
    rank = [int(np.sum(unit @ row > unit[i] @ row)) for i, row in zip(probe, inferred)]
    assert np.mean(np.array(rank) < 10) > 0.4, rank


def test_a_continued_model_starts_from_its_documents_and_keeps_them(cooking_docs, tmp_path):
    """--init continues each document's row (and the words' and output rows) from the model:
    at a vanishing learning rate the rows stay where they were; a shorter corpus continues its
    lines' documents only, a longer one is refused."""
    path, texts, _ = cooking_docs
    options = dict(model="doc2vec", arch="dbow", dbow_words=True, epochs=1, min_count=2,
                   threads=1, seed=4, quiet=True)  # fmt: skip
    wordvec.train(path, **options).save(tmp_path / "d.wv")
    before = wordvec.Model.load(tmp_path / "d.wv")
    after = wordvec.train(path, init=tmp_path / "d.wv", alpha=1e-9, **options)
    docs_before = np.asarray(before.arrays["doc_vectors"])
    assert not np.allclose(docs_before, 0)
    np.testing.assert_allclose(after.arrays["doc_vectors"], docs_before, atol=1e-6)
    np.testing.assert_allclose(after.vectors, before.vectors, atol=1e-6)
    np.testing.assert_allclose(after.arrays["w_out"], before.arrays["w_out"], atol=1e-6)
    half = tmp_path / "half.txt"
    half.write_text("\n".join(texts[: len(texts) // 2]) + "\n", encoding="utf-8")
    halved = wordvec.train(half, init=tmp_path / "d.wv", **options).arrays["doc_vectors"]
    moved = np.any(halved != docs_before, axis=1)
    assert moved[: len(texts) // 2].mean() > 0.9 and not moved[len(texts) // 2 :].any()
    more = tmp_path / "more.txt"
    more.write_text("\n".join(texts + ["one more line"]) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="document vectors and the corpus .* lines"):
        wordvec.train(more, init=tmp_path / "d.wv", **options)


@pytest.mark.parametrize(
    "options, message",
    [
        (["--arch", "cbow"], "--arch cbow does not apply to --model doc2vec (only dbow or dm)"),
        (
            ["--loss", "softmax"],
            "--loss softmax does not apply to --model doc2vec (only ns, hs or hs+ns)",
        ),
        (["--dbow-words"], "--dbow-words does not apply with --arch dm (only --arch dbow)"),
    ],
)
def test_options_that_do_not_apply_are_errors(options, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        TrainConfig(model="doc2vec", **_as_config(options)).resolved()


def test_a_summed_context_applies_to_cbow_and_pv_dm_only():
    assert TrainConfig(model="cbow", context="sum").resolved().context == "sum"
    assert TrainConfig(model="doc2vec", context="sum").resolved().arch == "dm"
    for options, message in [
        (dict(model="doc2vec", arch="dbow"), "--context does not apply with --arch dbow"),
        (dict(model="sg"), "--context does not apply to --model sg"),
        (dict(model="fasttext", arch="cbow"), "--context does not apply to --model fasttext"),
    ]:
        with pytest.raises(ConfigError, match=message):
            TrainConfig(context="sum", **options).resolved()


def _as_config(options: list[str]) -> dict:
    name = options[0].removeprefix("--").replace("-", "_")
    return {name: options[1] if len(options) > 1 else True}


def test_the_last_learning_rate_is_gensims_and_inference_takes_the_models(tmp_path):
    """doc2vec ends at gensim's min_alpha, 0.0001 (or alpha, if lower), the word models at
    word2vec's alpha * 0.0001; inference ends at the model's own, and a model file whose
    min_alpha is no learning rate is refused when loaded."""
    from wordvec.errors import FormatError
    from wordvec.model import Model

    assert TrainConfig(model="doc2vec").resolved().min_alpha == 1e-4
    assert TrainConfig(model="doc2vec", alpha=5e-5).resolved().min_alpha == 5e-5
    assert TrainConfig(model="cbow", alpha=0.05).resolved().min_alpha == 0.05 * 1e-4
    corpus = tmp_path / "docs.txt"
    corpus.write_text("a b c d a b\nc d a b c d\nb a d c\n" * 5, encoding="utf-8")
    model = wordvec.train(corpus, model="doc2vec", dim=8, min_count=1, sample=0, quiet=True)
    inferred = model.infer_vectors([["a", "b", "c"]])
    np.testing.assert_array_equal(model.infer_vectors([["a", "b", "c"]], min_alpha=1e-4), inferred)
    assert not np.array_equal(model.infer_vectors([["a", "b", "c"]], min_alpha=0.02), inferred)
    for value in ("x", -1.0):
        damaged = Model(model.vocab, model.vectors, settings={**model.settings, "min_alpha": value},
                        arrays=model.arrays)  # fmt: skip
        damaged.save(tmp_path / "d.wv")
        with pytest.raises(FormatError, match="corrupt"):
            Model.load(tmp_path / "d.wv")


def test_pv_dbow_keeps_its_copies_of_the_upper_nodes_beside_the_window_step():
    """On several threads with hierarchical softmax, PV-DBOW's document steps write the upper
    Huffman nodes once a word, so each thread keeps its copies of them, even where its words
    take skip-gram's window step (which alone writes a path once a window, and copies none):
    without them two threads trained dbow + words 1.2x slower (2.11 s against 1.76 s)."""
    from wordvec.training.windows import thread_copies

    def plan(**options):
        config = TrainConfig(loss="hs", threads=2, **options).resolved()
        return thread_copies(config, own_rows(1000), 1000)

    assert plan(model="doc2vec", arch="dbow", dbow_words=True).out_rows > 0
    assert plan(model="doc2vec", arch="dbow").out_rows > 0
    assert plan(model="sg").out_rows == 0
