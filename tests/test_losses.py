"""Hierarchical softmax, both it and negative sampling at once, and the full softmax: golden
values, gradients, Huffman codes, and the reported loss against a direct computation."""

import math

import numpy as np
import pytest

import wordvec
from wordvec.corpus.huffman import build_huffman
from wordvec.corpus.output_layer import build_output_layer, loss_memory
from wordvec.corpus.output_layer import output_layer as make_output_layer
from wordvec.kernels.copies import NO_COPIES, merge_copies, start_copies
from wordvec.kernels.logistic import logistic_updates
from wordvec.kernels.losses import (
    FULL_SOFTMAX,
    HIERARCHICAL_SOFTMAX,
    add_path_targets,
    first_noise,
    loss_update,
)
from wordvec.kernels.softmax import full_softmax_update
from wordvec.kernels.windows import (
    CBOW,
    LOSS_EXACT,
    PV_DBOW,
    PV_DBOW_WORDS,
    SKIP_GRAM,
    Sampling,
    window_job,
)
from wordvec.training.config import TrainConfig
from wordvec.training.copies import COPIED_NODES
from wordvec.training.windows import own_rows, window_memory


def test_full_softmax_golden_example_from_the_course():
    """Vocabulary [I, like, cats, dogs, pizza]; h = cats = (0, 0); frozen output vectors."""
    u = np.array([[0, 1], [1, 0], [0, -1], [-1, 0], [0, 0]], np.float32)
    h, like = np.zeros(2, np.float32), 1
    grad, scores = np.zeros(2, np.float32), np.zeros(5, np.float32)
    loss = full_softmax_update(h, like, grad, 0.5, u.copy(), scores)  # a copy: U stays frozen
    assert loss == pytest.approx(math.log(5), abs=1e-6)  # 1.609438
    np.testing.assert_allclose(scores / scores.sum(), [0.2] * 5, atol=1e-7)
    np.testing.assert_allclose(grad / -0.5, [-1, 0], atol=1e-7)  # dLoss/dh
    h += grad  # one SGD step with learning rate 0.5
    np.testing.assert_allclose(h, [0.5, 0], atol=1e-7)
    loss = full_softmax_update(h, like, np.zeros(2, np.float32), 0.0, u.copy(), scores)
    assert scores[like] / scores.sum() == pytest.approx(0.313728, abs=1e-6)
    assert loss == pytest.approx(1.159228, abs=1e-6)


@pytest.mark.parametrize("dim", [3, 16, 37, 100])
def test_full_softmax_step_at_every_width_equals_numpy(dim):
    """Rows of whole SIMD chunks and a narrower last one, seven rows (a pass of four and three
    alone): the loss, the step for h and every row's step against float64 NumPy."""
    rng = np.random.default_rng(dim)
    h = rng.normal(size=dim).astype(np.float32)
    w_out = rng.normal(size=(7, dim)).astype(np.float32) * np.float32(0.3)
    target, alpha = 5, 0.2
    scores64 = w_out.astype(np.float64) @ h
    p = np.exp(scores64 - scores64.max())
    p /= p.sum()
    steps = alpha * ((np.arange(7) == target) - p)
    grad = np.zeros(dim, np.float32)
    expected_w = w_out.astype(np.float64) + np.outer(steps, h)
    loss = full_softmax_update(h, target, grad, alpha, w_out, np.zeros(7, np.float32))
    assert loss == pytest.approx(-math.log(p[target]), rel=1e-5)
    np.testing.assert_allclose(grad, steps @ (expected_w - np.outer(steps, h)), atol=1e-5)
    np.testing.assert_allclose(w_out, expected_w, rtol=1e-5, atol=1e-6)


def test_full_softmax_is_stable_for_huge_scores():
    u = np.array([[1000, 0], [-1000, 0], [0, 0]], np.float32)
    h = np.array([1, 0], np.float32)
    loss = full_softmax_update(h, 0, np.zeros(2, np.float32), 0.0, u, np.zeros(3, np.float32))
    assert loss == pytest.approx(0.0, abs=1e-6)
    loss = full_softmax_update(h, 2, np.zeros(2, np.float32), 0.0, u, np.zeros(3, np.float32))
    assert loss == pytest.approx(1000.0, rel=1e-6)


