"""The jitted kernels against plain NumPy: activations, one logistic step, and whole skip-gram
and CBOW windows on a tiny corpus where every random draw is known."""

import numpy as np
import pytest

from wordvec.kernels.activations import exp_f32, logistic_steps
from wordvec.kernels.losses import NEGATIVE_SAMPLING, OutputLayer, logistic_updates
from wordvec.kernels.rng import next_u64, rand_below, rand_below_and_unit, rand_unit, seed_state
from wordvec.kernels.word2vec import InputRows, Sampling, window_job
from wordvec.sampling import build_alias_table
from wordvec.training.config import TrainConfig
from wordvec.training.word2vec import make_scratch, own_rows


def skipgram_job(ids, words, alpha_start, alpha_end, *rest):
    return window_job(ids, words, alpha_start, alpha_end, False, *rest)


def cbow_job(ids, words, alpha_start, alpha_end, *rest):
    return window_job(ids, words, alpha_start, alpha_end, True, *rest)


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
        labels = np.full(len(scores), label, np.int8)
        steps = scores.copy()
        loss = logistic_steps(steps, labels, len(bounded), 0.5)  # all at once: the SIMD loop
        loss += logistic_steps(steps[len(bounded) :], labels, len(scores) - len(bounded), 0.5)
        error = exact_sigmoid(-f) if label else -exact_sigmoid(f)  # label - sigmoid(f)
        np.testing.assert_allclose(steps, 0.5 * error, rtol=3e-7, atol=3e-18)
        assert loss == pytest.approx(logloss(f, labels), rel=1e-7)
        each = [logistic_steps(scores[t : t + 1].copy(), labels, 1, 0.5) for t in range(len(f))]
        expected = [logloss(f[t : t + 1], labels[:1]) for t in range(len(f))]
        np.testing.assert_allclose(each, expected, rtol=1e-7, atol=1e-15)
    wrong = np.full(40, -100.0, np.float32)
    assert logistic_steps(wrong, np.ones(40, np.int8), 40, 0.1) == pytest.approx(4000.0)
    # The most targets it takes, each with the largest factor, 2, of the loss's product.
    undecided = np.zeros(1000, np.float32)
    loss = logistic_steps(undecided, np.ones(1000, np.int8), 1000, 0.1)
    assert loss == pytest.approx(1000 * np.log(2.0)) and np.all(undecided == np.float32(0.05))


@pytest.mark.parametrize("n, where", [(3, 1), (20, 13)])  # the scalar and the SIMD part
def test_nan_score_makes_the_loss_nan(n, where):
    for label in (0, 1):
        scores = np.linspace(-3, 3, n).astype(np.float32)
        scores[where] = np.nan
        assert np.isnan(logistic_steps(scores, np.full(n, label, np.int8), n, 0.1))


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


def test_index_and_float_from_one_draw_are_independent():
    """The alias method needs the column and the coin independent: a 2-D chi-square over
    (index, coin decile) cells stays near its degrees of freedom."""
    state = np.array([seed_state(9, 9)], dtype=np.uint64)
    cells = np.zeros((10, 10))
    for _ in range(50_000):
        index, unit = rand_below_and_unit(state, 10)
        cells[index, int(unit * 10)] += 1
    expected = 500.0
    chi2 = ((cells - expected) ** 2 / expected).sum()
    assert chi2 < 99 + 4 * np.sqrt(2 * 99)  # 99 degrees of freedom, 4 sigma


def random_case(seed, n_words=7, dim=5):
    rng = np.random.default_rng(seed)
    return rng.normal(size=dim).astype(np.float32), rng.normal(size=(n_words, dim)).astype(
        np.float32
    )


