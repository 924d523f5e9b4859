"""float32 SIMD vectors for numba kernels: a register of ``LANES`` floats and its operations.

Why: LLVM vectorises a loop over a row of ``dim`` floats by itself, but it does not know
``dim``; for dim 100 it compiled the four-row score loop into one pass of four 16-float
vectors, then eight-float passes, then four scalar steps, with checks between them, and the
remainder cost more than the vector part. Kernels written with these operations say which
vectors they load and add, one ``LANES``-float chunk of a row at a time, and the last chunk
(``dim % LANES`` floats) is one narrower or masked load or store. The window step of skip-gram
(:func:`wordvec.kernels.losses.shared_logistic_updates`) so took 640 ns instead of 790 for a
window of six inputs and six targets at dim 100 (its scores alone 185 ns instead of 330), and
skip-gram trained 4-10% faster, on an AVX-512 core (AMD Zen 5). Only where a masked store is
not read back soon: loads cannot take their data from a masked store still in flight, and the
same helpers for the window loop's row copies (stored, then read at the next window) made
skip-gram 8% slower. A last chunk of 4 floats (dim 100 or 300 with AVX2) or of 8 (AVX-512's
dim 200) is a plain store of that width instead: on an AVX2 core (AMD Zen 3) a masked store
took 5.5 ns, a whole one 0.8.

A vector is numba type ``f32v`` (LLVM ``<LANES x float>``): 16 lanes where the CPU has
AVX-512, else 8 (AVX2 runs a 16-lane vector as two registers; 8 keeps register blocking in
its 16 registers). Operations:

- :func:`vzero`, :func:`vsplat`: a vector of zeros, or of one value in every lane;
  :func:`vsplat_at`: an array's element in every lane, read without numba's wrap-around of
  negative indices;
- :func:`vget` / :func:`vput`: ``matrix[row, col:col + count]`` loaded (lanes past
  ``count`` are 0) or stored (lanes past it are left alone); ``count >= LANES`` is a whole
  vector. Called with ``count=LANES``, a constant, the partial paths compile away;
  :func:`vget1` / :func:`vput1` the same for ``array[col:col + count]`` of a 1-d array;
- :func:`vfma`: ``a * b + c`` in one rounding; :func:`vadd`;
- :func:`vsum`: the sum of the lanes; :func:`vsums4`: four vectors' sums, reduced together
  (fewer shuffles than four :func:`vsum`); :func:`vprod_one_plus`: the product of ``1 + a``
  over the lanes, in float64;
- for the logistic function (:func:`wordvec.kernels.activations.logistic_steps`), with IEEE
  semantics: :func:`vmul`, :func:`vsub`, :func:`vdiv`, :func:`vabs`, :func:`vfloor`,
  :func:`vmin` and :func:`vrelu` (each says what a NaN gives), :func:`vwhere_nonneg` (a
  select on a sign), :func:`vpow2` (2**k from the exponent bits) and :func:`vlanes_below`.

Addresses are not bounds-checked (the callers loop within the rows they were given), and the
lanes of a partial load past ``count`` never touch memory, so the last row of a matrix is read
safely; an array of another dtype or layout fails to compile. The sum of a vector's lanes is
in a different order from a scalar loop's, so results differ from such a loop in the last bits
of float32.
"""

import llvmlite.binding as llvm_binding
from llvmlite import ir
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic, models, register_model


def _lanes() -> int:
    """16 where numba compiles for AVX-512 (its ``NUMBA_CPU_FEATURES``, else the host's), else 8."""
    features = config.CPU_FEATURES or llvm_binding.get_host_cpu_features().flatten()
    return 16 if "+avx512f" in features.split(",") else 8


LANES = _lanes()
"""float32 lanes of a vector."""

_FLOAT = ir.FloatType()
_VECTOR = ir.VectorType(_FLOAT, LANES)
_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_MASK = ir.VectorType(ir.IntType(1), LANES)
_INTS = ir.VectorType(_I32, LANES)
_ZEROS = ir.Constant(_VECTOR, [0.0] * LANES)


def _int_lanes(value):
    """A vector constant of int32 ``value`` in every lane."""
    return ir.Constant(_INTS, [value] * LANES)


