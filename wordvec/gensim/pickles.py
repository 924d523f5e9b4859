"""gensim's saved models (``model.save(...)``: a pickle, and ``.npy`` files beside it for big
arrays) read as data, never run.

Unpickling a file can run any code the file names, so a gensim ``.model`` from the internet is
not to be ``pickle.load``-ed. :class:`RestrictedUnpickler` builds only what gensim writes for
word-vector models (1.x to 4.x): NumPy arrays, dtypes and scalars; dicts, lists, sets, tuples,
strings and numbers; and in place of gensim's own classes, inert :class:`Record` objects that
hold the attributes the file gives them and nothing else (no gensim code is imported). A few
references gensim stores as values (``hash`` as ``hashfxn``, its scorer functions, NumPy's
random state) become :class:`Placeholder` names. Anything else (``os.system``, ``eval``, any
other module's function or class) is a :class:`RefusedPickle` before it is built, in the way
``numpy.load(allow_pickle=False)`` and ``torch.load(weights_only=True)`` stay safe.

:func:`read_saved` then loads the arrays gensim wrote apart (``__numpys``, recursively), with
``numpy.load(allow_pickle=False)``. Turning the records into the face's classes is the
classes' own ``load``.
"""

from __future__ import annotations

import builtins
import collections
import logging
import os
import pickle
from pathlib import Path
from typing import Any

import numpy as np

from wordvec.errors import FormatError
from wordvec.runtime.compression import ERRORS as COMPRESSION_ERRORS
from wordvec.runtime.compression import compression_of, decompressed

logger = logging.getLogger(__name__)

PICKLE_STARTS = (b"\x80", b"(", b"}", b"]", b"c")
"""The first byte of a pickle of protocol 2 and above (``\\x80``), or of the older text ones."""


def is_pickle(path: str | os.PathLike) -> bool:
    """Whether ``path`` is one of gensim's saved models (``model.save``: a pickle, gzipped or
    bzipped where its name ends so, as gensim writes them) rather than a model file of
    wordvec's."""
    with open(path, "rb") as file:
        head = file.read(6)
    if compression_of(head) is not None:
        return str(path).endswith((".gz", ".bz2"))
    return head[:1] in PICKLE_STARTS


class RefusedPickle(FormatError):
    """A pickle that names something gensim does not write into its models: it could run code."""


class Record:
    """An object of one of gensim's classes, as data: ``gensim_class`` names the class, the
    attributes are those the file set. Built by the unpickler with no arguments; called with
    some (a pickle's way of calling a function), it refuses."""

    gensim_class = ""

    def __new__(cls, *args: Any, **kwargs: Any) -> Record:
        if args or kwargs:
            raise RefusedPickle(f"the pickle calls {cls.gensim_class} with arguments")
        return super().__new__(cls)

    def __setstate__(self, state: Any) -> None:
        if isinstance(state, tuple) and len(state) == 2:  # (__dict__, __slots__ values)
            state = {**(state[0] or {}), **(state[1] or {})}
        if not isinstance(state, dict):
            raise RefusedPickle(f"the pickle gives {self.gensim_class} a state of {type(state)}")
        self.__dict__.update(state)

    def get(self, *names: str, default: Any = None) -> Any:
        """The first of ``names`` (dotted paths through records) that the file set."""
        for name in names:
            value: Any = self
            for part in name.split("."):
                value = value.__dict__.get(part) if isinstance(value, Record) else None
                if value is None:
                    break
            if value is not None:
                return value
        return default

    def __repr__(self) -> str:
        return f"<{self.gensim_class} record>"


class Placeholder:
    """A function or class gensim stores as a value (``hashfxn=hash``, a scorer), by name.
    Called (NumPy's random-state constructors are), it gives another placeholder, whose state
    (a random generator's) is dropped."""

    def __init__(self, name: str):
        self.name = name

    def __call__(self, *args: Any) -> Placeholder:
        return Placeholder(f"{self.name}()")

    def __setstate__(self, state: Any) -> None:
        """The state of what it stands for, not kept."""

    def __repr__(self) -> str:
        return f"<{self.name}>"


