"""The ASGI application: the page, a small JSON API and the WebSocket of each match.

``create_app`` builds the application and does nothing else: the store is opened when the
server starts. The page is plain ES modules and a canvas under ``static/`` (no build step).

Routes:

- ``GET /``: the page; ``GET /static/...``: its modules and styles.
- ``POST /api/matches``: start a match (mode, players, race, level); answers its id and the
  secret tokens of its seats. Tokens travel in request bodies and URL fragments only, never in
  a URL the server sees, so no access log ever holds one.
- ``GET /api/matches``, ``GET /api/matches/{id}``, ``GET /api/stats``: the history (the
  statistics also by opponent: :func:`nineball.web.history.stats_by_opponent`).
- ``GET /api/matches/{id}/replay``: a stored match played again for the page's replay
  (:func:`nineball.web.history.replay_json`).
- ``GET /api/matches/{id}/review``: its game review, every entry's chances by the learned model
  (:func:`nineball.web.history.review_json`); ``?level=L``: each stroke also set against the
  best shot of the computer level L (a few seconds).
- ``GET /api/base``: the origin to put in the links to a match (:mod:`nineball.web.links`);
  ``POST /api/qr.svg`` (``{"url": link}``): the QR code of a link to this server, as SVG.
- ``GET /api/levels``: the computer players (name, rating, description) and the rule profiles.
- ``GET /i18n/{lang}.json``: the page's own strings in ``lang`` (see :mod:`nineball.web.i18n`).
- ``WS /ws``: the match (see :mod:`nineball.web.protocol`); the first message is ``join``.
- ``/event/...`` and ``/api/events/...``: events for people (:mod:`nineball.web.events`).

A connection holds the id of its match, not the match: every message fetches the session from
the registry, so a session forgotten from memory while a page was idle comes back from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.middleware.gzip import GZipMiddleware

from nineball.errors import NineballError, ProtocolError
from nineball.game import (
    VARIANTS,
    BallInput,
    BreakRule,
    MatchConfig,
    Seat,
    Stroke,
    find_variant,
    simulate,
)
from nineball.game.record import record_to_json
from nineball.players.registry import describe_players
from nineball.players.value import shipped_value_model
from nineball.web.events import event_routes
from nineball.web.guard import LOOPBACK_HOSTS, OriginGuard
from nineball.web.history import history_stats, replay_json, review_json
from nineball.web.i18n import page_strings
from nineball.web.links import MAX_LINK_CHARS, check_link, link_base, qr_svg
from nineball.web.preview import Previews
from nineball.web.protocol import (
    MAX_MESSAGE_BYTES,
    Aim,
    Analysis,
    Check,
    Choose,
    ClientMessage,
    Facts,
    Forfeit,
    Join,
    MoveBall,
    NewMatch,
    Ping,
    Place,
    Preview,
    Rematch,
    RemoveBall,
    Setup,
    Strike,
    Undo,
    parse_message,
    parse_new_match,
)
from nineball.web.registry import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_SESSIONS, SessionRegistry
from nineball.web.session import GameSession

__all__ = [
    "AIM_BURST",
    "AIM_RATE",
    "MAX_BODY_BYTES",
    "STATIC",
    "create_app",
    "new_match",
    "read_body",
]

STATIC = Path(__file__).parent / "static"
"""The page's files."""

MAX_BODY_BYTES = MAX_MESSAGE_BYTES
"""The largest request body read, in bytes (a new match is far smaller)."""

AIM_RATE = 20.0
"""The most ``aim`` messages of one connection relayed per second (the page sends about 15)."""

AIM_BURST = 10
"""How many ``aim`` messages of one connection may come at once; the extra ones are dropped."""

_LOG = logging.getLogger(__name__)


class _Budget:
    """A token bucket: ``rate`` a second, ``burst`` at most (one connection's ``aim``)."""

    def __init__(self, clock: Callable[[], float], rate: float, burst: int) -> None:
        self.clock, self.rate, self.burst = clock, rate, float(burst)
        self.left, self.at = float(burst), clock()

    def take(self) -> bool:
        """Spend one, if there is one left."""
        now = self.clock()
        self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        if self.left < 1.0:
            return False
        self.left -= 1.0
        return True


