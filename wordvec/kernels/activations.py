"""The logistic function and its log loss over one prediction's targets, in float32.

word2vec reads sigmoid from a 1,000-entry table (error ~3e-3). Here it is exact to float32
rounding, and cheaper than calling ``expf`` and ``log`` per target, which took a quarter of
hierarchical softmax's time: the exponential is a polynomial (:func:`exp_f32`), so
:func:`logistic_steps` makes no library call per target and its loop runs several targets at
a time in SIMD registers; the loss takes one ``log`` per prediction, of a product.
"""

import math

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH

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


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def logistic_steps(scores, labels, n, alpha):
    """Replace ``scores[t]`` (t < n <= 1,000) by its SGD step size
    ``alpha * (labels[t] - sigmoid(f))`` and return the summed log loss
    ``-log P(labels[t] | f)`` of the scores, in float64. A NaN score makes the loss NaN.

    With e = exp(-|f|) <= 1, sigmoid(f) is 1 / (1 + e) for f >= 0 and e / (1 + e) below, so
    label - sigmoid(f) is a numerator of e, 1, -1 or -e over 1 + e: one division a target and
    no cancellation (unlike 1 - sigmoid(f)). The loss is max(-f, 0) (label 1) or max(f, 0)
    (label 0) plus log(1 + e), and the logs take one ``log`` of a product of n factors of at
    most 2 (hence n <= 1,000: ``TrainConfig`` bounds ``negative``, and a Huffman path over
    fewer than 2**63 tokens is shorter than 92).

    Inlined, so that the loop is in its caller's code: as a call of its own it was ~10% slower
    over a whole job (measured). It takes its caller's compile options, then, and vectorises
    only where they include ``error_model="numpy"`` (which drops a division-by-zero check;
    1 + e >= 1 here).
    """
    alpha32 = np.float32(alpha)
    loss = 0.0
    product = 1.0
    for t in range(n):
        f = scores[t]
        # The constant comes first, so a NaN |f| gives a finite e (and an index in the
        # table); the max below keeps the NaN for the loss.
        e = exp_f32(-min(EXP_LIMIT, abs(f)))
        label_is_one = labels[t] == 1
        nonnegative = f >= np.float32(0.0)
        numerator = e if label_is_one == nonnegative else np.float32(1.0)
        if not label_is_one:
            numerator = -numerator
        scores[t] = alpha32 * numerator / (np.float32(1.0) + e)
        product *= 1.0 + float(e)
        loss += max(float(-f) if label_is_one else float(f), 0.0)
    return loss + math.log(product)
