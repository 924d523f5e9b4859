"""GloVe's weighted least squares, one AdaGrad step per co-occurrence, as Stanford's glove.c.

For a nonzero count x of (word i, context j), with f(x) = min(1, (x / x_max) ** alpha)::

    J = f(x) / 2 * (w_i . c_j + b_i + b~_j - log x) ** 2

Its gradients are f(x) * diff * c_j for w_i, f(x) * diff * w_i for c_j, and f(x) * diff for
each bias. As in Stanford's glove.c, a vector entry steps by ``eta * g / sqrt(G)``, where G
(starting at 1) sums the squares of its earlier ``eta * g``, and a bias steps by
``g / sqrt(G)``, G summing its earlier ``g ** 2``: glove.c applies eta to the vectors only.
Scaling the bias steps by eta too (as we did) left the biases 20 times slower to absorb each
word's frequency, which the vectors then carried: WS-353 0.211 against glove.c's 0.243 on a
2M-token slice (window 10, x_max 100, 15 epochs), 0.256 with glove.c's bias steps.
"""

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.prefetch import prefetch_row
from wordvec.kernels.rng import rand_below

AHEAD = 4
"""Steps ahead whose rows are prefetched: the shuffled counts visit rows in no order a cache
follows. On 250k tokens (5,386 words), one thread: 770k updates/s without, 885k with 4 (1: 817k,
8: 786k, 16: 797k)."""


class GloveWeights(NamedTuple):
    """GloVe's parameters and their AdaGrad sums of squared steps (``g*``, starting at 1)."""

    w: np.ndarray  # word vectors W, (V, dim) float32
    c: np.ndarray  # context vectors W~
    b: np.ndarray  # word biases, (V,)
    bc: np.ndarray  # context biases
    gw: np.ndarray
    gc: np.ndarray
    gb: np.ndarray
    gbc: np.ndarray


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def glove_step(i, j, log_x, weights, log_x_max, alpha, eta):
    """One AdaGrad step for the count x of (i, j), given as ``log_x`` (and x_max as
    ``log_x_max``); returns its cost J (before the step).

    The trainer takes the logs once, not in every epoch: f(x) is then one ``exp``,
    ``exp(alpha * (log x - log x_max))``, where ``(x / x_max) ** alpha`` took a log and a
    ``pow`` per step (2.3M -> 2.8M updates per CPU second, one thread, the 2M-token slice).

    ``error_model="numpy"``: numba's default checks each float division for a zero divisor,
    and that branch kept LLVM from vectorising the update loop (scalar ``sqrtss``); without it
    the loop runs in AVX-512 and the step takes half the time (1.15M -> 2.3M updates per CPU
    second on the 2M-token slice). The divisors are square roots of sums that start at 1.
    The step is float32 like the weights: a float64 step made the loop divide in float64; in
    float32 LLVM turns ``g / sqrt(G)`` into ``g * rsqrt(G)`` with a Newton step (2.8M -> 4.3M).
    """
    w, c, b, bc = weights.w, weights.c, weights.b, weights.bc
    gw, gc, gb, gbc = weights.gw, weights.gc, weights.gb, weights.gbc
    dim = w.shape[1]
    diff = b[i] + bc[j] - log_x
    for k in range(dim):
        diff += w[i, k] * c[j, k]
    weight = 1.0 if log_x >= log_x_max else math.exp(alpha * (log_x - log_x_max))
    fdiff = weight * diff
    cost = 0.5 * fdiff * diff
    step = np.float32(eta * fdiff)  # float32: a float64 step made the loop divide in float64
    for k in range(dim):
        grad_w = step * c[j, k]
        grad_c = step * w[i, k]
        w[i, k] -= grad_w / math.sqrt(gw[i, k])
        c[j, k] -= grad_c / math.sqrt(gc[j, k])
        gw[i, k] += grad_w * grad_w
        gc[j, k] += grad_c * grad_c
    b[i] -= fdiff / math.sqrt(gb[i])  # no eta, as glove.c
    bc[j] -= fdiff / math.sqrt(gbc[j])
    gb[i] += fdiff * fdiff
    gbc[j] += fdiff * fdiff
    return cost


@njit(cache=True, nogil=True)
def shuffle_together(rows, cols, log_values, rng):
    """Shuffle three equally long arrays by one permutation, in place (Fisher-Yates)."""
    for k in range(rows.shape[0] - 1, 0, -1):
        m = rand_below(rng, k + 1)
        rows[k], rows[m] = rows[m], rows[k]
        cols[k], cols[m] = cols[m], cols[k]
        log_values[k], log_values[m] = log_values[m], log_values[k]


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", _nrt=False)
def glove_steps(rows, cols, log_values, weights, log_x_max, alpha, eta):
    """A step on each nonzero (its count given as ``log_values``) in order; return the summed
    cost. Threads share the weights without locks (Hogwild), as glove.c's threads do."""
    cost = 0.0
    n = rows.shape[0]
    for k in range(n):
        if k + AHEAD < n:  # the rows of a later step, scattered over the matrices
            _prefetch_step(rows[k + AHEAD], cols[k + AHEAD], weights)
        cost += glove_step(rows[k], cols[k], log_values[k], weights, log_x_max, alpha, eta)
    return cost


@njit(cache=True, nogil=True, inline="always")
def _prefetch_step(i, j, weights):
    """Start loading the four rows the step for (i, j) reads and writes."""
    prefetch_row(weights.w, i, True)
    prefetch_row(weights.gw, i, True)
    prefetch_row(weights.c, j, True)
    prefetch_row(weights.gc, j, True)
