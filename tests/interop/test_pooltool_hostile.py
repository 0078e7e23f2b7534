"""Hostile pooltool files: every bad one gets PooltoolFileError naming its place, never a crash."""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest

from nineball.errors import InvalidInputError
from nineball.interop import PooltoolFileError, load_pooltool, read_pooltool
from nineball.interop.pooltool import file as pooltool_file
from nineball.interop.pooltool import read as pooltool_read

DATA = Path(__file__).parent / "data"
EXAMPLE = json.loads((DATA / "example.json").read_text())
BAD_VALUES: list[Any] = ["x", None, [], {}, math.nan, math.inf, 1e308, -1.0, True, [1.0] * 4]


def refused(data: bytes, fmt: str = "json") -> PooltoolFileError:
    with pytest.raises(PooltoolFileError) as caught:
        read_pooltool(data, fmt)  # type: ignore[arg-type]
    assert isinstance(caught.value, InvalidInputError)  # the NineballError family
    return caught.value


@pytest.mark.parametrize(
    "data",
    [b"", b"   \n", b"\xff\xfe\x00", b"not json", b"[1, 2", b'{"a": }', b"1" * 5000, b"[]", b"7"],
)
def test_files_that_are_not_pooltool_json(data: bytes) -> None:
    assert refused(data).where == "$"


@pytest.mark.parametrize(
    "data", [b"\xc1", b"\x92\x01", b"\xdd\xff\xff\xff\xff", b"\x91" * 100_000 + b"\xc0", b"\x81"]
)
def test_files_that_are_not_pooltool_msgpack(data: bytes) -> None:
    assert refused(data, "msgpack").where == "$"


def test_deep_json_is_refused_not_a_recursion_error() -> None:
    assert refused(b"[" * 200_000 + b"]" * 200_000).where == "$"
    assert refused(b'{"a":' * 100_000 + b"1" + b"}" * 100_000).where == "$"


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pooltool_file, "MAX_FILE_BYTES", 10_000)
    monkeypatch.setattr(pooltool_read, "MAX_FILE_BYTES", 10_000)
    path = tmp_path / "big.json"
    path.write_bytes((DATA / "example.json").read_bytes())  # 11.5 kB
    with pytest.raises(PooltoolFileError, match="over the 10000"):
        load_pooltool(path)


def test_unreadable_paths_and_suffixes(tmp_path: Path) -> None:
    with pytest.raises(PooltoolFileError, match="cannot read"):
        load_pooltool(tmp_path / "missing.json")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(PooltoolFileError, match="cannot read"):
        load_pooltool(tmp_path / "dir.json")
    with pytest.raises(PooltoolFileError, match=r"neither \.json nor \.msgpack"):
        load_pooltool(tmp_path / "shot.yaml")


def _array(dtype: str, shape: list[int], data: bytes, nd: bool = True) -> dict[bytes, Any]:
    return {b"nd": nd, b"type": dtype, b"kind": b"", b"shape": shape, b"data": data}


@pytest.mark.parametrize(
    ("array", "says"),
    [
        (_array("|O", [1], b"\x80\x04K\x01."), "only plain arrays of numbers"),
        (_array("<f8", [3, 3], b"\x00" * 71), "needs 72 bytes"),
        (_array("<f8", [-1], b""), "shape"),
        (_array("<f8", [2**20, 2**20], b""), "over"),
        (_array("<f8", [1, 1, 1, 1, 1], b"\x00" * 8), "shape"),
        (_array("<f8", [], b"\x00" * 4, nd=False), "needs 8 bytes"),
        ({b"nd": True, b"type": ["<f8"], b"data": b""}, "only plain arrays"),
    ],
)
def test_msgpack_numpy_maps_that_are_not_plain_arrays(array: dict[bytes, Any], says: str) -> None:
    system = copy.deepcopy(EXAMPLE)
    system["balls"]["cue"]["state"]["rvw"] = array
    error = refused(msgpack.packb(system, use_bin_type=True), "msgpack")
    assert error.where == "$['balls']['cue']['state']['rvw']"
    assert says in error.problem


def leaves(value: Any, where: str = "$") -> Iterator[tuple[str, list[Any]]]:
    """Every place of a decoded file, with the keys that lead to it."""
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack:
        item, keys = stack.pop()
        yield where, keys
        if isinstance(item, dict):
            stack.extend((v, [*keys, k]) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, [*keys, i]) for i, v in enumerate(item))


def mutated(keys: list[Any], value: Any) -> bytes:
    system = copy.deepcopy(EXAMPLE)
    target = system
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return json.dumps(system).encode()


