"""``nineball event``: an organiser's commands for an event (a tournament for people).

The event lives in the same database as the matches; the web server (``nineball play --host
0.0.0.0``) serves its board, its tables' scorers and its overlays from it, and these commands
work beside a running server (each change is one transaction, and the server sees it at its
next read). ``docs/tournaments.md`` tells how to run an event on a laptop with phones.
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from nineball.errors import NineballError
from nineball.game import STANDARD, BreakRule, Store

if TYPE_CHECKING:
    from nineball.tournament import EventService, EventView

# The tournament package is imported by the commands that use it, not when `nineball` starts.

__all__ = ["event_app"]

event_app = typer.Typer(
    name="event",
    help="Run an event for people: players, bracket, tables, scorers, results.",
    no_args_is_help=True,
)

DbOpt = Annotated[
    Path | None,
    typer.Option(help="The database (default: $NINEBALL_DB, else your data directory)."),
]
EventArg = Annotated[int, typer.Argument(help="The event's id (as `nineball event new` printed).")]


class FormatOption(StrEnum):
    """The event's format."""

    SINGLE = "single"
    DOUBLE = "double"
    ROUND_ROBIN = "round_robin"
    GROUPS = "groups"


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def _fail(error: Exception) -> typer.Exit:
    typer.echo(f"nineball event: {error}", err=True)
    return typer.Exit(1)


@event_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="What the event is called.")],
    date: Annotated[str, typer.Option(help="The day, ISO 8601 (2026-12-10).")],
    fmt: Annotated[FormatOption, typer.Option("--format", help="The format.")] = (
        FormatOption.DOUBLE
    ),
    race_to: Annotated[int, typer.Option(help="Games to win a match.")] = 5,
    breaks: Annotated[str, typer.Option(help="alternate or winner.")] = "alternate",
    rules: Annotated[str, typer.Option(help="The rule profile.")] = STANDARD.name,
    seeding: Annotated[str, typer.Option(help="rating or random.")] = "rating",
    seed: Annotated[int, typer.Option(help="The draw number: the same, the same draw.")] = 0,
    handicap: Annotated[
        bool, typer.Option("--handicap/--no-handicap", help="Races from the ratings gap.")
    ] = False,
    warning: Annotated[
        bool,
        typer.Option("--three-foul-warning/--no-three-foul-warning", help="Announce clause 12."),
    ] = True,
    shot_clock: Annotated[int | None, typer.Option(help="Seconds a shot (none: no clock).")] = None,
    extension: Annotated[int, typer.Option(help="Seconds an extension adds.")] = 30,
    extensions: Annotated[int, typer.Option(help="Extensions a player has a rack.")] = 1,
    tables: Annotated[int, typer.Option(help="How many tables.")] = 1,
    groups: Annotated[int, typer.Option(help="Groups (the groups format).")] = 2,
    advance: Annotated[int, typer.Option(help="Through from each group.")] = 2,
    db: DbOpt = None,
) -> None:
    """Create an event; print its id and the organiser's token."""
    from nineball.tournament import EventConfig, Format, Seeding, ShotClockRule

    try:
        clock = None
        if shot_clock is not None:
            clock = ShotClockRule(seconds=shot_clock, extension=extension, extensions=extensions)
        config = EventConfig(
            name=name,
            date=date,
            format=Format(fmt.value),
            race_to=race_to,
            breaks=BreakRule(breaks),
            rules=rules,
            seeding=Seeding(seeding),
            seed=seed,
            handicap=handicap,
            three_foul_warning=warning,
            shot_clock=clock,
            tables=tables,
            groups=groups,
            advance=advance,
        )
        with Store(db) as store:
            events = _service(store)
            event_id = events.create(config)
            token = events.tokens(event_id).organiser
    except (NineballError, ValueError) as error:
        raise _fail(error) from None
    console = _console()
    console.print(f"Event #{event_id}: {name} ({date}). Organiser's token: {token}")
    console.print(f"Its page: /event/admin#e={event_id}&k={token} on the server (nineball play).")


@event_app.command("add-player")
def add_player(
    event: EventArg,
    players: Annotated[
        list[str], typer.Argument(help="Names, each with its rating if known: 'Ann=520' 'Bob'.")
    ],
    db: DbOpt = None,
) -> None:
    """Register players (before the start)."""
    from nineball.tournament import Entrant

    try:
        with Store(db) as store:
            events = _service(store)
            for text in players:
                name, _, rating = text.rpartition("=") if "=" in text else (text, "", "")
                value = None
                if rating:
                    try:
                        value = float(rating)
                    except ValueError:
                        raise NineballError(f"the rating of {name!r} is not a number") from None
                number = events.add_player(event, Entrant(name=name.strip(), rating=value))
                typer.echo(f"#{number} {name.strip()}" + ("" if value is None else f" ({value:g})"))
    except NineballError as error:
        raise _fail(error) from None


@event_app.command("start")
def start(event: EventArg, db: DbOpt = None) -> None:
    """Draw the seeding, build the bracket and call the first matches to their tables."""
    try:
        with Store(db) as store:
            view = _service(store).start(event)
    except NineballError as error:
        raise _fail(error) from None
    _board(_console(), view)


