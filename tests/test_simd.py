"""The SIMD vector operations (wordvec.kernels.simd) against NumPy."""

import numpy as np
import pytest
from numba import njit

from wordvec.kernels.activations import vexp
from wordvec.kernels.simd import (
    LANES,
    vabs,
    vadd,
    vdiv,
    vfloor,
    vfma,
    vget,
    vget1,
    vlanes_below,
    vmin,
    vmul,
    vpow2,
    vprod_one_plus,
    vput,
    vput1,
    vrelu,
    vsplat,
    vsplat_at,
    vsub,
    vsum,
    vsums4,
    vwhere_nonneg,
    vzero,
)

COUNTS = sorted({1, 3, 4, LANES // 2, LANES - 1, LANES, LANES + 5})
"""Whole chunks, the narrower plain loads and stores (4, LANES / 2) and masked ones."""


@njit(cache=True)
def _row_ops(a, b, out, row, count):
    """Chunk 0 of rows ``row`` of a and b (``count`` floats): a * b + 2 stored in out, the
    sum of a's chunk, and the four sums of a's rows 0..3 (chunk 0)."""
    x = vget(a, row, 0, count)
    vput(out, row, 0, vfma(x, vget(b, row, 0, count), vsplat(2.0)), count)
    sums = vsums4(vget(a, 0, 0, LANES), vget(a, 1, 0, LANES), vget(a, 2, 0, LANES),
                  vget(a, 3, 0, LANES))  # fmt: skip
    return vsum(x), sums, vsum(vzero())


@pytest.mark.parametrize("count", COUNTS)
def test_masked_chunks_touch_only_their_lanes(count):
    rng = np.random.default_rng(count)
    a, b = (rng.normal(size=(4, LANES)).astype(np.float32) for _ in range(2))
    out = np.full((4, LANES), 7.0, np.float32)
    total, sums, zero = _row_ops(a, b, out, 3, count)
    used = min(count, LANES)
    expected = np.full((4, LANES), 7.0, np.float32)
    expected[3, :used] = a[3, :used] * b[3, :used] + 2
    np.testing.assert_allclose(out, expected, rtol=1e-6)  # lanes past count left alone
    assert total == pytest.approx(a[3, :used].sum(), rel=1e-5, abs=1e-6)
    np.testing.assert_allclose(sums, a.sum(axis=1), rtol=1e-5, atol=1e-6)
    assert zero == 0.0


@njit(cache=True)
def _vector_ops(a, b, out, col, count):
    """``out[col:col + count] = (a + b) * 0.5`` over that chunk of 1-d arrays, and the sum of
    the chunk of a as loaded (lanes past ``count`` must load as 0)."""
    x = vget1(a, col, count)
    vput1(out, col, vmul(vadd(x, vget1(b, col, count)), vsplat(0.5)), count)
    return vsum(x)


@pytest.mark.parametrize("count", COUNTS)
def test_one_dimensional_chunks_touch_only_their_lanes(count):
    rng = np.random.default_rng(100 + count)
    a, b = (rng.normal(size=3 * LANES).astype(np.float32) for _ in range(2))
    out = np.full(3 * LANES, 7.0, np.float32)
    col = LANES + 1  # not aligned to a vector
    total = _vector_ops(a, b, out, col, count)
    used = min(count, LANES)
    expected = np.full(3 * LANES, 7.0, np.float32)
    expected[col : col + used] = (a[col : col + used] + b[col : col + used]) * 0.5
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    assert total == pytest.approx(a[col : col + used].sum(), rel=1e-5, abs=1e-6)


@njit(cache=True)
def _splat_each(values, out):
    """Row i of ``out``: ``values[i]`` in every lane, read by :func:`vsplat_at`."""
    for i in range(values.shape[0]):
        vput(out, i, 0, vsplat_at(values, i), LANES)


def test_splat_at_reads_the_element_it_is_given():
    values = np.array([1.5, -2.0, np.nan, 3.25], np.float32)
    out = np.zeros((4, LANES), np.float32)
    _splat_each(values, out)
    np.testing.assert_array_equal(out, np.repeat(values[:, None], LANES, axis=1))


@njit(cache=True)
def _lanewise(a, b, out, count):
    """Rows of ``out``: each lane-wise operation of the first LANES floats of a and b, and
    what the reductions give, for :func:`test_lanewise_operations_and_their_nans`."""
    x, y = vget1(a, 0, LANES), vget1(b, 0, LANES)
    results = (vmul(x, y), vsub(x, y), vdiv(x, y), vabs(x), vfloor(x), vmin(x, y), vrelu(x),
               vwhere_nonneg(x, y, vsplat(7.0)), vpow2(vfloor(y)), vlanes_below(count))  # fmt: skip
    for row in range(len(results)):
        vput(out, row, 0, results[row], LANES)
    return vprod_one_plus(vmul(vabs(y), vsplat(1e-9)))


def test_lanewise_operations_and_their_nans():
    rng = np.random.default_rng(5)
    a = rng.normal(scale=3, size=LANES).astype(np.float32)
    a[1], a[2], a[3] = np.nan, 0.0, -0.0
    b = rng.uniform(-30, 30, size=LANES).astype(np.float32)
    out = np.zeros((10, LANES), np.float32)
    product = _lanewise(a, b, out, 3)
    with np.errstate(invalid="ignore"):
        expected = [a * b, a - b, a / b, np.abs(a), np.floor(a),
                    np.where(a < b, a, b),  # a NaN gives b
                    np.where(a < 0, 0, a),  # a NaN stays NaN
                    np.where(a >= 0, b, 7),  # a NaN compares false
                    2.0 ** np.floor(b), np.arange(LANES) < 3]  # fmt: skip
    np.testing.assert_array_equal(out, np.array(expected, np.float32))
    assert np.isnan(out[6, 1]) and out[5, 1] == b[1] and out[7, 1] == 7
    factors = 1.0 + (np.abs(b) * np.float32(1e-9)).astype(np.float32).astype(np.float64)
    assert product == pytest.approx(np.prod(factors), rel=1e-15)


@njit(cache=True)
def _vexp(x, out):
    for col in range(0, x.shape[0], LANES):
        vput1(out, col, vexp(vget1(x, col, x.shape[0] - col)), x.shape[0] - col)


def test_vector_exp_is_within_one_float32_ulp():
    """vexp (:func:`wordvec.kernels.activations.logistic_steps`' exponential) over the range
    it takes, -40 to 0, and beyond it."""
    x = np.concatenate([np.linspace(-44, 44, 20_001), [-44, -1e-6, 0, 1e-6, 44]]).astype(np.float32)
    out = np.zeros_like(x)
    _vexp(x, out)
    assert np.max(np.abs(out / np.exp(x.astype(np.float64)) - 1)) < 2.0**-23
