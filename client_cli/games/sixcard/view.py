"""6 Card Poker on the screen: the table, the dealer, the log lines, the showdown and the history.

Pure: a snapshot, an event or a finished hand in, rich ``Text`` or plain
strings out (cards where this viewer may see them).

>>> plain = [t.plain for t in dealer_lines({"cards": ["Kh", "Jh", "Td", "6d", "5h"], "qualifies": False}, False)]
>>> plain
['Dealer: Kh Jh Td 6d 5h  high card · does NOT qualify']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from rich.text import Text

from client_cli.games.house import (
    Names,
    append_net,
    betting_line,
    class_label,
    class_of,
    dealer_hand_line,
    dealer_up_line,
    decision_text,
    hand_rows,
    house_event,
    numbered_cards_text,
    poker_cards_text,
    reason_text,
    seat_lines,
    shown_line,
    signed,
    unsettled_lines,
    who,
)
from client_cli.games.sixcard.choices import bets_text, roles_of
from client_cli.parse import my_seat
from client_cli.reasons import dead_reason, dead_result, not_dealt_reason
from client_cli.render import NAME_WIDTH, hand_no, seat_names
from server.i18n import _, phrase, spoken
from server.rules.sixcard.settings import BONUS_CLASSES
from server.rules.sixcard.settlement import HAND_SIZE

ROLE_LABELS: Final = {"open": phrase("open"), "blind": phrase("blind"), "bonus_only": phrase("bonus")}
SHORT_NAME: Final = 10


def table_lines(snapshot: Mapping[str, Any], *, symbols: bool = True) -> list[Text]:
    """The seats, the dealer's cards and every box of the hand (cards where this viewer may see them)."""
    hand = snapshot.get("hand") or {}
    names = seat_names(snapshot)
    rows = hand_rows(hand, "box")
    lines = seat_lines(snapshot, rows, "box")
    if not hand or hand.get("phase") in (None, "not_dealt", "void"):
        return lines
    lines.extend(dealer_lines(hand.get("dealer") or {}, symbols))
    you = my_seat(snapshot)
    turn = (hand.get("turn") or {}).get("box")
    roles = roles_of([(int(r["box"]), int(r["ante"]), int(r["bonus"])) for r in rows])
    for row in rows:
        lines.append(_box_line(row, names, you, turn, hand.get("phase"), roles, symbols))
    return lines


def dealer_lines(dealer: Mapping[str, Any], symbols: bool) -> list[Text]:
    """The dealer's up-card, or hand; after an exchange, the new hand too."""
    cards = dealer.get("cards")
    if not cards:
        up = dealer_up_line(dealer, symbols)
        return [up] if up is not None else []
    lines = [dealer_hand_line(cards, class_of(cards), dealer.get("qualifies"), symbols)]
    after = dealer.get("after")
    if after:
        again = Text("  " + _("exchanged: "))
        again.append_text(poker_cards_text(after, symbols=symbols))
        again.append(f"  {class_label(class_of(after))}")
        good = dealer.get("qualifies_after")
        again.append(_(" · now qualifies") if good else _(" · still does not qualify"),
                     style="green" if good else "yellow")
        lines.append(again)
    return lines


