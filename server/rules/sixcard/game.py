"""6 Card Poker 1-2-5 behind the :class:`~server.rules.game.Game` interface the table drives.

Only translation lives here: every rule is in ``hand.py``, ``settlement.py``,
``postings.py`` and ``view.py``; this module maps the table's generic questions
onto them and turns the wire's moves into commands.

>>> SIXCARD.move(3, "exchange", {"discard": [1, 5]})
ExchangeCards(seat=3, box=None, positions=(1, 5))
>>> SIXCARD.move(3, "bet", {"bets": [{"box": 2, "ante": 10, "bonus": 1}]})
PlaceBoxBets(seat=3, bets=((2, 10, 1),), seed=None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from server.rules.cards import Card, cards_list
from server.rules.errors import Violation
from server.rules.game import JSON, AccountId, ClockSpec, Player, Transfer
from server.rules.sixcard import hand as h
from server.rules.sixcard import messages as m
from server.rules.sixcard.postings import hand_postings
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.view import hand_view, private_events, public_event, public_settlement

_CHOSEN: Final = frozenset({"fold", "clear", "continue"})  # reasons that are a player's own choice
_MAX_BETS: Final = 16  # more entries than any table has boxes: refused before the rules see them


class SixCardPoker:
    """6 Card Poker 1-2-5, house-banked, boxes shared by the seated players."""

    name = "sixcard"
    terminal = h.TERMINAL

    def settings_from_mapping(self, values: Mapping[str, Any], base: Any = None) -> SixcardSettings:
        """Validated settings (a ``game`` key naming this game is allowed); raises SettingsError."""
        return SixcardSettings.from_mapping(values, base)

    def new_hand(self, settings: SixcardSettings, players: Sequence[Player], server_seed: bytes, *,
                 offer_from: int, arranged_deck: Sequence[Card] | None, carry: Mapping[str, Any]) -> h.HandState:
        """A fresh hand, betting at once; ``carry["last_bets"]`` is what Re-Bet repeats."""
        return h.new_hand(settings, players, server_seed, offer_from=offer_from, arranged_deck=arranged_deck,
                          last_bets=last_bets_from_carry(carry))

    def opening_events(self, state: h.HandState) -> list[Any]:
        """The open betting, or no hand."""
        return list(h.opening_events(state))

    def decide(self, state: h.HandState, command: Any) -> list[Any]:
        """See :func:`server.rules.sixcard.hand.decide`."""
        return list(h.decide(state, command))

    def evolve(self, state: h.HandState, event: Any) -> h.HandState:
        """See :func:`server.rules.sixcard.hand.evolve`."""
        return h.evolve(state, event)

    def postings(self, state: h.HandState, event: Any, table: str,
                 accounts: Mapping[int, AccountId]) -> list[Transfer]:
        """See :func:`server.rules.sixcard.postings.hand_postings`."""
        return hand_postings(state, event, table, accounts)

    def event_as_json(self, event: Any) -> JSON:
        """The event as logged (cards included)."""
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
        """See :func:`server.rules.sixcard.view.public_event`."""
        return public_event(event)

    def private_events(self, state: h.HandState, event: Any) -> list[tuple[int, JSON]]:
        """See :func:`server.rules.sixcard.view.private_events`."""
        return private_events(state, event)

    def hand_view(self, state: h.HandState, viewer: int | None) -> JSON:
        """See :func:`server.rules.sixcard.view.hand_view`."""
        return hand_view(state, viewer)

    def summary(self, state: h.HandState) -> JSON:
        """Bets, draws, results and shown cards of a finished hand (a folded box's cards are not shown)."""
        out: JSON = {
            "game": self.name,
            "deal_order": list(state.deal_order),
            "bets": [{"box": b.box, "seat": b.seat, "ante": b.ante, "bonus": b.bonus, "role": b.role,
                      "decision": state.decisions.get(b.box), "dead": b.box in state.dead} for b in state.boxes],
            "draws": [{"box": box, "kind": d.kind, "fee": state.box(box).ante}
                      for box, d in sorted(state.draws.items())],
            "settlement": None, "dealer_cards": None, "dealer_qualifies": None, "dealer_after": None, "shown": {},
        }
        s = state.settlement
        if s is not None:
            out |= {"settlement": public_settlement(s), "dealer_cards": cards_list(s.dealer_cards),
                    "dealer_qualifies": s.dealer_qualifies,
                    "dealer_after": cards_list(s.dealer_after) if s.dealer_after is not None else None,
                    "shown": {str(r.box): cards_list(state.current_cards(r.box)) for r in s.boxes
                              if not r.folded and not r.dead}}
        return out

    def player_seeds(self, state: h.HandState) -> list[tuple[int, str]]:
        """Seeds given with confirmed bets, in seat order."""
        return list(state.player_seeds)

    def clock(self, state: h.HandState) -> ClockSpec | None:
        """The betting clock, the clock of the box in turn, or the dealer-exchange clock."""
        s = state.settings
        if state.phase == "betting":
            return ClockSpec("bets", None, s.bet_seconds)
        turn = state.turn
        if turn is not None:
            # A draw leaves the box in turn: its Raise or Fold gets a fresh clock (RULES-sixcard.md 4.4).
            return ClockSpec("decision", state.box(turn).seat, s.action_seconds, turn=turn,
                             step=int(turn in state.draws))
        if state.phase == "exchange" and not state.exchange_closed:
            return ClockSpec("exchange", None, s.exchange_seconds)
        return None

    def clock_command(self, state: h.HandState, clock: ClockSpec) -> Any:
        """Close the betting, fold the box in turn, or close the exchange choice."""
        if clock.kind == "bets":
            return m.CloseBets()
        if clock.kind == "exchange":
            return m.CloseExchange()
        return m.ClockExpired(clock.seat if clock.seat is not None else 0)

    def late_seats(self, state: h.HandState, clock: ClockSpec) -> list[int]:
        """Unconfirmed bettors, the seat in turn, or the owners who never pressed Continue."""
        if clock.kind == "bets":
            return sorted(seat for seat, p in state.pending.items() if not p.confirmed)
        if clock.kind == "decision" and clock.seat is not None:
            return [clock.seat]
        if clock.kind == "exchange":
            return [seat for seat in state.exchange_owners if seat not in state.continued]
        return []

    def acted(self, event: Any) -> int | None:
        """The seat behind a bet, a decision, a draw or an exchange choice made by choice."""
        if isinstance(event, m.BoxBetsPlaced | m.BetsConfirmed | m.BoxRaised | m.CardsDrawn | m.ExchangeRequested
                      | m.ExchangeCancelled):
            return event.seat
        if isinstance(event, m.BoxFolded | m.BetsCleared | m.ExchangeContinued) and event.reason in _CHOSEN:
            return event.seat
        return None

    def move(self, seat: int, action: str, args: Mapping[str, Any]) -> Any:
        """A player's move (``bet``, ``deal``, ``rebet``, ``clear``, ``raise``, ``fold``, ``buy``, ``exchange``,
        ``request_exchange``, ``cancel_exchange``, ``continue``) as a rules command."""
        if action == "bet":
            return m.PlaceBoxBets(seat, _bets(args.get("bets")), _seed(args))
        if action == "deal":
            return m.ConfirmBets(seat)
        if action == "rebet":
            return m.RepeatBets(seat, _seed(args))
        if action == "clear":
            return m.ClearBets(seat)
        if action == "raise":
            return m.RaiseBox(seat, _box(args, required=False))
        if action == "fold":
            return m.FoldBox(seat, _box(args, required=False))
        if action == "buy":
            return m.BuyCard(seat, _box(args, required=False))
        if action == "exchange":
            return m.ExchangeCards(seat, _box(args, required=False), _positions(args.get("discard")))
        if action == "request_exchange":
            return m.RequestExchange(seat, _required_box(args))
        if action == "cancel_exchange":
            return m.CancelExchange(seat, _required_box(args))
        if action == "continue":
            return m.ContinueExchange(seat)
        raise Violation(f"no move named {action!r} in 6 Card Poker", "request/unknown")

    def leave(self, seat: int) -> Any:
        """A player leaving mid-hand."""
        return m.Leave(seat)

    def declare_dead(self, seat: int) -> Any:
        """The floor kills every box of one seat."""
        return m.DeclareDead(seat)

    def misdeal(self, reason: str) -> Any:
        """The floor voids the hand."""
        return m.Misdeal(reason)

    def void_event(self, reason: str) -> Any:
        """The event voiding an interrupted hand."""
        return m.HandVoided(reason)

    def next_offer_from(self, state: h.HandState) -> int:
        """No bank rotates: unchanged."""
        return state.offer_from

    def dealer_seat(self, state: h.HandState) -> int | None:
        """The house banks."""
        return None

    def carry_out(self, state: h.HandState, carry: Mapping[str, Any]) -> JSON:
        """``last_bets`` for Re-Bet: every seat that had confirmed bets this hand, the others kept."""
        last = {str(seat): [list(b) for b in bets] for seat, bets in last_bets_from_carry(carry).items()}
        for seat in sorted({b.seat for b in state.boxes}):
            last[str(seat)] = [[b.box, b.ante, b.bonus] for b in state.boxes_of(seat)]
        return {**carry, "last_bets": dict(sorted(last.items(), key=lambda kv: int(kv[0])))}

    def table_view(self, settings: SixcardSettings, carry: Mapping[str, Any]) -> JSON:
        """No table-wide figures."""
        return {}


def last_bets_from_carry(carry: Mapping[str, Any]) -> dict[int, tuple[m.BoxBet, ...]]:
    """``carry["last_bets"]`` (``{"<seat>": [[box, ante, bonus], ...]}``) read back; bad entries are skipped.

    >>> last_bets_from_carry({"last_bets": {"2": [[1, 10, 0]], "x": [[1]]}})
    {2: ((1, 10, 0),)}
    """
    out: dict[int, tuple[m.BoxBet, ...]] = {}
    raw = carry.get("last_bets")
    if not isinstance(raw, Mapping):
        return out
    for seat, bets in raw.items():
        try:
            out[int(seat)] = tuple((int(b), int(a), int(n)) for b, a, n in bets)
        except (TypeError, ValueError):
            continue
    return out


def _malformed(sentence: str) -> Violation:
    return Violation(sentence, "request/malformed")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bets(value: Any) -> tuple[m.BoxBet, ...]:
    if not isinstance(value, list | tuple) or len(value) > _MAX_BETS:
        raise _malformed('"bets" is a list of {"box", "ante", "bonus"} objects')
    out = []
    for entry in value:
        if not isinstance(entry, Mapping) or not set(entry) <= {"box", "ante", "bonus"} or "box" not in entry:
            raise _malformed('each bet is {"box": n, "ante": chips, "bonus": chips} (ante and bonus may be left out)')
        box, ante, bonus = entry["box"], entry.get("ante", 0), entry.get("bonus", 0)
        if not all(_whole(v) and v >= 0 for v in (box, ante, bonus)):
            raise _malformed("box, ante and bonus are whole numbers, not negative")
        out.append((box, ante, bonus))
    return tuple(out)


def _seed(args: Mapping[str, Any]) -> str | None:
    seed = args.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise _malformed('"seed" is text')
    return seed


def _box(args: Mapping[str, Any], *, required: bool) -> int | None:
    box = args.get("box")
    if box is None and not required:
        return None
    if not isinstance(box, int) or isinstance(box, bool):
        raise _malformed('"box" is a box number')
    return box


def _required_box(args: Mapping[str, Any]) -> int:
    box = _box(args, required=True)
    assert box is not None  # _box raises when a required box is missing
    return box


def _positions(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) > _MAX_BETS or not all(_whole(p) for p in value):
        raise _malformed('"discard" is a list of card positions 1 to 5')
    return tuple(value)


SIXCARD: Final = SixCardPoker()
