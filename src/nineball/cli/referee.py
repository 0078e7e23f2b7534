"""``nineball referee``: the referee protocol over standard input and output."""

from __future__ import annotations

from typing import BinaryIO

from nineball.game import Language, RefereeSession, RuleSet

_CHUNK = 65_536
"""How much of an overlong line is read at a time while it is skipped."""


def serve(source: BinaryIO, sink: BinaryIO, *, rules: RuleSet, lang: Language) -> None:
    """Answer every line of ``source`` with exactly one line on ``sink``, flushed at once.

    No line is held in memory beyond the protocol's limit: the rest of an overlong line is read
    and dropped, and the line is answered with one error. The loop ends when ``source`` ends,
    or quietly when the reader of ``sink`` has gone away.
    """
    session = RefereeSession(rules=rules, lang=lang)
    limit = session.max_line_bytes + 2  # the longest line and its "\r\n", plus one byte
    while raw := source.readline(limit):
        if len(raw) == limit and not raw.endswith(b"\n"):
            rest = raw
            while rest and not rest.endswith(b"\n"):
                rest = source.readline(_CHUNK)
        reply = session.handle_bytes(raw)
        try:
            sink.write(reply.encode("utf-8") + b"\n")
            sink.flush()
        except BrokenPipeError:
            return
