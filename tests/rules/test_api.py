"""The referee's Python API: values, validation, queries a user interface needs."""

from __future__ import annotations

import dataclasses

import pytest

from nineball import BallId, IllegalActionError, InvalidInputError, InvalidShotError
from nineball.rules import (
    FR,
    PL,
    RULE_NAMES,
    STANDARD,
    VARIANTS,
    Action,
    BreakRule,
    Choice,
    CueBall,
    Explanation,
    Foul,
    Language,
    MatchConfig,
    MatchState,
    Phase,
    RulingKind,
    Seat,
    ShotFacts,
    Termination,
    choose,
    find_variant,
    forfeit,
    legal_actions,
    shoot,
    start_match,
)
from nineball.rules.state import check_player_name

BREAK_FOUR_RAILS = ShotFacts.of(first_contact=1, rails=[2, 3, 4, 5])


def test_every_foul_cites_its_clause() -> None:
    clauses = {foul: foul.clause for foul in Foul}
    assert clauses == {
        Foul.ILLEGAL_BREAK: 3,
        Foul.CUE_BALL_POCKETED: 6,
        Foul.CUE_BALL_OFF_TABLE: 10,
        Foul.OBJECT_BALL_OFF_TABLE: 10,
        Foul.NO_CONTACT: 7,
        Foul.WRONG_BALL_FIRST: 7,
        Foul.NO_RAIL: 8,
        Foul.OBSTRUCTION_MOVED: 11,
    }
    assert [f.value for f in Foul] == [
        "illegal_break",
        "cue_ball_pocketed",
        "cue_ball_off_table",
        "object_ball_off_table",
        "no_contact",
        "wrong_ball_first",
        "no_rail",
        "obstruction_moved",
    ]


def test_profiles() -> None:
    assert find_variant("standard") is STANDARD
    assert find_variant("seed") is STANDARD  # the default's name before 2026-12
    assert [v.name for v in VARIANTS] == ["standard", "fr", "pl"]
    assert RULE_NAMES == ("standard", "fr", "pl", "seed")
    assert find_variant("FR") is FR
    assert find_variant("pl") is PL
    with pytest.raises(ValueError, match="unknown rule profile 'wpa'"):
        find_variant("wpa")
    assert STANDARD.is_obstruction_foul(refereed=True)
    assert PL.is_obstruction_foul(refereed=False)
    assert not PL.is_obstruction_foul(refereed=True)
    assert FR.push_out_after_foul_break
    assert not STANDARD.push_out_after_foul_break


def test_start_state_and_queries() -> None:
    state = start_match(MatchConfig(players=("Ann", "Bob"), first_breaker=Seat.SECOND))
    assert state.phase is Phase.BREAK
    assert state.to_act is Seat.SECOND
    assert state.cue_ball is CueBall.KITCHEN
    assert state.lowest is BallId.ONE
    assert state.on_table == frozenset(BallId) - {BallId.CUE}
    assert not state.push_out_allowed
    assert not state.is_over
    assert state.name(Seat.SECOND) == "Bob"
    assert legal_actions(state) == {Action.SHOOT}


def test_legal_actions_follow_the_phase() -> None:
    state = start_match()
    after_break = shoot(state, BREAK_FOUR_RAILS).state
    assert legal_actions(after_break) == {Action.SHOOT, Action.PUSH_OUT}
    pushed = shoot(after_break, ShotFacts(), push_out=True).state
    assert legal_actions(pushed) == {Action.CHOOSE_SHOOT, Action.CHOOSE_PASS}
    over = forfeit(start_match(MatchConfig(race_to=1)), Seat.FIRST).state
    assert over.phase is Phase.MATCH_OVER
    assert legal_actions(over) == frozenset()
    assert not over.push_out_allowed