def _box_line(row: Mapping[str, Any], names: Names, you: int | None, turn: Any, phase: Any,
              roles: Mapping[int, str], symbols: bool) -> Text:
    box, seat = int(row["box"]), int(row["seat"])
    mine = seat == you
    role = str(row.get("role") or roles.get(box, ""))
    line = Text(">" if box == turn else " ", style="bold yellow")
    line.append(_("box {box}", box=box) + " ")
    name = who(names, seat)[:SHORT_NAME - 1] + ("*" if mine else "")
    line.append(f"{name:<{SHORT_NAME}} ", style="bold" if mine else "")
    stakes = f"{row.get('ante') or ''}{'+' + str(row['bonus']) if row.get('bonus') else ''}"
    line.append(f"{role_label(role):<6}{stakes:<7}")
    if phase == "betting":
        return line.append_text(betting_line(row))
    cards = row.get("cards")
    if cards and mine:
        line.append_text(numbered_cards_text(cards, symbols=symbols))
    elif cards:
        line.append_text(poker_cards_text(cards, symbols=symbols))
    else:
        line.append(_("not seen yet") if mine and role != "bonus_only" else _("face down"), style="dim")
    if cards:
        line.append(f"  {class_label(row.get('class'))}", style="bold" if mine else "")
        if row.get("bonus") and row.get("bonus_class") in BONUS_CLASSES:
            paying = _("bonus pays") if row["bonus_class"] == row.get("class") \
                else _("bonus: {hand}", hand=class_label(row["bonus_class"]))
            line.append(f" ({paying})", style="bold magenta")
    line.append_text(_box_state(row, box == turn))
    return line


def _box_state(row: Mapping[str, Any], in_turn: bool) -> Text:
    out = Text()
    draw = row.get("draw")
    if draw:
        what = _("bought") if draw.get("kind") == "buy" else \
            _("exchanged {count}", count=len(draw["new"])) if draw.get("new") else _("exchanged")
        out.append(" · " + _("{what}, fee {fee}", what=what, fee=draw.get("fee")), style="cyan")
    out.append_text(decision_text(row, in_turn, _("Bet {chips}", chips="{}")))
    if row.get("exchange_request"):
        out.append(" · " + _("asks for the exchange"), style="magenta")
    if row.get("continued"):
        out.append(" · " + _("continued"), style="dim")
    return out


# ------------------------------------------------------------------ events


def describe_event(event: Mapping[str, Any], names: Names) -> str | None:
    """A one-line account of a 6 Card Poker table event for the log (None for bookkeeping events)."""
    kind = event.get("type")
    name = who(names, event.get("seat"))
    box = event.get("box")
    if kind == "box_bets_placed":
        bets = [(int(b), int(a), int(n)) for b, a, n in event.get("bets") or []]
        return _("{name} bets {bets}", name=name, bets=bets_text(bets)) if bets \
            else _("{name} takes their bets back", name=name)
    if kind == "bets_closed":
        count = len(event.get("bets") or [])
        if not count:
            return None
        return _("bets closed: 1 box") if count == 1 else _("bets closed: {count} boxes", count=count)
    if kind == "blind_bets_placed":
        placed = event.get("bets") or []
        return _("blind Bets placed: {bets}", bets=", ".join(_("box {box} ({name}) {chips}", box=b, name=who(names, s),
                                                                 chips=a) for b, s, a in placed))
    if kind == "hand_not_dealt":
        return _("no hand: {reason}", reason=not_dealt_reason(event.get("reason"), phrase("nobody placed a bet")))
    if kind == "box_raised":
        return _("{name} raises box {box} (Bet {chips})", name=name, box=box, chips=event.get("amount"))
    if kind == "cards_drawn":
        if event.get("kind") == "buy":
            return _("{name} buys a sixth card for box {box} (fee {fee})", name=name, box=box, fee=event.get("fee"))
        return _("{name} exchanges cards for box {box} (fee {fee})", name=name, box=box, fee=event.get("fee"))
    if kind == "blind_boxes_shown":
        boxes = " ".join(str(b) for b in event.get("boxes") or [])
        if len(event.get("boxes") or []) > 1:
            return _("{name} sees blind boxes {boxes}", name=name, boxes=boxes)
        return _("{name} sees blind box {boxes}", name=name, boxes=boxes)
    if kind == "seat_dead":
        boxes = " ".join(str(b) for b in event.get("boxes") or [])
        return _("{name}'s boxes {boxes} are dead: {reason}; their bets go back", name=name, boxes=boxes,
                 reason=dead_reason(event.get("reason")))
    return _exchange_event(event, names) or house_event(event, names, word="box", qualifying=phrase("a pair or better"))


