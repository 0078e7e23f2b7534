"""Batch commands (tournament, breaks, ladder, realism): saved runs, resumes, stops, clusters."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from nineball.cli import main
from nineball.players.runs import RunStore

TOURNAMENT = ["tournament", "--players", "ghost,beginner", "--games", "4", "--seed", "7"]


def _json_run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[dict[str, Any], str]:
    assert main([*args, "--format", "json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def _stop_after(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Press Ctrl-C as the ``games``-th game of the next run finishes."""
    import nineball.cli.batch as batch

    play_run = batch.play_run

    def interrupted(*args: Any, on_result: Callable[[int, Any], None], **kwargs: Any) -> Any:
        seen = 0

        def count(index: int, result: Any) -> None:
            nonlocal seen
            on_result(index, result)
            seen += 1
            if seen == games:
                raise KeyboardInterrupt

        return play_run(*args, on_result=count, **kwargs)

    monkeypatch.setattr(batch, "play_run", interrupted)


def test_a_stopped_tournament_resumed_is_the_uninterrupted_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped, whole = tmp_path / "stopped.sqlite3", tmp_path / "whole.sqlite3"
    with monkeypatch.context() as patch:
        _stop_after(patch, 2)
        assert main([*TOURNAMENT, "--workers", "2", "--db", str(stopped)]) == 130
    out = capsys.readouterr().out
    (run,) = RunStore(stopped).runs()
    assert (run.done, run.jobs, run.finished) == (2, 4, False)
    assert f"finish it with `nineball tournament --resume {run.id}`" in out
    # The resume finds the run's own parameters (not the defaults of the options left out).
    resumed, notes = _json_run(capsys, ["tournament", "--resume", run.id, "--db", str(stopped)])
    assert "2 of 4 already saved" in notes
    uninterrupted, _ = _json_run(capsys, [*TOURNAMENT, "--workers", "1", "--db", str(whole)])
    assert resumed == uninterrupted
    assert resumed["run"] == run.id
    assert [r["name"] for r in resumed["ratings"]] == [r["name"] for r in uninterrupted["ratings"]]
    with RunStore(stopped) as a, RunStore(whole) as b:
        assert a.saved(run.id) == b.saved(run.id)
        assert len(a.saved(run.id)) == 4
        assert a.info(run.id).finished


def test_the_same_command_twice_saves_each_game_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = ["--db", str(tmp_path / "runs.sqlite3")]
    args = ["breaks", "--level", "beginner", "--breaks", "4", "--seed", "2", "--workers", "1"]
    first, _ = _json_run(capsys, [*args, *db])
    again, notes = _json_run(capsys, [*args, *db])
    assert "4 of 4 already saved, nothing to play" in notes
    assert again == first
    assert set(first["outcomes"]) >= {"legal", "cue ball scratched"}
    assert sum(first["balls_pocketed"].values()) == 4
    with RunStore(tmp_path / "runs.sqlite3") as store:
        (run,) = store.runs()
        assert store.saved(run.id).keys() == {0, 1, 2, 3}
        count = store._db.execute("SELECT COUNT(*) FROM batch_results").fetchone()[0]
        assert count == 4


def test_every_batch_command_reports_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = ["--db", str(tmp_path / "runs.sqlite3"), "--workers", "1"]
    ladder, _ = _json_run(capsys, ["ladder", "--players", "ghost,beginner", "--games", "2", *db])
    assert {r["name"] for r in ladder["ratings"]} == {"ghost", "beginner"}
    assert ladder["gaps"][0]["games"] == 2
    realism, _ = _json_run(capsys, ["realism", "--level", "beginner", "--games", "2", *db])
    assert realism["figures"]["break and run"]["games"] == 2
    assert realism["figures"]["break and run"]["target"] == [0.17, 0.30]