def test_ruling_properties() -> None:
    ruling = shoot(start_match(), BREAK_FOUR_RAILS)
    assert ruling.kind is RulingKind.BREAK
    assert ruling.legal
    assert not ruling.is_foul
    assert ruling.next_to_act is Seat.SECOND
    assert ruling.cue_ball is CueBall.IN_PLACE
    assert ruling.push_out_allowed
    assert not ruling.choice_pending
    assert ruling.match_winner is None
    push = shoot(ruling.state, ShotFacts(), push_out=True)
    assert push.kind is RulingKind.PUSH_OUT
    assert push.choice_pending
    answer = choose(push.state, Choice.PASS)
    assert answer.kind is RulingKind.CHOICE
    assert answer.next_to_act is Seat.SECOND
    foul = shoot(answer.state, ShotFacts.of(first_contact=4))
    assert foul.kind is RulingKind.SHOT
    assert foul.is_foul
    assert foul.fouls == (Foul.WRONG_BALL_FIRST,)


def test_match_winner_and_results() -> None:
    state = start_match(MatchConfig(race_to=2, breaks=BreakRule.WINNER))
    first = shoot(state, ShotFacts.of(first_contact=1, pocketed=[9]))
    assert first.game_over is not None
    assert first.game_over.reason is Termination.NINE_BALL
    second = forfeit(first.state, Seat.SECOND)
    assert second.match_winner is Seat.FIRST
    assert [r.winner for r in second.state.results] == [Seat.FIRST, Seat.FIRST]
    assert [r.breaker for r in second.state.results] == [Seat.FIRST, Seat.FIRST]
    with pytest.raises(IllegalActionError, match="the match is over: 'Player 1' won it"):
        shoot(second.state, BREAK_FOUR_RAILS)
    with pytest.raises(IllegalActionError, match="the match is over"):
        choose(second.state, Choice.SHOOT)
    with pytest.raises(IllegalActionError, match="the match is over"):
        forfeit(second.state, Seat.FIRST)


def test_refused_actions_leave_the_state_alone() -> None:
    state = shoot(start_match(), ShotFacts.of(first_contact=1, pocketed=[2])).state
    snapshot = dataclasses.replace(state)
    with pytest.raises(InvalidShotError, match="ball 2 is not on the table"):
        shoot(state, ShotFacts.of(first_contact=1, rails=[2]))
    with pytest.raises(IllegalActionError, match="no push out to answer"):
        choose(state, Choice.SHOOT)
    assert state == snapshot


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"first_contact": 0}, "0 is the cue ball"),
        ({"first_contact": 10}, "10 is not a ball"),
        ({"pocketed": [1, 1]}, "ball 1 is listed twice"),
        ({"rails": [-1]}, "-1 is not a ball"),
        ({"pocketed": [True]}, "True is not a ball"),
        ({"pocketed": [3], "off_table": [3]}, "ball 3 cannot be both pocketed and off the table"),
    ],
)
def test_bad_facts_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidShotError, match=message):
        ShotFacts.of(**kwargs)  # type: ignore[arg-type]


def test_facts_must_be_frozensets() -> None:
    with pytest.raises(InvalidShotError, match="expected a frozenset"):
        ShotFacts(pocketed=[BallId.ONE])  # type: ignore[arg-type]
    with pytest.raises(InvalidShotError, match="'x' is not a ball"):
        ShotFacts(first_contact="x")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rails": frozenset({10})}, "rails: 10 is not a ball"),
        ({"pocketed": frozenset({True})}, "pocketed: True is not a ball"),
        ({"off_table": frozenset({BallId.ONE, "2"})}, "off_table: '2' is not a ball"),
    ],
)
def test_facts_made_directly_are_checked_ball_by_ball(
    kwargs: dict[str, object], message: str
) -> None:
    """Sets of ``BallId`` are balls already; anything else in a set is checked as ``of`` does."""
    with pytest.raises(InvalidShotError, match=message):
        ShotFacts(**kwargs)  # type: ignore[arg-type]


