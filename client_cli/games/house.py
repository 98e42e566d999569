"""What the client's two house-banked games (Caribbean Stud, 6 Card Poker) share.

Pure: the ``move`` command both games send, card and meter text, the seat lines
of a table without a designated player, and the table-wide commands (help,
leave, sitting out, top-ups) every game's input accepts.

>>> Move("bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}]}).payload("main")
{'table': 'main', 'action': 'bet', 'bets': [{'spot': 1, 'ante': 10, 'jackpot': True}]}
>>> poker_cards_text(["2h", "Kd", "7c", "Kh", "4s"], symbols=False).plain
'Kh Kd 7c 4s 2h'
>>> meter_text(1000050), class_label("quads")
('10,000.50', 'four of a kind')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from rich.text import Text

from client_cli.parse import Help, InputError, Leave, SitOut, TopUp, my_seat
from client_cli.render import NAME_WIDTH, SUIT_STYLES, card_label, seat_names

HOUSE_GAMES: Final = ("caribbean", "sixcard")
IDLE_PHASES: Final = (None, "settled", "void", "not_dealt")
RANK_ORDER: Final = "AKQJT98765432"

CLASS_LABELS: Final = {
    "royal": "royal flush", "straight_flush": "straight flush", "quads": "four of a kind",
    "full_house": "full house", "flush": "flush", "straight": "straight", "trips": "three of a kind",
    "two_pair": "two pair", "pair": "pair", "high_card": "high card", "none": "no hand",
}

Names = Mapping[int, str]


@dataclass(frozen=True, slots=True)
class Move:
    """A ``move`` request: ``action`` with its arguments; ``note`` is said to the player once it is accepted."""

    action: str
    args: Mapping[str, Any] = field(default_factory=dict)
    note: str | None = None

    def payload(self, table: str) -> dict[str, Any]:
        """The Socket.IO ``move`` payload for ``table``."""
        return {"table": table, "action": self.action, **self.args}


class TableChoices(Protocol):
    """What the table-wide commands read of any game's choices."""

    @property
    def seated(self) -> bool: ...
    @property
    def between_hands(self) -> bool: ...


# ------------------------------------------------------------------ text


def class_label(cls: str | None) -> str:
    """A hand class as people say it (``two_pair`` -> ``two pair``)."""
    return CLASS_LABELS.get(str(cls), str(cls).replace("_", " "))


def meter_text(hundredths: int) -> str:
    """A jackpot meter in chips with two decimals: ``10,000.50``."""
    return f"{hundredths // 100:,}.{hundredths % 100:02d}"


def signed(n: int) -> str:
    """``+5``, ``-3``, ``0``."""
    return f"{n:+d}" if n else "0"


def _card(card: str, symbols: bool) -> Text:
    rank, suit = card[:-1].upper().replace("10", "T"), card[-1].lower()
    return Text(card_label(rank, suit, symbols=symbols), style=SUIT_STYLES.get(suit, ""))


def _rank(card: str) -> str:
    return card[:-1].upper().replace("10", "T")


def poker_cards_text(cards: Sequence[str], *, symbols: bool = True) -> Text:
    """Five (or six) cards as poker players read them: pairs and sets first, then high to low, in suit colours.

    >>> poker_cards_text(["4c", "8d", "4h", "5s", "3h"], symbols=False).plain
    '4h 4c 8d 5s 3h'
    """
    counts = Counter(_rank(c) for c in cards)
    ordered = sorted(cards, key=lambda c: (-counts[_rank(c)], RANK_ORDER.index(_rank(c)), "shdc".find(c[-1].lower())))
    text = Text()
    for i, card in enumerate(ordered):
        if i:
            text.append(" ")
        text.append_text(_card(card, symbols))
    return text


def numbered_cards_text(cards: Sequence[str], *, symbols: bool = True) -> Text:
    """Cards in their places, numbered for a draw: ``1:Kh 2:Kd 3:7c 4:4s 5:2h``."""
    text = Text()
    for i, card in enumerate(cards, start=1):
        if i > 1:
            text.append(" ")
        text.append(f"{i}:", style="dim")
        text.append_text(_card(card, symbols))
    return text


def who(names: Names, seat: Any) -> str:
    """A seat's name, or ``seat N``."""
    return names.get(seat, f"seat {seat}") if isinstance(seat, int) else "?"