def test_resume_names_a_run_it_cannot_find(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = ["--db", str(tmp_path / "runs.sqlite3")]
    assert main(["tournament", "--resume", "tournament-nope", *db]) == 1
    assert "no run 'tournament-nope'" in capsys.readouterr().out
    _json_run(capsys, ["breaks", "--level", "beginner", "--breaks", "1", "--workers", "1", *db])
    (run,) = RunStore(tmp_path / "runs.sqlite3").runs()
    assert main(["realism", "--resume", run.id, *db]) == 1
    assert f"resume it with `nineball breaks --resume {run.id}`" in capsys.readouterr().out
    assert main(["breaks", "--format", "yaml"]) == 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_ray_address_from_the_environment_fails_fast_when_nobody_answers(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    dead = f"127.0.0.1:{_free_port()}"
    monkeypatch.setenv("RAY_ADDRESS", dead)  # what `ray job submit` sets; no --backend given
    start = time.monotonic()
    assert main([*TOURNAMENT, "--format", "json"]) == 1
    assert time.monotonic() - start < 10
    captured = capsys.readouterr()
    assert f"no Ray cluster answers at {dead!r}" in captured.err
    assert captured.out == ""
    monkeypatch.delenv("RAY_ADDRESS")
    assert main([*TOURNAMENT, "--address", "http://head:8265"]) == 1
    assert "'http://head:8265' is a dashboard" in capsys.readouterr().out
    assert main(["breaks", "--address", "head"]) == 1
    assert "'head' is not host:port" in capsys.readouterr().out


def test_the_address_check_waits_only_its_timeout() -> None:
    from nineball.players.backends import ClusterUnreachableError, check_ray_address

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        check_ray_address(f"ray://127.0.0.1:{listening.getsockname()[1]}")  # it answers
    with socket.socket() as full:
        full.bind(("127.0.0.1", 0))
        full.listen(0)
        address = f"127.0.0.1:{full.getsockname()[1]}"
        # A host that takes no more connections (its backlog of 0 full), as a lost head behind
        # a firewall: the check gives up after its timeout.
        with socket.create_connection(full.getsockname(), timeout=2):
            start = time.monotonic()
            with pytest.raises(ClusterUnreachableError, match=f"at '{address}' \\(within 0.5 s"):
                check_ray_address(address, timeout=0.5)
            assert time.monotonic() - start < 3


def _children(pid: int) -> set[int]:
    """Every living descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(
    ("signum", "group", "status"),
    [(signal.SIGTERM, False, 143), (signal.SIGINT, True, 130)],
    ids=["sigterm", "ctrl-c"],
)
def test_a_signal_stops_the_workers_and_keeps_the_finished_games(
    tmp_path: Path, signum: int, group: bool, status: int
) -> None:
    db = tmp_path / "runs.sqlite3"
    # far more games than can finish between the second and the signal, on a loaded machine too
    args = ["tournament", "--players", "ghost,beginner", "--games", "400", "--seed", "3"]
    env = os.environ | {"NINEBALL_DB": str(db), "COLUMNS": "200"}
    process = subprocess.Popen(
        [sys.executable, "-m", "nineball.cli", *args, "--workers", "2"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=group,  # Ctrl-C reaches the whole process group
    )
    try:
        deadline = time.monotonic() + 60
        done = 0
        while done < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.02)
            if db.exists():
                with RunStore(db) as store:
                    runs = store.runs()
                    done = runs[0].done if runs else 0
        assert done >= 2, process.stderr.read() if process.stderr else ""
        workers = _children(process.pid)
        assert len(workers) >= 2  # the pool's workers (and the forkserver they come from)
        if group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == status, err
    assert "finish it with `nineball tournament --resume tournament-" in out
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [p for p in workers if _alive(p)]
    with RunStore(db) as store:
        (run,) = store.runs()
        saved = store.saved(run.id)
    assert 2 <= len(saved) < 800
    assert not run.finished
    assert all(row["first"] in ("ghost", "beginner") for row in saved.values())


def test_workers_default_to_the_cores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nineball.cli.batch as batch

    asked: list[tuple[str, int]] = []
    play_run = batch.play_run

    def spy(*args: Any, backend: str, workers: int, **kwargs: Any) -> Any:
        asked.append((backend, workers))
        return play_run(*args, backend=backend, workers=1, **kwargs)

    monkeypatch.setattr(batch, "play_run", spy)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    _json_run(
        capsys, ["breaks", "--level", "beginner", "--breaks", "1", "--db", str(tmp_path / "a")]
    )
    assert asked == [("process", len(os.sched_getaffinity(0)))]
