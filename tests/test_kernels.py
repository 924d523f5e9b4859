"""The jitted kernels against plain NumPy: activations, one logistic step, and whole skip-gram
and CBOW windows on a tiny corpus where every random draw is known."""

import re

import numpy as np
import pytest
from numba import njit

from wordvec.corpus.huffman import build_huffman
from wordvec.corpus.output_layer import build_alias_table, output_layer, pack_alias_table
from wordvec.kernels.activations import exp_f32, logistic_steps
from wordvec.kernels.copies import NO_COPIES, copy_of, merge_copies, start_copies
from wordvec.kernels.logistic import logistic_updates, shared_logistic_updates
from wordvec.kernels.losses import alias_split, draw_noise
from wordvec.kernels.prefetch import prefetch_row
from wordvec.kernels.rng import below_and_coin, next_u64, rand_below, rand_unit, seed_state
from wordvec.kernels.rows import add_to_rows, mean_of_rows
from wordvec.kernels.windows import (
    CBOW,
    SKIP_GRAM,
    SKIP_GRAM_SHARED_TARGETS,
    InputRows,
    Sampling,
    window_job,
)
from wordvec.training.config import TrainConfig
from wordvec.training.copies import (
    COPIED_NODES,
    COPIED_WORDS,
    CopyPlaces,
    CopyPlan,
    label_copies,
    window_copies,
)
from wordvec.training.windows import own_rows, window_memory


def skipgram_job(ids, words, alpha_start, alpha_end, *rest):
    return window_job(ids, words, alpha_start, alpha_end, SKIP_GRAM, *rest)


def cbow_job(ids, words, alpha_start, alpha_end, *rest):
    return window_job(ids, words, alpha_start, alpha_end, CBOW, *rest)


def shared_targets_job(ids, words, alpha_start, alpha_end, *rest):
    return window_job(ids, words, alpha_start, alpha_end, SKIP_GRAM_SHARED_TARGETS, *rest)


def exact_sigmoid(x):
    return np.exp(-np.logaddexp(0.0, -np.asarray(x, dtype=np.float64)))


def logloss(f, labels):
    """Binary logistic loss of scores f (float64)."""
    return float(np.sum(np.logaddexp(0.0, -f) * labels + np.logaddexp(0.0, f) * (1 - labels)))


def test_exp_f32_is_within_one_float32_ulp():
    x = np.concatenate([np.linspace(-44, 44, 20_001), [-44, -1e-6, 0, 1e-6, 44]]).astype(np.float32)
    ours = np.array([exp_f32(v) for v in x])
    assert np.max(np.abs(ours / np.exp(x.astype(np.float64)) - 1)) < 2.0**-23


def test_logistic_steps_and_their_loss_are_exact_to_float32():
    """Step sizes to float32 rounding and each target's loss to 1e-7 (or 1e-15), far beyond the
    clamp at +-40, and without overflow up to the 1,000 targets it takes, however wrong."""
    bounded = np.linspace(-45, 45, 901)
    scores = np.concatenate([bounded, [-700.0, 700.0, -1e30, 1e30, 17.5, -17.5]]).astype(np.float32)
    f = scores.astype(np.float64)
    for label in (0, 1):
        labels = np.full(len(scores), label, np.float32)
        steps = scores.copy()
        loss = logistic_steps(steps, labels, len(bounded), 0.5, True)  # all at once: the SIMD loop
        loss += logistic_steps(steps[len(bounded) :], labels, len(scores) - len(bounded), 0.5, True)
        error = exact_sigmoid(-f) if label else -exact_sigmoid(f)  # label - sigmoid(f)
        np.testing.assert_allclose(steps, 0.5 * error, rtol=3e-7, atol=3e-18)
        assert loss == pytest.approx(logloss(f, labels), rel=1e-7)
        each = [
            logistic_steps(scores[t : t + 1].copy(), labels, 1, 0.5, True) for t in range(len(f))
        ]
        expected = [logloss(f[t : t + 1], labels[:1]) for t in range(len(f))]
        np.testing.assert_allclose(each, expected, rtol=1e-7, atol=1e-15)
    wrong = np.full(40, -100.0, np.float32)
    assert logistic_steps(wrong, np.ones(40, np.float32), 40, 0.1, True) == pytest.approx(4000.0)
    # The most targets it takes, each with the largest factor, 2, of the loss's product.
    undecided = np.zeros(1000, np.float32)
    loss = logistic_steps(undecided, np.ones(1000, np.float32), 1000, 0.1, True)
    assert loss == pytest.approx(1000 * np.log(2.0)) and np.all(undecided == np.float32(0.05))


