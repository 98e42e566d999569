"""Re-Bet's last bets belong to the player, not the chair (issue 23 item 1; docs/games/caribbean.md).

The rules keep each seat's last bets in the hand's ``carry`` (``"last_bets"``: seat ->
bets), as they know seats only. The table keeps them by player between hands
(``"last_bets_of"``: the player's name, lower case, -> bets) and gives each hand the
bets of whoever sits in each seat now: a new player in a chair another left has
nothing to repeat, and a player who comes back to another seat repeats their own.
Names are unique per account and never change, and they are public, unlike account ids
(the carry is part of a hand's public record).

>>> kept = carry_kept({"meter": 5, "last_bets": {"3": [[3, 5, 1]]}}, {3: "Bot"}, {})
>>> kept
{'meter': 5, 'last_bets_of': {'bot': [[3, 5, 1]]}}
>>> carry_for_hand(kept, {3: "Ann"})
{'meter': 5, 'last_bets': {}}
>>> carry_for_hand(kept, {1: "BOT"})
{'meter': 5, 'last_bets': {'1': [[3, 5, 1]]}}
"""

from __future__ import annotations

from collections.abc import Mapping

from server.rules.game import JSON, JSONIn

LAST_BETS = "last_bets"  # the rules': seat -> bets
BY_PLAYER = "last_bets_of"  # the table's: name (lower case) -> bets


def carry_for_hand(carry: JSONIn, names: Mapping[int, str]) -> JSON:
    """The carry the rules get for a hand: each seat (``names``: seat -> its player's name) with its player's bets.

    A carry without last bets (a game without Re-Bet) passes unchanged. Seat-keyed last bets of an older
    record are dropped: whose they were is not known.
    """
    if LAST_BETS not in carry and BY_PLAYER not in carry:
        return dict(carry)
    own = _mapping(carry.get(BY_PLAYER))
    rest = {k: v for k, v in carry.items() if k not in (LAST_BETS, BY_PLAYER)}
    return {**rest, LAST_BETS: {str(seat): own[name.lower()] for seat, name in sorted(names.items())
                                if name.lower() in own}}


def carry_kept(after: JSONIn, names: Mapping[int, str], before: JSONIn) -> JSON:
    """What the table keeps after a hand: the rules' carry (``after``) with each seat's last bets filed under
    the name of the player who made them (``names``: seat -> name), the others' kept from ``before``."""
    if LAST_BETS not in after:
        return dict(after)
    own = dict(_mapping(before.get(BY_PLAYER)))
    for seat, bets in _mapping(after[LAST_BETS]).items():
        name = names.get(int(seat)) if str(seat).isdigit() else None
        if name is not None:
            own[name.lower()] = bets
    rest = {k: v for k, v in after.items() if k != LAST_BETS}
    return {**rest, BY_PLAYER: dict(sorted(own.items()))}


def _mapping(value: object) -> JSONIn:
    return value if isinstance(value, Mapping) else {}
