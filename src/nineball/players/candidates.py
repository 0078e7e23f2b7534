"""The search player's candidates: shots found by geometry, for the lowest ball.

Direct pots aimed by the ghost ball, banks (one cushion, by mirroring the pocket), combinations
(the lowest ball into another), kicks (the cue ball off one cushion; at a hidden ball off one,
two or three, each aim corrected by simulation), safeties (thin and soft
contacts), jumps, and at the top level caroms and kisses (a ball glancing off another by the
90-degree rule), each at a few speeds and tip heights. A pot's aim is corrected by simulation
(:meth:`nineball.players.evaluation.Search.correct_aim`).
"""

from __future__ import annotations

import itertools
import math

from nineball.equipment import BallId, PocketId, Point
from nineball.game import Stroke
from nineball.game.position import Position
from nineball.players.aim import cut_angle, ghost_ball, is_path_clear, pocket_aim
from nineball.players.evaluation import Candidate, Search, speed_for
from nineball.players.jump import jump_shots

__all__ = [
    "caroms",
    "diverse",
    "glances",
    "hidden",
    "kick_routes",
    "kicks",
    "kicks_and_safeties",
    "mirrors",
    "pots",
]

KICK_ROUTES = 2
"""Routes of each number of cushions tried for a kick at a hidden ball (the shortest)."""

KICK_LONGEST = 6.0
"""m: the longest route a kick is tried on."""

KICK_POCKET_CLEARANCE = 0.15
"""m: how far from a pocket's centre line a kick's cushion contact must be."""

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


def hidden(view: Position, cue: Point, target: BallId) -> bool:
    """Whether the cue ball cannot reach ``target`` in a straight line: full, or either side.

    The cue ball's centre is sent at the ball's centre and at points 1.8 R to either side of
    it (a thin hit): every one of the three paths is blocked by another ball. Stricter than
    :func:`nineball.players.jump.is_hidden` (the full line alone blocked, when a jump is tried):
    kicks round the table are for a ball that no straight stroke can touch.
    """
    r = view.params.radius
    ball = view.layout[target]
    dx, dy = ball[0] - cue[0], ball[1] - cue[1]
    d = math.hypot(dx, dy)
    if d == 0.0:
        return False
    px, py = -dy / d, dx / d
    skip = (BallId.CUE, target)
    return not any(
        is_path_clear(cue, (ball[0] + k * px, ball[1] + k * py), view.layout, skip, r)
        for k in (0.0, 1.8 * r, -1.8 * r)
    )


def kick_routes(
    view: Position, cue: Point, target: BallId, rails: int
) -> list[tuple[float, float]]:
    """Mirror routes of the cue ball to ``target`` off ``rails`` cushions: (aim, length) each.

    Each order of cushions (no cushion twice in a row) gives an image of the ball, mirrored
    in the lines a ball's centre bounces on; the route aimed at the image is traced on the
    table and kept when it meets the cushions in that order, each contact at least
    :data:`KICK_POCKET_CLEARANCE` from a pocket, its legs clear of the other balls, and it is
    at most :data:`KICK_LONGEST` long. Shortest first.
    """
    r = view.params.radius
    w, length = view.table.width, view.table.length
    lines = (r, w - r, r, length - r)  # x = left, x = right, y = head, y = foot
    ball = view.layout[target]
    routes: list[tuple[float, float]] = []
    for order in itertools.product(range(4), repeat=rails):
        if any(a == b for a, b in itertools.pairwise(order)):
            continue
        image = ball
        for line in reversed(order):
            image = _reflect(image, line, lines[line])
        aim = math.atan2(image[1] - cue[1], image[0] - cue[0])
        traced = _trace(view, cue, target, aim, order, lines)
        if traced is not None and traced <= KICK_LONGEST:
            routes.append((aim, traced))
    routes.sort(key=lambda route: route[1])
    return routes


def _reflect(point: Point, line: int, at: float) -> Point:
    x, y = point
    return (2.0 * at - x, y) if line < 2 else (x, 2.0 * at - y)


def _trace(
    view: Position,
    cue: Point,
    target: BallId,
    aim: float,
    order: tuple[int, ...],
    lines: tuple[float, ...],
) -> float | None:
    """The length of a kick's route, None when it fails (:func:`kick_routes`).

    From ``cue`` at ``aim``, off the cushions of ``order``, to ``target``: None when it meets
    another cushion first, passes a pocket, or a ball is in the way.
    """
    r = view.params.radius
    w, length = view.table.width, view.table.length
    ball = view.layout[target]
    x, y = cue
    dx, dy = math.cos(aim), math.sin(aim)
    total = 0.0
    for line in order:
        best, hit = math.inf, -1
        for k, at in enumerate(lines):
            step = dx if k < 2 else dy
            if step == 0.0:
                continue
            t = ((at - x) if k < 2 else (at - y)) / step
            if 1e-9 < t < best:
                best, hit = t, k
        if hit != line:
            return None
        nx, ny = x + best * dx, y + best * dy
        along, side = (ny, length) if line < 2 else (nx, w)
        near_corner = min(along, side - along) < KICK_POCKET_CLEARANCE
        near_side = line < 2 and abs(along - side / 2.0) < KICK_POCKET_CLEARANCE
        if near_corner or near_side:
            return None
        if not is_path_clear((x, y), (nx, ny), view.layout, (BallId.CUE,), r):
            return None
        total += best
        x, y = nx, ny
        dx, dy = (-dx, dy) if line < 2 else (dx, -dy)
    # the last leg: straight at the ball, ahead, before any cushion
    t = (ball[0] - x) * dx + (ball[1] - y) * dy
    if t <= 0.0 or not is_path_clear((x, y), (x + t * dx, y + t * dy), view.layout,
                                     (BallId.CUE, target), r):  # fmt: skip
        return None
    return total + t


def kicks(search: Search, cue: Point) -> list[Candidate]:
    """Kicks at a hidden lowest ball off one, two and three cushions, each aim corrected.

    The shortest :data:`KICK_ROUTES` routes of each number of cushions (:func:`kick_routes`),
    at two speeds each; every stroke's aim is found by simulation near the mirror's
    (:meth:`Search.aim_kick`), and a stroke that finds none is dropped.
    """
    view = search.view
    target = view.state.lowest
    out: list[Candidate] = []
    for rails in (1, 2, 3):
        for aim, travel in kick_routes(view, cue, target, rails)[:KICK_ROUTES]:
            for speed in (1.2 + 0.6 * travel + 0.4 * rails, 2.0 + 0.9 * travel + 0.4 * rails):
                aimed = search.aim_kick(cue, Stroke(speed=min(speed, 8.0), aim=aim), target)
                if aimed is None:
                    continue
                out.append(
                    Candidate(
                        kind="kick",
                        stroke=aimed,
                        target=f"kick at the {int(target)} off {rails} "
                        + ("cushion" if rails == 1 else "cushions"),
                        ball=int(target),
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
        if hidden(view, cue, target):
            out += kicks(search, cue)
        else:
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
