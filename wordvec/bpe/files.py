"""The files BPE units live in, read and written: subword-nmt's codes, HF tokenizers'
``tokenizer.json`` (a BPE model), and SentencePiece's BPE ``.model`` (read only).

Which one a file is, is told by its content: a JSON object, a protobuf (SentencePiece), or
lines of two symbols (subword-nmt; ``#version: 0.2`` first marks the ``</w>`` suffix, no
version line the separate ``</w>`` of codes 0.1). Every field is checked before use: a damaged
file is a :class:`~wordvec.errors.FormatError` naming it.
"""

from __future__ import annotations

import json
import os
import struct

import numpy as np

from wordvec.bpe.units import END_TEXT, PREFIX, UNKNOWN, Units, codes_of
from wordvec.errors import FormatError
from wordvec.runtime.atomic import atomic_write

CODES_VERSION = "#version: 0.2"
MAX_UNITS_BYTES = 1 << 30
"""A units file larger than this is not one (BPEmb's largest model is 2 MB)."""
_SENTENCEPIECE_BPE = 2
_NORMAL, _USER_DEFINED = 1, 4
"""SentencePiece's piece types that are units (the others: unknown, control, unused, byte)."""


def load_units(path: str | os.PathLike) -> Units:
    """Read units from a subword-nmt codes file, a ``tokenizer.json`` or a SentencePiece BPE
    ``.model`` (told apart by content)."""
    name = os.path.basename(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_UNITS_BYTES:
            raise FormatError(f"{name} is not a units file ({size:,} bytes)")
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise FormatError(f"units file not found: {path}") from None
    except IsADirectoryError:
        raise FormatError(f"{path} is a folder, not a units file") from None
    except OSError as exc:
        raise FormatError(f"cannot read {path}: {exc.strerror}") from None
    return units_from_bytes(data, name)


def units_from_bytes(data: bytes, name: str) -> Units:
    """Units from the bytes of one of the files :func:`load_units` reads."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        if data[:1] == b"\x0a":  # a piece, ModelProto's field 1 (its scores are not text)
            return _sentencepiece_units(data, name)
        raise FormatError(f"{name} is not a units file (not UTF-8 text)") from None
    if text.lstrip().startswith("{"):
        return _tokenizer_units(text, name)
    return _codes_units(text, name)


def save_units(units: Units, path: str | os.PathLike) -> None:
    """Write ``units`` atomically: ``tokenizer.json`` if ``path`` ends in ``.json``, else a
    subword-nmt codes file."""
    text = tokenizer_json(units) if str(path).endswith(".json") else codes_text(units)
    with atomic_write(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def units_bytes(units: Units) -> np.ndarray:
    """``units`` as the bytes of their file (tokenizer.json, or codes for a separate
    ``</w>``), for a model file to keep (:func:`units_from_bytes` reads them)."""
    text = codes_text(units) if units.word_end == "separate" else tokenizer_json(units)
    return np.frombuffer(text.encode(), dtype=np.uint8)


def codes_text(units: Units) -> str:
    """subword-nmt's codes: version 0.2 for the ``</w>`` suffix, else 0.1 (no version line)."""
    if units.word_end == "prefix":
        raise FormatError("SentencePiece units are written as tokenizer.json (-o NAME.json)")
    for left, right in units.merges:
        if " " in left + right or "\n" in left + right:
            raise FormatError(f"a merge holds whitespace ({left!r} {right!r})")
    head = [CODES_VERSION] if units.word_end == "suffix" else []
    return "\n".join([*head, *(f"{a} {b}" for a, b in units.merges)]) + "\n"


def tokenizer_json(units: Units) -> str:
    """HF tokenizers' ``tokenizer.json`` for a BPE model of ``units`` (``Tokenizer.from_file``
    reads it), unknown characters as ``<unk>``, words split at whitespace."""
    pre_tokenizer = {"type": "WhitespaceSplit"}
    if units.word_end == "prefix":
        pre_tokenizer = {"type": "Metaspace", "replacement": PREFIX,
                         "prepend_scheme": "always", "split": True}  # fmt: skip
    if units.word_end == "separate":
        raise FormatError("units with a separate </w> are written as subword-nmt codes")
    model = {
        "type": "BPE",
        "dropout": None,
        "unk_token": UNKNOWN,
        "continuing_subword_prefix": None,
        "end_of_word_suffix": END_TEXT if units.word_end == "suffix" else None,
        "fuse_unk": False,
        "byte_fallback": False,
        "ignore_merges": False,
        "vocab": {unit: i for i, unit in enumerate(units.vocab)},
        "merges": [list(pair) for pair in units.merges],
    }
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": None,
        "model": model,
    }
    return json.dumps(tokenizer, ensure_ascii=False, indent=1) + "\n"


def _codes_units(text: str, name: str) -> Units:
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    word_end = "separate"
    if lines and lines[0].startswith("#version"):
        version = lines.pop(0).split(":", 1)[-1].strip()
        if version not in ("0.1", "0.2"):
            raise FormatError(f"{name}: subword-nmt codes version {version!r} is not 0.1 or 0.2")
        word_end = "suffix" if version == "0.2" else "separate"
    merges = []
    for number, line in enumerate(lines, 2 if word_end == "suffix" else 1):
        pair = line.strip("\r\n ").split(" ")
        if len(pair) != 2 or not all(pair):
            raise FormatError(f"{name} is not a units file (line {number}: not two symbols)")
        merges.append((pair[0], pair[1]))
    if not merges:
        raise FormatError(f"{name} holds no merges")
    return Units(merges, word_end=word_end)