def test_facts_views() -> None:
    facts = ShotFacts.of(first_contact=2, pocketed=[0, 4], off_table=[5], rails=[0, 6])
    assert facts.pocketed_object_balls == {BallId.FOUR}
    assert facts.off_table_object_balls == {BallId.FIVE}
    assert facts.balls_seen == {0, 2, 4, 5, 6}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ("Ann",)}, "players must be two names"),
        ({"players": ("Ann", " ")}, "got the empty name ' '"),
        ({"players": ("Ann", 3)}, "got 3, not a string"),
        ({"players": ("Ann", "Ann")}, "different names"),
        ({"race_to": 0}, "race_to must be in 1..99, got 0"),
        ({"race_to": 100}, "race_to must be in 1..99"),
        ({"race_to": True}, "race_to must be an integer"),
        ({"races": (3,)}, r"races must be two numbers of games, got \(3,\)"),
        ({"races": [3, 5]}, "races must be two numbers of games"),
        ({"races": (3, 0)}, "a race must be in 1..99, got 0"),
        ({"breaks": "alternate"}, "breaks must be a BreakRule"),
        ({"first_breaker": 0}, "first_breaker must be a Seat"),
        ({"rules": "seed"}, "rules must be a RuleSet"),
        ({"refereed": 1}, "refereed must be true or false"),
    ],
)
def test_bad_match_config(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        MatchConfig(**kwargs)  # type: ignore[arg-type]


def test_handicapped_races() -> None:
    config = MatchConfig(race_to=5, races=(3, 7))
    assert (config.race_of(Seat.FIRST), config.race_of(Seat.SECOND)) == (3, 7)
    assert MatchConfig(race_to=5).race_of(Seat.SECOND) == 5


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "got the empty name ''"),
        ("\u3000 ", "got the empty name"),
        ("x" * 41, "got 41 characters, 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'..."),
        ("\ud800", r"'\ud800' holds U+D800, a lone surrogate"),
        ("Ann\udfff", "holds U+DFFF, a lone surrogate"),
        ("A\u2028nn", r"'A\u2028nn' holds U+2028, a line separator"),
        ("A\u2029nn", "holds U+2029, a paragraph separator"),
        ("A\nnn", r"'A\nnn' holds U+000A, a control character"),
        ("Ann\r", "holds U+000D, a control character"),
        ("\tAnn", "holds U+0009, a control character"),
        ("A\x00", "holds U+0000, a control character"),
        ("A\x85", "holds U+0085, a control character"),
        ("A\x7f", "holds U+007F, a control character"),
    ],
)
def test_bad_player_names_are_refused_naming_the_character(name: str, message: str) -> None:
    """One rule for a name (issue 16): the referee, the records and the web all rely on it."""
    for players in ((name, "Bob"), ("Bob", name)):
        with pytest.raises(InvalidInputError, match="a player name must be 1-40 characters") as e:
            MatchConfig(players=players)
        assert message in str(e.value)
    with pytest.raises(InvalidInputError):
        check_player_name(name)


@pytest.mark.parametrize(
    "name", ["Zoë", "Łucja", "李小龍", "x" * 40, " Ann ", "O'Brien-Smith Jr.", "🎱 Ann", "a\u200db"]
)
def test_good_player_names_are_kept_as_given(name: str) -> None:
    assert check_player_name(name) == name
    assert MatchConfig(players=(name, "Bob")).players == (name, "Bob")


def test_match_state_start_defaults() -> None:
    state = MatchState.start()
    assert state.config == MatchConfig()
    assert state.score == (0, 0)
    assert state.winner is None
    assert state.results == ()


def test_explanation_languages() -> None:
    config = MatchConfig(players=("Ann", "Bob"))
    text = shoot(start_match(config), ShotFacts.of(first_contact=1, pocketed=[0, 3])).explanation
    assert isinstance(text, Explanation)
    assert [text.text(lang) for lang in Language] == [text.en, text.fr, text.pl]
    assert text.en == (
        "Foul on the break: the cue ball was pocketed (clauses 3b and 6). "
        "Bob has the cue ball in hand anywhere on the table (clause 6)."
    )
    assert text.text("fr") == (
        "Faute au bris : la blanche a été empochée (règles 3b et 6). "
        "Bob a la blanche en main n'importe où sur la table (règle 6)."
    )
    assert text.pl.startswith("Faul przy rozbiciu: biała bila wpadła do łuzy (punkty 3b i 6). ")
    with pytest.raises(ValueError, match="'de'"):
        text.text("de")


def test_seat_other() -> None:
    assert Seat.FIRST.other is Seat.SECOND
    assert Seat.SECOND.other is Seat.FIRST


def test_object_ball_flag() -> None:
    assert not BallId.CUE.is_object_ball
    assert BallId.NINE.is_object_ball
