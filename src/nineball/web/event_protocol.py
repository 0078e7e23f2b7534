"""The request bodies of the event routes: one strict pydantic model each.

Every body is a JSON object; the models refuse an unknown field, a string read as a number, a bool
as a number and a number that is not finite. The organiser's and the tables' tokens travel only in
these bodies, never in a URL. A body that fails raises :class:`ProtocolError` naming the field and
its value; the server answers 400 and changes nothing. The values are then checked by the domain
(:class:`nineball.tournament.EventConfig`, :meth:`nineball.tournament.Entry.from_json`), which
knows their ranges.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field, StringConstraints, ValidationError

from nineball.errors import ProtocolError
from nineball.web.protocol import _Message

__all__ = [
    "MAX_ENTRIES",
    "AddPlayer",
    "ClockAction",
    "Entries",
    "NewEvent",
    "OrganiserOnly",
    "RemovePlayer",
    "Settings",
    "parse_body",
]

MAX_ENTRIES = 200
"""The most entries one request carries (a device's queue is sent in batches)."""

_Token = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class _Body(_Message):
    """What every body shares with the WebSocket's messages: strict, finite, no unknown field."""


class ClockRule(_Body):
    """The shot clock's numbers (checked by the domain)."""

    seconds: int = 30
    extension: int = 30
    extensions: int = 1


class NewEvent(_Body):
    """The settings of an event (``POST /api/events``; the organiser's settings page)."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    date: Annotated[str, StringConstraints(min_length=10, max_length=10)]
    format: Literal["single", "double", "round_robin", "groups"] = "double"
    race_to: int = 5
    breaks: Literal["alternate", "winner"] = "alternate"
    rules: Annotated[str, StringConstraints(max_length=20)] = "standard"
    refereed: bool = True
    seeding: Literal["rating", "random"] = "rating"
    seed: int = 0
    handicap: bool = False
    three_foul_warning: bool = True
    shot_clock: ClockRule | None = None
    tables: int = 1
    groups: int = 2
    advance: int = 2


class OrganiserOnly(_Body):
    """A body that carries only the organiser's token (start, links)."""

    token: _Token


class Settings(_Body):
    """New settings (before the start; after it, only ``tables`` may change)."""

    token: _Token
    config: NewEvent


class AddPlayer(_Body):
    """Register a player."""

    token: _Token
    name: Annotated[str, StringConstraints(max_length=200)]
    rating: float | int | None = None


class RemovePlayer(_Body):
    """Take a registered player off (before the start)."""

    token: _Token
    number: int


class Entries(_Body):
    """A scorer's entries, applied in order (each checked by the domain)."""

    token: _Token
    table: int | None = None
    """The table they were entered at (None: the organiser)."""
    entries: Annotated[list[dict[str, Any]], Field(min_length=1, max_length=MAX_ENTRIES)]


class ClockAction(_Body):
    """Start, extend or stop a table's shot clock."""

    token: _Token
    table: int
    action: Literal["start", "extend", "stop"]
    seat: Literal[0, 1] | None = None
    """Who calls the extension."""


_M = TypeVar("_M", bound=_Body)


def parse_body(model: type[_M], raw: bytes, what: str) -> _M:
    """Validate a request body against ``model``.

    Raises:
        ProtocolError: not a JSON object, a missing, unknown or bad field (naming it).
    """
    try:
        data = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"{what}: the body is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{what}: the body must be a JSON object, got {raw[:40]!r}")
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        first = min(error.errors(), key=lambda e: e["type"] != "extra_forbidden")
        where = ".".join(str(part) for part in first["loc"])
        if first["type"] == "extra_forbidden":
            raise ProtocolError(f"{what}: unknown field {where!r}") from None
        if first["type"] == "missing":
            raise ProtocolError(f"{what}: missing field {where!r}") from None
        said = first["msg"].removeprefix("Value error, ")
        shown = json.dumps(first.get("input"), default=str)[:60]
        raise ProtocolError(
            f"{what}: {where}: {said[:1].lower() + said[1:]}, got {shown}"
        ) from None
