"""What the client's two house-banked games (Caribbean Stud, 6 Card Poker) share.

Pure: the ``move`` command both games send, card and meter text, the seat lines
of a table without a designated player, the bets down while bets are open (what
may be bet is the server's choices' to say), the log lines and result lines the two games word alike, and the bots'
choice of places. What a player types is read in :mod:`client_cli.games.commands`.

>>> Move("bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}]}).payload("main")
{'table': 'main', 'action': 'bet', 'bets': [{'spot': 1, 'ante': 10, 'jackpot': True}]}
>>> poker_cards_text(["2h", "Kd", "7c", "Kh", "4s"], symbols=False).plain
'Kh Kd 7c 4s 2h'
>>> meter_text(1000050), class_label("quads")
('10,000.50', 'four of a kind')
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from rich.text import Text

from client_cli.event_words import describe_event as table_event_text
from client_cli.numbers import meter_text as meter_text  # (where the house games' views find it)
from client_cli.parse import SeatChoices, my_seat
from client_cli.reasons import acted_reason, not_dealt_reason, void_reason
from client_cli.render import NAME_WIDTH, RANK_ORDER, SUIT_STYLES, card_label, hand_title, seat_names
from server.i18n import _, phrase, spoken
from server.rules.cards import parse_cards
from server.rules.poker import best_five, class_name

HOUSE_GAMES: Final = ("caribbean", "sixcard")
BETTING: Final = frozenset({"bet", "deal", "rebet", "clear", "pass"})
"""The hand moves of a house game's betting round: while the server offers any, bets are open for this player."""
IDLE_PHASES: Final = (None, "settled", "void", "not_dealt")

CLASS_LABELS: Final = {
    "royal": phrase("royal flush"), "straight_flush": phrase("straight flush"), "quads": phrase("four of a kind"),
    "full_house": phrase("full house"), "flush": phrase("flush"), "straight": phrase("straight"),
    "trips": phrase("three of a kind"), "two_pair": phrase("two pair"), "pair": phrase("pair"),
    "high_card": phrase("high card"), "none": phrase("no hand"),
}
"""Each hand class as people say it (said in the chosen language by :func:`class_label`)."""

PLACE_WORDS: Final = {"spot": (phrase("spot"), phrase("spots")), "box": (phrase("box"), phrase("boxes"))}
"""A house game's place, one and many, in the chosen language."""


def place_word(word: str, count: int = 1) -> str:
    """``spot`` or ``spots`` (``box``, ``boxes``) in the chosen language."""
    one, many = PLACE_WORDS.get(word, (word, plural(word)))
    return spoken(one if count == 1 else many)

Names = Mapping[int, str]
C = TypeVar("C", bound=SeatChoices)


@dataclass(frozen=True, slots=True)
class Move:
    """A ``move`` request: ``action`` with its arguments; ``note`` is said to the player once it is accepted."""

    action: str
    args: Mapping[str, Any] = field(default_factory=dict)
    note: str | None = None

    def payload(self, table: str) -> dict[str, Any]:
        """The Socket.IO ``move`` payload for ``table``."""
        return {"table": table, "action": self.action, **self.args}


def idle(choices: C) -> C:
    """The same player with nothing asked (leaving)."""
    return type(choices)(stack=choices.stack, seated=choices.seated, between_hands=choices.between_hands)


# ------------------------------------------------------------------ text


def class_label(cls: str | None) -> str:
    """A hand class as people say it (``two_pair`` -> ``two pair``)."""
    return spoken(CLASS_LABELS[str(cls)]) if str(cls) in CLASS_LABELS else str(cls).replace("_", " ")


def class_of(cards: Sequence[str]) -> str:
    """The class of the best five of ``cards`` (empty when they are not a poker hand).

    >>> class_of(["Ah", "Ad", "7c", "4s", "2h"]), class_of(["Ah"])
    ('pair', '')
    """
    try:
        return class_name(best_five(parse_cards(list(cards)))[0])
    except (ValueError, KeyError):
        return ""


def signed(n: int) -> str:
    """``+5``, ``-3``, ``0``."""
    return f"{n:+d}" if n else "0"


def _card(card: str, symbols: bool) -> Text:
    rank, suit = _rank(card), card[-1].lower()
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
    return names.get(seat, _("seat {seat}", seat=seat)) if isinstance(seat, int) else "?"


def reason_text(reason: Any, ordinary: str) -> str:
    """`` (the clock ran out)`` and the like, nothing for the ordinary reason."""
    return acted_reason(reason, ordinary)


# ------------------------------------------------------------------ the table


def hand_active(snapshot: Mapping[str, Any]) -> bool:
    """Whether a hand is being played now."""
    return (snapshot.get("hand") or {}).get("phase") not in IDLE_PHASES


def hand_rows(hand: Mapping[str, Any], word: str) -> list[Mapping[str, Any]]:
    """The rows of a hand's places (``word``: spot, box): while betting its bets, once dealt its dealt places."""
    dealt = hand.get(plural(word))
    if hand.get("phase") == "betting" or not dealt:
        return list(hand.get("bets") or [])
    return list(dealt)


