"""Reports of an event: the results CSV, the players' figures, the PDF scoresheets."""

from __future__ import annotations

import csv
import io
import uuid
from pathlib import Path

import pytest

from nineball.game import Store
from nineball.tournament import Entrant, Entry, EventConfig, EventService, Standing
from nineball.tournament.reports import CSV_COLUMNS, event_report, performance_rating, results_csv
from nineball.tournament.scoresheet import _latin1, scoresheet_pdf


def _played(store: Store) -> tuple[EventService, int]:
    """A 4-player single elimination: quick racks at table 1, shot by shot at table 2."""
    events = EventService(store)
    event = events.create(
        EventConfig.from_json(
            {
                "name": "Zoë's Cup",
                "date": "2026-12-10",
                "format": "single",
                "race_to": 2,
                "tables": 2,
            }
        )
    )
    for name, rating in (("Łukasz", 520.0), ("Ann", 480.0), ("Bob", 400.0), ("Cy", 450.0)):
        events.add_player(event, Entrant(name=name, rating=rating))
    events.start(event)

    def send(table: int, kind: str, **fields: object) -> dict[str, object]:
        match = events.view(event).at_table(table)
        assert match is not None
        entry = {"id": uuid.uuid4().hex, "match": match.key, "seq": match.seq, "kind": kind}
        return events.apply(event, Entry.from_json(entry | fields), table=table).answer

    send(1, "start", mode="quick", first_breaker=0)
    send(1, "rack", winner=0, break_balls=2)
    send(1, "rack", winner=1, break_foul=True)
    send(1, "rack", winner=0, break_balls=1, break_and_run=True)
    send(2, "start", mode="shots", first_breaker=0)
    send(2, "shot", first=1, pocketed=[0])  # a scratch on the break (clauses 3b, 6)
    send(2, "shot", first=1, pocketed=[9])
    send(2, "shot", first=1, pocketed=[2, 9])
    return events, event


def test_the_results_csv_has_one_row_a_played_match(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        events, event = _played(store)
        view = events.view(event)
    rows = list(csv.DictReader(io.StringIO(results_csv(view))))
    assert tuple(rows[0]) == CSV_COLUMNS
    played = [m for m in view.matches if m.standing is Standing.DONE]
    assert len(rows) == len(played) == 2
    by_match = {row["match"]: row for row in rows}
    quick = by_match["W1-1"]
    assert (quick["player_a"], quick["player_b"]) == ("Łukasz", "Bob")
    assert (quick["score_a"], quick["score_b"], quick["winner"]) == ("2", "1", "Łukasz")
    assert (quick["rating_a"], quick["rating_b"], quick["mode"]) == ("520", "400", "quick")
    shots = by_match["W1-2"]
    assert shots["winner"] == shots["player_b"]
    assert shots["mode"] == "shots"
    assert shots["event"] == "Zoë's Cup"
    assert len(shots["date"]) == 10


def test_the_report_counts_breaks_fouls_and_performance(tmp_path: Path) -> None:
    with Store(tmp_path / "r.db") as store:
        events, event = _played(store)
        report = event_report(store, events.view(event))
    players = {p["name"]: p for p in report["players"]}
    lukasz = players["Łukasz"]
    assert (lukasz["racks_won"], lukasz["racks_played"], lukasz["matches_won"]) == (2, 3, 1)
    assert (lukasz["breaks"], lukasz["legal_breaks"], lukasz["balls_on_break"]) == (2, 2, 3)
    assert lukasz["break_and_runs"] == 1
    bob, cy, ann = players["Bob"], players["Cy"], players["Ann"]
    assert (bob["breaks"], bob["legal_breaks"], bob["racks_won"]) == (1, 0, 1)
    assert ann["fouls_by_clause"] == {"3": 1, "6": 1}
    assert ann["racks_refereed"] == 2
    assert (cy["racks_won"], cy["break_and_runs"], cy["matches_won"]) == (2, 1, 1)
    assert report["totals"]["matches"] == 2
    assert report["totals"]["racks"] == 5
    assert report["totals"]["fouls_by_clause"] == {"3": 1, "6": 1}
    # 2 racks of 3 against a 400 is a 500 (2:1); 1 of 3 against a 520 a 420.
    assert lukasz["performance"] == pytest.approx(500.0, abs=0.1)
    assert bob["performance"] == pytest.approx(420.0, abs=0.1)
    assert lukasz["expected_racks"] == pytest.approx(3 * 0.6983, abs=0.01)
    assert cy["performance"] is None  # every rack won: no finite performance


def test_the_performance_rating_solves_the_expected_racks() -> None:
    assert performance_rating([]) is None
    assert performance_rating([(500.0, True)] * 3) is None
    assert performance_rating([(500.0, True), (500.0, False)]) == pytest.approx(500.0, abs=0.02)
    assert performance_rating([(500.0, True)] * 2 + [(500.0, False)]) == pytest.approx(
        600.0, abs=0.02
    )


@pytest.mark.parametrize("with_font", [True, False])
def test_a_scoresheet_is_a_pdf_with_every_rack(tmp_path: Path, with_font: bool) -> None:
    from nineball.tournament.scoresheet import find_font

    font = find_font() if with_font else None
    if with_font and font is None:
        pytest.skip("no DejaVu Sans here")
    with Store(tmp_path / "r.db") as store:
        events, event = _played(store)
        view = events.view(event)
        for key in ("W1-1", "W1-2"):
            pdf = (
                scoresheet_pdf(store, view, view.match(key), lang="pl", font=font)
                if with_font
                else _core_font_sheet(store, view, key)
            )
            assert pdf.startswith(b"%PDF-")
            assert pdf.rstrip().endswith(b"%%EOF")
            assert len(pdf) > 1000


def _core_font_sheet(store: Store, view: object, key: str) -> bytes:
    import nineball.tournament.scoresheet as sheet

    saved = sheet.find_font
    sheet.find_font = lambda: None  # type: ignore[assignment]
    try:
        return scoresheet_pdf(store, view, view.match(key))  # type: ignore[attr-defined,arg-type]
    finally:
        sheet.find_font = saved


def test_names_outside_latin1_are_folded_for_the_core_font() -> None:
    assert _latin1("Łukasz Wójcik \u2013 Zoë") == "Lukasz Wójcik - Zoë"
    assert _latin1("Ðorđe 漢") == "Ðorde ?"
