"""The nine-ball referee: pure standard library, it knows nothing of physics.

It takes what happened on a stroke (:class:`ShotFacts`) and rules on it (:class:`Ruling`),
citing the clauses of the seed texts (:class:`Clause`). The explanation of a ruling is decided
once, as messages (:class:`Message`: a :class:`Text` and its arguments), and rendered in English,
French or Polish from gettext catalogs (:mod:`nineball.rules.message`). State is immutable: every
function returns a new :class:`MatchState` inside the ruling, or raises and changes nothing.

>>> from nineball.rules import ShotFacts, shoot, start_match
>>> ruling = shoot(start_match(), ShotFacts.of(first_contact=1, pocketed=[3]))
>>> ruling.legal, ruling.next_to_act, ruling.push_out_allowed
(True, <Seat.FIRST: 0>, True)
>>> print(ruling.explanation.en)  # doctest: +NORMALIZE_WHITESPACE
Legal break (clause 3): the 1 was hit first and the 3 was pocketed.
Player 1 keeps shooting and may push out (clause 5).
"""

from __future__ import annotations

from nineball.rules.clauses import Clause
from nineball.rules.explain import explain
from nineball.rules.facts import ShotFacts
from nineball.rules.fouls import Foul
from nineball.rules.message import Message
from nineball.rules.protocol import RefereeSession
from nineball.rules.referee import (
    check_stroke,
    choose,
    forfeit,
    legal_actions,
    shoot,
    start_match,
)
from nineball.rules.ruling import Explanation, Language, Ruling, RulingKind
from nineball.rules.state import (
    Action,
    BreakRule,
    Choice,
    CueBall,
    GameOver,
    GameState,
    MatchConfig,
    MatchState,
    Phase,
    Seat,
    Termination,
)
from nineball.rules.texts import Text
from nineball.rules.variants import FR, PL, RULE_NAMES, STANDARD, VARIANTS, RuleSet, find_variant

__all__ = [
    "FR",
    "PL",
    "RULE_NAMES",
    "STANDARD",
    "VARIANTS",
    "Action",
    "BreakRule",
    "Choice",
    "Clause",
    "CueBall",
    "Explanation",
    "Foul",
    "GameOver",
    "GameState",
    "Language",
    "MatchConfig",
    "MatchState",
    "Message",
    "Phase",
    "RefereeSession",
    "RuleSet",
    "Ruling",
    "RulingKind",
    "Seat",
    "ShotFacts",
    "Termination",
    "Text",
    "check_stroke",
    "choose",
    "explain",
    "find_variant",
    "forfeit",
    "legal_actions",
    "shoot",
    "start_match",
]