def _encode(text: str, encoding: str = "utf-8") -> bytes:
    """``_codecs.encode``, which protocol 2 uses for bytes: strings only."""
    if not isinstance(text, str) or encoding not in ("latin1", "latin-1", "utf-8", "utf8"):
        raise RefusedPickle("the pickle calls _codecs.encode on something other than text")
    return text.encode(encoding)


def _reconstructor(cls: type, base: type, state: Any) -> Any:
    """``copyreg._reconstructor`` (protocols 0 and 1), for records only."""
    if not (isinstance(cls, type) and issubclass(cls, Record)) or base is not object:
        raise RefusedPickle("the pickle rebuilds an object of a class gensim does not write")
    return cls.__new__(cls)


def _scalar(dtype: np.dtype, data: bytes) -> Any:
    """``numpy.core.multiarray.scalar``: a number of a plain dtype from its bytes."""
    if not isinstance(dtype, np.dtype) or dtype.hasobject or not isinstance(data, bytes):
        raise RefusedPickle("the pickle makes a NumPy scalar of an object dtype")
    return np.frombuffer(data, dtype=dtype, count=1)[0]


def _reconstruct(subtype: type, shape: Any, dtype: Any) -> np.ndarray:
    """``numpy.core.multiarray._reconstruct``: an empty ndarray its state then fills."""
    if subtype is not np.ndarray:
        raise RefusedPickle("the pickle makes an array of a class other than numpy.ndarray")
    return np.ndarray.__new__(np.ndarray, shape, dtype)


_BUILTINS = {
    name: getattr(builtins, name)
    for name in (
        "set",
        "frozenset",
        "dict",
        "list",
        "tuple",
        "int",
        "float",
        "str",
        "bytes",
        "bytearray",
        "complex",
        "bool",
    )
}
_ALLOWED = {
    **{("builtins", name): value for name, value in _BUILTINS.items()},
    **{("__builtin__", name): value for name, value in _BUILTINS.items()},
    ("__builtin__", "long"): int,
    ("__builtin__", "unicode"): str,
    ("_codecs", "encode"): _encode,
    ("copyreg", "_reconstructor"): _reconstructor,
    ("copy_reg", "_reconstructor"): _reconstructor,
    ("collections", "defaultdict"): collections.defaultdict,
    ("collections", "OrderedDict"): collections.OrderedDict,
    ("UserString", "defaultdict"): collections.defaultdict,  # Python 2's name, as written
    ("numpy", "ndarray"): np.ndarray,
    ("numpy", "dtype"): np.dtype,
    ("numpy.core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy._core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy.core.multiarray", "scalar"): _scalar,
    ("numpy._core.multiarray", "scalar"): _scalar,
}
"""What a gensim pickle may build besides records: the values and containers Python and
NumPy pickle themselves with, each safe on any arguments (or checked: :func:`_encode`,
:func:`_reconstructor`, :func:`_scalar`, :func:`_reconstruct`)."""

_PLACEHOLDERS = {
    ("builtins", "hash"), ("__builtin__", "hash"), ("gensim.utils", "call_on_class_only"),
    ("gensim.models.phrases", "original_scorer"), ("gensim.models.phrases", "npmi_scorer"),
    ("numpy.random", "__RandomState_ctor"), ("numpy.random._pickle", "__randomstate_ctor"),
    ("numpy.random._pickle", "__generator_ctor"), ("numpy.random._pickle", "__bit_generator_ctor"),
    ("numpy.random.mtrand", "RandomState"), ("numpy.random._generator", "Generator"),
    ("numpy.random._mt19937", "MT19937"), ("numpy.random._pcg64", "PCG64"),
    ("numpy.random._pcg64", "PCG64DXSM"), ("numpy.random._philox", "Philox"),
    ("numpy.random._sfc64", "SFC64"),
}  # fmt: skip
"""Functions and classes gensim keeps as attribute values, kept as their names."""


