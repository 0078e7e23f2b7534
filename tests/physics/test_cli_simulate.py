"""``nineball simulate``: the protocol, in process and through a real subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from nineball.cli import main

STUN = {"balls": [{"id": 0, "r": [0.635, 0.30], "v": [0.0, 2.0]}]}


def call(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    payload: object,
    *args: str,
) -> tuple[int, Any]:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["simulate", *args])
    out = capsys.readouterr().out
    return status, json.loads(out)


def test_single_request(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = call(monkeypatch, capsys, STUN)
    assert status == 0
    first = out["events"][0]
    assert first["type"] == "slide_roll"
    assert first["balls"] == [0]
    assert first["t"] == pytest.approx(0.2912, abs=1e-4)
    state = first["states"]["0"]
    assert state["motion"] == "rolling"
    assert state["r"][1] == pytest.approx(0.7993, abs=1e-4)
    assert state["w"][0] == pytest.approx(-49.99, abs=0.01)
    assert out["final"]["0"]["motion"] == "stationary"
    assert out["facts"] == {"first_contact": None, "pocketed": [], "off_table": [], "rails": []}
    assert "timing" not in out


def test_stroke_pocket_and_facts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    req = {
        "balls": [{"id": 0, "r": [0.635, 1.6]}, {"id": 1, "r": [0.635, 1.905]}],
        "stroke": {"speed": 3.0, "aim_deg": 90.0},
    }
    status, out = call(monkeypatch, capsys, req)
    assert status == 0
    types = [e["type"] for e in out["events"]]
    assert types[0] == "stroke"
    assert out["events"][0]["states"]["0"]["v"][1] == pytest.approx(3.0)
    assert "ball_ball" in types
    assert out["facts"]["first_contact"] == 1
    assert 1 in out["facts"]["rails"]
    cushions = [e["cushion"] for e in out["events"] if e["type"] == "cushion"]
    assert "foot" in cushions


def test_ideal_params(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    req = {
        "params": {"e_ball": 1.0, "ball_friction": 0.0},
        "balls": [
            {"id": 0, "r": [0.635, 1.854507], "v": [0.0, 1.341]},
            {"id": 1, "r": [0.663575, 1.905]},
        ],
    }
    status, out = call(monkeypatch, capsys, req)
    assert status == 0
    hit = next(e for e in out["events"] if e["type"] == "ball_ball")
    assert sorted(hit["states"]) == ["0", "1"]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ("{not json", "bad_json"),
        ("42", "bad_json"),
        ({"balls": [{"id": 0, "r": [0.635, 0.3]}], "params": {"mu_sld": 0.2}}, "unknown_param"),
        ({"balls": [{"id": 0, "r": [0.635, 0.3]}], "params": {"mu_slide": -1}}, "invalid_input"),
        (
            {"balls": [{"id": 0, "r": [0.635, 0.3]}, {"id": 1, "r": [0.64, 0.3]}]},
            "invalid_placement",
        ),
        ({"balls": [{"id": 0, "r": [0.01, 0.3]}]}, "invalid_placement"),
        ({"balls": [{"id": 0, "r": [0.6, 0.3]}], "stroke": {"speed": 2, "height": 0.7}}, "miscue"),
        (
            {"balls": [{"id": 0, "r": [0.6, 0.3]}], "stroke": {"speed": 2, "spin": 1}},
            "invalid_input",
        ),
        ({"balls": [{"id": 12, "r": [0.6, 0.3]}]}, "invalid_input"),
        ({"balls": [{"id": 0, "r": [0.6, "a"]}]}, "invalid_input"),
        ({"balls": []}, "invalid_input"),
        ({"balls": [{"id": 0, "r": [0.6, 0.3]}], "max_events": 0}, "invalid_input"),
        ({"balls": [{"id": 0, "r": [0.6, 0.3]}], "colour": "red"}, "invalid_input"),
        ({"balls": [{"id": 1, "r": [0.6, 0.3]}], "stroke": {"speed": 2}}, "invalid_input"),
    ],
)
def test_bad_input_exits_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    payload: object,
    code: str,
) -> None:
    status, out = call(monkeypatch, capsys, payload)
    assert status == 2
    assert out["error"]["code"] == code
    assert out["error"]["message"]


def test_batch_and_repeat(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"balls": [{"id": 0, "r": [0.635, 0.3]}, {"id": 1, "r": [0.635, 0.31]}]}
    status, out = call(monkeypatch, capsys, [STUN, bad, STUN], "--repeat", "3")
    assert status == 0
    assert len(out) == 3
    assert out[1]["error"]["code"] == "invalid_placement"
    for r in (out[0], out[2]):
        assert r["timing"]["runs"] == 3
        assert 0 < r["timing"]["min_s"] <= r["timing"]["median_s"]
    assert out[0]["events"] == out[2]["events"]


def test_repeat_must_be_positive(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = call(monkeypatch, capsys, STUN, "--repeat", "0")
    assert status == 2
    assert out["error"]["code"] == "invalid_input"


def test_input_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "req.json"
    f.write_text(json.dumps(STUN), encoding="utf-8")
    status, out = call(monkeypatch, capsys, "", "--input", str(f))
    assert status == 0
    assert out["events"][0]["type"] == "slide_roll"
    status, out = call(monkeypatch, capsys, "", "--input", str(tmp_path / "missing.json"))
    assert status == 2


def test_real_subprocess() -> None:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "nineball.cli", "simulate"],
        input=json.dumps(STUN),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["events"][0]["type"] == "slide_roll"
    proc = subprocess.run(
        [sys.executable, "-m", "nineball.cli", "simulate"],
        input="[1",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2
    assert json.loads(proc.stdout)["error"]["code"] == "bad_json"


def test_output_is_identical_across_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    req = {
        "balls": [
            {"id": 0, "r": [0.3, 0.4]},
            {"id": 1, "r": [0.7, 1.6]},
            {"id": 2, "r": [1.0, 2.2]},
        ],
        "stroke": {"speed": 5.0, "aim_deg": 68.0, "side": 0.2, "height": -0.3},
    }
    texts = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(req)))
        assert main(["simulate"]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1]


def test_flight_on_the_wire(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    request = {
        "balls": [{"id": 0, "r": [0.635, 2.0]}],
        "stroke": {"speed": 4.0, "aim_deg": 90.0, "elevation_deg": 60.0},
    }
    status, out = call(monkeypatch, capsys, request)
    assert status == 0
    types = [e["type"] for e in out["events"]]
    assert types[:2] == ["stroke", "airborne"]
    assert types[-1] == "off_table"
    assert out["events"][0]["states"]["0"]["motion"] == "airborne"
    assert out["events"][0]["states"]["0"]["v"][2] > 0.0
    assert out["final"]["0"]["motion"] == "off_table"
    assert out["facts"]["off_table"] == [0]
    scoop = {
        **request,
        "params": {"miscue_limit": 0.9},
        "stroke": {"speed": 2.0, "elevation_deg": 5.0, "height": -0.85},
    }
    status, out = call(monkeypatch, capsys, scoop)
    assert status == 2
    assert out["error"]["code"] == "miscue"
    assert "scoop" in out["error"]["message"]
