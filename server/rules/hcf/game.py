"""High Card Flush behind the :class:`~server.rules.game.Game` interface the table drives.

Only translation lives here: every rule is in ``hand.py``, ``settlement.py`` and
``view.py``; this module maps the table's generic questions onto them.

>>> HCF.move(3, "raise", {"amount": 20})
Raise(seat=3, amount=20)
>>> HCF.clock(HCF.new_hand(HcfSettings(), [], bytes(32), offer_from=1, arranged_deck=None, carry={})) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from server.rules.adapter import RulesAdapter
from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.errors import Violation
from server.rules.events import Event
from server.rules.game import JSON, ClockSpec, GameRules, Player
from server.rules.hcf import hand as h
from server.rules.hcf import messages as m
from server.rules.hcf import postings, view
from server.rules.hcf.choices import choices
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.view import hand_view, private_events

_CHOSEN: Final = ("fold", "passed", "declined")  # reasons that are a player's own choice


class HighCardFlush(RulesAdapter[h.HandState, m.Command, Event]):
    """The California (player-banked) and standard (house-banked) High Card Flush game."""

    name = "hcf"
    terminal = h.TERMINAL
    hand = h
    messages = m
    postings_rules = postings
    view = view

    def settings_from_mapping(self, values: Mapping[str, Any], base: HcfSettings | None = None) -> HcfSettings:
        """Validated settings; a ``game`` key naming this game is allowed."""
        game = values.get("game", self.name)
        if game != self.name:
            raise Violation(f"game: this table plays {self.name}, not {game!r}", "settings/invalid")
        return HcfSettings.from_mapping({k: v for k, v in values.items() if k != "game"}, base=base)

    def new_hand(self, settings: HcfSettings, players: Sequence[Player], server_seed: bytes, *, offer_from: int,
                 arranged_deck: Sequence[Card] | SeatDeck | None, carry: Mapping[str, Any]) -> h.HandState:
        """A fresh hand (``carry`` is unused: nothing outlives a hand of this game)."""
        return h.new_hand(settings, players, server_seed, offer_from=offer_from, arranged_deck=arranged_deck)

    def private_events(self, state: h.HandState, event: Event) -> list[tuple[int, JSON]]:
        """Each player's own cards at the deal."""
        return private_events(event)

    def summary(self, state: h.HandState) -> JSON:
        """Bets, results and shown cards of a finished hand."""
        out: JSON = {
            "profile": state.settings.profile,
            "dealer": state.dealer,
            "deal_order": list(state.deal_sequence),
            "bets": {str(seat): {"ante": b.ante, "straight_flush_bonus": b.straight_flush_bonus,
                                 "flush_bonus": b.flush_bonus, "raise": state.raises.get(seat, 0)}
                     for seat, b in sorted(state.bets.items())},
        }
        if state.settlement is not None:
            view = hand_view(state, None)
            out |= {"settlement": view["settlement"], "dealer_cards": view["dealer_cards"],
                    "dealer_qualifies": view["dealer_qualifies"], "shown": view["shown"]}
        return out

    def player_seeds(self, state: h.HandState) -> list[tuple[int, str]]:
        """Seeds given with the Antes, in seat order."""
        return [(seat, b.seed) for seat, b in sorted(state.bets.items()) if b.seed is not None]

    def choices(self, state: h.HandState, seat: int) -> list[JSON]:
        """The bank answer, the bets or the raise ``seat`` may make now."""
        return choices(state, seat)

    def clock(self, state: h.HandState) -> ClockSpec | None:
        """The bank offer's, the betting round's, or the seat in turn's clock."""
        s = state.settings
        if state.phase == "offer":
            return ClockSpec("offer", state.offered, s.offer_seconds)
        if state.phase == "betting":
            return ClockSpec("bets", None, s.bet_seconds)
        if state.phase == "decisions":
            return ClockSpec("decision", state.turn, s.action_seconds)
        return None

    def late_seats(self, state: h.HandState, clock: ClockSpec) -> list[int]:
        """Who let a clock run out: the bank offer's counts like any other (docs/rules/hcf.md section 4)."""
        if clock.kind == "bets":
            return [s for s in state.bettors if s not in state.bets and s not in state.passed]
        if clock.kind in ("decision", "offer") and clock.seat is not None:
            return [clock.seat]
        return []

    def acted(self, event: Event) -> int | None:
        """The seat behind a bet, raise or bank answer, or a fold, pass or decline by choice."""
        if isinstance(event, m.BetsPlaced | m.PlayerRaised | m.BankAccepted):
            return event.seat
        if isinstance(event, m.PlayerFolded | m.BetsPassed | m.BankDeclined) and event.reason in _CHOSEN:
            return event.seat
        return None

    def move(self, seat: int, action: str, args: Mapping[str, Any]) -> m.Command:
        """A player's move as a rules command."""
        if action == "bank":
            return m.AcceptBank(seat) if args.get("accept") else m.DeclineBank(seat)
        if action == "bet":
            return m.PlaceBets(seat, args.get("ante", 0), args.get("straight_flush_bonus", 0),
                               args.get("flush_bonus", 0), args.get("seed"))
        if action == "pass":
            return m.PassBets(seat)
        if action == "fold":
            return m.Fold(seat)
        if action == "raise":
            return m.Raise(seat, args.get("amount", 0))
        raise Violation(f"no move named {action!r} in High Card Flush", "request/unknown")

    def pause_after(self, state: h.HandState) -> float:
        """The results' pause; a bank nobody took is offered again after the offer clock."""
        s = state.settings
        return s.offer_seconds if state.phase == "not_dealt" and state.reason != "no_ante" else s.pause_seconds

    def next_offer_from(self, state: h.HandState) -> int:
        """The button moves after a settled hand."""
        return h.next_offer_from(state)

    def dealer_seat(self, state: h.HandState) -> int | None:
        """The designated player, if one took the bank."""
        return state.dealer

    def carry_out(self, state: h.HandState, carry: Mapping[str, Any]) -> JSON:
        """Nothing outlives a hand of High Card Flush."""
        return dict(carry)

    def table_view(self, settings: HcfSettings, carry: Mapping[str, Any]) -> JSON:
        """No table-wide figures."""
        return {}


HCF: Final = HighCardFlush()
# mypy checks the adapter against the Game interface with this game's own types here.
_CHECKED: Final[GameRules[HcfSettings, h.HandState, m.Command, Event]] = HCF
