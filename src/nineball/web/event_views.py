"""The JSON the event pages read: the board, a table, a player, from an :class:`EventView`.

Pure functions: nothing here changes an event. The board (``/event/board``) draws the bracket
and the tables from :func:`board_json`; a table's scorer and the stream overlay read
:func:`table_json`; a player's page :func:`player_json`. Names are the players' own; every other
word on the pages comes from the ``web`` catalogs.
"""

from __future__ import annotations

from typing import Any

from nineball.game.rulings import state_json
from nineball.tournament import EventView, MatchView, Standing
from nineball.tournament.view import source_json

__all__ = ["board_json", "event_json", "match_json", "player_json", "table_json"]


def event_json(view: EventView) -> dict[str, Any]:
    """What every page shows of the event itself."""
    config = view.config
    clock = config.shot_clock
    return {
        "id": view.id,
        "revision": view.revision,
        "name": config.name,
        "date": config.date,
        "format": config.format.value,
        "race_to": config.race_to,
        "breaks": config.breaks.value,
        "rules": config.rules,
        "handicap": config.handicap,
        "three_foul_warning": config.three_foul_warning,
        "shot_clock": None
        if clock is None
        else {
            "seconds": clock.seconds,
            "extension": clock.extension,
            "extensions": clock.extensions,
        },
        "tables": config.tables,
        "groups": config.groups,
        "advance": config.advance,
        "seeding": config.seeding.value,
        "started": view.started,
        "over": view.is_over,
    }


def match_json(match: MatchView) -> dict[str, Any]:
    """One match: its place in the bracket, players, races, score, table and status."""
    return {
        "key": match.key,
        "stage": match.match.stage.value,
        "round": match.match.round,
        "number": match.match.number,
        "group": match.match.group,
        "standing": match.standing.value,
        "sides": [
            None
            if side.seed is None
            else {
                "seed": side.seed,
                "number": side.number,
                "name": side.name,
                "rating": side.rating,
                "bye": side.is_bye,
            }
            for side in match.sides
        ],
        "sources": [source_json(s) for s in match.match.sources],
        "races": list(match.races),
        "odds": None if match.odds is None else round(match.odds, 3),
        "score": list(match.score),
        "winner": match.winner,
        "table": match.table,
        "mode": None if match.mode is None else match.mode.value,
        "seq": match.seq,
        "first_breaker": match.first_breaker,
        "breaker": match.breaker,
        "started": match.started,
        "finished": match.finished,
    }


def board_json(view: EventView) -> dict[str, Any]:
    """Everything the live board shows."""
    names = {p.number: p.name for p in view.players}
    tables = []
    for table in range(1, view.config.tables + 1):
        now = view.at_table(table)
        tables.append({"table": table, "match": None if now is None else now.key})
    return {
        "event": event_json(view),
        "players": [
            {"number": p.number, "name": p.name, "rating": p.rating, "seed": view.seed_of(p.number)}
            for p in view.players
        ],
        "matches": [match_json(m) for m in view.matches],
        "tables": tables,
        "up_next": list(view.up_next),
        "groups": [
            [
                {
                    "seed": line.seed,
                    "number": _number(view, line.seed),
                    "name": names.get(_number(view, line.seed) or 0),
                    "played": line.played,
                    "won": line.won,
                    "games_won": line.games_won,
                    "games_lost": line.games_lost,
                }
                for line in table
            ]
            for table in (view.progress.tables if view.progress is not None else ())
        ],
        "placings": [
            {"place": place, "number": number, "name": names.get(number)}
            for place, number in view.placings
        ],
    }


def _number(view: EventView, seed: int) -> int | None:
    if view.seeding is None or not 1 <= seed <= len(view.seeding):
        return None
    return view.seeding[seed - 1]


def table_json(
    view: EventView,
    table: int,
    *,
    clock: dict[str, Any] | None,
    win_probability: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """A table's page: its match now (with the referee's state), the next, the last result."""
    now = view.at_table(table)
    current = None
    if now is not None:
        current = match_json(now)
        state = now.state
        fouls = [0, 0] if state is None else list(state.game.consecutive_fouls)
        current |= {
            "state": None if state is None else state_json(state),
            "last": now.last,
            "fouls": fouls,
            "warning": [view.config.three_foul_warning and n == 2 for n in fouls],
            "win_probability": None if win_probability is None else list(win_probability),
        }
    nxt = next((key for key in view.up_next), None)
    previous = view.last_at_table(table)
    return {
        "event": event_json(view),
        "table": table,
        "match": current,
        "next": None if nxt is None or now is not None else match_json(view.match(nxt)),
        "previous": None if previous is None else match_json(previous),
        "clock": clock,
    }


def player_json(view: EventView, number: int) -> dict[str, Any]:
    """A player's page: their matches, the one on now or next, and where they finished."""
    player = view.player(number)
    matches = view.of_player(number)
    on = next((m for m in matches if m.standing in (Standing.CALLED, Standing.PLAYING)), None)
    coming = next((m for m in matches if m.standing in (Standing.READY, Standing.WAITING)), None)
    place = next((p for p, n in view.placings if n == number), None)
    return {
        "event": event_json(view),
        "player": {
            "number": player.number,
            "name": player.name,
            "rating": player.rating,
            "seed": view.seed_of(number),
        },
        "matches": [match_json(m) for m in matches if m.standing is not Standing.WALKOVER],
        "now": None if on is None else on.key,
        "next": None if coming is None else coming.key,
        "queue": None
        if coming is None or coming.key not in view.up_next
        else view.up_next.index(coming.key) + 1,
        "place": place,
    }
