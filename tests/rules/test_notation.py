"""The scorekeeper's compact shot notation."""

from __future__ import annotations

import pytest

from nineball.errors import InvalidShotError
from nineball.rules import Seat, ShotFacts
from nineball.rules.notation import Command, CommandEntry, NotationError, ShotEntry, parse_entry


@pytest.mark.parametrize(
    ("text", "facts", "push_out"),
    [
        ("1 p4 r2,3", ShotFacts.of(first_contact=1, pocketed=[4], rails=[2, 3]), False),
        ("1 P4 R23", ShotFacts.of(first_contact=1, pocketed=[4], rails=[2, 3]), False),
        ("3 r0", ShotFacts.of(first_contact=3, rails=[0]), False),
        ("3 rc", ShotFacts.of(first_contact=3, rails=[0]), False),
        ("-", ShotFacts(), False),
        ("x r0", ShotFacts.of(rails=[0]), False),
        ("1 p9 s", ShotFacts.of(first_contact=1, pocketed=[9, 0]), False),
        ("1 p09", ShotFacts.of(first_contact=1, pocketed=[9, 0]), False),
        ("1 r23 o5", ShotFacts.of(first_contact=1, rails=[2, 3], off_table=[5]), False),
        ("1 oc", ShotFacts.of(first_contact=1, off_table=[0]), False),
        ("1 r0 m", ShotFacts.of(first_contact=1, rails=[0], obstruction_moved=True), False),
        ("push 2 r0", ShotFacts.of(first_contact=2, rails=[0]), True),
        ("push -", ShotFacts(), True),
        ("2 r0 poussé", ShotFacts.of(first_contact=2, rails=[0]), True),
        ("wypchnięcie -", ShotFacts(), True),
        ("  1   p4  ", ShotFacts.of(first_contact=1, pocketed=[4]), False),
        ("p4 1", ShotFacts.of(first_contact=1, pocketed=[4]), False),
        ("1 p4 p5", ShotFacts.of(first_contact=1, pocketed=[4, 5]), False),
        ("1 p4,5", ShotFacts.of(first_contact=1, pocketed=[4, 5]), False),
        ("1 r23,0", ShotFacts.of(first_contact=1, rails=[2, 3, 0]), False),
        ("1 s p4", ShotFacts.of(first_contact=1, pocketed=[0, 4]), False),
    ],
)
def test_shots(text: str, facts: ShotFacts, push_out: bool) -> None:
    assert parse_entry(text) == ShotEntry(facts=facts, push_out=push_out)


@pytest.mark.parametrize(
    ("text", "command", "seat"),
    [
        ("shoot", Command.SHOOT, None),
        ("PASS", Command.PASS, None),
        ("undo", Command.UNDO, None),
        ("u", Command.UNDO, None),
        ("help", Command.HELP, None),
        ("?", Command.HELP, None),
        ("quit", Command.QUIT, None),
        ("forfeit", Command.FORFEIT, None),
        ("forfeit 2", Command.FORFEIT, Seat.SECOND),
        ("forfait 1", Command.FORFEIT, Seat.FIRST),
        ("tirer", Command.SHOOT, None),
        ("passer", Command.PASS, None),
        ("annuler", Command.UNDO, None),
        ("graj", Command.SHOOT, None),
        ("oddaj", Command.PASS, None),
        ("cofnij", Command.UNDO, None),
        ("pomoc", Command.HELP, None),
        ("koniec", Command.QUIT, None),
    ],
)
def test_commands(text: str, command: Command, seat: Seat | None) -> None:
    assert parse_entry(text) == CommandEntry(command=command, seat=seat)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type what happened"),
        ("   ", "type what happened"),
        ("p4", "say which ball the cue ball hit first"),
        ("1 2", "'2': the first ball hit was already given"),
        ("1 p", "'p': name the balls after 'p'"),
        ("1 pz", "'pz': 'z' is not a ball"),
        ("1 q4", "'q4' is not understood"),
        ("0 p4", "'0' is not understood"),
        ("12", "'12' is not understood"),
        ("undo now", "'undo' takes no more words, got 'now'"),
        ("forfeit 3", "'forfeit' takes at most the player, 1 or 2, got '3'"),
        ("forfeit 1 2", "'forfeit' takes at most the player, 1 or 2, got '1 2'"),
        # Issue 16: sloppy entries are refused, never read with another meaning.
        ("1 p4,,,", "'p4,,,': a comma with no ball on one side"),
        ("1 r,", "'r,': a comma with no ball on one side"),
        ("1 r,2", "'r,2': a comma with no ball on one side"),
        ("1 p2,,3", "'p2,,3': a comma with no ball on one side"),
        ("1 p4,", "'p4,': a comma with no ball on one side"),
        ("1 p²", "'p²': '²' is not a ball"),
        ("1 p٣", "'p٣': '٣' is not a ball"),
        ("²", "'²' is not understood"),
        ("٣ p4", "'٣' is not understood"),
        ("1 p4 p", "'p': name the balls after 'p'"),
        ("push push 1", "'push': said twice in one entry"),
        ("push 1 poussé", "'poussé': said twice in one entry"),
        ("1 m m", "'m': said twice in one entry"),
        ("1 s s", "'s': said twice in one entry"),
        ("1 safe obrona", "'obrona': said twice in one entry"),
        ("1 " + "q" * 100, "'qqqqqqqqqqqqqqqqqqqqq'... is not understood"),
        ("1 p\ud800", "'p\\ud800': '\\ud800' is not a ball"),
    ],
)
def test_bad_entries(text: str, message: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_entry(text)
    assert message in str(info.value)


def test_safety_mark() -> None:
    entry = parse_entry("1 r0 safe")
    assert isinstance(entry, ShotEntry)
    assert entry.safety
    assert entry.facts == ShotFacts.of(first_contact=1, rails=[0])
    assert not ShotEntry(facts=ShotFacts()).safety


def test_inconsistent_facts_are_refused() -> None:
    with pytest.raises(InvalidShotError, match="ball 4 is listed twice"):
        parse_entry("1 p44")
    with pytest.raises(InvalidShotError, match="both pocketed and off the table"):
        parse_entry("1 p4 o4")
