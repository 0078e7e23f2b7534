"""Extract, update and compile the gettext catalogs of the referee and of the web page (Babel).

Two domains, each with a template and one catalog per language (en, fr, pl):

- ``nineball`` (``src/nineball/rules/locale/``): the explanations of rulings. The template is
  extracted from :class:`nineball.rules.texts.Text`, each member's docstring becoming a comment
  for translators.
- ``web`` (``src/nineball/web/locale/``): the page's own strings, keyed by the names that
  ``static/main.js`` and ``index.html`` use. The English catalog is where a key is added; the
  template is made from it, with the English text as the comment for translators.

Each run extracts the templates, updates every ``.po`` from its template (a new message comes in
untranslated, a changed one fuzzy, a removed one is dropped), then compiles every ``.mo``. A file
is written only when more than its dates changed, so a second run changes nothing::

    make i18n            # or: python tools/i18n.py
"""

from __future__ import annotations

import ast
import inspect
import io
import itertools
import sys
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from nineball.rules.texts import Text

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "src/nineball/rules/locale"
WEB = ROOT / "src/nineball/web/locale"
TEXTS = ROOT / "src/nineball/rules/texts.py"
LANGS = ("en", "fr", "pl")
_DATES = (b'"POT-Creation-Date:', b'"PO-Revision-Date:')


_TEAM = "The nineball developers"


def _new(domain: str, locale: str | None = None) -> Catalog:
    what = "Translations template" if locale is None else f"The {locale} catalog"
    return Catalog(
        locale=locale,
        domain=domain,
        header_comment=f"# {what} of the {domain} domain of nineball (tools/i18n.py).\n#",
        project="nineball",
        copyright_holder=_TEAM,
        msgid_bugs_address=_TEAM,
        last_translator=_TEAM,
        language_team=_TEAM,
        charset="utf-8",
        fuzzy=False,
    )


def _docstrings() -> dict[str, str]:
    """The docstring under each member of Text, read from its source."""
    tree = ast.parse(TEXTS.read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Text").body
    notes = {}
    for statement, following in itertools.pairwise(body):
        if (
            isinstance(statement, ast.Assign)
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            notes[statement.targets[0].id] = inspect.cleandoc(following.value.value)
    return notes


def rules_template() -> Catalog:
    """The template of the ``nineball`` domain, one message per member of Text."""
    template = _new("nineball")
    notes = _docstrings()
    where = [(str(TEXTS.relative_to(ROOT)), 0)]
    for text in Text:
        comments = [text.name, *notes.get(text.name, "").splitlines()]
        msgid = text.msgid if text.plural is None else (text.msgid, text.plural)
        template.add(msgid, locations=where, auto_comments=comments)
    return template


def web_template() -> Catalog:
    """The template of the ``web`` domain: the keys of the English catalog."""
    with (WEB / "en/LC_MESSAGES/web.po").open("rb") as file:
        english = read_po(file, locale="en", domain="web")
    template = _new("web")
    for message in english:
        if message.id:
            template.add(message.id, auto_comments=[str(message.string)])
    return template


def _write(path: Path, writer: Callable[[io.BytesIO], None]) -> bool:
    """Write ``path`` unless only its dates would change; True when it was written."""
    buffer = io.BytesIO()
    writer(buffer)
    new = buffer.getvalue()
    if path.exists():
        old = path.read_bytes()

        def strip(data: bytes) -> list[bytes]:
            return [line for line in data.splitlines() if not line.startswith(_DATES)]

        if strip(old) == strip(new):
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(new)
    return True


def _po(catalog: Catalog) -> Callable[[io.BytesIO], None]:
    return lambda file: write_po(
        file, catalog, width=100, include_lineno=False, ignore_obsolete=True
    )


def _mo(catalog: Catalog) -> Callable[[io.BytesIO], None]:
    return lambda file: write_mo(file, catalog, use_fuzzy=False)


def refresh(locale_dir: Path, domain: str, template: Catalog) -> list[Path]:
    """Write the template, update each language's ``.po`` from it and compile its ``.mo``."""
    written = []
    pot = locale_dir / f"{domain}.pot"
    if _write(pot, _po(template)):
        written.append(pot)
    for lang in LANGS:
        po = locale_dir / lang / "LC_MESSAGES" / f"{domain}.po"
        if po.exists():
            with po.open("rb") as file:
                catalog = read_po(file, locale=lang, domain=domain)
        else:
            catalog = _new(domain, lang)
        catalog.update(template, update_header_comment=False)
        if _write(po, _po(catalog)):
            written.append(po)
        with po.open("rb") as file:
            compiled = read_po(file, locale=lang, domain=domain)
        mo = po.with_suffix(".mo")
        if _write(mo, _mo(compiled)):
            written.append(mo)
    return written


def main() -> int:
    """Refresh both domains and list the files written."""
    written = refresh(RULES, "nineball", rules_template())
    written += refresh(WEB, "web", web_template())
    for path in written:
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
