"""The published JSON Schema of a record: generated from the models, and agreeing with them.

``docs/record.schema.json`` must be what the models generate (so it cannot drift), and a
standard validator (``jsonschema``, draft 2020-12) must accept and refuse the same documents as
the models, field by field.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from nineball.game import RECORD_FORMAT, RECORD_VERSION, read_record, record_schema
from nineball.game.record_models import MatchModel, dump_schema
from nineball.rules import VARIANTS, BreakRule, Choice, Foul, Termination
from tests.game.record_cases import ANY_JSON, BASE, KINDS, OBJECTS, json_path, put

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "docs" / "record.schema.json"
VALIDATOR = Draft202012Validator(record_schema())


def models_accept(doc: object) -> bool:
    try:
        MatchModel.model_validate(doc)
    except ValidationError:
        return False
    return True


def test_the_committed_schema_is_the_models_schema() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == dump_schema(), (
        "docs/record.schema.json is out of date: run python tools/record_schema.py"
    )


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_schema_names_the_formats_constants() -> None:
    schema = record_schema()
    props, defs = schema["properties"], schema["$defs"]
    assert props["format"]["const"] == RECORD_FORMAT
    assert props["version"]["maximum"] == RECORD_VERSION
    for enum in (BreakRule, Choice, Foul, Termination):
        assert defs[enum.__name__]["enum"] == [m.value for m in enum]
    pattern = re.compile(props["rules"]["pattern"])
    for variant in VARIANTS:
        assert pattern.match(variant.name)
        assert pattern.match(variant.name.upper())
    assert not pattern.match("wpa")
    assert not pattern.match("seed ")


def _example() -> Any:
    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert block is not None
    return json.loads(block.group(1))


@pytest.mark.parametrize("doc", [BASE, _example()], ids=["base", "docs-example"])
def test_sound_records_are_valid_for_both(doc: Any) -> None:
    assert VALIDATOR.is_valid(doc)
    assert models_accept(doc)
    assert read_record(json.dumps(doc))[1] == []


JSON_VALUES = ANY_JSON.filter(
    lambda v: "NaN" not in json.dumps(v) and "Infinity" not in json.dumps(v)
)
"""Values that JSON itself can hold (Python's json module also reads NaN and infinities)."""


def _integral_float(value: object) -> bool:
    """JSON Schema counts 2.0 as an integer; the models, like the reader before them, do not."""
    return type(value) is float and value.is_integer()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(KINDS, key=json_path)), JSON_VALUES)
def test_schema_and_models_agree_on_every_field(path: tuple[str | int, ...], value: object) -> None:
    doc = put(BASE, path, value)
    admitted = KINDS[path](value)
    assert models_accept(doc) is admitted, (json_path(path), value)
    if _integral_float(value) or (type(value) is list and any(map(_integral_float, value))):
        return
    assert VALIDATOR.is_valid(doc) is admitted, (json_path(path), value)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(OBJECTS), st.text(min_size=1, max_size=8), JSON_VALUES)
def test_schema_and_models_refuse_unknown_fields(
    where: tuple[tuple[str | int, ...], set[str]], name: str, value: object
) -> None:
    path, known = where
    if name in known:
        return
    doc = copy.deepcopy(BASE)
    target: Any = doc
    for part in path:
        target = target[part]
    target[name] = value
    assert not models_accept(doc)
    assert not VALIDATOR.is_valid(doc)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("games", 0, "shots", 0, "cue_ball"), None),
        (("games", 0, "shots", 0, "stroke"), None),
        (("games", 0, "shots", 0, "positions"), None),
        (("games", 0, "shots", 0, "positions", "x"), [0.0, 0.0]),
        (("games", 0, "rack", "10"), [0.0, 0.0]),
        (("games", 0, "shots", 1, "kind"), "jump"),
        (("rules",), "wpa"),
        (("version",), 2),
    ],
)
def test_schema_and_models_refuse_the_same_structures(
    path: tuple[str | int, ...], value: object
) -> None:
    doc = put(BASE, path, value)
    assert not VALIDATOR.is_valid(doc)
    assert read_record(json.dumps(doc))[1] != []


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("games", 0, "shots", 0, "facts", "rails"), [3, 3], "ball 3 is listed twice"),
        (("games", 0, "shots", 0, "facts", "off_table"), [1], "both pocketed and off the table"),
        (("players",), ["Ann", "Ann"], "different names"),
        (("race_to",), 100, "race_to must be in 1..99"),
        (("games", 1, "number"), 1, "expected game 2, got 1"),
    ],
)
def test_what_only_the_reader_checks(
    path: tuple[str | int, ...], value: object, message: str
) -> None:
    """The checks of more than one field are not in the schema: only the reader refuses these."""
    doc = put(BASE, path, value)
    if path[-1] == "off_table":
        doc = put(doc, ("games", 0, "shots", 0, "facts", "pocketed"), [1])
    assert VALIDATOR.is_valid(doc)
    assert models_accept(doc)
    assert any(message in p.message for p in read_record(json.dumps(doc))[1])
