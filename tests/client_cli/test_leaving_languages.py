"""The leaving lines in German and Spanish (issue 28 item 5; docs/i18n.md): Ctrl-C's question on your turn, the
answer that keeps you in the hand and the status while leaving, on the play loop with a fake connection."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.i18n import use_language
from tests.client_cli.test_leaving import _decision, _leaves, _session
from tests.client_cli.test_offers import _settle


@pytest.fixture
def _back_to_english() -> Iterator[None]:
    yield
    use_language("en")  # the client's one language is the process's: leave it as the other tests expect it


@pytest.mark.usefixtures("_back_to_english")
@pytest.mark.parametrize(("lang", "question", "kept", "leaving"), [
    ("de", "Hand weglegen und gehen? [y/N]", "Sie spielen weiter: nichts wurde weggelegt",
     "Sie gehen nach dieser Hand: 'stay' nimmt es zurück"),
    ("es", "¿retirarse y salir? [y/N]", "sigue jugando: no se retiró nada", "sale tras esta mano: 'stay' lo anula"),
])
async def test_the_leaving_lines_are_said_in_the_language(lang: str, question: str, kept: str,
                                                          leaving: str) -> None:
    use_language(lang)
    session, conn = await _session(_decision())
    session.departure.interrupt()
    await _settle()
    assert (session.screen().message or "").startswith(question)
    session._line("n")  # the answer words stay the typed English ones (y / yes)
    await _settle()
    assert session.message == kept
    assert _leaves(conn) == []
    session._line("leave")
    await _settle()
    assert (session.departure.status() or "").startswith(leaving)
