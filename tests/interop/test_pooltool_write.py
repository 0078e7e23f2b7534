"""Writing pooltool files: what pooltool's loader expects, and round trips through our reader."""

from __future__ import annotations

import math
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import msgpack
import pytest

from nineball.game import BallInput, MatchConfig, PhysicsParams, Stroke, TableSpec
from nineball.game.match import TABLES, Match, record_stroke
from nineball.interop import (
    PooltoolShot,
    dump_pooltool,
    load_pooltool,
    read_pooltool,
    record_shots,
    save_pooltool,
)
from nineball.interop.pooltool.file import decode
from nineball.players import play_match
from nineball.players.registry import make_player

DATA = Path(__file__).parent / "data"
GONE = ("pocketed", "off_table")

ID_KEYED = {"balls", "linear", "circular", "pockets"}
"""pooltool's dicts keyed by object ids: their entries share one shape."""
OPTIONAL = {"ballset", "model_descr"}
"""Fields pooltool types ``X | None``: we write None."""


def shape(value: Any, key: str = "") -> Any:
    """The structure of decoded pooltool data: field names and value kinds."""
    if isinstance(value, dict):
        if key in ID_KEYED:
            return {"*": shape(next(iter(value.values())))}
        return {k: "optional" if k in OPTIONAL else shape(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return ["list", shape(value[0]) if value else None]
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def a_shot() -> PooltoolShot:
    return PooltoolShot(
        balls=(
            BallInput(id=0, r=(0.635, 0.5)),
            BallInput(id=1, r=(0.6, 1.9)),
            BallInput(id=9, r=(0.3, 2.2), v=(0.1, 0.0), w=(0.0, 0.1 / 0.028575, 0.0)),
        ),
        stroke=Stroke(speed=3.0, aim=math.radians(88.0), side=0.2, height=0.3),
    )


def test_a_written_system_has_pooltools_fields_and_types() -> None:
    ours = decode(dump_pooltool(a_shot(), "json"), "json")
    theirs = decode((DATA / "example.json").read_bytes(), "json")
    assert shape(ours) == shape(theirs)


def test_msgpack_arrays_are_written_as_msgpack_numpy_writes_them() -> None:
    def unpack(data: bytes) -> Any:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)

    ours = unpack(dump_pooltool(a_shot(), "msgpack"))
    theirs = unpack((DATA / "example_simulated.msgpack").read_bytes())
    for system in (ours, theirs):
        rvw = system["balls"]["cue"]["state"]["rvw"]
        assert set(rvw) == {b"nd", b"type", b"kind", b"shape", b"data"}
        assert (rvw[b"nd"], rvw[b"type"], rvw[b"kind"], rvw[b"shape"]) == (True, "<f8", b"", [3, 3])
        assert len(rvw[b"data"]) == 72
        p1 = system["table"]["cushion_segments"]["linear"]["3"]["p1"]
        assert (p1[b"type"], p1[b"shape"]) == ("<f8", [3])
    assert ours["balls"]["cue"]["history"] is None  # pooltool writes an empty history so
    # the rest: the same fields as pooltool's (the simulated one's events and histories aside)
    for system in (ours, theirs):
        system["events"] = []
        for ball in system["balls"].values():
            ball["history"] = ball["history_cts"] = None
    assert shape(decode(msgpack.packb(ours), "msgpack")) == shape(
        decode(msgpack.packb(theirs), "msgpack")
    )


def close(a: Any, b: Any) -> bool:
    if isinstance(a, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def same_shot(a: PooltoolShot, b: PooltoolShot) -> None:
    assert a.balls == b.balls
    assert a.stroke is not None
    assert b.stroke is not None
    for f in fields(Stroke):
        x, y = getattr(a.stroke, f.name), getattr(b.stroke, f.name)
        if f.name == "aim":  # pooltool's phi is read in [0, 360) deg
            x, y = math.cos(x - y), 1.0
        assert close(float(x), float(y)), f.name
    for f in fields(TableSpec):
        if f.init and f.name != "name":
            assert close(getattr(a.table, f.name), getattr(b.table, f.name)), f.name
    for f in fields(PhysicsParams):
        assert close(getattr(a.params, f.name), getattr(b.params, f.name)), f.name
    assert a.cue == b.cue


@pytest.mark.parametrize("fmt", ["json", "msgpack"])
@pytest.mark.parametrize(
    "name", ["example.json", "nineball_break.json", "shots.msgpack", "example_simulated.msgpack"]
)
def test_pooltools_files_round_trip_through_our_writer(name: str, fmt: str) -> None:
    shots = load_pooltool(DATA / name)
    again = read_pooltool(dump_pooltool(list(shots), fmt), fmt)  # type: ignore[arg-type]
    assert len(again) == len(shots)
    for a, b in zip(shots, again, strict=True):
        same_shot(a, b)
        assert b.outcome is None  # written unsimulated
        assert b.notes == a.notes  # the same geometry, the same notes


@pytest.mark.parametrize("preset", sorted(TABLES))
def test_our_tables_come_back_as_they_went(preset: str) -> None:
    shot = replace(a_shot(), table=TABLES[preset]())
    (back,) = read_pooltool(dump_pooltool(shot, "json"), "json")
    same_shot(shot, back)
    assert back.notes == ()  # our table maps exactly: nothing to say


def test_parameters_and_the_cue_round_trip() -> None:
    params = PhysicsParams(
        mass=0.17, mu_slide=0.25, mu_roll=0.012, spin_decel=8.0, e_ball=0.93, e_cushion=0.8,
        mu_cushion=0.15, g=9.8, cue_endmass=0.006,
    )  # fmt: skip
    shot = replace(a_shot(), params=params)
    (back,) = read_pooltool(dump_pooltool(shot, "msgpack"), "msgpack")
    same_shot(shot, back)


def test_a_shot_pooltool_cannot_hold_is_refused_by_name() -> None:
    shot = replace(a_shot(), params=PhysicsParams(mu_cushion=0.0))
    with pytest.raises(ValueError, match="f_c > 0"):
        dump_pooltool(shot, "json")


def test_a_recorded_game_exports_stroke_by_stroke_and_plays_the_same(tmp_path: Path) -> None:
    match = Match(MatchConfig(players=("a", "b"), race_to=1), seed=4)
    play_match(match, [make_player("ghost"), make_player("ghost")])
    record = match.record
    game = record.games[0]
    strokes = [s for s in game.shots if s.stroke is not None]
    shots = record_shots(record, 0)
    assert len(shots) == len(strokes)
    path = tmp_path / "game.msgpack"
    save_pooltool(path, shots)
    back = load_pooltool(path)
    for shot, entry, again in zip(shots, strokes, back, strict=True):
        assert shot.stroke == record_stroke(entry.stroke)  # type: ignore[arg-type]
        same_shot(shot, again)
        assert again.table.name == "pooltool"  # its fields: same_shot, to 1e-12
        # the stroke as pooltool holds it (V0, phi, a, b) plays where the record says
        final = again.simulate().final_states()
        lying = {b: s.r[:2] for b, s in final.items() if s.motion.wire_name not in GONE}
        assert entry.positions is not None
        recorded = {int(b): p for b, p in entry.positions.items()}
        assert set(recorded) - set(lying) <= {9}  # a 9 pocketed on a foul is respotted
        for ball, point in lying.items():
            assert math.dist(point, recorded[ball]) < 1e-9
    (one,) = load_pooltool(_saved(tmp_path / "one.json", record_shots(record, 0, 0)[0]))
    assert one.balls == shots[0].balls


def _saved(path: Path, shot: PooltoolShot) -> Path:
    save_pooltool(path, shot)
    return path


def test_an_entry_that_is_not_a_stroke_is_named() -> None:
    match = Match(MatchConfig(players=("a", "b"), race_to=1), seed=4)
    play_match(match, [make_player("ghost"), make_player("ghost")])
    with pytest.raises(IndexError, match="no entry 99"):
        record_shots(match.record, 0, 98)
    with pytest.raises(IndexError, match="no game 3"):
        record_shots(match.record, 2)
