"""Pocket capture, jaws and facings, with the real WPA geometry."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball.equipment import PocketId
from nineball.physics import BallInput, EventKind, Stroke, Trajectory, nine_foot, simulate

W, L, R = 1.270, 2.540, 0.028575


def shot(r: tuple[float, float], target: tuple[float, float], speed: float = 1.5) -> Trajectory:
    aim = math.atan2(target[1] - r[1], target[0] - r[0])
    return simulate([BallInput(id=0, r=r)], stroke=Stroke(speed=speed, aim=aim))


def contacts(tr: Trajectory) -> list[str]:
    return [
        e.cushion if e.kind is EventKind.CUSHION else f"pocket:{e.pocket}"
        for e in tr.events()
        if e.kind in (EventKind.CUSHION, EventKind.POCKET)
    ]


def test_straight_into_corner_and_side() -> None:
    assert contacts(shot((0.9, 2.2), (W, L))) == ["pocket:foot_right"]
    assert contacts(shot((0.9, 1.27), (W, 1.27))) == ["pocket:side_right"]
    assert contacts(shot((0.3, 0.3), (0.0, 0.0))) == ["pocket:head_left"]


@pytest.mark.parametrize("speed", [0.8, 1.5, 3.0])
def test_ball_frozen_to_the_rail_runs_into_the_corner(speed: float) -> None:
    tr = shot((0.6, L - R), (W, L - R), speed=speed)
    assert contacts(tr) == ["pocket:foot_right"]


def test_a_ball_can_rattle_in_the_jaws_and_miss() -> None:
    tr = shot((0.9, 1.0), (W, 1.27 + 0.05))
    seen = contacts(tr)
    assert seen[0] == "side_right_jaw_b"
    assert not any(s.startswith("pocket") for s in seen)
    final = tr.final_states()[0]
    assert final.pocket is None


def test_a_ball_hitting_the_facing_can_still_drop() -> None:
    seen = contacts(shot((0.9, 1.0), (W, 1.27 + 0.03)))
    assert seen[0] == "side_right_facing_b"
    assert seen[-1] == "pocket:side_right"


def test_pocketed_ball_is_final_pocketed() -> None:
    tr = shot((0.9, 2.2), (W, L))
    final = tr.final_states()[0]
    assert final.pocket is PocketId.FOOT_RIGHT
    assert final.motion.wire_name == "pocketed"
    assert tr.facts().pocketed == (0,)


def test_pocket_geometry_capture_lines_behind_the_mouths() -> None:
    t = nine_foot()
    for k, pocket in enumerate(PocketId):
        ox, oy, c, mx, my, half = t.captures[k]
        pa, pb = t.points[k]
        mouth_mid = (pa + pb) / 2
        depth = c - (ox * mouth_mid[0] + oy * mouth_mid[1])
        side = pocket in (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT)
        assert depth == pytest.approx(t.side_shelf if side else t.corner_shelf)
        assert half == pytest.approx(t.mouth(pocket) / 2)
        assert np.hypot(mx, my) >= 0.0


def test_pro_pockets_are_tighter() -> None:
    pro = nine_foot(pro_pockets=True)
    std = nine_foot()
    assert pro.mouth(PocketId.FOOT_LEFT) < std.mouth(PocketId.FOOT_LEFT)
    # an offset that drops on the standard table rattles out of the pro pocket
    aim = (W, 1.27 + 0.04)
    r = (0.9, 1.0)
    heading = math.atan2(aim[1] - r[1], aim[0] - r[0])
    balls = [BallInput(id=0, r=r)]
    s = Stroke(speed=1.5, aim=heading)
    assert simulate(balls, stroke=s, table=std).facts().pocketed == (0,)
    assert simulate(balls, stroke=s, table=pro).facts().pocketed == ()
