"""English, Spanish and German for every sentence a person reads (docs/i18n.md).

English is the message id. A sentence built where the language is not known yet (the table,
a refusal) is a :class:`Phrase`: a ``str`` that reads as its English sentence, so code and
tests that read it see what they always saw, and that keeps its id and parameters, so the
edge can say it again in the language of the connection (:func:`render`). Where the
language is known (the terminal client), :func:`tr` says a sentence at once.

The catalogs are gettext ``.po`` files under ``server/locale/LANG/LC_MESSAGES/hcf.po``,
read with Babel and served through the standard library's ``gettext`` (no build step:
they are compiled in memory the first time a language is used).
"""

from __future__ import annotations

import functools
import gettext
import io
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

LANGUAGES: Final = ("en", "es", "de")
"""The languages we speak; English first (it is the message id, and the default)."""

DOMAIN: Final = "hcf"
LOCALE_DIR: Final = Path(__file__).with_name("locale")


class Phrase(str):
    """An English sentence that remembers its message id and parameters, to be said again in another language.

    >>> p = phrase("the Ante is {low} to {high} chips", low=5, high=500)
    >>> p
    'the Ante is 5 to 500 chips'
    >>> p.msgid, dict(p.params)
    ('the Ante is {low} to {high} chips', {'low': 5, 'high': 500})
    """

    msgid: str
    params: Mapping[str, object]

    def __new__(cls, msgid: str, params: Mapping[str, object]) -> Phrase:
        made = super().__new__(cls, msgid.format(**params) if params else msgid)
        made.msgid, made.params = msgid, dict(params)
        return made

    def __reduce__(self) -> tuple[object, ...]:  # pickles (and copies) as a phrase, not a bare str
        return (Phrase, (self.msgid, self.params))


def phrase(msgid: str, /, **params: object) -> Phrase:
    """A sentence to be said in the reader's language: ``msgid`` is the English, with ``{name}`` fields."""
    return Phrase(msgid, params)


def told(msgid: str, /, **params: object) -> Phrase:
    """A phrase that travels in a table's updates, shared by every viewer: each client says it in its own
    language, the terminal from the gettext catalogs and the page from its JSON catalog (so both hold its id)."""
    return Phrase(msgid, params)


class Joined(Phrase):
    """Sentences (phrases or plain text) joined by ``sep``: each part said in the reader's language.

    >>> Joined(["a", phrase("b {n}", n=2)], "; ")
    'a; b 2'
    """

    parts: tuple[str, ...]
    sep: str

    def __new__(cls, parts: Sequence[str], sep: str) -> Joined:
        made = str.__new__(cls, sep.join(parts))
        made.msgid, made.params, made.parts, made.sep = "", {}, tuple(parts), sep
        return made

    def __reduce__(self) -> tuple[object, ...]:
        return (Joined, (self.parts, self.sep))


def joined(parts: Sequence[str], sep: str = ", ") -> str:
    """``sep.join(parts)``, keeping each part's phrase (one part: that part itself)."""
    return parts[0] if len(parts) == 1 else Joined(parts, sep)


def language(*tags: str | None) -> str:
    """Our language for the first tag we speak (``es-ES``, ``de_DE.UTF-8``, ``en``); English if none.

    >>> language("fr-FR", "de-AT")
    'de'
    >>> language(None, "C.UTF-8")
    'en'
    """
    for tag in tags:
        code = (tag or "").replace("_", "-").split("-")[0].split(".")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def accept_language(header: str | None) -> str:
    """The language an HTTP request asks for in its ``Accept-Language`` header: the one of highest weight that
    we speak (``de-CH, fr;q=0.9`` is German), else English.

    >>> accept_language("fr-FR, es;q=0.8, de;q=0.9"), accept_language(None), accept_language("de;q=0, *")
    ('de', 'en', 'en')
    """
    weighted: list[tuple[float, int, str]] = []
    for place, part in enumerate((header or "").split(",")[:32]):  # (a thousand tags are read no further)
        tag, _sep, rest = part.strip().partition(";")
        weight = _weight(rest)
        if weight > 0 and tag.strip():
            weighted.append((-weight, place, tag.strip()))
    for *_order, tag in sorted(weighted):  # the heaviest first; among equals, the header's order
        code = language(tag)
        if code != "en" or tag.lower().startswith("en"):
            return code
    return "en"


def _weight(params: str) -> float:
    """The ``q`` of a tag's parameters (1 when none is given, 0 when it is not a number)."""
    for param in params.split(";"):
        name, _sep, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return float(value)
            except ValueError:
                return 0.0
    return 1.0


def counted(count: int, unit: str) -> Phrase:
    """``1 day``, ``3 hours``: a count of days, hours, minutes or seconds as a phrase (said in the reader's language).

    >>> counted(1, "day"), counted(12, "hour"), counted(90, "second")
    ('1 day', '12 hours', '90 seconds')
    """
    one = count == 1
    if unit == "day":
        return phrase("1 day") if one else phrase("{count} days", count=count)
    if unit == "hour":
        return phrase("1 hour") if one else phrase("{count} hours", count=count)
    if unit == "minute":
        return phrase("1 minute") if one else phrase("{count} minutes", count=count)
    return phrase("1 second") if one else phrase("{count} seconds", count=count)


