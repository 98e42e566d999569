"""A finished hand as everyone may see it (RULES.md step 8): results, shown cards, the revealed seed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.rules.cards import cards_list
from server.rules.fairness import derive_deck_seed, player_seed_bytes
from server.rules.hcf.hand import HandState
from server.rules.hcf.view import hand_view


def hand_summary(state: HandState, table: str, hand_id: int | None, names: Mapping[int, str]) -> dict[str, Any]:
    """The public record of a hand that is over; the server seed is revealed with it."""
    seeds = [(seat, b.seed) for seat, b in sorted(state.bets.items()) if b.seed is not None]
    deck_seed = derive_deck_seed(state.server_seed, [player_seed_bytes(s) for _, s in seeds])
    summary: dict[str, Any] = {
        "table": table,
        "hand_id": hand_id,
        "status": state.phase,
        "reason": state.reason,
        "profile": state.settings.profile,
        "dealer": state.dealer,
        "arranged": state.arranged_deck is not None,
        "commitment": state.commitment,
        "server_seed": state.server_seed.hex(),
        "player_seeds": [[seat, seed] for seat, seed in seeds],
        "deck_seed": deck_seed.hex(),
        "deal_order": list(state.deal_sequence),
        "names": {str(seat): name for seat, name in sorted(names.items())},
        "bets": {str(seat): {"ante": b.ante, "straight_flush_bonus": b.straight_flush_bonus,
                             "flush_bonus": b.flush_bonus, "raise": state.raises.get(seat, 0)}
                 for seat, b in sorted(state.bets.items())},
    }
    if state.settlement is not None:
        view = hand_view(state, None)
        summary |= {"settlement": view["settlement"], "dealer_cards": view["dealer_cards"],
                    "dealer_qualifies": view["dealer_qualifies"], "shown": view["shown"]}
    if state.arranged_deck is not None:
        summary["arranged_deck"] = cards_list(state.arranged_deck)
    return summary
