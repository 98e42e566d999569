"""A real hand played through the rules core, and the messages a client gets of it.

The table events and the ``hand_revealed`` summary are built the way the table
server builds them (``server/table/runner.py``), so the client's tests see the
shapes it meets on the wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.rules.cards import cards_list
from server.rules.fairness import derive_deck_seed, player_seed_bytes
from server.rules.hcf import messages as m
from server.rules.hcf.hand import HandState, Player, apply_events, new_hand, opening_events, step
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.view import hand_view, own_cards_payload, public_event

SERVER_SEED = bytes(range(100, 132))
NAMES = {1: "ann", 2: "bob", 3: "cy"}
HAND_ID = 41


@dataclass
class PlayedHand:
    """A settled hand: its state, its events as the table sees them, and the reveal."""

    state: HandState
    events: list[dict[str, Any]]
    reveal: dict[str, Any]

    def own_cards(self, seat: int) -> dict[str, Any]:
        """The ``your_cards`` private event of ``seat``."""
        return own_cards_payload(self.state.hands[seat])


def play_a_hand(arranged: tuple[int, ...] | None = None) -> PlayedHand:
    """Seat 1 banks; seat 2 bets 10 with a 5 Flush bonus and raises; seat 3 bets 10 and folds."""
    settings = HcfSettings()
    players = [Player(1, 1000), Player(2, 1000), Player(3, 1000)]
    state = new_hand(settings, players, SERVER_SEED, offer_from=1, arranged_deck=arranged)
    events: list[m.Event] = opening_events(state)
    state = apply_events(state, events)
    for command in (m.AcceptBank(1), m.PlaceBets(2, 10, 0, 5, "bob's seed"), m.PlaceBets(3, 10, 0, 0, "cy")):
        state, more = step(state, command)
        events += more
    limit = own_cards_payload(state.hands[2])["raise_limit"]
    for command in (m.Raise(2, 10 * limit), m.Fold(3)):
        state, more = step(state, command)
        events += more
    assert state.phase == "settled"
    wire = [{**public_event(e), "hand_id": HAND_ID} for e in events]
    return PlayedHand(state, wire, reveal_of(state))


def reveal_of(state: HandState) -> dict[str, Any]:
    """The ``hand_revealed`` summary, as the table server writes it."""
    seeds = [(seat, b.seed) for seat, b in sorted(state.bets.items()) if b.seed is not None]
    deck_seed = derive_deck_seed(state.server_seed, [player_seed_bytes(s) for _, s in seeds])
    view = hand_view(state, None)
    summary: dict[str, Any] = {
        "type": "hand_revealed", "table": "main", "hand_id": HAND_ID, "status": state.phase,
        "reason": state.reason, "profile": "california", "dealer": state.dealer,
        "arranged": state.arranged_deck is not None, "commitment": state.commitment,
        "server_seed": state.server_seed.hex(), "player_seeds": [[seat, seed] for seat, seed in seeds],
        "deck_seed": deck_seed.hex(), "deal_order": list(state.deal_sequence),
        "names": {str(k): v for k, v in NAMES.items()},
        "bets": {str(seat): {"ante": b.ante, "straight_flush_bonus": b.straight_flush_bonus,
                             "flush_bonus": b.flush_bonus, "raise": state.raises.get(seat, 0)}
                 for seat, b in sorted(state.bets.items())},
        "settlement": view["settlement"], "dealer_cards": view["dealer_cards"],
        "dealer_qualifies": view["dealer_qualifies"], "shown": view["shown"],
    }
    if state.arranged_deck is not None:
        summary["arranged_deck"] = cards_list(state.arranged_deck)
    return summary


def snapshot(state: HandState | None, viewer: int | None, *, phase_seats: dict[int, int] | None = None,
             clock: dict[str, Any] | None = None, server_time: float = 1000.0) -> dict[str, Any]:
    """A table snapshot around ``state`` as ``viewer`` sees it."""
    stacks = phase_seats or {1: 1000, 2: 987, 3: 989}
    button = state.dealer if state is not None else None
    hand = None
    if state is not None:
        hand = hand_view(state, viewer) | {"hand_id": HAND_ID}
        if clock is not None:
            hand["clock"] = clock
    return {
        "table": "main", "seq": 30, "server_time": server_time, "settings": HcfSettings().as_dict(),
        "status": "playing", "waiting_reason": None,
        "seats": [{"seat": s, "name": NAMES[s], "stack": stacks[s], "sitting_out": False, "present": True,
                   "willing_to_bank": True, "leaving": False, "button": s == button} for s in sorted(stacks)],
        "button": button, "hand": hand, "last_hand": None,
        "you": {"account": viewer, "seat": viewer, "sitting_out": False if viewer else None},
        "arranged_next": False,
    }