def reason_text(reason: Any, ordinary: str) -> str:
    """`` (the clock ran out)`` and the like, nothing for the ordinary reason."""
    if reason in (None, ordinary):
        return ""
    return {"clock": " (the clock ran out)", "left": " (leaving)", "floor": " (the floor)"}.get(
        str(reason), f" ({str(reason).replace('_', ' ')})")


# ------------------------------------------------------------------ the table


def hand_active(snapshot: Mapping[str, Any]) -> bool:
    """Whether a hand is being played now."""
    return (snapshot.get("hand") or {}).get("phase") not in IDLE_PHASES


def seat_lines(snapshot: Mapping[str, Any], places: Mapping[int, Sequence[int]], word: str) -> list[Text]:
    """One line per seated player: name, stack, presence, and the ``word``s (spots, boxes) they bet on."""
    hand = snapshot.get("hand") or {}
    you = my_seat(snapshot)
    turn_seat = (hand.get("turn") or {}).get("seat") if hand_active(snapshot) else None
    lines = []
    for entry in snapshot.get("seats") or []:
        seat = int(entry["seat"])
        line = Text(">" if seat == turn_seat else " ", style="bold yellow")
        line.append(f"{seat:>2}    ")
        name = str(entry["name"])[:NAME_WIDTH - 1] + ("*" if seat == you else "")
        line.append(f"{name:<{NAME_WIDTH}}", style="bold" if seat == you else "")
        line.append(f"{entry.get('stack', 0):>7}  ")
        if not entry.get("present", True):
            line.append("dropped ", style="red")
        if entry.get("sitting_out"):
            line.append("sitting out ", style="dim")
        if entry.get("leaving"):
            line.append("leaving ", style="dim")
        mine = places.get(seat) or ()
        if mine and hand.get("phase") is not None:
            line.append(f"{_plural(word) if len(mine) > 1 else word} " + " ".join(str(p) for p in mine))
        lines.append(line)
    return lines


def names_of(snapshot: Mapping[str, Any]) -> dict[int, str]:
    """Seat -> name at the table now."""
    return seat_names(snapshot)


# ------------------------------------------------------------------ input


TABLE_WORDS: Final = {
    "leave": "leave", "quit": "leave", "exit": "leave", "q": "leave",
    "sitout": "sitout", "back": "back", "topup": "topup", "top-up": "topup",
    "help": "help", "?": "help", "h": "help",
}


def table_command(words: Sequence[str], choices: TableChoices) -> Help | Leave | SitOut | TopUp | InputError | None:
    """The table-wide commands (help, leave, sitout, back, topup N); None when ``words`` are none of them."""
    verb = TABLE_WORDS.get(words[0]) if words else None
    if verb is None:
        return None
    if verb == "help":
        return Help()
    if verb == "leave":
        return Leave()
    if not choices.seated:
        return InputError("you are not seated")
    if verb == "sitout":
        return SitOut(True)
    if verb == "back":
        return SitOut(False)
    args = words[1:]
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
        return InputError("say 'topup N' with a number of chips")
    if not choices.between_hands:
        return InputError("you can top up only between hands")
    return TopUp(int(args[0]))


def assign_places(named: Sequence[int | None], *, mine: Sequence[int], free: Sequence[int],
                  taken: Mapping[int, str], last: int, word: str) -> list[int] | str:
    """Places (spots, boxes) for bets typed with a number or without one (None), or why they cannot be.

    Bets without a number take the player's own places first, then free ones, in order.

    >>> assign_places([None, 5, None], mine=[3], free=[1, 2, 3, 4, 5], taken={}, last=5, word="spot")
    [3, 5, 1]
    >>> assign_places([2], mine=[], free=[1, 3], taken={2: "bo"}, last=3, word="box")
    'box 2 is taken by bo; free: 1 3'
    """
    explicit = [p for p in named if p is not None]
    free_text = " ".join(str(p) for p in free) or "none"
    for place in explicit:
        if not 1 <= place <= last:
            return f"{word} {place}: this table's {_plural(word)} are 1 to {last}"
        if place in taken:
            return f"{word} {place} is taken by {taken[place]}; free: {free_text}"
        if explicit.count(place) > 1:
            return f"{word} {place} is named twice"
    pool = [p for p in dict.fromkeys([*mine, *free]) if p not in explicit and p not in taken]
    out: list[int] = []
    for given in named:
        if given is not None:
            out.append(given)
        elif pool:
            out.append(pool.pop(0))
        else:
            return f"not enough free {_plural(word)} for {len(named)} bets (free: {free_text})"
    return out


def _plural(word: str) -> str:
    return word + ("es" if word.endswith("x") else "s")
