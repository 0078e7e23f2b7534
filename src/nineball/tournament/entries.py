"""A scorer's entries: what happened at a table, one entry at a time.

Every entry carries an id made by the device that entered it (so an entry sent twice, after a
dropped connection, is applied once) and its place in its match, ``seq``: the number of entries
the match had before it (so an entry made on a device that missed someone else's is refused, not
applied out of order). :meth:`Entry.from_json` reads the JSON a page or a script sends;
:meth:`Entry.to_json` writes it back.

The kinds:

- ``start``: the match begins, scored rack by rack (``quick``) or shot by shot (``shots``),
  with who breaks first (the lag's winner).
- ``rack``: a rack won by ``winner`` (0 or 1), with the break's figures if the scorer gives them.
- ``shot``: a stroke's facts, ruled by the referee (``shots`` matches).
- ``choice``: the answer to a legal push out (``shoot`` or ``pass``).
- ``forfeit``: a player forfeits the game in progress (``seat``: 0 or 1).
- ``undo``: take back the match's last rack, shot, answer or start.
- ``award``: the organiser gives the match to ``winner`` without play (a no-show).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from nineball.errors import InvalidInputError, NineballError
from nineball.game import Choice, ShotFacts

__all__ = ["ENTRY_ID", "Entry", "EntryKind", "Mode"]

ENTRY_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
"""What an entry's id looks like: 8-64 letters, digits, ``_`` or ``-`` (a UUID fits)."""

_MATCH_KEY = re.compile(r"^[A-Z][A-Z0-9-]{0,15}$")


class Mode(StrEnum):
    """How a match is scored."""

    QUICK = "quick"
    """Rack by rack: the winner of each rack (and the break's figures, if given)."""
    SHOTS = "shots"
    """Shot by shot: every stroke's facts, ruled by the referee with its clauses."""
    AWARD = "award"
    """Not played: the organiser gave it to one player (a no-show)."""


class EntryKind(StrEnum):
    """What an entry is."""

    START = "start"
    RACK = "rack"
    SHOT = "shot"
    CHOICE = "choice"
    FORFEIT = "forfeit"
    UNDO = "undo"
    AWARD = "award"


_FIELDS: dict[EntryKind, set[str]] = {
    EntryKind.START: {"mode", "first_breaker"},
    EntryKind.RACK: {"winner", "break_balls", "break_foul", "break_and_run"},
    EntryKind.SHOT: {"first", "pocketed", "rails", "off_table", "push_out", "obstruction_moved"},
    EntryKind.CHOICE: {"choice"},
    EntryKind.FORFEIT: {"seat"},
    EntryKind.UNDO: set(),
    EntryKind.AWARD: {"winner"},
}
"""The fields each kind may have besides ``id``, ``match``, ``seq`` and ``kind``."""


def _slot(value: object, name: str) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise InvalidInputError(f"{name} is player 0 or 1, got {value!r:.40}")
    return 1 if value == 1 else 0


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(f"{name} is true or false, got {value!r:.40}")
    return value


