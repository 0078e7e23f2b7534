"""A printable scoresheet of one match of an event, as a PDF (the ``[pdf]`` extra: fpdf2).

One A4 page (more for a long match scored shot by shot): the event, the match and its table, the
players with their ratings and races, the final score; a line per rack (who broke, who won and
how, the break's figures); for a match scored shot by shot, every entry with the referee's
ruling and the clauses it cites; lines for the players' and the scorer's signatures.

Names are printed as given, in any script the font has: the sheet uses DejaVu Sans when it finds
it (``$NINEBALL_PDF_FONT``, matplotlib's copy, or the system's), else the PDF's built-in Helvetica,
which holds Latin-1 only: then a letter outside it is printed without its accent (Ł as L).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nineball.game import Language, Store
from nineball.game.event_store import EventStore
from nineball.game.rulings import iter_rulings
from nineball.tournament.entries import Mode
from nineball.tournament.view import EventView, MatchView

__all__ = ["FONT_ENV", "find_font", "scoresheet_pdf"]

FONT_ENV = "NINEBALL_PDF_FONT"
"""The environment variable naming a TrueType font for the scoresheets."""

_SYSTEM_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/Library/Fonts/DejaVuSans.ttf"),
)
_FOLD = {
    "Ł": "L",
    "ł": "l",
    "Đ": "D",
    "đ": "d",
    "Ø": "O",
    "ø": "o",
    "ß": "ss",
    "Œ": "OE",
    "œ": "oe",
    "·": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2019": "'",
    "…": "...",
}

_WORDS = {
    "match": {"en": "Match", "fr": "Match", "pl": "Mecz"},
    "table": {"en": "Table", "fr": "Table", "pl": "Stół"},
    "race": {"en": "race to", "fr": "en", "pl": "do"},
    "rating": {"en": "rating", "fr": "cote", "pl": "ranking"},
    "score": {"en": "Score", "fr": "Score", "pl": "Wynik"},
    "rack": {"en": "Rack", "fr": "Manche", "pl": "Partia"},
    "breaker": {"en": "Break", "fr": "Casse", "pl": "Rozbija"},
    "winner": {"en": "Won by", "fr": "Gagnée par", "pl": "Wygrywa"},
    "how": {"en": "How", "fr": "Comment", "pl": "Jak"},
    "break": {"en": "Break figures", "fr": "Casse", "pl": "Rozbicie"},
    "nine_ball": {"en": "the 9", "fr": "la 9", "pl": "bila 9"},
    "three_fouls": {"en": "three fouls", "fr": "trois fautes", "pl": "trzy faule"},
    "forfeit": {"en": "forfeit", "fr": "forfait", "pl": "walkower"},
    "entered": {"en": "result entered", "fr": "résultat saisi", "pl": "wpisany wynik"},
    "balls": {"en": "balls", "fr": "billes", "pl": "bil"},
    "foul": {"en": "foul", "fr": "faute", "pl": "faul"},
    "run": {"en": "break and run", "fr": "casse et sortie", "pl": "zejście z rozbicia"},
    "shots": {"en": "Shot by shot", "fr": "Coup par coup", "pl": "Uderzenie po uderzeniu"},
    "signatures": {"en": "Signatures", "fr": "Signatures", "pl": "Podpisy"},
    "scorer": {"en": "Scorer", "fr": "Marqueur", "pl": "Sędzia"},
    "awarded": {
        "en": "given without play",
        "fr": "attribué sans jouer",
        "pl": "przyznany walkowerem",
    },
    "winner_is": {"en": "Winner", "fr": "Vainqueur", "pl": "Zwycięzca"},
}


def find_font() -> Path | None:
    """A TrueType font with the Latin scripts: ``$NINEBALL_PDF_FONT``, matplotlib's, or Debian's."""
    named = os.environ.get(FONT_ENV)
    if named:
        return Path(named) if Path(named).is_file() else None
    try:
        import matplotlib  # the [plots] extra carries DejaVu Sans

        bundled = Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf"
        if bundled.is_file():
            return bundled
    except ImportError:
        pass
    return next((path for path in _SYSTEM_FONTS if path.is_file()), None)


def _latin1(text: str) -> str:
    """``text`` with every character outside Latin-1 folded to its base letter (or ``?``)."""
    out = []
    for char in text:
        char = _FOLD.get(char, char)
        if all(ord(c) < 256 for c in char):
            out.append(char)
            continue
        base = unicodedata.normalize("NFKD", char).encode("latin-1", "ignore").decode("latin-1")
        out.append(base or "?")
    return "".join(out)


def scoresheet_pdf(
    store: Store, view: EventView, match: MatchView, *, lang: str = "en", font: Path | None = None
) -> bytes:
    """The scoresheet of ``match`` as PDF bytes.

    Args:
        store: the event's store (the racks and the shot-by-shot record).
        view: the event.
        match: one of its matches.
        lang: the sheet's language (``en``, ``fr``, ``pl``).
        font: a TrueType font (default: :func:`find_font`).

    Raises:
        ImportError: fpdf2 is not installed (the ``[pdf]`` extra).
    """
    from fpdf import FPDF

    words = {key: texts.get(lang, texts["en"]) for key, texts in _WORDS.items()}
    pdf: Any = FPDF(format="A4")  # fpdf2's methods are partly untyped
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    font = font if font is not None else find_font()
    clean: Callable[[str], str] = _latin1
    family = "Helvetica"
    if font is not None:
        pdf.add_font("Sheet", "", str(font))
        family, clean = "Sheet", str

    def line(text: str, size: float = 10, height: float = 6) -> None:
        pdf.set_font(family, size=size)
        pdf.multi_cell(0, height, clean(text), new_x="LMARGIN", new_y="NEXT")

    a, b = match.sides
    line(f"{view.config.name} · {view.config.date}", 16, 9)
    where = f"{words['table']} {match.table}" if match.table else ""
    line(
        f"{words['match']} {match.key} ({match.match.stage.value}, {match.match.round}) {where}", 12
    )
    for slot, side in enumerate((a, b)):
        rating = "" if side.rating is None else f", {words['rating']} {side.rating:g}"
        line(f"{side.name or '-'} ({words['race']} {match.races[slot]}{rating})", 12)
    line(f"{words['score']}: {match.score[0]} - {match.score[1]}", 14, 8)
    if match.winner is not None:
        winner = (a.name, b.name)[match.winner] or "-"
        suffix = f" ({words['awarded']})" if match.mode is Mode.AWARD else ""
        line(f"{words['winner_is']}: {winner}{suffix}", 12)
    pdf.ln(3)
    rows = _racks(store, view, match, words)
    if rows:
        pdf.set_font(family, size=9)
        widths = (16, 40, 40, 30, 54)
        heads = (words["rack"], words["breaker"], words["winner"], words["how"], words["break"])
        for width, head in zip(widths, heads, strict=True):
            pdf.cell(width, 7, clean(head), border=1)
        pdf.ln()
        for row in rows:
            for width, cell in zip(widths, row, strict=True):
                pdf.cell(width, 6, clean(cell), border=1)
            pdf.ln()
    if match.mode is Mode.SHOTS and match.record_id is not None:
        pdf.ln(3)
        line(words["shots"], 12, 8)
        record = store.load(match.record_id)
        names = record.config.players
        language = Language(lang) if lang in ("en", "fr", "pl") else Language.EN
        for entry in iter_rulings(record):
            fouls = ", ".join(f"{f.value} ({f.clause})" for f in entry.ruling.fouls)
            said = entry.ruling.explanation.text(language)
            line(
                f"{entry.game + 1}.{entry.index + 1} {names[entry.shot.player]}: {said}"
                + (f" [{fouls}]" if fouls else ""),
                8,
                4.5,
            )
    pdf.ln(8)
    line(words["signatures"], 11, 7)
    for who in (a.name or "-", b.name or "-", words["scorer"]):
        line(f"{who}: ______________________________", 10, 9)
    return bytes(pdf.output())


def _racks(
    store: Store, view: EventView, match: MatchView, words: dict[str, str]
) -> list[tuple[str, str, str, str, str]]:
    names = (match.sides[0].name or "-", match.sides[1].name or "-")
    if match.mode is Mode.QUICK:
        out = []
        for rack in EventStore(store).racks(view.id, match.key).get(match.key, []):
            figures = []
            if isinstance(rack.data.get("break_balls"), int):
                figures.append(f"{rack.data['break_balls']} {words['balls']}")
            if rack.data.get("break_foul"):
                figures.append(words["foul"])
            if rack.data.get("break_and_run"):
                figures.append(words["run"])
            out.append(
                (
                    str(rack.number),
                    names[rack.breaker],
                    names[rack.winner],
                    words["entered"],
                    ", ".join(figures),
                )
            )
        return out
    if match.mode is Mode.SHOTS and match.record_id is not None:
        record = store.load(match.record_id)
        out = []
        for game in record.games:
            if game.result is None:
                continue
            out.append(
                (
                    str(game.number),
                    names[game.breaker],
                    names[game.result.winner],
                    words.get(game.result.reason.value, game.result.reason.value),
                    "",
                )
            )
        return out
    return []