def seat_lines(snapshot: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], word: str) -> list[Text]:
    """One line per seated player: name, stack, presence, and the ``word``s (spots, boxes) they bet on."""
    places: dict[int, list[int]] = {}
    for row in rows:
        places.setdefault(int(row["seat"]), []).append(int(row[word]))
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
            line.append(_("dropped") + " ", style="red")
        if entry.get("sitting_out"):
            line.append(_("sitting out") + " ", style="dim")
        if entry.get("leaving"):
            line.append(_("leaving") + " ", style="dim")
        mine = places.get(seat) or ()
        if mine and hand.get("phase") is not None:
            line.append(f"{place_word(word, len(mine))} " + " ".join(str(p) for p in mine))
        lines.append(line)
    return lines


def dealer_up_line(dealer: Mapping[str, Any], symbols: bool) -> Text | None:
    """The dealer's up-card before the reveal (None when there is none to show)."""
    up = dealer.get("up")
    if not up:
        return None
    line = Text(_("Dealer: "), style="bold")
    line.append_text(poker_cards_text([up], symbols=symbols))
    line.append(_(" up, four cards down"), style="dim")
    return line


def dealer_hand_line(cards: Sequence[str], cls: Any, qualifies: Any, symbols: bool, *, missed: str = "") -> Text:
    """The dealer's revealed hand and whether it qualifies (``missed`` says what a miss means)."""
    line = Text(_("Dealer: "), style="bold")
    line.append_text(poker_cards_text(cards, symbols=symbols))
    line.append(f"  {class_label(cls)}")
    line.append(_(" · qualifies") if qualifies else _(" · does NOT qualify") + spoken(missed),
                style="green" if qualifies else "yellow")
    return line


def betting_line(row: Mapping[str, Any]) -> Text:
    """Whether a bet of the betting round is confirmed yet."""
    return Text(_("confirmed") if row.get("confirmed") else _("not confirmed yet"), style="dim")


def decision_text(row: Mapping[str, Any], in_turn: bool, bet: str) -> Text:
    """How a dealt place stands: dead, folded, its ``bet`` placed (``Bet {}``: the amount goes in), or to act."""
    out = Text()
    if row.get("dead"):
        out.append(_(" · dead"), style="red")
    elif row.get("folded"):
        out.append(_(" · folded"), style="dim")
    elif row.get("bet"):
        out.append(" · " + bet.format(row["bet"]), style="bold")
    elif in_turn:
        out.append(_(" · to act"), style="yellow")
    return out


# ------------------------------------------------------------------ while bets are open


@dataclass(frozen=True, slots=True)
class OpenBets:
    """The places (spots, boxes) of a table while bets are open, as one player sees them (words only: which
    places may be bet and how many are the server's choices' to say)."""

    count: int
    taken: tuple[tuple[int, str], ...]
    """Places other players hold, with their names."""
    mine: tuple[Mapping[str, Any], ...]
    confirmed: bool
    passed: bool = False
    """This player passed this hand (a bet undoes it while betting is open)."""
    waiting: tuple[str, ...] = ()
    """The other players of the hand who have neither bet nor passed yet, by name."""


def open_bets(snapshot: Mapping[str, Any], seat: int, word: str) -> OpenBets:
    """The ``word``s (spot, box) of the table for ``seat``, from the snapshot's bets and settings."""
    names = seat_names(snapshot)
    hand = snapshot.get("hand") or {}
    bets = hand.get("bets") or []
    count = int((snapshot.get("settings") or {}).get(plural(word), 1))
    taken = tuple((int(b[word]), names.get(int(b["seat"]), _("seat {seat}", seat=b["seat"]))) for b in bets
                  if b.get("seat") != seat)
    mine = tuple(b for b in bets if b.get("seat") == seat)
    betting = {int(b["seat"]) for b in bets}
    waiting = tuple(names.get(int(other), _("seat {seat}", seat=other)) for other in hand.get("waiting") or []
                    if int(other) != seat and int(other) not in betting)
    return OpenBets(count, taken, mine, any(b.get("confirmed") for b in mine), seat in (hand.get("passed") or []),
                    waiting)


def hold_problem(count: int, hold: int, most: int, waiting: Sequence[str], word: str) -> str | None:
    """Why ``count`` places are too many now (``hold`` allowed of ``most``, ``waiting``: who still waits), or None.

    >>> hold_problem(2, 1, 3, ["bo"], "spot")
    'you may hold at most 1 spot while bo has not bet or passed yet'
    """
    if count <= hold:
        return None
    if hold < most and waiting:
        if len(waiting) == 1:
            return _("you may hold at most {hold} {places} while {name} has not bet or passed yet", hold=hold,
                     places=place_word(word, hold), name=waiting[0])
        return _("you may hold at most {hold} {places} while {names} have not bet or passed yet", hold=hold,
                 places=place_word(word, hold), names=", ".join(waiting))
    return _("you may bet on at most {most} {places}, got {count}", most=most, places=place_word(word, 2), count=count)


