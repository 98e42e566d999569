"""argparse's own words (``usage:``, ``options``, its errors) in the person's language (docs/i18n.md).

argparse says them through the standard library's ``gettext``, in its default domain, with
the exact English as the message id (``from gettext import gettext as _`` in Lib/argparse.py).
While ``hcf`` builds its parser and reads the command line, :func:`argparse_words` binds
that domain to a catalog of ours: a ``.mo`` file in a temporary folder, compiled from the
translations of exactly these ids in our ``.po`` files, and chosen with ``LANGUAGE`` (the
variable gettext reads first). Both are put back as they were afterwards, and the folder
removed; English needs nothing (the ids are English). The command names and options
themselves stay as they are typed.
"""

from __future__ import annotations

import contextlib
import gettext
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from server.i18n import phrase, tr

WORDS: Final = (
    phrase("usage: "), phrase("options"), phrase("positional arguments"), phrase("show this help message and exit"),
    phrase("%(prog)s: error: %(message)s\n"), phrase("argument %(argument_name)s: %(message)s"),
    phrase("invalid choice: %(value)r (choose from %(choices)s)"),
    phrase("the following arguments are required: %s"), phrase("unrecognized arguments: %s"),
    phrase("invalid %(type)s value: %(value)r"), phrase("expected one argument"),
    phrase("expected at least one argument"), phrase("expected at most one argument"),
    phrase("ambiguous option: %(option)s could match %(matches)s"), phrase("not allowed with argument %s"),
    phrase("one of the arguments %s is required"), phrase("ignored explicit argument %r"),
)
"""The ids argparse says that a person of ``hcf`` may read (Python 3.11's Lib/argparse.py, word for word)."""


@contextlib.contextmanager
def argparse_words(lang: str) -> Iterator[None]:
    """argparse speaks ``lang`` inside the block (its help and its errors; a ``SystemExit`` of ``--help`` or of a
    typo passes through, and everything is put back first)."""
    if lang == "en":
        yield
        return
    domain = gettext.textdomain()
    before_dir, before_language = gettext.bindtextdomain(domain), os.environ.get("LANGUAGE")
    with tempfile.TemporaryDirectory(prefix="hcf-argparse-") as folder:
        compiled = Path(folder) / lang / "LC_MESSAGES" / f"{domain}.mo"
        compiled.parent.mkdir(parents=True)
        compiled.write_bytes(_catalog(lang))
        gettext.bindtextdomain(domain, folder)
        os.environ["LANGUAGE"] = lang
        try:
            yield
        finally:
            gettext.bindtextdomain(domain, before_dir)
            if before_language is None:
                os.environ.pop("LANGUAGE", None)
            else:
                os.environ["LANGUAGE"] = before_language


def _catalog(lang: str) -> bytes:
    """The compiled catalog of :data:`WORDS` in ``lang`` (Babel, as server/i18n.py reads our ``.po`` files)."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale=lang)
    for word in WORDS:
        catalog.add(word, tr(lang, word))
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()
