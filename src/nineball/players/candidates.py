"""The search player's candidates: shots found by geometry, for the lowest ball.

Direct pots aimed by the ghost ball, banks (one cushion, by mirroring the pocket), combinations
(the lowest ball into another), kicks (the cue ball off one cushion), safeties (thin and soft
contacts), jumps, and at the top level caroms and kisses (a ball glancing off another by the
90-degree rule), each at a few speeds and tip heights. A pot's aim is corrected by simulation
(:meth:`nineball.players.evaluation.Search.correct_aim`).
"""

from __future__ import annotations

import math

from nineball.equipment import BallId, PocketId, Point
from nineball.game import Stroke
from nineball.game.position import Position
from nineball.players.aim import cut_angle, ghost_ball, is_path_clear, pocket_aim
from nineball.players.evaluation import Candidate, Search, speed_for
from nineball.players.jump import jump_shots

__all__ = ["caroms", "diverse", "glances", "kicks_and_safeties", "mirrors", "pots"]

ROUTE_EXTRA = {"bank": 0.5, "kiss": 0.5, "combo": 0.3}
"""m/s added to the base speed of a route for what it takes on the way: a cushion about half
of the ball's speed, a glancing contact or a second ball a share of it."""


def glances(centre: Point, towards: Point, start: Point, r: float) -> list[Point]:
    """Where a ball from ``start`` must touch the ball at ``centre`` to glance toward ``towards``.

    It leaves at right angles to the line of centres (the 90-degree rule).
    """
    d = math.dist(centre, towards)
    if d <= 2.0 * r:
        return []
    ux, uy = (towards[0] - centre[0]) / d, (towards[1] - centre[1]) / d
    cos_a = 2.0 * r / d
    sin_a = math.sqrt(1.0 - cos_a * cos_a)
    out = []
    for sign in (1.0, -1.0):
        cx = centre[0] + 2.0 * r * (cos_a * ux - sign * sin_a * uy)
        cy = centre[1] + 2.0 * r * (cos_a * uy + sign * sin_a * ux)
        inx, iny = cx - start[0], cy - start[1]
        # Coming in, it must strike the ball and carry on toward the target side.
        hits = inx * (centre[0] - cx) + iny * (centre[1] - cy) > 0.0
        onward = inx * (towards[0] - cx) + iny * (towards[1] - cy) > 0.0
        if hits and onward:
            out.append((cx, cy))
    return out


def diverse(ranked: list[Candidate], count: int) -> list[Candidate]:
    """Up to ``count`` of ``ranked`` (best first), taken in turn from each kind of shot."""
    by_kind: dict[str, list[Candidate]] = {}
    for candidate in ranked:
        by_kind.setdefault(candidate.kind, []).append(candidate)
    queues = sorted(by_kind.values(), key=lambda q: -q[0].value)
    out: list[Candidate] = []
    depth = 0
    while len(out) < count and any(depth < len(q) for q in queues):
        for queue in queues:
            if depth < len(queue) and len(out) < count:
                out.append(queue[depth])
        depth += 1
    return out


def mirrors(view: Position, point: Point) -> list[Point]:
    """``point`` reflected in the four lines a ball's centre bounces on (R inside each cushion)."""
    r = view.params.radius
    x, y = point
    w, length = view.table.width, view.table.length
    return [(2 * r - x, y), (2 * (w - r) - x, y), (x, 2 * r - y), (x, 2 * (length - r) - y)]


def pots(search: Search, cue: Point) -> list[Candidate]:
    """Pots of the lowest ball by every route the level knows, each aim corrected."""
    view, level = search.view, search.level
    r = view.params.radius
    target = view.state.lowest
    ball = view.layout[target]
    out: list[Candidate] = []
    others = [b for b in view.layout if b not in (BallId.CUE, target)]
    for pocket in PocketId:
        aim = pocket_aim(view.table, pocket)
        routes: list[tuple[str, Point, BallId | None, Point]] = []
        if "direct" in level.kinds:
            routes.append(("direct", aim, None, aim))
        if "bank" in level.kinds:
            for mirror in mirrors(view, aim):
                if math.dist(mirror, aim) > 0.25:  # not the cushion beside the pocket
                    routes.append(("bank", mirror, None, aim))
        if "combo" in level.kinds:
            for other in others:
                second = view.layout[other]
                ghost2 = ghost_ball(second, aim, r)
                if cut_angle(ball, ghost2, second, aim) < math.radians(50):
                    routes.append(("combo", ghost2, other, aim))
        if "carom" in level.kinds:
            # A kiss: the lowest ball glances off another ball into the pocket (it leaves
            # the contact at right angles to the line of centres).
            for other in others:
                for contact in glances(view.layout[other], aim, ball, r):
                    routes.append(("kiss", contact, other, aim))
        for kind, via, second_ball, final in routes:
            ghost = ghost_ball(ball, via, r)
            cut = cut_angle(cue, ghost, ball, via)
            if cut > math.radians(78):
                continue
            skip = (
                (BallId.CUE, target) if second_ball is None else (BallId.CUE, target, second_ball)
            )
            if not is_path_clear(cue, ghost, view.layout, skip, r):
                continue
            if kind == "direct" and not is_path_clear(ball, aim, view.layout, skip, r):
                continue
            distance = math.hypot(via[0] - ball[0], via[1] - ball[1]) + (
                math.hypot(final[0] - via[0], final[1] - via[1]) if kind != "direct" else 0.0
            )
            phi = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
            label = f"{int(target)} in {pocket.value}" + (
                ""
                if second_ball is None
                else f" off the {int(second_ball)}"
                if kind == "kiss"
                else f" via the {int(second_ball)}"
            )
            travel = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
            route = ROUTE_EXTRA.get(kind, 0.0)
            for extra in level.speeds:
                speed = speed_for(distance, cut, extra + route, travel)
                for height in level.spins:
                    stroke = Stroke(speed=speed, aim=phi, height=height)
                    # Throw depends on the speed and on the cue ball's spin at contact
                    # (up to a few degrees): each variant gets its own aim, starting from
                    # the last one found, that sends the ball toward the pocket, the mirror
                    # point of the bank or the ghost ball of the combination. (A kiss turns
                    # on the second contact's own throw: its ghost-ball aim is kept.)
                    if kind != "kiss":
                        stroke = search.correct_aim(cue, stroke, target, via)
                        phi = stroke.aim
                    out.append(
                        Candidate(
                            kind=kind,
                            stroke=stroke,
                            target=label,
                            ball=int(target),
                            pocket=pocket.value,
                            other=0 if second_ball is None else int(second_ball),
                        )
                    )
    if "carom" in level.kinds:
        out += caroms(search, cue)
    return out


