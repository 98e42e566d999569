"""What a client remembers of a table between snapshots: pure, fed by events.

The snapshot (the server's full view) is the truth about seats, stacks and the
hand; the tracker adds what only this client knows: the commitment it saw
before the bets closed, the seed it sent, the cards it saw (its own, the DP's,
the hands shown), the log of events, the last results and the check of the
last deal.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from client_cli.games import client_for, game_client, game_of
from client_cli.games.house import poker_cards_text
from client_cli.games.sixcard import original_cards
from client_cli.render import cards_text, seat_names
from client_cli.verify import Seen, Verdict, seen_from_reveal, verify_reveal

KEEP_HANDS = 20


@dataclass(slots=True)
class HandMemory:
    """What this client saw of one hand."""

    hand_id: int
    commitment: str | None = None
    my_seat: int | None = None
    my_seed: str | None = None
    cards: dict[int, list[str]] = field(default_factory=dict)
    """Deal-order place (a seat; a spot or box in the house-banked games; 0 the house) -> the cards seen."""
    verdict: Verdict | None = None
    seats: list[int] | None = None
    """The seats taking part (house-banked games: from the hand's betting_opened)."""


@dataclass(slots=True)
class Tracker:
    """A table as this client knows it."""

    symbols: bool = True
    snapshot: dict[str, Any] | None = None
    snapshot_at: float = 0.0
    offset: float = 0.0
    current: int | None = None
    hands: dict[int, HandMemory] = field(default_factory=dict)
    log: deque[str] = field(default_factory=lambda: deque(maxlen=200))
    results: list[Text] = field(default_factory=list)
    verdict: Verdict | None = None
    names: dict[int, str] = field(default_factory=dict)
    fresh: list[str | Text] = field(default_factory=list)

    # ------------------------------------------------------------ inputs

    def on_snapshot(self, snapshot: dict[str, Any], local_now: float, *, joined: bool = False) -> None:
        """Take a newer snapshot (an older one, answered late, is ignored).

        ``joined``: the snapshot of a (re)join, whose finished hand may have been
        revealed while the connection was down; it is checked then.
        """
        if self.snapshot is not None and snapshot.get("seq", 0) < self.snapshot.get("seq", 0) \
                and snapshot.get("table") == self.snapshot.get("table"):
            return
        self.snapshot = snapshot
        self.snapshot_at = local_now
        self.offset = float(snapshot.get("server_time", local_now)) - local_now
        self.names.update(seat_names(snapshot))
        hand = snapshot.get("hand") or {}
        hand_id = hand.get("hand_id")
        if isinstance(hand_id, int):
            self.current = hand_id
            memory = self.memory(hand_id)
            memory.my_seat = _seat(snapshot)
            if hand.get("commitment") and memory.commitment is None:
                memory.commitment = str(hand["commitment"])
            if client_for(snapshot) is not None:
                self._house_snapshot(memory, hand)
            else:
                cards = (hand.get("your_cards") or {}).get("cards")
                if cards and memory.my_seat is not None:
                    memory.cards[memory.my_seat] = list(cards)
        last = snapshot.get("last_hand")
        if joined and isinstance(last, dict) and isinstance(last.get("hand_id"), int) \
                and last["hand_id"] in self.hands and self.hands[last["hand_id"]].verdict is None:
            self._revealed(last)  # a reveal missed while the connection was down

    @property
    def game(self) -> str:
        """The game the table plays (from the last snapshot)."""
        return game_of(self.snapshot or {})

    def on_private(self, event: Mapping[str, Any]) -> None:
        """``your_cards``: this client's own hand (it follows the hand's cards_dealt)."""
        if event.get("type") != "your_cards" or self.current is None:
            return
        if client_for(self.snapshot or {}) is not None:
            self._house_cards(self.memory(self.current), event)
            return
        memory = self.memory(self.current)
        seat = memory.my_seat if memory.my_seat is not None else _seat(self.snapshot or {})
        if seat is not None:
            memory.my_seat = seat
            memory.cards[seat] = list(event.get("cards") or [])
        if self.snapshot is not None and isinstance(self.snapshot.get("hand"), dict):
            self.snapshot["hand"]["your_cards"] = dict(event)

    def on_event(self, event: Mapping[str, Any]) -> None:
        """A table event: remember what matters and add a line to the log."""
        kind = event.get("type")
        hand_id = event.get("hand_id")
        if kind == "player_sat":
            self.names[int(event["seat"])] = str(event.get("name"))
        if isinstance(hand_id, int) and kind != "hand_revealed":
            self.current = hand_id
            memory = self.memory(hand_id)
            if memory.my_seat is None:
                memory.my_seat = _seat(self.snapshot or {})
            self._remember(memory, event)
        line = game_client(self.snapshot or {}).describe_event(event, self.names)
        if line and kind == "dealer_revealed":
            line = sorted_reveal(line, event.get("cards"), symbols=self.symbols, poker=self.game != "hcf")
        up = event.get("dealer_up") if kind == "cards_dealt" else None
        if line and isinstance(up, str) and line.endswith(up):  # the up card as the view beside it writes it
            line = line[:-len(up)] + poker_cards_text([up], symbols=self.symbols).plain
        if line:
            self._log(line)
        if kind == "hand_revealed":
            self._revealed(event)
        if kind in ("hand_voided", "hand_revealed"):
            self._hand_over(event)

    def _hand_over(self, event: Mapping[str, Any]) -> None:
        """The snapshot's hand is over: nobody is to act in it, even before the next snapshot comes.

        (A server that is stopping voids the hand and disconnects at once: no snapshot follows.)
        """
        hand = (self.snapshot or {}).get("hand")
        if isinstance(hand, dict) and hand.get("hand_id") == event.get("hand_id"):
            over = "void" if event.get("type") == "hand_voided" else str(event.get("status") or "settled")
            hand.update(phase=over, turn=None, clock=None)

    def note_bet(self, hand_id: int | None, seat: int, seed: str) -> None:
        """This client sent ``seed`` with its bets for ``hand_id``."""
        if hand_id is not None:
            memory = self.memory(hand_id)
            memory.my_seat, memory.my_seed = seat, seed

    # ------------------------------------------------------------ helpers

    def memory(self, hand_id: int) -> HandMemory:
        """The memory of a hand (created on first use; old ones are forgotten)."""
        if hand_id not in self.hands:
            self.hands[hand_id] = HandMemory(hand_id)
            for old in sorted(self.hands)[:-KEEP_HANDS]:
                del self.hands[old]
        return self.hands[hand_id]

    def server_now(self, local_now: float) -> float:
        """The server's clock, from the last snapshot's ``server_time``."""
        return local_now + self.offset

    def take_fresh(self) -> list[str | Text]:
        """Log lines added since the last call (for plain output)."""
        fresh, self.fresh = self.fresh, []
        return fresh

    def _log(self, line: str) -> None:
        self.log.append(line)
        self.fresh.append(line)

    def forget_seed(self, hand_id: int | None) -> None:
        """This client took its bets (and so its seed) back for ``hand_id``."""
        if hand_id is not None:
            self.memory(hand_id).my_seed = None

    def _house_snapshot(self, memory: HandMemory, hand: dict[str, Any]) -> None:
        """A house-banked game's hand view: the player's own cards, and who takes part (from betting_opened)."""
        rows = hand.get("spots") or hand.get("boxes") or []
        for row in rows:
            if row.get("seat") == memory.my_seat and row.get("cards"):
                self._house_cards(memory, {"spots" if "spot" in row else "boxes": [row]})
        if memory.seats is not None and "seats" not in hand:
            hand["seats"] = list(memory.seats)

    def _house_cards(self, memory: HandMemory, payload: Mapping[str, Any]) -> None:
        for entry in payload.get("spots") or []:
            if entry.get("cards"):
                memory.cards.setdefault(int(entry["spot"]), list(entry["cards"]))
        for entry in payload.get("boxes") or []:
            cards = original_cards(entry)
            if cards:
                memory.cards.setdefault(int(entry["box"]), cards)

    def _remember(self, memory: HandMemory, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if client_for(self.snapshot or {}) is not None:
            self._remember_house(memory, event)
            return
        if kind == "betting_opened" and memory.commitment is None:
            memory.commitment = str(event.get("commitment"))
        elif kind == "dealer_revealed":
            memory.cards[int(event["seat"])] = list(event.get("cards") or [])
        elif kind == "hand_settled":
            for seat, cards in event.get("shown") or []:
                memory.cards[int(seat)] = list(cards)

    def _remember_house(self, memory: HandMemory, event: Mapping[str, Any]) -> None:
        kind = event.get("type")
        if kind == "betting_opened":
            memory.commitment = memory.commitment or str(event.get("commitment"))
            memory.seats = [int(seat) for seat in event.get("seats") or []]
            hand = (self.snapshot or {}).get("hand")
            if isinstance(hand, dict) and hand.get("hand_id") == memory.hand_id:
                hand.setdefault("seats", list(memory.seats))
        elif kind in ("bets_cleared", "bets_passed") and event.get("seat") == memory.my_seat:
            memory.my_seed = None  # the server dropped the seed with the bets (clock, Pass, Clear, leaving)
        elif kind == "dealer_revealed":
            memory.cards[0] = list(event.get("cards") or [])
        elif kind == "hand_settled" and self.game == "caribbean":
            for spot, cards in event.get("shown") or []:
                memory.cards.setdefault(int(spot), list(cards))

    def _revealed(self, reveal: Mapping[str, Any]) -> None:
        hand_id = reveal.get("hand_id")
        names = {int(k): str(v) for k, v in (reveal.get("names") or {}).items()}
        self.names.update(names)
        memory = self.memory(hand_id) if isinstance(hand_id, int) else HandMemory(0)
        if memory.verdict is not None:
            return  # already checked (the reveal came with a rejoin's snapshot)
        for seat, cards in seen_from_reveal(reveal).items():
            memory.cards.setdefault(seat, cards)
        if reveal.get("status") in ("settled", "void"):
            show = game_client(reveal).result_lines
            self.results = show(reveal, {**self.names, **names}, memory.my_seat, symbols=self.symbols)
            self.fresh.extend(self.results)
        seen = Seen(memory.commitment, memory.my_seat, memory.my_seed, dict(memory.cards))
        verdict = verify_reveal(reveal, seen)
        memory.verdict = verdict
        if reveal.get("deal_order") or reveal.get("arranged"):
            self.verdict = verdict
            self.log.append(verdict.headline)
            self.fresh.extend(verdict.lines)

    def note(self, line: str) -> None:
        """A line of the client's own (connection, leaving) for the log."""
        self._log(line)


def _seat(snapshot: Mapping[str, Any]) -> int | None:
    seat = (snapshot.get("you") or {}).get("seat")
    return seat if isinstance(seat, int) else None


def sorted_reveal(line: str, cards: Any, *, symbols: bool, poker: bool = False) -> str:
    """The dealer's cards in a reveal line in the order the result line shows them (issue 23, item 16: the reveal
    was unsorted letters while the result line beside it used suit symbols): grouped by suit, high to low, at
    High Card Flush; as a poker hand (``poker``) at the house games.

    >>> sorted_reveal("DP ann shows 2h Jh Ad 8d 8h 3c Kd: a flush", ["2h", "Jh", "Ad", "8d", "8h", "3c", "Kd"],
    ...               symbols=True)
    'DP ann shows A♦ K♦ 8♦  J♥ 8♥ 2♥  3♣: a flush'
    >>> sorted_reveal("the dealer shows Jh 6h 4h 6c 4d: two pair", ["Jh", "6h", "4h", "6c", "4d"], symbols=True,
    ...               poker=True)
    'the dealer shows 6♥ 6♣ 4♥ 4♦ J♥: two pair'
    """
    if not isinstance(cards, list) or not cards:
        return line
    text = poker_cards_text if poker else cards_text
    return line.replace(" ".join(map(str, cards)), text([str(c) for c in cards], symbols=symbols).plain, 1)


_CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def card_words(text: str, *, symbols: bool) -> str:
    """A line this client wrote about the player's own cards, each card as the view beside it writes one.

    >>> card_words("box 2: Jc Ks (positions 1 2) exchanged for a fee of 10 chips", symbols=True)
    'box 2: J♣ K♠ (positions 1 2) exchanged for a fee of 10 chips'
    """
    return _CARD.sub(lambda m: poker_cards_text([m.group()], symbols=symbols).plain, text)
