"""Binary logistic targets, updated together: the step of negative sampling and hierarchical
softmax (:mod:`wordvec.kernels.losses` chooses them).

Given the hidden vector ``h``, the dot products of all of a prediction's targets are
independent, so they are computed together (their rows load in parallel and the CPU overlaps
the arithmetic) before any row is updated, and so are their step sizes, in one loop that runs
several targets at a time in SIMD registers (:func:`wordvec.kernels.activations.logistic_steps`).
That is the same SGD step as word2vec's one target after another, except when a noise word is
drawn twice for one prediction, where the second use sees the first update in its gradient but
not in its score.

Two ways of calling that step: :func:`logistic_updates` (one input vector) and
:func:`shared_logistic_updates` (several input vectors sharing their targets: pWord2Vec's
window step).

The functions take plain arrays, not the ``OutputLayer`` tuple, and update ``w_out`` in place;
each returns the loss before the step.
"""

import numpy as np
from numba import njit

from wordvec.kernels import FASTMATH
from wordvec.kernels.activations import logistic_steps
from wordvec.kernels.simd import (
    LANES,
    vadd,
    vfma,
    vget,
    vget1,
    vmul,
    vput,
    vput1,
    vsplat_at,
    vsum,
    vsums4,
    vzero,
)


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", inline="always")
def logistic_updates(h, w_out, rows, labels, n, grad, alpha, dots, with_loss):
    """One SGD step on sum_t logloss(sigmoid(h . w_out[rows[t]]), labels[t]) for t < n.

    ``grad`` is set (not added to) to the step for ``h``: sum_t step_t * w_out[rows[t]], with
    the rows before their update; ``n`` is at least 1 (the word to predict).
    ``dots`` is scratch of at least ``n``: the scores, then their step sizes. The loss is
    returned only ``with_loss`` (else 0.0; :func:`~wordvec.kernels.activations.logistic_steps`).
    Rows are indexed in
    place, never sliced: array views cost reference-count updates that threads contend on.
    ``error_model="numpy"`` lets the inlined :func:`logistic_steps` vectorise; this function is
    inlined in turn (CBOW, one thread: +4.3% median over eight alternating runs against a call
    per prediction), so its callers compile with that error model too.

    The rows are taken a ``LANES``-float chunk at a time (:mod:`wordvec.kernels.simd`), the
    last chunk narrower (4 floats of dim 100): the scores four rows per pass, so that one load
    of ``h`` serves four rows; the updates one chunk of every target in turn, so that ``grad``'s
    chunk stays in a register and a row listed twice (a noise word drawn twice) sees its first
    update. LLVM's own vectorisation of these loops over ``dim`` (unknown to it) ran one pass
    of 64 floats, then 8-float passes, then scalar steps, with checks between them: CBOW, one
    thread, 2M tokens, trained 1.26x faster with the chunks (five alternating runs, AMD Zen 4),
    CBOW with hierarchical softmax 1.18x.
    """
    dim = h.shape[0]
    whole = dim - dim % LANES  # a row's last dim - whole floats: one narrower chunk
    in_fours = n - n % 4
    for t in range(0, in_fours, 4):
        dots[t], dots[t + 1], dots[t + 2], dots[t + 3] = dots_4(
            h, w_out, rows[t], rows[t + 1], rows[t + 2], rows[t + 3]
        )
    for t in range(in_fours, n):
        dots[t] = row_dot(h, w_out, rows[t])
    loss = logistic_steps(dots, labels, n, alpha, with_loss)
    for c in range(0, whole, LANES):
        _update_chunk(h, w_out, rows, n, dots, grad, c, LANES)
    if whole < dim:
        _update_chunk(h, w_out, rows, n, dots, grad, whole, dim - whole)
    return loss


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def dots_4(h, w_out, r0, r1, r2, r3):
    """``h . w_out[r]`` for the rows ``r0 .. r3``, a SIMD chunk at a time: one load of ``h``
    serves four rows."""
    dim = h.shape[0]
    whole = dim - dim % LANES
    a0 = a1 = a2 = a3 = vzero()
    for c in range(0, whole, LANES):
        a0, a1, a2, a3 = _scores_4(h, w_out, r0, r1, r2, r3, c, LANES, a0, a1, a2, a3)
    if whole < dim:
        a0, a1, a2, a3 = _scores_4(h, w_out, r0, r1, r2, r3, whole, dim - whole, a0, a1, a2, a3)
    return vsums4(a0, a1, a2, a3)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _scores_4(h, w_out, r0, r1, r2, r3, c, count, a0, a1, a2, a3):
    """The score accumulators of ``h`` with rows ``r0 .. r3`` of ``w_out``, plus this chunk
    (``count`` floats from column ``c``): five loads for four products."""
    x = vget1(h, c, count)
    return (
        vfma(x, vget(w_out, r0, c, count), a0),
        vfma(x, vget(w_out, r1, c, count), a1),
        vfma(x, vget(w_out, r2, c, count), a2),
        vfma(x, vget(w_out, r3, c, count), a3),
    )


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def row_dot(h, w_out, row):
    """``h . w_out[row]``, a SIMD chunk at a time."""
    dim = h.shape[0]
    whole = dim - dim % LANES
    acc = vzero()
    for c in range(0, whole, LANES):
        acc = vfma(vget1(h, c, LANES), vget(w_out, row, c, LANES), acc)
    if whole < dim:
        count = dim - whole
        acc = vfma(vget1(h, whole, count), vget(w_out, row, whole, count), acc)
    return vsum(acc)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _update_chunk(h, w_out, rows, n, steps, grad, c, count):
    """This chunk of both steps: ``grad`` = sum_t steps[t] * w_out[rows[t]], each row taken
    before its own update and after the targets' before it (a row listed twice sees its first
    update), and w_out[rows[t]] += steps[t] * h. The chunk of ``grad`` stays in a register
    over all the targets."""
    x = vget1(h, c, count)
    step = vzero()
    for t in range(n):
        row = rows[t]
        size = vsplat_at(steps, t)
        o = vget(w_out, row, c, count)
        step = vfma(size, o, step)
        vput(w_out, row, c, vfma(size, x, o), count)
    vput1(grad, c, step, count)