@pytest.mark.parametrize("n, where", [(3, 1), (20, 13)])  # the scalar and the SIMD part
def test_nan_score_makes_the_loss_nan(n, where):
    for label in (0, 1):
        scores = np.linspace(-3, 3, n).astype(np.float32)
        scores[where] = np.nan
        assert np.isnan(logistic_steps(scores, np.full(n, label, np.float32), n, 0.1, True))


def test_rng_is_uniform_and_seeded():
    state = np.array([seed_state(1, 0, 0)], dtype=np.uint64)
    draws = np.array([rand_below(state, 10) for _ in range(20_000)])
    assert np.bincount(draws, minlength=10).min() > 1800
    units = np.array([rand_unit(state) for _ in range(20_000)])
    assert units.min() >= 0 and units.max() < 1 and abs(units.mean() - 0.5) < 0.01
    a = np.array([seed_state(1, 2, 3)], dtype=np.uint64)
    b = np.array([seed_state(1, 2, 4)], dtype=np.uint64)
    assert [next_u64(a) for _ in range(3)] != [next_u64(b) for _ in range(3)]
    assert seed_state(5, 1) == seed_state(5, 1)


def test_index_and_coin_from_one_draw_are_independent():
    """The alias method needs the column and the coin independent: a 2-D chi-square over
    (index, coin decile) cells stays near its degrees of freedom."""
    state = np.array([seed_state(9, 9)], dtype=np.uint64)
    cells = np.zeros((10, 10))
    for _ in range(50_000):
        index, coin = below_and_coin(np.uint64(next_u64(state)), 10)
        assert 0 <= coin < 2**32
        cells[index, int(coin) * 10 >> 32] += 1
    expected = 500.0
    chi2 = ((cells - expected) ** 2 / expected).sum()
    assert chi2 < 99 + 4 * np.sqrt(2 * 99)  # 99 degrees of freedom, 4 sigma


@njit(cache=True)
def _noise_counts(table, split, draws, negative, seed):
    """How often ``draws`` calls of draw_noise (``negative`` words each) drew each word from
    ``table``, whose entries divide as ``split``."""
    noise = np.zeros(negative, np.int32)
    rows = np.zeros((table.shape[0], 4), np.float32)  # what the draws prefetch
    rng = np.array([seed], np.uint64)
    counts = np.zeros(table.shape[0], np.int64)
    for _ in range(draws):
        draw_noise(negative, table, split, noise, rng, rows, NO_COPIES, True)
        for word in noise:
            counts[word] += 1
    return counts


def _prefetch_intents(function, *args) -> set[str]:
    """The read/write argument of every ``llvm.prefetch`` in ``function``'s code (compiled
    here, not cached): "0" to read, "1" to write."""
    function(*args)
    code = "".join(function.inspect_llvm().values())
    return set(re.findall(r"@llvm\.prefetch\.p0\(ptr [^,]+, i32 (\d)", code))


def test_rows_to_write_are_prefetched_to_write_and_rows_to_read_to_read():
    """Training's rows come owned (``prefetchw``, no second trip when written); inference's,
    only read by several threads, come shared."""
    rows = np.zeros((8, 112), np.float32)
    assert _prefetch_intents(njit(lambda m: prefetch_row(m, 1, False)), rows) == {"0"}
    assert _prefetch_intents(njit(lambda m: prefetch_row(m, 1, True)), rows) == {"1"}
    table = pack_alias_table(build_alias_table(np.full(8, 1 / 8)))
    split = alias_split(8, 32)
    noise, rng = np.zeros(5, np.int32), np.array([1], np.uint64)

    def drawing(writes):
        return njit(lambda t, n, r, m: draw_noise(5, t, split, n, r, m, NO_COPIES, writes))

    assert _prefetch_intents(drawing(True), table, noise, rng, rows) == {"1"}
    assert _prefetch_intents(drawing(False), table, noise, rng, rows) == {"0"}


def test_drawn_noise_words_follow_the_distribution():
    """The kernel's draws from the packed table (4-byte entries) against the distribution: a
    chi-square near its degrees of freedom, and no word of probability 0 drawn."""
    rng = np.random.default_rng(8)
    p = rng.random(60) ** 3
    p[[5, 17]] = 0.0
    table = pack_alias_table(build_alias_table(p))
    split = alias_split(table.shape[0], 8 * table.itemsize)
    counts = _noise_counts(table, split, 40_000, 5, seed_state(8))
    assert counts[[5, 17]].sum() == 0
    used = p > 0
    expected = counts.sum() * p[used] / p.sum()
    chi2 = ((counts[used] - expected) ** 2 / expected).sum()
    dof = used.sum() - 1
    assert chi2 < dof + 4 * np.sqrt(2 * dof)


