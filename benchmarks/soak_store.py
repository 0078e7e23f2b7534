"""Soak the store and the record commands with hostile input; figures, never a pass/fail test.

Run: ``python benchmarks/soak_store.py [--databases N] [--records N] [--trials K]`` from the
project's root with its venv (``PYTHONPATH=src:.``, the damage and mutation helpers are the
tests' own: ``tests/game/test_store_hardening.py`` and ``tests/cli/test_hardening_cli.py``).

* **damaged databases**: N copies of a real database, each damaged at random (a truncation at a
  random offset, random bytes written over it, a file of random bytes, random row edits), read
  through the Store API and through ``nineball stats``, ``export`` and ``resume``. Reported:
  tracebacks (any exception but a ``NineballError``; any "Traceback" in a command's output) and
  changed files (a refused file whose bytes changed).
* **mutated records**: N mutations of a physics record (one field of an entry set to a random
  value or type) through ``read_record`` + ``replay`` and ``nineball replay``. Reported:
  tracebacks.
* **concurrent resumes**: K trials of two processes resuming the same stored match and playing
  entries as fast as they can, each resuming again when its write is refused. Reported:
  corruptions (the stored match does not replay, shot numbers with a gap or a double) and lost
  entries (stored entries other than the sum of the writes each process saw succeed).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

from rich.console import Console
from tests.cli.test_hardening_cli import STROKES, mutate_record
from tests.game.test_store_hardening import _every_read, _miss, _real_db, damage_db

from nineball.cli import main
from nineball.cli.records import replay_record
from nineball.errors import ConcurrentWriteError, DatabaseError, NineballError
from nineball.game import Language
from nineball.game.match import replay
from nineball.game.record import InvalidRecordError
from nineball.game.record_read import read_record
from nineball.game.recorder import MatchRecorder
from nineball.game.saved import SavedMatch
from nineball.game.store import Store
from nineball.rules import MatchConfig


def _command(args: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO("q\n"), out, err
    try:
        code = main(args)
    finally:
        sys.stdin, sys.stdout, sys.stderr = old
    return code, out.getvalue() + err.getvalue()


def soak_databases(n: int, rng: random.Random, folder: Path) -> dict[str, int]:
    good = _real_db(folder / "good.db")
    figures = {"databases": n, "refused": 0, "answered": 0, "tracebacks": 0, "changed files": 0}
    for i in range(n):
        path = folder / f"damaged-{i}.db"
        kind = rng.choice(["truncate", "bytes", "random", "row"])
        damage_db(path, good, kind, rng.randrange(2**31), rng.randint(1, 8), rng.randbytes(4))
        before = path.read_bytes()
        try:
            _every_read(path)
            figures["answered"] += 1
        except DatabaseError:
            figures["refused"] += 1
            figures["changed files"] += path.read_bytes() != before
        except NineballError:
            figures["answered"] += 1
        except Exception:
            figures["tracebacks"] += 1
            traceback.print_exc()
        for args in (["stats"], ["export"], ["resume"]):
            before = path.read_bytes()
            try:
                code, out = _command([*args, "--db", str(path)])
            except Exception:
                figures["tracebacks"] += 1
                traceback.print_exc()
                continue
            if "Traceback" in out:
                figures["tracebacks"] += 1
            if code != 0 and "database" in out:
                figures["changed files"] += path.read_bytes() != before
        for extra in ("", "-wal", "-shm"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
    return figures


def soak_records(n: int, rng: random.Random, folder: Path) -> dict[str, int]:
    base = json.loads(STROKES.read_text())
    values: list[object] = [None, True, "x", [], {}, -1, 0, 1e308, -1e308, float("nan"), 25.0]
    figures = {"records": n, "problems": 0, "played": 0, "tracebacks": 0}
    for i in range(n):
        value = rng.choice([rng.uniform(-30, 30), rng.choice(values), rng.randint(-9, 99)])
        doc = mutate_record(base, rng.randrange(10**6), 0, value)
        path = folder / f"record-{i}.json"
        path.write_text(json.dumps(doc))
        try:
            record, problems = read_record(path.read_text())
            if record is not None and not problems:
                with contextlib.suppress(InvalidRecordError):
                    list(replay(record))
            code = replay_record(Console(file=io.StringIO()), path, Language.EN)
            figures["problems" if code else "played"] += 1
            code, out = _command(["replay", str(path)])
            figures["tracebacks"] += "Traceback" in out
        except Exception:
            figures["tracebacks"] += 1
            traceback.print_exc()
        path.unlink()
    return figures


def _writer(path: str, match_id: int, entries: int, start: object, done: object) -> None:
    start.wait()  # type: ignore[attr-defined]
    played = refused = 0
    with Store(path) as store:
        match = SavedMatch.resume(store, match_id)
        for _ in range(entries):
            try:
                match.play(_miss(match))
                played += 1
            except ConcurrentWriteError:
                refused += 1
                match = SavedMatch.resume(store, match_id)
    done.put((played, refused))  # type: ignore[attr-defined]


def soak_concurrent(k: int, entries: int, folder: Path) -> dict[str, int]:
    figures = {"trials": k, "entries played": 0, "refused writes": 0, "corruptions": 0,
               "lost or doubled entries": 0}  # fmt: skip
    ctx = mp.get_context("fork")
    for t in range(k):
        path = folder / f"race-{t}.db"
        with Store(path) as store:
            match_id = SavedMatch.start(store, MatchConfig(players=("Ann", "Bob"))).match_id
        start, done = ctx.Barrier(2), ctx.Queue()
        procs = [
            ctx.Process(target=_writer, args=(str(path), match_id, entries, start, done))
            for _ in range(2)
        ]
        for proc in procs:
            proc.start()
        results = [done.get(timeout=120) for _ in procs]
        for proc in procs:
            proc.join()
        played = sum(p for p, _ in results)
        figures["entries played"] += played
        figures["refused writes"] += sum(r for _, r in results)
        with Store(path) as store:
            try:
                record = store.load(match_id)
                ok = MatchRecorder.resume(record).record == record
                numbers = [r[0] for r in store._db.execute("SELECT number FROM shots ORDER BY id")]
                ok = ok and numbers == list(range(len(numbers)))
            except NineballError:
                ok, record = False, None
            figures["corruptions"] += not ok
            stored = 0 if record is None else sum(len(g.shots) for g in record.games)
            figures["lost or doubled entries"] += abs(stored - played)
    return figures


def main_soak() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--databases", type=int, default=200)
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--entries", type=int, default=40, help="entries per process per trial")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, run in (
            ("damaged databases", lambda: soak_databases(args.databases, rng, folder)),
            ("mutated records", lambda: soak_records(args.records, rng, folder)),
            ("concurrent resumes", lambda: soak_concurrent(args.trials, args.entries, folder)),
        ):
            t0 = time.perf_counter()
            figures = run()
            print(f"{name}: {figures} in {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main_soak()
