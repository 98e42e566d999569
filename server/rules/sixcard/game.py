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
from typing import Final

from server.i18n import phrase
from server.rules.arrange import SeatDeck
from server.rules.cards import Card, cards_list
from server.rules.errors import Violation
from server.rules.events import Event
from server.rules.game import JSON, ClockSpec, GameRules, JSONIn, Player, TableWords
from server.rules.house.game import HouseGame, is_whole, malformed
from server.rules.moves import Moves, chips, entries, place, text, values, whole
from server.rules.sixcard import hand as h
from server.rules.sixcard import messages as m
from server.rules.sixcard import postings, view
from server.rules.sixcard.choices import choices
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.view import public_settlement

_MAX_BETS: Final = 16  # more entries than any table has boxes: refused before the rules see them


class SixCardPoker(HouseGame[SixcardSettings, h.HandState, m.Command, Event]):
    """6 Card Poker 1-2-5, house-banked, boxes shared by the seated players."""

    name = "sixcard"
    terminal = h.TERMINAL
    settings_type = SixcardSettings
    codec = m.CODEC
    hand = h
    postings_rules = postings
    view = view
    clocked_events = frozenset({m.BettingOpened.type, m.TurnStarted.type, m.ExchangeOpened.type})
    deal_event = m.CardsDealt.type
    words = TableWords(place="box", banker=phrase("the dealer"))  # said in the reader's language
    moves = Moves("6 Card Poker", {
        "bet": {"bets": entries(9, required=True, box=place(), ante=chips(), bonus=chips()), "seed": text()},
        "deal": {}, "rebet": {"seed": text()}, "clear": {}, "pass": {},
        "raise": {"box": place()}, "fold": {"box": place()}, "buy": {"box": place()},
        "exchange": {"box": place(), "discard": values(whole(1, 6), 5, required=True)},
        "request_exchange": {"box": place(required=True)}, "cancel_exchange": {"box": place(required=True)},
        "continue": {}})
    results = "boxes"

    def settings_from_mapping(self, values: JSONIn, base: SixcardSettings | None = None) -> SixcardSettings:
        """Validated settings (a ``game`` key naming this game is allowed); raises SettingsError."""
        return SixcardSettings.from_mapping(values, base)

    def new_hand(self, settings: SixcardSettings, players: Sequence[Player], server_seed: bytes, *,
                 offer_from: int, arranged_deck: Sequence[Card] | SeatDeck | None,
                 carry: JSONIn) -> h.HandState:
        """A fresh hand, betting at once; ``carry["last_bets"]`` is what Re-Bet repeats."""
        return h.new_hand(settings, players, server_seed, offer_from=offer_from, arranged_deck=arranged_deck,
                          last_bets=last_bets_from_carry(carry))

    def summary(self, state: h.HandState) -> JSON:
        """Seeds (given with confirmed bets), bets, draws, results and shown cards of a finished hand (a
        folded box's cards are not shown)."""
        out: JSON = {
            "game": self.name,
            "player_seeds": [list(pair) for pair in state.player_seeds],
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

    def choices(self, state: h.HandState, seat: int) -> list[JSON]:
        """The bets, the box in turn's decision or draw, or the dealer-exchange choices ``seat`` has now."""
        return choices(state, seat)

    def clock(self, state: h.HandState) -> ClockSpec[m.Command] | None:
        """The betting clock, the clock of the box in turn, or the dealer-exchange clock."""
        s = state.settings
        if state.phase == "betting":
            return self.bets_clock(state, s.bet_seconds)
        turn = state.turn
        if turn is not None:
            # A draw leaves the box in turn: its Raise or Fold gets a fresh clock (docs/rules/sixcard.md section 4.4).
            return ClockSpec("decision", state.box(turn).seat, s.action_seconds, turn=turn,
                             step=int(turn in state.draws))
        if state.phase == "exchange" and not state.exchange_closed:
            # Closes the choice; the owners who never pressed Continue are late.
            late = tuple(seat for seat in state.exchange_owners if seat not in state.continued)
            return ClockSpec("exchange", None, s.exchange_seconds, expire=m.CloseExchange(), late=late)
        return None

    def move(self, seat: int, action: str, args: JSONIn) -> m.Command:
        """A player's move (``bet``, ``deal``, ``rebet``, ``clear``, ``pass``, ``raise``, ``fold``, ``buy``,
        ``exchange``, ``request_exchange``, ``cancel_exchange``, ``continue``) as a rules command."""
        if action == "bet":
            return m.PlaceBoxBets(seat, _bets(args.get("bets")), _seed(args))
        if action == "deal":
            return m.ConfirmBets(seat)
        if action == "rebet":
            return m.RepeatBets(seat, _seed(args))
        if action == "clear":
            return m.ClearBets(seat)
        if action == "pass":
            return m.PassBets(seat)
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

    def carry_out(self, state: h.HandState, carry: JSONIn) -> JSON:
        """``last_bets`` for Re-Bet: every seat that had confirmed bets this hand, the others kept."""
        last = {str(seat): [list(b) for b in bets] for seat, bets in last_bets_from_carry(carry).items()}
        for seat in sorted({b.seat for b in state.boxes}):
            last[str(seat)] = [[b.box, b.ante, b.bonus] for b in state.boxes_of(seat)]
        return {**carry, "last_bets": dict(sorted(last.items(), key=lambda kv: int(kv[0])))}


def last_bets_from_carry(carry: JSONIn) -> dict[int, tuple[m.BoxBet, ...]]:
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


def _bets(value: object) -> tuple[m.BoxBet, ...]:
    if not isinstance(value, list | tuple) or len(value) > _MAX_BETS:
        raise malformed('"bets" is a list of {"box", "ante", "bonus"} objects')
    out = []
    for entry in value:
        if not isinstance(entry, Mapping) or not set(entry) <= {"box", "ante", "bonus"} or "box" not in entry:
            raise malformed('each bet is {"box": n, "ante": chips, "bonus": chips} (ante and bonus may be left out)')
        box, ante, bonus = entry["box"], entry.get("ante", 0), entry.get("bonus", 0)
        if not all(is_whole(v) and v >= 0 for v in (box, ante, bonus)):
            raise malformed("box, ante and bonus are whole numbers, not negative")
        out.append((box, ante, bonus))
    return tuple(out)


def _seed(args: JSONIn) -> str | None:
    seed = args.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise malformed('"seed" is text')
    return seed


def _box(args: JSONIn, *, required: bool) -> int | None:
    box = args.get("box")
    if box is None and not required:
        return None
    if not isinstance(box, int) or isinstance(box, bool):
        raise malformed('"box" is a box number')
    return box


def _required_box(args: JSONIn) -> int:
    box = _box(args, required=True)
    assert box is not None  # _box raises when a required box is missing
    return box


def _positions(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or len(value) > _MAX_BETS or not all(is_whole(p) for p in value):
        raise malformed('"discard" is a list of card positions 1 to 5')
    return tuple(value)


SIXCARD: Final = SixCardPoker()
# mypy checks the adapter against the Game interface with this game's own types here.
_CHECKED: Final[GameRules[SixcardSettings, h.HandState, m.Command, Event]] = SIXCARD
