"""Rule profiles: the ``seed`` default and the literal readings of the French and Polish texts.

The two seed texts are translations of the same 13 clauses that differ in a few places;
``docs/rules.md`` fixes a decision for each (D1-D14). A profile is a frozen set of options, one
per decision where the profiles differ. Every other decision is the same in all three profiles
and is built into the referee.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FR", "PL", "SEED", "VARIANTS", "RuleSet", "find_variant"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """A rule profile."""

    name: str
    """Short name used on the wire and the command line: ``seed``, ``fr`` or ``pl``."""

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


SEED = RuleSet(
    name="seed",
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

VARIANTS: tuple[RuleSet, ...] = (SEED, FR, PL)
"""Every profile, the default first."""


def find_variant(name: str) -> RuleSet:
    """Return the profile called ``name`` (``seed``, ``fr`` or ``pl``; case-insensitive).

    Raises:
        ValueError: no profile has that name.
    """
    for variant in VARIANTS:
        if variant.name == name.lower():
            return variant
    known = ", ".join(v.name for v in VARIANTS)
    raise ValueError(f"unknown rule profile {name!r} (known: {known})")
