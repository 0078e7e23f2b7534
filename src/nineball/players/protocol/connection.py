"""How nineball talks to one program: a child process over pipes, or a built-in player in process.

A connection sends nineball's messages (JSON objects, one line each) and hands back what the
program writes, one :data:`Incoming` event at a time, never waiting past a deadline:

- :class:`Line`: one line, decoded (or the reason it could not be: not UTF-8, not JSON, over
  the protocol's 65,536 bytes, nested too deep...);
- :class:`Silence`: the deadline passed with no line;
- :class:`Closed`: the program closed its output or exited (its status and the tail of its
  standard error);
- :class:`Flooded`: the program wrote more than the protocol allows between two turns.

:class:`PipeConnection` never blocks on the child: its pipes are non-blocking and every wait is
a ``select`` bounded by the deadline, so a program that hangs, stops reading its input, writes a
line without end or floods its output costs at most the time the protocol gives it. An overlong
line is counted and dropped as it arrives, never held in memory. It needs a POSIX system.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from nineball.errors import ProtocolError
from nineball.game import MAX_LINE_BYTES, decode_line, dump_line
from nineball.players.protocol.session import EngineSession

__all__ = [
    "MAX_BYTES_PER_TURN",
    "MAX_LINES_PER_TURN",
    "MAX_UNREAD_BYTES",
    "QUIT_GRACE",
    "STDERR_TAIL",
    "Closed",
    "Connection",
    "Flooded",
    "Incoming",
    "Line",
    "LinkError",
    "LocalConnection",
    "PipeConnection",
    "Silence",
]

MAX_LINES_PER_TURN = 1000
"""The most lines a program may write between two of its turns (its logs included)."""

MAX_BYTES_PER_TURN = 8 * 2**20
"""The most bytes a program may write between two of its turns (8 MiB)."""

MAX_UNREAD_BYTES = 2**20
"""The most bytes of nineball's messages a program may leave unread (1 MiB)."""

STDERR_TAIL = 2000
"""How many of the last bytes of a program's standard error are kept for its fault report."""

QUIT_GRACE = 2.0
"""Seconds a program has to exit after ``quit`` before it is killed."""

_READ = 65_536


@dataclass(frozen=True, slots=True)
class Line:
    """One line the program wrote."""

    value: object
    """The decoded JSON (None when it could not be decoded)."""
    error: str | None = None
    """Why the line could not be decoded (None: it was)."""


@dataclass(frozen=True, slots=True)
class Silence:
    """The deadline passed and the program wrote no whole line."""

    wrote: bool
    """Whether the program wrote anything at all while it was waited for."""


@dataclass(frozen=True, slots=True)
class Closed:
    """The program closed its output (it exited, or is about to)."""

    status: int | None
    """Its exit status, if it has exited (negative: killed by that signal)."""
    stderr: str
    """The tail of its standard error."""


@dataclass(frozen=True, slots=True)
class Flooded:
    """The program wrote too much since its last turn.

    More than :data:`MAX_LINES_PER_TURN` lines or :data:`MAX_BYTES_PER_TURN` bytes.
    """

    lines: int
    size: int


Incoming = Line | Silence | Closed | Flooded
"""What :meth:`Connection.receive` hands back."""


class LinkError(Exception):
    """Nineball cannot reach the program.

    It could not start, closed its input or stopped reading it. ``code`` is the protocol's
    fault code (``start_failed``, ``crashed`` or ``not_reading``).
    """

    def __init__(self, code: str, message: str) -> None:
        """Keep the fault code with the message."""
        super().__init__(message)
        self.code = code


