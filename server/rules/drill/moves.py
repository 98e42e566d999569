"""What the scripted players and the floor do next, read off the hand's state: one game's script each.

The same functions drive the dry run through the rules (:mod:`server.rules.drill.play`) and
the in-process table (:mod:`server.drill_runner`), so both play a scenario alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from server.rules.arrange import SeatDeck, deck_for_seats
from server.rules.cards import Card, CardError, card_text, format_cards, parse_cards
from server.rules.caribbean.hand import HandState as CaribbeanState
from server.rules.caribbean.settlement import HAND_SIZE as CARIBBEAN_HAND
from server.rules.drill.irregularity import Irregularity, ruling
from server.rules.drill.scenario import HandSpec, Scenario, ScenarioError
from server.rules.fairness import seeded_deck
from server.rules.hcf.evaluate import HAND_SIZE, evaluate
from server.rules.hcf.hand import HandState
from server.rules.sixcard.hand import HandState as SixcardState

Args = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Move:
    """A player's move as the table takes it (``leave``: the player walks away from the table)."""

    seat: int
    action: str
    args: Args = ()


@dataclass(frozen=True, slots=True)
class Floor:
    """A floor command carrying out a ruling: ``declare_dead`` (a seat), ``misdeal`` or ``shuffler_fault``."""

    action: str
    seat: int | None = None


class GameScript(Protocol):
    """One game's scripted players."""

    def next_move(self, scenario: Scenario, hand: HandSpec, state: Any, where: str) -> Move:
        """The move the scenario scripts for the state the hand is in; ScenarioError if it scripts none."""
        ...

    def dealt(self, state: Any) -> bool:
        """Whether the cards are out (an irregularity is injected right then)."""
        ...

    def dealer(self, state: Any) -> int | None:
        """The DP's seat; None where the house deals."""
        ...

    def places_dealt(self, state: Any) -> frozenset[int]:
        """The seats (spots, boxes) dealt a hand."""
        ...

    def floor_seat(self, state: Any, place: int, where: str) -> int:
        """The seat the floor declares dead to kill the hand at ``place`` (a spot's or box's owner)."""
        ...

    def short(self, state: Any) -> bool:
        """Whether some hand was dealt short (the deck was too small)."""
        ...

    def cards_dealt(self, state: Any) -> int:
        """How many cards the deal took from the deck."""
        ...

    def deck(self, state: Any, given: tuple[Card, ...] | SeatDeck) -> tuple[Card, ...]:
        """The deck in dealing order that deals the hand ``state`` is at (a deck by seat made into one)."""
        ...


def floor_for(script: GameScript, state: Any, irregularity: Irregularity, where: str) -> Floor | None:
    """The floor command that carries out the right ruling (None: play on)."""
    right = ruling(irregularity, dealer=script.dealer(state))
    if right["ruling"] == "dead_seat":
        return Floor("declare_dead", script.floor_seat(state, int(right["seat"]), where))
    if right["ruling"] == "dead_hand":
        return Floor("shuffler_fault" if irregularity.kind == "shuffler_fault" else "misdeal")
    return None


HCF_BETS: Final = ("ante", "straight_flush_bonus", "flush_bonus")


def bet_args(bets: Any, names: tuple[str, ...], where: str) -> Args:
    """A scripted bet object as move arguments; refuses unknown bets and amounts that are not whole chips."""
    if not isinstance(bets, Mapping):
        raise ScenarioError(f"{where}: bets are an object like {{\"{names[0]}\": 10}}")
    unknown = sorted(set(bets) - set(names))
    if unknown:
        raise ScenarioError(f"{where}: no bet {unknown[0]!r} (the bets: {', '.join(names)})")
    for name, amount in bets.items():
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise ScenarioError(f"{where}: {name} is a whole number of chips, got {amount!r}")
    return tuple((name, bets[name]) for name in names if name in bets)


