"""Explanations of rulings in English, French and Polish, each naming the clauses it applies.

An explanation is at most two sentences: what happened on the stroke, then what follows from it.
The French and Polish texts use the seed texts' own words (bris, coup poussé, blanche en main,
mouche; rozbicie, wypchnięcie, biała bila w ręce, punkt główny stołu).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from nineball.equipment import BallId
from nineball.rules.facts import ShotFacts
from nineball.rules.fouls import Foul
from nineball.rules.ruling import Explanation
from nineball.rules.state import GameOver, MatchConfig, MatchState, Seat, Termination

__all__ = ["Decision", "DecisionKind", "explain"]


class DecisionKind(StrEnum):
    """What a decision is about."""

    BREAK = "break"
    SHOT = "shot"
    PUSH_OUT = "push_out"
    CHOOSE_SHOOT = "choose_shoot"
    CHOOSE_PASS = "choose_pass"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """What the referee decided, in the terms an explanation needs."""

    kind: DecisionKind
    config: MatchConfig
    actor: Seat
    """Who shot, chose or forfeited."""
    lowest: BallId
    """The lowest ball before the stroke."""
    after: MatchState
    facts: ShotFacts = field(default_factory=ShotFacts)
    fouls: tuple[Foul, ...] = ()
    respotted: bool = False
    """The 9 was respotted."""
    nine_off_table: bool = False
    warning: bool = False
    game_over: GameOver | None = None


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(items: Sequence[str], last: str) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _object_rails(facts: ShotFacts) -> int:
    return len(facts.rails - {BallId.CUE})


def _respot_clause(d: Decision) -> int:
    if d.nine_off_table:
        return 10
    return 6 if d.fouls else 5


class _Phrases:
    """The sentences of one language. Subclasses fill in the words; the order is shared."""

    and_: str

    def balls(self, balls: frozenset[BallId]) -> str:
        raise NotImplementedError

    def foul_intro(self, kind: DecisionKind) -> str:
        raise NotImplementedError

    def foul_reason(self, foul: Foul, d: Decision) -> str:
        raise NotImplementedError

    def happened(self, d: Decision) -> str:
        raise NotImplementedError

    def respot(self, clause: int) -> str:
        raise NotImplementedError

    def game_won(self, d: Decision, over: GameOver) -> str:
        raise NotImplementedError

    def match_state(self, after: MatchState) -> str:
        raise NotImplementedError

    def ball_in_hand(self, name: str) -> str:
        raise NotImplementedError

    def may_push(self) -> str:
        raise NotImplementedError

    def warning(self, name: str) -> str:
        raise NotImplementedError

    def choose(self, chooser: str, pusher: str) -> str:
        raise NotImplementedError

    def keeps_shooting(self, name: str) -> str:
        raise NotImplementedError

    def as_it_lies(self, name: str) -> str:
        raise NotImplementedError

    def first_sentence(self, d: Decision) -> str:
        if d.fouls:
            reasons = [self.foul_reason(foul, d) for foul in d.fouls]
            return self.foul_intro(d.kind) + _join(reasons, self.and_) + "."
        return self.happened(d)

    def second_sentence(self, d: Decision) -> str:
        parts: list[str] = []
        names = d.config.players
        actor, opponent = names[d.actor], names[d.actor.other]
        if d.respotted:
            parts.append(self.respot(_respot_clause(d)))
        if d.game_over is not None:
            parts.append(self.game_won(d, d.game_over))
            parts.append(self.match_state(d.after))
        elif d.fouls:
            hand = self.ball_in_hand(opponent)
            parts.append(hand + self.may_push() if d.after.push_out_allowed else hand)
            if d.warning:
                parts.append(self.warning(actor))
        elif d.kind is DecisionKind.PUSH_OUT:
            parts.append(self.choose(opponent, actor))
        elif d.kind in (DecisionKind.BREAK, DecisionKind.SHOT):
            nxt = d.after.to_act
            text = (
                self.keeps_shooting(actor)
                if nxt is d.actor
                else self.as_it_lies(d.config.players[nxt])
            )
            parts.append(text + self.may_push() if d.after.push_out_allowed else text)
        return _cap("; ".join(parts)) + "." if parts else ""

    def explain(self, d: Decision) -> str:
        second = self.second_sentence(d)
        first = self.first_sentence(d)
        return f"{first} {second}" if second else first


class _English(_Phrases):
    and_ = "and"

    def balls(self, balls: frozenset[BallId]) -> str:
        return _join([f"the {int(b)}" for b in sorted(balls)], "and")

    def _were(self, balls: frozenset[BallId]) -> str:
        return "was" if len(balls) == 1 else "were"

    def foul_intro(self, kind: DecisionKind) -> str:
        if kind is DecisionKind.BREAK:
            return "Foul on the break: "
        if kind is DecisionKind.PUSH_OUT:
            return "Foul on the push out: "
        return "Foul: "

    def foul_reason(self, foul: Foul, d: Decision) -> str:
        facts = d.facts
        on_break = d.kind is DecisionKind.BREAK
        match foul:
            case Foul.ILLEGAL_BREAK if facts.first_contact is not BallId.ONE:
                return "the cue ball did not hit the 1 first (clause 3)"
            case Foul.ILLEGAL_BREAK:
                n = _object_rails(facts)
                balls = "object ball" if n == 1 else "object balls"
                return (
                    f"nothing was pocketed and only {n} {balls} reached a rail "
                    "where four are needed (clause 3)"
                )
            case Foul.CUE_BALL_POCKETED:
                return f"the cue ball was pocketed (clause {3 if on_break else 6})"
            case Foul.CUE_BALL_OFF_TABLE:
                return f"the cue ball left the table (clause {3 if on_break else 10})"
            case Foul.OBJECT_BALL_OFF_TABLE:
                off = facts.off_table_object_balls
                return f"{self.balls(off)} left the table (clause {3 if on_break else 10})"
            case Foul.NO_CONTACT:
                return "the cue ball hit no object ball (clause 7)"
            case Foul.WRONG_BALL_FIRST:
                return (
                    f"the cue ball hit the {int(facts.first_contact or 0)} first, "
                    f"not the lowest ball, the {int(d.lowest)} (clause 7)"
                )
            case Foul.NO_RAIL:
                return (
                    "nothing was pocketed and no ball reached a rail after the contact (clause 8)"
                )
            case _:  # Foul.OBSTRUCTION_MOVED
                return "an obstructing ball moved on a jump, curve or massé attempt (clause 11)"

    def happened(self, d: Decision) -> str:
        names = d.config.players
        actor, other = names[d.actor], names[d.actor.other]
        facts = d.facts
        down = facts.pocketed_object_balls
        match d.kind:
            case DecisionKind.FORFEIT:
                return f"{actor} forfeits the game for a serious infraction (clause 4)."
            case DecisionKind.CHOOSE_SHOOT:
                return (
                    f"{actor} chooses to shoot from the position left by the push out (clause 5)."
                )
            case DecisionKind.CHOOSE_PASS:
                return (
                    f"{actor} hands the shot back: {other} must shoot from the position "
                    "left by the push out (clause 5)."
                )
            case DecisionKind.PUSH_OUT:
                return "Legal push out (clause 5)."
            case DecisionKind.BREAK if d.game_over is not None:
                return f"Legal break (clause 3): {actor} pocketed the 9 on the break."
            case DecisionKind.BREAK if down:
                return (
                    f"Legal break (clause 3): the 1 was hit first and "
                    f"{self.balls(down)} {self._were(down)} pocketed."
                )
            case DecisionKind.BREAK:
                return (
                    f"Legal break (clause 3): the 1 was hit first and "
                    f"{_object_rails(facts)} object balls reached a rail."
                )
            case _ if d.game_over is not None:
                return f"{actor} legally pocketed the 9 (clause 1)."
            case _ if down:
                return (
                    f"Legal shot: the {int(d.lowest)} was hit first and "
                    f"{self.balls(down)} {self._were(down)} pocketed (clause 1)."
                )
            case _:
                return "Legal shot, but nothing was pocketed (clause 1)."

    def respot(self, clause: int) -> str:
        return f"the 9 is respotted on the foot spot (clause {clause})"

    def game_won(self, d: Decision, over: GameOver) -> str:
        names = d.config.players
        winner = names[over.winner]
        match over.reason:
            case Termination.THREE_FOULS:
                return (
                    f"that is {names[d.actor]}'s third foul in a row, so {winner} "
                    f"wins game {over.game} (clause 12)"
                )
            case _:
                return f"{winner} wins game {over.game} (clause 13)"

    def match_state(self, after: MatchState) -> str:
        a, b = after.score
        if after.winner is not None:
            return f"{after.name(after.winner)} wins the match {a}-{b}"
        return f"the score is {a}-{b} and {after.name(after.game.breaker)} breaks next"

    def ball_in_hand(self, name: str) -> str:
        return f"{name} has the cue ball in hand anywhere on the table (clause 6)"

    def may_push(self) -> str:
        return " and may push out (clause 5)"

    def warning(self, name: str) -> str:
        return f"{name} is warned: a third foul in a row loses the game (clause 12)"

    def choose(self, chooser: str, pusher: str) -> str:
        return f"{chooser} chooses to shoot from here or to hand the shot back to {pusher}"

    def keeps_shooting(self, name: str) -> str:
        return f"{name} keeps shooting"

    def as_it_lies(self, name: str) -> str:
        return f"{name} plays the position as it lies"


class _French(_Phrases):
    and_ = "et"

    def balls(self, balls: frozenset[BallId]) -> str:
        return _join([self._ball(b) for b in sorted(balls)], "et")

    @staticmethod
    def _ball(ball: BallId) -> str:
        return {BallId.ONE: "la UN", BallId.NINE: "la NEUF"}.get(ball, f"la {int(ball)}")

    @staticmethod
    def _verb(balls: frozenset[BallId], participle: str) -> str:
        return f"a été {participle}e" if len(balls) == 1 else f"ont été {participle}es"

    def foul_intro(self, kind: DecisionKind) -> str:
        if kind is DecisionKind.BREAK:
            return "Faute au bris : "
        if kind is DecisionKind.PUSH_OUT:
            return "Faute sur le coup poussé : "
        return "Faute : "

    def foul_reason(self, foul: Foul, d: Decision) -> str:
        facts = d.facts
        on_break = d.kind is DecisionKind.BREAK
        match foul:
            case Foul.ILLEGAL_BREAK if facts.first_contact is not BallId.ONE:
                return "la blanche n'a pas atteint la UN en premier (règle 3)"
            case Foul.ILLEGAL_BREAK:
                n = _object_rails(facts)
                if n == 0:
                    touched = "aucune boule numérotée n'a touché une bande"
                elif n == 1:
                    touched = "une seule boule numérotée a touché une bande"
                else:
                    touched = f"seulement {n} boules numérotées ont touché une bande"
                return (
                    f"aucune boule n'a été empochée et {touched}, alors qu'il en faut quatre "
                    "(règle 3)"
                )
            case Foul.CUE_BALL_POCKETED:
                return f"la blanche a été empochée (règle {3 if on_break else 6})"
            case Foul.CUE_BALL_OFF_TABLE:
                return f"la blanche a été projetée hors de la table (règle {3 if on_break else 10})"
            case Foul.OBJECT_BALL_OFF_TABLE:
                off = facts.off_table_object_balls
                return (
                    f"{self.balls(off)} {self._verb(off, 'projeté')} hors de la table "
                    f"(règle {3 if on_break else 10})"
                )
            case Foul.NO_CONTACT:
                return "la blanche n'a touché aucune boule numérotée (règle 7)"
            case Foul.WRONG_BALL_FIRST:
                first = self._ball(facts.first_contact or BallId.CUE)
                return (
                    f"la blanche a touché {first} en premier au lieu de la boule la plus basse, "
                    f"{self._ball(d.lowest)} (règle 7)"
                )
            case Foul.NO_RAIL:
                return (
                    "aucune boule n'a été empochée ni n'a atteint une bande après l'impact "
                    "(règle 8)"
                )
            case _:  # Foul.OBSTRUCTION_MOVED
                return (
                    "une boule faisant obstacle a bougé lors d'un coup sauté, dévié ou massé "
                    "(règle 11)"
                )

    def happened(self, d: Decision) -> str:
        names = d.config.players
        actor, other = names[d.actor], names[d.actor.other]
        facts = d.facts
        down = facts.pocketed_object_balls
        match d.kind:
            case DecisionKind.FORFEIT:
                return (
                    f"{actor} déclare forfait pour une infraction majeure aux règlements (règle 4)."
                )
            case DecisionKind.CHOOSE_SHOOT:
                return (
                    f"{actor} choisit de jouer la blanche de la position laissée par le coup "
                    "poussé (règle 5)."
                )
            case DecisionKind.CHOOSE_PASS:
                return (
                    f"{actor} remet son tour : {other} doit jouer de la position laissée par le "
                    "coup poussé (règle 5)."
                )
            case DecisionKind.PUSH_OUT:
                return "Coup poussé légal (règle 5)."
            case DecisionKind.BREAK if d.game_over is not None:
                return f"Bris légal (règle 3) : {actor} a empoché la NEUF au bris."
            case DecisionKind.BREAK if down:
                return (
                    f"Bris légal (règle 3) : la UN a été atteinte en premier et "
                    f"{self.balls(down)} {self._verb(down, 'empoché')}."
                )
            case DecisionKind.BREAK:
                return (
                    f"Bris légal (règle 3) : la UN a été atteinte en premier et "
                    f"{_object_rails(facts)} boules numérotées ont touché une bande."
                )
            case _ if d.game_over is not None:
                return f"{actor} a empoché la NEUF sur un coup légal (règle 1)."
            case _ if down:
                return (
                    f"Coup légal : {self._ball(d.lowest)} a été touchée en premier et "
                    f"{self.balls(down)} {self._verb(down, 'empoché')} (règle 1)."
                )
            case _:
                return "Coup légal, mais aucune boule n'a été empochée (règle 1)."

    def respot(self, clause: int) -> str:
        return f"la NEUF est replacée sur la mouche (règle {clause})"

    def game_won(self, d: Decision, over: GameOver) -> str:
        names = d.config.players
        winner = names[over.winner]
        match over.reason:
            case Termination.THREE_FOULS:
                return (
                    f"c'est la troisième faute consécutive de {names[d.actor]} : {winner} "
                    f"gagne la partie {over.game} (règle 12)"
                )
            case _:
                return f"{winner} gagne la partie {over.game} (règle 13)"

    def match_state(self, after: MatchState) -> str:
        a, b = after.score
        if after.winner is not None:
            return f"{after.name(after.winner)} remporte le match {a}-{b}"
        return f"le score est de {a}-{b} et {after.name(after.game.breaker)} fait le prochain bris"

    def ball_in_hand(self, name: str) -> str:
        return f"{name} a la blanche en main n'importe où sur la table (règle 6)"

    def may_push(self) -> str:
        return " et peut jouer un coup poussé (règle 5)"

    def warning(self, name: str) -> str:
        return (
            f"avertissement à {name} : une troisième faute consécutive fait perdre la partie "
            "(règle 12)"
        )

    def choose(self, chooser: str, pusher: str) -> str:
        return f"{chooser} choisit de jouer de cette position ou de remettre son tour à {pusher}"

    def keeps_shooting(self, name: str) -> str:
        return f"{name} continue de jouer"

    def as_it_lies(self, name: str) -> str:
        return f"{name} reprend le jeu dans la position laissée"


class _Polish(_Phrases):
    and_ = "i"

    def balls(self, balls: frozenset[BallId]) -> str:
        numbers = _join([str(int(b)) for b in sorted(balls)], "i")
        return f"bila {numbers}" if len(balls) == 1 else f"bile {numbers}"

    @staticmethod
    def _fell(balls: frozenset[BallId]) -> str:
        return "wpadła do łuzy" if len(balls) == 1 else "wpadły do łuzy"

    @staticmethod
    def _rails(n: int) -> str:
        if n == 0:
            return "żadna bila kolorowa nie dotknęła bandy"
        if n == 1:
            return "bandy dotknęła tylko 1 bila kolorowa"
        if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
            return f"bandy dotknęły {n} bile kolorowe"
        return f"bandy dotknęło {n} bil kolorowych"

    def foul_intro(self, kind: DecisionKind) -> str:
        if kind is DecisionKind.BREAK:
            return "Faul przy rozbiciu: "
        if kind is DecisionKind.PUSH_OUT:
            return "Faul przy wypchnięciu: "
        return "Faul: "

    def foul_reason(self, foul: Foul, d: Decision) -> str:
        facts = d.facts
        on_break = d.kind is DecisionKind.BREAK
        match foul:
            case Foul.ILLEGAL_BREAK if facts.first_contact is not BallId.ONE:
                return "biała bila nie trafiła najpierw w bilę 1 (punkt 3)"
            case Foul.ILLEGAL_BREAK:
                return (
                    f"żadna bila nie wpadła do łuzy, a {self._rails(_object_rails(facts))}, "
                    "choć wymagane są cztery (punkt 3)"
                )
            case Foul.CUE_BALL_POCKETED:
                return f"biała bila wpadła do łuzy (punkt {3 if on_break else 6})"
            case Foul.CUE_BALL_OFF_TABLE:
                return f"biała bila została wybita poza stół (punkt {3 if on_break else 10})"
            case Foul.OBJECT_BALL_OFF_TABLE:
                off = facts.off_table_object_balls
                verb = "została wybita" if len(off) == 1 else "zostały wybite"
                return f"{self.balls(off)} {verb} poza stół (punkt {3 if on_break else 10})"
            case Foul.NO_CONTACT:
                return "biała bila nie trafiła w żadną bilę kolorową (punkt 7)"
            case Foul.WRONG_BALL_FIRST:
                return (
                    f"biała bila trafiła najpierw w bilę {int(facts.first_contact or 0)} "
                    f"zamiast w najniższą bilę {int(d.lowest)} (punkt 7)"
                )
            case Foul.NO_RAIL:
                return (
                    "żadna bila nie wpadła do łuzy ani nie dotknęła bandy po pierwszym "
                    "karambolu (punkt 8)"
                )
            case _:  # Foul.OBSTRUCTION_MOVED
                return (
                    "przy uderzeniu ze skokiem, po łuku lub masé poruszyła się bila, "
                    "która zasłaniała drogę (punkt 11)"
                )

    def happened(self, d: Decision) -> str:
        names = d.config.players
        actor, other = names[d.actor], names[d.actor.other]
        facts = d.facts
        down = facts.pocketed_object_balls
        match d.kind:
            case DecisionKind.FORFEIT:
                return f"{actor} oddaje partię z powodu poważnego naruszenia zasad (punkt 4)."
            case DecisionKind.CHOOSE_SHOOT:
                return (
                    f"{actor} wybiera uderzenie z pozycji pozostawionej po wypchnięciu (punkt 5)."
                )
            case DecisionKind.CHOOSE_PASS:
                return (
                    f"{actor} oddaje uderzenie: {other} musi zagrać z pozycji pozostawionej "
                    "po wypchnięciu (punkt 5)."
                )
            case DecisionKind.PUSH_OUT:
                return "Prawidłowe wypchnięcie (punkt 5)."
            case DecisionKind.BREAK if d.game_over is not None:
                return "Prawidłowe rozbicie (punkt 3): bila 9 wpadła do łuzy przy rozbiciu."
            case DecisionKind.BREAK if down:
                return (
                    "Prawidłowe rozbicie (punkt 3): biała bila trafiła najpierw w bilę 1, "
                    f"a {self.balls(down)} {self._fell(down)}."
                )
            case DecisionKind.BREAK:
                return (
                    "Prawidłowe rozbicie (punkt 3): biała bila trafiła najpierw w bilę 1, "
                    f"a {self._rails(_object_rails(facts))}."
                )
            case _ if d.game_over is not None:
                return f"{actor} wbija bilę 9 prawidłowym uderzeniem (punkt 1)."
            case _ if down:
                return (
                    f"Prawidłowe uderzenie: biała bila trafiła najpierw w bilę {int(d.lowest)}, "
                    f"a {self.balls(down)} {self._fell(down)} (punkt 1)."
                )
            case _:
                return "Prawidłowe uderzenie, ale żadna bila nie wpadła do łuzy (punkt 1)."

    def respot(self, clause: int) -> str:
        return f"bila 9 wraca na punkt główny stołu (punkt {clause})"

    def game_won(self, d: Decision, over: GameOver) -> str:
        names = d.config.players
        winner = names[over.winner]
        match over.reason:
            case Termination.THREE_FOULS:
                return (
                    f"to trzeci kolejny faul gracza {names[d.actor]}, więc partię {over.game} "
                    f"wygrywa {winner} (punkt 12)"
                )
            case _:
                return f"partię {over.game} wygrywa {winner} (punkt 13)"

    def match_state(self, after: MatchState) -> str:
        a, b = after.score
        if after.winner is not None:
            return f"mecz wygrywa {after.name(after.winner)} {a}:{b}"
        return f"wynik {a}:{b}, następną partię rozbija {after.name(after.game.breaker)}"

    def ball_in_hand(self, name: str) -> str:
        return f"{name} ma białą bilę w ręce i może ją ustawić w dowolnym punkcie stołu (punkt 6)"

    def may_push(self) -> str:
        return " oraz może wykonać wypchnięcie (punkt 5)"

    def warning(self, name: str) -> str:
        return (
            f"{name} otrzymuje ostrzeżenie: trzeci kolejny faul oznacza przegranie partii "
            "(punkt 12)"
        )

    def choose(self, chooser: str, pusher: str) -> str:
        return (
            f"{chooser} decyduje, czy uderza z tej pozycji, czy oddaje uderzenie graczowi {pusher}"
        )

    def keeps_shooting(self, name: str) -> str:
        return f"{name} pozostaje przy stole i gra dalej"

    def as_it_lies(self, name: str) -> str:
        return f"{name} gra z pozycji pozostawionej przez przeciwnika"


_EN, _FR, _PL = _English(), _French(), _Polish()


def explain(decision: Decision) -> Explanation:
    """Explain ``decision`` in English, French and Polish."""
    return Explanation(en=_EN.explain(decision), fr=_FR.explain(decision), pl=_PL.explain(decision))
