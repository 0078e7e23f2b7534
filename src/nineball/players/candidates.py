"""The search player's candidates: shots found by geometry, for the lowest ball.

Direct pots aimed by the ghost ball, banks (one cushion, by mirroring the pocket), combinations
(the lowest ball into another), kicks (the cue ball off one cushion; at a hidden ball off one,
two or three, each aim corrected by simulation), safeties (the object ball aimed at points on the
cushions at a sweep of speeds, and thin contacts, the few that leave the opponent least kept,
:func:`safeties`), jumps, and at the top level caroms and kisses (a ball glancing off another by
the 90-degree rule), each at a few speeds and tip heights, and from ``club`` up side spin on the
best direct pots (:func:`with_side`). A pot's aim is corrected by simulation
(:meth:`nineball.players.evaluation.Search.correct_aim`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import TypeVar

from nineball.equipment import BallId, PocketId, Point
from nineball.game import Stroke
from nineball.game.position import Position
from nineball.game.step import ShotOutcome
from nineball.players.aim import cut_angle, ghost_ball, is_path_clear, pocket_aim, routes_clear
from nineball.players.evaluation import Candidate, Search, speed_for
from nineball.players.jump import jump_shots

__all__ = [
    "caroms",
    "diverse",
    "glances",
    "hidden",
    "in_turn",
    "kick_routes",
    "kicks",
    "kicks_and_safeties",
    "mirrors",
    "pots",
    "safeties",
    "safety_zones",
    "with_side",
]

T = TypeVar("T")

KICK_ROUTES = 2
"""Routes of each number of cushions tried for a kick at a hidden ball (the shortest)."""

KICK_LONGEST = 6.0
"""m: the longest route a kick is tried on."""

KICK_POCKET_CLEARANCE = 0.15
"""m: how far from a pocket's centre line a kick's cushion contact must be."""

SAFETY_SPEEDS = (0.15, 0.4, 0.8, 1.3, 2.0)
"""m/s added to the least speed that sends the object ball to its cushion point
(:func:`nineball.players.evaluation.speed_for`): a safety's sweep, from a soft roll to the rail to
a medium stroke that sends the cue ball on."""

SAFETY_KEEP = 6
"""Safeties offered to the search's noisy scoring: the best of the sweep, one zone at a time."""

SAFETY_TRIALS = 3
"""Noisy plays, under the player's own noise, of each swept safety that is one as aimed: a
leave is judged over these too, so that a hook that works only exactly as aimed does not
crowd out a steady one."""

SAFETY_CUT = math.radians(75.0)
"""The thinnest cut a safety aims at a cushion point with (thinner ones are the thin contacts)."""

HOOK_BONUS = 0.1
"""What a safety's leave gains, when the sweep's outcomes are ranked, for hiding the cue ball
from the lowest ball (:func:`hidden`: the opponent must kick)."""

APART_BONUS = 0.05
"""What it gains for the cue ball and the lowest ball a table's width or more apart (less
in proportion)."""

SIDE_MARGIN = 0.05
"""Fraction of R kept inside the miscue limit when side spin is added to a stroke's tip height."""

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
    return in_turn(sorted(by_kind.values(), key=lambda q: -q[0].value), count)


def in_turn(queues: list[list[T]], count: int) -> list[T]:
    """Up to ``count`` items: the first of each queue in turn, then the second of each, ..."""
    out: list[T] = []
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
    paths = [(cue, (ball[0] + k * px, ball[1] + k * py)) for k in (0.0, 1.8 * r, -1.8 * r)]
    return not any(routes_clear([[p] for p in paths], view.layout, (BallId.CUE, target), r))


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


