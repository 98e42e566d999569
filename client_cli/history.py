"""``hcf history``: the table's last hands, or one hand in full (with its deal checked).

The formatting functions are pure; :func:`show_history` fetches and prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from client_cli.api import http_json
from client_cli.games import client_for
from client_cli.reasons import dead_reason, not_dealt_reason, void_reason
from client_cli.render import bets_text, result_lines
from client_cli.verify import Seen, seen_from_reveal, verify_reveal
from server.i18n import _, phrase, spoken


def _names(hand: Mapping[str, Any]) -> dict[int, str]:
    return {int(k): str(v) for k, v in (hand.get("names") or {}).items()}


STATUS: dict[str, str] = {"settled": phrase("played"), "void": phrase("void"), "not_dealt": phrase("not dealt")}
"""How a hand ended, in a word a person reads."""
GAMES: dict[str, str] = {"hcf": "High Card Flush", "caribbean": "Caribbean Stud", "sixcard": "6 Card Poker"}
"""Each game by its name."""


def status_word(hand: Mapping[str, Any]) -> str:
    """The hand's status in words (an unknown one without its underscores)."""
    status = str(hand.get("status", "settled"))
    return spoken(STATUS[status]) if status in STATUS else status.replace("_", " ")


def hand_label(hand: Mapping[str, Any]) -> str:
    """The hand as a person counts it: the table's own number (the server-wide id when it has none).

    >>> hand_label({"hand_id": 41, "number": 3}), hand_label({"hand_id": 41})
    ('#3', 'id 41')
    """
    number = hand.get("number")
    return f"#{number}" if isinstance(number, int) else _("id {id}", id=hand.get("hand_id"))


def hand_row(hand: Mapping[str, Any]) -> str:
    """One line of the list: the table's hand number, status, the DP and each seat's net (or why there were none).

    >>> hand_row({"hand_id": 5, "number": 2, "status": "void", "reason": "shuffler_fault"})
    '#2     void      the host reported a fault of the shuffler'

    >>> hand_row({"hand_id": 40, "number": 4, "status": "settled", "dealer": 1, "names": {"1": "ann", "2": "bo"},
    ...           "settlement": {"dealer": {"net": 5}, "seats": [{"seat": 2, "net": -5}]}})
    '#4     played    DP ann +5 · bo -5'
    """
    names = _names(hand)
    dealer = hand.get("dealer")
    head = f"{hand_label(hand):<6} {status_word(hand):<9}"
    if hand.get("arranged"):
        head += " " + _("ARRANGED")
    settlement = hand.get("settlement")
    if not settlement:
        reason = hand.get("reason")
        if not reason:
            return head.rstrip()
        said = void_reason(reason) if hand.get("status") == "void" else not_dealt_reason(reason)
        return f"{head} {said}"
    game = client_for(hand)
    if game is not None:  # house-banked: each seat's net over its spots or boxes
        nets = game.seat_nets(hand)
        return f"{head} {GAMES.get(game.name, game.name)}: " + " · ".join(
            f"{names.get(seat, _('seat {seat}', seat=seat))} {net:+d}" for seat, net in sorted(nets.items()))
    parts = []
    if isinstance(dealer, int):
        parts.append(_("DP {name} {net}", name=names.get(dealer, dealer), net=f"{int(settlement['dealer']['net']):+d}"))
    for seat in settlement.get("seats", []):
        who = names.get(int(seat["seat"]), _("seat {seat}", seat=seat["seat"]))
        parts.append(f"{who} {_dead_word(seat) if seat.get('dead') else format(int(seat['net']), '+d')}")
    return f"{head} " + " · ".join(parts)


def _dead_word(result: Mapping[str, Any]) -> str:
    """``dead``, with its reason in a word when the record has one (``dead (DP had 60, owed 120)``)."""
    code = result.get("dead_reason")
    if code == "funds":
        return _("dead (DP had {bank}, owed {owed})", bank=result.get("bank", "?"), owed=result.get("owed", "?"))
    return _("dead ({reason})", reason=dead_reason(code)) if code else _("dead")


def hand_lines(hand: Mapping[str, Any]) -> list[Text]:
    """One hand in full: bets, the showdown, the seeds and the check of the deal."""
    names = _names(hand)
    lines = [Text(_("Hand {hand} at {table} ({status}{arranged}; server id {id})", hand=hand_label(hand),
                    table=hand.get("table"), status=status_word(hand), id=hand.get("hand_id"),
                    arranged=", " + _("ARRANGED DECK") if hand.get("arranged") else ""), style="bold")]
    game = client_for(hand)
    if game is not None:
        lines.extend(game.history_bets(hand, names))
        lines.extend(game.result_lines(hand, names, symbols=False))
    else:
        for seat, bets in sorted((hand.get("bets") or {}).items(), key=lambda kv: int(kv[0])):
            raised = int(bets.get("raise", 0))
            lines.append(Text(f"  {int(seat):>2} {names.get(int(seat), '?'):<14} {bets_text(bets)}"
                              + (" · " + _("raised {chips}", chips=raised) if raised else "")))
        lines.extend(result_lines(hand, names, symbols=False))
    lines.append(Text("  " + _("commitment  {hash}", hash=hand.get("commitment"))))
    lines.append(Text("  " + _("server seed {seed}", seed=hand.get("server_seed"))))
    seeds = ", ".join(_("seat {seat}: {seed}", seat=s, seed=v) for s, v in hand.get("player_seeds") or []) or _("none")
    lines.append(Text("  " + _("player seeds {seeds}", seeds=seeds)))
    verdict = verify_reveal(hand, Seen(cards=seen_from_reveal(hand)))
    lines.extend(Text(line, style="green" if verdict.ok else "red" if verdict.ok is False else "cyan")
                 for line in verdict.lines)
    return lines


def list_lines(hands: Sequence[Mapping[str, Any]], table: str) -> list[str]:
    """The list of recent hands (newest first)."""
    if not hands:
        return [_("no finished hands at {table} yet", table=table)]
    return [_("Last {count} hands at {table} (newest first):", count=len(hands), table=table),
            *(hand_row(h) for h in hands)]


async def show_history(url: str, table: str, hand: int | None, limit: int, as_json: bool,
                       hand_id: int | None = None) -> int:
    """Fetch and print; returns the exit status.

    ``hand`` is the table's own hand number (what every screen shows); ``hand_id``
    the server-wide id (what ``hcf-server replay`` and ``/api/hands/ID`` take).
    """
    url = url.rstrip("/")
    if hand is not None or hand_id is not None:
        path = f"/api/hands/{hand_id}" if hand_id is not None else f"/api/tables/{table}/hands/{hand}"
        data = await http_json("GET", url + path)
        if as_json:
            print(json.dumps(data, indent=2))
        else:
            for line in hand_lines(data):
                print(line.plain)
        return 0
    reply = await http_json("GET", f"{url}/api/tables/{table}/hands?limit={limit}")
    hands = list(reply.get("hands") or [])
    if as_json:
        print(json.dumps({"table": table, "hands": hands}, indent=2))
    else:
        print("\n".join(list_lines(hands, table)))
    return 0