class Connection(Protocol):
    """The link to one program."""

    def open(self) -> None:
        """Start the program.

        Raises:
            LinkError: it cannot be started.
        """
        ...

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message and write what the program will take now.

        Raises:
            LinkError: the program has closed its input, or leaves too much unread.
        """
        ...

    def flush(self, deadline: float) -> bool:
        """Write every queued message, waiting until ``deadline`` (monotonic) at most.

        Returns:
            True when everything was written.

        Raises:
            LinkError: the program has closed its input.
        """
        ...

    def receive(self, deadline: float) -> Incoming:
        """The next thing the program wrote, waiting until ``deadline`` (monotonic) at most."""
        ...

    def reset_counts(self) -> None:
        """Start counting lines and bytes for the flood limits afresh (a new turn)."""
        ...

    def stderr_tail(self) -> str:
        """The last bytes the program wrote to its standard error."""
        ...

    def close(self) -> None:
        """Say ``quit``, give the program :data:`QUIT_GRACE` to exit, then kill it."""
        ...

    def kill(self) -> None:
        """End the program at once (and every process it started)."""
        ...


class LocalConnection:
    """A built-in player answering in this process, through the protocol's messages.

    Its answer is computed while the turn is sent, so a turn's time is the player's thinking
    time; it cannot be interrupted, so an overrun is judged when it answers.
    """

    def __init__(self, session: EngineSession) -> None:
        """Talk to ``session``."""
        self.session = session
        self._queue: deque[Incoming] = deque()

    def open(self) -> None:
        """Nothing to start."""

    def send(self, message: dict[str, Any]) -> None:
        """Hand the message to the session and keep its answer."""
        reply = self.session.handle(message)
        if reply is not None:
            self._queue.append(Line(reply))

    def flush(self, deadline: float) -> bool:
        """Nothing is ever pending."""
        return True

    def receive(self, deadline: float) -> Incoming:
        """The session's next answer, or silence at once."""
        return self._queue.popleft() if self._queue else Silence(wrote=False)

    def reset_counts(self) -> None:
        """No limits to count against."""

    def stderr_tail(self) -> str:
        """A built-in player writes nothing to standard error."""
        return ""

    def close(self) -> None:
        """Nothing to stop."""

    def kill(self) -> None:
        """Nothing to stop."""


