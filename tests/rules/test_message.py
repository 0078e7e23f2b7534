"""Explanations as messages: clauses from the data, texts from the catalogs, plural forms."""

from __future__ import annotations

import pytest

from nineball.rules import (
    Explanation,
    Foul,
    Language,
    MatchConfig,
    Seat,
    ShotFacts,
    forfeit,
    shoot,
    start_match,
)
from nineball.rules.clauses import Clause, Ground
from nineball.rules.message import Items, Message, render
from nineball.rules.texts import Text

ANN_BOB = MatchConfig(players=("Ann", "Bob"))


def _clauses(message: Message) -> tuple[str, ...]:
    """The clauses cited by ``message`` (its ``cite`` argument)."""
    cite = dict(message.args)["cite"]
    assert isinstance(cite, Message)
    assert cite.id is Text.CLAUSE
    items = dict(cite.args)["clauses"]
    assert isinstance(items, Items)
    return tuple(str(item) for item in items.items)


def test_the_clauses_of_each_foul_on_and_off_the_break() -> None:
    cited = {foul: [str(c) for c in foul.clauses(on_break=True)] for foul in Foul}
    assert cited == {
        Foul.ILLEGAL_BREAK: ["3a"],
        Foul.CUE_BALL_POCKETED: ["3b", "6"],
        Foul.CUE_BALL_OFF_TABLE: ["3b", "10"],
        Foul.OBJECT_BALL_OFF_TABLE: ["3c", "10"],
        Foul.NO_CONTACT: ["7"],
        Foul.WRONG_BALL_FIRST: ["7"],
        Foul.NO_RAIL: ["8"],
        Foul.OBSTRUCTION_MOVED: ["11"],
    }
    for foul in Foul:
        # Off the break a foul cites the one clause that defines it, which the protocol reports.
        (defined,) = foul.clauses(on_break=False)
        assert defined.number == foul.clause
        assert foul.clauses(on_break=True)[-1] is defined


def test_clause_numbers() -> None:
    assert [c.number for c in Clause] == [1, 2, 3, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert all(ground.clauses for ground in Ground)


def test_a_ruling_cites_the_clauses_of_its_fouls() -> None:
    facts = ShotFacts.of(first_contact=1, pocketed=[0], off_table=[5], rails=[2, 3, 4, 6])
    ruling = shoot(start_match(ANN_BOB), facts)
    first = ruling.explanation.sentences[0]
    assert first.id is Text.FOUL_ON_BREAK
    reasons = dict(first.args)["fouls"]
    assert isinstance(reasons, Items)
    assert ruling.fouls == (Foul.CUE_BALL_POCKETED, Foul.OBJECT_BALL_OFF_TABLE)
    assert [_clauses(r) for r in reasons.items if isinstance(r, Message)] == [
        tuple(str(c) for c in foul.clauses(on_break=True)) for foul in ruling.fouls
    ]
    assert ruling.explanation.en.startswith(
        "Foul on the break: the cue ball was pocketed (clauses 3b and 6) "
        "and the 5 left the table (clauses 3c and 10). "
    )


def test_the_same_foul_off_the_break_cites_its_own_clause() -> None:
    after_break = shoot(start_match(ANN_BOB), ShotFacts.of(first_contact=1, pocketed=[2])).state
    ruling = shoot(after_break, ShotFacts.of(first_contact=1, pocketed=[0], rails=[1]))
    assert ruling.explanation.en.startswith("Foul: the cue ball was pocketed (clause 6). ")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (Language.EN, ["the 2", "the 2 and the 3", "the 2, the 3 and the 4"]),
        (Language.FR, ["la 2", "la 2 et la 3", "la 2, la 3 et la 4"]),
        (Language.PL, ["2", "2 i 3", "2, 3 i 4"]),
    ],
)
def test_lists_of_balls(lang: Language, expected: list[str]) -> None:
    balls = (Text.BALL_2, Text.BALL_3, Text.BALL_4)
    names = [Items(tuple(Message.of(b) for b in balls[:n])) for n in (1, 2, 3)]
    got = [render(Message.of(Text.SENTENCE, parts=items), lang) for items in names]
    assert got == [f"{text}." for text in expected]


@pytest.mark.parametrize(
    ("n", "polish"),
    [
        (1, "bandy dotknęła tylko 1 bila kolorowa"),
        (2, "bandy dotknęły 2 bile kolorowe"),
        (3, "bandy dotknęły 3 bile kolorowe"),
    ],
)
def test_polish_plural_forms(n: int, polish: str) -> None:
    rails = [2, 3, 4][:n]
    ruling = shoot(start_match(ANN_BOB), ShotFacts.of(first_contact=1, rails=rails))
    assert polish in ruling.explanation.pl
    for count, form in [(5, "dotknęło 5 bil"), (12, "dotknęło 12 bil"), (22, "dotknęły 22 bile")]:
        cite = Message.of(Text.CLAUSE, count=1, clauses=Items(("3",)))
        message = Message.of(Text.BREAK_RAILS, count=count, n=count, cite=cite)
        assert form in render(message, Language.PL)


def test_every_sentence_starts_with_a_capital() -> None:
    config = MatchConfig(players=("ann", "bob"), race_to=1)
    ruling = shoot(start_match(config), ShotFacts.of(first_contact=1, pocketed=[9]))
    assert ruling.explanation.en == (
        "Legal break (clause 3): ann pocketed the 9 on the break. "
        "Ann wins game 1 (clause 13); ann wins the match 1-0."
    )
    assert forfeit(start_match(config), Seat.FIRST).explanation.fr.startswith(
        "Ann déclare forfait pour une infraction majeure aux règlements (règle 4). "
        "Bob gagne la partie 1 (règle 13) ; bob remporte le match 0-1."
    )


def test_an_explanation_is_data_until_rendered() -> None:
    cite = Message.of(Text.CLAUSE, count=1, clauses=Items(("5",)))
    explanation = Explanation(sentences=(Message.of(Text.LEGAL_PUSH_OUT, cite=cite),))
    assert explanation == Explanation(sentences=(Message.of(Text.LEGAL_PUSH_OUT, cite=cite),))
    assert explanation.fr == "Coup poussé légal (règle 5)."
    assert explanation.pl == "Prawidłowe wypchnięcie (punkt 5)."


def test_a_player_name_is_a_value_not_a_pattern() -> None:
    message = Message.of(Text.KEEPS_SHOOTING, player="{cite} 100%")
    assert render(message, Language.EN) == "{cite} 100% keeps shooting"


def test_bad_messages_are_refused() -> None:
    with pytest.raises(ValueError, match="the text CLAUSE needs a count, got None"):
        Message.of(Text.CLAUSE, clauses=Items(("5",)))
    with pytest.raises(ValueError, match="the text FOUL takes no count, got 2"):
        Message.of(Text.FOUL, count=2, fouls="x")
    with pytest.raises(ValueError, match="at least one item"):
        Items(())
