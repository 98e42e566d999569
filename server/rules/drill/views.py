"""What a dealer sees at each step of a scenario: the offline rehearsal's picture of the table.

A trainee at ``hcf drill`` answers each step of the key from what the dealer would
see at that moment (docs/drills.md): the seats with their stacks and bets, the fee
mode, the button, the DP's hand once it is shown and each hand as it is settled.
This walks the dry run's own states and events (:mod:`server.rules.drill.play`), asks the
engine for each event's steps exactly as the key does (:func:`server.rules.drill.key.event_steps`),
and pairs every step with the state it is asked in; :func:`moments` checks that the
steps it found are the key's, so the picture can never drift from what is judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from server.i18n import Joined, Phrase, joined, spec, told, with_say
from server.rules.cards import Card, format_cards, parse_cards
from server.rules.drill.irregularity import Irregularity, injected
from server.rules.drill.key import READERS, event_steps, irregularity_step
from server.rules.drill.moves import SCRIPTS
from server.rules.drill.play import PlayedHand, key_of
from server.rules.drill.report import Asked
from server.rules.drill.scenario import PLACE, Scenario
from server.rules.drill.steps import KeyStep
from server.rules.games import game_named
from server.rules.hcf import bank_rules

GAME_NAMES: Final = {"hcf": "High Card Flush", "caribbean": "Caribbean Stud", "sixcard": "6 Card Poker"}
BEFORE: Final = frozenset({"offer_bank", "fees", "first_card", "walk_away"})
"""Steps asked before their event happens (the rest are asked once it is seen: a hand shown, a settlement)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player as the dealer sees them: stack as the hand began, what is on the felt, and what they did."""

    seat: int
    name: str
    stack: int
    bets: str = ""
    status: str = ""


@dataclass(frozen=True, slots=True)
class DealerView:
    """The table at the moment a step is asked."""

    hand: int
    table: str
    button: int | None
    seats: tuple[SeatView, ...]
    dealer: str  # whose hand the dealer's cards are: "the DP, seat 2" or "the house"
    dealer_cards: tuple[Card, ...] = ()
    shown: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    note: str = ""


@dataclass(frozen=True, slots=True)
class Moment:
    """One step of the key (its number ``n`` from 1) and the dealer's view when it is asked."""

    n: int
    asked: Asked
    view: DealerView


@dataclass(slots=True)
class Seen:
    """What the dealer has seen so far in a hand, beyond its state."""

    declined: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    dealer_cards: tuple[Card, ...] = ()
    shown: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    note: str = ""


def moments(scenario: Scenario, played: Sequence[PlayedHand]) -> list[Moment]:
    """Every step of the scenario's key, in order, each with the dealer's view when it is asked."""
    button = scenario.button
    out: list[Moment] = []
    for hand in played:
        out += _hand_moments(scenario, hand, button, len(out))
        dp = _dp(hand)
        if dp is not None:
            button = dp
    if [m.asked for m in out] != key_of(played):
        raise AssertionError(f"scenario {scenario.name}: the dealer's views and the key disagree")
    return out


def _dp(hand: PlayedHand) -> int | None:
    accepted = [e.seat for e in hand.events if getattr(e, "type", "") == "bank_accepted"]
    return accepted[-1] if accepted else None


def _hand_moments(scenario: Scenario, hand: PlayedHand, button: int | None, before_count: int) -> list[Moment]:
    game = scenario.game
    evolve = game_named(game).evolve
    seen = Seen()
    state = hand.initial
    out: list[Moment] = []
    spec = scenario.hands[hand.number - 1]
    names = {s.seat: s.name for s in scenario.seats}
    for event in hand.events:
        after = evolve(state, event)
        asked = event_questions(game, state, event, after, seen, Where(hand.number, button, names, scenario.chips))
        for step, view in asked:
            if step.step in scenario.steps:
                out.append(Moment(before_count + len(out) + 1, Asked(hand.number, step), view))
        if getattr(event, "type", "") == "bank_accepted":
            button = event.seat
        if spec.irregularity is not None and READERS[game].dealt(event):  # right after the deal, as the key has it
            note = injected(spec.irregularity, hand.deck, SCRIPTS[game].cards_dealt(after), PLACE[game])["message"]
            step, view = irregularity_question(game, after, spec.irregularity, note, seen,
                                               Where(hand.number, button, names, scenario.chips))
            if step.step in scenario.steps:
                out.append(Moment(before_count + len(out) + 1, Asked(hand.number, step), view))
        state = after
    return out