def test_huffman_hand_example():
    # counts 5 3 2 1: merge (1, 2) -> 3, then (3, 3) -> 6, then (5, 6) -> 11 (word2vec's order)
    codes, points, lengths = build_huffman(np.array([5, 3, 2, 1]))
    assert lengths.tolist() == [1, 2, 3, 3]
    as_strings = ["".join(map(str, codes[w, : lengths[w]])) for w in range(4)]
    assert as_strings == ["0", "11", "101", "100"]
    assert [points[w, : lengths[w]].tolist() for w in range(4)] == [
        [2],
        [2, 1],
        [2, 1, 0],
        [2, 1, 0],
    ]


@pytest.mark.parametrize("seed", range(4))
def test_huffman_invariants(seed):
    rng = np.random.default_rng(seed)
    counts = np.sort(rng.zipf(1.2, rng.integers(2, 400)))[::-1]
    codes, points, lengths = build_huffman(counts)
    n = len(counts)
    words = ["".join(map(str, codes[w, : lengths[w]])) for w in range(n)]
    assert len(set(words)) == n
    assert not any(a != b and b.startswith(a) for a in words for b in words)  # prefix-free
    assert np.all(np.diff(lengths) >= 0)  # rarer words never get shorter codes
    assert sum(2.0**-length for length in lengths) == pytest.approx(1.0)  # a full tree
    used = {int(points[w, i]) for w in range(n) for i in range(lengths[w])}
    assert used == set(range(n - 1))  # V - 1 inner nodes, every one on some path
    assert all(points[w, 0] == n - 2 for w in range(n))  # every path starts at the root
    # the expected code length is optimal: no worse than the entropy + 1
    p = counts / counts.sum()
    assert (p * lengths).sum() <= -(p * np.log2(p)).sum() + 1


def output_layer(kind, n_words, dim, rng, counts=None):
    if kind == HIERARCHICAL_SOFTMAX:
        codes, points, lengths = build_huffman(counts)
        w_out = rng.normal(scale=0.5, size=(n_words - 1, dim)).astype(np.float32)
        return make_output_layer("hs", w_out, huffman=(codes, points, lengths))
    w_out = rng.normal(scale=0.5, size=(n_words, dim)).astype(np.float32)
    return make_output_layer("softmax", w_out)


def direct_loss(kind, h, target, out):
    """The loss of predicting ``target`` from ``h``, in float64 NumPy."""
    w = out.w_out.astype(np.float64)
    if kind == FULL_SOFTMAX:
        scores = w @ h
        return float(np.logaddexp.reduce(scores) - scores[target])
    loss = 0.0
    for i in range(out.code_lengths[target]):
        f = w[out.points[target, i]] @ h
        label = 1 - out.codes[target, i]
        loss += np.logaddexp(0.0, -f) if label else np.logaddexp(0.0, f)
    return float(loss)


def primitive_step(kind, h, target, out):
    """One step of the output layer with alpha = 1; returns (loss, -dL/dh)."""
    grad = np.zeros(len(h), np.float32)
    if kind == FULL_SOFTMAX:
        scores = np.zeros(out.w_out.shape[0], np.float32)
        return full_softmax_update(h, target, grad, 1.0, out.w_out, scores), grad
    targets, labels = np.zeros(64, np.int32), np.zeros(64, np.float32)
    n = add_path_targets(
        target, out.codes, out.points, out.code_lengths, targets, labels, 0, NO_COPIES
    )
    dots = np.zeros(64, np.float32)
    return logistic_updates(h, out.w_out, targets, labels, n, grad, 1.0, dots, True), grad


