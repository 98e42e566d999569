"""An ``hcf drill`` report sent to the trainee's history on a server (docs/drills.md, "Progress over sessions").

A rehearsal or practice runs on the trainee's machine without a server; its report is sent when this
machine has a saved session on the server (``--server``, by ``--name`` or the one saved there). Without
one, or when the server does not answer, the trainee is told plainly that the report was kept nowhere
but on their screen (``--json`` prints it, to keep).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from client_cli.api import ServerRefused, UnreachableError, request_json
from client_cli.store import TokenStore
from server.i18n import _
from server.rules.drill.progress import compact


@dataclass(frozen=True, slots=True)
class Keeper:
    """Where a report goes: the server, the account (None: the one saved session there) and the sessions file."""

    server: str
    name: str | None = None
    store: TokenStore | None = None

    def who(self) -> tuple[str, str] | None:
        """(name, token) of the saved session to send with; None without exactly one to choose."""
        store = self.store or TokenStore()
        url = self.server.rstrip("/")
        names = [self.name] if self.name else store.names(url)
        if len(names) != 1:
            return None
        token = store.token(url, names[0])
        return None if token is None else (names[0], token)

    def history(self) -> dict[str, Any] | None:
        """The trainee's own history on the server; None when there is none to read (said by the caller)."""
        who = self.who()
        if who is None:
            return None
        try:
            return request_json("GET", f"{self.server.rstrip('/')}/api/drill-history", token=who[1])
        except (ServerRefused, UnreachableError):
            return None


def keep(keeper: Keeper, report: dict[str, Any], *, source: str, mode: str, partial: bool) -> str:
    """Send ``report``'s figures (:func:`~server.rules.drill.progress.compact`: its answer log only with an exam) to the
    trainee's history; the sentence that says where it is kept."""
    url = keeper.server.rstrip("/")
    who = keeper.who()
    if who is None:
        return _("This report is kept only on your screen: no single saved session for {url} to send it with "
                 "(log in once with hcf account --server {url} --name NAME, or give --name).", url=url)
    body = {"source": source, "mode": mode, "partial": partial, "report": compact(report)}
    try:
        request_json("POST", f"{url}/api/drill-reports", body, token=who[1])
    except UnreachableError as exc:
        return _("This report is kept only on your screen: the server at {url} did not answer ({problem}).", url=url,
                 problem=exc)
    except ServerRefused as exc:
        return _("This report is kept only on your screen: the server at {url} refused it ({problem}).", url=url,
                 problem=exc.message)
    return _("This report is kept in {name}'s drill history on {url}.", name=who[0], url=url)
