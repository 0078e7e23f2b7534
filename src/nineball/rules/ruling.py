"""Rulings: the referee's decision on one request, as data."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from nineball.equipment import BallId
from nineball.rules.fouls import Foul
from nineball.rules.message import Language, Message, render
from nineball.rules.state import CueBall, GameOver, MatchState, Phase, Seat

if TYPE_CHECKING:
    from nineball.rules.explain import Judgement

__all__ = ["Explanation", "Language", "Ruling", "RulingKind"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Explanation:
    """One ruling explained: one or two sentences, in no language until asked for one.

    The first sentence says what happened on the stroke, the second what follows from it; each
    names the clauses it applies. :meth:`text` renders them from the gettext catalogs.
    """

    sentences: tuple[Message, ...]
    """The sentences, as messages."""

    def text(self, lang: Language | str) -> str:
        """The explanation in ``lang`` (``en``, ``fr`` or ``pl``), each sentence capitalised.

        Raises:
            ValueError: an unknown language.
        """
        language = Language(lang)
        return " ".join(_capitalise(render(s, language)) for s in self.sentences)

    @property
    def en(self) -> str:
        """The explanation in English."""
        return self.text(Language.EN)

    @property
    def fr(self) -> str:
        """The explanation in French."""
        return self.text(Language.FR)

    @property
    def pl(self) -> str:
        """The explanation in Polish."""
        return self.text(Language.PL)


def _capitalise(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


class RulingKind(StrEnum):
    """What the ruling is about."""

    BREAK = "break"
    SHOT = "shot"
    PUSH_OUT = "push_out"
    CHOICE = "choice"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruling:
    """The referee's decision on one stroke, push-out choice or forfeit."""

    kind: RulingKind
    """What was ruled on."""

    shooter: Seat
    """Who played the stroke (or made the choice, or forfeited)."""

    legal: bool
    """False when the stroke was a foul (or the ruling is a forfeit)."""

    fouls: tuple[Foul, ...]
    """The fouls, in the order of :class:`Foul`; several count as one (clause 6)."""

    respotted: tuple[BallId, ...]
    """Balls put back on the table (only ever the 9, on the foot spot; D3)."""

    warning: bool
    """True when this foul is the shooter's second consecutive foul (clause 12)."""

    game_over: GameOver | None
    """How the game ended, when it ended on this request."""

    judgement: Judgement
    """What the referee decided, in the terms of an explanation (:attr:`explanation`)."""

    state: MatchState
    """The match after the ruling (the next game's break already, when a game ended)."""

    @property
    def explanation(self) -> Explanation:
        """The ruling in words, in every language, written when asked for.

        From :attr:`judgement`, each time: most rulings (a search's, a learning environment's)
        are never read, and writing every one cost more than half of a ruling's time.
        """
        from nineball.rules.explain import explain  # explain.py builds on this module

        return explain(self.judgement)

    @property
    def is_foul(self) -> bool:
        """True when at least one foul was called."""
        return bool(self.fouls)

    @property
    def next_to_act(self) -> Seat:
        """Who acts next: the shooter, or the player who must choose after a push out."""
        return self.state.to_act

    @property
    def cue_ball(self) -> CueBall:
        """Where the cue ball may be placed for the next stroke."""
        return self.state.cue_ball

    @property
    def push_out_allowed(self) -> bool:
        """Whether the next stroke may be a push out."""
        return self.state.push_out_allowed

    @property
    def choice_pending(self) -> bool:
        """True when the opponent must now choose to shoot or pass (clause 5)."""
        return self.state.phase is Phase.PUSH_OUT_CHOICE

    @property
    def match_winner(self) -> Seat | None:
        """The winner of the match, when this ruling ended it."""
        return self.state.winner
