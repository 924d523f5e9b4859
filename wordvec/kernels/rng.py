"""A per-thread SplitMix64 generator (Steele, Lea and Flood, 2014) on a one-element uint64 array.

Each training job seeds its own state from (seed, epoch, job), so results do not depend on
which thread runs a job. SplitMix64 passes BigCrush; an earlier 32-bit xorshift here drew
consecutive outputs that were correlated enough to bias alias-table sampling (chi-square 1.5x
its degrees of freedom over the noise distribution of 68k words).
"""

import numpy as np
from numba import njit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32, _S11 = (np.uint64(s) for s in (30, 27, 31, 32, 11))
_LOW32 = np.uint64(0xFFFFFFFF)
_TO_UNIT53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, nogil=True, inline="always")
def next_u64(state):
    """Advance the state; return 64 uniformly random bits (uint64)."""
    z = state[0] + _GAMMA
    state[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, nogil=True, inline="always")
def rand_below(state, n):
    """A uniform integer in [0, n) for 0 < n < 2**32."""
    return np.int64(((next_u64(state) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, nogil=True, inline="always")
def rand_unit(state):
    """A uniform float in [0, 1)."""
    return np.float64(next_u64(state) >> _S11) * _TO_UNIT53


@njit(cache=True, nogil=True, inline="always")
def below_and_coin(z, n):
    """``(i, coin)`` from one draw ``z`` of :func:`next_u64`: the high 32 bits pick i, uniform
    in [0, n) for 0 < n < 2**32, and the low 32 are the coin, uniform in [0, 2**32)
    (SplitMix64's output bits are independent)."""
    return np.int64(((z >> _S32) * np.uint64(n)) >> _S32), z & _LOW32


def seed_state(seed: int, *stream: int) -> int:
    """A 64-bit start state mixed from a seed and a stream id (e.g. epoch and job)."""
    x = seed & 0xFFFFFFFFFFFFFFFF
    for part in stream:
        x = (x * 0x9E3779B97F4A7C15 + part + 1) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x