STEP_CHUNK = 999
"""Scores turned into step sizes per call of :func:`logistic_steps` (which takes at most 1,000)."""


@njit(cache=True, nogil=True, fastmath=FASTMATH, error_model="numpy", _nrt=False)
def shared_logistic_updates(
    inputs, input_sums, slots, n_in, w_out, rows, labels, n, input_grads, alpha, dots, flat
):
    """One SGD step for a window whose ``n_in`` inputs share their logistic targets
    (pWord2Vec's HogBatch): ``rows[:n]`` with ``labels[:n]``, the word to predict and its noise
    words, or the inner nodes of its Huffman path; the loss is sum_b sum_t
    logloss(sigmoid(x_b . w_out[rows[t]]), labels[t]) over the inputs x_b = ``inputs[slots[b]]``,
    b < n_in.

    Input b takes its step, ``-alpha * dLoss/dx_b``, in place, and the step is added to
    ``input_sums[slots[b]]`` too (which the caller adds to the rows the input came from);
    ``w_out``'s target rows are updated in place. Both gradients are taken at the weights before
    the step, so a noise word drawn twice counts twice (as pWord2Vec weights its duplicates):
    its row takes one update, with the step sizes of both. ``input_grads`` is scratch of n_in
    rows (the inputs' steps while more than :data:`STEP_ROWS` targets are summed), ``dots`` of
    at least (n + 1) * n_in floats, ``flat`` of n * n_in: the scores, then their step sizes, in
    target-major order, and their labels. ``rows`` is left reordered (the different rows
    first). Returns the summed loss before the step.

    The work is three small dense products, each a chunk of ``LANES`` floats of the rows at a
    time (:mod:`wordvec.kernels.simd`): the scores, two target rows against four inputs per
    pass (:func:`_dots_2x4`); then both gradients in one pass over the target rows, six rows at
    a time (:func:`_steps_6x`), where a chunk of a row, loaded once, serves every input's
    gradient and takes every input's step. Each target row is read once per window instead of
    once per input, and noise is drawn once.
    """
    dim = w_out.shape[1]
    whole = dim - dim % LANES  # the last dim - whole floats of a row: one masked chunk
    quads = n_in - n_in % 4
    for t in range(0, n - n % 2, 2):
        for b in range(0, quads, 4):
            zero = vzero()
            acc = (zero, zero, zero, zero, zero, zero, zero, zero)
            for c in range(0, whole, LANES):
                acc = _dots_2x4(w_out, rows, t, inputs, slots, b, c, LANES, acc)
            if whole < dim:
                acc = _dots_2x4(w_out, rows, t, inputs, slots, b, whole, dim - whole, acc)
            _put4(dots, t * n_in + b, vsums4(acc[0], acc[1], acc[2], acc[3]))
            _put4(dots, (t + 1) * n_in + b, vsums4(acc[4], acc[5], acc[6], acc[7]))
    if n % 2:  # the last target: one row against four inputs per pass
        t = n - 1
        for b in range(0, quads, 4):
            a0 = a1 = a2 = a3 = vzero()
            for c in range(0, whole, LANES):
                a0, a1, a2, a3 = _dots_1x4(w_out, rows[t], inputs, slots, b, c, LANES,
                                           a0, a1, a2, a3)  # fmt: skip
            if whole < dim:
                a0, a1, a2, a3 = _dots_1x4(w_out, rows[t], inputs, slots, b, whole, dim - whole,
                                           a0, a1, a2, a3)  # fmt: skip
            _put4(dots, t * n_in + b, vsums4(a0, a1, a2, a3))
    if n_in - quads >= 2:  # two inputs left: against two targets per pass
        b = quads
        for t in range(0, n - n % 2, 2):
            a0 = a1 = a2 = a3 = vzero()
            for c in range(0, whole, LANES):
                a0, a1, a2, a3 = _dots_2x2(w_out, rows, t, inputs, slots, b, c, LANES,
                                           a0, a1, a2, a3)  # fmt: skip
            if whole < dim:
                a0, a1, a2, a3 = _dots_2x2(w_out, rows, t, inputs, slots, b, whole, dim - whole,
                                           a0, a1, a2, a3)  # fmt: skip
            d0, d1, d2, d3 = vsums4(a0, a1, a2, a3)
            _put(dots, t * n_in + b, d0)
            _put(dots, t * n_in + b + 1, d1)
            _put(dots, (t + 1) * n_in + b, d2)
            _put(dots, (t + 1) * n_in + b + 1, d3)
        if n % 2:
            _put(dots, (n - 1) * n_in + b, _dot(w_out, rows[n - 1], inputs, slots[b], dim))
            _put(dots, (n - 1) * n_in + b + 1, _dot(w_out, rows[n - 1], inputs, slots[b + 1], dim))
    if n_in % 2:  # the last input
        for t in range(n):
            _put(dots, t * n_in + n_in - 1, _dot(w_out, rows[t], inputs, slots[n_in - 1], dim))
    for t in range(n):
        label = labels[t]
        for b in range(n_in):
            _put(flat, t * n_in + b, label)
    n_scores = n * n_in
    loss = 0.0
    for first in range(0, n_scores, STEP_CHUNK):
        loss += logistic_steps(
            dots[first:], flat[first:], min(STEP_CHUNK, n_scores - first), alpha, True
        )
    distinct = _merge_repeated_rows(rows, n, dots, n_in)
    zeros = distinct * n_in  # the step sizes of a block's missing rows
    for b in range(n_in):
        _put(dots, zeros + b, np.float32(0.0))
    for t in range(0, distinct, STEP_ROWS):
        count = min(STEP_ROWS, distinct - t)
        for c in range(0, whole, LANES):
            _steps_6x(w_out, rows, t, count, inputs, input_sums, slots, n_in, dots, zeros,
                      input_grads, t + count == distinct, c, LANES)  # fmt: skip
        if whole < dim:
            _steps_6x(w_out, rows, t, count, inputs, input_sums, slots, n_in, dots, zeros,
                      input_grads, t + count == distinct, whole, dim - whole)  # fmt: skip
    return loss


