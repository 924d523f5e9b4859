"""The SIMD vector operations (wordvec.kernels.simd) against NumPy."""

import numpy as np
import pytest
from numba import njit

from wordvec.kernels.simd import LANES, vfma, vget, vput, vsplat, vsum, vsums4, vzero


@njit(cache=True)
def _row_ops(a, b, out, row, count):
    """Chunk 0 of rows ``row`` of a and b (``count`` floats): a * b + 2 stored in out, the
    sum of a's chunk, and the four sums of a's rows 0..3 (chunk 0)."""
    x = vget(a, row, 0, count)
    vput(out, row, 0, vfma(x, vget(b, row, 0, count), vsplat(2.0)), count)
    sums = vsums4(vget(a, 0, 0, LANES), vget(a, 1, 0, LANES), vget(a, 2, 0, LANES),
                  vget(a, 3, 0, LANES))  # fmt: skip
    return vsum(x), sums, vsum(vzero())


@pytest.mark.parametrize("count", [1, 3, LANES - 1, LANES, LANES + 5])
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