@pytest.mark.parametrize("kind", [HIERARCHICAL_SOFTMAX, FULL_SOFTMAX], ids=["hs", "softmax"])
@pytest.mark.parametrize("n_inputs", [1, 3], ids=["sg", "cbow"])
def test_gradients_match_finite_differences(kind, n_inputs):
    """One step with alpha = 1 moves h by -dL/dh and w_out by -dL/dw_out. The hidden vector is
    one input row (skip-gram) or the mean of three (CBOW)."""
    rng = np.random.default_rng(7)
    n_words, dim, target = 9, 4, 5
    counts = np.sort(rng.integers(1, 100, n_words))[::-1]
    out = output_layer(kind, n_words, dim, rng, counts)
    w_in = rng.normal(scale=0.5, size=(n_words, dim)).astype(np.float32)
    h = w_in[[1, 4, 6][:n_inputs]].mean(axis=0)
    h64, before_out = h.astype(np.float64), out.w_out.astype(np.float64).copy()

    eps = 1e-6
    numeric_h = np.array(
        [
            (direct_loss(kind, h64 + e, target, out) - direct_loss(kind, h64 - e, target, out))
            / (2 * eps)
            for e in np.eye(dim) * eps
        ]
    )
    numeric_w = np.zeros_like(before_out)
    for idx in np.ndindex(*before_out.shape):
        for sign in (1, -1):
            shifted = before_out.copy()
            shifted[idx] += sign * eps
            probe = out._replace(w_out=shifted)
            numeric_w[idx] += sign * direct_loss(kind, h64, target, probe) / (2 * eps)

    loss, grad = primitive_step(kind, h, target, out)
    assert loss == pytest.approx(
        direct_loss(kind, h64, target, out._replace(w_out=before_out)), rel=1e-5
    )
    np.testing.assert_allclose(grad, -numeric_h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out.w_out - before_out, -numeric_w, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", [HIERARCHICAL_SOFTMAX, FULL_SOFTMAX], ids=["hs", "softmax"])
@pytest.mark.parametrize("cbow", [False, True], ids=["sg", "cbow"])
def test_window_job_equals_numpy(kind, cbow):
    """A whole job with hs or softmax equals the same steps in NumPy (no randomness: window 1,
    no subsampling): one step per predicted word, h from the input rows, the gradient added to
    every input row."""
    rng = np.random.default_rng(5)
    n_words, dim, alpha = 6, 3, 0.3
    out = output_layer(kind, n_words, dim, rng, np.array([9, 7, 5, 3, 2, 1]))
    w_in = rng.normal(scale=0.5, size=(n_words, dim)).astype(np.float32)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    sentence = [0, 3, 1, 5, 2]
    for i, word in enumerate(sentence):
        context = [sentence[j] for j in (i - 1, i + 1) if 0 <= j < len(sentence)]
        inputs, predictions = (context, [word]) if cbow else ([word], context)
        for target in predictions:  # one step per predicted word
            h = ref_in[inputs].mean(axis=0)
            grad = np.zeros(dim)
            if kind == FULL_SOFTMAX:
                scores = ref_out @ h
                p = np.exp(scores - scores.max())
                g = alpha * ((np.arange(n_words) == target) - p / p.sum())
                grad += g @ ref_out
                ref_out += np.outer(g, h)
            else:
                nodes = [
                    (out.points[target, k], 1 - out.codes[target, k])
                    for k in range(out.code_lengths[target])
                ]
                scores = [ref_out[node] @ h for node, _ in nodes]
                for (node, label), f in zip(nodes, scores):
                    g = alpha * (label - 1 / (1 + np.exp(-f)))
                    grad += g * ref_out[node]
                    ref_out[node] += g * h
            for row in inputs:
                ref_in[row] += grad

    config = TrainConfig(
        loss="softmax" if kind == FULL_SOFTMAX else "hs", dim=dim, window=1, threads=1
    ).resolved()
    scratch = window_memory(config, out, 1)
    sampling = Sampling(np.ones(n_words, np.float32), 1, 1000)
    ids = np.array([*sentence, -1], np.int32)
    model = CBOW if cbow else SKIP_GRAM
    window_job(ids, 5, alpha, alpha, model, w_in, own_rows(n_words), out, sampling, scratch)
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kind", [HIERARCHICAL_SOFTMAX, FULL_SOFTMAX], ids=["hs", "softmax"])
@pytest.mark.parametrize("cbow", [False, True], ids=["sg", "cbow"])
def test_reported_loss_equals_direct_computation(kind, cbow):
    """With a zero learning rate the loss a job reports is the plain sum over its predictions."""
    rng = np.random.default_rng(3)
    n_words, dim = 6, 3
    out = output_layer(kind, n_words, dim, rng, np.array([9, 7, 5, 3, 2, 1]))
    w_in = rng.normal(size=(n_words, dim)).astype(np.float32)
    sentence = [0, 3, 1, 5, 2]
    config = TrainConfig(
        loss="softmax" if kind == FULL_SOFTMAX else "hs", dim=dim, window=1, threads=1
    ).resolved()
    scratch = window_memory(config, out, 1)
    sampling = Sampling(np.ones(n_words, np.float32), 1, 1000)  # reach is always 1
    ids = np.array([*sentence, -1], np.int32)
    model = CBOW if cbow else SKIP_GRAM
    loss, predictions, _, _ = window_job(
        ids, 5, 0.0, 0.0, model, w_in, own_rows(n_words), out, sampling, scratch
    )
    expected, count = 0.0, 0
    for i, word in enumerate(sentence):
        context = [sentence[j] for j in (i - 1, i + 1) if 0 <= j < len(sentence)]
        if not cbow:
            for c in context:
                expected += direct_loss(kind, w_in[word].astype(np.float64), c, out)
                count += 1
        else:
            expected += direct_loss(kind, w_in[context].astype(np.float64).mean(0), word, out)
            count += 1
    assert predictions == count
    assert loss == pytest.approx(expected, rel=1e-5)


@pytest.mark.parametrize(
    "model", [SKIP_GRAM, CBOW, PV_DBOW, PV_DBOW_WORDS], ids=["sg", "cbow", "dbow", "dbow+words"]
)
def test_a_long_jobs_loss_is_a_sample_scaled_to_all_its_predictions(model):
    """Past a job's first LOSS_EXACT steps the loss is computed for one in LOSS_SAMPLE and
    scaled to all of them (PV-DBOW's document steps and the window steps in one sample): with
    a zero learning rate, within 3% of the plain sum over the predictions (a sample not scaled,
    or scaled twice, or one kind of step left out of the count, is 25-80% off)."""
    rng = np.random.default_rng(4)
    n_words, dim = 30, 8
    out = output_layer(HIERARCHICAL_SOFTMAX, n_words, dim, rng, np.arange(n_words, 0, -1))
    w_in = rng.normal(size=(n_words + 1, dim)).astype(np.float32)  # the last: the document's
    sentence = rng.integers(0, n_words, 4000)
    config = TrainConfig(
        loss="hs", dim=dim, window=1, threads=1, max_sentence_length=len(sentence)
    ).resolved()
    documents = np.array([n_words], np.int64), np.array([0, 1], np.int64)  # line 0: row V
    sampling = Sampling(np.ones(n_words, np.float32), 1, len(sentence), *documents)  # reach 1
    ids = np.array([*sentence, -1], np.int32)
    loss, predictions, _, _ = window_job(
        ids, len(sentence), 0.0, 0.0, model, w_in, own_rows(n_words), out, sampling,
        window_memory(config, out, 1),
    )  # fmt: skip
    expected, count = 0.0, 0
    for i, word in enumerate(sentence):
        context = [sentence[j] for j in (i - 1, i + 1) if 0 <= j < len(sentence)]
        if model == CBOW:
            expected += direct_loss(HIERARCHICAL_SOFTMAX, w_in[context].mean(0), word, out)
            count += 1
            continue
        for c in context if model != PV_DBOW else ():
            expected += direct_loss(HIERARCHICAL_SOFTMAX, w_in[word], c, out)
            count += 1
        if model in (PV_DBOW, PV_DBOW_WORDS):
            expected += direct_loss(HIERARCHICAL_SOFTMAX, w_in[n_words], word, out)
            count += 1
    assert predictions == count > 10 * LOSS_EXACT
    assert loss == pytest.approx(expected, rel=0.03)


@pytest.mark.parametrize("seed", range(3))
def test_both_layers_step_is_the_hs_step_plus_the_ns_step(seed):
    """``hs+ns`` (word2vec's ``-hs 1 -negative 5``): one step is hierarchical softmax's and
    negative sampling's from the same ``h``, as word2vec adds both to one ``neu1e``: the loss
    and the step for ``h`` are the sums, the words' rows move as negative sampling moves them
    and the tree's rows after them as hierarchical softmax does; the noise words are the ones
    negative sampling draws from the same generator state."""
    rng = np.random.default_rng(seed)
    counts = np.sort(rng.integers(1, 500, 40))[::-1]
    words, dim, alpha, target = len(counts), 8, 0.2, int(rng.integers(0, 40))
    both = build_output_layer("hs+ns", counts, dim, negative=5)
    both.w_out[:] = rng.normal(scale=0.5, size=both.w_out.shape)
    alone = {
        "ns": build_output_layer("ns", counts, dim, negative=5)._replace(
            w_out=both.w_out[:words].copy()
        ),
        "hs": build_output_layer("hs", counts, dim)._replace(w_out=both.w_out[words:].copy()),
    }
    h = rng.normal(scale=0.5, size=dim).astype(np.float32)

    def step(out):
        memory = loss_memory(out, dim)
        memory.rng[0] = 1000 + seed
        first_noise(out.kind, out, memory, NO_COPIES, True)
        grad = np.zeros(dim, np.float32)
        positives = np.array([target], np.int32)
        loss = loss_update(out.kind, out, memory, h, grad, alpha, positives, 0, 1, NO_COPIES, True)
        return loss, grad

    loss, grad = step(both)
    (ns_loss, ns_grad), (hs_loss, hs_grad) = step(alone["ns"]), step(alone["hs"])
    assert loss == pytest.approx(ns_loss + hs_loss, rel=1e-5)
    np.testing.assert_allclose(grad, ns_grad + hs_grad, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(both.w_out[:words], alone["ns"].w_out, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(both.w_out[words:], alone["hs"].w_out, rtol=1e-6, atol=1e-7)
    assert np.abs(ns_grad).sum() > 0 and np.abs(hs_grad).sum() > 0


def test_update_through_a_jobs_copies_of_the_upper_nodes_equals_the_plain_update():
    """With several threads, a job trains its own copies of the rows nearest the Huffman root,
    kept in spare rows: one prediction's update through them, merged, is the plain update."""
    rng = np.random.default_rng(5)
    n_words, dim, n_hot = 40, 8, 6
    out = output_layer(HIERARCHICAL_SOFTMAX, n_words, dim, rng, np.arange(n_words, 0, -1) * 3)
    h = rng.normal(size=dim).astype(np.float32)
    inner = out.w_out.shape[0]
    hot_first = inner - n_hot  # the root and its nearest descendants

    def step(w_out, copies):
        targets, labels = np.zeros(64, np.int32), np.zeros(64, np.float32)
        n = add_path_targets(
            n_words - 1, out.codes, out.points, out.code_lengths, targets, labels, 0, copies
        )
        grad = np.zeros(dim, np.float32)
        loss = logistic_updates(
            h, w_out, targets, labels, n, grad, 0.5, np.zeros(64, np.float32), True
        )
        return loss, grad, targets[:n]

    plain = out.w_out.copy()
    loss_plain, grad_plain, _ = step(plain, NO_COPIES)
    at = inner + 2 * n_hot  # the second thread's block of spare rows
    shared = np.vstack([out.w_out, np.zeros((3 * n_hot, dim), np.float32)])
    base = np.zeros((n_hot, dim), np.float32)
    start_copies(shared, hot_first, n_hot, at, base)
    loss, grad, rows = step(shared, (hot_first, n_hot, at))
    assert 0 < np.sum(rows >= inner) < len(rows)  # the path crosses copied and shared rows
    assert loss == pytest.approx(loss_plain, rel=1e-6)
    np.testing.assert_allclose(grad, grad_plain, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(shared[hot_first:inner], out.w_out[hot_first:])  # not yet
    merge_copies(shared, hot_first, n_hot, at, base)
    np.testing.assert_allclose(shared[:inner], plain, rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(shared[at : at + n_hot], shared[hot_first:inner])


@pytest.mark.parametrize("model", ["cbow", "fasttext"])
def test_two_threads_on_one_job_train_as_one_thread(tmp_path, model):
    """One job is trained by one thread, whatever the thread count: with two threads it goes
    through its copies of the upper Huffman nodes and their merge, and must give one thread's
    vectors."""
    # sentences of 1,000, 1,000 and 500 words: the last merged only at the job's end
    words = [f"w{i}" for i in np.random.default_rng(0).zipf(1.3, 2500) % 400]
    corpus = tmp_path / "one-job.txt"
    corpus.write_text(" ".join(words) + "\n")
    options = dict(model=model, loss="hs", negative=0, epochs=1, min_count=1, seed=2, quiet=True)
    if model == "fasttext":
        options.update(arch="cbow", bucket=1000)
    one = wordvec.train(corpus, threads=1, **options)
    two = wordvec.train(corpus, threads=2, **options)
    assert len(one.vocab) > COPIED_NODES  # more inner nodes than the copied ones
    np.testing.assert_allclose(two.vectors, one.vectors, rtol=1e-4, atol=1e-5)
    # the copies' changes were merged into the output weights
    np.testing.assert_allclose(two.arrays["w_out"], one.arrays["w_out"], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("loss", ["softmax", "ova"])
def test_a_classifiers_two_threads_on_one_job_train_as_one_thread(tmp_path, loss):
    """The losses over every row train a job on its copies of every output row, merged at its
    end: one job on two threads gives one thread's classifier."""
    rng = np.random.default_rng(3)
    lines = [
        f"__label__{k % 5} " + " ".join(f"w{w}" for w in rng.integers(0, 50, 8)) for k in range(600)
    ]
    corpus = tmp_path / "one-job.txt"
    corpus.write_text("\n".join(lines) + "\n")  # 5,400 tokens: one job
    options = dict(model="supervised", loss=loss, epochs=1, seed=2, quiet=True)
    one = wordvec.train(corpus, threads=1, **options)
    two = wordvec.train(corpus, threads=2, **options)
    assert two.arrays["w_out"].shape == one.arrays["w_out"].shape == (5, 100)
    np.testing.assert_allclose(two.arrays["w_out"], one.arrays["w_out"], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(two.vectors, one.vectors, rtol=1e-4, atol=1e-5)
