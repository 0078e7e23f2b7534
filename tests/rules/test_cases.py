"""Data-driven ruling tables: one TOML file per seed clause, in the spirit of perft.

Each case starts a match (``new_match``, with the case's options and the profile under test),
plays the ``setup`` requests (each must be accepted), then sends ``request`` and compares the
reply with ``expect``. A case runs once per profile it lists (all three by default), so that every
decision is checked in every profile where it is the same and where it differs.

``expect`` keys: ``error`` (the request is refused and the state is unchanged), ``legal``,
``fouls`` (codes, in order), ``respotted``, ``warning``, ``game_over`` (null or a table),
``explains`` (substrings of the English explanation, clause citations included), ``fr`` and
``pl`` (substrings of those explanations), and ``state`` (a subset of the state object).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from nineball.rules import Language, RefereeSession

CASES_DIR = Path(__file__).parent / "cases"
PROFILES = ("seed", "fr", "pl")


def _load() -> list[Any]:
    params = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for case in data["case"]:
            for profile in case.get("profiles", PROFILES):
                case_id = f"{path.stem}:{case['name']}:{profile}"
                params.append(pytest.param(case, profile, id=case_id))
    return params


CASES = _load()


def _explanations(session: RefereeSession, case: dict[str, Any], profile: str) -> dict[str, str]:
    """The explanation of the last request in each language, replayed in fresh sessions."""
    texts = {}
    for lang in Language:
        replay = RefereeSession()
        replay.handle(
            {"type": "new_match", **case.get("match", {}), "rules": profile, "lang": lang}
        )
        for request in case.get("setup", []):
            replay.handle(request)
        reply = replay.handle(case["request"])
        texts[lang.value] = reply["ruling"]["explanation"] if reply.get("ruling") else ""
    return texts


@pytest.mark.parametrize(("case", "profile"), CASES)
def test_case(case: dict[str, Any], profile: str) -> None:
    session = RefereeSession()
    start = session.handle({"type": "new_match", **case.get("match", {}), "rules": profile})
    assert start["ok"], start
    for request in case.get("setup", []):
        reply = session.handle(request)
        assert reply["ok"], (request, reply)
    before = session.handle({"type": "state"})["state"]
    reply = session.handle(case["request"])
    expect = case["expect"]

    if expect.get("error"):
        assert reply["ok"] is False
        assert reply["error"]["code"] == "invalid_request"
        assert reply["state"] == before
        if "message" in expect:
            assert expect["message"] in reply["error"]["message"]
        return

    assert reply["ok"], reply
    ruling, state = reply["ruling"], reply["state"]
    for key in ("legal", "respotted", "warning"):
        if key in expect:
            assert ruling[key] == expect[key], key
    if "fouls" in expect:
        assert [f["code"] for f in ruling["fouls"]] == expect["fouls"]
    if "game_over" in expect:
        assert ruling["game_over"] == (expect["game_over"] or None)
    for key, value in expect.get("state", {}).items():
        assert state[key] == value, key
    texts = _explanations(session, case, profile)
    for lang in ("explains", "fr", "pl"):
        text = texts["en" if lang == "explains" else lang]
        for fragment in expect.get(lang, []):
            assert fragment.lower() in text.lower(), (lang, fragment, text)