@dataclass(frozen=True, slots=True)
class Where:
    """Which hand a view is of, who holds the button, each seat's player's name, and the chips in play (the
    table's ``chips``: the payouts are asked in the fewest of them, and the table line names them)."""

    hand: int
    button: int | None
    names: Mapping[int, str]
    chips: tuple[int, ...] = ()


def event_questions(game: str, before: Any, event: Any, after: Any, seen: Seen,
                    where: Where) -> list[tuple[KeyStep, DealerView]]:
    """The steps one event of a hand brings, each with the dealer's view when it is asked.

    Updates ``seen`` with what the event shows the dealer. A step of :data:`BEFORE` is
    asked on the table as it stood before the event; the others once the event is seen
    (a settlement on the felt as it stood, every bet still there, with the hands it shows; its payouts too,
    with the fewest of the chips in play).
    """
    steps = event_steps(game, before, event, after, where.chips)
    kind = getattr(event, "type", "")
    out = [(s, dealer_view(game, before, seen, where)) for s in steps if s.step in BEFORE]
    see(seen, event, kind)
    at = before if kind == "hand_settled" else after
    out += [(s, dealer_view(game, at, seen, where)) for s in steps
            if s.step not in BEFORE and s.step != "qualify_after"]
    if kind == "dealer_exchanged":
        seen.dealer_cards = tuple(event.after)
        out += [(s, dealer_view(game, after, seen, where)) for s in steps if s.step == "qualify_after"]
    return out


def irregularity_question(game: str, state: Any, irregularity: Irregularity, note: str, seen: Seen,
                          where: Where) -> tuple[KeyStep, DealerView]:
    """The ruling step of an irregularity injected into ``state``, with the dealer's view and the table's notice."""
    seen.note = note
    try:
        return irregularity_step(game, state, irregularity), dealer_view(game, state, seen, where)
    finally:
        seen.note = ""


def see(seen: Seen, event: Any, kind: str) -> None:
    """Note what ``event`` (of type ``kind``) shows the dealer beyond the state: declines, folds, shown hands."""
    if kind == "bank_declined":
        seen.declined.add(event.seat)
    elif kind == "player_folded":
        seen.folded.add(event.seat)
    elif kind == "dealer_revealed":
        seen.dealer_cards = tuple(event.cards)
    elif kind == "hand_settled":
        seen.shown = tuple((place, tuple(cards)) for place, cards in event.shown if place)


def dealer_view(game: str, state: Any, seen: Seen, where: Where) -> DealerView:
    """The table as the dealer sees it in ``state``: the seats, the felt, the hands shown so far."""
    shown = tuple((_place(PLACE[game], place), cards) for place, cards in seen.shown)
    seats = tuple(SeatView(p.seat, where.names.get(p.seat, f"seat {p.seat}"), p.stack,
                           *_seat_line(game, state, p, seen)) for p in state.players)
    dealer_cards = seen.dealer_cards or _dealer_cards(game, state)
    table = [_table_line(game, state.settings)]
    if where.chips:
        table.append(told("chips in play {chips}", chips=", ".join(map(str, where.chips))))
    return DealerView(where.hand, joined(table, "; "), where.button if game == "hcf" else None,
                      seats, _dealer_name(game, state), dealer_cards, shown, seen.note)


def _place(kind: str, n: int) -> str:
    """A seat, spot or box by its number, in words (a client says it in its language)."""
    if kind == "spot":
        return told("spot {spot}", spot=n)
    return told("box {box}", box=n) if kind == "box" else told("seat {seat}", seat=n)


