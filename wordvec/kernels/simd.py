"""float32 SIMD vectors for numba kernels: a register of ``LANES`` floats and its operations.

Why: LLVM vectorises a loop over a row of ``dim`` floats by itself, but it does not know
``dim``; for dim 100 it compiled the four-row score loop into one pass of four 16-float
vectors, then eight-float passes, then four scalar steps, with checks between them, and the
remainder cost more than the vector part. Kernels written with these operations say which
vectors they load and add, one ``LANES``-float chunk of a row at a time, and the last chunk
(``dim % LANES`` floats) is one masked load or store. The window step of skip-gram
(:func:`wordvec.kernels.losses.shared_logistic_updates`) so took 640 ns instead of 790 for a
window of six inputs and six targets at dim 100 (its scores alone 185 ns instead of 330), and
skip-gram trained 4-10% faster, on an AVX-512 core (AMD Zen 5). Only where a masked store is
not read back soon: loads cannot take their data from a masked store still in flight, and the
same helpers for the window loop's row copies (stored, then read at the next window) made
skip-gram 8% slower.

A vector is numba type ``f32v`` (LLVM ``<LANES x float>``): 16 lanes where the CPU has
AVX-512, else 8 (AVX2 runs a 16-lane vector as two registers; 8 keeps register blocking in
its 16 registers). Operations:

- :func:`vzero`, :func:`vsplat`: a vector of zeros, or of one value in every lane;
- :func:`vget` / :func:`vput`: ``matrix[row, col:col + count]`` loaded (lanes past
  ``count`` are 0) or stored (lanes past it are left alone); ``count >= LANES`` is a whole
  vector. Called with ``count=LANES``, a constant, the masked path compiles away;
- :func:`vfma`: ``a * b + c`` in one rounding;
- :func:`vsum`: the sum of the lanes; :func:`vsums4`: four vectors' sums, reduced together
  (fewer shuffles than four :func:`vsum`).

Addresses are not bounds-checked (the callers loop within the rows they were given), and the
lanes of a masked load past ``count`` never touch memory, so the last row of a matrix is read
safely. The sum of a vector's lanes is in a different order from a scalar loop's, so results
differ from such a loop in the last bits of float32.
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


def _vector_pointer(context, builder, sig, args):
    """Pointer to ``matrix[row, col]`` (``args[:3]``), as a pointer to a vector."""
    matrix_type, matrix = sig.args[0], context.make_array(sig.args[0])(context, builder, args[0])
    indices = [context.cast(builder, v, t, types.intp) for v, t in zip(args[1:3], sig.args[1:3])]
    pointer = cgutils.get_item_pointer(
        context, builder, matrix_type, matrix, indices, wraparound=False
    )
    return builder.bitcast(pointer, _VECTOR.as_pointer())


def _lanes_below(builder, count):
    """The mask of lanes ``< count``."""
    lanes = ir.Constant(ir.VectorType(_I64, LANES), list(range(LANES)))
    return builder.icmp_signed("<", lanes, _splat(builder, count, ir.VectorType(_I64, LANES)))


def _chunk(context, builder, sig, args, count_at):
    """``(pointer, count, whole)`` of a chunk intrinsic's arguments: the vector's address,
    ``args[count_at]`` as int64, and whether it covers a whole vector."""
    count = context.cast(builder, args[count_at], sig.args[count_at], types.int64)
    pointer = _vector_pointer(context, builder, sig, args)
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
        return ir.Constant(_VECTOR, [0.0] * LANES)

    return f32v(), codegen


@intrinsic
def vsplat(typingctx, value):
    """``value`` (as float32) in every lane."""

    def codegen(context, builder, sig, args):
        return _splat(builder, context.cast(builder, args[0], sig.args[0], types.float32), _VECTOR)

    return f32v(value), codegen


@intrinsic
def vget(typingctx, matrix, row, col, count):
    """``matrix[row, col:col + min(count, LANES)]`` of a C-contiguous 2-d float32 array, the
    lanes past ``count`` zero."""

    def codegen(context, builder, sig, args):
        pointer, count, whole = _chunk(context, builder, sig, args, 3)
        with builder.if_else(whole, likely=True) as (then, otherwise):
            with then:
                whole_block = builder.block
                whole_value = builder.load(pointer, align=4)
            with otherwise:
                part_block = builder.block
                zeros = ir.Constant(_VECTOR, [0.0] * LANES)
                mask = _lanes_below(builder, count)
                part_value = builder.call(_masked(builder, "load"), [pointer, _I32(4), mask, zeros])
        value = builder.phi(_VECTOR)
        value.add_incoming(whole_value, whole_block)
        value.add_incoming(part_value, part_block)
        return value

    return f32v(matrix, row, col, count), codegen


@intrinsic
def vput(typingctx, matrix, row, col, vector, count):
    """Store the first ``min(count, LANES)`` lanes of ``vector`` at ``matrix[row, col:]``."""

    def codegen(context, builder, sig, args):
        pointer, count, whole = _chunk(context, builder, sig, args, 4)
        with builder.if_else(whole, likely=True) as (then, otherwise):
            with then:
                builder.store(args[3], pointer, align=4)
            with otherwise:
                mask = _lanes_below(builder, count)
                builder.call(_masked(builder, "store"), [args[3], pointer, _I32(4), mask])
        return context.get_dummy_value()

    return types.void(matrix, row, col, vector, count), codegen


@intrinsic
def vfma(typingctx, a, b, c):
    """``a * b + c`` lane by lane, rounded once."""

    def codegen(context, builder, sig, args):
        fma = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_VECTOR, [_VECTOR] * 3), f"llvm.fma.v{LANES}f32"
        )
        return builder.call(fma, args)

    return f32v(a, b, c), codegen


def _reduce(builder, vector):
    reduce = cgutils.get_or_insert_function(
        builder.module,
        ir.FunctionType(_FLOAT, [_FLOAT, vector.type]),
        f"llvm.vector.reduce.fadd.v{vector.type.count}f32",
    )
    return builder.call(reduce, [ir.Constant(_FLOAT, 0.0), vector], fastmath=("reassoc",))


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