def caroms(search: Search, cue: Point) -> list[Candidate]:
    """The cue ball glances off the lowest ball into another ball, which it pots."""
    view, level = search.view, search.level
    r = view.params.radius
    target = view.state.lowest
    ball = view.layout[target]
    out: list[Candidate] = []
    for other in view.layout:
        if other in (BallId.CUE, target):
            continue
        second = view.layout[other]
        for pocket in PocketId:
            aim = pocket_aim(view.table, pocket)
            if not is_path_clear(second, aim, view.layout, (other,), r):
                continue
            ghost = ghost_ball(second, aim, r)
            for contact in glances(ball, ghost, cue, r):
                skip = (BallId.CUE, target, other)
                if not (
                    is_path_clear(cue, contact, view.layout, (BallId.CUE, target), r)
                    and is_path_clear(contact, ghost, view.layout, skip, r)
                ):
                    continue
                phi = math.atan2(contact[1] - cue[1], contact[0] - cue[0])
                travel = math.dist(cue, contact) + math.dist(contact, ghost)
                for extra in level.speeds[:2]:
                    speed = speed_for(travel + math.dist(second, aim), 1.0, extra)
                    for height in (0.0, -0.3):  # stun or a little draw: the 90-degree line
                        out.append(
                            Candidate(
                                kind="carom",
                                stroke=Stroke(speed=speed, aim=phi, height=height),
                                target=f"{int(other)} in {pocket.value} off the {int(target)}",
                                ball=int(other),
                                pocket=pocket.value,
                                other=int(target),
                            )
                        )
    return out


def kicks_and_safeties(search: Search, cue: Point) -> list[Candidate]:
    """Kicks, safeties and jumps at the lowest ball, and always a plain full hit."""
    view, level = search.view, search.level
    r = view.params.radius
    target = view.state.lowest
    ball = view.layout[target]
    out: list[Candidate] = []
    distance = math.hypot(ball[0] - cue[0], ball[1] - cue[1])
    if "kick" in level.kinds:
        for mirror in mirrors(view, ball):
            phi = math.atan2(mirror[1] - cue[1], mirror[0] - cue[0])
            length = math.hypot(mirror[0] - cue[0], mirror[1] - cue[1])
            for speed in (1.2 + 0.6 * length, 2.0 + 0.9 * length):
                out.append(
                    Candidate(
                        kind="kick",
                        stroke=Stroke(speed=min(speed, 8.0), aim=phi),
                        target=f"kick at the {int(target)}",
                        ball=int(target),
                    )
                )
    if "safety" in level.kinds:
        base = math.atan2(ball[1] - cue[1], ball[0] - cue[0])
        spread = math.asin(min(1.0, 2.0 * r / max(distance, 2.0 * r)))
        for fraction in (-0.85, -0.5, 0.5, 0.85):
            for speed in (0.8 + 0.5 * distance, 1.6 + 0.8 * distance):
                out.append(
                    Candidate(
                        kind="safety",
                        stroke=Stroke(speed=min(speed, 6.0), aim=base + fraction * spread),
                        target=f"safety on the {int(target)}",
                        ball=int(target),
                        safety=True,
                    )
                )
    if "jump" in level.kinds:
        out += [
            Candidate(kind="jump", stroke=j.stroke, target=j.target, ball=j.ball, pocket=j.pocket)
            for j in jump_shots(view, cue)
        ]
    # Always: a plain full hit, so that there is something legal to play.
    full = Stroke(
        speed=min(1.5 + distance, 6.0), aim=math.atan2(ball[1] - cue[1], ball[0] - cue[0])
    )
    out.append(
        Candidate(kind="hit", stroke=full, target=f"hit the {int(target)}", ball=int(target))
    )
    return out