def test_every_field_replaced_by_a_bad_value_is_refused_or_unused() -> None:
    """Each place of pooltool's example, given bad values (three each, in turn):
    PooltoolFileError, or a file that still reads (a field nineball does not use); never
    another exception."""
    tried = refusals = 0
    for n, (_, keys) in enumerate(leaves(EXAMPLE)):
        if not keys:
            continue
        for k in range(3):
            bad = BAD_VALUES[(3 * n + k) % len(BAD_VALUES)]
            tried += 1
            try:
                read_pooltool(mutated(keys, bad), "json")
            except PooltoolFileError:
                refusals += 1
    assert tried > 800
    assert refusals > tried // 2


@pytest.mark.parametrize(
    ("keys", "value", "where"),
    [
        (["cue", "V0"], "fast", "$.cue.V0"),
        (["cue", "V0"], 1e9, "$.cue.V0"),
        (["cue", "phi"], math.nan, "$.cue.phi"),
        (["cue", "theta"], 85.0, "$.cue.theta"),
        (["cue", "a"], 1.5, "$.cue.a"),
        (["cue", "cue_ball_id"], "1", "$.cue.cue_ball_id"),
        (["cue", "specs", "M"], -1.0, "$.cue.specs.M"),
        (["balls", "cue", "state", "rvw", 0, 1], "y", "$.balls.cue.state.rvw[0][1]"),
        (["balls", "cue", "state", "rvw", 0, 2], 0.5, "$.balls.cue"),
        (["balls", "1", "state", "rvw"], [[0.5, 1.0]], "$.balls['1'].state.rvw"),
        (["balls", "1", "state", "s"], 7, "$.balls['1'].state.s"),
        (["balls", "1", "params", "u_s"], 0.3, "$.balls['1'].params.u_s"),
        (["balls", "1", "id"], "2", "$.balls['1'].id"),
        (["balls", "cue", "params", "m"], 50.0, "$.balls['1'].params.m"),
        (["table", "table_type"], "snooker", "$.table.table_type"),
        (["table", "pockets", "lb", "radius"], 0, "$.table.pockets.lb.radius"),
        (["table", "pockets"], {}, "$.table.pockets.lb"),
        (
            ["table", "cushion_segments", "linear", "3", "p1", 0],
            0.2,
            "$.table.cushion_segments.linear['3']",
        ),
        (
            ["table", "cushion_segments", "circular", "2t", "radius"],
            "r",
            "$.table.cushion_segments.circular['2t'].radius",
        ),
    ],
)
def test_a_bad_field_is_named(keys: list[Any], value: Any, where: str) -> None:
    error = refused(mutated(keys, value))
    assert error.where == where, str(error)
    assert str(error).startswith(where)


def test_a_ball_outside_a_nine_ball_set_is_named() -> None:
    system = copy.deepcopy(EXAMPLE)
    system["balls"]["12"] = copy.deepcopy(system["balls"]["1"]) | {"id": "12"}
    error = refused(json.dumps(system).encode())
    assert error.where == "$.balls['12']"
    assert "nine-ball set" in error.problem


def test_random_byte_damage_never_crashes_the_reader() -> None:
    rng = random.Random(19)
    for name, fmt in (("example_simulated.msgpack", "msgpack"), ("example.json", "json")):
        original = bytearray((DATA / name).read_bytes())
        for _ in range(300):
            data = bytearray(original)
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            with contextlib.suppress(PooltoolFileError):
                read_pooltool(bytes(data), fmt)  # type: ignore[arg-type]


def test_parameters_nineball_refuses_are_named_by_pooltools_field() -> None:
    system = copy.deepcopy(EXAMPLE)
    for ball in system["balls"].values():
        ball["params"]["m"] = 50.0
    error = refused(json.dumps(system).encode())
    assert error.where == "$.balls.cue.params.m"
    assert "'mass' must be at most 10.0" in error.problem
    error = refused(mutated(["cue", "specs", "end_mass"], 0.0))
    assert error.where == "$.cue.specs.end_mass"


def test_a_bad_msgpack_history_is_named() -> None:
    system = msgpack.unpackb(
        (DATA / "example_simulated.msgpack").read_bytes(), raw=False, strict_map_key=False
    )
    system["balls"]["1"]["history"][1] = []
    error = refused(msgpack.packb(system, use_bin_type=True), "msgpack")
    assert error.where == "$.balls['1'].history[1]"
    system["balls"]["1"]["history"] = [[[[0.5, 1.0, 0.028575]]], [0.0], [0.0]]
    error = refused(msgpack.packb(system, use_bin_type=True), "msgpack")
    assert error.where == "$.balls['1'].history[0][0]"
