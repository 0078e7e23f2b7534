"""``nineball score --event ID --table N``: score the matches of an event's table in a terminal.

The same entries as a table's phone (:class:`nineball.tournament.Entry`), applied by the same
service to the same database (a running server sees them at its next read): each match is started
rack by rack or shot by shot; a rack is its winner's number, a shot the notation of ``nineball
score`` (``1 p4 r2,3``), ruled by the referee. When a match ends the table's next one comes up.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.panel import Panel

from nineball.cli.score import _Quit, _Scorekeeper
from nineball.errors import NineballError
from nineball.game import Command, CommandEntry, Language, ShotEntry, Store, parse_entry
from nineball.tournament import Entry, EventService, MatchView

__all__ = ["run_event_scorer"]

_TEXT = {
    "none": {
        Language.EN: "No match at table {table} now. Press Enter to look again, or quit.",
        Language.FR: "Aucun match à la table {table}. Entrée pour regarder à nouveau, ou quit.",
        Language.PL: "Przy stole {table} nie ma teraz meczu. Enter, aby sprawdzić znowu, lub quit.",
    },
    "match": {
        Language.EN: "{key} at table {table}: {a} {sa} - {sb} {b} (races {ra} and {rb})",
        Language.FR: "{key} à la table {table} : {a} {sa} - {sb} {b} (courses {ra} et {rb})",
        Language.PL: "{key} przy stole {table}: {a} {sa}:{sb} {b} (wyścigi do {ra} i {rb})",
    },
    "mode": {
        Language.EN: "Scored rack by rack (quick) or shot by shot (shots)",
        Language.FR: "Marqué manche par manche (quick) ou coup par coup (shots)",
        Language.PL: "Liczone partia po partii (quick) lub uderzenie po uderzeniu (shots)",
    },
    "first": {
        Language.EN: "Who breaks first: 1 = {a}, 2 = {b}",
        Language.FR: "Qui casse en premier : 1 = {a}, 2 = {b}",
        Language.PL: "Kto rozbija pierwszy: 1 = {a}, 2 = {b}",
    },
    "rack": {
        Language.EN: "Rack {n} won by (1 = {a}, 2 = {b}; undo, quit)",
        Language.FR: "Manche {n} gagnée par (1 = {a}, 2 = {b} ; undo, quit)",
        Language.PL: "Partię {n} wygrywa (1 = {a}, 2 = {b}; undo, quit)",
    },
    "over": {
        Language.EN: "{name} wins {key} {sa}-{sb}.",
        Language.FR: "{name} remporte {key} {sa}-{sb}.",
        Language.PL: "{name} wygrywa {key} {sa}:{sb}.",
    },
    "refused": {
        Language.EN: "Not recorded: {message}",
        Language.FR: "Non enregistré : {message}",
        Language.PL: "Nie zapisano: {message}",
    },
}


class _EventScorer:
    def __init__(
        self, console: Console, lang: Language, events: EventService, event: int, table: int
    ) -> None:
        self.keeper = _Scorekeeper(console, lang)
        self.console, self.lang = console, lang
        self.events, self.event, self.table = events, event, table

    def t(self, text: str, **values: object) -> str:
        return _TEXT[text][self.lang].format(**values)

    def send(self, match: MatchView, kind: str, **fields: Any) -> dict[str, Any] | None:
        data = {"id": uuid.uuid4().hex, "match": match.key, "seq": match.seq, "kind": kind}
        try:
            done = self.events.apply(self.event, Entry.from_json(data | fields), table=self.table)
        except NineballError as error:
            self.console.print(self.t("refused", message=str(error)), style="red", markup=False)
            return None
        return done.answer

    def show(self, answer: dict[str, Any], match: MatchView) -> None:
        ruling = answer.get("ruling")
        if ruling is not None:
            fouls = ", ".join(f"{f['code']} ({f['clause']})" for f in ruling["fouls"])
            title = f"{self.keeper.t('foul')}: {fouls}" if fouls else self.keeper.t("legal")
            style = "red" if fouls else "green"
            if ruling["warning"]:
                title, style = f"{title} · {self.keeper.t('warning')}", "yellow"
            text = ruling["explanation"][self.lang.value]
            self.console.print(Panel(text, title=title, border_style=style, expand=False))
        if answer.get("match_over"):
            score = answer["score"]
            winner = answer.get("winner", 0) if ruling is None else ruling["match_winner"]
            self.console.print(
                self.t(
                    "over",
                    name=match.sides[winner].name,
                    key=match.key,
                    sa=score[winner],
                    sb=score[1 - winner],
                ),
                style="bold green",
            )

    def step(self) -> None:
        view = self.events.view(self.event)
        match = view.at_table(self.table)
        if match is None:
            self.keeper.ask(self.t("none", table=self.table))
            return
        a, b = (side.name or "?" for side in match.sides)
        self.console.rule(
            self.t(
                "match",
                key=match.key,
                table=self.table,
                a=a,
                b=b,
                sa=match.score[0],
                sb=match.score[1],
                ra=match.races[0],
                rb=match.races[1],
            )
        )
        if match.mode is None:
            mode = self.keeper.ask_choice(self.t("mode"), ("quick", "shots"), "quick")
            first = self.keeper.ask_int(self.t("first", a=a, b=b), 1, 2, 1)
            self.send(match, "start", mode=mode, first_breaker=first - 1)
            return
        if match.mode.value == "quick":
            answer = self.keeper.ask(self.t("rack", n=sum(match.score) + 1, a=a, b=b)).lower()
            if answer in ("undo", "annuler", "cofnij"):
                self.send(match, "undo")
            elif answer in ("1", "2"):
                done = self.send(match, "rack", winner=int(answer) - 1)
                if done is not None:
                    self.show(done, match)
            return
        if match.state is not None:
            self.keeper.status(match.state)
        line = self.keeper.ask(f"{match.sides[match.state.to_act if match.state else 0].name}>")
        try:
            entry = parse_entry(line)
        except NineballError as error:
            self.console.print(self.t("refused", message=str(error)), style="red", markup=False)
            return
        done = None
        if isinstance(entry, ShotEntry):
            facts = entry.facts
            done = self.send(
                match,
                "shot",
                push_out=entry.push_out,
                obstruction_moved=facts.obstruction_moved,
                first=None if facts.first_contact is None else int(facts.first_contact),
                pocketed=sorted(int(x) for x in facts.pocketed),
                rails=sorted(int(x) for x in facts.rails),
                off_table=sorted(int(x) for x in facts.off_table),
            )
        elif isinstance(entry, CommandEntry):
            if entry.command is Command.HELP:
                self.console.print(self.keeper.t("help"), markup=False)
            elif entry.command is Command.QUIT:
                raise _Quit
            elif entry.command is Command.UNDO:
                done = self.send(match, "undo")
            elif entry.command is Command.FORFEIT:
                seat = (
                    entry.seat
                    if entry.seat is not None
                    else (match.state.to_act if match.state else 0)
                )
                done = self.send(match, "forfeit", seat=int(seat))
            else:
                done = self.send(match, "choice", choice=entry.command.value)
        if done is not None:
            self.show(done, match)


def run_event_scorer(
    event: int,
    table: int,
    lang: Language,
    console: Console | None = None,
    *,
    db: Path | None = None,
) -> int:
    """Score the matches of ``table`` of ``event`` until the user quits or input ends."""
    console = console or Console(highlight=False)
    with Store(db) as store:
        scorer = _EventScorer(console, lang, EventService(store), event, table)
        try:
            EventService(store).view(event)
        except NineballError as error:
            console.print(scorer.t("refused", message=str(error)), style="red", markup=False)
            return 1
        try:
            while True:
                scorer.step()
        except _Quit:
            console.print(scorer.keeper.t("bye"))
    return 0
