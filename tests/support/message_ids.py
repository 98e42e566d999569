"""Every message id the code says, and the catalogs that translate them (docs/i18n.md).

Python: the first string argument of ``phrase(...)`` and ``_(...)``, the second of
``tr(lang, ...)``, found by walking the syntax tree of ``server/`` and ``client_cli/``.
The page: every ``t("...")`` in ``server/web/static/*.js``, and every ``told(...)`` of the
server (a sentence shared in a table's updates, which the page says from its own catalog).
The shipped drill scenarios: each one's ``title`` and ``about`` (written in English in its file under
``server/drill/scenarios``; the rehearsal says them in the trainee's language).

``python -m tests.support.message_ids`` adds the ids the code says and a catalog lacks to
each ``.po`` file (with an empty translation, for a translator to fill) and drops the ones
no code says any more; the completeness test (tests/test_i18n_catalogs.py) fails until
every id has its Spanish and German.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ROOTS = (ROOT / "server", ROOT / "client_cli")
STATIC = ROOT / "server" / "web" / "static"
PAGE_CATALOGS = STATIC / "i18n"
SCENARIOS = ROOT / "server" / "drill" / "scenarios"
SCENARIO_TEXTS = ("title", "about")
TRANSLATED = ("es", "de")
_FIRST = frozenset({"phrase", "_", "told"})
_JS_CALL = re.compile(r"""\bt\(\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1""")


def python_ids(roots: tuple[Path, ...] = PYTHON_ROOTS, first: frozenset[str] = _FIRST) -> dict[str, str]:
    """Each message id said in Python, with one place that says it (``file:line``)."""
    found: dict[str, str] = {}
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                msgid = _msgid(node, first)
                if msgid is not None:
                    found.setdefault(msgid, f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}")
    return found


def shared_ids(roots: tuple[Path, ...] = PYTHON_ROOTS) -> dict[str, str]:
    """Each id of a sentence shared in the updates (``told(...)``), with one place that says it."""
    return python_ids(roots, frozenset({"told"}))


def _msgid(node: ast.AST, first: frozenset[str] = _FIRST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) \
        and func.attr in ("phrase", "told") else ""
    if name not in first and name != "tr":
        return None
    index = 0 if name in first else 1 if name == "tr" and first is _FIRST else None
    if index is None or len(node.args) <= index:
        return None
    arg = node.args[index]
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None


def scenario_ids(folder: Path = SCENARIOS) -> dict[str, str]:
    """Each shipped scenario's ``title`` and ``about``, with the file that says it."""
    found: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key in SCENARIO_TEXTS:
            if isinstance(data.get(key), str) and data[key]:
                found.setdefault(data[key], f"{path.relative_to(ROOT)}:{key}")
    return found


def catalog_ids() -> dict[str, str]:
    """Every id the ``.po`` catalogs hold: the Python code's and the shipped scenarios'."""
    return scenario_ids() | python_ids()


def page_ids(static: Path = STATIC) -> dict[str, str]:
    """Each message id the page says: its own ``t("...")`` and the server's shared ``told(...)``, with where."""
    found: dict[str, str] = shared_ids() if static == STATIC else {}
    for path in sorted(static.glob("*.js")):
        for match in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(json.loads(f'"{match.group(2)}"') if match.group(1) == '"' else match.group(2),
                             path.name)
    return found


def po_path(lang: str) -> Path:
    """The gettext catalog of ``lang``."""
    return ROOT / "server" / "locale" / lang / "LC_MESSAGES" / "hcf.po"


def read_catalog(lang: str) -> Catalog:
    """The ``.po`` catalog of ``lang``, as Babel reads it."""
    with po_path(lang).open("rb") as source:
        return read_po(source, locale=lang, domain="hcf")


def page_catalog(lang: str) -> dict[str, str]:
    """The page's JSON catalog of ``lang``."""
    loaded: dict[str, str] = json.loads((PAGE_CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


def sync() -> None:
    """Bring each ``.po`` catalog to the ids the code says: add the missing (untranslated), drop the unused."""
    ids = catalog_ids()
    for lang in TRANSLATED:
        catalog = read_catalog(lang) if po_path(lang).is_file() else Catalog(locale=lang, domain="hcf")
        for message in list(catalog):
            if message.id and message.id not in ids:
                catalog.delete(message.id)
        for msgid in ids:
            if msgid not in catalog:
                catalog.add(msgid, "")
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        with po_path(lang).open("wb") as out:
            write_po(out, catalog, width=110, omit_header=False, sort_output=True)



def phrase_ids(text: object) -> list[str]:
    """Every message id in a sentence (a phrase, its phrase arguments, joined parts); a plain str has none."""
    from server.i18n import Joined, Phrase

    if isinstance(text, Joined):
        return [msgid for part in text.parts for msgid in phrase_ids(part)]
    if isinstance(text, Phrase):
        return [text.msgid, *(msgid for value in text.params.values() for msgid in phrase_ids(value))]
    return []

if __name__ == "__main__":
    sync()
