"""``hcf tables``: the open tables, from ``GET /api/tables`` (no login needed).

The formatting is pure; :func:`show_tables` fetches and prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from client_cli.connection import http_json
from client_cli.notes import notes_lines
from server.i18n import _, phrase, spoken

GAMES = {"hcf": "High Card Flush", "caribbean": "Caribbean Stud", "sixcard": "6 Card Poker"}
# What a table does now, in one or two words (the server's phase codes; an unknown one is shown as it comes).
PHASES = {"waiting": phrase("waiting"), "offer": phrase("bank offer"), "betting": phrase("betting"),
          "decisions": phrase("decisions"), "exchange": phrase("dealer exchange"), "settled": phrase("settled"),
          "void": phrase("void"), "not_dealt": phrase("not dealt")}


def table_line(table: Mapping[str, Any]) -> str:
    """One table: name, game, seats taken, the Ante limits, what it does now.

    >>> table_line({"name": "main", "game": "hcf", "phase": "decisions",
    ...             "settings": {"seats": 7, "min_ante": 5, "max_ante": 500},
    ...             "seats": [{"seat": 1, "name": "ann"}, {"seat": 3, "name": "bo"}]})
    'main      High Card Flush   2/7 seated  Ante 5-500     decisions   ann, bo'

    A house game's places are its spots or boxes; an Ante with no ceiling says so:

    >>> table_line({"name": "six", "game": "sixcard", "phase": "betting",
    ...             "settings": {"boxes": 4, "min_ante": 5, "max_ante": None}, "seats": []})
    'six       6 Card Poker      0/4 seated  Ante 5 or more betting     nobody seated'
    """
    settings: Mapping[str, Any] = table.get("settings") or {}
    seated: Sequence[Mapping[str, Any]] = table.get("seats") or []
    game = GAMES.get(str(table.get("game")), str(table.get("game")))
    places = next((settings[k] for k in ("seats", "spots", "boxes") if isinstance(settings.get(k), int)), None)
    low, high = settings.get("min_ante"), settings.get("max_ante")
    limits = _("Ante {low} or more", low=low) if high is None else _("Ante {low}-{high}", low=low, high=high)
    players = ", ".join(str(s.get("name")) for s in seated) or _("nobody seated")
    taken = _("{taken} seated", taken=f"{len(seated)}/{places}" if places is not None else len(seated))
    return (f"{table.get('name')!s:<9} {game:<17} {taken}  "
            f"{limits:<14} {_phase(table.get('phase')):<11} {players}")


def _phase(code: Any) -> str:
    code = str(code or "waiting")
    return spoken(PHASES[code]) if code in PHASES else code.replace("_", " ")


def tables_lines(tables: Sequence[Mapping[str, Any]]) -> list[str]:
    """The list, in the server's order, or a sentence when there is none."""
    if not tables:
        return [_("no open tables: the host opens one with 'hcf host create-table NAME'")]
    lines = [_("1 open table:") if len(tables) == 1 else _("{n} open tables:", n=len(tables))]
    for table in tables:  # each table's posted house rules under its line
        lines += [table_line(table), *(f"          {line}" for line in notes_lines(table.get("notes")))]
    return [*lines, _("join one with: hcf play --table NAME --name YOU")]


async def show_tables(url: str, as_json: bool) -> int:
    """Fetch the lobby and print it; returns the exit status."""
    reply = await http_json("GET", f"{url.rstrip('/')}/api/tables")
    tables = list(reply.get("tables") or [])
    print(json.dumps({"tables": tables}, indent=2) if as_json else "\n".join(tables_lines(tables)))
    return 0