def environment_language(environ: Mapping[str, str] | None = None) -> str:
    """The language a terminal asks for: ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (gettext's order)."""
    env = os.environ if environ is None else environ
    return language(*(env.get(name) for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)))


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: none, the ids are English), compiled once from its ``.po``."""
    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if lang == "en" or not po.is_file():
        return gettext.NullTranslations()
    # Babel only here: the rules and the table may build phrases without importing it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def tr(lang: str, msgid: str, /, **params: object) -> str:
    """``msgid`` said in ``lang`` with its parameters filled in (each parameter said in ``lang`` too)."""
    text = translations(lang).gettext(msgid) if lang != "en" else msgid
    if not params:
        return text
    return text.format(**{name: render(value, lang) for name, value in params.items()})


def render(value: object, lang: str) -> object:
    """A :class:`Phrase` (or a str made of one) said in ``lang``; anything else as it is."""
    if isinstance(value, Joined) and lang != "en":
        return value.sep.join(render_text(part, lang) for part in value.parts)
    if isinstance(value, Phrase) and lang != "en":
        return tr(lang, value.msgid, **value.params)
    return value


def render_text(text: str, lang: str) -> str:
    """A sentence for a person in ``lang``: a phrase translated, any other text as it was written."""
    said = render(text, lang)
    return said if isinstance(said, str) else text


def render_all(value: object, lang: str) -> object:
    """Every phrase in ``value`` (a JSON answer: its dicts and lists too) said in ``lang``; the rest as it is.

    >>> render_all({"lines": [phrase("even")], "n": 2}, "en")
    {'lines': ['even'], 'n': 2}
    """
    if isinstance(value, dict):
        return {key: render_all(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [render_all(item, lang) for item in value]
    return render_text(value, lang) if isinstance(value, str) else value


_chosen = ["en"]  # the terminal client's one language (a process serves one person there)


def use_language(lang: str) -> str:
    """Make ``lang`` (or the nearest we speak) the language of :func:`_`; returns it."""
    _chosen[0] = language(lang)
    return _chosen[0]


def chosen_language() -> str:
    """The language :func:`use_language` chose (English until then)."""
    return _chosen[0]


def spoken(text: str) -> str:
    """A sentence (a :class:`Phrase`, such as a help text kept in a constant) in the chosen language."""
    return render_text(text, _chosen[0])


def _(msgid: str, /, **params: object) -> str:
    """``msgid`` in the language chosen by :func:`use_language` (the terminal client's; gettext's name).

    >>> _("your turn")
    'your turn'
    """
    return tr(_chosen[0], msgid, **params)


# ------------------------------------------------------------ sentences shared by every viewer

def spec(text: object) -> object:
    """How a client says ``text`` again in its own language: ``{"id", "args"}`` for a phrase (an argument that
    is a phrase as its own spec), ``{"join", "sep"}`` for joined parts, and plain text as it is.

    >>> spec(told("seat {seat} is dead", seat=phrase("three")))
    {'id': 'seat {seat} is dead', 'args': {'seat': {'id': 'three'}}}
    """
    if isinstance(text, Joined):
        return {"join": [spec(part) for part in text.parts], "sep": text.sep}
    if isinstance(text, Phrase):
        made: dict[str, object] = {"id": text.msgid}
        if text.params:
            made["args"] = {name: spec(value) for name, value in text.params.items()}
        return made
    return text


def with_say(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with ``say``: the spec of each field that holds a phrase (or a list with one), so every client
    says it in its language; the field itself keeps the English, for a client that does not read ``say``.

    >>> with_say({"type": "table_notice", "message": told("the bank moves on")})
    {'type': 'table_notice', 'message': 'the bank moves on', 'say': {'message': {'id': 'the bank moves on'}}}
    """
    say: dict[str, object] = {}
    for field, value in record.items():
        if isinstance(value, Phrase):
            say[field] = spec(value)
        elif isinstance(value, list) and any(isinstance(item, Phrase) for item in value):
            say[field] = [spec(item) if isinstance(item, Phrase) else None for item in value]
    if say:
        record["say"] = say
    return record


def say_again(said: object, lang: str) -> str:
    """A spec (:func:`spec`) said in ``lang``; an id no catalog holds stays in English."""
    if not isinstance(said, dict):
        return "" if said is None else str(said)
    if isinstance(said.get("join"), list):
        return str(said.get("sep", ", ")).join(say_again(part, lang) for part in said["join"])
    msgid = said.get("id")
    if not isinstance(msgid, str):
        return str(said)
    args = said.get("args")
    text = translations(lang).gettext(msgid) if lang != "en" else msgid
    try:
        return text.format(**{name: say_again(value, lang) for name, value in (args or {}).items()})
    except (KeyError, IndexError, ValueError, AttributeError):
        return msgid


def _say_of(record: Mapping[str, Any]) -> Mapping[str, Any]:
    say = record.get("say")
    return say if isinstance(say, Mapping) else {}


def heard(record: Mapping[str, Any], field: str, lang: str | None = None) -> str:
    """A shared sentence of ``record`` in ``lang`` (the chosen language): its ``say`` spec, else its text."""
    said, text = _say_of(record).get(field), record.get(field)
    if said is None or isinstance(said, list):
        return "" if text is None else str(text)
    return say_again(said, lang or _chosen[0])


def heard_lines(record: Mapping[str, Any], field: str, lang: str | None = None) -> list[str]:
    """A list of shared sentences of ``record`` (a note's lines) in ``lang``, each from its spec if it has one."""
    lines = record.get(field) or []
    specs = _say_of(record).get(field)
    specs = specs if isinstance(specs, list) else []
    return [say_again(specs[i], lang or _chosen[0]) if i < len(specs) and specs[i] is not None else str(line)
            for i, line in enumerate(lines)]
