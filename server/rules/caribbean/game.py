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
from typing import Final

from server.i18n import phrase
from server.rules.arrange import SeatDeck
from server.rules.cards import Card, cards_list
from server.rules.caribbean import hand as h
from server.rules.caribbean import messages as m
from server.rules.caribbean import postings, view
from server.rules.caribbean.choices import choices
from server.rules.caribbean.messages import settlement_as_json
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import Violation
from server.rules.events import Event
from server.rules.game import JSON, ClockSpec, GameRules, JSONIn, Player, TableWords
from server.rules.house.game import HouseGame, is_whole, malformed
from server.rules.moves import Moves, chips, entries, flag, place, text

_BET_KEYS: Final = frozenset({"spot", "ante", "jackpot"})


def wire_bets(args: JSONIn) -> tuple[m.SpotBet, ...]:
    """The ``bets`` of a ``bet`` move: a list of ``{"spot", "ante", "jackpot"?}``, strictly typed."""
    bets = args.get("bets")
    if not isinstance(bets, list | tuple):
        raise malformed('"bets" must be a list of {"spot", "ante", "jackpot"}')
    out = []
    for bet in bets:
        if not isinstance(bet, Mapping) or not {"spot", "ante"} <= set(bet) or set(bet) - _BET_KEYS:
            raise malformed(f'each bet is {{"spot": n, "ante": n, "jackpot": true|false}}, got {bet!r}')
        jackpot = bet.get("jackpot", False)
        if not is_whole(bet["spot"]) or not is_whole(bet["ante"]) or not isinstance(jackpot, bool):
            raise malformed(f"a bet's spot and ante are whole numbers and its jackpot true or false, got {bet!r}")
        out.append(m.SpotBet(bet["spot"], bet["ante"], jackpot))
    return tuple(out)


def _wire_spot(args: JSONIn) -> int | None:
    spot = args.get("spot")
    if spot is not None and not is_whole(spot):
        raise malformed(f'"spot" must be a spot number, got {spot!r}')
    return spot


class CaribbeanStud(HouseGame[CaribbeanSettings, h.HandState, m.Command, Event]):
    """Cyber Caribbean Stud: house-banked, up to ``max_hands`` spots a player, a progressive jackpot."""

    name = "caribbean"
    terminal = h.TERMINAL
    settings_type = CaribbeanSettings
    codec = m.CODEC
    hand = h
    postings_rules = postings
    view = view
    clocked_events = frozenset({m.BettingOpened.type, m.TurnStarted.type})
    deal_event = m.CardsDealt.type
    words = TableWords(place="spot", banker=phrase("the dealer"))  # said in the reader's language
    moves = Moves("Caribbean Stud", {
        "bet": {"bets": entries(9, required=True, spot=place(), ante=chips(), jackpot=flag()), "seed": text()},
        "deal": {}, "rebet": {}, "clear": {}, "pass": {}, "play": {"spot": place()}, "fold": {"spot": place()}})
    results = "spots"

    def settings_from_mapping(self, values: JSONIn,
                              base: CaribbeanSettings | None = None) -> CaribbeanSettings:
        """Validated settings (a ``game`` key naming this game is allowed); raises SettingsError."""
        return CaribbeanSettings.from_mapping(values, base)

    def new_hand(self, settings: CaribbeanSettings, players: Sequence[Player], server_seed: bytes, *,
                 offer_from: int, arranged_deck: Sequence[Card] | SeatDeck | None,
                 carry: JSONIn) -> h.HandState:
        """A fresh hand, open for bets, with the meter and last bets from ``carry``."""
        return h.new_hand(settings, players, server_seed, offer_from=offer_from, arranged_deck=arranged_deck,
                          carry=carry)

    def summary(self, state: h.HandState) -> JSON:
        """Seeds (of the seats with confirmed bets), bets, decisions, results, the dealer's and the shown
        cards, and the meter around the hand."""
        return {
            "game": self.name,
            "player_seeds": [list(pair) for pair in state.player_seeds()],
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

    def choices(self, state: h.HandState, seat: int) -> list[JSON]:
        """The bets, Deal, Clear, Pass, or the Play or Fold of the spot in turn ``seat`` may choose now."""
        return choices(state, seat)

    def clock(self, state: h.HandState) -> ClockSpec[m.Command] | None:
        """The betting clock, or the clock of the spot in turn."""
        s = state.settings
        if state.phase == "betting":
            return self.bets_clock(state, s.bet_seconds)
        turn = state.turn
        if turn is not None:
            return ClockSpec("decision", turn.seat, s.action_seconds, turn=turn.spot)
        return None

    def move(self, seat: int, action: str, args: JSONIn) -> m.Command:
        """A player's wire move as a rules command (docs/games/caribbean.md lists them)."""
        if action == "bet":
            seed = args.get("seed")
            if seed is not None and not isinstance(seed, str):
                raise malformed(f'"seed" must be text, got {seed!r}')
            return m.PlaceSpotBets(seat, wire_bets(args), seed)
        simple: dict[str, type[m.ConfirmBets | m.RepeatBets | m.ClearBets | m.PassBets]] = {
            "deal": m.ConfirmBets, "rebet": m.RepeatBets, "clear": m.ClearBets, "pass": m.PassBets}
        if action in simple:
            return simple[action](seat)
        if action == "play":
            return m.PlaySpot(seat, _wire_spot(args))
        if action == "fold":
            return m.FoldSpot(seat, _wire_spot(args))
        raise Violation(f"no move named {action!r} in Caribbean Stud (bet, deal, rebet, clear, pass, play, fold)",
                        "request/unknown")

    def carry_out(self, state: h.HandState, carry: JSONIn) -> JSON:
        """The meter after the hand, whether the ledger holds it yet, and each seat's last confirmed bets."""
        last = dict(carry.get("last_bets", {}))
        for seat, bets in state.bets_by_seat().items():
            last[str(seat)] = [list(b) for b in bets]
        return {**carry, "meter": state.meter_now, "funded": state.funded or state.phase == "settled",
                "last_bets": last}

    def table_view(self, settings: CaribbeanSettings, carry: JSONIn) -> JSON:
        """The jackpot meter, shown on every screen: hundredths, and whole chips."""
        meter = int(carry.get("meter", settings.jackpot_seed * 100))
        return {"jackpot_meter": meter, "jackpot_chips": meter // 100}


CARIBBEAN: Final = CaribbeanStud()
# mypy checks the adapter against the Game interface with this game's own types here.
_CHECKED: Final[GameRules[CaribbeanSettings, h.HandState, m.Command, Event]] = CARIBBEAN