def places_text(places: Sequence[int], last: int) -> str:
    """``1-7`` when every place is listed, else ``1 2 5``.

    >>> places_text([1, 2, 3, 4], 4), places_text([1, 3], 4)
    ('1-4', '1 3')
    """
    return f"1-{last}" if list(places) == list(range(1, last + 1)) and last > 1 else " ".join(map(str, places))


def placed_text(typed: str, confirmed: bool) -> str:
    """What a player with bets down may do: ``typed`` is their bets as they are typed."""
    if confirmed:
        return _("Your bets {typed} are confirmed: waiting for the others (clear (c) takes them back)", typed=typed)
    return _("Your bets {typed}: deal (d) to confirm them, clear (c), pass, or bet again", typed=typed)


PASSED_TEXT: Final = phrase("You pass this hand: waiting for the others (a bet still counts while bets are open)")


# ------------------------------------------------------------------ the log


def _cleared(reason: str, name: str) -> str:
    if reason == "clear":
        return _("{name} clears their bets", name=name)
    if reason == "clock":
        return _("{name}'s unconfirmed bets go back (the clock ran out)", name=name)
    if reason == "left":
        return _("{name}'s bets go back (leaving)", name=name)
    return _("{name}'s bets go back", name=name)


def house_event(event: Mapping[str, Any], names: Names, *, word: str, qualifying: str) -> str | None:
    """The log line of an event both games word alike (``word``: spot, box; ``qualifying``: the dealer's rule),
    else the table's own (None for bookkeeping events)."""
    kind = event.get("type")
    name = who(names, event.get("seat"))
    if kind == "bets_confirmed":
        return _("{name} deals (bets confirmed)", name=name)
    if kind == "bets_passed":
        return _("{name} passes this hand", name=name)
    if kind == "bets_cleared":
        return _cleared(str(event.get("reason")), name)
    if kind == "deck_prepared":
        return None
    if kind == "cards_dealt":
        count = len(event.get("counts") or {})
        return _("cards dealt to {count} {places}; the dealer shows {card}", count=count,
                 places=place_word(word, count), card=event.get("dealer_up"))
    if kind == "turn_started":
        return _("{name} to act on {place} {n}", name=name, place=place_word(word), n=event.get(word))
    if kind == f"{word}_folded":
        return _("{name} folds {place} {n}", name=name, place=place_word(word), n=event.get(word)) \
            + reason_text(event.get("reason"), "fold")
    if kind == "dealer_revealed":
        cards = list(event.get("cards") or [])
        verdict = _("qualifies ({rule})", rule=qualifying) if event.get("qualifies") else _("does NOT qualify")
        return _("the dealer shows {cards}: {hand}, {verdict}", cards=" ".join(cards),
                 hand=class_label(class_of(cards)), verdict=verdict)
    return table_event_text(event, names)


# ------------------------------------------------------------------ results


def unsettled_lines(summary: Mapping[str, Any], *, returned: str, missing: str) -> list[Text] | None:
    """The one line of a hand that was voided (``returned``: what went back) or not dealt (``missing``: the
    usual reason); None for a settled hand."""
    if summary.get("status") == "void":
        return [Text(_("{hand} was voided: {reason}; {returned} went back", hand=hand_title(summary),
                       reason=void_reason(summary.get("reason")), returned=spoken(returned)), style="yellow")]
    if not summary.get("settlement"):
        return [Text(_("No hand dealt: {reason}", reason=not_dealt_reason(summary.get("reason"), missing)),
                     style="dim")]
    return None


def append_net(line: Text, parts: Sequence[str], net: int) -> None:
    """`` ante +10 back bet +20 = net +30`` at the end of a place's result line, the net in colour."""
    line.append(" ".join(parts) + " = ")
    line.append(_("net {net}", net=signed(net)), style="green" if net > 0 else "red" if net < 0 else "")


def shown_line(cards: Sequence[str], cls: Any, symbols: bool) -> Text:
    """The cards a place showed down, under its result line."""
    sub = Text("         ")
    sub.append_text(poker_cards_text(cards, symbols=symbols))
    sub.append(f"  {class_label(cls)}", style="dim")
    return sub


# ------------------------------------------------------------------ bots


def basic_bet(free: Sequence[int], prefer: int | None, ante: int | None, low: int, high: int) -> tuple[int, int]:
    """A basic bot's one place (``prefer`` if free, else the first free) and Ante (``ante``, or the smallest)."""
    place = prefer if prefer is not None and prefer in free else free[0]
    return place, min(max(ante or low, low), high)


def random_places(free: Sequence[int], most: int, rng: random.Random) -> list[int]:
    """A random bot's places: 1 to ``most`` of the free ones, in order."""
    return sorted(rng.sample(list(free), rng.randint(1, min(most, len(free)))))


def plural(word: str) -> str:
    """``spots``, ``boxes``."""
    return word + ("es" if word.endswith("x") else "s")