def _match_number(match_id: str) -> int | JSONResponse:
    """A stored match's id read from a URL, or the 404 that says why it is none."""
    # The id is read here, not by FastAPI: a number SQLite cannot hold is no match (404),
    # not an overflow deep in the store (500).
    if not (match_id.isascii() and match_id.isdigit()):
        return _error(f"no match {match_id!r:.40}: an id is a whole number", 404)
    if len(match_id) > 19 or int(match_id) >= 2**63:
        return _error(f"no match {match_id:.40}: ids are below 2^63", 404)
    return int(match_id)


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class BodyTooLarge(ProtocolError):
    """A request body over :data:`MAX_BODY_BYTES` (HTTP 413)."""


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request's body, read as it streams in and never more than ``limit + 1`` bytes of it.

    Raises:
        BodyTooLarge: a ``Content-Length`` over ``limit``, or more bytes than that arriving.
        ProtocolError: a ``Content-Length`` that is not a number.
    """
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise ProtocolError(f"Content-Length must be a number of bytes, got {declared!r:.40}")
        if len(declared) > 18 or int(declared) > limit:
            raise BodyTooLarge(f"the body too long: {declared:.40} bytes (at most {limit})")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLarge(f"the body too long: over {limit} bytes (at most {limit})")
    return bytes(body)


def new_match(raw: bytes) -> tuple[NewMatch, MatchConfig]:
    """The body of ``POST /api/matches`` checked, and the match it asks for.

    Raises:
        ProtocolError: a missing, unknown or bad field (:func:`parse_new_match`), or players
            the referee refuses (the same name twice).
    """
    body = parse_new_match(raw or b"null")
    try:
        config = MatchConfig(
            players=body.players,
            race_to=body.race_to,
            first_breaker=Seat(body.first_breaker),
            breaks=BreakRule(body.breaks),
            rules=find_variant(body.rules),
        )
    except NineballError as error:
        raise ProtocolError(str(error)) from None
    return body, config


class _Hub:
    """The open WebSockets of each session, to tell every page what happened."""

    def __init__(self) -> None:
        self.sockets: dict[str, set[WebSocket]] = {}
        self.held: dict[WebSocket, frozenset[Seat]] = {}
        """The seats each open WebSocket acts for (empty: a spectator)."""
        self.locks: dict[str, asyncio.Lock] = {}

    def lock(self, session_id: str) -> asyncio.Lock:
        return self.locks.setdefault(session_id, asyncio.Lock())

    def forget(self, session_ids: list[str]) -> None:
        """Drop the locks of forgotten sessions that no page is connected to."""
        for session_id in session_ids:
            lock = self.locks.get(session_id)
            if not self.sockets.get(session_id) and lock is not None and not lock.locked():
                del self.locks[session_id]
                self.sockets.pop(session_id, None)

    async def broadcast(
        self, session_id: str, messages: list[dict[str, object]], skip: WebSocket | None = None
    ) -> None:
        for socket in list(self.sockets.get(session_id, ())):
            if socket is skip:
                continue
            for message in messages:
                try:
                    await socket.send_text(json.dumps(message))
                except (RuntimeError, OSError, WebSocketDisconnect):  # a page that just closed
                    self.sockets[session_id].discard(socket)
                    break


def _warm_up() -> None:
    """Load the compiled physics and the value model: the first stroke is as fast as the rest."""
    simulate(
        [BallInput(id=0, r=(0.6, 0.5)), BallInput(id=1, r=(0.6, 1.9))],
        stroke=Stroke(speed=3.0, aim=math.pi / 2),
    )
    shipped_value_model()


def create_app(
    store_path: Path | str | None = None,
    *,
    warm_up: bool = True,
    idle_seconds: float = DEFAULT_IDLE_SECONDS,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    clock: Callable[[], float] = time.monotonic,
    allowed_hosts: Collection[str] = LOOPBACK_HOSTS,
    public_host: str | None = None,
) -> FastAPI:
    """The nineball web application.

    Args:
        store_path: the SQLite database (default: ``$NINEBALL_DB``, else the data directory).
        warm_up: load the compiled physics when the server starts.
        idle_seconds: forget a session from memory after this long without activity (s).
        max_sessions: the most sessions kept in memory (the least recently active go first).
        clock: seconds from any origin, for the idle time (injected by tests).
        allowed_hosts: the host names accepted in ``Host`` (``"*"``: any); an ``Origin``
            must be this server itself (:mod:`nineball.web.guard`).
        public_host: the address other machines reach the server at, put in the links of a
            page that reached it by a loopback name (:func:`nineball.web.links.link_base`);
            None when it serves loopback only.
    """
    holder: dict[str, SessionRegistry] = {}
    hub = _Hub()

    def registry() -> SessionRegistry:
        if "registry" not in holder:
            holder["registry"] = SessionRegistry(
                store_path, idle_seconds=idle_seconds, max_sessions=max_sessions, clock=clock
            )
        return holder["registry"]

    def session_of(session_id: str) -> GameSession:
        """The session from the registry (from the store if it was forgotten)."""
        reg = registry()
        session = reg.get(session_id)
        hub.forget(reg.evicted)
        return session

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        registry()
        if warm_up:
            _warm_up()
        yield
        holder.pop("registry").close()

    app = FastAPI(
        title="nineball", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.add_middleware(OriginGuard, allowed_hosts=allowed_hosts)
    app.state.session_of = session_of  # for tests and the soak: the session behind an id

    # The page's files, compressed for browsers that ask (three.js: about 2.1 MB, a fifth of it
    # compressed). Only they: no answer that holds a secret is compressed beside what a page
    # could have put in it.
    app.mount(
        "/static", GZipMiddleware(StaticFiles(directory=STATIC), minimum_size=1024), name="static"
    )

    # Events (tournaments): the organiser's, the scorers', the board's and the overlay's routes.
    app.include_router(event_routes(lambda: registry().store, read_body, clock))

    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/i18n/{lang}.json", response_model=None)
    async def strings(lang: str) -> JSONResponse | dict[str, str]:
        try:
            return page_strings(lang)
        except ValueError as error:
            return JSONResponse({"error": str(error)}, status_code=404)

    @app.get("/api/levels")
    async def levels() -> dict[str, list[Any]]:
        return {"levels": describe_players(), "rules": [v.name for v in VARIANTS]}

    def base_of(request: Request) -> str:
        return link_base(request.url.scheme, request.headers.get("host", ""), public_host)

    @app.get("/api/base", response_model=None)
    async def base(request: Request) -> JSONResponse | dict[str, str]:
        try:
            return {"base": base_of(request)}
        except ProtocolError as error:
            return _error(str(error))

    @app.post("/api/qr.svg", response_model=None)
    async def qr(request: Request) -> Response:
        try:
            raw = await read_body(request, limit=MAX_LINK_CHARS + 64)
            data = json.loads(raw or b"null")
            url = data.get("url") if isinstance(data, dict) else None
            if not isinstance(url, str) or set(data) != {"url"}:
                raise ProtocolError('the body must be {"url": a link to this server}')
            own = f"{request.url.scheme}://{request.headers.get('host', '')}"
            return Response(
                qr_svg(check_link(url, {own, base_of(request)})),
                media_type="image/svg+xml",
                headers={"Cache-Control": "no-store"},
            )
        except BodyTooLarge:
            return _error(f"the link is too long (at most {MAX_LINK_CHARS} characters)", 400)
        except ProtocolError as error:
            return _error(str(error))
        except ValueError:  # JSON that does not parse (UnicodeDecodeError too)
            return _error('the body must be {"url": a link to this server}')

    @app.post("/api/matches", response_model=None)
    async def create_match(request: Request) -> JSONResponse | dict[str, Any]:
        try:
            links = base_of(request)
            body, config = new_match(await read_body(request))
        except BodyTooLarge as error:
            return _error(str(error), 413)
        except ProtocolError as error:
            return _error(str(error))
        session, tokens = registry().create(
            body.mode, config, level=body.level, human_seat=Seat(body.human_seat), seed=body.seed
        )
        hub.forget(registry().evicted)
        stored = session.snapshot(frozenset())["stored_id"]
        return {"match": session.id, "tokens": tokens, "stored_id": stored, "base": links}

    @app.get("/api/matches")
    async def matches() -> dict[str, list[dict[str, object]]]:
        return {
            "matches": [
                {
                    "id": m.id,
                    "players": list(m.players),
                    "score": list(m.score),
                    "race_to": m.race_to,
                    "created": m.created,
                    "finished": m.finished,
                    "winner": None if m.winner is None else int(m.winner),
                }
                for m in registry().store.matches()
            ]
        }

    @app.get("/api/matches/{match_id}", response_model=None)
    async def match_record(match_id: str) -> JSONResponse | dict[str, Any]:
        number = _match_number(match_id)
        if isinstance(number, JSONResponse):
            return number
        try:
            return record_to_json(registry().store.load(number))
        except NineballError as error:
            return _error(str(error), 404)

    @app.get("/api/matches/{match_id}/replay", response_model=None)
    async def match_replay(match_id: str) -> JSONResponse | dict[str, Any]:
        number = _match_number(match_id)
        if isinstance(number, JSONResponse):
            return number
        try:
            record = registry().store.load(number)
        except NineballError as error:
            return _error(str(error), 404)
        try:  # the physics of every stroke again: off the loop
            return {"id": number, **await run_in_threadpool(replay_json, record)}
        except NineballError as error:
            return _error(f"match {number} cannot be replayed: {error!s:.200}", 422)

    @app.get("/api/matches/{match_id}/review", response_model=None)
    async def match_review(
        match_id: str, level: str | None = None
    ) -> JSONResponse | dict[str, Any]:
        number = _match_number(match_id)
        if isinstance(number, JSONResponse):
            return number
        try:
            record = registry().store.load(number)
        except NineballError as error:
            return _error(str(error), 404)
        try:  # the referee over every entry, the model on every position (and with a level
            # a search for each stroke): off the loop; an unknown level is refused there too
            return {"id": number, **await run_in_threadpool(review_json, record, level)}
        except NineballError as error:
            return _error(f"match {number} cannot be reviewed: {error!s:.200}", 422)

    @app.get("/api/stats")
    async def stats() -> dict[str, object]:
        store = registry().store
        records = []
        for summary in store.matches():
            with contextlib.suppress(NineballError):
                records.append(store.load(summary.id))
        # the referee replays every record: off the loop
        return await run_in_threadpool(history_stats, records)

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        joined: str | None = None
        seats: frozenset[Seat] = frozenset()

        async def preview(asked: tuple[frozenset[Seat], Preview]) -> dict[str, object]:
            session = session_of(str(joined))
            async with hub.lock(session.id):  # the match does not change while it is played
                return await run_in_threadpool(session.preview, *asked)

        async def reply(message: dict[str, object]) -> None:
            await websocket.send_text(json.dumps(message))

        previews: Previews[tuple[frozenset[Seat], Preview]] = Previews(preview, reply)
        aims = _Budget(clock, AIM_RATE, AIM_BURST)
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                try:
                    raw = frame.get("text")
                    if raw is None:
                        size = len(frame.get("bytes") or b"")
                        raise ProtocolError(
                            f"a binary frame of {size} bytes: send each message as JSON text"
                        )
                    message = parse_message(raw)
                    if isinstance(message, Join):
                        if joined is not None:
                            raise ProtocolError("already joined a match on this connection")
                        session = session_of(message.match)
                        seats = session.seats_of(message.token)
                        joined = session.id
                        hub.sockets.setdefault(joined, set()).add(websocket)
                        hub.held[websocket] = seats
                        await websocket.send_text(json.dumps(session.snapshot(seats)))
                        async with hub.lock(joined):
                            await _computer(joined, session_of, hub)  # its break, if it is to
                        continue
                    if joined is None:
                        raise ProtocolError("join a match first")
                    if isinstance(message, Preview):  # one at a time; the newest supersedes
                        previews.request((seats, message))
                        continue
                    if isinstance(message, Aim):  # relayed at once, never queued behind a shot
                        relayed = session_of(joined).aim(seats, message)
                        if aims.take():
                            await hub.broadcast(joined, [relayed], skip=websocket)
                        continue
                    if isinstance(message, Rematch):
                        async with hub.lock(joined):
                            await _rematch(session_of(joined), seats, registry(), hub)
                        continue
                    async with hub.lock(joined):
                        await _act(websocket, session_of(joined), seats, message, hub)
                        await _computer(joined, session_of, hub)
                except (NineballError, ValueError) as error:
                    await websocket.send_text(
                        json.dumps({"type": "error", "message": str(error)[:300]})
                    )
                except Exception as error:  # a fault of the server's: said, logged, kept open
                    _LOG.exception("the WebSocket message %.200r failed", frame.get("text"))
                    await websocket.send_text(
                        json.dumps({"type": "error", "message": f"internal error: {error!s:.200}"})
                    )
        except WebSocketDisconnect:
            pass
        finally:
            previews.close()
            hub.held.pop(websocket, None)
            if joined is not None:
                hub.sockets.get(joined, set()).discard(websocket)

    return app


async def _computer(session_id: str, session_of: Callable[[str], GameSession], hub: _Hub) -> None:
    """The computer's turns, each sent as soon as it is played (the page animates them in turn)."""
    for _ in range(200):
        session = session_of(session_id)
        # The search runs in a worker thread (the other sessions go on meanwhile); the caller
        # holds this session's lock, so the match does not change until the move is played.
        decided = await run_in_threadpool(session.computer_decision)
        if decided is None:
            return
        shot = session.computer_play(decided)  # here: the store is written from this thread
        await hub.broadcast(session.id, [shot])
        await asyncio.sleep(0)


