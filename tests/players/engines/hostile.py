#!/usr/bin/env python3
"""Hostile programs for nineball's engine protocol: each breaks the protocol one way.

    python3 hostile.py MODE

Modes (docs/engine-protocol.md, "Faults", says what each costs):

- ``garbage``: answers every turn with a line that is not JSON;
- ``wrong_json``: answers with JSON that is not an answer (an array, a shot without its fields);
- ``range``: answers with a stroke at 50 m/s;
- ``placement``: puts the cue ball on top of the lowest ball when it has it in hand, and names
  a place for it when it does not have it in hand;
- ``out_of_turn``: plays like the reference program, and after every result writes an answer
  to a turn never asked and a ``readyok`` nobody asked for;
- ``hang``: never answers a turn;
- ``slow``: answers every turn a second late;
- ``crash``: plays two turns, then exits with status 3;
- ``flood``: writes 5000 log lines at its first turn;
- ``huge``: answers its first turn with a line of 200,000 bytes, then plays well;
- ``binary``: answers with bytes that are not UTF-8;
- ``no_hello``: prints a banner and never says hello;
- ``old``: says hello in protocol 2;
- ``deaf``: says hello, then stops reading its input and sleeps.
"""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import reference


def say(obj: object) -> None:
    print(json.dumps(obj), flush=True)


def main() -> int:
    mode = sys.argv[1]
    table = None
    turns = 0
    if mode == "no_hello":
        print("HostileBot 1.0 ready to rumble", flush=True)
        time.sleep(3600)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            say({"type": "hello", "protocol": 2 if mode == "old" else 1, "name": mode})
            if mode == "deaf":
                time.sleep(3600)
            continue
        if kind == "new_match":
            table = reference.Table(message["table"])
        elif kind == "ready":
            say({"type": "readyok"})
        elif kind == "quit":
            return 0
        elif kind == "result" and mode == "out_of_turn":
            say({"type": "shot", "id": 10_000, "speed": 1.0, "aim_deg": 0.0})
            say({"type": "readyok"})
        elif kind == "turn":
            turns += 1
            turn(mode, message, table, turns)
    return 0


def turn(mode: str, message: dict, table: reference.Table | None, turns: int) -> None:
    ident = message["id"]
    good = (
        {"type": "choice", "id": ident, "choice": "shoot"}
        if message["action"] == "choice"
        else reference.shot(table, message)
    )
    if mode == "garbage":
        print("this is not JSON {", flush=True)
    elif mode == "wrong_json":
        say([1, 2, 3] if turns % 2 else {"type": "shot", "id": ident, "speed": "fast"})
    elif mode == "range":
        say({**good, "speed": 50.0} if good["type"] == "shot" else good)
    elif mode == "placement":
        state = message["position"]["state"]
        balls = message["position"]["balls"]
        if good["type"] == "shot":
            good["cue_ball"] = balls[str(state["lowest"])]
        say(good)
    elif mode == "hang":
        time.sleep(3600)
    elif mode == "slow":
        time.sleep(1.0)
        say(good)
    elif mode == "crash":
        if turns > 2:
            print("HostileBot: segmentation fault (core dumped)", file=sys.stderr, flush=True)
            sys.exit(3)
        say(good)
    elif mode == "flood":
        for k in range(5000):
            say({"type": "log", "text": f"thinking {k}"})
        say(good)
    elif mode == "huge" and turns == 1:
        say({"type": "log", "text": "x" * 200_000})
        say(good)
    elif mode == "binary":
        sys.stdout.buffer.write(b'\xff\xfe{"type": "shot"}\n')
        sys.stdout.buffer.flush()
    else:  # out_of_turn, huge after its first turn
        say(good)


if __name__ == "__main__":
    sys.exit(main())