def random_case(seed, n_words=7, dim=5):
    rng = np.random.default_rng(seed)
    return rng.normal(size=dim).astype(np.float32), rng.normal(size=(n_words, dim)).astype(
        np.float32
    )


@pytest.mark.parametrize("seed", range(3))
def test_logistic_updates_equal_numpy_step(seed):
    h, w_out = random_case(seed)
    rows, labels = np.array([2, 4, 5], np.int32), np.array([1, 0, 0], np.float32)
    alpha = 0.1
    f = w_out[rows].astype(np.float64) @ h
    g = (labels - exact_sigmoid(f)) * alpha
    expected_grad = g @ w_out[rows]
    expected_w = w_out.astype(np.float64).copy()
    expected_w[rows] += np.outer(g, h)

    grad = np.zeros_like(h)
    loss = logistic_updates(h, w_out, rows, labels, 3, grad, alpha, np.zeros(3, np.float32), True)
    assert loss == pytest.approx(logloss(f, labels), rel=1e-5)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w_out, expected_w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim", [3, 16, 37, 100])
def test_logistic_updates_at_every_width_take_the_targets_in_turn(dim):
    """Rows of whole SIMD chunks and a narrower last one: the scores all at the weights before
    the step, then each target's update in turn, so a row listed twice (a noise word drawn
    twice) gives its second gradient through its first update."""
    h, w_out = random_case(dim, n_words=8, dim=dim)
    rows = np.array([2, 4, 5, 4, 1, 6], np.int32)
    labels = np.array([1, 0, 0, 0, 0, 0], np.float32)
    alpha = 0.1
    expected_w = w_out.astype(np.float64)
    steps = alpha * (labels - exact_sigmoid(expected_w[rows] @ h))
    expected_grad = np.zeros(dim)
    for row, step in zip(rows, steps):
        expected_grad += step * expected_w[row]
        expected_w[row] += step * h

    grad = np.full_like(h, np.nan)  # set, not added to
    logistic_updates(h, w_out, rows, labels, len(rows), grad, alpha, np.zeros(6, np.float32), True)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w_out, expected_w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dim", [3, 16, 37, 100])
