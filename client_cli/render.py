"""Pure rendering: table snapshots and events -> lines of text (rich ``Text``).

Nothing here reads the clock, the terminal or the network; the caller passes
the time and the width. Every line fits the width it is given (80 columns is
the design width). In plain mode use ``Text.plain``: no colour codes, suits as
letters.

>>> cards_text(["Ah", "4h", "3h", "2h", "Kc", "Qd", "Js"], symbols=False).plain
'Ah 4h 3h 2h  Kc  Qd  Js'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from rich.text import Text

from client_cli.notes import notes_lines
from client_cli.numbers import meter_text
from client_cli.reasons import dead_phrase, dead_result, not_dealt_reason, void_reason
from server.i18n import _, phrase, spoken
from server.rules.cards import SUITS, card_text, parse_cards
from server.rules.hcf.evaluate import evaluate

SUIT_SYMBOLS: Final = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_STYLES: Final = {"c": "green", "d": "blue", "h": "red", "s": "bold"}
RANK_ORDER: Final = "AKQJT98765432"
NAME_WIDTH: Final = 14

Names = Mapping[int, str]


# ------------------------------------------------------------------ cards


def group_by_suit(cards: Iterable[str]) -> list[tuple[str, list[str]]]:
    """``(suit, ranks)`` groups, biggest group first, ranks high to low.

    >>> group_by_suit(["2c", "Ah", "Kc", "9h", "3h"])
    [('h', ['A', '9', '3']), ('c', ['K', '2'])]
    """
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(card[-1].lower(), []).append(card[:-1].upper().replace("10", "T"))
    for ranks in groups.values():
        ranks.sort(key=RANK_ORDER.index)
    return sorted(groups.items(), key=lambda g: (-len(g[1]), [RANK_ORDER.index(r) for r in g[1]]))


def card_label(rank: str, suit: str, *, symbols: bool) -> str:
    """``A♥`` (symbols) or ``Ah``."""
    return rank + (SUIT_SYMBOLS[suit] if symbols else suit)


def cards_text(cards: Sequence[str], *, symbols: bool = True, flush: Sequence[str] = (),
               straight_flush: Sequence[str] = ()) -> Text:
    """Cards grouped by suit in suit colours; flush cards bold, straight-flush cards underlined."""
    text = Text()
    in_run = {c[:-1].upper() + c[-1].lower() for c in straight_flush}
    in_flush = {c[:-1].upper() + c[-1].lower() for c in flush}
    for index, (suit, ranks) in enumerate(group_by_suit(cards)):
        if index:
            text.append("  ")
        for i, rank in enumerate(ranks):
            if i:
                text.append(" ")
            style = SUIT_STYLES[suit] + (" bold" if rank + suit in in_flush else "") \
                + (" underline" if rank + suit in in_run else "")
            text.append(card_label(rank, suit, symbols=symbols), style=style)
    return text


def hand_summary(cards: Sequence[str]) -> str:
    """``4-card flush A-J-9-5, straight flush 3 (J-T-9)`` for any 7 cards shown."""
    try:
        parsed = parse_cards(list(cards))
    except ValueError:
        return ""
    hand = evaluate(parsed)
    flush = [text[:-1] for text in _texts(hand.flush_cards())]
    out = _("{n}-card flush {ranks}", n=len(flush), ranks="-".join(flush))
    if hand.straight_flush_length:
        run = "-".join(c[0] for c in _texts(hand.straight_flush_cards()))
        out += _(", straight flush {n} ({ranks})", n=hand.straight_flush_length, ranks=run)
    return out


def _texts(cards: Iterable[int]) -> list[str]:
    return [card_text(c) for c in cards]


def your_cards_lines(payload: Mapping[str, Any], ante: int, *, symbols: bool, dealer: bool) -> list[Text]:
    """Your seven cards, your flush and straight flush marked, and your raise limit."""
    cards = list(payload.get("cards") or [])
    if not cards:
        return []
    flush = list(payload.get("flush") or [])
    run = list(payload.get("straight_flush") or [])
    line = Text(_("Your cards: "), style="bold")
    line.append_text(cards_text(cards, symbols=symbols, flush=flush, straight_flush=run))
    facts = Text("  ")
    if flush:
        facts.append(_("FLUSH {n} ({ranks})", n=len(flush), ranks="-".join(c[:-1] for c in flush)), style="bold")
    if run:
        facts.append(_(" · STRAIGHT FLUSH {n} ({ranks})", n=len(run), ranks="-".join(c[:-1] for c in run)),
                     style="bold magenta")
    limit = int(payload.get("raise_limit", 1))
    if dealer:
        facts.append(_(" · you bank; qualifies") if payload.get("qualifies") else _(" · you bank; does not qualify"))
    else:
        facts.append(_(" · raise up to {times}x = {chips}", times=limit, chips=limit * ante) if ante
                     else _(" · raise up to {times}x", times=limit))
    return [line, facts]


# ------------------------------------------------------------------ the table


def seat_names(snapshot: Mapping[str, Any], extra: Names | None = None) -> dict[int, str]:
    """Seat number -> name, from the snapshot (and names remembered from the hand)."""
    names = {int(k): v for k, v in (extra or {}).items()}
    for entry in snapshot.get("seats") or []:
        names[int(entry["seat"])] = str(entry["name"])
    return names


def countdown(deadline: float | None, server_now: float) -> str:
    """``0:24`` left on a clock (``0:00`` once it ran out).

    >>> countdown(130.2, 100.0)
    '0:31'
    """
    if deadline is None:
        return ""
    left = max(0, int(deadline - server_now + 0.999))
    return f"{left // 60}:{left % 60:02d}"


_PHASES: Final = {"offer": phrase("offering the bank"), "betting": phrase("bets open"),
                  "decisions": phrase("decisions"), "exchange": phrase("dealer exchange"),
                  "settled": phrase("settled"), "void": phrase("void"), "not_dealt": phrase("not dealt")}


def hand_no(hand: Mapping[str, Any]) -> Any:
    """The number a person sees for a hand: the table's own (1, 2, 3 ...), else the server-wide id.

    >>> hand_no({"hand_id": 41, "number": 3}), hand_no({"hand_id": 41})
    (3, 41)
    """
    number = hand.get("number")
    return number if isinstance(number, int) else hand.get("hand_id")


def hand_title(hand: Mapping[str, Any]) -> str:
    """``Hand #3``; ``The hand`` for one voided before its cards were dealt (its record has ``"number": null``).

    >>> hand_title({"hand_id": 41, "number": 3}), hand_title({"hand_id": 41, "number": None})
    ('Hand #3', 'The hand')
    """
    if "number" in hand and hand["number"] is None:
        return _("The hand")
    return _("Hand #{number}", number=hand_no(hand))


def header_line(snapshot: Mapping[str, Any], server_now: float, *, connected: bool = True) -> Text:
    """Table, hand, phase, whose turn, the clock."""
    hand = snapshot.get("hand") or {}
    names = seat_names(snapshot)
    text = Text(_("Table {table}", table=snapshot.get("table")), style="bold")
    drill = snapshot.get("drill")
    if isinstance(drill, Mapping) and not drill.get("ended"):
        text.append(_(" · DRILL (dealer: {trainee})", trainee=drill.get("trainee")), style="bold magenta")
        waiting = drill.get("waiting")
        if isinstance(waiting, Mapping):
            text.append(_(" · waiting for the dealer: {step}", step=waiting.get("step")), style="bold yellow")
    status = snapshot.get("status")
    if hand and hand.get("phase") not in ("settled", "void", "not_dealt", None):
        text.append(_(" · hand #{number} · {phase}", number=hand_no(hand),
                      phase=spoken(_PHASES.get(hand["phase"], hand["phase"]))))
        if hand.get("arranged"):
            text.append(_(" · ARRANGED DECK"), style="bold red")
        clock = hand.get("clock") or {}
        seat = clock.get("seat")
        turn = hand.get("turn")
        if seat is not None:
            text.append(_(" · {who} to act", who=names.get(seat, _("seat {seat}", seat=seat))), style="bold yellow")
            if isinstance(turn, dict):  # the house-banked games: the spot or box in turn
                place = "spot" if "spot" in turn else "box"
                text.append(_(" on spot {spot}", spot=turn.get(place)) if place == "spot"
                            else _(" on box {box}", box=turn.get(place)), style="bold yellow")
        elif clock.get("kind") == "bets":
            text.append(_(" · waiting for bets"))
        elif clock.get("kind") == "exchange":
            text.append(_(" · ask or continue"), style="bold yellow")
        left = countdown(clock.get("deadline"), server_now)
        if left:
            text.append(f" · {left}", style="bold")
    elif snapshot.get("waiting_reason") == "game_ended" and status != "closed":
        text.append(_(" · the game ended: no hand until the host reopens the table"), style="bold red")
    elif status == "paused":
        text.append(_(" · paused by the host"), style="yellow")
    elif status == "closed":
        text.append(_(" · closed"), style="red")
    else:
        text.append(_waiting_words(snapshot.get("waiting_reason")))
    meter = snapshot.get("jackpot_meter")
    if isinstance(meter, int):  # Caribbean Stud: the progressive jackpot, on every screen
        text.append(" · " + _("jackpot {meter}", meter=meter_text(meter)), style="bold magenta")
    if snapshot.get("arranged_next"):
        text.append(_(" · next deck arranged"), style="red")
    if not connected:
        text.append(_(" · CONNECTION LOST, reconnecting"), style="bold red")
    for line in notes_lines(snapshot.get("notes")):  # the house rules for the bank, their status, the fees
        text.append("\n" + line, style="cyan")
    return text



def _waiting_words(reason: object) -> str:
    """What the table waits for, in words (the snapshot's ``waiting_reason`` is a code: docs/protocol.md)."""
    said = {"players": _(" · waiting for players"), "no_bank": _(" · waiting for someone to take the bank")}
    return _(" · between hands") if reason is None else said.get(str(reason), _(" · waiting"))

def seat_lines(snapshot: Mapping[str, Any]) -> list[Text]:
    """One line per seated player: DP, name, stack, state, bets."""
    hand = snapshot.get("hand") or {}
    you = (snapshot.get("you") or {}).get("seat")
    active = hand.get("phase") not in (None, "settled", "void", "not_dealt")
    clock_seat = (hand.get("clock") or {}).get("seat")
    lines = []
    for entry in snapshot.get("seats") or []:
        seat = int(entry["seat"])
        mine = (hand.get("seats") or {}).get(str(seat)) or {}
        line = Text(">" if active and seat == clock_seat else " ", style="bold yellow")
        line.append(f"{seat:>2} ")
        line.append("DP " if entry.get("button") else "   ", style="bold cyan")
        name = str(entry["name"])[:NAME_WIDTH - 1] + ("*" if seat == you else "")
        line.append(f"{name:<{NAME_WIDTH}}", style="bold" if seat == you else "")
        line.append(f"{entry.get('stack', 0):>7}  ")
        line.append_text(_seat_state(entry, mine, hand, active))
        lines.append(line)
    return lines


def _seat_state(entry: Mapping[str, Any], mine: Mapping[str, Any], hand: Mapping[str, Any],
                active: bool) -> Text:
    flags = []
    if not entry.get("present", True):
        flags.append((_("dropped"), "red"))
    if entry.get("sitting_out"):
        flags.append((_("sitting out"), "dim"))
    if entry.get("leaving"):
        flags.append((_("leaving"), "dim"))
    if entry.get("away"):
        flags.append((_("away"), "yellow"))
    text = Text()
    for word, style in flags:
        text.append(word + " ", style=style)
    if not active or not mine:
        return text
    if entry.get("button") and hand.get("dealer") == entry.get("seat"):
        text.append(_("banks"), style="cyan")
        return text
    if mine.get("dead"):
        why = mine.get("dead_reason")
        text.append(_("dead hand") + (f" ({dead_phrase(why)})" if why else ""), style="red")
    elif mine.get("passed"):
        text.append(_("sits this hand out"), style="dim")
    elif mine.get("in_hand"):
        text.append(bets_text(mine))
        decision = mine.get("decision")
        if decision == "fold":
            text.append(f" · {_('folded')}", style="dim")
        elif decision == "raise":
            text.append(f" · {_('raised {chips}', chips=mine.get('raise', 0))}", style="bold")
    elif hand.get("phase") == "betting" and entry.get("seat") in (hand.get("bettors") or []):
        text.append(_("betting…"), style="dim")
    return text


def bets_text(bets: Mapping[str, Any]) -> str:
    """``ante 10 sf 5 flush 5`` (bonuses only when placed)."""
    out = f"ante {bets.get('ante', 0)}"
    if bets.get("straight_flush_bonus"):
        out += f" sf {bets['straight_flush_bonus']}"
    if bets.get("flush_bonus"):
        out += f" flush {bets['flush_bonus']}"
    return out


# ------------------------------------------------------------------ results


def _signed(n: int) -> str:
    return f"{n:+d}"


def result_lines(summary: Mapping[str, Any], names: Names, my_seat: int | None = None, *,
                 symbols: bool = False) -> list[Text]:
    """The showdown: the DP's hand, whether it qualified, every seat's bets, fee and net.

    ``summary`` is a ``hand_revealed`` event, a hand from the history or a
    ``hand_settled`` event merged with what is known of the hand.
    """
    status = summary.get("status", "settled")
    if status == "void":
        return [Text(_("{hand} was voided: {reason}; every bet and fee went back", hand=hand_title(summary),
                       reason=void_reason(summary.get("reason"))), style="yellow")]
    settlement = summary.get("settlement")
    if not settlement:
        return [Text(_("No hand dealt: {reason}", reason=not_dealt_reason(summary.get("reason"), _("no hand"))),
                     style="dim")]
    dealer = summary.get("dealer")
    lines = [_dealer_line(summary, names, dealer, symbols)]
    shown = {int(k): v for k, v in _shown(summary).items()}
    for seat_result in settlement.get("seats", []):
        lines.extend(_seat_result(seat_result, names, shown, my_seat, symbols))
    dp = settlement.get("dealer") or {}
    who = _("DP {name}", name=names.get(dealer, _("seat {seat}", seat=dealer))) if isinstance(dealer, int) \
        else _("the house")
    line = Text(f"  {who}: {_('net {chips}', chips=_signed(int(dp.get('net', 0))))}")
    if dp.get("fee"):
        line.append(f" ({_('fee {chips}', chips=_signed(int(dp['fee'])))})")
    if isinstance(dealer, int) and dealer == my_seat:
        line.stylize("bold")
    lines.append(line)
    return lines


def _shown(summary: Mapping[str, Any]) -> dict[str, list[str]]:
    shown = summary.get("shown") or {}
    if isinstance(shown, list):  # the hand_settled event sends [[seat, cards], ...]
        return {str(seat): cards for seat, cards in shown}
    return dict(shown)


def _dealer_line(summary: Mapping[str, Any], names: Names, dealer: Any, symbols: bool) -> Text:
    who = _("DP {name}", name=names.get(dealer, _("seat {seat}", seat=dealer))) if isinstance(dealer, int) \
        else _("Dealer")
    line = Text(f"{_('Hand #{number}', number=hand_no(summary))} · {who}: ", style="bold")
    cards = summary.get("dealer_cards") or []
    if cards:
        line.append_text(cards_text(cards, symbols=symbols))
    qualifies = summary.get("dealer_qualifies")
    if qualifies is None:
        qualifies = ((summary.get("settlement") or {}).get("dealer") or {}).get("qualifies")
    line.append(_(" · qualified") if qualifies else _(" · did NOT qualify (Antes win 1:1, raises push)"),
                style="green" if qualifies else "yellow")
    return line


def _seat_result(result: Mapping[str, Any], names: Names, shown: Mapping[int, list[str]],
                 my_seat: int | None, symbols: bool) -> list[Text]:
    seat = int(result["seat"])
    style = "bold" if seat == my_seat else ""
    head = Text(f"  {seat:>2} {names.get(seat, '?')[:NAME_WIDTH]:<{NAME_WIDTH}} ", style=style)
    if result.get("dead"):
        head.append(dead_result(result), style="yellow")
        return [head, *_cards_line(shown.get(seat), symbols)]  # a seat the DP could not cover was shown
    parts = [_("ante {chips}", chips=_signed(int(result["ante"])))]
    if result.get("folded"):
        parts[0] = _("folded, ante {chips}", chips=_signed(int(result["ante"])))
    elif result.get("raise") is not None:
        parts.append(_("raise {chips}", chips=_signed(int(result["raise"]))))
    if result.get("straight_flush_bonus"):
        parts.append(_("sf {chips}", chips=_signed(int(result["straight_flush_bonus"]))))
    if result.get("flush_bonus"):
        parts.append(_("flush {chips}", chips=_signed(int(result["flush_bonus"]))))
    if result.get("fee"):  # no fee: nothing to say
        parts.append(_("fee {chips}", chips=_signed(int(result["fee"]))))
    net = int(result.get("net", 0))
    head.append(" ".join(parts) + " = ")
    head.append(_("net {chips}", chips=_signed(net)), style="green" if net > 0 else "red" if net < 0 else "")
    return [head, *_cards_line(shown.get(seat), symbols)]


def _cards_line(cards: list[str] | None, symbols: bool) -> list[Text]:
    if not cards:
        return []
    sub = Text("       ")
    sub.append_text(cards_text(cards, symbols=symbols))
    sub.append(f"  {hand_summary(cards)}", style="dim")
    return [sub]


__all__ = [
    "SUITS",
    "cards_text",
    "countdown",
    "group_by_suit",
    "header_line",
    "notes_lines",
    "result_lines",
    "seat_lines",
    "your_cards_lines",
]