_NARROW_WIDTHS = tuple(LANES >> k for k in range(1, LANES.bit_length()) if LANES >> k >= 4)
"""Counts of a row's last chunk loaded and stored as one plain vector of that many floats: a
masked store took 5.5 ns against 0.8 for a whole vector on an AVX2 core (AMD Zen 3), and a
load cannot take its data from a masked store still in flight. The last chunk of dim 100 or
300 is 4 floats with AVX2, of dim 100 4 and of dim 200 8 with AVX-512."""
_FAST = ("fast",)  # these are the kernels' own sums: any order, fused multiply-adds


class F32Vector(types.Type):
    """numba's type of a vector of ``LANES`` float32."""

    def __init__(self):
        super().__init__(name=f"f32x{LANES}")


f32v = F32Vector()


@register_model(F32Vector)
class _F32VectorModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, _VECTOR)


def _splat(builder, value, vector_type):
    """``value`` in every lane of a vector of ``vector_type``."""
    first = builder.insert_element(ir.Constant(vector_type, ir.Undefined), value, _I32(0))
    lanes = vector_type.count
    return builder.shuffle_vector(
        first, first, ir.Constant(ir.VectorType(_I32, lanes), [0] * lanes)
    )


def _vector_pointer(context, builder, sig, args, n_indices):
    """Pointer to ``array[index, ...]`` (``args[0]`` indexed by the next ``n_indices``
    arguments), as a pointer to a vector."""
    array_type, array = sig.args[0], context.make_array(sig.args[0])(context, builder, args[0])
    indices = [
        context.cast(builder, v, t, types.intp)
        for v, t in zip(args[1 : 1 + n_indices], sig.args[1 : 1 + n_indices])
    ]
    pointer = cgutils.get_item_pointer(
        context, builder, array_type, array, indices, wraparound=False
    )
    return builder.bitcast(pointer, _VECTOR.as_pointer())


def _lanes_below(builder, count):
    """The mask of lanes ``< count``."""
    lanes = ir.Constant(ir.VectorType(_I64, LANES), list(range(LANES)))
    return builder.icmp_signed("<", lanes, _splat(builder, count, ir.VectorType(_I64, LANES)))


def _chunk(context, builder, sig, args):
    """``(pointer, count, whole)`` of a chunk intrinsic's arguments (the array, one index per
    dimension, then the count last): the chunk's address as a pointer to a vector, the count
    as int64, and whether it covers a whole vector."""
    n_indices = sig.args[0].ndim
    count = context.cast(builder, args[-1], sig.args[-1], types.int64)
    pointer = _vector_pointer(context, builder, sig, args, n_indices)
    return pointer, count, builder.icmp_signed(">=", count, _I64(LANES))


def _masked(builder, operation):
    """LLVM's ``llvm.masked.load`` or ``llvm.masked.store`` (``operation``) of a vector."""
    pointer = _VECTOR.as_pointer()
    if operation == "load":
        signature = ir.FunctionType(_VECTOR, [pointer, _I32, _MASK, _VECTOR])
    else:
        signature = ir.FunctionType(ir.VoidType(), [_VECTOR, pointer, _I32, _MASK])
    return cgutils.get_or_insert_function(
        builder.module, signature, f"llvm.masked.{operation}.v{LANES}f32.p0"
    )


@intrinsic
def vzero(typingctx):
    """A vector of zeros."""

    def codegen(context, builder, sig, args):
        return _ZEROS

    return f32v(), codegen


@intrinsic
def vsplat(typingctx, value):
    """``value`` (as float32) in every lane."""

    def codegen(context, builder, sig, args):
        return _splat(builder, context.cast(builder, args[0], sig.args[0], types.float32), _VECTOR)

    return f32v(value), codegen


@intrinsic
def vsplat_at(typingctx, array, index):
    """``array[index]`` of a 1-d float32 array in every lane, for an ``index`` that is never
    negative: one broadcast load. Indexed by numba, a signed index that LLVM cannot prove
    non-negative is wrapped around first (five integer instructions); in the window step's
    loops, where the step sizes are read at ``t * n_in + b``, that code outnumbered the
    vector instructions, and skip-gram trained 1.2x faster without it."""
    if not (isinstance(array, types.Array) and array.dtype == types.float32 and array.ndim == 1):
        return None

    def codegen(context, builder, sig, args):
        data = context.make_array(sig.args[0])(context, builder, args[0])
        index = context.cast(builder, args[1], sig.args[1], types.intp)
        pointer = cgutils.get_item_pointer(
            context, builder, sig.args[0], data, [index], wraparound=False
        )
        return _splat(builder, builder.load(pointer, align=4), _VECTOR)

    return f32v(array, index), codegen