def test_the_mean_of_rows_and_a_step_to_each(dim):
    """The input vector of a window (the mean of its rows, one listed twice) and its step
    added to each listed row, at widths of whole SIMD chunks and a narrower last one."""
    w_in = np.random.default_rng(dim).normal(size=(6, dim)).astype(np.float32)
    rows = np.array([9, 1, 4, 1, 3], np.int32)  # rows[1:] are the window's
    hidden, step = np.zeros(dim, np.float32), np.linspace(-1, 1, dim, dtype=np.float32)
    expected = w_in.astype(np.float64)
    mean_of_rows(w_in, rows, 1, 5, hidden)
    np.testing.assert_allclose(hidden, expected[rows[1:]].mean(axis=0), rtol=1e-5, atol=1e-6)
    add_to_rows(w_in, rows, 1, 5, step)
    for row in rows[1:]:
        expected[row] += step
    np.testing.assert_allclose(w_in, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_logistic_gradient_matches_finite_differences(seed):
    """With alpha = 1 the kernel's steps are minus the gradient of the summed logistic loss."""
    h, w_out = random_case(seed)
    rows, labels = np.array([1, 3, 6, 0], np.int32), np.array([1, 0, 0, 1], np.float32)

    def loss_at(h_, w_):
        return logloss(w_[rows] @ h_, labels)

    eps = 1e-6
    h64, w64 = h.astype(np.float64), w_out.astype(np.float64)
    numeric_h = np.array(
        [(loss_at(h64 + e, w64) - loss_at(h64 - e, w64)) / (2 * eps) for e in np.eye(len(h)) * eps]
    )
    numeric_w = np.zeros_like(w64)
    for r in rows:
        for k in range(w64.shape[1]):
            e = np.zeros_like(w64)
            e[r, k] = eps
            numeric_w[r, k] = (loss_at(h64, w64 + e) - loss_at(h64, w64 - e)) / (2 * eps)

    grad = np.zeros_like(h)
    before = w_out.copy()
    logistic_updates(h, w_out, rows, labels, 4, grad, 1.0, np.zeros(4, np.float32), True)
    np.testing.assert_allclose(grad, -numeric_h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(w_out - before, -numeric_w, rtol=1e-4, atol=1e-5)


def numpy_shared_step(inputs, w_out, rows, alpha, labels=None):
    """HogBatch's window step in float64 NumPy: ``rows`` with ``labels`` (by default rows[0]
    is the positive target, the rest noise); all scores at the weights before the step, the
    step sizes, then both gradients as products; a target listed twice counts twice."""
    if labels is None:
        labels = (np.arange(len(rows)) == 0).astype(np.float32)
    i64, o64 = inputs.astype(np.float64), w_out.astype(np.float64)
    scores = i64 @ o64[rows].T  # (inputs, targets)
    steps = alpha * (labels[None, :] - exact_sigmoid(scores))
    input_grads = steps @ o64[rows]
    new_out = o64.copy()
    np.add.at(new_out, rows, steps.T @ i64)
    loss = logloss(scores.ravel(), np.broadcast_to(labels, scores.shape).ravel())
    return loss, input_grads, new_out


def run_shared_step(inputs, w_out, rows, alpha, labels=None):
    """The kernel's step, its inputs given in reverse order through ``slots``; the loss and the
    inputs' steps, which must be both their change and what their sums received."""
    n_in, n = len(inputs), len(rows)
    if labels is None:
        labels = (np.arange(n) == 0).astype(np.float32)
    before = inputs.copy()
    sums = np.full_like(inputs, 0.5)
    slots = np.arange(n_in, dtype=np.int32)[::-1].copy()
    scratch = (np.full_like(inputs, np.nan), np.zeros(n_in * (n + 1), np.float32),
               np.zeros(n_in * n, np.float32))  # fmt: skip
    loss = shared_logistic_updates(
        inputs, sums, slots, n_in, w_out, rows.astype(np.int32), labels.astype(np.float32), n,
        scratch[0], alpha, *scratch[1:],
    )  # fmt: skip
    np.testing.assert_allclose(sums - 0.5, inputs - before, rtol=1e-5, atol=1e-6)
    return loss, inputs - before


@pytest.mark.parametrize(
    ("n_in", "n_targets", "dim"),
    [
        (1, 6, 7), (3, 6, 7), (4, 1, 7), (6, 6, 7), (9, 11, 7),
        (40, 30, 7),  # 40 x 30 > 999: steps in two chunks
        # whole vectors of 8 or 16 floats and a masked rest, every block shape of inputs
        (5, 5, 16), (6, 6, 33), (7, 6, 100), (10, 6, 100), (2, 3, 300),
    ],
)  # fmt: skip
def test_shared_logistic_updates_equal_numpy_step(n_in, n_targets, dim):
    """One window's batched step equals the NumPy version: same scores, step sizes, input
    gradients and output rows, to float32 rounding. Row 2 is the positive and a noise word."""
    rng = np.random.default_rng(n_in * 100 + n_targets)
    n_words = 50
    inputs = rng.normal(scale=0.5, size=(n_in, dim)).astype(np.float32)
    w_out = rng.normal(scale=0.5, size=(n_words, dim)).astype(np.float32)
    rows = np.concatenate([[2], rng.integers(0, n_words, n_targets - 1)])
    if n_targets > 2:
        rows[-1] = 2
    alpha = 0.3
    loss_ref, grads_ref, out_ref = numpy_shared_step(inputs, w_out, rows, alpha)
    loss, grads = run_shared_step(inputs, w_out, rows, alpha)
    assert loss == pytest.approx(loss_ref, rel=1e-5)
    np.testing.assert_allclose(grads, grads_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w_out, out_ref, rtol=1e-5, atol=1e-6)


def test_shared_step_with_one_row_twice_in_a_row_counts_it_twice():
    """Two targets on one row take one update with both step sizes (the rows a block of the
    kernel updates at once must differ), as two updates from the same start would."""
    rng = np.random.default_rng(5)
    inputs = rng.normal(scale=0.5, size=(4, 20)).astype(np.float32)
    w_out = rng.normal(scale=0.5, size=(9, 20)).astype(np.float32)
    rows = np.array([3, 6, 6, 1, 1])
    loss_ref, grads_ref, out_ref = numpy_shared_step(inputs, w_out, rows, 0.2)
    loss, grads = run_shared_step(inputs, w_out, rows, 0.2)
    assert loss == pytest.approx(loss_ref, rel=1e-5)
    np.testing.assert_allclose(grads, grads_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w_out, out_ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("seed", range(2))
def test_shared_logistic_gradient_matches_finite_differences(seed):
    """With alpha = 1 the batched step moves each input by minus its gradient of the window's
    summed loss, and each target row by minus its own."""
    rng = np.random.default_rng(seed)
    n_words, dim, n_in = 6, 4, 5
    inputs = rng.normal(scale=0.5, size=(n_in, dim)).astype(np.float32)
    w_out = rng.normal(scale=0.5, size=(n_words, dim)).astype(np.float32)
    rows, labels = np.array([3, 0, 5, 1]), np.array([[1, 0, 0, 0], [0, 1, 1, 0]][seed])

    def loss_at(i_, o_):
        scores = i_ @ o_[rows].T
        return logloss(scores.ravel(), np.broadcast_to(labels, scores.shape).ravel())

    eps = 1e-6
    i64, o64 = inputs.astype(np.float64), w_out.astype(np.float64)
    numeric_i, numeric_o = np.zeros_like(i64), np.zeros_like(o64)
    for numeric, array, is_input in ((numeric_i, i64, True), (numeric_o, o64, False)):
        for idx in np.ndindex(*array.shape):
            e = np.zeros_like(array)
            e[idx] = eps
            if is_input:
                numeric[idx] = (loss_at(i64 + e, o64) - loss_at(i64 - e, o64)) / (2 * eps)
            else:
                numeric[idx] = (loss_at(i64, o64 + e) - loss_at(i64, o64 - e)) / (2 * eps)

    before = w_out.copy()
    loss, grads = run_shared_step(inputs, w_out, rows, 1.0, labels)
    assert loss == pytest.approx(loss_at(i64, o64), rel=1e-5)
    np.testing.assert_allclose(grads, -numeric_i, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(w_out - before, -numeric_o, rtol=1e-4, atol=1e-5)


# A tiny case where every draw is known: window 1 (the reach is always 1), no subsampling, and a
# noise distribution with all its mass on word NOISE, so each negative is NOISE.
NOISE, DIM, NEGATIVE, ALPHA = 4, 3, 2, 0.2
SENTENCE = [0, 1, 2, 3]


def tiny_setup(seed):
    rng = np.random.default_rng(seed)
    n_words = 5
    w_in = rng.normal(scale=0.5, size=(n_words, DIM)).astype(np.float32)
    w_out = rng.normal(scale=0.5, size=(n_words, DIM)).astype(np.float32)
    p = np.zeros(n_words)
    p[NOISE] = 1.0
    out = output_layer(
        "ns", w_out, negative=NEGATIVE, noise_table=pack_alias_table(build_alias_table(p))
    )
    sampling = Sampling(np.ones(n_words, np.float32), 1, 1000)
    config = TrainConfig(dim=DIM, window=1, negative=NEGATIVE, threads=1).resolved()
    scratch = window_memory(config, out, 1)
    scratch.loss.rng[0] = 12345
    return w_in, out, sampling, scratch


def reference_window(h, predict, w_out, alpha):
    """NumPy: one step predicting ``predict`` from ``h``: all scores first, then each target's
    update in order (positive, then noise); returns the input's step."""
    targets = [t for word in predict for t in [(word, 1)] + [(NOISE, 0)] * NEGATIVE]
    scores = [float(w_out[row].astype(np.float64) @ h) for row, _ in targets]
    grad = np.zeros(len(h))
    for (row, label), f in zip(targets, scores):
        g = (label - exact_sigmoid(f)) * alpha
        grad += g * w_out[row]
        w_out[row] += g * h
    return grad


def job_equals_reference(job, sentence, w_in, inputs, out, sampling, scratch, ref_in, ref_out):
    """Run ``job`` over one sentence; its weights must equal the reference's. Returns the job's
    ``(predictions, words)``."""
    ids = np.array([*sentence, -1], np.int32)
    n = len(sentence)
    _, predictions, words, kept = job(ids, n, ALPHA, ALPHA, w_in, inputs, out, sampling, scratch)
    if sampling.keep.min() >= 1:  # no subsampling: every word is kept
        assert kept == n
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)
    return predictions, words


@pytest.mark.parametrize("seed", range(3))
def test_skipgram_job_equals_numpy(seed):
    w_in, out, sampling, scratch = tiny_setup(seed)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    for i, center in enumerate(SENTENCE):
        for j in (i - 1, i + 1):  # one step per context word, the centre updated after each
            if 0 <= j < len(SENTENCE):
                ref_in[center] += reference_window(
                    ref_in[center].copy(), [SENTENCE[j]], ref_out, ALPHA
                )

    counts = job_equals_reference(
        skipgram_job, SENTENCE, w_in, own_rows(5), out, sampling, scratch, ref_in, ref_out
    )
    assert counts == (6, 4)


@pytest.mark.parametrize("seed", range(3))
def test_cbow_job_equals_numpy(seed):
    w_in, out, sampling, scratch = tiny_setup(seed)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    for i, center in enumerate(SENTENCE):
        context = [SENTENCE[j] for j in (i - 1, i + 1) if 0 <= j < len(SENTENCE)]
        hidden = ref_in[context].mean(axis=0)
        grad = reference_window(hidden, [center], ref_out, ALPHA)
        for word in context:  # word2vec adds the whole gradient to each context row
            ref_in[word] += grad

    counts = job_equals_reference(
        cbow_job, SENTENCE, w_in, own_rows(5), out, sampling, scratch, ref_in, ref_out
    )
    assert counts == (4, 4)


def shared_setup(seed):
    w_in, out, sampling, _ = tiny_setup(seed)
    config = TrainConfig(
        dim=DIM, window=1, negative=NEGATIVE, shared_negatives=True, threads=1
    ).resolved()
    scratch = window_memory(config, out, 2)
    scratch.loss.rng[0] = 12345
    return w_in, out, sampling, scratch


def noise_targets(centre):
    """Negative sampling's targets of a centre: itself, then NEGATIVE draws of NOISE."""
    return np.array([centre] + [NOISE] * NEGATIVE), None


def reference_shared_sentence(ref_in, word_rows, sentence, ref_out, targets_of=noise_targets):
    """NumPy, window 1: for each centre, the positions next to it predict it against the same
    targets (``targets_of(centre)``: rows and labels), by default the NEGATIVE noise words
    drawn once for the window. A position's input (the mean of its word's rows) is read when
    it comes within reach and kept, with the steps it takes, until it is out of reach; then
    the sum of its steps goes to each of its word's rows."""
    n, window = len(sentence), 1
    kept, steps = {}, {}

    def load(p):
        kept[p] = ref_in[word_rows[sentence[p]]].mean(axis=0)
        steps[p] = np.zeros(DIM)

    def store(p):
        step = steps.pop(p)
        for row in word_rows[sentence[p]]:
            ref_in[row] += step

    for p in range(min(window, n)):
        load(p)
    for i in range(n):
        if i + window < n:
            load(i + window)
        if i - window - 1 >= 0:
            store(i - window - 1)
        positions = [j for j in range(i - window, i + window + 1) if j != i and 0 <= j < n]
        targets, labels = targets_of(sentence[i])
        inputs = np.array([kept[j] for j in positions])
        _, grads, new_out = numpy_shared_step(inputs, ref_out, targets, ALPHA, labels)
        ref_out[:] = new_out
        for j, grad in zip(positions, grads):
            kept[j] += grad
            steps[j] += grad
    for p in sorted(steps):
        store(p)


@pytest.mark.parametrize("sentence", [SENTENCE, [0, 1, 0, 2, 0, 0]], ids=["distinct", "repeats"])
@pytest.mark.parametrize("seed", range(2))
def test_shared_negatives_job_equals_numpy(seed, sentence):
    """Skip-gram with shared negatives: for each centre, the context words predict it in one
    step, word2vec's direction, with one noise draw for the window. A word seen twice within
    reach keeps two input vectors, whose steps both reach its row."""
    w_in, out, sampling, scratch = shared_setup(seed)
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    reference_shared_sentence(ref_in, [[w] for w in range(5)], sentence, ref_out)

    counts = job_equals_reference(
        shared_targets_job, sentence, w_in, own_rows(5), out, sampling, scratch, ref_in, ref_out
    )
    assert counts == (2 * len(sentence) - 2, len(sentence))


@pytest.mark.parametrize("seed", range(2))
def test_shared_path_job_equals_numpy(seed):
    """Skip-gram with hierarchical softmax: the context words of a window predict its centre
    in one step against the inner nodes of the centre's Huffman path (label 1 - code)."""
    w_in, _, sampling, _ = tiny_setup(seed)
    counts = np.array([9, 7, 4, 2, 1])
    codes, points, lengths = build_huffman(counts)
    w_out = np.random.default_rng(seed + 10).normal(scale=0.5, size=(4, DIM)).astype(np.float32)
    out = output_layer("hs", w_out, huffman=(codes, points, lengths))
    config = TrainConfig(dim=DIM, window=1, loss="hs", threads=1).resolved()
    assert config.shared_targets
    scratch = window_memory(config, out, 1)

    def path_targets(centre):
        n = lengths[centre]
        return points[centre, :n], (1 - codes[centre, :n]).astype(np.float32)

    sentence = [0, 1, 2, 3, 4, 0]
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    reference_shared_sentence(ref_in, [[w] for w in range(5)], sentence, ref_out, path_targets)
    counts = job_equals_reference(
        shared_targets_job, sentence, w_in, own_rows(5), out, sampling, scratch, ref_in, ref_out
    )
    assert counts == (10, 6)


def test_shared_negatives_read_inputs_through_their_rows():
    """fastText with shared negatives: a context word's input is the mean of its rows, and its
    gradient goes back to every one of them."""
    w_in, out, sampling, scratch = shared_setup(0)
    # word 0's input is rows 0 and 3; the others are their own row
    word_rows = [[0, 3], [1], [2], [3], [4]]
    inputs = InputRows(
        np.array([0, 2, 3, 4, 5, 6], np.int64), np.array([0, 3, 1, 2, 3, 4], np.int32), own=False
    )
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    sentence = [0, 1, 3]  # words 0 and 3 share row 3
    reference_shared_sentence(ref_in, word_rows, sentence, ref_out)
    job_equals_reference(
        shared_targets_job, sentence, w_in, inputs, out, sampling, scratch, ref_in, ref_out
    )


def test_input_rows_average_several_rows():
    """A word whose input is several rows (fastText's n-grams) uses their mean."""
    w_in, out, sampling, scratch = tiny_setup(0)
    # word 0's input is rows 0 and 3; the others are their own row
    inputs = InputRows(
        np.array([0, 2, 3, 4, 5, 6], np.int64), np.array([0, 3, 1, 2, 3, 4], np.int32), own=False
    )
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    ref_in[[0, 3]] += reference_window(ref_in[[0, 3]].mean(axis=0), [1], ref_out, ALPHA)
    ref_in[1] += reference_window(ref_in[1].copy(), [0], ref_out, ALPHA)
    ids = np.array([0, 1, -1], np.int32)
    skipgram_job(ids, 2, ALPHA, ALPHA, w_in, inputs, out, sampling, scratch)
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "options",
    [
        {"model": "sg"},
        {"model": "sg", "shared_negatives": False},
        {"model": "cbow"},
        {"model": "fasttext", "bucket": 20_000},
        {"model": "sg", "loss": "hs"},
    ],
    ids=["sg-shared", "sg-pairs", "cbow", "fasttext-shared", "sg-hs"],
)
def test_one_thread_with_a_seed_is_byte_identical(options):
    """Noise drawn ahead, prefetches and the shared-negative span change nothing between runs:
    one thread and a seed give the same bytes; another seed does not."""
    import wordvec

    from .conftest import SAMPLE

    def vectors(seed):
        model = wordvec.train(
            SAMPLE, epochs=1, threads=1, seed=seed, max_vocab=2_000, quiet=True, **options
        )
        return np.asarray(model.vectors).tobytes(), np.asarray(model.arrays["w_out"]).tobytes()

    first = vectors(5)
    assert vectors(5) == first
    assert vectors(6)[0] != first[0]


def copies_setup(n_words=40, spare=0, seed=7):
    """Weights for ``n_words`` words and ``spare`` rows after them, a uniform noise table, and
    three sentences of random words (so that copies are merged between sentences)."""
    rng = np.random.default_rng(seed)
    w_in, w_out = (
        np.vstack([rng.normal(scale=0.3, size=(n_words, DIM)), np.zeros((spare, DIM))]).astype(
            np.float32
        )
        for _ in range(2)
    )
    table = pack_alias_table(build_alias_table(np.full(n_words, 1.0 / n_words)))
    out = output_layer("ns", w_out, negative=NEGATIVE, noise_table=table)
    # frequent words (low ids) most often, as in a corpus sorted by count
    words = np.minimum(rng.geometric(0.15, size=90) - 1, n_words - 1).astype(np.int32)
    ids = np.insert(words, [30, 60, 90], -1).astype(np.int32)
    sampling = Sampling(np.ones(n_words, np.float32), 2, 1000)
    return w_in, out, sampling, ids


@pytest.mark.parametrize("model", [SKIP_GRAM, CBOW, SKIP_GRAM_SHARED_TARGETS])
def test_frequent_copies_on_one_thread_train_as_the_shared_rows(model):
    """A job that trains the most frequent words on its own copies of their rows, merged after
    each sentence, ends with the weights of the job without copies (to float32 rounding: a
    merge adds the copy's change to the row it started from), and leaves its copies equal to
    the shared rows."""
    n_words, copied = 40, 8
    config = TrainConfig(dim=DIM, window=2, negative=NEGATIVE, threads=1).resolved()
    results = []
    for spare in (0, copied):
        w_in, out, sampling, ids = copies_setup(n_words, spare)
        plan = CopyPlan(in_rows=copied, out_rows=copied, own_rows=n_words) if spare else CopyPlan()
        scratch = window_memory(config, out, 1, CopyPlaces(plan, 1))
        scratch.loss.rng[0] = 99
        scratch.copies.at[0] = n_words if spare else 0
        loss, predictions, words, _ = window_job(
            ids, 90, ALPHA, ALPHA, model, w_in, own_rows(n_words + spare), out, sampling, scratch
        )
        results.append((w_in, out.w_out, loss, predictions, words))
        if spare:
            np.testing.assert_array_equal(w_in[n_words:], w_in[:copied])
            np.testing.assert_array_equal(out.w_out[n_words:], out.w_out[:copied])
    (plain_in, plain_out, *plain_counts), (w_in, w_out, *counts) = results
    assert counts[1:] == plain_counts[1:]
    assert counts[0] == pytest.approx(plain_counts[0], rel=1e-5)
    np.testing.assert_allclose(w_in[:n_words], plain_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w_out[:n_words], plain_out, rtol=1e-5, atol=1e-6)


def test_merged_copies_add_up_every_threads_change():
    """Two threads' copies of the same rows: each merge adds its own change since its last
    merge to the shared rows and restarts the copy from the sum."""
    weights = np.zeros((3 + 2 * 2, 3), np.float32)
    weights[1:3] = [[1, 2, 3], [4, 5, 6]]  # rows 1-2 are copied; row 0 is not
    bases = np.zeros((2, 2, 3), np.float32)
    start_copies(weights, 1, 2, 3, bases[0])  # thread A's copies at rows 3-4
    start_copies(weights, 1, 2, 5, bases[1])  # thread B's at rows 5-6
    weights[3:5] += 1.0  # A's steps
    weights[5:7] += 10.0  # B's steps
    merge_copies(weights, 1, 2, 3, bases[0])
    np.testing.assert_array_equal(weights[1:3], [[2, 3, 4], [5, 6, 7]])
    merge_copies(weights, 1, 2, 5, bases[1])
    np.testing.assert_array_equal(weights[1:3], [[12, 13, 14], [15, 16, 17]])
    np.testing.assert_array_equal(weights[5:7], weights[1:3])  # B restarts from both changes
    weights[3:5] += 0.5  # A's next steps, from its stale copy
    merge_copies(weights, 1, 2, 3, bases[0])
    np.testing.assert_array_equal(weights[1:3], [[12.5, 13.5, 14.5], [15.5, 16.5, 17.5]])
    np.testing.assert_array_equal(weights[0], 0)


def test_a_row_is_trained_as_its_copy_only_when_the_job_keeps_one():
    copies = (10, 4, 100)  # rows 10-13, copied to rows 100-103
    assert [copy_of(row, copies) for row in (9, 10, 13, 14)] == [9, 100, 103, 14]
    assert copy_of(10, NO_COPIES) == 10


def test_which_rows_each_thread_copies():
    """The most frequent words with negative sampling (own rows only), the upper Huffman nodes
    with hierarchical softmax (not for skip-gram's window step), every label's row for the
    classifier's losses over every row; nothing on one thread."""
    assert window_copies("ns", 2, True, True, 50_000) == CopyPlan(
        in_rows=COPIED_WORDS, out_rows=COPIED_WORDS, own_rows=50_000
    )
    assert window_copies("ns", 2, False, True, 50).in_rows == 50
    assert window_copies("ns", 1, True, True, 50_000) == CopyPlan()
    assert window_copies("ns", 2, True, False, 50_000) == CopyPlan()  # subword rows
    hs = window_copies("hs", 2, False, True, 50_000)
    assert hs == CopyPlan(out_first=49_999 - COPIED_NODES, out_rows=COPIED_NODES, own_rows=49_999)
    assert (hs.spare_rows(3), hs.input_spare_rows(3)) == (3 * COPIED_NODES, 0)
    assert window_copies("hs", 2, True, True, 50_000) == CopyPlan()
    assert label_copies("softmax", 4, 735) == CopyPlan(out_rows=735, own_rows=735, merge_words=0)
    assert label_copies("ova", 2, 9).spare_rows(2) == 18
    assert label_copies("ns", 2, 735) == label_copies("softmax", 1, 735) == CopyPlan()


def test_jobs_take_a_block_of_spare_rows_and_give_it_back():
    places = CopyPlaces(CopyPlan(out_first=5, out_rows=3, own_rows=8), threads=2)
    first, second = places.memory(4), places.memory(4)
    with places.job(first, words=100):
        with places.job(second, words=100):
            assert sorted([first.at[0], second.at[0]]) == [8, 11]
        with places.job(second, words=0):  # an empty job keeps no copies
            assert second.at[0] == 0
    assert first.out_base.shape == (3, 4) and first.in_base.shape == (0, 4)


def test_two_threads_with_copies_save_a_row_per_word(tmp_path):
    """The spare rows of the threads' copies stay out of the model."""
    import wordvec

    from .conftest import SAMPLE

    model = wordvec.train(SAMPLE, epochs=1, threads=2, seed=1, max_vocab=500, quiet=True)
    assert np.asarray(model.vectors).shape == (len(model.vocab), 100)
    assert model.arrays["w_out"].shape == (len(model.vocab), 100)
    assert np.isfinite(model.arrays["w_out"]).all()
