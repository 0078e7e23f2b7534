"""Tournaments for people: events, brackets, tables and scorers, refereed by the same rules.

An organiser creates an event (:class:`EventConfig`: format, race, break rule, rule profile,
handicaps, shot clock, tables), registers players (:class:`Entrant`, with an optional rating on
the Fargo-style scale) and starts it: the seeding is drawn (:func:`seed_order`), the bracket
built (:mod:`~nineball.tournament.bracket`: single or double elimination, round robin, groups into
a bracket), and matches go to tables as they free up (:func:`assign_tables`). Scorers enter each
match rack by rack or shot by shot (:class:`Entry`), the shots ruled by the referee; every entry
is stored once, whole, in one transaction (:class:`EventService`). The bracket's state is never
stored: :func:`resolve` makes it from the results, so it cannot drift from them.

The pure parts (bracket, progress, seeding, handicap, schedule, clock) know nothing of storage;
:class:`EventService` joins them to the store, and :mod:`~nineball.tournament.reports` and
:mod:`~nineball.tournament.scoresheet` read what it stored. ``docs/tournaments.md`` explains it
all for an organiser.

>>> bracket = double_elimination(16)
>>> len(bracket.matches), bracket.matches[-1].key
(31, 'F2')
"""

from __future__ import annotations

from nineball.tournament.bracket import (
    MAX_ENTRANTS,
    Bracket,
    BracketMatch,
    Bye,
    Format,
    LoserOf,
    PlaceOf,
    Seed,
    Source,
    Stage,
    WinnerOf,
    double_elimination,
    groups_to_bracket,
    make_bracket,
    round_robin,
    seed_positions,
    single_elimination,
)
from nineball.tournament.clock import ShotClock
from nineball.tournament.config import Entrant, EventConfig, Seeding, ShotClockRule
from nineball.tournament.entries import Entry, EntryKind, Mode
from nineball.tournament.handicap import Handicap, handicap_races, race_odds
from nineball.tournament.progress import BYE, MatchState, Progress, Result, Status, resolve
from nineball.tournament.schedule import assign_tables, up_next
from nineball.tournament.scoring import next_breaker
from nineball.tournament.seeding import seed_order
from nineball.tournament.service import Applied, EventService, Tokens
from nineball.tournament.view import EventView, MatchView, Side, Standing

__all__ = [
    "BYE",
    "MAX_ENTRANTS",
    "Applied",
    "Bracket",
    "BracketMatch",
    "Bye",
    "Entrant",
    "Entry",
    "EntryKind",
    "EventConfig",
    "EventService",
    "EventView",
    "Format",
    "Handicap",
    "LoserOf",
    "MatchState",
    "MatchView",
    "Mode",
    "PlaceOf",
    "Progress",
    "Result",
    "Seed",
    "Seeding",
    "ShotClock",
    "ShotClockRule",
    "Side",
    "Source",
    "Stage",
    "Standing",
    "Status",
    "Tokens",
    "WinnerOf",
    "assign_tables",
    "double_elimination",
    "groups_to_bracket",
    "handicap_races",
    "make_bracket",
    "next_breaker",
    "race_odds",
    "resolve",
    "round_robin",
    "seed_order",
    "seed_positions",
    "single_elimination",
    "up_next",
]