class HcfScript:
    """High Card Flush: bank answers, bets, raises, folds and walk-aways."""

    def next_move(self, scenario: Scenario, hand: HandSpec, state: HandState, where: str) -> Move:
        """The offered seat answers, the next bettor bets or passes, the seat to act decides."""
        if state.phase == "offer" and state.offered is not None:
            seat = state.offered
            return Move(seat, "bank", (("accept", hand.bank.get(seat, scenario.seat(seat).bank)),))
        if state.phase == "betting":
            banking = sorted(set(hand.bets) - set(state.bettors))
            if banking:
                raise ScenarioError(f"{where}, seat {banking[0]}: bets for the seat that banks this hand")
            seat = next(s for s in state.bettors if s not in state.bets and s not in state.passed)
            bets = hand.bets.get(seat)
            if bets is None:
                return Move(seat, "pass")
            return Move(seat, "bet", bet_args(bets, HCF_BETS, f"{where}, seat {seat}"))
        turn = state.turn
        if state.phase != "decisions" or turn is None:
            raise ScenarioError(f"{where}: the hand waits for nothing the scenario can script ({state.phase})")
        return self._decision(hand, state, turn, f"{where}, seat {turn}")

    @staticmethod
    def _decision(hand: HandSpec, state: HandState, seat: int, here: str) -> Move:
        decision = hand.decide.get(seat)
        if decision == "fold":
            return Move(seat, "fold")
        if decision == "walk_away":
            return Move(seat, "leave")
        if decision == "max":
            decision = evaluate(state.hands[seat]).raise_limit * state.bets[seat].ante
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise ScenarioError(f"{here}: decide is a raise in chips, \"max\", \"fold\" or \"walk_away\", "
                                f"got {decision!r}")
        return Move(seat, "raise", (("amount", decision),))

    def dealt(self, state: HandState) -> bool:
        """The deal is done once hands are out."""
        return bool(state.hands)

    def dealer(self, state: HandState) -> int | None:
        """The DP's seat."""
        return state.dealer

    def places_dealt(self, state: HandState) -> frozenset[int]:
        """Every seat dealt cards, the DP's too."""
        return frozenset(s for s in state.hands if s)

    def floor_seat(self, state: HandState, place: int, where: str) -> int:
        """A seat is its own place."""
        return place

    def short(self, state: HandState) -> bool:
        """A hand of fewer than seven cards."""
        return any(len(cards) != HAND_SIZE for cards in state.hands.values())

    def cards_dealt(self, state: HandState) -> int:
        """Seven a hand, the DP's too."""
        return sum(len(cards) for cards in state.hands.values())

    def deck(self, state: HandState, given: tuple[Card, ...] | SeatDeck) -> tuple[Card, ...]:
        """As the rules made it at the deal (server/rules/hcf/hand.py): by seat in dealing order, the rest
        from the hand's own deck (a drill has no player seeds)."""
        shuffled = seeded_deck(state.server_seed, ())
        if not isinstance(given, SeatDeck):
            return given
        order = state.deal_sequence
        if not order:
            return shuffled
        return deck_for_seats(order, HAND_SIZE, given, shuffled, dealer=order[-1])


def _by_place(decision: Any, place: int) -> Any:
    """A decision for every place of a seat (``"play"``), or one per place (``{"2": "play", "3": "fold"}``)."""
    return decision.get(str(place)) if isinstance(decision, Mapping) else decision


