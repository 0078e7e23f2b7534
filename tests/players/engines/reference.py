#!/usr/bin/env python3
"""A reference program for nineball's engine protocol (docs/engine-protocol.md, version 1).

Standard library only, and written to be read: it is what a program in any language has to do.
It plays simple legal shots: the break at the 1 from the middle of the kitchen, then the lowest
ball by the ghost ball into the pocket with the smallest cut, the cue ball in hand put straight
behind that ball; it never pushes out and always shoots after a push out. It declares one
option, ``speed_scale`` (a factor on the speed of its pots), and logs the value it is given.

    python3 reference.py [--name NAME]
"""

from __future__ import annotations

import json
import math
import sys

PROTOCOL = 1


class Table:
    """What ``new_match`` says of the table."""

    def __init__(self, table: dict) -> None:
        self.width = table["width"]
        self.length = table["length"]
        self.radius = table["ball_radius"]
        self.head_string = table["head_string"]
        self.clearance = table["placement_clearance"]
        self.max_speed = table["limits"]["max_speed"]
        # Aim a little inside the middle of each pocket's mouth.
        self.pockets = []
        for pocket in table["pockets"].values():
            (ax, ay), (bx, by) = pocket["points"]
            cx, cy = pocket["centre"]
            mx, my = (ax + bx) / 2, (ay + by) / 2
            self.pockets.append((mx + 0.3 * (cx - mx), my + 0.3 * (cy - my)))

    def free(self, point: tuple[float, float], balls: dict, kitchen: bool) -> bool:
        """Whether the cue ball in hand may go at ``point``."""
        x, y = point
        r = self.radius
        if not (r <= x <= self.width - r and r <= y <= self.length - r):
            return False
        if kitchen and not y < self.head_string:
            return False
        return all(
            math.dist(point, xy) - 2 * r >= 2 * self.clearance
            for ball, xy in balls.items()
            if ball != "0"
        )


OPTIONS = [{"name": "speed_scale", "type": "float", "default": 1.0, "min": 0.5, "max": 2.0}]
settings = {"speed_scale": 1.0}


def ghost_shot(table: Table, cue: tuple[float, float], target: tuple[float, float]) -> dict:
    """The stroke that sends ``target`` to the pocket with the smallest cut (or hits it full)."""
    r = table.radius
    best = None
    for pocket in table.pockets:
        dx, dy = pocket[0] - target[0], pocket[1] - target[1]
        d = math.hypot(dx, dy)
        ghost = (target[0] - 2 * r * dx / d, target[1] - 2 * r * dy / d)
        gx, gy = ghost[0] - cue[0], ghost[1] - cue[1]
        g = math.hypot(gx, gy)
        if g < 1e-6:
            continue
        cut = math.acos(max(-1.0, min(1.0, (gx * dx + gy * dy) / (g * d))))
        if cut < math.radians(70) and (best is None or cut < best[0]):
            best = (cut, ghost, g + d)
    if best is None:  # no pot: hit the ball full, hard enough to reach a cushion
        aim = math.atan2(target[1] - cue[1], target[0] - cue[0])
        return {"speed": 3.0, "aim_deg": math.degrees(aim)}
    _, ghost, travel = best
    aim = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
    speed = 1.2 + 0.9 * travel / max(0.3, math.cos(best[0]))
    speed = min(table.max_speed, speed * settings["speed_scale"])
    return {"speed": speed, "aim_deg": math.degrees(aim)}


def place(table: Table, balls: dict, target: tuple[float, float], kitchen: bool) -> list[float]:
    """A place for the cue ball in hand: behind the target on a line to a pocket, else any."""
    if kitchen:
        for x in (table.width / 2, table.width / 3, 2 * table.width / 3):
            point = (x, table.head_string - 0.2)
            if table.free(point, balls, kitchen):
                return list(point)
    for pocket in table.pockets:
        dx, dy = target[0] - pocket[0], target[1] - pocket[1]
        d = math.hypot(dx, dy)
        for back in (0.3, 0.5, 0.2):
            point = (target[0] + back * dx / d, target[1] + back * dy / d)
            if table.free(point, balls, kitchen):
                return list(point)
    step = 0.05
    y = table.radius + 0.01
    while y < table.length:
        x = table.radius + 0.01
        while x < table.width:
            if table.free((x, y), balls, kitchen):
                return [x, y]
            x += step
        y += step
    raise RuntimeError("no room for the cue ball")


def shot(table: Table, turn: dict) -> dict:
    """The answer to a ``turn`` whose action is ``shot``."""
    position = turn["position"]
    state, balls = position["state"], position["balls"]
    target = tuple(balls[str(state["lowest"])])
    answer: dict = {"type": "shot", "id": turn["id"]}
    if state["cue_ball"] == "in_place":
        cue = tuple(balls["0"])
    else:
        spot = place(table, balls, target, state["cue_ball"] == "kitchen")
        answer["cue_ball"] = spot
        cue = tuple(spot)
    if state["phase"] == "break":
        aim = math.atan2(target[1] - cue[1], target[0] - cue[0])
        answer.update(speed=8.0, aim_deg=math.degrees(aim))
    else:
        answer.update(ghost_shot(table, cue, target))
    return answer


def main() -> int:
    name = sys.argv[sys.argv.index("--name") + 1] if "--name" in sys.argv else "reference"
    table = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            reply = {
                "type": "hello",
                "protocol": PROTOCOL,
                "name": name,
                "author": "nineball",
                "options": OPTIONS,
            }
        elif kind == "option":
            settings[message["name"]] = message["value"]
            reply = {"type": "log", "text": f"{message['name']} = {message['value']}"}
        elif kind == "new_match":
            table = Table(message["table"])
            reply = None
        elif kind == "ready":
            reply = {"type": "readyok"}
        elif kind == "turn" and message["action"] == "choice":
            reply = {"type": "choice", "id": message["id"], "choice": "shoot"}
        elif kind == "turn" and table is not None:
            reply = shot(table, message)
        elif kind == "quit":
            return 0
        else:  # result, error, option, match_over: nothing to say
            reply = None
        if reply is not None:
            print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
