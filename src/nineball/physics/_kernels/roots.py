"""Real roots of polynomials of degree <= 4 on an interval, robust to degenerate cases.

Method (no companion matrix, no Ferrari): a polynomial is monotone between consecutive roots of
its derivative, so the derivative's roots (found the same way, down to a closed-form quadratic)
split the interval into monotone pieces, and each sign change is bracketed and bisected to full
double precision. A vanishing leading coefficient simply lowers the degree (the quadratic step
uses the cancellation-free formula, and a zero leading coefficient falls back to the linear
case); parallel paths and equal decelerations give exactly zero coefficients and are handled the
same way. Coefficients are ordered from the highest degree: p(t) = c4 t^4 + c3 t^3 + ... + c0.
"""

from __future__ import annotations

import math

import numpy as np

from nineball.physics._kernels.jit import entry, internal

__all__ = ["first_down_crossing", "poly4"]


@internal
def poly4(c4: float, c3: float, c2: float, c1: float, c0: float, t: float) -> float:
    """Evaluate c4 t^4 + c3 t^3 + c2 t^2 + c1 t + c0 (Horner)."""
    return (((c4 * t + c3) * t + c2) * t + c1) * t + c0


@internal
def _quad_roots(a: float, b: float, c: float, lo: float, hi: float) -> tuple[int, float, float]:
    """Roots of a t^2 + b t + c strictly inside (lo, hi), sorted: (count, first, second)."""
    n = 0
    r1 = np.inf
    r2 = np.inf
    if a == 0.0:
        if b != 0.0:
            r1 = -c / b
    else:
        disc = b * b - 4.0 * a * c
        if disc >= 0.0:
            q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
            if q != 0.0:
                r1 = q / a
                r2 = c / q
            else:
                r1 = 0.0
                r2 = 0.0
    if r2 < r1:
        r1, r2 = r2, r1
    o1 = np.inf
    o2 = np.inf
    if lo < r1 < hi:
        o1 = r1
        n += 1
    if lo < r2 < hi and r2 != r1:
        if n == 0:
            o1 = r2
        else:
            o2 = r2
        n += 1
    return n, o1, o2


@internal
def _bisect(
    c4: float, c3: float, c2: float, c1: float, c0: float, lo: float, hi: float, flo: float
) -> float:
    """Bisect a sign change of p on [lo, hi], where p(lo) has the sign of flo.

    Returns the end of the final bracket on the side of p(hi): the first point where the sign
    has changed.
    """
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        fm = poly4(c4, c3, c2, c1, c0, mid)
        if (fm > 0.0) == (flo > 0.0) and fm != 0.0:
            lo = mid
        else:
            hi = mid
    return hi


@internal
def _cubic_roots(
    a: float, b: float, c: float, d: float, lo: float, hi: float
) -> tuple[int, float, float, float]:
    """Roots of a t^3 + b t^2 + c t + d strictly inside (lo, hi), sorted: (count, roots...)."""
    if a == 0.0:
        nq, q1, q2 = _quad_roots(b, c, d, lo, hi)
        return nq, q1, q2, np.inf
    nc, k1, k2 = _quad_roots(3.0 * a, 2.0 * b, c, lo, hi)
    n = 0
    o1 = np.inf
    o2 = np.inf
    o3 = np.inf
    left = lo
    fl = poly4(0.0, a, b, c, d, left)
    for k in range(nc + 1):
        right = (k1 if k == 0 else k2) if k < nc else hi
        fr = poly4(0.0, a, b, c, d, right)
        root = np.inf
        if fl == 0.0 and left > lo:
            pass
        elif (fl < 0.0 < fr) or (fr < 0.0 < fl):
            root = _bisect(0.0, a, b, c, d, left, right, fl)
        elif fr == 0.0 and right < hi:
            root = right
        if root < np.inf:
            if n == 0:
                o1 = root
            elif n == 1:
                o2 = root
            else:
                o3 = root
            n += 1
        left = right
        fl = fr
    return n, o1, o2, o3


@entry
def first_down_crossing(
    c4: float, c3: float, c2: float, c1: float, c0: float, tmax: float, depth: float
) -> float:
    """First t in (0, tmax] where p goes from > 0 to <= 0; inf if none.

    A crossing counts only if p then goes below ``-depth`` within the same monotone piece (or
    reaches the end of the horizon, where the next polynomial takes over): a graze that would
    overlap by less than the near-future epsilon is not an event (no ghost contacts at tangency).
    The returned time is the first double at which p(t) <= 0 (the contact side), so that a
    resolved contact is never left with a gap that could be closed again.
    """
    if not tmax > 0.0:
        return np.inf
    nc, k1, k2, k3 = _cubic_roots(4.0 * c4, 3.0 * c3, 2.0 * c2, c1, 0.0, tmax)
    left = 0.0
    fl = c0
    for k in range(nc + 1):
        right = (k1 if k == 0 else k2 if k == 1 else k3) if k < nc else tmax
        fr = poly4(c4, c3, c2, c1, c0, right)
        if fl > 0.0 and (fr < -depth or (fr <= 0.0 and k == nc)):
            return _bisect(c4, c3, c2, c1, c0, left, right, fl)
        left = right
        fl = fr
    return np.inf