class PipeConnection:
    """A program started as a child process, spoken to over its standard input and output.

    The program runs in a session of its own, so that :meth:`kill` ends it and every process it
    started. Its standard error is read as it comes (a program that logs a lot never blocks on
    it) and its last :data:`STDERR_TAIL` bytes are kept.
    """

    def __init__(self, command: Sequence[str], *, cwd: str | None = None) -> None:
        """Run ``command`` (a program and its arguments, no shell) in ``cwd``."""
        self.command = tuple(command)
        self.cwd = cwd
        self._proc: subprocess.Popen[bytes] | None = None
        self._out = bytearray()
        self._buf = bytearray()
        self._skipping = 0
        self._stderr = bytearray()
        self._stdout_open = False
        self._stderr_open = False
        self._broken = False
        self.lines = 0
        """Lines read since :meth:`reset_counts`."""
        self.size = 0
        """Bytes read since :meth:`reset_counts`."""

    def open(self) -> None:
        """Start the program.

        Raises:
            LinkError: ``start_failed``, the command cannot be run.
        """
        if not self.command:
            raise LinkError("start_failed", "the command is empty")
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                start_new_session=True,
                bufsize=0,
            )
        except (OSError, ValueError) as exc:
            raise LinkError("start_failed", f"cannot start {list(self.command)!r}: {exc}") from None
        for pipe in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                os.set_blocking(pipe.fileno(), False)
        self._stdout_open = self._stderr_open = True

    # ------------------------------------------------------------------------------ writing

    def _stdin(self) -> int:
        if self._proc is None or self._proc.stdin is None:
            raise LinkError("crashed", "the program is not running")
        return self._proc.stdin.fileno()

    def _write_some(self) -> None:
        if self._broken:
            raise LinkError("crashed", "the program closed its input")
        fd = self._stdin()
        while self._out:
            try:
                written = os.write(fd, self._out[:_READ])
            except BlockingIOError:
                return
            except OSError:  # BrokenPipeError: it closed its input or exited
                self._broken = True
                raise LinkError("crashed", "the program closed its input") from None
            del self._out[:written]

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message (one line) and write what the pipe takes now.

        Raises:
            LinkError: ``crashed`` (the program closed its input) or ``not_reading`` (it left
                more than :data:`MAX_UNREAD_BYTES` of nineball's messages unread).
        """
        self._out += dump_line(message).encode("utf-8") + b"\n"
        self._write_some()
        if len(self._out) > MAX_UNREAD_BYTES:
            raise LinkError(
                "not_reading",
                f"the program left {len(self._out)} bytes of nineball's messages unread",
            )

    def flush(self, deadline: float) -> bool:
        """Write everything queued, reading the program's output meanwhile.

        Raises:
            LinkError: the program closed its input.
        """
        self._write_some()
        while self._out:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            self._wait(remaining, write=True)
            self._write_some()
        return True

    # ------------------------------------------------------------------------------ reading

    def _wait(self, timeout: float, *, write: bool = False) -> None:
        """Wait for output (and for room in the input pipe when ``write``); read what came."""
        proc = self._proc
        if proc is None:
            return
        readers = []
        if self._stdout_open and proc.stdout is not None:
            readers.append(proc.stdout.fileno())
        if self._stderr_open and proc.stderr is not None:
            readers.append(proc.stderr.fileno())
        writers = [self._stdin()] if write and self._out and not self._broken else []
        if not readers and not writers:
            time.sleep(min(timeout, 0.05))
            return
        ready, _, _ = select.select(readers, writers, [], max(0.0, timeout))
        for fd in ready:
            self._read(fd)

    def _read(self, fd: int) -> None:
        proc = self._proc
        if proc is None:  # pragma: no cover - only while open
            return
        try:
            chunk = os.read(fd, _READ)
        except BlockingIOError:  # pragma: no cover - select said it was ready
            return
        except OSError:  # pragma: no cover - a pipe that broke under us
            chunk = b""
        is_stdout = proc.stdout is not None and fd == proc.stdout.fileno()
        if not chunk:
            if is_stdout:
                self._stdout_open = False
            else:
                self._stderr_open = False
            return
        if is_stdout:
            self.size += len(chunk)
            self._buf += chunk
        else:
            self._stderr += chunk
            del self._stderr[:-STDERR_TAIL]

    def _take_line(self) -> Line | None:
        newline = self._buf.find(b"\n")
        if newline < 0:
            if len(self._buf) > MAX_LINE_BYTES + 1:
                self._skipping += len(self._buf)
                self._buf.clear()
            if self._stdout_open or not (self._buf or self._skipping):
                return None
            newline = len(self._buf)  # the last line, without its end, before the output closed
        raw = bytes(self._buf[:newline])
        del self._buf[: newline + 1]
        self.lines += 1
        if self._skipping:
            size, self._skipping = self._skipping + len(raw), 0
            return Line(None, f"bad JSON: the line is {size} bytes long, over {MAX_LINE_BYTES}")
        raw = raw.removesuffix(b"\r")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Line(None, f"bad JSON: the line is not UTF-8 ({exc.reason} at byte {exc.start})")
        try:
            return Line(decode_line(text))
        except ProtocolError as exc:
            return Line(None, str(exc))

    def receive(self, deadline: float) -> Incoming:
        """The next line the program wrote, or what happened instead, by ``deadline`` at most.

        A deadline already past still reads what the pipes hold at once (a poll).
        """
        start = self.size
        polled = False
        while True:
            if self.lines > MAX_LINES_PER_TURN or self.size > MAX_BYTES_PER_TURN:
                return Flooded(lines=self.lines, size=self.size)
            line = self._take_line()
            if line is not None:
                return line
            if not self._stdout_open:
                return Closed(status=self._status(), stderr=self.stderr_tail())
            remaining = deadline - time.monotonic()
            if remaining <= 0 and polled:
                return Silence(wrote=self.size > start)
            polled = True  # a deadline already past still reads what is there now
            self._wait(max(0.0, remaining), write=bool(self._out))
            with contextlib.suppress(LinkError):
                self._write_some()

    def _status(self) -> int | None:
        proc = self._proc
        if proc is None:  # pragma: no cover - only while open
            return None
        try:
            return proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return None

    def reset_counts(self) -> None:
        """Start the flood counts afresh."""
        self.lines = 0
        self.size = 0

    def stderr_tail(self) -> str:
        """The last bytes of the program's standard error, as text."""
        return self._stderr.decode("utf-8", "replace")

    # ------------------------------------------------------------------------------ ending

    def close(self) -> None:
        """Say ``quit``, wait :data:`QUIT_GRACE` seconds for the program to exit, then kill it."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(LinkError, OSError):
            self.send({"type": "quit"})
            self.flush(time.monotonic() + 0.5)
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=QUIT_GRACE)
        self.kill()

    def kill(self) -> None:
        """End the program and every process of its session at once."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self._stdout_open = self._stderr_open = False
        self._broken = True
        self._proc = None
