"""A per-thread xorshift generator in int64 arithmetic with masks.

32-bit Marsaglia xorshift: no uint64 overflow (so it behaves the same with NUMBA_DISABLE_JIT),
and each training job seeds its own state, so the 2**32 - 1 period is never reached in one job.
The state is a one-element int64 array owned by one thread.
"""

from numba import njit

_MASK32 = 0xFFFFFFFF
_TO_UNIT = 1.0 / 4294967296.0


@njit(cache=True, nogil=True, inline="always")
def next_u32(state):
    """Advance the state; return a uniform integer in [1, 2**32)."""
    x = state[0]
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    state[0] = x
    return x


@njit(cache=True, nogil=True, inline="always")
def rand_below(state, n):
    """A uniform integer in [0, n) for n < 2**31."""
    return (next_u32(state) * n) >> 32


@njit(cache=True, nogil=True, inline="always")
def rand_unit(state):
    """A uniform float in (0, 1)."""
    return next_u32(state) * _TO_UNIT


def seed_state(seed: int, *stream: int) -> int:
    """A non-zero 32-bit start state for the generator, mixed from a seed and a stream id
    (SplitMix64 finaliser, in Python integers)."""
    x = seed & 0xFFFFFFFFFFFFFFFF
    for part in stream:
        x = (x * 0x9E3779B97F4A7C15 + part + 1) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 31
    return (x & _MASK32) or 1
