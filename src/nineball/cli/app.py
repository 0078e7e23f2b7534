"""The Typer application behind ``nineball``."""

from __future__ import annotations

import importlib.util
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from nineball.cli.common import (
    AddressOpt,
    BackendOpt,
    DbOpt,
    FormatOpt,
    ReportFormat,
    ResumeOpt,
    WorkersOpt,
)
from nineball.cli.common import check_level as _check_level
from nineball.cli.common import reporting_console as _console
from nineball.cli.common import run_options as _options
from nineball.cli.common import two as _two
from nineball.cli.dataset import dataset_command
from nineball.cli.event import event_app
from nineball.cli.interop import interop_app
from nineball.cli.programs import arena, engine
from nineball.cli.records import export_match, replay_record, show_stats
from nineball.cli.referee import serve
from nineball.cli.score import ScoreSetup, resume_scorekeeper, run_scorekeeper
from nineball.cli.train import train_value_command
from nineball.errors import NineballError
from nineball.game import RULE_NAMES, STANDARD, VARIANTS, BreakRule, Language, Seat, find_variant

app = typer.Typer(
    name="nineball",
    help="Nine-ball pool: a referee that knows every rule, physics, games and players.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(event_app)  # `nineball event ...`: tournaments for people (cli/event.py)

app.add_typer(interop_app)
app.command("dataset")(dataset_command)
app.command("train-value")(train_value_command)

_PROFILES = ", ".join(v.name for v in VARIANTS)


def _show_version(value: bool) -> None:
    if value:
        from nineball.__about__ import __version__

        typer.echo(f"nineball {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Nine-ball pool: a referee that knows every rule, physics, games and players."""


def _check_png(path: Path | None) -> None:
    """Stop before any work when a .png is asked for and Pillow (the [png] extra) is missing."""
    if path is not None and path.suffix.lower() == ".png" and not importlib.util.find_spec("PIL"):
        typer.echo(
            "a .png diagram needs the png extra: pip install 'nineball[png]' (or write an .svg)",
            err=True,
        )
        raise typer.Exit(2)


def _profile(name: str | None) -> str | None:
    """Check a ``--rules`` value against the referee's profile names (:data:`RULE_NAMES`)."""
    if name is not None and name.lower() not in RULE_NAMES:
        raise typer.BadParameter(f"{name!r} is not a rule profile (known: {_PROFILES})")
    return name


class BreaksOption(StrEnum):
    """Who breaks the next game."""

    ALTERNATE = "alternate"
    WINNER = "winner"


RulesArg = Annotated[
    str,
    typer.Option(
        "--rules",
        callback=_profile,
        help=f"Rule profile: {_PROFILES}, the first the default (see docs/rules.md).",
    ),
]
LangArg = Annotated[Language, typer.Option("--lang", help="Language of the explanations.")]


@app.command()
def referee(rules: RulesArg = STANDARD.name, lang: LangArg = Language.EN) -> None:
    """Speak the referee protocol: JSON lines in, one JSON line out per line."""
    serve(sys.stdin.buffer, sys.stdout.buffer, rules=find_variant(rules), lang=lang)


def _score(
    players: str | None,
    race_to: int | None,
    breaks: BreaksOption | None,
    first_breaker: int | None,
    rules: str | None,
    refereed: bool | None,
    lang: Language | None,
    db: Path | None,
    save: bool,
) -> None:
    names = None if players is None else tuple(p.strip() for p in players.split(","))
    if names is not None and len(names) != 2:
        raise typer.BadParameter(f"give two names separated by a comma, got {players!r}")
    setup = ScoreSetup(
        players=None if names is None else (names[0], names[1]),
        race_to=race_to,
        breaks=None if breaks is None else BreakRule(breaks.value),
        first_breaker=first_breaker,
        rules=None if rules is None else find_variant(rules),
        refereed=refereed,
        lang=lang,
    )
    raise typer.Exit(run_scorekeeper(setup, db=db, save=save))


PlayersOpt = Annotated[
    str | None, typer.Option(help="The two players, separated by a comma: 'Ann,Bob'.")
]
RaceOpt = Annotated[int | None, typer.Option(min=1, max=99, help="Games needed to win.")]
BreaksOpt = Annotated[BreaksOption | None, typer.Option(help="Who breaks the next game.")]
FirstOpt = Annotated[
    int | None, typer.Option(min=1, max=2, help="Who breaks first (1 or 2: the lag winner).")
]
ProfileOpt = Annotated[
    str | None, typer.Option("--rules", callback=_profile, help=f"Rule profile: {_PROFILES}.")
]
RefOpt = Annotated[bool | None, typer.Option("--refereed/--no-referee", help="Is there a referee?")]
LangOpt = Annotated[Language | None, typer.Option("--lang", help="Language of the screen.")]
SaveOpt = Annotated[bool, typer.Option("--save/--no-save", help="Save the match as it goes.")]


@app.command()
def score(
    players: PlayersOpt = None,
    race_to: RaceOpt = None,
    breaks: BreaksOpt = None,
    first_breaker: FirstOpt = None,
    rules: ProfileOpt = None,
    refereed: RefOpt = None,
    lang: LangOpt = None,
    db: DbOpt = None,
    save: SaveOpt = True,
    event: Annotated[
        int | None, typer.Option(help="Score an event's table (with --table).")
    ] = None,
    table: Annotated[int | None, typer.Option(min=1, help="The event's table.")] = None,
) -> None:
    """Keep score of a real match at a real table (or an event's), with every ruling explained."""
    if event is not None or table is not None:
        from nineball.cli.event_score import run_event_scorer

        if event is None or table is None:
            raise typer.BadParameter("--event and --table go together")
        raise typer.Exit(run_event_scorer(event, table, lang or Language.EN, db=db))
    _score(players, race_to, breaks, first_breaker, rules, refereed, lang, db, save)


@app.command()
def play(
    host: Annotated[
        str | None,
        typer.Option(help="Interface to serve (default 127.0.0.1; any other only when given)."),
    ] = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: a free one).")] = 0,
    browser: Annotated[
        bool, typer.Option("--browser/--no-browser", help="Open the default browser.")
    ] = True,
    db: DbOpt = None,
    idle_minutes: Annotated[
        float | None,
        typer.Option(help="Forget a match from memory after this long idle (default 240)."),
    ] = None,
    max_sessions: Annotated[
        int | None, typer.Option(help="The most matches kept in memory (default 500).")
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(help="Another host name the server answers to (repeatable)."),
    ] = None,
) -> None:
    """The main job: the browser game (served on this machine; the URL is printed)."""
    # The web layer runs in its own process: the CLI and the web package never import each other.
    command = [sys.executable, "-m", "nineball.web", "--port", str(port)]
    if host is not None:
        command += ["--host", host]
    if idle_minutes is not None:
        command += ["--idle-minutes", repr(idle_minutes)]
    if max_sessions is not None:
        command += ["--max-sessions", str(max_sessions)]
    for name in allow_host or ():
        command += ["--allow-host", name]
    if not browser:
        command.append("--no-browser")
    if db is not None:
        command += ["--db", str(db)]
    if importlib.util.find_spec("fastapi") is None or importlib.util.find_spec("uvicorn") is None:
        typer.echo("the browser game needs the web extra: pip install 'nineball[web]'", err=True)
        raise typer.Exit(2)
    from nineball.game.store import Store

    Store(db).close()  # a database it cannot use: a message here, not a traceback in the server
    os.execv(sys.executable, command)  # this process becomes the server (Ctrl-C stops it)


@app.command()
def match(
    players: Annotated[
        str, typer.Option(help="The two computer players, e.g. 'ghost,ghost'.")
    ] = "ghost,ghost",
    names: Annotated[str | None, typer.Option(help="Names to show, e.g. 'Ann,Bob'.")] = None,
    race_to: Annotated[int, typer.Option(min=1, max=99, help="Games needed to win.")] = 5,
    breaks: Annotated[
        BreaksOption, typer.Option(help="Who breaks the next game.")
    ] = BreaksOption.ALTERNATE,
    first_breaker: Annotated[
        str, typer.Option(help="Who breaks first: 'lag' (a lag on the table), '1' or '2'.")
    ] = "lag",
    seed: Annotated[int, typer.Option(help="Same seed, same match.")] = 0,
    lang: Annotated[
        Language, typer.Option("--lang", help="Language of the rulings.")
    ] = Language.EN,
    db: DbOpt = None,
    save: SaveOpt = True,
    record: Annotated[Path | None, typer.Option(help="Also write the record to this file.")] = None,
) -> None:
    """Two computer players play a match on the simulated table."""
    from nineball.cli.match import run_match

    pair = _two(players, "players")
    if first_breaker not in ("lag", "1", "2"):
        raise typer.BadParameter(f"--first-breaker is lag, 1 or 2, got {first_breaker!r}")
    shown = None if names is None else _two(names, "names")
    code = run_match(
        Console(highlight=False),
        players=pair,
        names=None if shown is None else (shown[0], shown[1]),
        race_to=race_to,
        breaks=BreakRule(breaks.value),
        first_breaker=None if first_breaker == "lag" else Seat(int(first_breaker) - 1),
        seed=seed,
        lang=lang,
        db=db,
        save=save,
        record_path=record,
    )
    raise typer.Exit(code)


@app.command()
def render(
    record: Annotated[Path, typer.Argument(help="A record file (nineball export, --record).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="An .svg or .png file.")],
    game: Annotated[int | None, typer.Option(min=1, help="The game (default: the last).")] = None,
    shot: Annotated[
        int | None, typer.Option(min=1, help="The entry in the game (default: the last stroke).")
    ] = None,
    paths: Annotated[
        bool, typer.Option("--paths/--no-paths", help="Draw the balls' paths.")
    ] = True,
) -> None:
    """Draw a stroke of a recorded match, with the paths of the balls, as SVG or PNG."""
    _check_png(output)
    from nineball.cli.render import render_shot

    console = _console()
    raise typer.Exit(render_shot(console, record, output, game=game, shot=shot, paths=paths))


@app.command()
def analyse(
    record: Annotated[Path, typer.Argument(help="A record file.")],
    game: Annotated[int, typer.Option(min=1, help="The game (from 1).")] = 1,
    shot: Annotated[int, typer.Option(min=1, help="Analyse the position before this entry.")] = 2,
    level: Annotated[str, typer.Option(help="The level that searches.")] = "max",
    top: Annotated[int, typer.Option(min=1, max=20, help="How many shots to show.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed of the noisy samples.")] = 0,
    diagram: Annotated[
        Path | None, typer.Option(help="Draw the best shot to this .svg or .png file.")
    ] = None,
) -> None:
    """The best shots of a position in a recorded match, with their odds."""
    _check_png(diagram)
    from nineball.cli.analyse import run_analyse
    from nineball.players.search import LEVELS

    if level not in LEVELS:
        raise typer.BadParameter(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    console = _console()
    code = run_analyse(
        console, record, game=game, shot=shot, level=level, top=top, seed=seed, diagram=diagram
    )
    raise typer.Exit(code)


@app.command()
def ladder(
    players: Annotated[
        str,
        typer.Option(
            help="The ladder: each player plays the next; ghost (rated 300) is the anchor."
        ),
    ] = "ghost,beginner,amateur,club,advanced,pro,max",
    games: Annotated[int, typer.Option(min=2, help="Games per adjacent pair.")] = 500,
    workers: WorkersOpt = None,
    seed: Annotated[int, typer.Option(help="Same seed, same ladder.")] = 0,
    output: Annotated[Path | None, typer.Option(help="Write every game and rating (JSON).")] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Draw the ratings (PNG, needs matplotlib).")
    ] = None,
    results: Annotated[
        Path | None,
        typer.Option(help="Rate the games of a ladder written by --output, without playing."),
    ] = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
    db: DbOpt = None,
    fmt: FormatOpt = ReportFormat.TABLE,
    resume: ResumeOpt = None,
) -> None:
    """Rate the computer players on a Fargo-style scale by self-play."""
    from nineball.cli.ladder import rerate_ladder, run_ladder
    from nineball.players.registry import PLAYERS

    console = _console()
    if results is not None:
        raise typer.Exit(rerate_ladder(console, results, output=output, plot=plot, fmt=fmt.value))
    names = [p.strip() for p in players.split(",")]
    unknown = [n for n in names if n not in PLAYERS]
    if unknown or len(names) < 2 or "ghost" not in names:
        raise typer.BadParameter(
            f"give two or more of {', '.join(PLAYERS)}, ghost included; got {players!r}"
        )
    options = _options(workers, backend, address, db, fmt, resume)
    code = run_ladder(
        console, players=names, games=games, seed=seed, output=output, plot=plot, options=options
    )
    raise typer.Exit(code)


@app.command()
def realism(
    level: Annotated[str, typer.Option(help="The level that plays itself.")] = "pro",
    games: Annotated[int, typer.Option(min=1, help="Games.")] = 2000,
    workers: WorkersOpt = None,
    seed: Annotated[int, typer.Option(help="Same seed, same games.")] = 0,
    output: Annotated[Path | None, typer.Option(help="Write every game and figure (JSON).")] = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
    db: DbOpt = None,
    fmt: FormatOpt = ReportFormat.TABLE,
    resume: ResumeOpt = None,
) -> None:
    """Break and break-and-run figures of a level against itself, against real pro play."""
    from nineball.cli.ladder import run_realism

    _check_level(level)
    options = _options(workers, backend, address, db, fmt, resume)
    console = _console()
    code = run_realism(console, level=level, games=games, seed=seed, output=output, options=options)
    raise typer.Exit(code)


@app.command()
def tournament(
    players: Annotated[str, typer.Option(help="The players.")] = "ghost,beginner,club,pro",
    games: Annotated[int, typer.Option(min=1, help="Games per pairing.")] = 20,
    workers: WorkersOpt = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
    seed: Annotated[int, typer.Option(help="Same seed, same tournament.")] = 0,
    db: DbOpt = None,
    plot: Annotated[Path | None, typer.Option(help="Draw the ratings (PNG).")] = None,
    fmt: FormatOpt = ReportFormat.TABLE,
    resume: ResumeOpt = None,
) -> None:
    """A round robin between computer players, on a process pool or on Ray."""
    from nineball.cli.ladder import run_tournament
    from nineball.players.registry import PLAYERS

    names = [p.strip() for p in players.split(",")]
    if len(names) < 2 or any(n not in PLAYERS for n in names) or len(set(names)) < len(names):
        raise typer.BadParameter(
            f"give two or more different players of {', '.join(PLAYERS)}; got {players!r}"
        )
    options = _options(workers, backend, address, db, fmt, resume)
    console = _console()
    code = run_tournament(
        console, players=names, games=games, seed=seed, plot=plot, options=options
    )
    raise typer.Exit(code)


@app.command()
def breaks(
    level: Annotated[str, typer.Option(help="Who breaks.")] = "pro",
    count: Annotated[int, typer.Option("--breaks", min=1, help="How many breaks.")] = 1000,
    workers: WorkersOpt = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
    seed: Annotated[int, typer.Option(help="Same seed, same racks.")] = 0,
    db: DbOpt = None,
    plot: Annotated[Path | None, typer.Option(help="Draw the outcomes (PNG).")] = None,
    fmt: FormatOpt = ReportFormat.TABLE,
    resume: ResumeOpt = None,
) -> None:
    """Break statistics over many seeded racks, on a process pool or on Ray."""
    from nineball.cli.ladder import run_breaks

    _check_level(level)
    options = _options(workers, backend, address, db, fmt, resume)
    console = _console()
    code = run_breaks(console, level=level, breaks=count, seed=seed, plot=plot, options=options)
    raise typer.Exit(code)


app.command()(engine)
app.command()(arena)


@app.command()
def resume(
    match_id: Annotated[
        int | None, typer.Argument(help="The match (default: the newest unfinished).")
    ] = None,
    lang: Annotated[Language, typer.Option("--lang", help="Language of the screen.")] = Language.EN,
    db: DbOpt = None,
) -> None:
    """Continue an unfinished match where it stood."""
    raise typer.Exit(resume_scorekeeper(match_id, lang, db=db))


class StatsFormat(StrEnum):
    """How ``nineball stats`` writes."""

    TABLE = "table"
    CSV = "csv"
    JSON = "json"


@app.command()
def stats(
    player: Annotated[str | None, typer.Option(help="Only this player's matches.")] = None,
    fmt: Annotated[
        StatsFormat, typer.Option("--format", help="table, csv or json.")
    ] = StatsFormat.TABLE,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file.")
    ] = None,
    match_id: Annotated[int | None, typer.Option("--match", help="Only this match.")] = None,
    db: DbOpt = None,
) -> None:
    """Statistics per player over the stored matches (or one match)."""
    console = _console()
    code = show_stats(
        console, db=db, player=player, fmt=fmt.value, output=output, match_id=match_id
    )
    raise typer.Exit(code)


@app.command()
def export(
    match_id: Annotated[int | None, typer.Argument(help="The match (default: the newest).")] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file.")
    ] = None,
    db: DbOpt = None,
) -> None:
    """Write a stored match as a record (docs/record-format.md)."""
    console = _console()
    raise typer.Exit(export_match(console, db=db, match_id=match_id, output=output))


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A record file.")],
    lang: Annotated[
        Language, typer.Option("--lang", help="Language of the explanations.")
    ] = Language.EN,
) -> None:
    """Tell a recorded match entry by entry (a bad file: every problem with its place)."""
    raise typer.Exit(replay_record(_console(), record, lang))


