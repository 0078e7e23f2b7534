"""The routes of events: the organiser's, the scorers', the board's, the overlay's.

Mounted by :func:`nineball.web.app.create_app` behind the same guard as the game (host and
origin checks). Reading is open to anyone who reaches the server (a board, a player's page, the
overlay: names and scores only); every change needs a token in the request's body: the
organiser's, or the table's for that table's entries and shot clock. Pages poll: ``GET
/api/events/{id}?since=N`` answers ``{"unchanged": true}`` while the event's revision is still
``N``, so a board asks every second at the cost of one small query.

Routes (``{id}`` an event, ``{n}`` a table):

- ``GET /event/{page}``: the pages (``board``, ``table``, ``overlay``, ``player``, ``admin``).
- ``POST /api/events``: a new event (its settings); answers its id and tokens.
- ``GET /api/events``: the events; ``GET /api/events/{id}``: the board's JSON.
- ``POST /api/events/{id}/players``, ``.../players/remove``, ``.../settings``, ``.../start``,
  ``.../links``: the organiser's actions.
- ``POST /api/events/{id}/entries``: a scorer's (or the organiser's) entries, in order.
- ``GET /api/events/{id}/tables/{n}``: a table's match (the scorer, the overlay);
  ``POST /api/events/{id}/clock``: its shot clock.
- ``GET /api/events/{id}/players/{number}``: a player's page.
- ``GET /api/events/{id}/report``, ``.../results.csv``, ``.../matches/{key}/scoresheet.pdf``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from nineball.errors import (
    AccessError,
    ConcurrentWriteError,
    IllegalActionError,
    InvalidInputError,
    NineballError,
)
from nineball.game import Store
from nineball.tournament import Entrant, Entry, EventConfig, EventService, EventView, ShotClock
from nineball.tournament.overlay import has_win_probability_model, win_probability
from nineball.tournament.reports import event_report, results_csv
from nineball.web.event_protocol import (
    AddPlayer,
    ClockAction,
    Entries,
    NewEvent,
    OrganiserOnly,
    RemovePlayer,
    Settings,
    parse_body,
)
from nineball.web.event_views import board_json, player_json, table_json

__all__ = ["PAGES", "event_routes"]

PAGES = ("board", "table", "overlay", "player", "admin")
"""The event pages, each ``static/event-{page}.html``."""

_STATIC = Path(__file__).parent / "static"
_LIMIT = 64 * 1024
"""The largest body of an event request, bytes (200 entries fit)."""


def _status(error: NineballError) -> int:
    if isinstance(error, AccessError):
        return 403
    if isinstance(error, ConcurrentWriteError):
        return 409
    if isinstance(error, IllegalActionError):
        return 409
    return 400


def _error(error: NineballError | str, status: int | None = None) -> JSONResponse:
    if isinstance(error, str):
        return JSONResponse({"error": error[:300]}, status_code=status or 400)
    return JSONResponse({"error": str(error)[:300]}, status_code=status or _status(error))


def _number(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise InvalidInputError(f"no {what} {text!r:.30}")
    return int(text)


def event_routes(
    store: Callable[[], Store],
    read_body: Callable[[Request, int], Any],
    clock: Callable[[], float] = time.monotonic,
) -> APIRouter:
    """The event routes over the store ``store()`` gives (the server's).

    Args:
        store: the server's store, opened with it.
        read_body: reads a request's body up to a limit (:func:`nineball.web.app.read_body`).
        clock: seconds from any origin, for the shot clocks (injected by tests).
    """
    router = APIRouter()
    cache: dict[int, tuple[int, dict[str, Any]]] = {}
    clocks: dict[tuple[int, int], ShotClock] = {}

    def service() -> EventService:
        return EventService(store())

    views: dict[int, EventView] = {}

    def view_of(event_id: int) -> EventView:
        """The event as it stands, read once per revision (the pages poll it every second)."""
        held = views.get(event_id)
        if held is not None and held.revision == service().revision(event_id):
            return held
        views[event_id] = view = service().view(event_id)
        return view

    def board(event_id: int) -> dict[str, Any]:
        """The board's JSON, made once per revision of the event."""
        view = view_of(event_id)
        held = cache.get(event_id)
        if held is not None and held[0] == view.revision:
            return held[1]
        data = board_json(view)
        cache[event_id] = (view.revision, data)
        return data

    async def body(request: Request, model: Any, what: str) -> Any:
        return parse_body(model, await read_body(request, _LIMIT), what)

    @router.get("/event/{page}", response_model=None)
    async def page(page: str) -> FileResponse | JSONResponse:
        if page not in PAGES:
            return _error(f"no page {page!r:.30} (pages: {', '.join(PAGES)})", 404)
        return FileResponse(_STATIC / f"event-{page}.html", headers={"Cache-Control": "no-cache"})

    @router.post("/api/events", response_model=None)
    async def create(request: Request) -> JSONResponse | dict[str, Any]:
        try:
            asked = await body(request, NewEvent, "new event")
            config = EventConfig.from_json(asked.model_dump())
            events = service()
            event_id = events.create(config)
            tokens = events.tokens(event_id)
        except NineballError as error:
            return _error(error)
        return {"id": event_id, "token": tokens.organiser, "tables": _tables(tokens.tables)}

    @router.get("/api/events")
    async def listing() -> dict[str, Any]:
        rows = service().rows.events()
        return {
            "events": [
                {
                    "id": r.id,
                    "name": r.name,
                    "date": r.config.get("date"),
                    "format": r.config.get("format"),
                    "started": r.started is not None,
                }
                for r in rows
            ]
        }

    @router.get("/api/events/{event_id}", response_model=None)
    async def show(event_id: str, since: int | None = None) -> JSONResponse | dict[str, Any]:
        try:
            number = _number(event_id, "event")
            if since is not None and since == service().revision(number):
                return {"unchanged": True, "revision": since}
            return board(number)
        except NineballError as error:
            return _error(error, 404)

    async def organiser(
        request: Request, event_id: str, model: Any, what: str
    ) -> tuple[EventService, int, Any]:
        number = _number(event_id, "event")
        asked = await body(request, model, what)
        events = service()
        events.check_organiser(number, asked.token)
        return events, number, asked

    @router.post("/api/events/{event_id}/players", response_model=None)
    async def add_player(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            events, number, asked = await organiser(request, event_id, AddPlayer, "add player")
            player = events.add_player(number, Entrant(name=asked.name, rating=asked.rating))
        except NineballError as error:
            return _error(error)
        return {"number": player, "board": board(number)}

    @router.post("/api/events/{event_id}/players/remove", response_model=None)
    async def remove_player(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            events, number, asked = await organiser(request, event_id, RemovePlayer, "remove")
            events.remove_player(number, asked.number)
        except NineballError as error:
            return _error(error)
        return {"board": board(number)}

    @router.post("/api/events/{event_id}/settings", response_model=None)
    async def settings(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            events, number, asked = await organiser(request, event_id, Settings, "settings")
            events.configure(number, EventConfig.from_json(asked.config.model_dump()))
        except NineballError as error:
            return _error(error)
        return {"board": board(number)}

    @router.post("/api/events/{event_id}/start", response_model=None)
    async def start(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            events, number, _ = await organiser(request, event_id, OrganiserOnly, "start")
            events.start(number)
        except NineballError as error:
            return _error(error)
        return {"board": board(number)}

    @router.post("/api/events/{event_id}/links", response_model=None)
    async def links(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            events, number, _ = await organiser(request, event_id, OrganiserOnly, "links")
            tokens = events.tokens(number)
        except NineballError as error:
            return _error(error)
        return {"token": tokens.organiser, "tables": _tables(tokens.tables)}

    @router.post("/api/events/{event_id}/entries", response_model=None)
    async def entries(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        """Apply entries in order; stop at the first refused (the rest are not tried)."""
        try:
            number = _number(event_id, "event")
            asked = await body(request, Entries, "entries")
            events = service()
            is_organiser = asked.table is None
            if is_organiser:
                events.check_organiser(number, asked.token)
            else:
                events.check_table(number, asked.table, asked.token)
        except NineballError as error:
            return _error(error)
        answers: list[dict[str, Any]] = []
        refused = None
        for raw in asked.entries:
            try:
                done = events.apply(
                    number, Entry.from_json(raw), table=asked.table, organiser=is_organiser
                )
            except NineballError as error:
                said = raw.get("id")  # echoed back only as a device makes it: a short string
                refused = {
                    "ok": False,
                    "entry": said[:70] if isinstance(said, str) else None,
                    "error": str(error)[:300],
                    "status": _status(error),
                }
                break
            answers.append({"ok": True, "applied": done.applied, **done.answer})
        out: dict[str, Any] = {"answers": answers, "refused": refused}
        if asked.table is not None:
            out["table"] = table_view(number, asked.table)
        return out

    def table_view(event_id: int, table: int) -> dict[str, Any]:
        view = view_of(event_id)
        if not 1 <= table <= view.config.tables:
            raise InvalidInputError(f"event #{event_id} has no table {table}")
        now = view.at_table(table)
        chance = None
        if now is not None and now.record_id is not None and has_win_probability_model():
            chance = win_probability(service().store.load(now.record_id))
        held = clocks.get((event_id, table))
        shown = None
        if view.config.shot_clock is not None:
            held = held or ShotClock(rule=view.config.shot_clock)
            shown = held.to_json(now=clock())
        return table_json(view, table, clock=shown, win_probability=chance)

    @router.get("/api/events/{event_id}/tables/{table}", response_model=None)
    async def table_page(event_id: str, table: str) -> JSONResponse | dict[str, Any]:
        try:
            return table_view(_number(event_id, "event"), _number(table, "table"))
        except NineballError as error:
            return _error(error, 404)

    @router.post("/api/events/{event_id}/clock", response_model=None)
    async def shot_clock(request: Request, event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            number = _number(event_id, "event")
            asked = await body(request, ClockAction, "shot clock")
            events = service()
            events.check_table(number, asked.table, asked.token)
            view = events.view(number)
            rule = view.config.shot_clock
            if rule is None:
                raise IllegalActionError(f"event #{number} plays without a shot clock")
            held = clocks.get((number, asked.table), ShotClock(rule=rule))
            now = clock()
            match = view.at_table(asked.table)
            rack = 0 if match is None else sum(match.score) + 1
            if asked.action == "start":
                held = held.start(now=now, rack=rack)
            elif asked.action == "stop":
                held = held.stop(now=now)
            else:
                if asked.seat is None:
                    raise InvalidInputError("an extension needs the seat (0 or 1) that calls it")
                if held.rack != rack:
                    held = held.start(now=now, rack=rack)
                held = held.extend(asked.seat, now=now)
            clocks[(number, asked.table)] = held
        except NineballError as error:
            return _error(error)
        return {"clock": held.to_json(now=now)}

    @router.get("/api/events/{event_id}/players/{player}", response_model=None)
    async def player_page(event_id: str, player: str) -> JSONResponse | dict[str, Any]:
        try:
            view = service().view(_number(event_id, "event"))
            return player_json(view, _number(player, "player"))
        except (NineballError, KeyError) as error:
            return _error(f"no such player: {error!s:.100}", 404)

    @router.get("/api/events/{event_id}/report", response_model=None)
    async def report(event_id: str) -> JSONResponse | dict[str, Any]:
        try:
            events = service()
            return event_report(events.store, events.view(_number(event_id, "event")))
        except NineballError as error:
            return _error(error, 404)

    @router.get("/api/events/{event_id}/results.csv", response_model=None)
    async def results(event_id: str) -> Response:
        try:
            events = service()
            text = results_csv(events.view(_number(event_id, "event")))
        except NineballError as error:
            return _error(error, 404)
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="event-{event_id}.csv"'},
        )

    @router.get("/api/events/{event_id}/matches/{key}/scoresheet.pdf", response_model=None)
    async def scoresheet(event_id: str, key: str) -> Response:
        from nineball.tournament.scoresheet import scoresheet_pdf

        try:
            events = service()
            view = events.view(_number(event_id, "event"))
            pdf = scoresheet_pdf(events.store, view, view.match(key))
        except KeyError:
            return _error(f"no match {key!r:.20} in this event", 404)
        except NineballError as error:
            return _error(error, 404)
        except ImportError:
            return _error("scoresheets need the pdf extra: pip install 'nineball[pdf]'", 501)
        return Response(bytes(pdf), media_type="application/pdf")

    return router


def _tables(tokens: dict[int, str]) -> dict[str, str]:
    return {str(n): token for n, token in tokens.items()}