def _narrow(width):
    """LLVM's vector type of ``width`` floats."""
    return ir.VectorType(_FLOAT, width)


def _load_part(builder, pointer, count, widths):
    """The first ``count < LANES`` floats at ``pointer``, the other lanes 0: one plain load of
    a narrower vector where ``count`` is one of ``widths``, else a masked load."""
    if not widths:
        mask = _lanes_below(builder, count)
        return builder.call(_masked(builder, "load"), [pointer, _I32(4), mask, _ZEROS])
    width = widths[0]
    with builder.if_else(builder.icmp_signed("==", count, _I64(width))) as (then, otherwise):
        with then:
            narrow = builder.load(builder.bitcast(pointer, _narrow(width).as_pointer()), align=4)
            zeros = ir.Constant(_narrow(width), [0.0] * width)
            widen = [i if i < width else width + (i - width) % width for i in range(LANES)]
            narrow_value = builder.shuffle_vector(narrow, zeros, ir.Constant(_INTS, widen))
            narrow_block = builder.block
        with otherwise:
            other_value = _load_part(builder, pointer, count, widths[1:])
            other_block = builder.block
    value = builder.phi(_VECTOR)
    value.add_incoming(narrow_value, narrow_block)
    value.add_incoming(other_value, other_block)
    return value


def _store_part(builder, vector, pointer, count, widths):
    """Store the first ``count < LANES`` lanes of ``vector`` at ``pointer``: one plain store of
    a narrower vector where ``count`` is one of ``widths``, else a masked store."""
    if not widths:
        mask = _lanes_below(builder, count)
        builder.call(_masked(builder, "store"), [vector, pointer, _I32(4), mask])
        return
    width = widths[0]
    with builder.if_else(builder.icmp_signed("==", count, _I64(width))) as (then, otherwise):
        with then:
            low = ir.Constant(ir.VectorType(_I32, width), list(range(width)))
            narrow = builder.shuffle_vector(vector, vector, low)
            builder.store(narrow, builder.bitcast(pointer, _narrow(width).as_pointer()), align=4)
        with otherwise:
            _store_part(builder, vector, pointer, count, widths[1:])


def _load_chunk(context, builder, sig, args):
    """Code of :func:`vget` and :func:`vget1`: ``args`` are the array, its indices, the count."""
    pointer, count, whole = _chunk(context, builder, sig, args)
    with builder.if_else(whole, likely=True) as (then, otherwise):
        with then:
            whole_value = builder.load(pointer, align=4)
            whole_block = builder.block
        with otherwise:
            part_value = _load_part(builder, pointer, count, _NARROW_WIDTHS)
            part_block = builder.block
    value = builder.phi(_VECTOR)
    value.add_incoming(whole_value, whole_block)
    value.add_incoming(part_value, part_block)
    return value


def _store_chunk(context, builder, sig, args):
    """Code of :func:`vput` and :func:`vput1`: ``args`` are the array, its indices, the vector,
    the count."""
    vector = args[-2]
    pointer, count, whole = _chunk(context, builder, sig, args)
    with builder.if_else(whole, likely=True) as (then, otherwise):
        with then:
            builder.store(vector, pointer, align=4)
        with otherwise:
            _store_part(builder, vector, pointer, count, _NARROW_WIDTHS)
    return context.get_dummy_value()


def _float32_array(array, ndim):
    """Whether numba type ``array`` is a C-contiguous float32 array of ``ndim`` dimensions,
    the only kind whose chunks these intrinsics address (any other fails to compile)."""
    return (
        isinstance(array, types.Array)
        and array.dtype == types.float32
        and array.ndim == ndim
        and array.layout == "C"
    )


@intrinsic
def vget(typingctx, matrix, row, col, count):
    """``matrix[row, col:col + min(count, LANES)]`` of a C-contiguous 2-d float32 array, the
    lanes past ``count`` zero."""
    if not _float32_array(matrix, 2):
        return None

    def codegen(context, builder, sig, args):
        return _load_chunk(context, builder, sig, args)

    return f32v(matrix, row, col, count), codegen


@intrinsic
def vput(typingctx, matrix, row, col, vector, count):
    """Store the first ``min(count, LANES)`` lanes of ``vector`` at ``matrix[row, col:]``."""
    if not _float32_array(matrix, 2):
        return None

    def codegen(context, builder, sig, args):
        return _store_chunk(context, builder, sig, args)

    return types.void(matrix, row, col, vector, count), codegen