def with_side(search: Search, cue: Point, ranked: list[Candidate]) -> list[Candidate]:
    """Side-spin variants of the best direct pots of ``ranked`` (best first), each aim corrected.

    The level's :attr:`~nineball.players.levels.Level.side_pots` best direct pots without side
    get a variant at each of its :attr:`~nineball.players.levels.Level.sides` (right english
    positive, fraction of R): the same speed, the tip height brought inside the miscue limit
    (less :data:`SIDE_MARGIN`) when the two offsets together would pass it. Side spin turns the
    cue ball's path off a cushion; it also deflects the cue ball (squirt), curves it (swerve) and
    throws the object ball, so each variant's aim is corrected by simulation
    (:meth:`Search.correct_aim`) from its pot's. The variants are new candidates, unscored.
    """
    level, view = search.level, search.view
    if not level.sides or level.side_pots <= 0:
        return []
    limit = view.params.miscue_limit - SIDE_MARGIN
    best = [c for c in ranked if c.kind == "direct" and c.stroke.side == 0.0][: level.side_pots]
    out: list[Candidate] = []
    for pot in best:
        aim = pocket_aim(view.table, PocketId(pot.pocket))
        for side in level.sides:
            room = math.sqrt(max(limit * limit - side * side, 0.0))
            height = max(-room, min(room, pot.stroke.height))
            stroke = replace(pot.stroke, side=side, height=height)
            stroke = search.correct_aim(cue, stroke, BallId(pot.ball), aim)
            out.append(replace(pot, stroke=stroke, value=0.0, success=0.0, foul=0.0, samples=0))
    return out


def safety_zones(view: Position, ball: Point) -> list[tuple[str, Point]]:
    """Points on the cushions to send a safety's object ball (now at ``ball``) to, named.

    Where the ball's centre meets each cushion (R inside it) level with the diamonds, six on
    each long cushion (not the one at the side pocket) and three on each short one, and straight
    across from ``ball`` to each cushion (the shortest roll to it) unless that is within
    :data:`KICK_POCKET_CLEARANCE` of a pocket: an object ball that stops on a cushion away from
    the pockets has no easy pot along it, and any object ball reaching a cushion makes the hit
    legal (clause 8). A point within a millimetre of ``ball`` is left out: the ball is there
    already (frozen to that cushion), and no line leads to it.
    """
    r = view.params.radius
    w, length = view.table.width, view.table.length
    x, y = ball
    zones: list[tuple[str, Point]] = []
    for k in (1, 2, 3, 5, 6, 7):
        zones += [("left", (r, length * k / 8.0)), ("right", (w - r, length * k / 8.0))]
    for k in (1, 2, 3):
        zones += [("head", (w * k / 4.0, r)), ("foot", (w * k / 4.0, length - r))]
    clear = KICK_POCKET_CLEARANCE
    if clear < y < length - clear and abs(y - length / 2.0) > clear:
        zones += [("left", (r, y)), ("right", (w - r, y))]
    if clear < x < w - clear:
        zones += [("head", (x, r)), ("foot", (x, length - r))]
    return [(name, zone) for name, zone in zones if math.dist(zone, ball) > 0.001]


