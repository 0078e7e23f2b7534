"""The root finder's fast bisection gives exactly what the full bisection gives.

``roots._crossing`` runs the bisection of ``roots._bisect`` but evaluates the polynomial only in
a certified band around the root's estimate (outside it the sign is known, by the bound on the
rounding of Horner's scheme). Seeded random quadratics, quartics and near-tangent (grazing)
quadratics, split into monotone pieces as ``first_down_crossing`` splits them: both answers
must be the same double every time.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from nineball.physics._kernels import roots


@njit(cache=False)
def _compare(u: np.ndarray, mode: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """Both bisections on polynomials made from rows of uniform draws ``u`` in [0, 1)."""
    bad = 0
    done = 0
    for q in range(u.shape[0]):
        x = u[q]
        if mode == 0:  # a quadratic with a root in [0, 4]
            r = 4.0 * x[0]
            a = 4.0 * x[1] - 2.0
            b = 6.0 * x[2] - 3.0
            c4, c3, c2, c1 = 0.0, 0.0, a, b - a * r
            c0 = -r * c1 - a * r * r
        elif mode == 1:  # a quartic, its leading coefficient over five decades
            c4 = (2.0 * x[0] - 1.0) * 10.0 ** (5.0 * x[1] - 4.0)
            c3 = 4.0 * x[2] - 2.0
            c2 = 6.0 * x[3] - 3.0
            c1 = 6.0 * x[4] - 3.0
            c0 = 2.0 * x[5] - 1.0
        else:  # a graze: a double root at r, lifted or lowered by 1e-30 to 1e-6
            r = 0.01 + 2.99 * x[0]
            a = 10.0 ** (4.0 * x[1] - 3.0)
            e = 10.0 ** (24.0 * x[2] - 30.0) * (1.0 if x[3] < 0.5 else -1.0)
            c4, c3, c2, c1 = 0.0, 0.0, a, -2 * a * r
            c0 = a * r * r + e
        nc, k1, k2, k3 = roots._cubic_roots(4.0 * c4, 3.0 * c3, 2.0 * c2, c1, 0.0, 4.0)
        left = 0.0
        fl = c0
        for k in range(nc + 1):
            right = (k1 if k == 0 else k2 if k == 1 else k3) if k < nc else 4.0
            fr = roots.poly4(c4, c3, c2, c1, c0, right)
            if (fl > 0.0 and fr <= 0.0) or (fl < 0.0 and fr >= 0.0):
                done += 1
                x = roots._bisect(c4, c3, c2, c1, c0, left, right, fl)
                y = roots._crossing(c4, c3, c2, c1, c0, left, right, fl)
                if x != y:
                    bad += 1
            left = right
            fl = fr
    return bad, done


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_the_fast_bisection_is_the_bisection(mode: int) -> None:
    bad, done = _compare(np.random.default_rng(7 + mode).random((60_000, 6)), mode)
    assert done > 30_000
    assert bad == 0
