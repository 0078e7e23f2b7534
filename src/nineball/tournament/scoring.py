"""Racks entered by their result: who breaks each one.

A match scored shot by shot has the referee to say who breaks (D12); one scored rack by rack
follows the same rule here: the lag's winner breaks the first rack, then the players alternate or
the winner of each rack breaks the next.

>>> from nineball.game import BreakRule
>>> next_breaker(0, BreakRule.ALTERNATE, [1, 1])
0
>>> next_breaker(0, BreakRule.WINNER, [0, 1])
1
"""

from __future__ import annotations

from collections.abc import Sequence

from nineball.game import BreakRule

__all__ = ["next_breaker"]


def next_breaker(first_breaker: int, breaks: BreakRule, winners: Sequence[int]) -> int:
    """Who breaks the rack after the racks won by ``winners`` (slots 0 and 1), D12."""
    if not winners:
        return first_breaker
    if breaks is BreakRule.WINNER:
        return winners[-1]
    return (first_breaker + len(winners)) % 2