STEP_ROWS = 6
"""Target rows whose chunks :func:`_steps_6x` holds at once: twelve vectors of rows (before and
after) and six of step sizes, in AVX-512's 32 registers."""


@njit(cache=True, nogil=True, inline="always")
def _merge_repeated_rows(rows, n, steps, n_in):
    """Move the different rows of ``rows[:n]`` to its front, in the order they first come, with
    their step sizes (``steps``, n_in a target, target-major); a row listed again adds its step
    sizes to its first's. Return how many rows differ."""
    distinct = 0
    for t in range(n):
        row = rows[t]
        first = 0
        while first < distinct and rows[first] != row:
            first += 1
        if first < distinct:  # seen: its step sizes join the first's
            for b in range(n_in):
                _put(steps, first * n_in + b, steps[first * n_in + b] + steps[t * n_in + b])
            continue
        if distinct < t:
            rows[distinct] = row
            for b in range(n_in):
                _put(steps, distinct * n_in + b, steps[t * n_in + b])
        distinct += 1
    return distinct


@njit(cache=True, nogil=True, inline="always")
def _put(array, index, value):
    """``array[index] = value`` for an ``index`` that is never negative, indexed unsigned: numba
    wraps a signed index around first (integer instructions as many as the store's), and LLVM
    cannot prove ``t * n_in + b`` non-negative (see :func:`~wordvec.kernels.simd.vsplat_at`)."""
    array[np.uint64(index)] = value


