"""Rule profiles: the ``standard`` default and the literal readings of the French and Polish texts.

The two seed texts are translations of the same 13 clauses that differ in a few places;
``docs/rules.md`` fixes a decision for each (D1-D14). A profile is a frozen set of options, one
per decision where the profiles differ. Every other decision is the same in all three profiles
and is built into the referee.

The profile names live here and nowhere else: the command line, the referee protocol, the web
page and the record reader all take them from :data:`VARIANTS` (and :data:`RULE_NAMES`, which
adds the names of earlier versions: the default was called ``seed`` until 2026-12, a word the
package now keeps for the random seed of a match).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FR", "PL", "RULE_NAMES", "STANDARD", "VARIANTS", "RuleSet", "find_variant"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """A rule profile."""

    name: str
    """Short name used on the wire and the command line: ``standard``, ``fr`` or ``pl``."""

    description: str
    """One line on what the profile follows."""

    push_out_after_foul_break: bool
    """D1, clause 5: may the incoming player push out after a break foul that is not a cue-ball
    scratch? The Polish text forbids a push out after any foul break; the French text forbids it
    only when the breaker pocketed the cue ball. No profile allows it after a scratch."""

    obstruction_foul_when_refereed: bool
    """D2, clause 11: does moving an obstructing ball on a jump, curve or massé attempt count as a
    foul in a refereed match? The Polish text applies clause 11 only when there is no referee."""

    def is_obstruction_foul(self, *, refereed: bool) -> bool:
        """Whether clause 11 applies in a match that is (or is not) refereed."""
        return self.obstruction_foul_when_refereed or not refereed


STANDARD = RuleSet(
    name="standard",
    description="the default: the decisions of docs/rules.md where the two texts differ",
    push_out_after_foul_break=False,
    obstruction_foul_when_refereed=True,
)
"""The default profile."""

FR = RuleSet(
    name="fr",
    description="the French text read literally",
    push_out_after_foul_break=True,
    obstruction_foul_when_refereed=True,
)
"""The French text: a push out is refused only after the breaker pocketed the cue ball."""

PL = RuleSet(
    name="pl",
    description="the Polish text read literally",
    push_out_after_foul_break=False,
    obstruction_foul_when_refereed=False,
)
"""The Polish text: clause 11 applies only in a match without a referee."""

VARIANTS: tuple[RuleSet, ...] = (STANDARD, FR, PL)
"""Every profile, the default first."""

_FORMER = {"seed": STANDARD}
"""Names of earlier versions, still read (records and requests written before 2026-12)."""

RULE_NAMES: tuple[str, ...] = (*(v.name for v in VARIANTS), *_FORMER)
"""Every name :func:`find_variant` accepts: the profiles', then the former ones."""


def find_variant(name: str) -> RuleSet:
    """Return the profile called ``name`` (:data:`RULE_NAMES`; case-insensitive).

    Raises:
        ValueError: no profile has that name.
    """
    for variant in VARIANTS:
        if variant.name == name.lower():
            return variant
    if name.lower() in _FORMER:
        return _FORMER[name.lower()]
    known = ", ".join(v.name for v in VARIANTS)
    raise ValueError(f"unknown rule profile {name!r} (known: {known})")
