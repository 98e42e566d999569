"""High Card Flush behind the :class:`~server.rules.game.Game` interface the table drives.

Only translation lives here: every rule is in ``hand.py``, ``settlement.py`` and
``view.py``; this module maps the table's generic questions onto them.

>>> HCF.move(3, "raise", {"amount": 20})
Raise(seat=3, amount=20)
>>> HCF.clock(HCF.new_hand(HcfSettings(), [], bytes(32), offer_from=1, arranged_deck=None, carry={})) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from server.i18n import phrase
from server.rules.adapter import RulesAdapter
from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.errors import Violation
from server.rules.events import Event
from server.rules.game import JSON, AfterHand, ClockSpec, GameRules, JSONIn, Player, TableWords, log_fields, nets
from server.rules.hcf import bank_rules, postings, rotation, view
from server.rules.hcf import hand as h
from server.rules.hcf import messages as m
from server.rules.hcf.choices import choices
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.view import hand_view, private_events
from server.rules.moves import Moves, Record, chips, flag, text

_LOGGED: Final = ("ante", "straight_flush_bonus", "flush_bonus", "fees", "dealer", "qualifies")


class HighCardFlush(RulesAdapter[h.HandState, m.Command, Event]):
    """The California (player-banked) and standard (house-banked) High Card Flush game."""

    name = "hcf"
    terminal = h.TERMINAL
    codec = m.CODEC
    hand = h
    postings_rules = postings
    view = view
    clocked_events = frozenset({m.BankOffered.type, m.BettingOpened.type, m.TurnStarted.type})
    deal_event = m.CardsDealt.type
    words = TableWords(place="seat", banker=phrase("the DP"))  # said in the reader's language
    moves = Moves("High Card Flush", {
        "bank": {"accept": flag()},
        "bet": {"ante": chips(), "straight_flush_bonus": chips(), "flush_bonus": chips(), "seed": text()},
        "pass": {}, "fold": {}, "raise": {"amount": chips()}},
        {"pass": Record(of=m.PassBets), "fold": Record(of=m.Fold), "raise": Record(of=m.Raise, defaults={"amount": 0})})

    def log_fields(self, payload: JSONIn) -> JSON:
        """The bets, fees and the DP's hand of an event; a settled hand's nets by seat, the DP's and the house's."""
        out = log_fields(payload, _LOGGED)
        if payload.get("type") == m.HandSettled.type:
            settlement = payload.get("settlement") or {}
            out |= {"results": nets(settlement.get("seats"), "seat"),
                    "dealer_net": (settlement.get("dealer") or {}).get("net"), "house": settlement.get("house")}
        return out

    def settings_from_mapping(self, values: JSONIn, base: HcfSettings | None = None) -> HcfSettings:
        """Validated settings; a ``game`` key naming this game is allowed."""
        game = values.get("game", self.name)
        if game != self.name:
            raise Violation(f"game: this table plays {self.name}, not {game!r}", "settings/invalid")
        return HcfSettings.from_mapping({k: v for k, v in values.items() if k != "game"}, base=base)

    def new_hand(self, settings: HcfSettings, players: Sequence[Player], server_seed: bytes, *, offer_from: int,
                 arranged_deck: Sequence[Card] | SeatDeck | None, carry: JSONIn) -> h.HandState:
        """A fresh hand; ``carry`` holds what the house rules for the bank remember, the table's clock and the
        seats' names (docs/rules/hcf.md section 9)."""
        return h.new_hand(settings, players, server_seed, offer_from=offer_from, arranged_deck=arranged_deck,
                          carry=carry)

    def private_events(self, state: h.HandState, event: Event) -> list[tuple[int, JSON]]:
        """Each player's own cards at the deal."""
        return private_events(event)

    def summary(self, state: h.HandState) -> JSON:
        """Seeds, bets, results and shown cards of a finished hand (seeds given with the Antes, in seat order)."""
        out: JSON = {
            "player_seeds": [[seat, b.seed] for seat, b in sorted(state.bets.items()) if b.seed is not None],
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
        return out | bank_rules.hand_record(state)

    def choices(self, state: h.HandState, seat: int) -> list[JSON]:
        """The bank answer, the bets or the raise ``seat`` may make now."""
        return choices(state, seat)

    def clock(self, state: h.HandState) -> ClockSpec[m.Command] | None:
        """The bank offer's, the betting round's, or the seat in turn's clock (docs/rules/hcf.md section 4)."""
        s = state.settings
        if state.phase == "offer":
            # An offer left to run out is a refusal of the bank, nothing more: nobody is late (section 4).
            return ClockSpec("offer", state.offered, s.offer_seconds, late=())
        if state.phase == "betting":
            late = tuple(seat for seat in state.bettors if seat not in state.bets and seat not in state.passed)
            return ClockSpec("bets", None, s.bet_seconds, expire=m.CloseBets(), late=late)
        if state.phase == "decisions":
            return ClockSpec("decision", state.turn, s.action_seconds)
        return None

    def move(self, seat: int, action: str, args: JSONIn) -> m.Command:
        """A player's move as a rules command (a pass, a fold or a raise is the record :attr:`moves` names)."""
        if action == "bank":
            return m.AcceptBank(seat) if args.get("accept") else m.DeclineBank(seat)
        if action == "bet":
            return m.PlaceBets(seat, args.get("ante", 0), args.get("straight_flush_bonus", 0),
                               args.get("flush_bonus", 0), args.get("seed"))
        command = self.moves.build(self, seat, action, args) if action in self.moves.records else None
        if isinstance(command, m.PassBets | m.Fold | m.Raise):
            return command
        raise Violation(f"no move named {action!r} in High Card Flush", "request/unknown")

    def after_hand(self, state: h.HandState, carry: JSONIn) -> AfterHand:
        """The results' pause (a bank nobody took is offered again after the offer clock); the button moves
        after a settled hand; the house rules for the bank may keep it, end the game or warn (section 9)."""
        plain = self._plain_after_hand(state, bank_rules.table_carry(carry))
        if not rotation.active(state.settings):
            return plain
        return bank_rules.after_hand(state, carry, plain)

    def _plain_after_hand(self, state: h.HandState, carry: JSONIn) -> AfterHand:
        s = state.settings
        pause = s.offer_seconds if state.phase == "not_dealt" and state.reason != "no_ante" else s.pause_seconds
        if state.reason == "no_bank":  # a player sitting down or switching the bank on may take it: retry then
            return AfterHand(pause, h.next_offer_from(state), dict(carry), "no_bank",
                             "nobody took the bank: no hand this time; the bank is offered again soon",
                             retried=True)
        return AfterHand(pause, h.next_offer_from(state), dict(carry))

    def dealer_seat(self, state: h.HandState) -> int | None:
        """The designated player, if one took the bank."""
        return state.dealer

    def table_view(self, settings: HcfSettings, carry: JSONIn) -> JSON:
        """The house rules for the bank, the rotation's status and the posted fee schedule, in sentences
        (nothing at a table that posts none)."""
        return bank_rules.table_notes(settings, carry)


HCF: Final = HighCardFlush()
# mypy checks the adapter against the Game interface with this game's own types here.
_CHECKED: Final[GameRules[HcfSettings, h.HandState, m.Command, Event]] = HCF
