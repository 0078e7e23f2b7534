"""pooltool's two file formats, JSON and msgpack, read and written without pooltool.

pooltool (github.com/ekiefl/pooltool, on PyPI as ``pooltool-billiards``) saves a ``System`` (one
shot: its balls, table, cue and simulated events) or a ``MultiSystem`` (a list of them) by turning
its attrs classes into plain data with cattrs, then writing that data as JSON (``.json``,
``json.dump`` with a two-space indent) or msgpack (``.msgpack``). The two differ in three ways:

* a numpy array is a nested list of numbers in JSON, and in msgpack the map that msgpack-numpy
  writes: ``{b"nd": True, b"type": "<f8", b"kind": b"", b"shape": [3, 3], b"data": <the raw
  little-endian bytes>}`` (its keys are msgpack binaries); a numpy scalar is ``{b"nd": False,
  b"type": "<f8", b"data": ...}``;
* a ball's ``history`` (and ``history_cts``) is ``{"states": [state, ...]}`` in JSON, and in
  msgpack three arrays ``[rvws (n, 3, 3), motion states (n,), times (n,)]``, or nil when empty;
* nothing else: the field names and the layout are the same.

:func:`decode` turns a file's bytes into plain Python data, every array a nested list of floats,
with its size and the size of every array bounded (a hostile file gets :class:`PooltoolFileError`
naming what is wrong, never an exception of the parser); :func:`encode` writes plain data in which
arrays are numpy arrays. What the fields mean is :mod:`nineball.interop.pooltool`'s business.
msgpack needs the ``msgpack`` package (the ``[pooltool]`` extra); JSON needs nothing.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Literal

import numpy as np

from nineball.errors import InvalidInputError

__all__ = [
    "FORMATS",
    "MAX_ARRAY_ITEMS",
    "MAX_FILE_BYTES",
    "Format",
    "PooltoolFileError",
    "decode",
    "encode",
    "format_of",
]

Format = Literal["json", "msgpack"]
"""A pooltool file format, named as pooltool names it (and as the file's suffix)."""

FORMATS: tuple[Format, ...] = ("json", "msgpack")
"""The formats pooltool's ``System.save`` writes (it also knows YAML, which it never uses for
systems)."""

MAX_FILE_BYTES = 64 * 2**20
"""The largest file read, in bytes (64 MiB). A simulated nine-ball break is about 0.2 MB in
msgpack and 0.6 MB in JSON; a continuized one (pooltool's dense ``history_cts``) a few MB."""

MAX_ARRAY_ITEMS = 2**22
"""The most numbers one msgpack array may hold (a dense history of a long shot has some 10^5)."""

_DTYPES = frozenset({"<f8", "<f4", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1"})
"""The numpy types an array of a pooltool file may have (numbers only: an object array would be a
pickle, which is never loaded)."""


class PooltoolFileError(InvalidInputError):
    """A pooltool file nineball cannot read or write; :attr:`where` is the place of the problem.

    The place is a JSON path into the file (``$.balls["3"].state.rvw``), or ``$`` for the file
    as a whole.
    """

    def __init__(self, where: str, message: str) -> None:
        """Keep the place and say it first in the message."""
        super().__init__(f"{where}: {message}")
        self.where = where
        self.problem = message


def format_of(path: Path | str) -> Format:
    """The format of a pooltool file from its suffix, as pooltool itself decides it.

    Raises:
        PooltoolFileError: a suffix other than ``.json`` or ``.msgpack``.
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix == "json":
        return "json"
    if suffix == "msgpack":
        return "msgpack"
    raise PooltoolFileError(
        "$", f"{str(path)!r} is neither .json nor .msgpack (pooltool's file formats)"
    )


def decode(data: bytes, fmt: Format) -> object:
    """A pooltool file's content as plain data: dicts, lists, str, int, float, bool, None.

    Arrays come back as nested lists of floats (or ints), whatever the format.

    Raises:
        PooltoolFileError: the file is too large, is not valid JSON or msgpack, nests too deep,
            or holds an array that is not a plain array of numbers; msgpack without the
            ``msgpack`` package installed.
    """
    if len(data) > MAX_FILE_BYTES:
        raise PooltoolFileError(
            "$", f"the file is {len(data)} bytes, over the {MAX_FILE_BYTES} a pooltool shot needs"
        )
    if not data.strip():
        raise PooltoolFileError("$", "the file is empty")
    if fmt == "json":
        return _decode_json(data)
    if fmt == "msgpack":
        return _arrays(_decode_msgpack(data), "$")
    raise PooltoolFileError("$", f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def _decode_json(data: bytes) -> object:
    try:
        text = data.decode("utf-8")
        return json.loads(text)
    except UnicodeDecodeError as exc:
        raise PooltoolFileError(
            "$", f"not UTF-8 text at byte {exc.start}: not a JSON file"
        ) from None
    except RecursionError:
        raise PooltoolFileError("$", "the JSON nests too deep to be a pooltool file") from None
    except ValueError as exc:  # JSONDecodeError, and integers of thousands of digits
        raise PooltoolFileError("$", f"not valid JSON: {str(exc)[:200]}") from None


def _msgpack() -> Any:
    try:
        import msgpack  # the [pooltool] extra
    except ImportError:
        raise PooltoolFileError(
            "$",
            "reading or writing .msgpack needs the msgpack package: pip install "
            "'nineball[pooltool]' (or use pooltool's .json files)",
        ) from None
    return msgpack


def _decode_msgpack(data: bytes) -> object:
    msgpack = _msgpack()
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=False,
            use_list=True,
        )
    except RecursionError:
        raise PooltoolFileError("$", "the msgpack nests too deep to be a pooltool file") from None
    except (ValueError, TypeError, msgpack.exceptions.UnpackException) as exc:
        # ExtraData, FormatError, StackError, "incomplete input", unhashable map keys...
        raise PooltoolFileError("$", f"not valid msgpack: {str(exc)[:200]}") from None


def _arrays(value: object, where: str) -> object:
    """Replace msgpack-numpy's array and scalar maps by lists and numbers, and bytes keys by str.

    Iterative over containers, so that a deep file cannot exhaust the stack here.
    """
    holder: dict[object, Any] = {"": value}
    stack: list[tuple[Any, Any, str]] = [(holder, "", where)]
    while stack:
        parent, key, at = stack.pop()
        item = parent[key]
        if isinstance(item, dict):
            if b"nd" in item:
                parent[key] = _numpy(item, at)
                continue
            clean: dict[object, Any] = {}
            for k, v in item.items():
                name = k.decode("utf-8", "replace") if isinstance(k, bytes) else k
                clean[name] = v
                stack.append((clean, name, f"{at}[{name!r}]"))
            parent[key] = clean
        elif isinstance(item, list):
            stack.extend((item, i, f"{at}[{i}]") for i in range(len(item)))
    return holder[""]


def _numpy(item: dict[object, object], where: str) -> object:
    """One msgpack-numpy map as a nested list (an array) or a number (a scalar)."""
    dtype = item.get(b"type")
    data = item.get(b"data")
    if not isinstance(dtype, str) or dtype not in _DTYPES or not isinstance(data, bytes):
        raise PooltoolFileError(
            where, f"an array of type {dtype!r}: only plain arrays of numbers are read"
        )
    size = np.dtype(dtype).itemsize
    if item.get(b"nd") is not True:  # a numpy scalar
        if len(data) != size:
            raise PooltoolFileError(where, f"a {dtype} scalar needs {size} bytes, has {len(data)}")
        return np.frombuffer(data, dtype=dtype)[0].item()
    shape = item.get(b"shape")
    if (
        not isinstance(shape, list)
        or len(shape) > 4
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)
    ):
        raise PooltoolFileError(where, f"an array shape must be up to 4 sizes, got {shape!r}")
    count = math.prod(shape)
    if count > MAX_ARRAY_ITEMS:
        raise PooltoolFileError(where, f"an array of {count} numbers, over {MAX_ARRAY_ITEMS}")
    if len(data) != count * size:
        raise PooltoolFileError(
            where,
            f"an array of shape {shape} and type {dtype} needs {count * size} bytes, "
            f"has {len(data)}",
        )
    out: object = np.frombuffer(data, dtype=dtype).reshape(shape).tolist()
    return out


def encode(value: object, fmt: Format) -> bytes:
    """Plain data as a pooltool file: numpy arrays become what pooltool writes for them.

    Args:
        value: dicts with str keys, lists, tuples, str, int, float, bool, None and numpy
            arrays of float64.
        fmt: ``"json"`` (two-space indent, as pooltool writes it) or ``"msgpack"``.

    Raises:
        PooltoolFileError: an unknown format, or msgpack without the ``msgpack`` package.
    """
    if fmt == "json":
        text = json.dumps(value, indent=2, default=_json_default, allow_nan=False)
        return text.encode("utf-8")
    if fmt == "msgpack":
        packed: bytes = _msgpack().packb(value, default=_msgpack_default, use_bin_type=True)
        return packed
    raise PooltoolFileError("$", f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")


def _json_default(value: object) -> object:
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot write {value!r} to a pooltool file")


def _msgpack_default(value: object) -> object:
    if isinstance(value, np.ndarray):
        array = np.ascontiguousarray(value, dtype="<f8")
        return {
            b"nd": True,
            b"type": array.dtype.str,
            b"kind": b"",
            b"shape": list(array.shape),
            b"data": array.tobytes(),
        }
    raise TypeError(f"cannot write {value!r} to a pooltool file")
