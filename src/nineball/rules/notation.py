"""A compact notation for what happened on a shot, typed by a scorekeeper at a real table.

One entry is one line of whitespace-separated tokens (case does not matter)::

    1 p4 r2,3      hit the 1 first, pocketed the 4; the 2 and the 3 touched a rail
    3 r0           hit the 3 first; the cue ball touched a rail
    -              the cue ball hit nothing
    1 p9 s         hit the 1, pocketed the 9 and scratched (s = cue ball pocketed)
    push 2 r0      a declared push out: hit the 2, the cue ball touched a rail
    push -         a push out that touched nothing
    1 r23 o5       the 5 jumped off the table
    1 r0 m         clause 11: an obstructing ball moved on a jump or massé attempt

Shot tokens: a ball number (``1``-``9``) or ``-`` for the first ball hit; ``p``, ``r`` and ``o``
followed by balls for pocketed, rails and off the table (balls as the digits ``0``-``9``, with
or without single commas between them, ``p4,5`` or ``p45``, never a comma at either end or two in
a row; ``0`` or ``c`` is the cue ball); ``s`` for a scratch; ``m`` for a moved obstructing ball;
``push`` to declare a push out; ``safe`` to mark a safety (for statistics only). Commands:
``shoot`` and ``pass`` (the answer to a push out), ``undo``, ``forfeit`` (optionally ``1`` or
``2``: the player), ``help``, ``quit``. French and Polish words are accepted for the commands
(``tirer``, ``passer``, ``annuler``, ``poussé``...; ``graj``, ``oddaj``, ``cofnij``,
``wypchnięcie``...). A flag (``push``, ``s``, ``m``, ``safe``) is given at most once. Anything
else is refused with a message naming the token, never read with another meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from nineball.errors import InvalidInputError
from nineball.rules.facts import ShotFacts
from nineball.rules.state import Seat

__all__ = ["Command", "Entry", "NotationError", "ShotEntry", "parse_entry"]


class NotationError(InvalidInputError):
    """An entry that cannot be read; the message names the token and shows the right form."""


class Command(StrEnum):
    """A scorekeeper command that is not a shot."""

    SHOOT = "shoot"
    PASS = "pass"
    UNDO = "undo"
    FORFEIT = "forfeit"
    HELP = "help"
    QUIT = "quit"


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotEntry:
    """A shot as typed: its facts and whether a push out was declared."""

    facts: ShotFacts
    push_out: bool = False
    safety: bool = False
    """The shooter declared the stroke a safety (for statistics; nothing is called, clause 1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandEntry:
    """A command, with the seat it names (only ``forfeit`` takes one)."""

    command: Command
    seat: Seat | None = None


Entry = ShotEntry | CommandEntry
"""What one line of notation means."""

_COMMANDS: dict[str, Command] = {
    # English
    "shoot": Command.SHOOT,
    "pass": Command.PASS,
    "undo": Command.UNDO,
    "u": Command.UNDO,
    "forfeit": Command.FORFEIT,
    "help": Command.HELP,
    "h": Command.HELP,
    "?": Command.HELP,
    "quit": Command.QUIT,
    "q": Command.QUIT,
    "exit": Command.QUIT,
    # French
    "tirer": Command.SHOOT,
    "jouer": Command.SHOOT,
    "passer": Command.PASS,
    "annuler": Command.UNDO,
    "forfait": Command.FORFEIT,
    "aide": Command.HELP,
    "quitter": Command.QUIT,
    # Polish
    "graj": Command.SHOOT,
    "oddaj": Command.PASS,
    "cofnij": Command.UNDO,
    "walkower": Command.FORFEIT,
    "pomoc": Command.HELP,
    "koniec": Command.QUIT,
}

_PUSH_WORDS = frozenset({"push", "po", "poussé", "pousse", "wypchnięcie", "wyp"})

_SAFE_WORDS = frozenset({"safe", "safety", "défense", "defense", "obrona"})

_EXAMPLE = "for example `1 p4 r2,3` (hit the 1, pocketed the 4, the 2 and 3 touched a rail)"


_BALL_DIGITS = {"c": 0, **{str(n): n for n in range(10)}}
"""The characters that name a ball in a list: the ASCII digits, and c for the cue ball."""

_SHOWN = 24
"""The most characters of a bad token an error message repeats."""


def _quote(token: str) -> str:
    """``token`` as the messages show it: quoted, escaped, and cut when it is long."""
    return repr(token) if len(token) <= _SHOWN else repr(token[: _SHOWN - 3]) + "..."


def _balls(token: str, body: str) -> list[int]:
    """The balls of a ``p``, ``r`` or ``o`` token: digits, in groups between single commas."""
    head = token[0]
    if not body:
        raise NotationError(f"{_quote(token)}: name the balls after {head!r}, e.g. {head}4,5")
    balls: list[int] = []
    for group in body.split(","):
        if not group:
            raise NotationError(
                f"{_quote(token)}: a comma with no ball on one side; write {head}4,5 or {head}45"
            )
        for char in group:
            if char not in _BALL_DIGITS:
                raise NotationError(
                    f"{_quote(token)}: {char!r} is not a ball (0 or c is the cue ball, 1-9)"
                )
            balls.append(_BALL_DIGITS[char])
    return balls


def _command(words: list[str]) -> CommandEntry | None:
    command = _COMMANDS.get(words[0])
    if command is None:
        return None
    rest = " ".join(words[1:])
    if command is Command.FORFEIT and len(words) > 1:
        if len(words) == 2 and words[1] in ("1", "2"):
            return CommandEntry(command=command, seat=Seat(int(words[1]) - 1))
        raise NotationError(f"{words[0]!r} takes at most the player, 1 or 2, got {_quote(rest)}")
    if len(words) > 1:
        raise NotationError(f"{words[0]!r} takes no more words, got {_quote(rest)}")
    return CommandEntry(command=command)


def _once(seen: set[str], token: str, flag: str) -> None:
    """Refuse a flag (push out, scratch, moved, safety) given twice in one entry."""
    if flag in seen:
        raise NotationError(f"{_quote(token)}: said twice in one entry")
    seen.add(flag)


def parse_entry(text: str) -> Entry:
    """Read one line of notation.

    >>> parse_entry("1 p4 r2,3").facts == ShotFacts.of(first_contact=1, pocketed=[4], rails=[2, 3])
    True

    Raises:
        NotationError: the line cannot be read; the message says which token and why.
    """
    words = text.strip().lower().split()
    if not words:
        raise NotationError(f"type what happened, {_EXAMPLE}, or `help`")
    command = _command(words)
    if command is not None:
        return command
    first: int | None = None
    first_seen = False
    flags: set[str] = set()
    pocketed: list[int] = []
    rails: list[int] = []
    off_table: list[int] = []
    for token in words:
        if token in _PUSH_WORDS:
            _once(flags, token, "push")
        elif token in _SAFE_WORDS:
            _once(flags, token, "safe")
        elif token in ("s", "m"):
            _once(flags, token, token)
        elif token in ("-", "x") or (len(token) == 1 and token in "123456789"):
            if first_seen:
                raise NotationError(f"{_quote(token)}: the first ball hit was already given")
            first_seen = True
            first = None if token in ("-", "x") else int(token)
        elif token[0] in "pro":
            target = {"p": pocketed, "r": rails, "o": off_table}[token[0]]
            target.extend(_balls(token, token[1:]))
        else:
            raise NotationError(f"{_quote(token)} is not understood; {_EXAMPLE}")
    if not first_seen:
        raise NotationError(
            "say which ball the cue ball hit first (a number, or - for none), " + _EXAMPLE
        )
    facts = ShotFacts.of(
        first_contact=first,
        pocketed=[*pocketed, 0] if "s" in flags else pocketed,
        off_table=off_table,
        rails=rails,
        obstruction_moved="m" in flags,
    )
    return ShotEntry(facts=facts, push_out="push" in flags, safety="safe" in flags)