def view_json(view: DealerView) -> dict[str, Any]:
    """A dealer's view as JSON (a live drill sends it to the trainee), cards as text.

    >>> from server.rules.cards import parse_cards
    >>> v = DealerView(1, "t", 2, (SeatView(1, "ann", 100),), "the DP, seat 2", parse_cards("Ah Kd"))
    >>> view_from_json(view_json(v)) == v
    True
    """
    made = with_say({"hand": view.hand, "table": view.table, "button": view.button, "dealer": view.dealer,
                     "seats": [with_say({"seat": s.seat, "name": s.name, "stack": s.stack, "bets": s.bets,
                                         "status": s.status}) for s in view.seats],
                     "dealer_cards": format_cards(view.dealer_cards).split(),
                     "shown": [[place, format_cards(cards).split()] for place, cards in view.shown],
                     "note": view.note})
    if any(isinstance(place, Phrase) for place, _cards in view.shown):  # each shown hand's place, as a spec
        made.setdefault("say", {})["shown"] = [spec(place) for place, _cards in view.shown]
    return made


def view_from_json(data: Mapping[str, Any]) -> DealerView:
    """The dealer's view a live drill sent (raises KeyError, TypeError or ValueError on a malformed one); its
    sentences are phrases again where it sent their specs (``say``), so a client says them in its language."""
    places = _said(data).get("shown")
    places = places if isinstance(places, list) else []
    return DealerView(int(data["hand"]), _text(data, "table"), data["button"],
                      tuple(SeatView(int(s["seat"]), str(s["name"]), int(s["stack"]), _text(s, "bets"),
                                     _text(s, "status")) for s in data["seats"]),
                      _text(data, "dealer"), parse_cards(" ".join(data["dealer_cards"])),
                      tuple((_unspec(places[i], str(place)) if i < len(places) else str(place),
                             parse_cards(" ".join(cards))) for i, (place, cards) in enumerate(data["shown"])),
                      _text(data, "note"))


def _said(record: Mapping[str, Any]) -> Mapping[str, Any]:
    say = record.get("say")
    return say if isinstance(say, Mapping) else {}


def _text(record: Mapping[str, Any], field: str) -> str:
    """A field of a record as the phrase its spec says (its English text where it has none)."""
    return _unspec(_said(record).get(field), str(record[field]))


def _unspec(said: object, text: str) -> str:
    """The phrase a spec (:func:`server.i18n.spec`) describes; ``text`` when it describes none or is malformed.

    >>> _unspec(spec(told("seat {n}", n=3)), "seat 3").msgid
    'seat {n}'
    """
    try:
        made = _from_spec(said)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        return text
    return made if isinstance(made, str) and made == text else text


def _from_spec(said: object) -> object:
    if isinstance(said, Mapping) and isinstance(said.get("join"), list):
        parts = [_from_spec(part) for part in said["join"]]
        return Joined([part if isinstance(part, str) else str(part) for part in parts], str(said.get("sep", ", ")))
    if isinstance(said, Mapping) and isinstance(said.get("id"), str):
        args = said.get("args") or {}
        return Phrase(said["id"], {name: _from_spec(value) for name, value in args.items()})
    return said


def _dealer_cards(game: str, state: Any) -> tuple[Card, ...]:
    """The dealer's cards once shown (the dry run's state holds them before; the dealer does not see them)."""
    if game == "caribbean" and state.dealer_qualifies is not None:
        return tuple(state.dealer)
    if game == "sixcard" and state.revealed:
        return tuple(state.dealer_after or state.dealer_cards)
    return ()


def _dealer_name(game: str, state: Any) -> str:
    if game != "hcf" or state.settings.house_banked:
        return told("the house")
    return told("no DP yet") if state.dealer is None else told("the DP, seat {seat}", seat=state.dealer)


def _table_line(game: str, settings: Any) -> str:
    if game != "hcf":
        return told("{game}: the house deals and banks", game=GAME_NAMES[game])
    fee = told("no fee") if settings.fee_mode == "none" else \
        told("fee mode {mode}, fee {fee}", mode=settings.fee_mode, fee=settings.fee)  # the mode as it is typed
    if settings.house_banked:
        return told("High Card Flush, the house banks; {fee}", fee=fee)
    if settings.fee_schedule is not None and settings.fee_mode != "none":  # the posted tiers replace the flat fee
        fee = told("fee mode {mode}, posted fees: {fees}", mode=settings.fee_mode,
                   fees=joined(bank_rules.fee_sentences(settings), "; "))
    rules = bank_rules.rule_sentences(settings)  # section 9's house rules
    return joined([told("High Card Flush, California: {fee}; min bank {low}", fee=fee, low=settings.min_bank),
                   *rules], "; ")


