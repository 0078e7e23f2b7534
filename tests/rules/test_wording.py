"""Whole French and Polish sentences, read in context and pinned (issue 17).

The catalogs once named the 1 "la UN", forced a gender on a player's name ("graczowi Bob") and
used English punctuation in French; these rulings pin the reviewed wording.
"""

from __future__ import annotations

from typing import Any

import pytest

from nineball.rules import RefereeSession


def _explain(lang: str, *requests: dict[str, Any]) -> str:
    session = RefereeSession()
    session.handle({"type": "new_match", "players": ["Ann", "Bob"], "lang": lang})
    reply: dict[str, Any] = {}
    for request in requests:
        reply = session.handle(request)
        assert reply["ok"], reply
    return str(reply["ruling"]["explanation"])


BREAK = {"type": "shot", "first_contact": 1, "pocketed": [4]}
WRONG_BALL = {"type": "shot", "first_contact": 3, "pocketed": []}


@pytest.mark.parametrize(
    ("lang", "requests", "sentence"),
    [
        (
            "fr",
            [BREAK],
            "Bris légal (règle 3) : la 1 a été atteinte en premier et la 4 a été empochée. "
            "Ann continue de jouer et peut jouer un coup poussé (règle 5).",
        ),
        (
            "fr",
            [{"type": "shot", "first_contact": 1, "pocketed": [9]}],
            "Bris légal (règle 3) : Ann a empoché la 9 au bris. Ann gagne la partie 1 (règle 13) ; "
            "le score est de 1-0 et Bob fait le prochain bris.",
        ),
        (
            "fr",
            [{"type": "shot", "first_contact": 1, "rails": [2, 3, 4, 5]}, WRONG_BALL],
            "Faute : la blanche a touché la 3 en premier au lieu de la boule la plus basse, la 1 "
            "(règle 7). Ann a la blanche en main n'importe où sur la table (règle 6).",
        ),
        (
            "pl",
            [BREAK],
            "Prawidłowe rozbicie (punkt 3): biała bila trafiła najpierw w bilę 1, a bila 4 "
            "wpadła do łuzy. Ann pozostaje przy stole i gra dalej oraz może wykonać "
            "wypchnięcie (punkt 5).",
        ),
        (
            "pl",
            [BREAK, {"type": "shot", "push_out": True}],
            "Prawidłowe wypchnięcie (punkt 5). Bob decyduje, czy uderza z tej pozycji, czy oddaje "
            "uderzenie (wtedy gra Ann).",
        ),
    ],
)
def test_a_ruling_reads_as_reviewed(
    lang: str, requests: list[dict[str, Any]], sentence: str
) -> None:
    assert _explain(lang, *requests) == sentence


@pytest.mark.parametrize(
    ("lang", "fragment"),
    [
        ("fr", "c'est la troisième faute consécutive commise par Ann : Bob gagne la partie 1"),
        ("pl", "Ann popełnia trzeci faul z rzędu, więc partię 1 wygrywa Bob"),
    ],
)
def test_the_third_foul_does_not_decline_the_name(lang: str, fragment: str) -> None:
    foul = {"type": "shot"}
    bob = {"type": "shot", "first_contact": 1, "rails": [1]}
    text = _explain(
        lang,
        {"type": "shot", "first_contact": 1, "rails": [2, 3, 4, 5]},
        bob,
        foul,
        bob,
        foul,
        bob,
        foul,
    )
    assert fragment.lower() in text.lower()


@pytest.mark.parametrize("lang", ["fr", "pl"])
def test_no_ball_is_spelled_out(lang: str) -> None:
    text = _explain(lang, {"type": "shot", "first_contact": 2, "pocketed": [9]})
    assert "UN" not in text
    assert "NEUF" not in text