def _balls(value: object, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > 10:
        raise InvalidInputError(f"{name} is a list of balls 0-9, got {value!r:.60}")
    for ball in value:
        if isinstance(ball, bool) or not isinstance(ball, int) or not 0 <= ball <= 9:
            raise InvalidInputError(f"{name}: {ball!r:.20} is not a ball (0-9)")
    return tuple(value)


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One entry of a scorer (or of the organiser: ``award``)."""

    id: str
    """Made by the device: 8-64 letters, digits, ``_`` or ``-``."""
    match: str
    """The key of the match it belongs to (``W1-3``)."""
    seq: int
    """How many entries the match had before this one."""
    kind: EntryKind
    mode: Mode | None = None
    first_breaker: int | None = None
    winner: int | None = None
    break_balls: int | None = None
    """Balls pocketed on the break (0-9), if the scorer counted them."""
    break_foul: bool = False
    """The break was a foul (clause 3)."""
    break_and_run: bool = False
    """The breaker won the rack without the opponent coming to the table."""
    facts: ShotFacts | None = None
    push_out: bool = False
    choice: Choice | None = None
    seat: int | None = None

    @classmethod
    def from_json(cls, data: object) -> Entry:
        """An entry from its JSON object; every field is checked, unknown ones refused.

        Raises:
            InvalidInputError: naming the bad field or value.
        """
        if not isinstance(data, dict):
            raise InvalidInputError(f"an entry is a JSON object, got {data!r:.60}")
        try:
            kind = EntryKind(str(data.get("kind")))
        except ValueError:
            raise InvalidInputError(
                f"an entry's kind is one of {', '.join(EntryKind)}, got {data.get('kind')!r:.40}"
            ) from None
        unknown = set(data) - {"id", "match", "seq", "kind"} - _FIELDS[kind]
        if unknown:
            raise InvalidInputError(
                f"unknown field(s) for a {kind.value} entry: {', '.join(sorted(map(str, unknown)))}"
            )
        entry_id, key, seq = data.get("id"), data.get("match"), data.get("seq")
        if not isinstance(entry_id, str) or not ENTRY_ID.match(entry_id):
            raise InvalidInputError(
                f"an entry's id is 8-64 letters, digits, _ or -, got {entry_id!r:.70}"
            )
        if not isinstance(key, str) or not _MATCH_KEY.match(key):
            raise InvalidInputError(f"no match {key!r:.40}")
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 100_000:
            raise InvalidInputError(
                f"seq is the number of entries before this one, got {seq!r:.20}"
            )
        fields: dict[str, Any] = {"id": entry_id, "match": key, "seq": seq, "kind": kind}
        if kind is EntryKind.START:
            try:
                fields["mode"] = Mode(str(data.get("mode")))
            except ValueError:
                raise InvalidInputError(
                    f"the mode is quick or shots, got {data.get('mode')!r:.40}"
                ) from None
            fields["first_breaker"] = _slot(data.get("first_breaker"), "first_breaker")
        elif kind in (EntryKind.RACK, EntryKind.AWARD):
            fields["winner"] = _slot(data.get("winner"), "winner")
            balls = data.get("break_balls")
            if balls is not None and (isinstance(balls, bool) or balls not in range(10)):
                raise InvalidInputError(f"break_balls is 0-9 balls or null, got {balls!r:.20}")
            fields["break_balls"] = balls
            for flag in ("break_foul", "break_and_run"):
                fields[flag] = _flag(data.get(flag, False), flag)
        elif kind is EntryKind.SHOT:
            first = data.get("first")
            if first is not None and (isinstance(first, bool) or first not in range(1, 10)):
                raise InvalidInputError(
                    f"first is the object ball hit first or null, got {first!r:.20}"
                )
            try:
                fields["facts"] = ShotFacts.of(
                    first_contact=first,
                    pocketed=list(_balls(data.get("pocketed", []), "pocketed")),
                    rails=list(_balls(data.get("rails", []), "rails")),
                    off_table=list(_balls(data.get("off_table", []), "off_table")),
                    obstruction_moved=_flag(
                        data.get("obstruction_moved", False), "obstruction_moved"
                    ),
                )
            except NineballError as exc:
                raise InvalidInputError(str(exc)) from exc
            fields["push_out"] = _flag(data.get("push_out", False), "push_out")
        elif kind is EntryKind.CHOICE:
            try:
                fields["choice"] = Choice(str(data.get("choice")))
            except ValueError:
                raise InvalidInputError(
                    f"the choice is shoot or pass, got {data.get('choice')!r:.40}"
                ) from None
        elif kind is EntryKind.FORFEIT:
            fields["seat"] = _slot(data.get("seat"), "seat")
        return cls(**fields)

    def to_json(self) -> dict[str, Any]:
        """The entry as the JSON object :meth:`from_json` reads."""
        out: dict[str, Any] = {
            "id": self.id,
            "match": self.match,
            "seq": self.seq,
            "kind": self.kind.value,
        }
        if self.kind is EntryKind.START:
            out |= {"mode": str(self.mode), "first_breaker": self.first_breaker}
        elif self.kind is EntryKind.RACK:
            out |= {
                "winner": self.winner,
                "break_balls": self.break_balls,
                "break_foul": self.break_foul,
                "break_and_run": self.break_and_run,
            }
        elif self.kind is EntryKind.AWARD:
            out["winner"] = self.winner
        elif self.kind is EntryKind.SHOT and self.facts is not None:
            facts = self.facts
            out |= {
                "first": None if facts.first_contact is None else int(facts.first_contact),
                "pocketed": sorted(int(b) for b in facts.pocketed),
                "rails": sorted(int(b) for b in facts.rails),
                "off_table": sorted(int(b) for b in facts.off_table),
                "push_out": self.push_out,
                "obstruction_moved": facts.obstruction_moved,
            }
        elif self.kind is EntryKind.CHOICE:
            out["choice"] = str(self.choice)
        elif self.kind is EntryKind.FORFEIT:
            out["seat"] = self.seat
        return out