def _seat_line(game: str, state: Any, player: Any, seen: Seen) -> tuple[str, str]:
    if game == "hcf":
        return _hcf_seat(state, player, seen)
    if game == "caribbean":
        return _caribbean_seat(state, player.seat)
    return _sixcard_seat(state, player.seat)


def _listed(parts: Sequence[str], sep: str = ", ") -> str:
    """Parts said one after the other (nothing when there are none)."""
    return joined(parts, sep) if parts else ""


def _chips(pairs: Sequence[tuple[str, int]]) -> list[str]:
    """Each bet on the felt with its chips (a bet of none is not named)."""
    words = {"ante": lambda n: told("ante {amount}", amount=n),
             "straight flush bonus": lambda n: told("straight flush bonus {amount}", amount=n),
             "flush bonus": lambda n: told("flush bonus {amount}", amount=n),
             "raise": lambda n: told("raise {amount}", amount=n), "fee": lambda n: told("fee {amount}", amount=n),
             "bet": lambda n: told("bet {amount}", amount=n), "bonus": lambda n: told("bonus {amount}", amount=n)}
    return [words[name](amount) for name, amount in pairs if amount]


def _hcf_seat(state: Any, player: Any, seen: Seen) -> tuple[str, str]:
    seat = player.seat
    bets = state.bets.get(seat)
    felt = [] if bets is None else [("ante", bets.ante), ("straight flush bonus", bets.straight_flush_bonus),
                                    ("flush bonus", bets.flush_bonus)]
    felt += [("raise", state.raises.get(seat, 0)), ("fee", state.fees.get(seat, 0))]
    status = []
    if seat == state.dealer:
        status.append(told("DP"))
    if seat in seen.declined:
        status.append(told("declined the bank"))
    if state.phase == "offer" and not player.willing_to_bank:
        status.append(told("banking switch off"))
    if seat in state.leaving:
        status.append(told("has left the table"))
    if seat == state.turn:
        status.append(told("to act"))
    if seat in seen.folded:
        status.append(told("folded"))
    if seat in state.dead:
        reason = state.dead_reasons.get(seat)
        status.append(told("dead (floor)") if reason == "floor" else told("dead (card count)")
                      if reason == "card_count" else told("dead"))
    if state.phase == "betting" and seat in state.passed:
        status.append(told("sits out"))
    return _listed(_chips(felt)), _listed(status)


def _caribbean_seat(state: Any, seat: int) -> tuple[str, str]:
    spots = []
    for bet in state.bets:
        if bet.seat != seat:
            continue
        what = _chips([("ante", bet.ante), ("bet", state.played.get(bet.spot, 0))])
        if bet.jackpot:
            what.append(told("jackpot wager"))
        if bet.spot in state.folded:
            what.append(told("folded"))
        if bet.spot in state.dead:
            what.append(told("dead"))
        spots.append(told("spot {spot}: {what}", spot=bet.spot, what=_listed(what)))
    return _listed(spots, "; "), ""


def _sixcard_seat(state: Any, seat: int) -> tuple[str, str]:
    boxes = []
    for box in state.boxes:
        if box.seat != seat:
            continue
        what = _chips([("ante", box.ante), ("bonus", box.bonus)])
        if box.box in state.draws:
            what.append(told("drew"))
        decision = state.decisions.get(box.box)
        if decision:
            what.append(told("raised") if decision == "raise" else told("folded") if decision == "fold"
                        else decision)
        if box.box in state.confirmed_requests:
            what.append(told("asks for the dealer exchange"))
        if box.box in state.dead:
            what.append(told("dead"))
        boxes.append(told("box {box}: {what}", box=box.box, what=_listed(what)))
    return _listed(boxes, "; "), ""


