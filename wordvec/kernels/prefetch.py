"""Software prefetch: ask the CPU to start loading a matrix row that a later step will use.

Training reads rows of ``w_in`` and ``w_out`` in an order no hardware prefetcher can guess (the
words of the text), and a row not in cache costs a wait of ~100 ns. The window loop knows the
next words before it needs their rows, so it names them here a step ahead and the loads overlap
the current step's arithmetic. On random rows of a 800 MB matrix a gather ran 4x faster with
prefetches (measured).

A row the step will write is loaded for writing (``prefetchw``): the line comes owned, so the
store that follows needs no second trip to take it from the other cores that read it too.
Training's rows are such (Hogwild threads write the rows they read); inference, whose rows are
only read, loads them to be shared.
"""

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

_FLOATS_PER_LINE = 16  # a 64-byte cache line of float32


def _prefetch_codegen(context, builder, sig, args, write=0):
    """Code for ``llvm.prefetch`` of the address of ``args[0][args[1:]]`` (to read, or to
    ``write``; high locality, data cache). A hint: it never faults, whatever the address."""
    array = context.make_array(sig.args[0])(context, builder, args[0])
    indices = [context.cast(builder, v, t, types.intp) for v, t in zip(args[1:], sig.args[1:])]
    pointer = cgutils.get_item_pointer(
        context, builder, sig.args[0], array, indices, wraparound=False
    )
    i32 = ir.IntType(32)
    byte_pointer = ir.IntType(8).as_pointer()  # one declaration serves arrays of every dtype
    function = cgutils.get_or_insert_function(
        builder.module,
        ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
        "llvm.prefetch.p0",
    )
    builder.call(function, [builder.bitcast(pointer, byte_pointer), i32(write), i32(3), i32(1)])
    return context.get_dummy_value()


def _prefetch_to_write_codegen(context, builder, sig, args):
    """:func:`_prefetch_codegen` of a line about to be written."""
    return _prefetch_codegen(context, builder, sig, args, write=1)


@intrinsic
def _prefetch(typingctx, matrix, row, col):
    """Prefetch the cache line holding ``matrix[row, col]``."""
    return types.void(matrix, row, col), _prefetch_codegen


@intrinsic
def _prefetch_to_write(typingctx, matrix, row, col):
    """Prefetch the cache line holding ``matrix[row, col]``, to write it."""
    return types.void(matrix, row, col), _prefetch_to_write_codegen


@intrinsic
def prefetch_item(typingctx, array, index):
    """Prefetch the cache line holding ``array[index]`` (a 1-d array)."""
    return types.void(array, index), _prefetch_codegen


@njit(cache=True, nogil=True, inline="always")
def prefetch_row(matrix, row, write):
    """Start loading every cache line of ``matrix[row]`` (a C-contiguous 2-d float32 array),
    to ``write`` it (the step will: training's rows) or to read it. Prefetched to write,
    training on 2 threads (the 2-vCPU Zen 4 VM, alternating runs): PV-DM 0.89x the time of
    prefetches to read, skip-gram 0.75x and CBOW 0.61x when the VM's two CPUs were slow to
    share lines (the same jobs 1.9x slower than at other times), 0.88-0.95x when quick; one
    thread 0.97x."""
    dim = matrix.shape[1]
    for col in range(0, dim, _FLOATS_PER_LINE):
        _prefetch_line(matrix, row, col, write)
    _prefetch_line(matrix, row, dim - 1, write)  # a row not aligned to a line ends in one more


@njit(cache=True, nogil=True, inline="always")
def _prefetch_line(matrix, row, col, write):
    """Prefetch the line holding ``matrix[row, col]``, to ``write`` it or to read it (a
    constant where the callers are compiled: the branch is folded away)."""
    if write:
        _prefetch_to_write(matrix, row, col)
    else:
        _prefetch(matrix, row, col)