@njit(cache=True, nogil=True, inline="always")
def _put4(array, index, values):
    """``array[index:index + 4] = values`` (a tuple of four), as :func:`_put`."""
    _put(array, index, values[0])
    _put(array, index + 1, values[1])
    _put(array, index + 2, values[2])
    _put(array, index + 3, values[3])


# The chunk helpers below take ``count`` floats of the rows from column ``c``: ``LANES`` in
# the loops over whole chunks (a constant, so their loads compile to plain ones), the rest of
# the row after them. Each is inlined, with a version per block shape: a flag inside the loops
# choosing between shapes made the step 3x slower (measured).


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _dots_2x4(w_out, rows, t, inputs, slots, b, c, count, acc):
    """The eight score accumulators ``acc`` of targets ``t, t + 1`` (four each) with inputs
    ``b .. b + 3``, plus this chunk: six loads for eight products."""
    o0, o1 = vget(w_out, rows[t], c, count), vget(w_out, rows[t + 1], c, count)
    x0, x1 = vget(inputs, slots[b], c, count), vget(inputs, slots[b + 1], c, count)
    x2, x3 = vget(inputs, slots[b + 2], c, count), vget(inputs, slots[b + 3], c, count)
    return (vfma(x0, o0, acc[0]), vfma(x1, o0, acc[1]), vfma(x2, o0, acc[2]),
            vfma(x3, o0, acc[3]), vfma(x0, o1, acc[4]), vfma(x1, o1, acc[5]),
            vfma(x2, o1, acc[6]), vfma(x3, o1, acc[7]))  # fmt: skip


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _dots_1x4(w_out, row, inputs, slots, b, c, count, a0, a1, a2, a3):
    """The score accumulators of target row ``row`` with inputs ``b .. b + 3``, plus this chunk."""
    o = vget(w_out, row, c, count)
    return (
        vfma(vget(inputs, slots[b], c, count), o, a0),
        vfma(vget(inputs, slots[b + 1], c, count), o, a1),
        vfma(vget(inputs, slots[b + 2], c, count), o, a2),
        vfma(vget(inputs, slots[b + 3], c, count), o, a3),
    )


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _dots_2x2(w_out, rows, t, inputs, slots, b, c, count, a0, a1, a2, a3):
    """The score accumulators of targets ``t, t + 1`` with inputs ``b, b + 1``, plus this chunk."""
    o0, o1 = vget(w_out, rows[t], c, count), vget(w_out, rows[t + 1], c, count)
    x0, x1 = vget(inputs, slots[b], c, count), vget(inputs, slots[b + 1], c, count)
    return vfma(x0, o0, a0), vfma(x1, o0, a1), vfma(x0, o1, a2), vfma(x1, o1, a3)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _dot(w_out, row, inputs, slot, dim):
    """``w_out[row] . inputs[slot]``."""
    whole = dim - dim % LANES
    acc = vzero()
    for c in range(0, whole, LANES):
        acc = vfma(vget(inputs, slot, c, LANES), vget(w_out, row, c, LANES), acc)
    if whole < dim:
        count = dim - whole
        acc = vfma(vget(inputs, slot, whole, count), vget(w_out, row, whole, count), acc)
    return vsum(acc)


