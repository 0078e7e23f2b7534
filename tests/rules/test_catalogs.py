"""The referee's gettext catalogs: every text translated, the same placeholders, compiled as given.

The ``.po`` files are the sources, the ``.mo`` files what the referee reads at run time (with
the standard library alone); ``tools/i18n.py`` makes one from the other with Babel.
"""

from __future__ import annotations

import importlib.util
import io
import string
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from nineball.rules.message import DOMAIN, Language, catalog
from nineball.rules.texts import Text

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src/nineball/rules/locale"
PLURAL_FORMS = {Language.EN: 2, Language.FR: 3, Language.PL: 3}


def placeholders(text: str) -> set[str]:
    """The names of the ``str.format`` fields of ``text``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "tools/i18n.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def po_path(lang: Language | str, domain: str = DOMAIN, locale: Path = LOCALE) -> Path:
    return locale / str(lang) / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, lang: str | None, domain: str) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=lang, domain=domain)


def compiled(path: Path, lang: str, domain: str) -> bytes:
    out = io.BytesIO()
    write_mo(out, read(path, lang, domain), use_fuzzy=False)
    return out.getvalue()


@pytest.mark.parametrize("lang", list(Language))
def test_the_mo_files_are_the_compiled_po_files(lang: Language) -> None:
    po = po_path(lang)
    assert po.with_suffix(".mo").read_bytes() == compiled(po, lang, DOMAIN)


@pytest.mark.parametrize("lang", list(Language))
def test_every_text_is_translated_with_the_same_placeholders(lang: Language) -> None:
    with po_path(lang).with_suffix(".mo").open("rb") as file:
        shipped = read_mo(file)
    assert shipped.num_plurals == PLURAL_FORMS[lang]
    assert {m.id if isinstance(m.id, str) else m.id[0] for m in shipped if m.id} == {
        text.msgid for text in Text
    }
    for text in Text:
        message = shipped.get(text.msgid)
        assert message is not None, text
        if text.plural is None:
            assert isinstance(message.string, str)
            assert message.string, text
            assert placeholders(message.string) == placeholders(text.msgid), text
            continue
        # A plural form may spell its count out ("une seule") instead of printing {n}.
        assert placeholders(text.msgid) == placeholders(text.plural), text
        expected = placeholders(text.plural)
        forms = message.string
        assert isinstance(forms, (tuple, list))
        assert len(forms) == PLURAL_FORMS[lang], text
        for form in forms:
            assert form, text
            assert expected - {"n"} <= placeholders(form) <= expected, (text, form)


@pytest.mark.parametrize("lang", list(Language))
def test_the_standard_library_reads_every_text(lang: Language) -> None:
    translations = catalog(lang)
    for text in Text:
        values = {name: f"<{name}>" for name in placeholders(text.plural or text.msgid)}
        if text.plural is None:
            patterns = [translations.gettext(text.msgid)]
        else:
            patterns = [translations.ngettext(text.msgid, text.plural, n) for n in range(30)]
        for pattern in patterns:
            rendered = pattern.format(**values)
            assert "{" not in rendered, (text, rendered)
            if lang is Language.EN:
                assert pattern in (text.msgid, text.plural)


def test_the_template_is_extracted_from_the_texts() -> None:
    template = load_tool().rules_template()
    committed = read(LOCALE / f"{DOMAIN}.pot", None, DOMAIN)
    # Comments are compared as text: the .pot wraps long ones.
    assert [(m.id, " ".join(m.auto_comments)) for m in committed if m.id] == [
        (m.id, " ".join(m.auto_comments)) for m in template if m.id
    ]