class CaribbeanScript:
    """Caribbean Stud: each seat bets its spots and deals, or passes; each spot plays or folds."""

    def next_move(self, scenario: Scenario, hand: HandSpec, state: CaribbeanState, where: str) -> Move:
        """The next seat to bet (``bet`` then ``deal``) or pass; then the spot in turn plays or folds."""
        if state.phase == "betting":
            seat = next(s for s in state.seats if s not in state.confirmed and s not in state.passed)
            bets = hand.bets.get(seat)
            here = f"{where}, seat {seat}"
            if bets is None:
                return Move(seat, "pass")
            if seat in state.placed:
                return Move(seat, "deal")
            if not isinstance(bets, Mapping) or set(bets) != {"spots"} or not isinstance(bets["spots"], list):
                raise ScenarioError(f'{here}: bets are {{"spots": [{{"spot": 1, "ante": 10, "jackpot": true}}]}}')
            return Move(seat, "bet", (("bets", bets["spots"]),))
        turn = state.turn
        if state.phase != "decisions" or turn is None:
            raise ScenarioError(f"{where}: the hand waits for nothing the scenario can script ({state.phase})")
        decision = _by_place(hand.decide.get(turn.seat), turn.spot)
        if decision == "walk_away":
            return Move(turn.seat, "leave")
        if decision not in ("play", "fold"):
            raise ScenarioError(f'{where}, seat {turn.seat}: spot {turn.spot} decides "play", "fold" or '
                                f'"walk_away", got {decision!r}')
        return Move(turn.seat, str(decision), (("spot", turn.spot),))

    def dealt(self, state: CaribbeanState) -> bool:
        """The deal is done once the dealer has cards."""
        return bool(state.dealer)

    def dealer(self, state: CaribbeanState) -> int | None:
        """The house deals."""
        return None

    def places_dealt(self, state: CaribbeanState) -> frozenset[int]:
        """The spots with a hand."""
        return frozenset(state.hands)

    def floor_seat(self, state: CaribbeanState, place: int, where: str) -> int:
        """The spot's owner: the floor kills a seat's live spots together, so the owner may have only that one."""
        owner = state.bet_on(place).seat
        if sum(1 for b in state.bets if b.seat == owner) > 1:
            raise ScenarioError(f"{where}, seat {owner}: a miscount at spot {place} of a player with more spots: "
                                "the floor declares a seat dead with all its spots")
        return owner

    def short(self, state: CaribbeanState) -> bool:
        """A hand of fewer than five cards."""
        return len(state.dealer) != CARIBBEAN_HAND or any(len(c) != CARIBBEAN_HAND for c in state.hands.values())

    def cards_dealt(self, state: CaribbeanState) -> int:
        """Five a spot, and the dealer's five."""
        return len(state.dealer) + sum(len(c) for c in state.hands.values())

    def deck(self, state: CaribbeanState, given: tuple[Card, ...] | SeatDeck) -> tuple[Card, ...]:
        """Decks are given in dealing order here."""
        return given if isinstance(given, tuple) else seeded_deck(state.server_seed, ())


def house_bets(bets: Any, key: str, example: str, here: str) -> list[Any]:
    """A house game's scripted bets: ``{"spots": [...]}`` or ``{"boxes": [...]}``."""
    if not isinstance(bets, Mapping) or set(bets) != {key} or not isinstance(bets[key], list):
        raise ScenarioError(f'{here}: bets are {{"{key}": [{example}]}}')
    return list(bets[key])


def _box_plan(decision: Any, here: str) -> list[Any]:
    """A box's scripted moves in order: a draw (``{"buy": true}``, ``{"exchange": [cards]}``), ``"raise"``
    or ``"fold"`` (or ``"walk_away"``), and ``"ask"`` for the dealer exchange."""
    plan = decision if isinstance(decision, list) else [decision]
    for item in plan:
        if item not in ("raise", "fold", "walk_away", "ask") and not (
                isinstance(item, Mapping) and (item == {"buy": True} or set(item) == {"exchange"})):
            raise ScenarioError(f'{here}: a box decides "raise", "fold", "walk_away", {{"buy": true}}, '
                                f'{{"exchange": ["2c", "7d"]}} and "ask" (a list for several), got {item!r}')
    return plan