@app.command()
def review(
    record: Annotated[Path, typer.Argument(help="A record file.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="JSON on stdout instead of the table.")
    ] = False,
    model: Annotated[
        Path | None, typer.Option(help="A value model file (default: the shipped one).")
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            help="Set every stroke against the best shot this computer level finds in its "
            "place (what the choice cost, the luck of the execution taken out)."
        ),
    ] = None,
) -> None:
    """The chance to win before and after each entry of a match; mistakes and blunders."""
    from nineball.cli.review import run_review

    raise typer.Exit(run_review(_console(), record, as_json=as_json, model_path=model, level=level))


InputOpt = Annotated[
    Path | None, typer.Option("--input", help="Read the request from FILE instead of stdin.")
]
RepeatOpt = Annotated[
    int | None, typer.Option(help="Simulate each request N times and add its timing.")
]


@app.command()
def simulate(input_file: InputOpt = None, repeat: RepeatOpt = None) -> None:
    """Run the physics engine on a table state: JSON in, JSON out (docs/simulate-protocol.md)."""
    from nineball.game import simulate_protocol

    raise typer.Exit(simulate_protocol(input_file, repeat))


def run(argv: list[str]) -> int:
    """Run the application; return the exit status instead of exiting.

    An error nineball raises on purpose (a damaged database, a match another writer changed)
    that no command reported itself is printed as a message, never a traceback.
    """
    try:
        app(args=argv, prog_name="nineball")
    except NineballError as exc:
        typer.echo(f"nineball: {exc}", err=True)
        return 1
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        return 1
    return 0
