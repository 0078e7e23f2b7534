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

from nineball.physics._kernels.jit import entry, lean

__all__ = ["first_down_crossing", "poly4"]


@lean
def poly4(c4: float, c3: float, c2: float, c1: float, c0: float, t: float) -> float:
    """Evaluate c4 t^4 + c3 t^3 + c2 t^2 + c1 t + c0 (Horner)."""
    return (((c4 * t + c3) * t + c2) * t + c1) * t + c0


@lean
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


@lean
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


_GAMMA = 2e-15
"""A bound on the relative rounding error of :func:`poly4` (Horner, degree 4: 8 roundings of
2^-53, about 8.9e-16, doubled for the bound's own evaluation): |computed - exact| <= _GAMMA
times the sum of the terms' magnitudes."""


@lean
def _crossed(fm: float, flo: float) -> bool:
    """Whether a value ``fm`` of p is on the far side of the sign change from p(lo) = ``flo``.

    The test of :func:`_bisect`: not crossed means the sign of flo and not zero.
    """
    return not ((fm > 0.0) == (flo > 0.0) and fm != 0.0)


@lean
def _bound(c4: float, c3: float, c2: float, c1: float, c0: float, t: float) -> float:
    """A bound on the rounding error of :func:`poly4` at t >= 0."""
    a = abs(t)
    return _GAMMA * ((((abs(c4) * a + abs(c3)) * a + abs(c2)) * a + abs(c1)) * a + abs(c0))


@lean
def _estimate(
    c4: float, c3: float, c2: float, c1: float, c0: float, lo: float, hi: float, flo: float
) -> float:
    """A root of p in (lo, hi], where p changes sign, to a few ulps (inf if not found).

    A quadratic or a line in closed form; otherwise Newton's method kept inside the bracket
    (a step that leaves it halves the bracket instead).
    """
    if c4 == 0.0 and c3 == 0.0:
        if c2 == 0.0:
            if c1 != 0.0:
                r = -c0 / c1
                if lo < r <= hi:
                    return r
        else:
            disc = c1 * c1 - 4.0 * c2 * c0
            if disc >= 0.0:
                q = -0.5 * (c1 + math.copysign(math.sqrt(disc), c1))
                if q != 0.0:
                    r1 = q / c2
                    r2 = c0 / q
                    if lo < r1 <= hi:
                        return r1
                    if lo < r2 <= hi:
                        return r2
    a = lo
    b = hi
    x = 0.5 * (lo + hi)
    for _ in range(60):
        fx = poly4(c4, c3, c2, c1, c0, x)
        if _crossed(fx, flo):
            b = x
        else:
            a = x
        d = ((4.0 * c4 * x + 3.0 * c3) * x + 2.0 * c2) * x + c1
        step = fx / d if d != 0.0 else np.inf
        xn = x - step
        if not (a < xn < b):
            xn = 0.5 * (a + b)
        if abs(xn - x) <= 4e-16 * abs(x) or xn <= a or xn >= b:
            return xn if a < xn <= b else b
        x = xn
    return np.inf


@lean
def _crossing(
    c4: float, c3: float, c2: float, c1: float, c0: float, lo: float, hi: float, flo: float
) -> float:
    """What :func:`_bisect` returns, bit for bit, with a handful of evaluations of p.

    The same bisection runs, but a midpoint's side is known without evaluating p wherever the
    sign of the computed p is certain: outside a band [a, b] around the root's estimate
    (:func:`_estimate`), where p's distance from zero exceeds any rounding error
    (:func:`_bound`; p is monotone on the bracket, whose ends are roots of p' or the
    horizon's ends, so beyond a and b it only grows away from zero). Only the few midpoints
    inside the band are evaluated. When the band cannot be certified (a tangency, where the
    sign of p is noisy over a wide range) every midpoint is evaluated, as :func:`_bisect` does.
    """
    a = -np.inf  # every midpoint evaluated unless the band is certified
    b = np.inf
    t = _estimate(c4, c3, c2, c1, c0, lo, hi, flo) if lo >= 0.0 else np.inf
    if t < np.inf and abs(flo) > 2.0 * _bound(c4, c3, c2, c1, c0, lo):
        top = _bound(c4, c3, c2, c1, c0, hi)
        if abs(poly4(c4, c3, c2, c1, c0, hi)) > 2.0 * top:
            slope = abs(((4.0 * c4 * t + 3.0 * c3) * t + 2.0 * c2) * t + c1)
            if slope > 0.0:
                width = 4.0 * _bound(c4, c3, c2, c1, c0, t) / slope + 8e-16 * t + 1e-300
                for _ in range(4):
                    lower = t - width
                    upper = t + width
                    if lower <= lo or upper >= hi:
                        break
                    fl_ = poly4(c4, c3, c2, c1, c0, lower)
                    fu = poly4(c4, c3, c2, c1, c0, upper)
                    if (
                        not _crossed(fl_, flo)
                        and abs(fl_) > 2.0 * _bound(c4, c3, c2, c1, c0, lower)
                        and _crossed(fu, flo)
                        and abs(fu) - _bound(c4, c3, c2, c1, c0, upper) > top
                    ):
                        a = lower
                        b = upper
                        break
                    width *= 8.0
    steps = 0
    # outside the band: the side is known; the halving written without a branch to mispredict
    while steps < 200:
        mid = 0.5 * (lo + hi)
        if (mid > a and mid < b) or mid <= lo or mid >= hi:
            break
        below = mid <= a
        lo = mid if below else lo
        hi = hi if below else mid
        steps += 1
    while steps < 200:
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        fm = poly4(c4, c3, c2, c1, c0, mid)
        if (fm > 0.0) == (flo > 0.0) and fm != 0.0:
            lo = mid
        else:
            hi = mid
        steps += 1
    return hi


@lean
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
            root = _crossing(0.0, a, b, c, d, left, right, fl)
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
            return _crossing(c4, c3, c2, c1, c0, left, right, fl)
        left = right
        fl = fr
    return np.inf
