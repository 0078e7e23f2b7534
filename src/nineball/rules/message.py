"""Messages: what the referee says, as message ids and arguments, rendered from gettext catalogs.

The referee decides once and says it as :class:`Message` values (a :class:`Text` and its
arguments); a language is a gettext catalog, read with the standard library's :mod:`gettext`
from the compiled ``.mo`` files shipped in the package::

    src/nineball/rules/locale/nineball.pot                     the template, made from Text
    src/nineball/rules/locale/{en,fr,pl}/LC_MESSAGES/nineball.po   the translations
    src/nineball/rules/locale/{en,fr,pl}/LC_MESSAGES/nineball.mo   compiled, read at run time

After changing :class:`Text`, run ``make i18n`` (``python tools/i18n.py``, which needs Babel from
the ``dev`` extra): it extracts the template, updates each ``.po`` (a new text comes in
untranslated, a changed one fuzzy), then compiles the ``.mo`` files. Translate the ``.po`` files,
run it again and commit all of them; ``tests/rules/test_catalogs.py`` checks that every text is
translated in every catalog with the same placeholders, and that the ``.mo`` files are what
compiling the ``.po`` files gives. The web page's own strings use the same tool (domain ``web``).

>>> from nineball.rules.texts import Text
>>> cite = Message.of(Text.CLAUSE, count=2, clauses=Items(("3b", "6")))
>>> render(Message.of(Text.CUE_BALL_POCKETED, cite=cite), Language.FR)
'la blanche a été empochée (règles 3b et 6)'
"""

from __future__ import annotations

import functools
import gettext
import io
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import TypeAlias

from nineball.rules.texts import Text

__all__ = ["DOMAIN", "Arg", "Items", "Language", "Message", "catalog", "render"]

DOMAIN = "nineball"
"""The gettext domain of the referee's catalogs."""


class Language(StrEnum):
    """A language the referee speaks."""

    EN = "en"
    FR = "fr"
    PL = "pl"


Arg: TypeAlias = "int | str | Message | Items"
"""The value of a placeholder: a number, a name, a message, or a list of them."""


@dataclass(frozen=True, slots=True)
class Items:
    """A list as the value of one placeholder, joined by the catalog's list patterns."""

    items: tuple[Arg, ...]
    """The items, in order (at least one)."""

    more: Text = Text.LIST_COMMA
    """The pattern that adds an item to a list that goes on."""

    last: Text = Text.LIST_AND
    """The pattern that adds the last item."""

    def __post_init__(self) -> None:
        """Check that the list is not empty.

        Raises:
            ValueError: no items.
        """
        if not self.items:
            raise ValueError("a list of items needs at least one item")


@dataclass(frozen=True, slots=True)
class Message:
    """One text with the values of its placeholders, in no language yet."""

    id: Text
    """The text: its msgid in the catalogs."""

    args: tuple[tuple[str, Arg], ...] = ()
    """The placeholders' values, by name, sorted by name."""

    count: int | None = None
    """The number that picks the plural form; given exactly when the text has plural forms."""

    def __post_init__(self) -> None:
        """Check that a count is given exactly when the text has plural forms.

        Raises:
            ValueError: a count missing, or given to a text without plural forms.
        """
        if (self.count is None) != (self.id.plural is None):
            need = "needs a count" if self.count is None else "takes no count"
            raise ValueError(f"the text {self.id.name} {need}, got {self.count!r}")

    @classmethod
    def of(cls, text: Text, *, count: int | None = None, **args: Arg) -> Message:
        """The message ``text`` with its placeholders' values given by name."""
        return cls(text, tuple(sorted(args.items())), count)


@functools.cache
def catalog(lang: Language) -> gettext.GNUTranslations:
    """The compiled catalog of ``lang``, read from the package once and then kept."""
    path = resources.files(__package__).joinpath(f"locale/{lang}/LC_MESSAGES/{DOMAIN}.mo")
    return gettext.GNUTranslations(io.BytesIO(path.read_bytes()))


def render(message: Message, lang: Language) -> str:
    """``message`` in ``lang``: its translation, with each placeholder's value rendered first."""
    return _render(message, catalog(lang))


def _render(message: Message, translations: gettext.GNUTranslations) -> str:
    text = message.id
    if message.count is None:
        pattern = translations.gettext(text.msgid)
    else:
        pattern = translations.ngettext(text.msgid, text.plural or text.msgid, message.count)
    values = {name: _value(arg, translations) for name, arg in message.args}
    return pattern.format(**values)


def _value(arg: Arg, translations: gettext.GNUTranslations) -> str:
    if isinstance(arg, Message):
        return _render(arg, translations)
    if isinstance(arg, Items):
        items = [_value(item, translations) for item in arg.items]
        joined = items[0]
        for index, item in enumerate(items[1:], start=2):
            pattern = arg.last if index == len(items) else arg.more
            joined = translations.gettext(pattern.msgid).format(items=joined, item=item)
        return joined
    return str(arg)
