"""GloVe's AdaGrad step and gradient, PPMI values, the randomized SVD, and both on real text."""

from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner

import wordvec
from tests.conftest import SAMPLE, WS353
from wordvec.cli import main
from wordvec.cooccur.counting import count_cooccurrences
from wordvec.cooccur.counts import Cooccurrences
from wordvec.corpus.vocab import Vocabulary
from wordvec.errors import ConfigError
from wordvec.kernels.glove import GloveWeights, glove_step
from wordvec.query.evaluate import evaluate_similarity, read_similarity
from wordvec.training.ppmi_svd import ppmi_matrix
from wordvec.training.svd import CSR, randomized_svd

X_MAX, ALPHA, ETA = 10.0, 0.75, 0.05


def glove_setup(seed, dim=4):
    rng = np.random.default_rng(seed)
    w, c = rng.normal(scale=0.3, size=(2, 3, dim)).astype(np.float32)
    b, bc = rng.normal(scale=0.3, size=(2, 3)).astype(np.float32)
    grads = [np.ones_like(w), np.ones_like(c), np.ones_like(b), np.ones_like(bc)]
    return [w, c, b, bc, *grads]


def cost(w, c, b, bc, i, j, x):
    weight = min(1.0, (x / X_MAX) ** ALPHA)
    return 0.5 * weight * (w[i] @ c[j] + b[i] + bc[j] - math.log(x)) ** 2


@pytest.mark.parametrize(("i", "j", "x"), [(0, 1, 3.0), (2, 2, 0.5), (1, 0, 40.0), (1, 2, 250.0)])
@pytest.mark.parametrize("dim", [4, 100])  # 100: the vectorised loop (rsqrt) and its remainder
def test_two_adagrad_steps_equal_numpy(i, j, x, dim):
    params = glove_setup(1, dim)
    ref = [p.astype(np.float64) for p in params]
    for _ in range(2):
        w, c, b, bc, gw, gc, gb, gbc = ref
        diff = w[i] @ c[j] + b[i] + bc[j] - math.log(x)
        fdiff = min(1.0, (x / X_MAX) ** ALPHA) * diff  # the biases' steps: no eta (glove.c)
        step_w, step_c = ETA * fdiff * c[j], ETA * fdiff * w[i]
        w[i] -= step_w / np.sqrt(gw[i])
        c[j] -= step_c / np.sqrt(gc[j])
        gw[i] += step_w**2
        gc[j] += step_c**2
        b[i] -= fdiff / math.sqrt(gb[i])
        bc[j] -= fdiff / math.sqrt(gbc[j])
        gb[i] += fdiff**2
        gbc[j] += fdiff**2
        glove_step(i, j, math.log(x), GloveWeights(*params), math.log(X_MAX), ALPHA, ETA)
    for ours, expected in zip(params, ref):
        np.testing.assert_allclose(ours, expected, rtol=1e-5, atol=1e-7)


def test_first_step_is_the_finite_difference_gradient_times_eta_for_vectors_1_for_biases():
    """AdaGrad sums start at 1, so the first step is plain SGD: eta times the gradient for the
    vectors, the gradient itself for the biases (glove.c applies eta to the vectors only)."""
    i, j, x = 0, 2, 4.0
    params = glove_setup(2)
    before = [p.astype(np.float64) for p in params[:4]]
    glove_step(i, j, math.log(x), GloveWeights(*params), math.log(X_MAX), ALPHA, ETA)
    eps = 1e-6
    for index in range(4):
        numeric = np.zeros_like(before[index])
        for position in np.ndindex(numeric.shape):
            plus = [p.copy() for p in before]
            minus = [p.copy() for p in before]
            plus[index][position] += eps
            minus[index][position] -= eps
            numeric[position] = (cost(*plus, i, j, x) - cost(*minus, i, j, x)) / (2 * eps)
        rate = ETA if index < 2 else 1.0  # w, c; then b, bc
        step = (before[index] - params[index]) / rate
        np.testing.assert_allclose(step, numeric, rtol=1e-4, atol=1e-6)
        assert np.count_nonzero(numeric) == (4 if index < 2 else 1)  # row i or j, not others


def tiny_counts(dense: list[list[float]]) -> Cooccurrences:
    matrix = np.array(dense)
    rows, cols = np.nonzero(matrix)
    row_ptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(matrix)))])
    words = [f"w{k}" for k in range(len(matrix))]
    vocab = Vocabulary(words, np.ones(len(words), dtype=np.int64))
    return Cooccurrences(
        vocab, row_ptr, cols.astype(np.int32), matrix[rows, cols].astype(np.float32)
    )


