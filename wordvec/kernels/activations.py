"""The logistic function and its log loss over one prediction's targets, in float32.

word2vec reads sigmoid from a 1,000-entry table (error ~3e-3). Here it is exact to float32
rounding, and cheaper than calling ``expf`` and ``log`` per target, which took a quarter of
hierarchical softmax's time: the exponential is a polynomial (:func:`exp_f32`, and
:func:`vexp` on vectors), so :func:`logistic_steps` makes no library call per target and runs
``LANES`` targets at a time; the loss takes one ``log`` per prediction, of a product.
"""

import math

import numpy as np
from numba import njit

from wordvec.kernels.simd import (
    LANES,
    vabs,
    vadd,
    vdiv,
    vfloor,
    vfma,
    vget1,
    vlanes_below,
    vmin,
    vmul,
    vpow2,
    vprod_one_plus,
    vput1,
    vrelu,
    vsplat,
    vsub,
    vsum,
    vwhere_nonneg,
    vzero,
)

_POWERS_OF_TWO = np.array([2.0**k for k in range(-64, 65)], dtype=np.float32)
"""2**k for k in -64..64, at index k + 64: the scale of :func:`exp_f32`."""

EXP_LIMIT = np.float32(40.0)
"""Scores beyond +-EXP_LIMIT are exponentiated as +-EXP_LIMIT: sigmoid is then within 4.3e-18
of 0 or 1 (float32 rounds it to 1 above 17), and log(1 + exp(-|f|)) within 4.3e-18 of 0."""


@njit(cache=True, nogil=True)
def exp_f32(x):
    """e**x for a float32 |x| <= 44, within one float32 ulp, without a library call.

    Cody and Waite's reduction x = k ln 2 + r, |r| <= ln(2) / 2 (ln 2 in two parts, so r is
    exact), Cephes' degree-7 polynomial for e**r, and 2**k from a table. Compiled without
    fastmath: reassociating the reduction would lose its precision.
    """
    index = int(x * np.float32(1.4426950408889634) + np.float32(64.5))  # k + 64 >= 0: floor
    k = np.float32(index - 64)
    r = x - k * np.float32(0.693359375)
    r = r - k * np.float32(-2.12194440e-4)
    q = np.float32(1.9875691500e-4)
    q = q * r + np.float32(1.3981999507e-3)
    q = q * r + np.float32(8.3334519073e-3)
    q = q * r + np.float32(4.1665795894e-2)
    q = q * r + np.float32(1.6666665459e-1)
    q = q * r + np.float32(5.0000001201e-1)
    q = q * r * r + r + np.float32(1.0)
    return q * _POWERS_OF_TWO[index]


@njit(cache=True, nogil=True, inline="always")
def vexp(x):
    """e**x lane by lane (float32 vectors, :mod:`wordvec.kernels.simd`) for -87 < x <= 88:
    :func:`exp_f32`'s reduction and polynomial, its steps fused multiply-adds, and 2**k made
    from the exponent bits instead of read from a table (a gather, lane by lane)."""
    k = vfloor(vfma(x, vsplat(1.4426950408889634), vsplat(0.5)))
    r = vfma(k, vsplat(-0.693359375), x)
    r = vfma(k, vsplat(2.12194440e-4), r)
    q = vfma(vsplat(1.9875691500e-4), r, vsplat(1.3981999507e-3))
    q = vfma(q, r, vsplat(8.3334519073e-3))
    q = vfma(q, r, vsplat(4.1665795894e-2))
    q = vfma(q, r, vsplat(1.6666665459e-1))
    q = vfma(q, r, vsplat(5.0000001201e-1))
    q = vadd(vfma(vmul(q, r), r, r), vsplat(1.0))  # q r r + r first: r + 1 would round r
    return vmul(q, vpow2(k))


@njit(cache=True, nogil=True, inline="always")
def logistic_steps(scores, labels, n, alpha, with_loss):
    """Replace ``scores[t]`` (t < n <= 1,000) by its SGD step size
    ``alpha * (labels[t] - sigmoid(f))`` and return the summed log loss
    ``-log P(labels[t] | f)`` of the scores, in float64 (0.0, not computed, unless
    ``with_loss``: the loss, a reduction, a float64 product and a ``log``, cost CBOW 5-7% of its
    time). A NaN score makes the loss NaN. ``labels`` are float32 1.0 or 0.0.

    With e = exp(-|f|) <= 1, sigmoid(f) is 1 / (1 + e) for f >= 0 and e / (1 + e) below, so
    label - sigmoid(f) is a numerator of e, 1, -1 or -e over 1 + e: one division a target and
    no cancellation (unlike 1 - sigmoid(f)). The loss is max(-f, 0) (label 1) or max(f, 0)
    (label 0), that is max(f, 0) - label * f, plus log(1 + e); the logs take one ``log`` of
    a product of n factors of at most 2 (hence n <= 1,000: ``TrainConfig`` bounds ``negative``,
    and a Huffman path over fewer than 2**63 tokens is shorter than 92).

    ``LANES`` scores at a time in vectors (:mod:`wordvec.kernels.simd`), the last chunk a
    partial one: the six targets of negative sampling are one pass, where the loop that LLVM
    vectorised by eight ran them one by one in its scalar remainder (85 ns for six scores
    against 41 ns now, on an AMD Zen 3 core; whole CBOW and hierarchical-softmax jobs 4-5%
    faster, skip-gram 2%, medians of rounds interleaved in one process). Inlined, so that it
    runs in its caller's code: as a call of its own it was ~10% slower over a whole job.
    """
    one = vsplat(1.0)
    half = vsplat(0.5)
    step_size = vsplat(alpha)
    loss = 0.0
    product = 1.0
    for t in range(0, n, LANES):
        count = n - t
        f = vget1(scores, t, count)  # 0 past count, and so are the labels
        label = vget1(labels, t, count)
        # vmin gives EXP_LIMIT for a NaN |f|, so e stays finite; vrelu keeps the NaN for the loss
        e = vexp(vsub(vzero(), vmin(vabs(f), vsplat(EXP_LIMIT))))
        if_one = vwhere_nonneg(f, e, one)
        if_zero = vsub(vzero(), vwhere_nonneg(f, one, e))
        numerator = vwhere_nonneg(vsub(label, half), if_one, if_zero)  # a select: exact
        vput1(scores, t, vdiv(vmul(step_size, numerator), vadd(one, e)), count)
        if with_loss:
            product *= vprod_one_plus(vmul(e, vlanes_below(count)))  # e in the lanes used
            loss += vsum(vsub(vrelu(f), vmul(label, f)))
    if not with_loss:
        return 0.0
    return loss + math.log(product)