def boxes_text(boxes: Any) -> str:
    """Boxes as a sentence names them.

    >>> boxes_text([1]), boxes_text([1, 3]), boxes_text([4, 1, 2])
    ('box 1', 'boxes 1 and 3', 'boxes 1, 2 and 4')
    """
    numbers = sorted(int(b) for b in boxes)
    if not numbers:
        return _("no box")
    if len(numbers) == 1:
        return _("box {box}", box=numbers[0])
    return _("boxes {boxes} and {last}", boxes=", ".join(map(str, numbers[:-1])), last=numbers[-1])


def _exchange_event(event: Mapping[str, Any], names: Names) -> str | None:
    kind = event.get("type")
    name = who(names, event.get("seat"))
    if kind == "exchange_opened":
        owners = sorted({who(names, s) for _, s in event.get("boxes") or []})
        return _("dealer exchange: {names} may ask to replace the dealer's highest card, or continue",
                 names=", ".join(owners))
    if kind == "exchange_requested":
        return _("{name} asks for the dealer exchange on box {box}", name=name, box=event.get("box"))
    if kind == "exchange_cancelled":
        return _("{name} no longer asks for the exchange on box {box}", name=name, box=event.get("box"))
    if kind == "exchange_continued":
        boxes = event.get("boxes") or []
        said = _("{name} continues asking for the exchange on {boxes}", name=name, boxes=boxes_text(boxes)) \
            if boxes else _("{name} continues without an exchange", name=name)
        return said + reason_text(event.get("reason"), "continue")
    if kind == "exchange_closed":
        dropped = event.get("dropped") or []
        lapsed = _("; the requests of {boxes} lapsed", boxes=boxes_text(dropped)) if dropped else ""
        return _("the dealer exchange choice is over") + reason_text(event.get("reason"), "continued") + lapsed
    if kind == "dealer_exchanged":
        after = list(event.get("after") or [])
        verdict = _("now qualifies") if event.get("qualifies") else _("still does not qualify")
        return _("the dealer's {card} is replaced by {replacement} for {boxes}: {cards}, {verdict}",
                 card=event.get("discarded"), replacement=event.get("replacement"),
                 boxes=boxes_text(event.get("boxes") or []), cards=" ".join(after), verdict=verdict)
    if kind == "hand_settled":
        house = (event.get("settlement") or {}).get("house")
        return _("hand settled: the players net {net}", net=signed(-int(house))) if isinstance(house, int) \
            else _("hand settled")
    return None


# ------------------------------------------------------------------ results


def result_lines(summary: Mapping[str, Any], names: Names, my_seat: int | None = None, *,
                 symbols: bool = False) -> list[Text]:
    """The showdown: the dealer's hand(s), each box's draw fee, Ante, Bet, bonus and net."""
    unsettled = unsettled_lines(summary, returned=phrase("every bet and fee"), missing=phrase("nobody placed a bet"))
    if unsettled is not None:
        return unsettled
    settlement = summary["settlement"]
    dealer = settlement.get("dealer") or {}
    lines = dealer_lines({"cards": dealer.get("cards") or summary.get("dealer_cards"),
                          "qualifies": dealer.get("qualifies"), "after": dealer.get("after"),
                          "qualifies_after": dealer.get("qualifies_after")}, symbols)
    head = Text(_("Hand #{number}", number=hand_no(summary)) + " · ", style="bold")
    if lines:
        head.append_text(lines[0])
        lines[0] = head
    else:
        lines = [head]
    shown = {int(k): v for k, v in (summary.get("shown") or {}).items()}
    for result in settlement.get("boxes") or []:
        seat = result.get("seat")
        lines.extend(_box_result(result, who(names, seat), seat == my_seat, shown.get(int(result["box"])), symbols))
    return lines