async def _rematch(
    session: GameSession, seats: frozenset[Seat], registry: SessionRegistry, hub: _Hub
) -> None:
    """A network match's rematch, made once; every page of the match is sent to it.

    Each seat's page gets its own seat's token of the new match, a spectator's page none (it
    watches): the other player follows without a new link.
    """
    if session.successor is None:
        session.check_rematch(seats)
        body, config = new_match(json.dumps(session.rematch()).encode())
        new, tokens = registry.create(body.mode, config, level=body.level, seed=body.seed)
        session.successor = (new.id, tokens)
        hub.forget(registry.evicted)
    match_id, tokens = session.successor
    for socket in list(hub.sockets.get(session.id, ())):
        held = hub.held.get(socket, frozenset())
        token = tokens.get(str(int(next(iter(held))))) if len(held) == 1 else None
        with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
            await socket.send_text(
                json.dumps({"type": "rematch", "match": match_id, "token": token})
            )


async def _act(
    websocket: WebSocket,
    session: GameSession,
    seats: frozenset[Seat],
    message: ClientMessage,
    hub: _Hub,
) -> None:
    """Carry out one validated message; raises to refuse it (nothing changed)."""
    if isinstance(message, Ping):
        await websocket.send_text(json.dumps({"type": "pong"}))
    elif isinstance(message, Check):
        problem = session.check(message.ball, message.x, message.y)
        await websocket.send_text(
            json.dumps({"type": "check", "ok": problem is None, "problem": problem,
                        "ball": message.ball, "x": message.x, "y": message.y})
        )  # fmt: skip
    elif isinstance(message, Place):
        session.place(seats, message.x, message.y)
        await hub.broadcast(session.id, [session.snapshot(frozenset()) | {"type": "placed"}])
    elif isinstance(message, Strike):
        await hub.broadcast(session.id, session.strike(seats, message))
    elif isinstance(message, Choose):
        await hub.broadcast(session.id, session.choose(seats, message.choice))
    elif isinstance(message, Forfeit):
        await hub.broadcast(session.id, session.forfeit(seats))
    elif isinstance(message, Facts):
        await hub.broadcast(session.id, session.facts(seats, message))
    elif isinstance(message, Join):
        raise ProtocolError("already joined a match on this connection")
    elif isinstance(message, Undo | MoveBall | Setup | RemoveBall):
        if isinstance(message, Undo):
            session.undo(seats)
        elif isinstance(message, MoveBall):
            session.move_ball(seats, message.ball, message.x, message.y)
        elif isinstance(message, Setup):
            session.setup(seats, {int(b): p for b, p in message.balls.items()})
        else:
            session.remove_ball(seats, message.ball)
        await hub.broadcast(session.id, [session.snapshot(frozenset()) | {"type": "update"}])
    elif isinstance(message, Analysis):  # practice is never stored: the whole search off-loop
        await websocket.send_text(json.dumps(await run_in_threadpool(session.analysis, seats)))
