"""An event read from its rows: the bracket resolved, each match with its players and score.

:func:`load_event` is the one reader of an event's rows; :class:`EventService` reads through it,
inside its own transactions.
"""

from __future__ import annotations

from typing import Any

from nineball.errors import DatabaseError, InvalidInputError
from nineball.game import MatchRecorder, Store
from nineball.game.event_store import EventStore, MatchRow, RackRow
from nineball.players.ladder import win_probability
from nineball.tournament.bracket import make_bracket
from nineball.tournament.config import EventConfig
from nineball.tournament.entries import Mode
from nineball.tournament.handicap import handicap_races, race_odds
from nineball.tournament.progress import BYE, Result, Status, resolve
from nineball.tournament.schedule import up_next
from nineball.tournament.scoring import next_breaker
from nineball.tournament.view import EventView, MatchView, Side, Standing

__all__ = ["event_config", "load_event"]


def event_config(data: dict[str, Any], event_id: int) -> EventConfig:
    """The settings stored for an event.

    Raises:
        DatabaseError: they do not read as settings (edited by hand).
    """
    try:
        return EventConfig.from_json(data)
    except InvalidInputError as exc:
        raise DatabaseError(f"the settings of event #{event_id} are damaged: {exc}") from exc


def load_event(store: Store, rows: EventStore, event_id: int, *, states: bool) -> EventView:
    """The event as its rows hold it (read them inside one transaction).

    Args:
        store: the store.
        rows: its events.
        event_id: the event.
        states: replay the referee of each match scored shot by shot and in play.

    Raises:
        InvalidInputError: no such event; DatabaseError: its rows are damaged.
    """
    row = rows.event(event_id)
    config = event_config(row.config, event_id)
    players = tuple(rows.players(event_id))
    if row.seeding is None:
        return EventView(
            id=event_id, config=config, players=players, seeding=None, revision=row.revision
        )
    seeding = row.seeding
    by_number = {p.number: p for p in players}
    if sorted(seeding) != sorted(by_number):
        raise DatabaseError(f"the seeding of event #{event_id} is not its players")
    bracket = make_bracket(
        config.format, len(seeding), groups=config.groups, advance=config.advance
    )
    stored = rows.matches(event_id)
    results = {
        key: Result(winner=r.winner, score=r.score)
        for key, r in stored.items()
        if r.winner is not None and r.finished is not None
    }
    try:
        progress = resolve(bracket, results)
    except InvalidInputError as exc:
        raise DatabaseError(f"the results of event #{event_id} are damaged: {exc}") from exc
    racks = rows.racks(event_id)
    summary = rows.entry_summary(event_id)

    def side(seed: int | None) -> Side:
        if seed is None or seed == BYE:
            return Side(seed=seed)
        player = by_number[seeding[seed - 1]]
        return Side(seed=seed, number=player.number, name=player.name, rating=player.rating)

    matches = []
    for state in progress:
        sides = (side(state.players[0]), side(state.players[1]))
        stored_row = stored.get(state.key, MatchRow(key=state.key))
        count, last = summary.get(state.key, (0, None))
        matches.append(
            _match_view(
                store,
                config,
                state.status,
                state.match,
                sides,
                stored_row,
                racks.get(state.key, []),
                count,
                last,
                states,
            )
        )
    on_table = {
        k: r.table_number
        for k, r in stored.items()
        if r.table_number is not None and r.finished is None
    }
    placings: tuple[tuple[int, int], ...] = ()
    if progress.is_over:
        placings = tuple((place, seeding[seed - 1]) for place, seed in progress.placings())
    return EventView(
        id=event_id,
        config=config,
        players=players,
        seeding=seeding,
        revision=row.revision,
        bracket=bracket,
        progress=progress,
        matches=tuple(matches),
        up_next=up_next(progress, on_table),
        placings=placings,
    )


def _match_view(
    store: Store,
    config: EventConfig,
    status: Status,
    match: Any,
    sides: tuple[Side, Side],
    row: MatchRow,
    racks: list[RackRow],
    count: int,
    last: dict[str, Any] | None,
    states: bool,
) -> MatchView:
    ratings = (sides[0].rating, sides[1].rating)
    races = (config.race_to, config.race_to)
    odds = None
    if ratings[0] is not None and ratings[1] is not None:
        if config.handicap:
            races = handicap_races(ratings, config.race_to).races
        odds = race_odds(win_probability(ratings[0] - ratings[1]), races)
    standing = {
        Status.WAITING: Standing.WAITING,
        Status.DONE: Standing.DONE,
        Status.WALKOVER: Standing.WALKOVER,
        Status.VOID: Standing.VOID,
    }.get(status)
    if standing is None:
        if row.mode is not None:
            standing = Standing.PLAYING
        elif row.table_number is not None:
            standing = Standing.CALLED
        else:
            standing = Standing.READY
    mode = None if row.mode is None else Mode(row.mode)
    referee = None
    breaker = row.first_breaker
    if mode is Mode.SHOTS and row.record_id is not None and states and row.finished is None:
        referee = MatchRecorder.resume(store.load(row.record_id)).state
        breaker = int(referee.game.breaker)
    elif mode is Mode.QUICK and row.first_breaker is not None:
        breaker = next_breaker(row.first_breaker, config.breaks, [r.winner for r in racks])
    return MatchView(
        match=match,
        standing=standing,
        sides=sides,
        races=races,
        odds=odds,
        score=row.score,
        winner=row.winner if row.finished else None,
        table=row.table_number,
        mode=mode,
        seq=count,
        first_breaker=row.first_breaker,
        breaker=breaker,
        state=referee,
        record_id=row.record_id,
        called=row.called,
        started=row.started,
        finished=row.finished,
        last=last,
    )