@intrinsic
def vget1(typingctx, array, col, count):
    """``array[col:col + min(count, LANES)]`` of a contiguous 1-d float32 array, as
    :func:`vget`."""
    if not _float32_array(array, 1):
        return None

    def codegen(context, builder, sig, args):
        return _load_chunk(context, builder, sig, args)

    return f32v(array, col, count), codegen


@intrinsic
def vput1(typingctx, array, col, vector, count):
    """Store the first ``min(count, LANES)`` lanes of ``vector`` at ``array[col:]`` (a
    contiguous 1-d float32 array)."""
    if not _float32_array(array, 1):
        return None

    def codegen(context, builder, sig, args):
        return _store_chunk(context, builder, sig, args)

    return types.void(array, col, vector, count), codegen


@intrinsic
def vfma(typingctx, a, b, c):
    """``a * b + c`` lane by lane, rounded once."""

    def codegen(context, builder, sig, args):
        fma = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_VECTOR, [_VECTOR] * 3), f"llvm.fma.v{LANES}f32"
        )
        return builder.call(fma, args)

    return f32v(a, b, c), codegen


@intrinsic
def vadd(typingctx, a, b):
    """``a + b`` lane by lane."""

    def codegen(context, builder, sig, args):
        return builder.fadd(args[0], args[1], flags=_FAST)

    return f32v(a, b), codegen


def _lanewise(name, doc, build, arity=2):
    """An intrinsic ``name`` of ``arity`` vectors (1 to 3) whose lanes are
    ``build(builder, *args)``, with IEEE semantics (no fast-math flags: these serve the
    logistic function, whose NaN checks and exponent must hold)."""

    def typed(vectors):
        if not all(v == f32v for v in vectors):
            return None

        def codegen(context, builder, sig, args):
            return build(builder, *args)

        return f32v(*vectors), codegen

    # numba's intrinsics take named parameters, one per argument
    typers = {
        1: lambda typingctx, a: typed((a,)),
        2: lambda typingctx, a, b: typed((a, b)),
        3: lambda typingctx, a, b, c: typed((a, b, c)),
    }
    typer = typers[arity]
    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


def _select_lt(builder, a, b, then, otherwise):
    """``then`` where ``a < b``, else ``otherwise``, lane by lane (a NaN compares false)."""
    return builder.select(builder.fcmp_ordered("<", a, b), then, otherwise)


vmul = _lanewise("vmul", "``a * b`` lane by lane.", lambda b, x, y: b.fmul(x, y))
vsub = _lanewise("vsub", "``a - b`` lane by lane.", lambda b, x, y: b.fsub(x, y))
vdiv = _lanewise("vdiv", "``a / b`` lane by lane.", lambda b, x, y: b.fdiv(x, y))
vmin = _lanewise(
    "vmin",
    "``min(a, b)`` lane by lane; ``b`` where ``a`` is NaN.",
    lambda b, x, y: _select_lt(b, x, y, x, y),
)
vrelu = _lanewise(
    "vrelu",
    "``max(a, 0)`` lane by lane, NaN where ``a`` is NaN.",
    lambda b, x: _select_lt(b, x, _ZEROS, _ZEROS, x),
    arity=1,
)
vabs = _lanewise(
    "vabs",
    "``|a|`` lane by lane.",
    lambda b, x: b.call(_unary_intrinsic(b, "fabs"), [x]),
    arity=1,
)
vfloor = _lanewise(
    "vfloor",
    "The largest integer at most ``a``, lane by lane.",
    lambda b, x: b.call(_unary_intrinsic(b, "floor"), [x]),
    arity=1,
)
vpow2 = _lanewise(
    "vpow2",
    "``2 ** k`` lane by lane, for lanes that hold an integer ``-126 <= k <= 127``: the float "
    "whose exponent field is ``k + 127``.",
    lambda b, k: b.bitcast(
        b.shl(b.add(b.fptosi(k, _INTS), _int_lanes(127)), _int_lanes(23)), _VECTOR
    ),
    arity=1,
)
vwhere_nonneg = _lanewise(
    "vwhere_nonneg",
    "``a if x >= 0 else b`` lane by lane, called ``vwhere_nonneg(x, a, b)`` (``b`` where ``x`` "
    "is NaN).",
    lambda b, x, then, otherwise: b.select(b.fcmp_ordered(">=", x, _ZEROS), then, otherwise),
    arity=3,
)