@pytest.mark.parametrize("seed", range(3))
def test_logistic_updates_equal_numpy_step(seed):
    h, w_out = random_case(seed)
    rows, labels = np.array([2, 4, 5], np.int32), np.array([1, 0, 0], np.int8)
    alpha = 0.1
    f = w_out[rows].astype(np.float64) @ h
    g = (labels - exact_sigmoid(f)) * alpha
    expected_grad = g @ w_out[rows]
    expected_w = w_out.astype(np.float64).copy()
    expected_w[rows] += np.outer(g, h)

    grad = np.zeros_like(h)
    loss = logistic_updates(h, w_out, rows, labels, 3, grad, alpha, np.zeros(3, np.float32))
    assert loss == pytest.approx(logloss(f, labels), rel=1e-5)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w_out, expected_w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_logistic_gradient_matches_finite_differences(seed):
    """With alpha = 1 the kernel's steps are minus the gradient of the summed logistic loss."""
    h, w_out = random_case(seed)
    rows, labels = np.array([1, 3, 6, 0], np.int32), np.array([1, 0, 0, 1], np.int8)

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
    logistic_updates(h, w_out, rows, labels, 4, grad, 1.0, np.zeros(4, np.float32))
    np.testing.assert_allclose(grad, -numeric_h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(w_out - before, -numeric_w, rtol=1e-4, atol=1e-5)


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
    accept, alias = build_alias_table(p)
    empty = np.zeros((0, 0), np.int8)
    out = OutputLayer(
        NEGATIVE_SAMPLING,
        w_out,
        NEGATIVE,
        accept,
        alias,
        empty,
        empty.astype(np.int32),
        np.zeros(0, np.int32),
    )
    sampling = Sampling(np.ones(n_words, np.float32), 1, 1000)
    config = TrainConfig(dim=DIM, window=1, negative=NEGATIVE)
    scratch = make_scratch(config, out, 1)
    scratch.rng[0] = 12345
    return w_in, out, sampling, scratch


def reference_window(h, predict, w_out, alpha):
    """NumPy: one step predicting ``predict`` from ``h``: all scores first, then each target's
    update in order (positive, then noise); returns the input's step."""
    targets = [t for word in predict for t in [(word, 1)] + [(NOISE, 0)] * NEGATIVE]
    scores = [float(w_out[row].astype(np.float64) @ h) for row, _ in targets]
    grad = np.zeros(DIM)
    for (row, label), f in zip(targets, scores):
        g = (label - exact_sigmoid(f)) * alpha
        grad += g * w_out[row]
        w_out[row] += g * h
    return grad


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

    ids = np.array([*SENTENCE, -1], np.int32)
    _, pairs, words = skipgram_job(ids, 4, ALPHA, ALPHA, w_in, own_rows(5), out, sampling, scratch)
    assert (pairs, words) == (6, 4)
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)


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

    ids = np.array([*SENTENCE, -1], np.int32)
    _, predictions, words = cbow_job(
        ids, 4, ALPHA, ALPHA, w_in, own_rows(5), out, sampling, scratch
    )
    assert (predictions, words) == (4, 4)
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.w_out, ref_out, rtol=1e-5, atol=1e-6)


def test_input_rows_average_several_rows():
    """A word whose input is several rows (fastText's n-grams) uses their mean."""
    w_in, out, sampling, scratch = tiny_setup(0)
    # word 0's input is rows 0 and 3; the others are their own row
    inputs = InputRows(
        np.array([0, 2, 3, 4, 5, 6], np.int64), np.array([0, 3, 1, 2, 3, 4], np.int32)
    )
    ref_in, ref_out = w_in.astype(np.float64), out.w_out.astype(np.float64)
    ref_in[[0, 3]] += reference_window(ref_in[[0, 3]].mean(axis=0), [1], ref_out, ALPHA)
    ref_in[1] += reference_window(ref_in[1].copy(), [0], ref_out, ALPHA)
    ids = np.array([0, 1, -1], np.int32)
    skipgram_job(ids, 2, ALPHA, ALPHA, w_in, inputs, out, sampling, scratch)
    np.testing.assert_allclose(w_in, ref_in, rtol=1e-5, atol=1e-6)
