"""``nineball score``: an interactive scorekeeper for a real match at a real table.

It asks for the match settings it was not given, then takes each shot in the compact notation
of :mod:`nineball.rules.notation`, rules on it and shows the ruling with its explanation, whose
turn it is, where the cue ball may be placed, warnings and the score. A bad entry is explained and
changes nothing; ``undo`` takes back the last entry, as many times as needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from nineball.errors import ConcurrentWriteError, NineballError
from nineball.game import (
    STANDARD,
    VARIANTS,
    BreakRule,
    Choice,
    Command,
    CommandEntry,
    CueBall,
    Entry,
    Language,
    MatchConfig,
    MatchState,
    Phase,
    RuleSet,
    Ruling,
    Seat,
    ShotEntry,
    find_variant,
    parse_entry,
)
from nineball.game.record import ShotKind, ShotRecord
from nineball.game.recorder import MatchRecorder
from nineball.game.saved import SavedMatch
from nineball.game.store import Store

__all__ = ["ScoreSetup", "resume_scorekeeper", "run_scorekeeper"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreSetup:
    """Match settings given on the command line; None means: ask."""

    players: tuple[str, str] | None = None
    race_to: int | None = None
    breaks: BreakRule | None = None
    first_breaker: int | None = None
    """1 or 2."""
    rules: RuleSet | None = None
    refereed: bool | None = None
    lang: Language | None = None


_TEXT: dict[str, dict[Language, str]] = {
    "player": {
        Language.EN: "Name of player {n}",
        Language.FR: "Nom du joueur {n}",
        Language.PL: "Imię gracza {n}",
    },
    "race": {
        Language.EN: "Race to how many games",
        Language.FR: "Nombre de parties à gagner",
        Language.PL: "Do ilu wygranych partii",
    },
    "breaks": {
        Language.EN: "Who breaks after each game: alternate or winner",
        Language.FR: "Qui fait le bris après chaque partie : alternate (à tour de rôle) "
        "ou winner (le gagnant)",
        Language.PL: "Kto rozbija po każdej partii: alternate (na zmianę) lub winner (zwycięzca)",
    },
    "first": {
        Language.EN: "Who breaks first (the lag winner): 1 = {a}, 2 = {b}",
        Language.FR: "Qui fait le premier bris : 1 = {a}, 2 = {b}",
        Language.PL: "Kto rozbija pierwszy: 1 = {a}, 2 = {b}",
    },
    "rules": {
        Language.EN: "Rule profile: {names} (the first is the default)",
        Language.FR: "Règlement : {names} (le premier par défaut)",
        Language.PL: "Zasady: {names} (pierwsze domyślne)",
    },
    "refereed": {
        Language.EN: "Is there a referee? (y/n)",
        Language.FR: "Y a-t-il un arbitre ? (o/n)",
        Language.PL: "Czy mecz prowadzi sędzia? (t/n)",
    },
    "bad_choice": {
        Language.EN: "Please answer one of: {choices}",
        Language.FR: "Répondez par : {choices}",
        Language.PL: "Odpowiedz jednym z: {choices}",
    },
    "title": {
        Language.EN: "Game {game} · {a} {sa} - {sb} {b} · race to {race} · rules {rules}",
        Language.FR: "Partie {game} · {a} {sa} - {sb} {b} · en {race} · règlement {rules}",
        Language.PL: "Partia {game} · {a} {sa} - {sb} {b} · do {race} · zasady {rules}",
    },
    "to_break": {
        Language.EN: "{name} to break, cue ball in hand behind the head string",
        Language.FR: "{name} fait le bris, blanche en main dans la zone de départ",
        Language.PL: "{name} rozbija, biała bila w ręce w polu bazy",
    },
    "to_shoot_anywhere": {
        Language.EN: "{name} to shoot, cue ball in hand anywhere on the table",
        Language.FR: "{name} joue, blanche en main n'importe où sur la table",
        Language.PL: "{name} gra, biała bila w ręce w dowolnym punkcie stołu",
    },
    "to_shoot": {
        Language.EN: "{name} to shoot, cue ball where it lies",
        Language.FR: "{name} joue, la blanche là où elle est",
        Language.PL: "{name} gra, biała bila tam, gdzie leży",
    },
    "to_choose": {
        Language.EN: "{name} must choose: shoot from here (shoot) or hand the shot back (pass)",
        Language.FR: "{name} doit choisir : jouer de cette position (tirer) ou remettre son tour "
        "(passer)",
        Language.PL: "{name} wybiera: uderzenie z tej pozycji (graj) lub oddanie uderzenia (oddaj)",
    },
    "lowest": {
        Language.EN: "lowest ball {ball} · on the table {balls}",
        Language.FR: "boule la plus basse {ball} · sur la table {balls}",
        Language.PL: "najniższa bila {ball} · na stole {balls}",
    },
    "push_allowed": {
        Language.EN: "a push out is allowed: start the entry with push",
        Language.FR: "coup poussé permis : commencez la saisie par push",
        Language.PL: "wypchnięcie dozwolone: zacznij wpis od push",
    },
    "fouls": {
        Language.EN: "fouls in a row: {counts}",
        Language.FR: "fautes consécutives : {counts}",
        Language.PL: "kolejne faule: {counts}",
    },
    "on_warning": {
        Language.EN: "{name} is on two fouls in a row: a third loses the game (clause 12)",
        Language.FR: "{name} a deux fautes consécutives : une troisième fait perdre la partie "
        "(règle 12)",
        Language.PL: "{name} ma dwa kolejne faule: trzeci oznacza przegranie partii (punkt 12)",
    },
    "legal": {Language.EN: "Legal", Language.FR: "Coup légal", Language.PL: "Prawidłowo"},
    "foul": {Language.EN: "Foul", Language.FR: "Faute", Language.PL: "Faul"},
    "warning": {
        Language.EN: "Warning",
        Language.FR: "Avertissement",
        Language.PL: "Ostrzeżenie",
    },
    "match_over": {
        Language.EN: "{name} wins the match {sa}-{sb}. Type undo to correct the last entry, "
        "or quit.",
        Language.FR: "{name} remporte le match {sa}-{sb}. Tapez undo pour corriger la dernière "
        "saisie, ou quit.",
        Language.PL: "Mecz wygrywa {name} {sa}:{sb}. Wpisz undo, aby poprawić ostatni wpis, "
        "lub quit.",
    },
    "undone": {
        Language.EN: "Undone: back to before the last entry.",
        Language.FR: "Annulé : retour avant la dernière saisie.",
        Language.PL: "Cofnięto ostatni wpis.",
    },
    "nothing_to_undo": {
        Language.EN: "Nothing to undo.",
        Language.FR: "Rien à annuler.",
        Language.PL: "Nie ma czego cofnąć.",
    },
    "refused": {
        Language.EN: "Not recorded: {message}",
        Language.FR: "Non enregistré : {message}",
        Language.PL: "Nie zapisano: {message}",
    },
    "bye": {Language.EN: "Bye.", Language.FR: "Au revoir.", Language.PL: "Do widzenia."},
    "saving": {
        Language.EN: "Match #{id}: every entry is saved to {path}; `nineball resume` continues it.",
        Language.FR: "Match n° {id} : chaque saisie est enregistrée dans {path} ; "
        "`nineball resume` le reprend.",
        Language.PL: "Mecz nr {id}: każdy wpis jest zapisywany w {path}; "
        "`nineball resume` go wznawia.",
    },
    "resuming": {
        Language.EN: "Resuming match #{id}: {a} {sa} - {sb} {b}.",
        Language.FR: "Reprise du match n° {id} : {a} {sa} - {sb} {b}.",
        Language.PL: "Wznowienie meczu nr {id}: {a} {sa}:{sb} {b}.",
    },
    "nothing_to_resume": {
        Language.EN: "No unfinished match to resume.",
        Language.FR: "Aucun match inachevé à reprendre.",
        Language.PL: "Brak niedokończonego meczu do wznowienia.",
    },
    "help": {
        Language.EN: (
            "Type what happened on the shot:\n"
            "  1 p4 r2,3   hit the 1 first, pocketed the 4, the 2 and 3 touched a rail\n"
            "  3 r0        hit the 3 first, the cue ball touched a rail (0 or c = cue ball)\n"
            "  -           the cue ball hit nothing\n"
            "  1 p9 s      s = the cue ball was pocketed (a scratch)\n"
            "  1 r23 o5    o = off the table;  m = an obstructing ball moved (clause 11)\n"
            "  push 2 r0   a declared push out (only on the shot after the break)\n"
            "Commands: shoot / pass (after a push out), undo, forfeit [1|2], help, quit."
        ),
        Language.FR: (
            "Tapez ce qui s'est passé sur le coup :\n"
            "  1 p4 r2,3   la 1 touchée en premier, la 4 empochée, la 2 et la 3 à la bande\n"
            "  3 r0        la 3 touchée en premier, la blanche à la bande (0 ou c = blanche)\n"
            "  -           la blanche n'a rien touché\n"
            "  1 p9 s      s = la blanche a été empochée\n"
            "  1 r23 o5    o = hors de la table ;  m = une boule obstacle a bougé (règle 11)\n"
            "  push 2 r0   un coup poussé déclaré (seulement juste après le bris)\n"
            "Commandes : tirer / passer (après un coup poussé), annuler, forfait [1|2], aide, "
            "quitter."
        ),
        Language.PL: (
            "Wpisz, co się stało w uderzeniu:\n"
            "  1 p4 r2,3   najpierw bila 1, bila 4 w łuzie, bile 2 i 3 dotknęły bandy\n"
            "  3 r0        najpierw bila 3, biała dotknęła bandy (0 lub c = biała bila)\n"
            "  -           biała bila w nic nie trafiła\n"
            "  1 p9 s      s = biała bila wpadła do łuzy\n"
            "  1 r23 o5    o = poza stołem;  m = poruszyła się zasłaniająca bila (punkt 11)\n"
            "  push 2 r0   zgłoszone wypchnięcie (tylko zaraz po rozbiciu)\n"
            "Polecenia: graj / oddaj (po wypchnięciu), cofnij, walkower [1|2], pomoc, koniec."
        ),
    },
}

_YES = frozenset({"y", "yes", "o", "oui", "t", "tak"})
_NO = frozenset({"n", "no", "non", "nie"})


class _Quit(Exception):
    """The user ended the session (quit or end of input)."""


class _Scorekeeper:
    def __init__(self, console: Console, lang: Language) -> None:
        self.console = console
        self.lang = lang

    def t(self, key: str, **values: object) -> str:
        return _TEXT[key][self.lang].format(**values)

    def ask(self, prompt: str, default: str | None = None) -> str:
        suffix = f" [{default}]" if default is not None else ""
        try:
            answer = self.console.input(f"{prompt}{suffix}: ").strip()
        except EOFError:
            raise _Quit from None
        if answer.lower() in ("quit", "q", "exit", "quitter", "koniec"):
            raise _Quit
        return answer or (default or "")

    def ask_choice(self, prompt: str, choices: tuple[str, ...], default: str) -> str:
        while True:
            answer = self.ask(prompt, default).lower()
            if answer in choices:
                return answer
            self.console.print(self.t("bad_choice", choices=", ".join(choices)))

    def ask_int(self, prompt: str, low: int, high: int, default: int) -> int:
        while True:
            answer = self.ask(prompt, str(default))
            if answer.isdigit() and low <= int(answer) <= high:
                return int(answer)
            choices = f"{low}..{high}"
            self.console.print(self.t("bad_choice", choices=choices))

    def ask_yes_no(self, prompt: str, default: bool) -> bool:
        while True:
            answer = self.ask(prompt, "y" if default else "n").lower()
            if answer in _YES or answer in _NO:
                return answer in _YES
            self.console.print(self.t("bad_choice", choices="y, n"))

    def configure(self, setup: ScoreSetup) -> MatchConfig:
        while True:
            if setup.players is not None:
                players = setup.players
            else:
                first = self.ask(self.t("player", n=1), "Player 1")
                players = (first, self.ask(self.t("player", n=2), "Player 2"))
            race_to = setup.race_to or self.ask_int(self.t("race"), 1, 99, 5)
            breaks = setup.breaks or BreakRule(
                self.ask_choice(self.t("breaks"), ("alternate", "winner"), "alternate")
            )
            first_breaker = setup.first_breaker or self.ask_int(
                self.t("first", a=players[0], b=players[1]), 1, 2, 1
            )
            names = tuple(v.name for v in VARIANTS)
            asked = self.t("rules", names=", ".join(names))
            rules = setup.rules or find_variant(self.ask_choice(asked, names, STANDARD.name))
            refereed = setup.refereed
            if refereed is None:
                # Only the pl profile rules differently with a referee (clause 11, D2).
                refereed = rules is not find_variant("pl") or self.ask_yes_no(
                    self.t("refereed"), True
                )
            try:
                return MatchConfig(
                    players=players,
                    race_to=race_to,
                    breaks=breaks,
                    first_breaker=Seat(first_breaker - 1),
                    rules=rules,
                    refereed=refereed,
                )
            except NineballError as exc:
                self.console.print(self.t("refused", message=str(exc)), style="red")
                if setup.players is not None:
                    raise _Quit from exc
                setup = ScoreSetup(
                    race_to=race_to,
                    breaks=breaks,
                    first_breaker=first_breaker,
                    rules=rules,
                    refereed=refereed,
                )

    def status(self, state: MatchState) -> None:
        game = state.game
        a, b = state.config.players
        self.console.print()
        self.console.rule(
            self.t(
                "title",
                game=game.number,
                a=a,
                b=b,
                sa=state.score[0],
                sb=state.score[1],
                race=state.config.race_to,
                rules=state.config.rules.name,
            )
        )
        name = state.name(game.shooter)
        if game.phase is Phase.BREAK:
            self.console.print(self.t("to_break", name=name), style="bold")
        elif game.phase is Phase.PUSH_OUT_CHOICE:
            self.console.print(self.t("to_choose", name=name), style="bold")
        elif game.cue_ball is CueBall.ANYWHERE:
            self.console.print(self.t("to_shoot_anywhere", name=name), style="bold")
        else:
            self.console.print(self.t("to_shoot", name=name), style="bold")
        balls = " ".join(str(int(b)) for b in sorted(game.on_table))
        self.console.print(self.t("lowest", ball=int(game.lowest), balls=balls))
        if state.push_out_allowed:
            self.console.print(self.t("push_allowed"), style="cyan")
        if any(game.consecutive_fouls):
            counts = ", ".join(
                f"{state.name(seat)} {game.consecutive_fouls[seat]}" for seat in Seat
            )
            self.console.print(self.t("fouls", counts=counts))
            for seat in Seat:
                if game.consecutive_fouls[seat] == 2:
                    self.console.print(
                        self.t("on_warning", name=state.name(seat)), style="bold yellow"
                    )

    def show_ruling(self, ruling: Ruling) -> None:
        text = Text(ruling.explanation.text(self.lang))
        if ruling.fouls:
            codes = ", ".join(f"{f.value} ({f.clause})" for f in ruling.fouls)
            title, style = f"{self.t('foul')}: {codes}", "red"
        else:
            title, style = self.t("legal"), "green"
        if ruling.warning:
            title = f"{title} · {self.t('warning')}"
            style = "yellow"
        self.console.print(Panel(text, title=title, border_style=style, expand=False))

    def play(self, match: _Scoring) -> None:
        self.status(match.state)
        while True:
            state = match.state
            if state.is_over and state.winner is not None:
                a, b = state.score
                self.console.print(
                    self.t("match_over", name=state.name(state.winner), sa=a, sb=b),
                    style="bold green",
                )
            line = self.ask(f"{state.name(state.to_act)}>")
            try:
                entry = parse_entry(line)
                if isinstance(entry, CommandEntry) and entry.command is Command.HELP:
                    self.console.print(self.t("help"), markup=False)
                    continue
                if isinstance(entry, CommandEntry) and entry.command is Command.QUIT:
                    raise _Quit
                if isinstance(entry, CommandEntry) and entry.command is Command.UNDO:
                    try:
                        match.undo()
                    except IndexError:
                        self.console.print(self.t("nothing_to_undo"))
                        continue
                    self.console.print(self.t("undone"), style="cyan")
                    self.status(match.state)
                    continue
                ruling = match.play(_shot_record(entry, state.to_act))
            except ConcurrentWriteError:
                raise  # someone else writes this match now: stop, do not refuse every entry
            except NineballError as exc:
                self.console.print(self.t("refused", message=str(exc)), style="red")
                continue
            self.show_ruling(ruling)
            if not ruling.state.is_over:
                self.status(ruling.state)


class _Scoring(Protocol):
    """What the scorekeeper plays on: a recorder, saved to the store or not."""

    @property
    def state(self) -> MatchState: ...

    def play(self, shot: ShotRecord) -> Ruling: ...

    def undo(self) -> ShotRecord: ...


def _shot_record(entry: Entry, to_act: Seat) -> ShotRecord:
    if isinstance(entry, ShotEntry):
        return ShotRecord(
            kind=ShotKind.STROKE,
            player=to_act,
            facts=entry.facts,
            push_out=entry.push_out,
            safety=entry.safety,
        )
    if entry.command is Command.FORFEIT:
        return ShotRecord(
            kind=ShotKind.FORFEIT, player=to_act if entry.seat is None else entry.seat
        )
    return ShotRecord(kind=ShotKind.CHOICE, player=to_act, choice=Choice(entry.command.value))


def run_scorekeeper(
    setup: ScoreSetup,
    console: Console | None = None,
    *,
    db: Path | None = None,
    save: bool = True,
) -> int:
    """Run the scorekeeper until the user quits or input ends; return the exit status.

    Args:
        setup: the settings given on the command line (the rest is asked).
        console: where to write (the terminal by default).
        db: the database to save the match to (default: the user's, see ``nineball.game.store``).
        save: False to keep nothing.
    """
    console = console or Console(highlight=False)
    keeper = _Scorekeeper(console, setup.lang or Language.EN)
    try:
        if setup.lang is None:
            answer = keeper.ask_choice(
                "Language / Langue / Język (en, fr, pl)", ("en", "fr", "pl"), "en"
            )
            keeper.lang = Language(answer)
        config = keeper.configure(setup)
        date = datetime.now(UTC).isoformat(timespec="seconds")
        if not save:
            keeper.play(
                MatchRecorder(config, date=date, event="scored by hand", agents=("human", "human"))
            )
            return 0
        with Store(db) as store:
            match = SavedMatch.start(
                store, config, date=date, event="scored by hand", agents=("human", "human")
            )
            console.print(keeper.t("saving", id=match.match_id, path=str(store.path)))
            keeper.play(match)
    except _Quit:
        console.print(keeper.t("bye"))
    return 0


def _computer_players() -> frozenset[str]:
    from nineball.cli.match import PLAYERS

    return frozenset(PLAYERS)


def resume_scorekeeper(
    match_id: int | None, lang: Language, console: Console | None = None, *, db: Path | None = None
) -> int:
    """Continue a stored match (the newest unfinished one when ``match_id`` is None)."""
    console = console or Console(highlight=False)
    keeper = _Scorekeeper(console, lang)
    with Store(db) as store:
        if match_id is None:
            unfinished = store.unfinished()
            if not unfinished:
                console.print(keeper.t("nothing_to_resume"))
                return 1
            match_id = unfinished[0].id
        try:
            agents = store.load(match_id).agents
            if agents is not None and all(a in _computer_players() for a in agents):
                from nineball.cli.match import resume_match

                return resume_match(console, store, match_id, lang)
            match = SavedMatch.resume(store, match_id)
        except NineballError as exc:
            console.print(keeper.t("refused", message=str(exc)), style="red")
            return 1
        a, b = match.state.config.players
        sa, sb = match.state.score
        console.print(keeper.t("resuming", id=match_id, a=a, b=b, sa=sa, sb=sb))
        try:
            keeper.play(match)
        except _Quit:
            console.print(keeper.t("bye"))
        except ConcurrentWriteError as exc:
            console.print(keeper.t("refused", message=str(exc)), style="red", markup=False)
            return 1
    return 0