@event_app.command("board")
def board(event: EventArg, db: DbOpt = None) -> None:
    """The event now: the tables, who is next, the latest results, the placings."""
    try:
        with Store(db) as store:
            view = _service(store).view(event)
    except NineballError as error:
        raise _fail(error) from None
    _board(_console(), view)


def _service(store: Store) -> EventService:
    from nineball.tournament import EventService

    return EventService(store)


def _names(view: EventView, key: str) -> str:
    match = view.match(key)
    return " v ".join(side.name or "?" for side in match.sides)


def _board(console: Console, view: EventView) -> None:
    from nineball.tournament import Standing

    config = view.config
    console.rule(
        f"{config.name} · {config.date} · {config.format.value} · race to {config.race_to}"
    )
    if not view.started:
        console.print(f"Not started. Players: {', '.join(p.name for p in view.players) or 'none'}")
        return
    tables = Table(title="At the tables")
    for column in ("table", "match", "players", "score", "status"):
        tables.add_column(column)
    for number in range(1, config.tables + 1):
        match = view.at_table(number)
        if match is None:
            tables.add_row(str(number), "", "free", "", "")
            continue
        score = f"{match.score[0]}-{match.score[1]} (races {match.races[0]}/{match.races[1]})"
        tables.add_row(str(number), match.key, _names(view, match.key), score, match.standing.value)
    console.print(tables)
    if view.up_next:
        console.print("Up next: " + "; ".join(f"{k} {_names(view, k)}" for k in view.up_next))
    done = [m for m in view.matches if m.standing is Standing.DONE]
    for match in done[-8:]:
        winner = match.winner or 0
        console.print(
            f"  {match.key}: {match.sides[winner].name} {match.score[winner]}-"
            f"{match.score[1 - winner]} {match.sides[1 - winner].name}"
        )
    if view.placings:
        names = {p.number: p.name for p in view.players}
        console.print("Placings: " + ", ".join(f"{p}. {names[n]}" for p, n in view.placings))


@event_app.command("links")
def links(
    event: EventArg,
    base: Annotated[str, typer.Option(help="The server's address as the phones reach it.")] = (
        "http://127.0.0.1:8000"
    ),
    db: DbOpt = None,
) -> None:
    """The pages of the event: the organiser's, the board, each table's scorer and overlay."""
    try:
        with Store(db) as store:
            tokens = _service(store).tokens(event)
    except NineballError as error:
        raise _fail(error) from None
    base = base.rstrip("/")
    typer.echo(f"organiser  {base}/event/admin#e={event}&k={tokens.organiser}")
    typer.echo(f"board      {base}/event/board#e={event}")
    typer.echo(f"players    {base}/event/player#e={event}")
    for table, token in tokens.tables.items():
        typer.echo(f"table {table:<4} {base}/event/table#e={event}&t={table}&k={token}")
        typer.echo(f"overlay {table:<2} {base}/event/overlay#e={event}&t={table}")


@event_app.command("export")
def export(
    event: EventArg,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="A .csv file.")] = None,
    report: Annotated[
        bool, typer.Option("--report", help="The players' figures as JSON instead.")
    ] = False,
    db: DbOpt = None,
) -> None:
    """The results as CSV (one row a match, docs/tournaments.md), or the report as JSON."""
    from nineball.tournament.reports import event_report, results_csv

    try:
        with Store(db) as store:
            view = _service(store).view(event)
            text = (
                json.dumps(event_report(store, view), ensure_ascii=False, indent=2) + "\n"
                if report
                else results_csv(view)
            )
    except NineballError as error:
        raise _fail(error) from None
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {output}")


@event_app.command("scoresheet")
def scoresheet(
    event: EventArg,
    match: Annotated[
        str | None, typer.Argument(help="A match (W1-3); default: every one played.")
    ] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="A folder (or a .pdf).")] = Path(
        "."
    ),
    lang: Annotated[str, typer.Option("--lang", help="en, fr or pl.")] = "en",
    db: DbOpt = None,
) -> None:
    """Printable scoresheets (PDF, the pdf extra): one a match."""
    from nineball.tournament import Standing

    try:
        from nineball.tournament.scoresheet import scoresheet_pdf
    except ImportError:  # pragma: no cover - the module imports fpdf2 lazily
        raise _fail(ImportError("install the pdf extra")) from None
    try:
        with Store(db) as store:
            view = _service(store).view(event)
            keys = (
                [match] if match else [m.key for m in view.matches if m.standing is Standing.DONE]
            )
            for key in keys:
                try:
                    found = view.match(key)
                except KeyError:
                    raise NineballError(f"event #{event} has no match {key!r}") from None
                path = output if output.suffix == ".pdf" else output / f"event-{event}-{key}.pdf"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(scoresheet_pdf(store, view, found, lang=lang))
                typer.echo(f"wrote {path}")
    except ImportError:
        raise _fail(
            ImportError("scoresheets need the pdf extra: pip install 'nineball[pdf]'")
        ) from None
    except NineballError as error:
        raise _fail(error) from None


@event_app.command("list")
def listing(db: DbOpt = None) -> None:
    """Every event in the database."""
    with Store(db) as store:
        for row in _service(store).rows.events():
            state = "started" if row.started else "not started"
            typer.echo(f"#{row.id} {row.name} ({row.config.get('date')}, {state})")