def _record_class(name: str) -> type[Record]:
    if name not in _RECORD_CLASSES:
        _RECORD_CLASSES[name] = type(name.rsplit(".", 1)[-1], (Record,), {"gensim_class": name})
    return _RECORD_CLASSES[name]


_RECORD_CLASSES: dict[str, type[Record]] = {}


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that builds only what gensim's word-vector models hold (the module's
    docstring says what); ``name`` names the file in its errors."""

    def __init__(self, file: Any, name: str):
        super().__init__(file, encoding="latin1")  # gensim reads Python 2's pickles so
        self.name = name

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED:
            return _ALLOWED[module, name]
        if (module, name) in _PLACEHOLDERS:
            return Placeholder(f"{module}.{name}")
        if module == "gensim" or module.startswith("gensim."):
            return _record_class(f"{module}.{name}")
        raise RefusedPickle(
            f"{self.name} asks to run or build {module}.{name}, which gensim does not write into "
            "a model: refused, as it could run code (wordvec reads gensim's pickles as data)"
        )


def read_pickle(path: str | os.PathLike) -> Any:
    """The object pickled at ``path`` (plain, gzip or bzip2, as gensim writes ``.gz`` and
    ``.bz2``), read by :class:`RestrictedUnpickler`; a damaged or refused file is a
    :class:`FormatError`."""
    name = Path(path).name
    try:
        with open(path, "rb") as raw, decompressed(raw) as stream:
            return RestrictedUnpickler(stream, name).load()
    except FormatError:
        raise
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, KeyError,
            IndexError, MemoryError, RecursionError, *COMPRESSION_ERRORS) as exc:  # fmt: skip
        why = str(exc) or type(exc).__name__
        raise FormatError(f"{name} is not a gensim model wordvec can read ({why})") from None


def read_saved(path: str | os.PathLike, mmap: str | None = None) -> Record:
    """A model gensim saved at ``path``: its pickle as a :class:`Record`, with the arrays gensim
    wrote beside it (``PATH.ATTRIBUTE.npy``, and ``PATH.SUB.ATTRIBUTE.npy`` for a part saved
    recursively) set in place, memory-mapped with ``mmap='r'``."""
    found = read_pickle(path)
    if not isinstance(found, Record):
        raise FormatError(f"{Path(path).name} holds a {type(found).__name__}, not a gensim model")
    logger.info("loading %s object from %s", found.gensim_class.rsplit(".", 1)[-1], path)
    _load_apart(found, str(path), mmap)
    return found


def _load_apart(record: Record, fname: str, mmap: str | None) -> None:
    """Set ``record``'s attributes that gensim saved apart, as gensim's ``_load_specials``."""
    specials = record.__dict__
    compressed = fname.endswith((".gz", ".bz2"))
    for attribute in specials.get("__recursive_saveloads", []):
        part = specials.get(attribute)
        if isinstance(part, Record):
            _load_apart(part, f"{fname}.{attribute}", mmap)
    for attribute in specials.get("__numpys", []):
        side = f"{fname}.{attribute}.{'npz' if compressed else 'npy'}"
        if not os.path.exists(side):
            raise FormatError(f"{Path(fname).name}: its array {attribute} is missing ({side})")
        try:
            value = np.load(side, mmap_mode=None if compressed else mmap, allow_pickle=False)
            specials[attribute] = value["val"] if compressed else value
        except (ValueError, OSError, KeyError) as exc:
            raise FormatError(f"{Path(side).name} is not a NumPy array file ({exc})") from None
    for attribute in specials.get("__scipys", []):
        raise FormatError(f"{Path(fname).name}: its {attribute} is a SciPy sparse matrix")
    for attribute in specials.get("__ignoreds", []):
        specials[attribute] = None