def as_dense(matrix: CSR) -> np.ndarray:
    out = np.zeros((matrix.n_rows, matrix.n_cols))
    for r in range(matrix.n_rows):
        span = slice(matrix.row_ptr[r], matrix.row_ptr[r + 1])
        out[r, matrix.cols[span]] = matrix.values[span]
    return out


def test_ppmi_by_hand():
    counts = tiny_counts([[0, 2, 1], [2, 0, 1], [1, 1, 0]])
    # row sums 3, 3, 2; without smoothing P(c) = 3/8, 3/8, 2/8
    ppmi = as_dense(ppmi_matrix(counts, cds=1.0, neg=1.0))
    expected = [
        [0, math.log(16 / 9), math.log(4 / 3)],  # log(2 / (3 * 3/8)), log(1 / (3 * 2/8))
        [math.log(16 / 9), 0, math.log(4 / 3)],
        [math.log(4 / 3), math.log(4 / 3), 0],  # log(1 / (2 * 3/8))
    ]
    np.testing.assert_allclose(ppmi, expected, rtol=1e-6)
    shifted = as_dense(ppmi_matrix(counts, cds=1.0, neg=1.5))  # log(4/3) < log 1.5: dropped
    np.testing.assert_allclose(shifted, [[0, math.log(32 / 27), 0], [math.log(32 / 27), 0, 0],
                                         [0, 0, 0]], rtol=1e-6)  # fmt: skip


def test_context_smoothing_raises_rare_contexts_probability():
    counts = tiny_counts([[0, 9, 1], [9, 0, 1], [1, 1, 0]])
    plain, smoothed = (
        as_dense(ppmi_matrix(counts, cds=1.0, neg=1.0)),
        as_dense(ppmi_matrix(counts, cds=0.75, neg=1.0)),
    )
    assert smoothed[0, 2] < plain[0, 2]  # the rare context's PMI is inflated less


def test_randomized_svd_recovers_a_low_rank_matrix():
    rng = np.random.default_rng(0)
    u, _ = np.linalg.qr(rng.normal(size=(300, 6)))
    v, _ = np.linalg.qr(rng.normal(size=(200, 6)))
    s = np.array([50, 30, 20, 10, 5, 2.0])
    dense = (u * s) @ v.T
    rows, cols = np.nonzero(np.abs(dense) > -1)
    row_ptr = np.arange(0, 300 * 200 + 1, 200)
    matrix = CSR(row_ptr, cols.astype(np.int32), dense[rows, cols].astype(np.float32), 200)
    found_u, found_s, found_vt = randomized_svd(matrix, 6, threads=2)
    np.testing.assert_allclose(found_s, s, rtol=1e-5)
    reconstruction = (found_u * found_s) @ found_vt
    assert np.linalg.norm(reconstruction - dense) / np.linalg.norm(dense) < 1e-5
    top3_u, top3_s, top3_vt = randomized_svd(matrix, 3)
    error = np.linalg.norm((top3_u * top3_s) @ top3_vt - dense)
    assert error == pytest.approx(np.linalg.norm(s[3:]), rel=1e-3)  # Eckart-Young


@pytest.fixture(scope="module")
def sample_counts(tmp_path_factory):
    path = tmp_path_factory.mktemp("counts") / "sample.cooc"
    return count_cooccurrences(SAMPLE, path, window=5, quiet=True), path


@pytest.mark.slow
def test_ppmi_svd_quality_floor(sample_counts):
    import wordvec

    _, path = sample_counts
    model = wordvec.train(None, model="ppmi-svd", cooccur=str(path), threads=2, quiet=True)
    rho = evaluate_similarity(model.wv, read_similarity(WS353)).rho
    assert rho > 0.45  # seeds 1-3: 0.527-0.555
    assert "spain" in [w for w, _ in model.wv.most_similar("france", k=10)]


NUMBERS = {"one", "two", "four", "five", "six", "seven", "eight", "nine", "ten"}
MONTHS = {"february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"}  # fmt: skip
COUNTRIES = {"spain", "italy", "germany", "switzerland", "russia", "belgium", "portugal",
             "austria", "england", "netherlands", "poland", "greece", "sweden"}  # fmt: skip