def _tokenizer_units(text: str, name: str) -> Units:
    try:
        tokenizer = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise FormatError(f"{name} is not a units file (not valid JSON)") from None
    model = tokenizer.get("model") if isinstance(tokenizer, dict) else None
    if not isinstance(model, dict) or model.get("type") != "BPE":
        kind = model.get("type") if isinstance(model, dict) else None
        raise FormatError(f"{name} is a tokenizer.json but not of a BPE model ({kind})")
    prefix, suffix = model.get("continuing_subword_prefix"), model.get("end_of_word_suffix")
    if prefix or suffix not in (None, "", END_TEXT):
        raise FormatError(
            f"{name}: a BPE model with continuing_subword_prefix {prefix!r} and "
            f"end_of_word_suffix {suffix!r} (wordvec reads none or '</w>')"
        )
    vocab, merges = model.get("vocab"), model.get("merges")
    if not isinstance(vocab, dict) or not isinstance(merges, list):
        raise FormatError(f"{name} is corrupt (the BPE model's vocab or merges)")
    pairs = []
    for merge in merges:
        pair = merge.split(" ") if isinstance(merge, str) else merge
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(isinstance(s, str) and s for s in pair)
        ):
            raise FormatError(f"{name} is corrupt (merge {merge!r})")
        pairs.append((pair[0], pair[1]))
    word_end = "suffix" if suffix else "none"
    pre = tokenizer.get("pre_tokenizer")
    if isinstance(pre, dict) and pre.get("type") == "Metaspace":
        word_end = "prefix"
    singles = [
        unit
        for unit, _ in sorted(
            ((u, i) for u, i in vocab.items() if isinstance(i, int)), key=lambda item: item[1]
        )
        if unit != model.get("unk_token") and len(codes_of(unit, word_end)) == 1
    ]
    return Units(pairs, word_end=word_end, alphabet=singles)


def _sentencepiece_units(data: bytes, name: str) -> Units:
    """Units from a SentencePiece ``.model`` (ModelProto, protobuf wire format) of a BPE
    model: its pieces, most probable (highest score) first, become merges of every two
    pieces (or characters) that spell them, ranked by the piece; ``▁`` starts each word."""
    pieces: list[tuple[str, float, int]] = []
    model_type = None
    try:
        at = 0
        while at < len(data):
            number, value, at = _field(data, at)
            if number == 1 and isinstance(value, bytes):
                pieces.append(_piece(value))
            elif number == 2 and isinstance(value, bytes):
                model_type = _trainer_model_type(value)
    except (IndexError, ValueError, UnicodeDecodeError, struct.error):
        raise FormatError(f"{name} is corrupt (not a SentencePiece model)") from None
    if model_type != _SENTENCEPIECE_BPE:
        kinds = {1: "unigram", 3: "word", 4: "char"}
        kind = kinds.get(model_type, "unknown") if model_type else "unigram"
        raise FormatError(f"{name} is a SentencePiece {kind} model, not BPE")
    normal = [(p, s) for p, s, kind in pieces if kind in (_NORMAL, _USER_DEFINED) and p]
    chars = [p for p, _ in normal if len(p) == 1]
    known = set(chars)
    merges, ranks = [], []
    order = sorted(range(len(normal)), key=lambda i: -normal[i][1])
    for rank, i in enumerate(order):
        piece = normal[i][0]
        if len(piece) < 2:
            continue
        for cut in range(1, len(piece)):
            left, right = piece[:cut], piece[cut:]
            if left in known and right in known:
                merges.append((left, right))
                ranks.append(rank)
        known.add(piece)
    return Units(merges, word_end="prefix", alphabet=chars, ranks=ranks)


def _piece(data: bytes) -> tuple[str, float, int]:
    text, score, kind = "", 0.0, _NORMAL
    at = 0
    while at < len(data):
        number, value, at = _field(data, at)
        if number == 1 and isinstance(value, bytes):
            text = value.decode("utf-8")
        elif number == 2 and isinstance(value, float):
            score = value
        elif number == 3 and isinstance(value, int):
            kind = value
    return text, score, kind


def _trainer_model_type(data: bytes) -> int | None:
    at = 0
    while at < len(data):
        number, value, at = _field(data, at)
        if number == 3 and isinstance(value, int):
            return value
    return None


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise ValueError("varint too long")


def _field(data: bytes, at: int) -> tuple[int, int | float | bytes, int]:
    """One protobuf field at ``at``: (field number, value, where the next starts)."""
    key, at = _varint(data, at)
    number, wire = key >> 3, key & 7
    if wire == 0:
        value, at = _varint(data, at)
        return number, value, at
    if wire == 1:
        return number, data[at : at + 8], _checked(data, at + 8)
    if wire == 2:
        length, at = _varint(data, at)
        return number, data[at : at + length], _checked(data, at + length)
    if wire == 5:
        return number, struct.unpack_from("<f", data, at)[0], _checked(data, at + 4)
    raise ValueError(f"wire type {wire}")


def _checked(data: bytes, end: int) -> int:
    if end > len(data):
        raise ValueError("truncated")
    return end
