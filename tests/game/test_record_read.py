"""The record reader against the format's own definition of each field, property by property.

Each field of a record has a kind (an integer, a player, a ball, a position, ...). The oracle in
``record_cases.py`` says, independently of the pydantic models, which JSON values it admits.
Hypothesis puts any other JSON value in a field of a sound record, and the reader must report a
problem at that field's JSON path that shows the bad value; an unknown or missing field is named.
"""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nineball.game import dump_record, load_record, read_record
from tests.game.record_cases import (
    ANY_JSON,
    BASE,
    KINDS,
    OBJECTS,
    STROKE,
    Path,
    json_path,
    put,
)


def problems(doc: dict[str, Any]) -> list[tuple[str, str]]:
    _, found = read_record(json.dumps(doc))
    return [(p.path, p.message) for p in found]


def test_the_base_record_is_sound() -> None:
    record, found = read_record(json.dumps(BASE))
    assert found == []
    assert record is not None
    assert json.loads(dump_record(record)) == BASE


@st.composite
def bad_fields(draw: st.DrawFn) -> tuple[Path, object]:
    path = draw(st.sampled_from(sorted(KINDS, key=json_path)))
    return path, draw(ANY_JSON.filter(lambda v: not KINDS[path](v)))


@settings(max_examples=300, deadline=None)
@given(bad_fields())
def test_a_bad_field_is_reported_at_its_path_with_its_value(bad: tuple[Path, object]) -> None:
    path, value = bad
    found = problems(put(BASE, path, value))
    shown = json.dumps(value)[:40]
    assert any(p == json_path(path) and shown in m for p, m in found), (json_path(path), found)


def test_no_silent_coercion() -> None:
    """Each value that a lax reader (pydantic's lax mode) would convert is a problem."""
    cases: list[tuple[Path, object, str]] = [
        (("race_to",), "2", 'expected an integer, got "2"'),
        (("race_to",), 2.0, "expected an integer, got 2.0"),
        (("race_to",), True, "expected an integer, got true"),
        (("first_breaker",), True, "expected a player 0 or 1, got true"),
        (("first_breaker",), 1.0, "expected a player 0 or 1, got 1.0"),
        (("refereed",), 1, "expected true or false, got 1"),
        (("refereed",), "true", 'expected true or false, got "true"'),
        (("params", "mu_slide"), "0.2", 'expected a finite number, got "0.2"'),
        (("params", "mu_slide"), False, "expected a finite number, got false"),
        (("params", "mu_slide"), math.inf, "expected a finite number, got Infinity"),
        (
            ("games", 0, "shots", 0, "stroke", "speed"),
            math.nan,
            "expected a finite number, got NaN",
        ),
        (("games", 0, "shots", 0, "facts", "rails", 0), True, "true is not a ball (0-9)"),
        (("games", 0, "shots", 0, "facts", "rails", 0), "2", '"2" is not a ball (0-9)'),
        (("games", 0, "shots", 0, "facts", "first_contact"), 0, "0 is not an object ball"),
        (("games", 0, "shots", 2, "choice"), "PASS", 'expected one of shoot, pass, got "PASS"'),
        (("event",), 7, "expected a string, got 7"),
        (
            ("games", 0, "shots", 0, "cue_ball"),
            [0.5, "0.3"],
            'expected a position [x, y] in m, got [0.5, "0.3"]',
        ),
    ]
    for path, value, message in cases:
        assert (json_path(path), message) in problems(put(BASE, path, value)), (path, value)


def test_null_is_refused_where_the_writer_never_writes_one() -> None:
    shot = ("games", 0, "shots", 0)
    for name, message in [
        ("cue_ball", "expected a position [x, y] in m, got null"),
        ("stroke", "expected an object, got null"),
        ("intended", "expected an object, got null"),
        ("positions", "expected an object, got null"),
        ("fouls", "expected a list of foul codes, got null"),
    ]:
        assert (json_path((*shot, name)), message) in problems(put(BASE, (*shot, name), None))
    # ... and null is a value where the format has one
    assert problems(put(BASE, ("games", 0, "shots", 0, "facts", "first_contact"), None)) != []
    assert read_record(json.dumps(put(BASE, ("seed",), None)))[1] == []


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(OBJECTS), st.text(min_size=1, max_size=8), ANY_JSON)
def test_an_unknown_field_is_named(where: tuple[Path, set[str]], name: str, value: object) -> None:
    path, known = where
    if name in known:
        return
    doc = copy.deepcopy(BASE)
    target: Any = doc
    for part in path:
        target = target[part]
    target[name] = value
    assert (f"{json_path(path)}.{name}", "unknown field") in problems(doc)


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ((), "format"),
        ((), "version"),
        ((), "players"),
        (("games", 0), "number"),
        (("games", 0), "breaker"),
        (("games", 0, "shots", 0), "kind"),
        (("games", 0, "shots", 0), "player"),
        (("games", 0, "shots", 0), "facts"),
        (("games", 0, "shots", 0, "stroke"), "speed"),
        (("games", 0, "shots", 0, "stroke"), "aim_deg"),
        (("games", 0, "shots", 2), "choice"),
        (("games", 0, "result"), "reason"),
    ],
)
def test_a_missing_field_is_named(path: Path, field: str) -> None:
    doc = copy.deepcopy(BASE)
    target: Any = doc
    for part in path:
        target = target[part]
    del target[field]
    assert (json_path(path), f"missing field {field!r}") in problems(doc)


