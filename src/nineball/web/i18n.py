"""The page's own strings: the ``web`` gettext domain, served to the page as JSON.

Every string of the page (buttons, hints, the names of fouls and pockets) is a message of the
``web`` domain, keyed by the name that ``static/main.js`` and ``index.html`` use::

    src/nineball/web/locale/web.pot                        the template, made from the en catalog
    src/nineball/web/locale/{en,fr,pl}/LC_MESSAGES/web.po  the translations (en: the source text)
    src/nineball/web/locale/{en,fr,pl}/LC_MESSAGES/web.mo  compiled, served by the application

``GET /i18n/{lang}.json`` answers :func:`page_strings`; ``static/i18n.js`` loads the three
languages before the page starts. To add a string, add its key and English text to the ``en``
catalog and run ``make i18n`` (see :mod:`nineball.rules.message`): the key comes into the
French and Polish catalogs untranslated, and ``tests/web/test_i18n.py`` fails until it is
translated. Rulings do not come from here: the referee explains them with its own catalogs
(domain ``nineball``) and the server sends each explanation in the three languages.
"""

from __future__ import annotations

import functools
import struct
from pathlib import Path

__all__ = ["DOMAIN", "LANGS", "LOCALE", "page_strings", "read_mo"]

DOMAIN = "web"
"""The gettext domain of the page's strings."""

LANGS = ("en", "fr", "pl")
"""The page's languages."""

LOCALE = Path(__file__).parent / "locale"
"""The catalogs of the page."""

_MAGIC = 0x950412DE


def read_mo(data: bytes) -> dict[str, str]:
    """The messages of a compiled gettext catalog (``.mo``), by msgid, without its header.

    The standard library's :class:`gettext.GNUTranslations` looks messages up but does not list
    them, and the page needs them all at once. The page's strings have no plural forms.

    Raises:
        ValueError: not a ``.mo`` file, or a message with plural forms.
    """
    for order in ("<", ">"):
        if len(data) >= 20 and struct.unpack_from(f"{order}I", data)[0] == _MAGIC:
            break
    else:
        raise ValueError(f"not a gettext catalog: starts with {data[:4]!r}")
    count, originals, translations = struct.unpack_from(f"{order}3I", data, 8)
    messages = {}
    for index in range(count):
        key_length, key_at = struct.unpack_from(f"{order}2I", data, originals + 8 * index)
        length, at = struct.unpack_from(f"{order}2I", data, translations + 8 * index)
        key = data[key_at : key_at + key_length].decode()
        if "\x00" in key:
            raise ValueError(f"the page's strings have no plural forms, got {key!r}")
        if key:
            messages[key] = data[at : at + length].decode()
    return messages


def page_strings(lang: str) -> dict[str, str]:
    """Every string of the page in ``lang``, by key (a new dict; the catalog is read once).

    Raises:
        ValueError: an unknown language.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    return dict(_catalog(lang))


@functools.cache
def _catalog(lang: str) -> dict[str, str]:
    return read_mo((LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").read_bytes())
