"""``nineball match``: two computer players play a match, with a live scoreboard."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from nineball.errors import NineballError
from nineball.game import BreakRule, Language, MatchConfig, Seat
from nineball.game.match import Match
from nineball.game.record import dump_record
from nineball.game.store import Store
from nineball.players import Player, Turn, play_match
from nineball.players.registry import PLAYERS

__all__ = ["PLAYERS", "resume_match", "run_match"]


def _scoreboard(match: Match, last: str) -> Table:
    state = match.state
    table = Table(show_header=True, header_style="bold", expand=False)
    table.add_column("player")
    table.add_column("games", justify="right")
    table.add_column("fouls in a row", justify="right")
    for seat in Seat:
        marker = " *" if state.to_act is seat and not state.is_over else ""
        table.add_row(
            state.name(seat) + marker,
            str(state.score[seat]),
            str(state.game.consecutive_fouls[seat]),
        )
    table.caption = last
    return table


def _play_live(console: Console, match: Match, bots: list[Player], lang: Language) -> None:
    race_to = match.config.race_to
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    task = progress.add_task("games", total=2 * race_to - 1, completed=sum(match.state.score))
    last = ""
    with Live(
        Group(_scoreboard(match, last), progress),
        console=console,
        refresh_per_second=8,
        transient=False,
    ) as live:

        def on_turn(turn: Turn) -> None:
            nonlocal last
            last = turn.ruling.explanation.text(lang)
            if turn.ruling.game_over is not None:
                progress.update(task, advance=1)
            live.update(Group(_scoreboard(match, last), progress))

        play_match(match, bots, on_turn=on_turn)
        progress.update(task, total=sum(match.state.score), completed=sum(match.state.score))
        live.update(Group(_scoreboard(match, last), progress))
    console.print()
    winner = match.state.winner
    a, b = match.state.score
    if winner is not None:
        console.print(f"{match.state.name(winner)} wins {a}-{b} (seed {match.seed}).", style="bold")
    if match.match_id is not None:
        console.print(f"saved as match #{match.match_id}")


def run_match(
    console: Console,
    *,
    players: tuple[str, str],
    names: tuple[str, str] | None,
    race_to: int,
    breaks: BreakRule,
    first_breaker: Seat | None,
    seed: int,
    lang: Language,
    db: Path | None,
    save: bool,
    record_path: Path | None,
) -> int:
    """Play a whole match between two computer players; return the exit status."""
    for name in players:
        if name not in PLAYERS:
            console.print(f"unknown player {name!r} (known: {', '.join(PLAYERS)})", style="red")
            return 2
    if record_path is not None and (record_path.is_dir() or not record_path.parent.is_dir()):
        console.print(f"cannot write the record to {str(record_path)!r}", style="red")
        return 2
    bots: list[Player] = [PLAYERS[name]() for name in players]
    if names is None:
        names = (f"{players[0]} (1)", f"{players[1]} (2)") if players[0] == players[1] else players
    try:  # the names and the race, checked by the referee's rules before the lag is drawn
        MatchConfig(players=names, race_to=race_to, breaks=breaks)
    except NineballError as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)
        return 2
    date = datetime.now(UTC).isoformat(timespec="seconds")
    event = "nineball match"
    if first_breaker is None:
        first_breaker, lags = Match.lag([bot.lag for bot in bots], seed=seed)
        tail = "" if lags[-1].winner is not None else " (lags tied: a coin toss)"
        event = f"nineball match; {names[first_breaker]} won the lag{tail}"
        console.print(event.split("; ")[1] + ".")
    config = MatchConfig(players=names, race_to=race_to, breaks=breaks, first_breaker=first_breaker)
    store = Store(db) if save else None
    try:
        match = Match(config, seed=seed, store=store, event=event, date=date, agents=players)
        _play_live(console, match, bots, lang)
        if record_path is not None:
            try:
                record_path.write_text(dump_record(match.record), encoding="utf-8")
            except OSError as exc:
                console.print(f"cannot write {str(record_path)!r}: {exc}", style="red")
                return 1
            console.print(f"wrote {record_path}")
    finally:
        if store is not None:
            store.close()
    return 0


def resume_match(console: Console, store: Store, match_id: int, lang: Language) -> int:
    """Continue a stored computer-vs-computer match to its end."""
    match = Match.resume(store, match_id)
    agents = match.record.agents or ("", "")
    bots: list[Player] = [PLAYERS[name]() for name in agents]
    a, b = match.config.players
    sa, sb = match.state.score
    console.print(f"Resuming match #{match_id}: {a} {sa} - {sb} {b}.")
    _play_live(console, match, bots, lang)
    return 0
