"""``nineball referee``: the referee protocol over standard input and output."""

from __future__ import annotations

from typing import BinaryIO

from nineball.game import Language, RefereeSession, RuleSet


def serve(source: BinaryIO, sink: BinaryIO, *, rules: RuleSet, lang: Language) -> None:
    """Answer every line of ``source`` with one line on ``sink``, flushed at once.

    Lines are read as UTF-8; a line that is not valid UTF-8 is answered with an error like any
    other bad line.
    """
    session = RefereeSession(rules=rules, lang=lang)
    for raw in source:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            reply = session.refuse(f"bad JSON: the line is not UTF-8 ({exc})")
        else:
            reply = session.handle_line(line)
        sink.write(reply.encode("utf-8") + b"\n")
        sink.flush()