def _box_result(result: Mapping[str, Any], name: str, mine: bool, cards: Sequence[str] | None,
                symbols: bool) -> list[Text]:
    role = str(result.get("role"))
    line = Text("  " + _("box {box}", box=result["box"]) + f" {name[:SHORT_NAME]:<{SHORT_NAME}} {role_label(role):<6}",
                style="bold" if mine else "")
    if result.get("dead"):
        line.append(dead_result(result, _("every bet and fee returned")), style="yellow")
        return [line]
    parts = []
    if result.get("draw_fee"):
        parts.append(_("draw fee {chips}", chips=signed(int(result["draw_fee"]))))
    if role not in ("bonus_only", "bonus"):  # (a bonus-only box has no Ante and no Bet)
        ante = _("ante {chips}", chips=signed(int(result.get("ante", 0))))
        parts.append(_("folded, {ante}", ante=ante) if result.get("folded") else ante)
        if not result.get("folded"):
            parts.append(_("bet {chips}", chips=signed(int(result.get("bet", 0)))))
    if result.get("bonus"):
        parts.append(_("bonus {chips}", chips=signed(int(result["bonus"]))))
    append_net(line, parts, int(result.get("net", 0)))
    if result.get("exchanged"):
        line.append(" (" + _("dealer exchange") + ")", style="dim")
    return [line, shown_line(cards, result.get("class") or class_of(cards), symbols)] if cards else [line]


def role_label(role: str) -> str:
    """A box's role (open, blind, bonus) in the chosen language; an unknown one as it came."""
    return spoken(ROLE_LABELS[role]) if role in ROLE_LABELS else role


def history_bets(summary: Mapping[str, Any], names: Names) -> list[Text]:
    """The bets of a finished hand, one line per box (for ``hcf history``)."""
    draws = {int(d["box"]): d for d in summary.get("draws") or []}
    lines = []
    for b in summary.get("bets") or []:
        decision = str(b.get("decision"))
        what = _("dead") if b.get("dead") else _("raised") if decision == "raise" else _("folded") if (
            decision == "fold") else ""
        draw = draws.get(int(b["box"]))
        extra = " · " + _("{how} (fee {fee})", how=_("bought") if draw["kind"] == "buy" else _("exchanged"),
                          fee=draw["fee"]) if draw else ""
        role = str(b.get("role"))
        lines.append(Text("  " + _("box {box}", box=b["box"]) + f" {who(names, b.get('seat')):<{NAME_WIDTH}} "
                          f"{role_label(role) if role in ROLE_LABELS else ''} "
                          + _("ante {ante} bonus {bonus}", ante=b["ante"], bonus=b["bonus"])
                          + (f" · {what}" if what else "") + extra))
    return lines


def seat_nets(summary: Mapping[str, Any]) -> dict[int, int]:
    """Each seat's net over its boxes in a finished hand."""
    nets: dict[int, int] = {}
    for r in (summary.get("settlement") or {}).get("boxes") or []:
        seat = int(r["seat"])
        nets[seat] = nets.get(seat, 0) + int(r.get("net", 0))
    return nets


def original_cards(entry: Mapping[str, Any]) -> list[str] | None:
    """A box's five dealt cards from its owner's view of it (undoing its draw); None without cards.

    >>> original_cards({"cards": ["Ah", "Qs", "9c", "5d", "Jh"], "draw": {"kind": "exchange", "fee": 10,
    ...                 "discarded": ["Kh", "2s"], "new": ["Qs", "Jh"]}})
    ['Ah', 'Kh', '9c', '5d', '2s']
    """
    cards = list(entry.get("cards") or [])
    if not cards:
        return None
    draw = entry.get("draw") or {}
    if draw.get("kind") == "buy":
        return cards[:HAND_SIZE]
    if draw:
        if "new" not in draw:
            return None
        back = dict(zip(draw.get("new") or [], draw.get("discarded") or [], strict=False))
        return [back.get(c, c) for c in cards]
    return cards