@njit(cache=True, nogil=True, fastmath=FASTMATH, inline="always")
def _steps_6x(w_out, rows, t, count, inputs, input_sums, slots, n_in, steps, zeros, input_grads,
              last, c, width):  # fmt: skip
    """This chunk (``width`` floats from column ``c``) of both steps for target rows
    ``rows[t : t + count]`` (up to :data:`STEP_ROWS`, all different), step sizes ``steps``
    (target-major): each input's, the sum of the step sizes times the rows before their step
    (added to what earlier blocks left in ``input_grads``; taken, by the ``last`` block, in
    place and into ``input_sums``, else left in ``input_grads``), and each row's, the sum of
    the step sizes times the inputs. A block of fewer rows repeats its first in the missing
    places, with zero step sizes (at ``zeros``), and does not store them."""
    end = t + count - 1  # the block's last row
    r0, r1, r2 = rows[t], rows[min(t + 1, end)], rows[min(t + 2, end)]
    r3, r4, r5 = rows[min(t + 3, end)], rows[min(t + 4, end)], rows[min(t + 5, end)]
    at0 = t * n_in
    at1 = at0 + n_in if count > 1 else zeros
    at2 = at0 + 2 * n_in if count > 2 else zeros
    at3 = at0 + 3 * n_in if count > 3 else zeros
    at4 = at0 + 4 * n_in if count > 4 else zeros
    at5 = at0 + 5 * n_in if count > 5 else zeros
    o0, o1, o2 = vget(w_out, r0, c, width), vget(w_out, r1, c, width), vget(w_out, r2, c, width)
    o3, o4, o5 = vget(w_out, r3, c, width), vget(w_out, r4, c, width), vget(w_out, r5, c, width)
    n0, n1, n2, n3, n4, n5 = o0, o1, o2, o3, o4, o5
    for b in range(n_in):
        x = vget(inputs, slots[b], c, width)
        s0, s1, s2 = vsplat_at(steps, at0 + b), vsplat_at(steps, at1 + b), vsplat_at(steps, at2 + b)
        s3, s4, s5 = vsplat_at(steps, at3 + b), vsplat_at(steps, at4 + b), vsplat_at(steps, at5 + b)
        grad = vadd(vfma(s0, o0, vfma(s2, o2, vmul(s4, o4))),
                    vfma(s1, o1, vfma(s3, o3, vmul(s5, o5))))  # fmt: skip
        if t > 0:
            grad = vadd(grad, vget(input_grads, b, c, width))
        if last:
            slot = slots[b]
            vput(inputs, slot, c, vadd(x, grad), width)
            vput(input_sums, slot, c, vadd(vget(input_sums, slot, c, width), grad), width)
        else:
            vput(input_grads, b, c, grad, width)
        n0, n1, n2 = vfma(s0, x, n0), vfma(s1, x, n1), vfma(s2, x, n2)
        n3, n4, n5 = vfma(s3, x, n3), vfma(s4, x, n4), vfma(s5, x, n5)
    vput(w_out, r0, c, n0, width)
    if count > 1:
        vput(w_out, r1, c, n1, width)
    if count > 2:
        vput(w_out, r2, c, n2, width)
    if count > 3:
        vput(w_out, r3, c, n3, width)
    if count > 4:
        vput(w_out, r4, c, n4, width)
    if count > 5:
        vput(w_out, r5, c, n5, width)