@pytest.mark.slow
def test_glove_quality_floor_and_real_neighbours(sample_counts, tmp_path):
    """GloVe on the bundled corpus: the loss halves, WS-353 clears a floor, and through the
    CLI numbers, months and countries find their kind (seeds 1-3: every top-5 neighbour of
    three, january and france was one)."""
    import wordvec

    _, path = sample_counts
    model = wordvec.train(
        None, model="glove", cooccur=str(path), dim=50, x_max=10, epochs=10, threads=2,
        quiet=True,
    )  # fmt: skip
    losses = model.report.epoch_loss
    assert losses[-1] < losses[0] / 2
    rho = evaluate_similarity(model.wv, read_similarity(WS353)).rho
    assert rho > 0.14  # seeds 1-3: 0.182-0.192 (a small corpus for GloVe)
    out = tmp_path / "g.wv"
    model.save(out)
    result = CliRunner().invoke(
        main, ["neighbors", str(out), "three", "january", "france", "-k", "5"]
    )
    assert result.exit_code == 0, result.output
    found: dict[str, set[str]] = {}
    for line in result.output.splitlines():
        fields = line.split()
        if len(fields) == 1:
            query = fields[0]
        else:
            found.setdefault(query, set()).add(fields[1])
    assert len(found["three"] & NUMBERS) >= 4
    assert len(found["january"] & MONTHS) >= 4
    assert len(found["france"] & COUNTRIES) >= 4


@pytest.mark.parametrize("output", ["both", "word"])
def test_glove_writes_word_plus_context_vectors_by_default(toy_corpus, output):
    """GloVe's vectors are W + W~ (glove.c's default -model 2), or W alone when asked: the
    sum scored better than either matrix alone in the GloVe paper, and is what Stanford's
    published vectors are."""
    model = wordvec.train(
        toy_corpus, model="glove", min_count=1, dim=8, epochs=3, threads=1, quiet=True,
        **({} if output == "both" else {"glove_output": output}),
    )  # fmt: skip
    w, c = model.arrays["w_word"], model.arrays["w_context"]
    assert not np.allclose(w, c)  # two trained matrices, so the sum is not 2 W
    expected = w + c if output == "both" else w
    np.testing.assert_array_equal(model.vectors, expected)


def test_glove_divergence_is_a_clear_error(toy_corpus, tmp_path):
    result = CliRunner().invoke(
        main, ["train", str(toy_corpus), "-o", str(tmp_path / "g.wv"), "--model", "glove",
               "--min-count", "1", "--eta", "1e30", "-q"],
    )  # fmt: skip
    assert result.exit_code == 1
    assert result.output.startswith("Error: GloVe diverged")
    assert not (tmp_path / "g.wv").exists()


def test_train_without_corpus_or_counts_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(main, ["train", "-o", str(tmp_path / "g.wv"), "--model", "glove"])
    assert result.exit_code == 2 and "--cooccur" in result.output


def test_bad_counts_file_is_a_clear_error(tmp_path):
    empty = tmp_path / "empty.cooc"
    empty.write_bytes(b"")
    for counts, message in ((tmp_path / "missing.cooc", "file not found"), (empty, "truncated")):
        result = CliRunner().invoke(
            main,
            ["train", "--model", "glove", "--cooccur", str(counts), "-o", str(tmp_path / "g.wv")],
        )
        assert result.exit_code == 1
        assert result.output.startswith("Error: ") and message in result.output


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--window", "5"), "Error: --window does not apply with --cooccur (the counts are made)"),
        (
            ("--min-count", "2"),
            "Error: --min-count does not apply with --cooccur (the counts are made)",
        ),
        (("--memory", "1"), "Error: --memory does not apply with --cooccur (the counts are made)"),
        (
            ("--x-max", "10", "--model", "ppmi-svd"),
            "Error: --x-max does not apply to --model ppmi-svd (only to glove)",
        ),
    ],
)
def test_counting_options_with_counts_file_are_errors(sample_counts, tmp_path, extra, message):
    _, path = sample_counts
    result = CliRunner().invoke(
        main,
        ["train", "--model", "glove", "--cooccur", str(path), "-o", str(tmp_path / "g.wv"), *extra],
    )
    assert result.exit_code == 1
    assert result.output == message + "\n"


def test_corpus_and_counts_file_together_are_a_usage_error(sample_counts, toy_corpus, tmp_path):
    _, path = sample_counts
    result = CliRunner().invoke(
        main,
        [
            "train",
            str(toy_corpus),
            "--model",
            "glove",
            "--cooccur",
            str(path),
            "-o",
            str(tmp_path / "g.wv"),
        ],
    )
    assert result.exit_code == 2 and "not both" in result.output


def test_api_refuses_an_option_that_does_not_apply(toy_corpus):
    with pytest.raises(ConfigError, match="--arch does not apply to --model sg"):
        wordvec.train(toy_corpus, arch="cbow", quiet=True)
    with pytest.raises(ConfigError, match="--window must be an integer, not 2.5"):
        wordvec.train(toy_corpus, window=2.5, quiet=True)