class SixcardScript:
    """6 Card Poker: each seat bets its boxes and deals, or passes; each open box draws, raises or folds;
    boxes in play ask for the dealer exchange or not."""

    def next_move(self, scenario: Scenario, hand: HandSpec, state: SixcardState, where: str) -> Move:
        """Bets, then the box in turn, then the dealer exchange."""
        if state.phase == "betting":
            seat = next(s for s in sorted(p.seat for p in state.players)
                        if (s not in state.pending or not state.pending[s].confirmed) and s not in state.passed)
            bets = hand.bets.get(seat)
            if bets is None:
                return Move(seat, "pass")
            if seat in state.pending:
                return Move(seat, "deal")
            example = '{"box": 1, "ante": 10, "bonus": 5}'
            return Move(seat, "bet", (("bets", house_bets(bets, "boxes", example, f"{where}, seat {seat}")),))
        if state.phase == "exchange":
            return self._exchange(hand, state, where)
        box = state.turn
        if state.phase != "decisions" or box is None:
            raise ScenarioError(f"{where}: the hand waits for nothing the scenario can script ({state.phase})")
        seat = state.box(box).seat
        here = f"{where}, seat {seat}"
        plan = [i for i in _box_plan(_by_place(hand.decide.get(seat), box), f"{here}, box {box}") if i != "ask"]
        draw = next((i for i in plan if isinstance(i, Mapping)), None)
        if draw is not None and box not in state.draws:
            if "buy" in draw:
                return Move(seat, "buy", (("box", box),))
            return Move(seat, "exchange", (("box", box), ("discard", self._positions(state, box, draw, here))))
        action = next((i for i in plan if isinstance(i, str)), None)
        if action == "walk_away":
            return Move(seat, "leave")
        if action not in ("raise", "fold"):
            raise ScenarioError(f'{here}: box {box} decides "raise" or "fold" at the end, got {action!r}')
        return Move(seat, action, (("box", box),))

    @staticmethod
    def _positions(state: SixcardState, box: int, draw: Mapping[str, Any], here: str) -> list[int]:
        cards = state.cards[box]
        try:
            wanted = parse_cards(draw["exchange"])
        except CardError as exc:
            raise ScenarioError(f"{here}: box {box}: exchange: {exc.message}") from None
        missing = [card_text(c) for c in wanted if c not in cards]
        if missing:
            raise ScenarioError(f"{here}: box {box}: exchange: {missing[0]} is not in the box's hand "
                                f"({format_cards(cards)})")
        return [cards.index(c) + 1 for c in wanted]

    def _exchange(self, hand: HandSpec, state: SixcardState, where: str) -> Move:
        seat = next(s for s in state.exchange_owners if s not in state.continued)
        for box, owner in state.exchange_boxes:
            if owner != seat or box in state.requests or box in state.dead:
                continue
            if "ask" in _box_plan(_by_place(hand.decide.get(seat), box), f"{where}, seat {seat}, box {box}"):
                return Move(seat, "request_exchange", (("box", box),))
        return Move(seat, "continue")

    def dealt(self, state: SixcardState) -> bool:
        """The deal is done once the dealer has cards."""
        return bool(state.dealer_cards)

    def dealer(self, state: SixcardState) -> int | None:
        """The house deals."""
        return None

    def places_dealt(self, state: SixcardState) -> frozenset[int]:
        """The boxes with a hand."""
        return frozenset(state.cards)

    def floor_seat(self, state: SixcardState, place: int, where: str) -> int:
        """The box's owner: the floor kills a seat's live boxes together, so the owner may have only that one."""
        owner = state.box(place).seat
        if len(state.boxes_of(owner)) > 1:
            raise ScenarioError(f"{where}, seat {owner}: a miscount at box {place} of a player with more boxes: "
                                "the floor declares a seat dead with all its boxes")
        return owner

    def short(self, state: SixcardState) -> bool:
        """The deal is all or nothing here (a short deck voids the hand before it)."""
        return False

    def cards_dealt(self, state: SixcardState) -> int:
        """Five a box, and the dealer's five."""
        return len(state.dealer_cards) + sum(len(c) for c in state.cards.values())

    def deck(self, state: SixcardState, given: tuple[Card, ...] | SeatDeck) -> tuple[Card, ...]:
        """Decks are given in dealing order here."""
        return given if isinstance(given, tuple) else seeded_deck(state.server_seed, ())


SCRIPTS: Final[dict[str, GameScript]] = {"hcf": HcfScript(), "caribbean": CaribbeanScript(),
                                         "sixcard": SixcardScript()}