def _unary_intrinsic(builder, name):
    """LLVM's ``llvm.<name>`` of a vector (``fabs``, ``floor``)."""
    return cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(_VECTOR, [_VECTOR]), f"llvm.{name}.v{LANES}f32"
    )


@intrinsic
def vlanes_below(typingctx, count):
    """1.0 in the lanes below ``count``, 0.0 in the others."""

    def codegen(context, builder, sig, args):
        count = context.cast(builder, args[0], sig.args[0], types.int64)
        ones = ir.Constant(_VECTOR, [1.0] * LANES)
        return builder.select(_lanes_below(builder, count), ones, _ZEROS)

    return f32v(count), codegen


def _reduce(builder, vector):
    reduce = cgutils.get_or_insert_function(
        builder.module,
        ir.FunctionType(_FLOAT, [_FLOAT, vector.type]),
        f"llvm.vector.reduce.fadd.v{vector.type.count}f32",
    )
    return builder.call(reduce, [ir.Constant(_FLOAT, 0.0), vector], fastmath=("reassoc",))


@intrinsic
def vprod_one_plus(typingctx, a):
    """The product of ``1 + a`` over ``a``'s lanes, in float64: a lane's ``a`` far below
    float32's epsilon still counts (the logistic loss's ``log(1 + e)`` of a confident score)."""

    def codegen(context, builder, sig, args):
        doubles = ir.VectorType(ir.DoubleType(), LANES)
        ones = ir.Constant(doubles, [1.0] * LANES)
        factors = builder.fadd(builder.fpext(args[0], doubles), ones)
        reduce = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.DoubleType(), [ir.DoubleType(), doubles]),
            f"llvm.vector.reduce.fmul.v{LANES}f64",
        )
        return builder.call(
            reduce, [ir.Constant(ir.DoubleType(), 1.0), factors], fastmath=("reassoc",)
        )

    return types.float64(a), codegen


@intrinsic
def vsum(typingctx, a):
    """The sum of ``a``'s lanes (float32)."""

    def codegen(context, builder, sig, args):
        return _reduce(builder, args[0])

    return types.float32(a), codegen


def _fold(builder, a, b, group):
    """Two vectors of groups of ``group`` partial sums -> one vector of groups of ``group // 2``:
    each group's halves added, a's groups first."""
    half, lanes = group // 2, a.type.count
    firsts = [g + i for g in range(0, 2 * lanes, group) for i in range(half)]
    seconds = [i + half for i in firsts]
    pick = ir.VectorType(_I32, lanes)
    return builder.fadd(
        builder.shuffle_vector(a, b, ir.Constant(pick, firsts)),
        builder.shuffle_vector(a, b, ir.Constant(pick, seconds)),
        flags=_FAST,
    )


@intrinsic
def vsums4(typingctx, a0, a1, a2, a3):
    """The sums of the lanes of ``a0``, ``a1``, ``a2`` and ``a3``: a tuple of four float32.

    A tree: the halves of a0 and a1 added in one vector and those of a2 and a3 in another, then
    the quarters of both in one, then the four groups folded in place: 2 + 1 + log2(LANES / 4)
    additions where four reductions take 4 * log2(LANES)."""

    def codegen(context, builder, sig, args):
        pair01 = _fold(builder, args[0], args[1], LANES)
        pair23 = _fold(builder, args[2], args[3], LANES)
        sums = _fold(builder, pair01, pair23, LANES // 2)  # four groups of LANES // 4
        group = LANES // 4
        while group > 1:  # fold each group in place: sums of a narrower vector
            width = sums.type.count
            pick = ir.VectorType(_I32, width // 2)
            firsts = [g + i for g in range(0, width, group) for i in range(group // 2)]
            seconds = [i + group // 2 for i in firsts]
            sums = builder.fadd(
                builder.shuffle_vector(sums, sums, ir.Constant(pick, firsts)),
                builder.shuffle_vector(sums, sums, ir.Constant(pick, seconds)),
                flags=_FAST,
            )
            group //= 2
        values = [builder.extract_element(sums, _I32(i)) for i in range(4)]
        return context.make_tuple(builder, sig.return_type, values)

    return types.UniTuple(types.float32, 4)(a0, a1, a2, a3), codegen