def safeties(search: Search, cue: Point) -> list[Candidate]:
    """Safeties at the lowest ball: aimed at zones on the cushions, at a sweep of speeds.

    The object ball is sent to each point of :func:`safety_zones` it can reach by a clear line,
    the cue ball reaching its ghost ball by another at a cut of at most :data:`SAFETY_CUT`, at
    each speed of :data:`SAFETY_SPEEDS`; with them, the blind contacts of before (aimed a half
    and 0.85 of the way from a full hit to a miss, either side, soft and medium), thin hits
    that send the cue ball on. Every stroke is played once without noise, in one batch. An
    outcome that fouls is no safety, and one that pockets a ball is a pot (the pots are searched
    as such): both are dropped. The rest are played :data:`SAFETY_TRIALS` times more under the
    player's noise and ranked by what they leave the opponent on average (:func:`_leave_merit`):
    the level's value of the leave (:meth:`Search.value_of`), and, as that value cannot tell one
    shotless leave from another, :data:`HOOK_BONUS` for a hook and up to :data:`APART_BONUS` for
    distance. The best of each zone in turn, :data:`SAFETY_KEEP` in all, are the candidates; the
    search's noisy scoring chooses among them and the other shots.
    """
    view = search.view
    r = view.params.radius
    target = view.state.lowest
    ball = view.layout[target]
    skip = (BallId.CUE, target)
    tried: list[tuple[str, Stroke]] = []
    aimed: list[tuple[str, Point, Point, float]] = []  # the cuts that may do, lines not checked
    for cushion, zone in safety_zones(view, ball):
        ghost = ghost_ball(ball, zone, r)
        cut = cut_angle(cue, ghost, ball, zone)
        if cut <= SAFETY_CUT:
            aimed.append((cushion, zone, ghost, cut))
    clear = routes_clear(
        [((cue, ghost), (ball, zone)) for _, zone, ghost, _ in aimed], view.layout, skip, r
    )
    for (cushion, zone, ghost, cut), ok in zip(aimed, clear, strict=True):
        if not ok:
            continue
        phi = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
        distance, travel = math.dist(ball, zone), math.dist(cue, ghost)
        for extra in SAFETY_SPEEDS:
            speed = speed_for(distance, cut, extra, travel)
            tried.append((f"{cushion} {zone[0]:.2f} {zone[1]:.2f}", Stroke(speed=speed, aim=phi)))
    distance = math.dist(cue, ball)
    base = math.atan2(ball[1] - cue[1], ball[0] - cue[0])
    spread = math.asin(min(1.0, 2.0 * r / max(distance, 2.0 * r)))
    for fraction in (-0.85, -0.5, 0.5, 0.85):
        for speed in (0.8 + 0.5 * distance, 1.6 + 0.8 * distance):
            stroke = Stroke(speed=min(speed, 6.0), aim=base + fraction * spread)
            tried.append((f"thin {fraction}", stroke))
    outcomes = search.play_all(cue, [stroke for _, stroke in tried])
    # As aimed, a safety must be legal and pocket nothing (else it is a foul, or a pot).
    legal = [
        (name, stroke, _leave_merit(search, outcome))
        for (name, stroke), outcome in zip(tried, outcomes, strict=True)
        if outcome is not None
        and not outcome.ruling.fouls
        and not outcome.facts.pocketed
        and outcome.ruling.game_over is None
    ]
    noise = search.noise
    trials = 0 if noise is None else SAFETY_TRIALS
    noisy = (
        []
        if noise is None
        else [noise.apply(s, search.rng, view.params) for _, s, _ in legal for _ in range(trials)]
    )
    played = search.play_all(cue, noisy) if noisy else []
    ranked: dict[str, list[tuple[float, Stroke]]] = {}
    for k, (name, stroke, merit) in enumerate(legal):
        mine = played[k * trials : (k + 1) * trials]
        mean = (merit + sum(_leave_merit(search, o) for o in mine)) / (1 + trials)
        ranked.setdefault(name, []).append((mean, stroke))
    queues = sorted(
        (sorted(q, key=lambda m: -m[0]) for q in ranked.values()), key=lambda q: -q[0][0]
    )
    kept = [stroke for _, stroke in in_turn(queues, SAFETY_KEEP)]
    return [
        Candidate(
            kind="safety",
            stroke=stroke,
            target=f"safety on the {int(target)}",
            ball=int(target),
            safety=True,
        )
        for stroke in kept
    ]


def _leave_merit(search: Search, outcome: ShotOutcome | None) -> float:
    """What a safety's outcome is worth to the shooter, as :func:`safeties` ranks them.

    The level's value of it (:meth:`Search.value_of`; a stroke the physics refuses is -1), and
    for a leave with the opponent to shoot :data:`HOOK_BONUS` for a hook and up to
    :data:`APART_BONUS` for distance.
    """
    if outcome is None:
        return -1.0
    merit = search.value_of(outcome)
    after = outcome.after
    if (
        outcome.ruling.fouls
        or outcome.ruling.game_over is not None
        or after.state.to_act == search.view.state.to_act
    ):
        return merit
    there = after.layout.get(BallId.CUE)
    lowest = after.state.lowest
    if there is None or lowest not in after.layout:
        return merit
    if hidden(after, there, lowest):
        merit += HOOK_BONUS
    apart = math.dist(there, after.layout[lowest]) / after.table.width
    return merit + APART_BONUS * min(apart, 1.0)


def kicks_and_safeties(search: Search, cue: Point) -> list[Candidate]:
    """Kicks, safeties and jumps at the lowest ball, and always a plain full hit."""
    view, level = search.view, search.level
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
        out += safeties(search, cue)
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
