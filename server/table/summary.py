"""A finished hand as everyone may see it (docs/rules/hcf.md section 3.8): results, shown cards, the revealed seed."""

from __future__ import annotations

from collections.abc import Mapping

from server.rules.cards import cards_list
from server.rules.fairness import derive_deck_seed, player_seed_bytes
from server.rules.game import JSON, Game, HandLike, JSONIn
from server.table.facts import taken
from server.table.rebet import carry_kept


def hand_summary(game: Game, state: HandLike, table: str, hand_id: int | None, names: Mapping[int, str],
                 carry: JSONIn, number: int | None = None, *,
                 kept: JSONIn | None = None) -> JSON:
    """The public record of a hand that is over; the server seed is revealed with it.

    ``number`` is the table's own count of dealt hands (None for an attempt never
    dealt); ``hand_id`` is the server-wide id the HTTP API and ``replay`` take.

    ``carry`` is what the hand started with; the record keeps what the next hand
    inherits (``carry``), so a restarted table picks up a jackpot meter from its last hand,
    and each player's last bets for Re-Bet (by player: ``kept`` is the table's carry before the hand).
    """
    own = game.summary(state)
    seeds = [(int(seat), str(seed)) for seat, seed in own.get("player_seeds", [])]
    deck_seed = derive_deck_seed(state.server_seed, [player_seed_bytes(s) for _, s in seeds])
    summary: JSON = {
        "table": table,
        "hand_id": hand_id,
        "number": number,
        "game": game.name,
        "status": state.phase,
        "reason": state.reason,
        "arranged": state.arranged_deck is not None or state.seat_deck is not None,
        "commitment": state.commitment,
        "server_seed": state.server_seed.hex(),
        "player_seeds": [[seat, seed] for seat, seed in seeds],
        "deck_seed": deck_seed.hex(),
        "names": {str(seat): name for seat, name in sorted(names.items())},
        **own,
        "carry": carry_kept(taken(game.after_hand(state, carry).carry), names, kept or {}),  # the game's own only
    }
    if state.arranged_deck is not None:
        summary["arranged_deck"] = cards_list(state.arranged_deck)
    if state.seat_deck is not None:  # what the host gave each place; the rest of the deal was random
        summary["arranged_hands"] = state.seat_deck.as_json()
    return summary
