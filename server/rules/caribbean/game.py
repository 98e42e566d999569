"""Caribbean Stud behind the :class:`~server.rules.game.Game` interface the table drives.

Only translation lives here: the rules are in ``hand.py``, ``settlement.py``,
``view.py`` and ``postings.py``. What outlives a hand, the jackpot meter and each
seat's last bets (for *Re-Bet*), travels in the table's ``carry``.

>>> CARIBBEAN.move(3, "bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}]})
PlaceSpotBets(seat=3, bets=(SpotBet(spot=1, ante=10, jackpot=True),), seed=None)
>>> CARIBBEAN.table_view(CaribbeanSettings(), {})
{'jackpot_meter': 1000000, 'jackpot_chips': 10000}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from server.rules.cards import Card, cards_list
from server.rules.caribbean import hand as h
from server.rules.caribbean import messages as m
from server.rules.caribbean.messages import settlement_as_json
from server.rules.caribbean.postings import hand_postings
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.view import hand_view, private_events, public_event
from server.rules.errors import Violation
from server.rules.game import JSON, ClockSpec, Player, Transfer

_BY_CHOICE: Final = ("fold", "clear")  # fold and clear reasons that are a player's own choice
_BET_KEYS: Final = frozenset({"spot", "ante", "jackpot"})


def _malformed(sentence: str) -> Violation:
    return Violation(sentence, "request/malformed")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def wire_bets(args: Mapping[str, Any]) -> tuple[m.SpotBet, ...]:
    """The ``bets`` of a ``bet`` move: a list of ``{"spot", "ante", "jackpot"?}``, strictly typed."""
    bets = args.get("bets")
    if not isinstance(bets, list | tuple):
        raise _malformed('"bets" must be a list of {"spot", "ante", "jackpot"}')
    out = []
    for bet in bets:
        if not isinstance(bet, Mapping) or not {"spot", "ante"} <= set(bet) or set(bet) - _BET_KEYS:
            raise _malformed(f'each bet is {{"spot": n, "ante": n, "jackpot": true|false}}, got {bet!r}')
        jackpot = bet.get("jackpot", False)
        if not _whole(bet["spot"]) or not _whole(bet["ante"]) or not isinstance(jackpot, bool):
            raise _malformed(f"a bet's spot and ante are whole numbers and its jackpot true or false, got {bet!r}")
        out.append(m.SpotBet(bet["spot"], bet["ante"], jackpot))
    return tuple(out)


def _wire_spot(args: Mapping[str, Any]) -> int | None:
    spot = args.get("spot")
    if spot is not None and not _whole(spot):
        raise _malformed(f'"spot" must be a spot number, got {spot!r}')
    return spot


class CaribbeanStud:
    """Cyber Caribbean Stud: house-banked, up to ``max_hands`` spots a player, a progressive jackpot."""

    name = "caribbean"
    terminal = h.TERMINAL

    def settings_from_mapping(self, values: Mapping[str, Any], base: Any = None) -> CaribbeanSettings:
        """Validated settings (a ``game`` key naming this game is allowed)."""
        return CaribbeanSettings.from_mapping(values, base)

    def new_hand(self, settings: CaribbeanSettings, players: Sequence[Player], server_seed: bytes, *,
                 offer_from: int, arranged_deck: Sequence[Card] | None, carry: Mapping[str, Any]) -> h.HandState:
        """A fresh hand, open for bets, with the meter and last bets from ``carry``."""
        return h.new_hand(settings, players, server_seed, offer_from=offer_from, arranged_deck=arranged_deck,
                          carry=carry)

    def opening_events(self, state: h.HandState) -> list[Any]:
        """Betting open (or no hand)."""
        return list(h.opening_events(state))

    def decide(self, state: h.HandState, command: Any) -> list[Any]:
        """See :func:`server.rules.caribbean.hand.decide`."""
        return list(h.decide(state, command))

    def evolve(self, state: h.HandState, event: Any) -> h.HandState:
        """See :func:`server.rules.caribbean.hand.evolve`."""
        return h.evolve(state, event)

    def postings(self, state: h.HandState, event: Any, table: str, accounts: Mapping[int, int]) -> list[Transfer]:
        """See :func:`server.rules.caribbean.postings.hand_postings`."""
        return hand_postings(state, event, table, accounts)

    def event_as_json(self, event: Any) -> JSON:
        """The event as logged (every card)."""
        payload: JSON = event.as_json()
        return payload

    def event_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a logged event."""
        return m.event_from_json(data)

    def command_as_json(self, command: Any) -> JSON:
        """A command as recorded in the hand's input log."""
        return m.command_as_json(command)

    def command_from_json(self, data: Mapping[str, Any]) -> Any:
        """Rebuild a recorded command."""
        return m.command_from_json(data)

    def public_event(self, event: Any) -> JSON:
        """The deal becomes card counts and the dealer's up-card; the rest is public as logged."""
        return public_event(event)

    def private_events(self, state: h.HandState, event: Any) -> list[tuple[int, JSON]]:
        """Each seat's own spots at the deal."""
        return private_events(state, event)

    def hand_view(self, state: h.HandState, viewer: int | None) -> JSON:
        """See :func:`server.rules.caribbean.view.hand_view`."""
        return hand_view(state, viewer)

    def summary(self, state: h.HandState) -> JSON:
        """Bets, decisions, results, the dealer's and the shown cards, and the meter around the hand."""
        return {
            "game": self.name,
            "bets": [{"spot": b.spot, "seat": b.seat, "ante": b.ante, "jackpot": b.jackpot,
                      "bet": state.played.get(b.spot, 0), "folded": state.folded.get(b.spot),
                      "dead": b.spot in state.dead} for b in state.bets],
            "settlement": settlement_as_json(state.settlement) if state.settlement is not None else None,
            "dealer_cards": cards_list(state.dealer) if state.revealed else None,
            "dealer_qualifies": state.dealer_qualifies,
            "shown": {str(spot): cards_list(cards) for spot, cards in state.shown},
            "meter_before": state.meter,
            "meter_after": state.meter_now,
            "deal_order": list(state.deal_order),
        }

    def player_seeds(self, state: h.HandState) -> list[tuple[int, str]]:
        """Seeds of the seats with confirmed bets, in seat order."""
        return list(state.player_seeds())

    def clock(self, state: h.HandState) -> ClockSpec | None:
        """The betting clock, or the clock of the spot in turn."""
        s = state.settings
        if state.phase == "betting":
            return ClockSpec("bets", None, s.bet_seconds)
        turn = state.turn
        if turn is not None:
            return ClockSpec("decision", turn.seat, s.action_seconds, turn=turn.spot)
        return None

    def clock_command(self, state: h.HandState, clock: ClockSpec) -> Any:
        """Close the betting, or fold the spot in turn."""
        if clock.kind == "bets":
            return m.CloseBets()
        return m.ClockExpired(clock.seat if clock.seat is not None else 0)

    def late_seats(self, state: h.HandState, clock: ClockSpec) -> list[int]:
        """Seats left with unconfirmed bets (betting itself is optional), or the seat whose decision lapsed."""
        if clock.kind == "bets":
            return [seat for seat in sorted(state.placed) if seat not in state.confirmed]
        return [clock.seat] if clock.seat is not None else []

    def acted(self, event: Any) -> int | None:
        """The seat behind a bet, a *Deal*, a Play, or a fold or clear by choice."""
        if isinstance(event, m.SpotBetsPlaced | m.BetsConfirmed | m.SpotPlayed):
            return event.seat
        if isinstance(event, m.SpotFolded | m.BetsCleared) and event.reason in _BY_CHOICE:
            return event.seat
        return None

    def move(self, seat: int, action: str, args: Mapping[str, Any]) -> Any:
        """A player's wire move as a rules command (docs/games/caribbean.md lists them)."""
        if action == "bet":
            seed = args.get("seed")
            if seed is not None and not isinstance(seed, str):
                raise _malformed(f'"seed" must be text, got {seed!r}')
            return m.PlaceSpotBets(seat, wire_bets(args), seed)
        simple = {"deal": m.ConfirmBets, "rebet": m.RepeatBets, "clear": m.ClearBets}
        if action in simple:
            return simple[action](seat)
        if action == "play":
            return m.PlaySpot(seat, _wire_spot(args))
        if action == "fold":
            return m.FoldSpot(seat, _wire_spot(args))
        raise Violation(f"no move named {action!r} in Caribbean Stud (bet, deal, rebet, clear, play, fold)",
                        "request/unknown")

    def leave(self, seat: int) -> Any:
        """A player leaving mid-hand."""
        return m.Leave(seat)

    def declare_dead(self, seat: int) -> Any:
        """The floor kills one seat's spots."""
        return m.DeclareDead(seat)

    def misdeal(self, reason: str) -> Any:
        """The floor voids the hand."""
        return m.Misdeal(reason)

    def void_event(self, reason: str) -> Any:
        """The event voiding an interrupted hand."""
        return m.HandVoided(reason)

    def next_offer_from(self, state: h.HandState) -> int:
        """No button: unchanged."""
        return state.offer_from

    def dealer_seat(self, state: h.HandState) -> int | None:
        """The house deals and banks."""
        return None

    def carry_out(self, state: h.HandState, carry: Mapping[str, Any]) -> JSON:
        """The meter after the hand, whether the ledger holds it yet, and each seat's last confirmed bets."""
        last = dict(carry.get("last_bets", {}))
        for seat, bets in state.bets_by_seat().items():
            last[str(seat)] = [list(b) for b in bets]
        return {**carry, "meter": state.meter_now, "funded": state.funded or state.phase == "settled",
                "last_bets": last}

    def table_view(self, settings: CaribbeanSettings, carry: Mapping[str, Any]) -> JSON:
        """The jackpot meter, shown on every screen: hundredths, and whole chips."""
        meter = int(carry.get("meter", settings.jackpot_seed * 100))
        return {"jackpot_meter": meter, "jackpot_chips": meter // 100}


CARIBBEAN: Final = CaribbeanStud()
