"""The word mover's distance: its exact transport against a linear program and against the
closed form on a line, and gensim's ``wmdistance`` answers for its edge cases."""

import numpy as np
import pytest
from scipy.optimize import linprog

from wordvec.kernels.transport import min_cost_transport
from wordvec.query.vectors import Vectors


def _linear_program(supply: np.ndarray, demand: np.ndarray, cost: np.ndarray) -> float:
    """The transport problem as scipy's linear program: rows sum to supply, columns to demand."""
    n, m = cost.shape
    rows = np.kron(np.eye(n), np.ones(m))
    columns = np.tile(np.eye(m), n)
    equal = np.concatenate([supply, demand])
    result = linprog(cost.ravel(), A_eq=np.vstack([rows, columns]), b_eq=equal, method="highs")
    assert result.success
    return result.fun


def test_a_hand_computed_transport():
    # two units at 0 and 1 go to 3: 3 + 2; then one each way across a line of 2 sinks
    assert min_cost_transport(np.array([1, 1]), np.array([2]), np.array([[3.0], [2.0]])) == 5.0
    cost = np.array([[0.0, 4.0], [1.0, 10.0]])  # the cheap pair (0, 0) must give way
    assert min_cost_transport(np.array([1, 1]), np.array([1, 1]), cost) == 5.0
    for supply in ([1, 1], [1, 3]):  # totals that differ have no transport
        assert np.isnan(min_cost_transport(np.array(supply), np.array([1, 2]), cost))


@pytest.mark.parametrize("seed", range(40))
def test_transport_is_the_linear_programs_optimum(seed):
    rng = np.random.default_rng(seed)
    n, m = rng.integers(1, 9, size=2)
    supply = rng.integers(1, 7, size=n)
    demand = rng.multinomial(supply.sum(), np.full(m, 1 / m))
    demand[demand == 0] += 1  # every sink wants something; the supply grows to match
    supply[0] += demand.sum() - supply.sum()
    cost = rng.random((n, m)) * rng.choice([1.0, 100.0])
    cost[rng.random((n, m)) < 0.2] = 0.0  # ties and free moves
    got = min_cost_transport(supply.astype(np.int64), demand.astype(np.int64), cost)
    assert got == pytest.approx(_linear_program(supply, demand, cost), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_transport_on_a_line_is_the_area_between_the_distribution_functions(seed):
    rng = np.random.default_rng(seed)
    xs, ys = rng.normal(size=6), rng.normal(size=5)
    supply, demand = rng.integers(1, 5, size=6) * 5, rng.integers(1, 5, size=5) * 6
    total = supply.sum() * demand.sum()
    supply, demand = supply * demand.sum(), demand * supply.sum()  # the same total
    got = min_cost_transport(supply, demand, np.abs(xs[:, None] - ys[None, :])) / total
    points = np.sort(np.concatenate([xs, ys]))
    cdf = [sum(supply[xs <= p]) / total - sum(demand[ys <= p]) / total for p in points[:-1]]
    assert got == pytest.approx(float(np.sum(np.abs(cdf) * np.diff(points))), rel=1e-9)


@pytest.fixture
def vectors():
    words = ["obama", "president", "speaks", "greets", "media", "press", "illinois", "chicago"]
    rng = np.random.default_rng(3)
    return Vectors(words, rng.normal(size=(len(words), 5)).astype(np.float32))


def test_word_movers_distance_is_the_transport_of_word_shares(vectors):
    first = ["obama", "speaks", "media", "illinois", "obama"]
    second = ["president", "greets", "press", "chicago"]
    unit = np.array([vectors.unit_vector(w) for w in vectors.words], dtype=np.float64)
    a = [vectors.words.index(w) for w in ("obama", "speaks", "media", "illinois")]
    b = [vectors.words.index(w) for w in second]
    cost = np.linalg.norm(unit[a][:, None] - unit[b][None], axis=-1)
    shares = _linear_program(np.array([2, 1, 1, 1]) / 5, np.full(4, 0.25), cost)
    assert vectors.wmdistance(first, second) == pytest.approx(shares, rel=1e-9)
    assert vectors.wmdistance(second, first) == pytest.approx(shares, rel=1e-9)
    raw = vectors.wmdistance(first, second, norm=False)
    assert raw > shares  # the raw vectors are longer than one here


def test_word_movers_distance_edge_cases_are_gensims(vectors):
    assert vectors.wmdistance(["obama", "media"], ["media", "obama", "obama", "media"]) == 0.0
    assert vectors.wmdistance(["obama", "unknown"], ["obama"]) == 0.0  # one word left, shared
    assert vectors.wmdistance(["unknown"], ["obama"]) == float("inf")
    assert vectors.wmdistance([], ["obama"]) == float("inf")
    same = Vectors(["a", "b"], np.ones((2, 3), dtype=np.float32))
    assert same.wmdistance(["a"], ["b"]) == float("inf")  # all distances 0: gensim's inf


def test_the_gensim_face_answers_wmdistance(vectors):
    from wordvec.gensim import KeyedVectors

    wv = KeyedVectors.of(vectors)
    first, second = ["obama", "speaks", "illinois"], ["president", "greets", "chicago"]
    assert wv.wmdistance(first, second) == vectors.wmdistance(first, second) > 0