@pytest.mark.parametrize("key", ["x", "10", "01", "-1", " 1", "1.0"])
def test_the_keys_of_a_map_of_balls_are_ball_numbers(key: str) -> None:
    rack = ("games", 0, "rack")
    found = problems(put(BASE, (*rack, key), [0.5, 0.5]))
    assert (json_path((*rack, key)), f"{key!r} is not a ball (0-9)") in found


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\ud800", "U+D800, a lone surrogate"),
        ("A\u2028nn", "U+2028, a line separator"),
        ("A\nnn", "U+000A, a control character"),
        ("x" * 41, "got 41 characters"),
    ],
)
def test_a_bad_player_name_is_a_problem_of_the_record(name: str, message: str) -> None:
    """Issue 16: MatchConfig's one rule for names, as a problem at "$" and never a crash."""
    record, found = read_record(json.dumps(put(BASE, ("players", 1), name)))
    assert record is None
    [problem] = found
    assert problem.path == "$"
    assert "a player name must be 1-40 characters" in problem.message
    assert message in problem.message


def test_an_unknown_version_stops_the_reading() -> None:
    doc = put(put(BASE, ("version",), 2), ("race_to",), "x")
    assert problems(doc) == [("$.version", "expected a version from 1 to 1, got 2")]


def test_the_sound_rest_of_a_bad_record_is_still_checked() -> None:
    """An entry with a bad field is left out; the checks of more than one field run on the rest."""
    doc = put(BASE, ("games", 0, "shots", 1, "player"), "Bob")
    doc = put(doc, ("games", 0, "shots", 3, "facts", "rails"), [4, 4])
    doc = put(doc, ("games", 1, "number"), 3)
    record, found = read_record(json.dumps(doc))
    assert [p.path for p in found] == [
        "$.games[0].shots[1].player",
        "$.games[0].shots[3].facts",
        "$.games[1].number",
    ]
    assert "rails: ball 4 is listed twice" in found[1].message
    assert "expected game 2, got 3" in found[2].message
    assert record is not None
    assert len(record.games[0].shots) == 3  # entries 1 and 3 were left out
    # a problem in the match's own fields: no record, but the games are still checked
    record, found = read_record(json.dumps(put(doc, ("race_to",), None)))
    assert record is None
    assert "$.games[1].number" in [p.path for p in found]


finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=100, deadline=None)
@given(st.lists(finite, min_size=9, max_size=9))
def test_floats_round_trip_bit_for_bit(values: list[float]) -> None:
    doc = copy.deepcopy(BASE)
    shot = doc["games"][0]["shots"][0]
    shot["stroke"] = dict(zip(STROKE, values[:5], strict=True))
    shot["cue_ball"] = values[5:7]
    shot["positions"] = {"0": values[7:9]}
    record = load_record(json.dumps(doc), check=False)
    text = dump_record(record)
    again = load_record(text, check=False)
    assert dump_record(again) == text
    stroke = again.games[0].shots[0].stroke
    assert stroke is not None
    read = [stroke.speed, stroke.aim_deg, stroke.elevation_deg, stroke.side, stroke.height]
    assert [v.hex() for v in read] == [v.hex() for v in values[:5]]
    assert again.games[0].shots[0].cue_ball == tuple(values[5:7])


def test_playing_and_writing_do_not_import_pydantic() -> None:
    """Only reading a record loads pydantic (the command line starts faster without it)."""
    code = (
        "import sys, nineball.game, nineball.game.match, nineball.game.store, nineball.cli.app\n"
        "print('pydantic' in sys.modules)\n"
        "nineball.game.read_record\n"
        "print('pydantic' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["False", "True"]
