"""Caribbean Stud on the screen: the table, the dealer, the log lines, the showdown and the history.

Pure: a snapshot, an event or a finished hand in, rich ``Text`` or plain
strings out (cards where this viewer may see them).

>>> describe_event({"type": "spot_played", "seat": 1, "spot": 3, "bet": 20}, {1: "ann"})
'ann plays spot 3 (Back Bet 20)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from client_cli.games.caribbean.choices import bets_text
from client_cli.games.house import (
    Names,
    append_net,
    betting_line,
    class_label,
    dealer_hand_line,
    dealer_up_line,
    decision_text,
    hand_rows,
    house_event,
    meter_text,
    poker_cards_text,
    seat_lines,
    shown_line,
    signed,
    unsettled_lines,
    who,
)
from client_cli.parse import my_seat
from client_cli.reasons import dead_reason, dead_result, not_dealt_reason
from client_cli.render import NAME_WIDTH, hand_no, seat_names
from server.i18n import _, phrase
from server.rules.caribbean.messages import SpotBet


def table_lines(snapshot: Mapping[str, Any], *, symbols: bool = True) -> list[Text]:
    """The seats, the dealer's cards and every spot of the hand (cards where this viewer may see them)."""
    hand = snapshot.get("hand") or {}
    names = seat_names(snapshot)
    rows = hand_rows(hand, "spot")
    lines = seat_lines(snapshot, rows, "spot")
    if not hand or hand.get("phase") in (None, "not_dealt", "void"):
        return lines
    dealer = _dealer_line(hand.get("dealer") or {}, symbols)
    if dealer is not None:
        lines.append(dealer)
    you = my_seat(snapshot)
    turn = hand.get("turn") or {}
    for row in rows:
        lines.append(_spot_line(row, names, you, turn.get("spot"), hand.get("phase"), symbols))
    return lines


def _dealer_line(dealer: Mapping[str, Any], symbols: bool) -> Text | None:
    cards = dealer.get("cards")
    if cards:
        return dealer_hand_line(cards, dealer.get("class"), dealer.get("qualifies"), symbols,
                                missed=phrase(": Antes win 1:1, Back Bets push"))
    return dealer_up_line(dealer, symbols)


def _spot_line(row: Mapping[str, Any], names: Names, you: int | None, turn: Any, phase: Any,
               symbols: bool) -> Text:
    spot, seat = int(row["spot"]), int(row["seat"])
    mine = seat == you
    line = Text(">" if spot == turn else " ", style="bold yellow")
    line.append(_("spot {spot}", spot=spot) + " ")
    line.append(f"{who(names, seat)[:NAME_WIDTH - 4] + ('*' if mine else ''):<{NAME_WIDTH - 3}}",
                style="bold" if mine else "")
    line.append(_("ante {chips}", chips=f"{row.get('ante', 0):>4}") + f"{' +jp' if row.get('jackpot') else '    '}  ")
    if phase == "betting":
        return line.append_text(betting_line(row))
    cards = row.get("cards")
    if cards:
        line.append_text(poker_cards_text(cards, symbols=symbols))
        line.append(f"  {class_label(row.get('class'))}", style="bold" if mine else "")
    else:
        line.append(_("five cards, face down"), style="dim")
    return line.append_text(decision_text(row, spot == turn, _("played ({chips})", chips="{}")))


# ------------------------------------------------------------------ events


def describe_event(event: Mapping[str, Any], names: Names) -> str | None:
    """A one-line account of a Caribbean Stud table event for the log (None for bookkeeping events)."""
    kind = event.get("type")
    name = who(names, event.get("seat"))
    spot = event.get("spot")
    if kind == "betting_opened":
        meter = event.get("meter")
        jackpot = _("jackpot {meter}; ", meter=meter_text(int(meter))) if isinstance(meter, int) else ""
        return _("bets are open ({jackpot}server seed commitment {commitment}…)", jackpot=jackpot,
                 commitment=str(event.get("commitment"))[:12])
    if kind == "spot_bets_placed":
        bets = [SpotBet(int(b["spot"]), int(b["ante"]), bool(b.get("jackpot"))) for b in event.get("bets") or []]
        return _("{name} bets {bets}", name=name, bets=bets_text(bets)) if bets \
            else _("{name} takes their bets back", name=name)
    if kind == "bets_closed":
        count = len(event.get("bets") or [])
        if not count:
            return None
        return _("bets closed: 1 hand") if count == 1 else _("bets closed: {count} hands", count=count)
    if kind == "hand_not_dealt":
        return _("no hand: {reason}", reason=not_dealt_reason(event.get("reason"), phrase("nobody placed an Ante")))
    if kind == "spot_played":
        return _("{name} plays spot {spot} (Back Bet {chips})", name=name, spot=spot, chips=event.get("bet"))
    if kind == "spot_dead":
        return _("spot {spot} ({name}) is dead: {reason}; its bets go back", spot=spot, name=name,
                 reason=dead_reason(event.get("reason")))
    if kind == "hand_settled":
        return _settled_text(event.get("settlement") or {})
    return house_event(event, names, word="spot", qualifying=phrase("A-K or better"))


