"""The page's strings: the ``web`` gettext catalogs and the endpoint that serves them."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo as babel_read_mo
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from nineball.players.registry import PLAYERS
from nineball.rules import VARIANTS, Foul
from nineball.web.app import STATIC
from nineball.web.i18n import DOMAIN, LANGS, LOCALE, page_strings, read_mo
from tests.rules.test_catalogs import load_tool

ENGLISH = page_strings("en")


def _po(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", LANGS)
def test_the_mo_files_are_the_compiled_po_files(lang: str) -> None:
    with _po(lang).open("rb") as file:
        catalog = read_po(file, locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    assert _po(lang).with_suffix(".mo").read_bytes() == out.getvalue()


@pytest.mark.parametrize("lang", LANGS)
def test_every_string_is_translated_with_the_same_placeholders(lang: str) -> None:
    strings = page_strings(lang)
    assert set(strings) == set(ENGLISH)
    for key, text in strings.items():
        assert text.strip(), key
        assert _placeholders(text) == _placeholders(ENGLISH[key]), key


@pytest.mark.parametrize("lang", LANGS)
def test_the_reader_agrees_with_babel(lang: str) -> None:
    data = _po(lang).with_suffix(".mo").read_bytes()
    babel = {m.id: m.string for m in babel_read_mo(io.BytesIO(data)) if m.id}
    assert read_mo(data) == babel


def test_the_reader_refuses_what_is_not_a_catalog() -> None:
    with pytest.raises(ValueError, match="not a gettext catalog"):
        read_mo(b"<html></html> and more bytes")
    with pytest.raises(ValueError, match="unknown language 'de'"):
        page_strings("de")
    referee = LOCALE.parents[1] / "rules/locale/pl/LC_MESSAGES/nineball.mo"
    with pytest.raises(ValueError, match="no plural forms, got 'Legal break"):
        read_mo(referee.read_bytes())


def test_the_reader_reads_both_byte_orders() -> None:
    little = (LOCALE / "fr/LC_MESSAGES/web.mo").read_bytes()
    count, originals, translations = (
        int.from_bytes(little[i : i + 4], "little") for i in (8, 12, 16)
    )
    words = bytearray(little)
    for start in (0, 4, 8, 12, 16, 20, 24):
        words[start : start + 4] = little[start : start + 4][::-1]
    for table in (originals, translations):
        for at in range(table, table + 8 * count, 4):
            words[at : at + 4] = little[at : at + 4][::-1]
    assert read_mo(bytes(words)) == read_mo(little)


def test_the_template_is_made_from_the_english_catalog() -> None:
    tool = load_tool()
    with (LOCALE / f"{DOMAIN}.pot").open("rb") as file:
        committed = read_po(file, domain=DOMAIN)
    # Comments are compared as text: the .pot wraps long ones.
    assert [(m.id, " ".join(m.auto_comments)) for m in committed if m.id] == [
        (m.id, " ".join(m.auto_comments)) for m in tool.web_template() if m.id
    ]


def test_every_key_the_page_uses_is_in_the_catalogs() -> None:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    script = "\n".join(path.read_text(encoding="utf-8") for path in sorted(STATIC.glob("*.js")))
    used = set(re.findall(r'data-i18n="([^"]+)"', page)) | set(
        re.findall(r'\bt\("([^"]+)"\)', script)
    )
    used |= {f"foul.{foul.value}" for foul in Foul}
    used |= {f"rules.{variant.name}" for variant in VARIANTS}  # the lobby's profiles
    used |= {f"help.{tool}" for tool in ("first", "pocket", "rail", "off")}
    used |= {f"level{part}.{name}" for part in ("Name", "Desc") for name in PLAYERS}
    assert len(used) > 100
    assert used <= set(ENGLISH)


@pytest.mark.parametrize(("lang", "shoot"), [("en", "Shoot"), ("fr", "Jouer"), ("pl", "Uderz")])
def test_the_strings_are_served_as_json(client: TestClient, lang: str, shoot: str) -> None:
    reply = client.get(f"/i18n/{lang}.json")
    assert reply.status_code == 200
    assert reply.headers["content-type"] == "application/json"
    assert reply.json() == page_strings(lang)
    assert reply.json()["shoot"] == shoot


def test_an_unknown_language_is_not_found(client: TestClient) -> None:
    reply = client.get("/i18n/de.json")
    assert reply.status_code == 404
    assert "unknown language 'de'" in reply.json()["error"]


@pytest.mark.parametrize(
    ("lang", "key", "values", "text"),
    [
        # A name is never given a gender or an elision: "vainqueur : Ann", not "Ann gagnée".
        ("fr", "won", {"name": "Ordinateur"}, "vainqueur : Ordinateur"),
        ("pl", "won", {"name": "Komputer"}, "wygrana: Komputer"),
        ("en", "won", {"name": "Computer"}, "Computer won"),
        ("fr", "computer", {}, "Ordinateur"),
        ("pl", "computer", {}, "Komputer"),
        # French puts a space before a colon; the labels of the page take it from the catalog.
        (
            "fr",
            "labelled",
            {"label": "Faute", "text": "blanche empochée"},
            "Faute : blanche empochée",
        ),
        ("fr", "pocketed", {}, "Empochées :"),
        ("fr", "matchOver", {}, "Match terminé"),
        (
            "fr",
            "levelOption",
            {"name": "Club", "rating": 373, "description": "d"},
            "Club (cote 373) : d",
        ),
        ("pl", "levelName.pro", {}, "Zawodowiec"),
    ],
)
def test_reviewed_page_words(lang: str, key: str, values: dict[str, object], text: str) -> None:
    assert page_strings(lang)[key].format(**values) == text


@pytest.mark.parametrize("lang", LANGS)
def test_every_computer_player_has_a_name_and_a_description(lang: str) -> None:
    strings = page_strings(lang)
    for name in PLAYERS:
        assert strings[f"levelName.{name}"].strip()
        assert strings[f"levelDesc.{name}"].strip()


def test_every_key_the_event_pages_use_is_in_the_catalogs() -> None:
    pages = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("event-*.html")))
    script = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.glob("event-*.js")))
    used = set(re.findall(r'data-i18n="([^"]+)"', pages))
    used |= set(re.findall(r'\bt\("([^"]+)"\)', script)) | set(
        re.findall(r'\btf\("([^"]+)"', script)
    )
    # Keys made from values: a match's stage and standing, the formats, the seeding.
    used |= {f"ev.stage.{s}" for s in ("winners", "losers", "knockout", "group")}
    used |= {
        f"ev.standing.{s}"
        for s in ("waiting", "ready", "called", "playing", "done", "walkover", "void")
    }
    used |= {f"ev.at.{s}" for s in ("called", "playing")}
    used |= {f"ev.format.{f}" for f in ("single", "double", "round_robin", "groups")}
    assert len([k for k in used if k.startswith("ev.")]) > 120
    assert used <= set(ENGLISH), sorted(used - set(ENGLISH))