def _settled_text(settlement: Mapping[str, Any]) -> str:
    awards = [s for s in settlement.get("spots") or [] if s.get("jackpot_award")]
    text = _("hand settled; jackpot now {meter}", meter=meter_text(int(settlement.get("meter", 0))))
    for s in awards:
        text += " · " + _("JACKPOT: spot {spot} wins {chips} ({hand})", spot=s["spot"], chips=s["jackpot_award"],
                          hand=class_label(s.get("class")))
    return text


# ------------------------------------------------------------------ results


def result_lines(summary: Mapping[str, Any], names: Names, my_seat: int | None = None, *,
                 symbols: bool = False) -> list[Text]:
    """The showdown: the dealer's hand, each spot's Ante, Back Bet, jackpot and net, jackpot awards, the meter."""
    unsettled = unsettled_lines(summary, returned=phrase("every bet"), missing=phrase("nobody placed an Ante"))
    if unsettled is not None:
        return unsettled
    settlement = summary["settlement"]
    owners = {int(b["spot"]): int(b["seat"]) for b in summary.get("bets") or []}
    shown = {int(k): v for k, v in (summary.get("shown") or {}).items()}
    head = Text(_("Hand #{number}", number=hand_no(summary)) + " · ", style="bold")
    dealer = _dealer_line({"cards": summary.get("dealer_cards"), "qualifies": summary.get("dealer_qualifies"),
                           "class": (settlement.get("dealer") or {}).get("class")}, symbols)
    if dealer is not None:
        head.append_text(dealer)
    lines = [head]
    awards: list[Text] = []
    for result in settlement.get("spots") or []:
        spot = int(result["spot"])
        seat = owners.get(spot)
        lines.extend(_spot_result(result, who(names, seat), seat == my_seat, shown.get(spot), symbols))
        if result.get("jackpot_award"):
            awards.append(Text("  " + _("JACKPOT! spot {spot} ({name}): {hand} wins {chips} chips", spot=spot,
                                        name=who(names, seat), hand=class_label(result.get("class")),
                                        chips=result["jackpot_award"]), style="bold magenta"))
    lines.extend(awards)
    before, after = summary.get("meter_before"), summary.get("meter_after", settlement.get("meter"))
    if isinstance(before, int) and isinstance(after, int):
        lines.append(Text("  " + _("jackpot meter {before} -> {after}", before=meter_text(before),
                                   after=meter_text(after)), style="dim"))
    return lines


def _spot_result(result: Mapping[str, Any], name: str, mine: bool, cards: Sequence[str] | None,
                 symbols: bool) -> list[Text]:
    line = Text("  " + _("spot {spot}", spot=result["spot"]) + f" {name[:NAME_WIDTH]:<{NAME_WIDTH}} ",
                style="bold" if mine else "")
    if result.get("dead"):
        line.append(dead_result(result, _("every bet returned")), style="yellow")
        return [line]
    ante = _("ante {chips}", chips=signed(int(result.get("ante", 0))))
    parts = [_("folded, {ante}", ante=ante) if result.get("folded") else ante]
    if not result.get("folded"):
        parts.append(_("back bet {chips}", chips=signed(int(result.get("bet", 0)))))
    if result.get("jackpot") or result.get("jackpot_award"):
        parts.append(_("jackpot {chips}", chips=signed(int(result.get("jackpot", 0)))))
    append_net(line, parts, int(result.get("net", 0)))
    return [line, shown_line(cards, result.get("class"), symbols)] if cards else [line]


def history_bets(summary: Mapping[str, Any], names: Names) -> list[Text]:
    """The bets of a finished hand, one line per spot (for ``hcf history``)."""
    lines = []
    for b in summary.get("bets") or []:
        what = _("dead") if b.get("dead") else _("folded ({reason})", reason=b["folded"]) if b.get("folded") \
            else _("played {chips}", chips=b.get("bet", 0))
        lines.append(Text("  " + _("spot {spot}", spot=b["spot"]) + f" {who(names, b.get('seat')):<{NAME_WIDTH}} "
                          + _("ante {chips}", chips=b["ante"]) + (" +" + _("jackpot") if b.get("jackpot") else "")
                          + f" · {what}"))
    return lines


def seat_nets(summary: Mapping[str, Any]) -> dict[int, int]:
    """Each seat's net over its spots in a finished hand."""
    owners = {int(b["spot"]): int(b["seat"]) for b in summary.get("bets") or []}
    nets: dict[int, int] = {}
    for r in (summary.get("settlement") or {}).get("spots") or []:
        seat = owners.get(int(r["spot"]))
        if seat is not None:
            nets[seat] = nets.get(seat, 0) + int(r.get("net", 0))
    return nets
