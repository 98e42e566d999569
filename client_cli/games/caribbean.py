"""Caribbean Stud in the terminal client: legal choices, typed lines -> moves, the view, and the bots' choices.

Pure. :func:`legal_choices` reads what this player may do now from a snapshot
(``hand`` is the game's hand view, docs/games/caribbean.md); :func:`parse_line`
turns a line into a :class:`~client_cli.games.house.Move` or explains why not,
so invalid input is never sent.

>>> snap = {"game": "caribbean", "you": {"seat": 2}, "seats": [{"seat": 2, "name": "bo", "stack": 200}],
...         "settings": {"spots": 7, "max_hands": 3, "min_ante": 5, "max_ante": 500, "jackpot": True,
...                      "jackpot_wager": 1},
...         "hand": {"phase": "betting", "bets": [], "spots": [], "turn": None}}
>>> choices = legal_choices(snap)
>>> choices.kind, choices.free[:3], choices.top_ante
('bets', (1, 2, 3), 66)
>>> parse_line("bet 1:10j 3:20", choices).args
{'bets': [{'spot': 1, 'ante': 10, 'jackpot': True}, {'spot': 3, 'ante': 20, 'jackpot': False}]}
>>> parse_line("bet 10j", choices).args
{'bets': [{'spot': 1, 'ante': 10, 'jackpot': True}]}
>>> parse_line("bet 1:60 2:10", choices).message
'your stack of 200 must cover 3x each Ante (Ante and Back Bet) plus the jackpot wagers: 210 chips'
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from rich.text import Text

from client_cli.games.house import (
    Move,
    Names,
    assign_places,
    class_label,
    hand_active,
    meter_text,
    poker_cards_text,
    reason_text,
    seat_lines,
    signed,
    table_command,
    who,
)
from client_cli.parse import Help, InputError, Leave, SitOut, TopUp, my_seat, my_stack
from client_cli.render import NAME_WIDTH, seat_names
from client_cli.render import describe_event as table_event_text
from server.rules.cards import parse_cards
from server.rules.caribbean.messages import SpotBet
from server.rules.caribbean.strategy import STRATEGIES
from server.rules.poker import class_name, rank5

GAME: Final = "caribbean"
PLAY_MULTIPLE: Final = 3
"""A stack covers each Ante three times (Ante and the Back Bet of 2x), so a Play is never refused."""

ChoiceKind = Literal["bets", "decision"]
Command = Move | Help | Leave | SitOut | TopUp


@dataclass(frozen=True, slots=True)
class Choices:
    """What the player may do now at a Caribbean Stud table, with the limits that apply."""

    kind: ChoiceKind | None = None
    stack: int = 0
    seated: bool = False
    between_hands: bool = True
    spots: int = 0
    free: tuple[int, ...] = ()
    """Spots this player may bet on: free ones and their own."""
    taken: tuple[tuple[int, str], ...] = ()
    """Spots other players hold, with their names."""
    max_hands: int = 1
    min_ante: int = 0
    max_ante: int = 0
    wager: int = 0
    """The jackpot wager in chips (0: this table offers none)."""
    placed: tuple[SpotBet, ...] = ()
    confirmed: bool = False
    spot: int = 0
    ante: int = 0
    cards: tuple[str, ...] = ()
    cls: str = ""

    @property
    def top_ante(self) -> int:
        """The largest Ante of one spot that the table and the stack allow."""
        return min(self.max_ante, (self.stack - self.wager) // PLAY_MULTIPLE)


def idle(choices: Choices) -> Choices:
    """The same player with nothing asked (leaving)."""
    return Choices(stack=choices.stack, seated=choices.seated, between_hands=choices.between_hands)


# ------------------------------------------------------------------ choices


def legal_choices(snapshot: Mapping[str, Any]) -> Choices:
    """What this client may do now, read from a snapshot."""
    seat = my_seat(snapshot)
    hand = snapshot.get("hand") or {}
    phase = hand.get("phase")
    stack = my_stack(snapshot)
    base = Choices(stack=stack, seated=seat is not None, between_hands=not hand_active(snapshot))
    if seat is None or base.between_hands:
        return base
    if phase == "betting" and _bettor(hand, seat):
        return _bet_choices(base, snapshot, seat)
    turn = hand.get("turn") or {}
    if phase == "decisions" and turn.get("seat") == seat:
        spot = int(turn["spot"])
        entry: Mapping[str, Any] = next((s for s in hand.get("spots") or [] if s.get("spot") == spot), {})
        return replace(base, kind="decision", spot=spot, ante=int(entry.get("ante", 0)),
                       cards=tuple(entry.get("cards") or ()), cls=str(entry.get("class", "")))
    return base


def _bettor(hand: Mapping[str, Any], seat: int) -> bool:
    # "seats" (who takes part in this hand) comes from the hand's betting_opened when the client saw it.
    seats = hand.get("seats")
    return (seats is None or seat in seats) and seat not in (hand.get("leaving") or [])


def _bet_choices(base: Choices, snapshot: Mapping[str, Any], seat: int) -> Choices:
    settings = snapshot.get("settings") or {}
    names = seat_names(snapshot)
    bets = (snapshot.get("hand") or {}).get("bets") or []
    spots = int(settings.get("spots", 1))
    taken = tuple((int(b["spot"]), names.get(int(b["seat"]), f"seat {b['seat']}"))
                  for b in bets if b.get("seat") != seat)
    held = {spot for spot, _ in taken}
    mine = tuple(SpotBet(int(b["spot"]), int(b["ante"]), bool(b.get("jackpot"))) for b in bets if b.get("seat") == seat)
    wager = int(settings.get("jackpot_wager", 0)) if settings.get("jackpot") else 0
    return replace(base, kind="bets", spots=spots, free=tuple(s for s in range(1, spots + 1) if s not in held),
                   taken=taken, max_hands=int(settings.get("max_hands", 1)),
                   min_ante=int(settings.get("min_ante", 1)),
                   max_ante=int(settings.get("max_ante", 1)),
                   wager=wager, placed=mine,
                   confirmed=any(b.get("confirmed") for b in bets if b.get("seat") == seat))


def bets_text(bets: Sequence[SpotBet]) -> str:
    """``spot 1 ante 10 +jackpot, spot 3 ante 5``."""
    return ", ".join(f"spot {b.spot} ante {b.ante}" + (" +jackpot" if b.jackpot else "") for b in bets)


def short_bets(bets: Sequence[SpotBet]) -> str:
    """Bets as they are typed: ``1:10j 3:5``."""
    return " ".join(f"{b.spot}:{b.ante}{'j' if b.jackpot else ''}" for b in bets)


def spots_text(spots: Sequence[int], last: int) -> str:
    """``1-7`` when every spot is listed, else ``1 2 5``."""
    return f"1-{last}" if list(spots) == list(range(1, last + 1)) and last > 1 else " ".join(map(str, spots))


def choices_text(choices: Choices) -> str | None:
    """One line that says exactly what may be typed now (None when nothing is asked).

    >>> choices_text(Choices(kind="decision", spot=3, ante=10, cls="pair"))
    'Your turn on spot 3 (pair): play (p) = Back Bet 20, or fold (f) = lose the Ante 10'
    """
    c = choices
    if c.kind == "bets":
        if c.confirmed:
            return f"Your bets {short_bets(c.placed)} are confirmed: waiting for the others (clear (c) takes them back)"
        if c.placed:
            return f"Your bets {short_bets(c.placed)}: deal (d) to confirm them, clear (c), or bet again"
        if c.top_ante < c.min_ante:
            return f"Bets are open, but your stack of {c.stack} cannot cover 3x the smallest Ante ({c.min_ante})"
        jackpot = f", j = jackpot {c.wager}" if c.wager else ""
        return (f"Bets are open: bet SPOT:ANTE[j], up to {c.max_hands} of spots {spots_text(c.free, c.spots)}, "
                f"Ante {c.min_ante}-{c.top_ante}{jackpot}; or rebet")
    if c.kind == "decision":
        return (f"Your turn on spot {c.spot} ({class_label(c.cls)}): play (p) = Back Bet {2 * c.ante}, "
                f"or fold (f) = lose the Ante {c.ante}")
    return None


HELP = """\
Commands at a Caribbean Stud table (type them and press Enter):
  bet SPOT:ANTE[j] ...  bet on spots (up to the table's max_hands); j adds the jackpot wager;
                        e.g. 'bet 1:10j 2:10'; 'bet 10j' bets on your spot or the first free one.
                        A new 'bet' replaces your bets of this hand until you deal.
  deal (d)              confirm your bets (betting closes when everyone who bet has dealt)
  rebet                 place your bets of your last hand again, on the same spots
  clear (c)             take all your bets back (confirmed ones too, while bets are open)
  play (p)              at your turn: place the Back Bet (2x the Ante) on the spot in turn
  fold (f)              at your turn: fold the spot in turn (its Ante is lost)
  sitout / back         sit out of the coming hands, or come back
  topup N               bring N more chips from your account (between hands)
  leave (or Ctrl-C)     stand up now, or after the current hand, and quit
  help (?)              this help
Your stack must cover 3x each Ante (Ante and Back Bet) plus the jackpot wagers."""


# ------------------------------------------------------------------ parsing


_WORDS: Final = {
    "bet": "bet", "b": "bet", "ante": "bet",
    "deal": "deal", "d": "deal", "confirm": "deal",
    "rebet": "rebet", "re-bet": "rebet", "again": "rebet",
    "clear": "clear", "c": "clear",
    "play": "play", "p": "play", "call": "play",
    "fold": "fold", "f": "fold",
}
_AMOUNT: Final = re.compile(r"^(\d+)(\+?j|\+?jp|\+?jackpot)?$")


def parse_line(line: str, choices: Choices) -> Command | InputError:
    """One typed line -> a legal move, or why not (see :data:`HELP`)."""
    words = line.strip().lower().split()
    if not words:
        return InputError(choices_text(choices) or "type 'help' for the commands")
    if choices.kind == "bets" and (words[0][:1].isdigit()):
        words = ["bet", *words]
    common = table_command(words, choices)
    if common is not None:
        return common
    verb = _WORDS.get(words[0])
    if verb is None:
        return InputError(f"unknown command {words[0]!r}: type 'help' for the commands")
    if verb in ("play", "fold"):
        return _decision(verb, words[1:], choices)
    if choices.kind != "bets":
        return InputError("bets are not open for you now")
    if verb == "bet":
        return _bets(words[1:], choices)
    if verb == "clear":
        return Move("clear") if choices.placed else InputError("you have no bets to clear")
    if choices.confirmed:
        return InputError("your bets are confirmed: waiting for the others (clear (c) takes them back)")
    if verb == "rebet":
        return Move("rebet")
    if not choices.placed:
        return InputError("place a bet first: bet SPOT:ANTE, e.g. 'bet 1:10j'")
    return Move("deal")


def _decision(verb: str, args: list[str], choices: Choices) -> Move | InputError:
    if choices.kind != "decision":
        return InputError(f"it is not your turn to {verb}")
    if args and args != [str(choices.spot)]:
        return InputError(f"spot {choices.spot} is in turn: say '{verb}' (or '{verb} {choices.spot}')")
    return Move(verb, {"spot": choices.spot})


def _bets(args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    if c.confirmed:
        return InputError("your bets are confirmed: clear (c) first to change them")
    usage = InputError("say 'bet SPOT:ANTE[j] ...', e.g. 'bet 1:10j 2:10' (j: the jackpot wager), or 'bet 10j'")
    named: list[int | None] = []
    amounts: list[tuple[int, bool]] = []
    for token in args:
        place, _, rest = token.rpartition(":")
        match = _AMOUNT.match(rest)
        if match is None or (place and not place.isdigit()):
            return usage
        named.append(int(place) if place else None)
        amounts.append((int(match.group(1)), match.group(2) is not None))
    if not amounts:
        return usage
    spots = assign_places(named, mine=[b.spot for b in c.placed], free=c.free, taken=dict(c.taken), last=c.spots,
                          word="spot")
    if isinstance(spots, str):
        return InputError(spots)
    bets = [SpotBet(spot, ante, jackpot) for spot, (ante, jackpot) in zip(spots, amounts, strict=True)]
    problem = _bets_problem(bets, c)
    if problem is not None:
        return InputError(problem)
    return Move("bet", {"bets": [{"spot": b.spot, "ante": b.ante, "jackpot": b.jackpot} for b in bets]})


def _bets_problem(bets: Sequence[SpotBet], c: Choices) -> str | None:
    if len(bets) > c.max_hands:
        return f"you may bet on at most {c.max_hands} spots, got {len(bets)}"
    for b in bets:
        if b.jackpot and not c.wager:
            return "this table offers no jackpot wager"
        if not c.min_ante <= b.ante <= c.max_ante:
            return f"spot {b.spot}: the Ante is {c.min_ante} to {c.max_ante} chips, got {b.ante}"
    needed = sum(PLAY_MULTIPLE * b.ante + (c.wager if b.jackpot else 0) for b in bets)
    if needed > c.stack:
        return (f"your stack of {c.stack} must cover 3x each Ante (Ante and Back Bet) plus the jackpot wagers: "
                f"{needed} chips")
    return None


# ------------------------------------------------------------------ the view


def table_lines(snapshot: Mapping[str, Any], *, symbols: bool = True) -> list[Text]:
    """The seats, the dealer's cards and every spot of the hand (cards where this viewer may see them)."""
    hand = snapshot.get("hand") or {}
    names = seat_names(snapshot)
    rows = _spot_rows(hand)
    places: dict[int, list[int]] = {}
    for row in rows:
        places.setdefault(int(row["seat"]), []).append(int(row["spot"]))
    lines = seat_lines(snapshot, places, "spot")
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


def _spot_rows(hand: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    # While betting the placed bets are all there is; once dealt, the spots carry cards and decisions.
    if hand.get("phase") == "betting" or not hand.get("spots"):
        return list(hand.get("bets") or [])
    return list(hand.get("spots") or [])


def _dealer_line(dealer: Mapping[str, Any], symbols: bool) -> Text | None:
    cards = dealer.get("cards")
    if cards:
        line = Text("Dealer: ", style="bold")
        line.append_text(poker_cards_text(cards, symbols=symbols))
        line.append(f"  {class_label(dealer.get('class'))}")
        qualifies = dealer.get("qualifies")
        line.append(" · qualifies" if qualifies else " · does NOT qualify: Antes win 1:1, Back Bets push",
                    style="green" if qualifies else "yellow")
        return line
    up = dealer.get("up")
    if not up:
        return None
    line = Text("Dealer: ", style="bold")
    line.append_text(poker_cards_text([up], symbols=symbols))
    line.append(" up, four cards down", style="dim")
    return line


def _spot_line(row: Mapping[str, Any], names: Names, you: int | None, turn: Any, phase: Any,
               symbols: bool) -> Text:
    spot, seat = int(row["spot"]), int(row["seat"])
    mine = seat == you
    line = Text(">" if spot == turn else " ", style="bold yellow")
    line.append(f"spot {spot} ")
    line.append(f"{who(names, seat)[:NAME_WIDTH - 4] + ('*' if mine else ''):<{NAME_WIDTH - 3}}",
                style="bold" if mine else "")
    line.append(f"ante {row.get('ante', 0):>4}{' +jp' if row.get('jackpot') else '    '}  ")
    if phase == "betting":
        line.append("confirmed" if row.get("confirmed") else "not confirmed yet", style="dim")
        return line
    cards = row.get("cards")
    if cards:
        line.append_text(poker_cards_text(cards, symbols=symbols))
        line.append(f"  {class_label(row.get('class'))}", style="bold" if mine else "")
    else:
        line.append("five cards, face down", style="dim")
    if row.get("dead"):
        line.append(" · dead", style="red")
    elif row.get("folded"):
        line.append(" · folded", style="dim")
    elif row.get("bet"):
        line.append(f" · played ({row['bet']})", style="bold")
    elif spot == turn:
        line.append(" · to act", style="yellow")
    return line


# ------------------------------------------------------------------ events


def describe_event(event: Mapping[str, Any], names: Names) -> str | None:
    """A one-line account of a Caribbean Stud table event for the log (None for bookkeeping events)."""
    kind = event.get("type")
    name = who(names, event.get("seat"))
    spot = event.get("spot")
    if kind == "betting_opened":
        meter = event.get("meter")
        jackpot = f"jackpot {meter_text(int(meter))}; " if isinstance(meter, int) else ""
        return f"bets are open ({jackpot}server seed commitment {str(event.get('commitment'))[:12]}…)"
    if kind == "spot_bets_placed":
        bets = [SpotBet(int(b["spot"]), int(b["ante"]), bool(b.get("jackpot"))) for b in event.get("bets") or []]
        return f"{name} bets {bets_text(bets)}" if bets else f"{name} takes their bets back"
    if kind == "bets_confirmed":
        return f"{name} deals (bets confirmed)"
    if kind == "bets_cleared":
        return {"clear": f"{name} clears their bets", "clock": f"{name}'s unconfirmed bets go back (the clock ran out)",
                "left": f"{name}'s bets go back (leaving)"}.get(str(event.get("reason")), f"{name}'s bets go back")
    if kind == "bets_closed":
        count = len(event.get("bets") or [])
        return f"bets closed: {count} hand{'s' if count != 1 else ''}" if count else None
    if kind == "hand_not_dealt":
        return "no hand: nobody placed an Ante" if event.get("reason") == "no_ante" else "no hand this time"
    if kind == "deck_prepared":
        return None
    if kind == "cards_dealt":
        count = len(event.get("counts") or {})
        return f"cards dealt to {count} spot{'s' if count != 1 else ''}; the dealer shows {event.get('dealer_up')}"
    if kind == "turn_started":
        return f"{name} to act on spot {spot}"
    if kind == "spot_played":
        return f"{name} plays spot {spot} (Back Bet {event.get('bet')})"
    if kind == "spot_folded":
        return f"{name} folds spot {spot}" + reason_text(event.get("reason"), "fold")
    if kind == "spot_dead":
        return f"spot {spot} ({name}) is dead" + reason_text(event.get("reason"), "")
    if kind == "dealer_revealed":
        cards = list(event.get("cards") or [])
        value = class_label(_class_of(cards))
        verdict = "qualifies (A-K or better)" if event.get("qualifies") else "does NOT qualify"
        return f"the dealer shows {' '.join(cards)}: {value}, {verdict}"
    if kind == "hand_settled":
        return _settled_text(event.get("settlement") or {})
    return table_event_text(event, names)


def _class_of(cards: Sequence[str]) -> str:
    try:
        return class_name(rank5(parse_cards(list(cards))))
    except (ValueError, KeyError):
        return ""


def _settled_text(settlement: Mapping[str, Any]) -> str:
    awards = [s for s in settlement.get("spots") or [] if s.get("jackpot_award")]
    text = f"hand settled; jackpot now {meter_text(int(settlement.get('meter', 0)))}"
    for s in awards:
        text += f" · JACKPOT: spot {s['spot']} wins {s['jackpot_award']} ({class_label(s.get('class'))})"
    return text


# ------------------------------------------------------------------ results


def result_lines(summary: Mapping[str, Any], names: Names, my_seat: int | None = None, *,
                 symbols: bool = False) -> list[Text]:
    """The showdown: the dealer's hand, each spot's Ante, Back Bet, jackpot and net, jackpot awards, the meter."""
    hand_id = summary.get("hand_id")
    if summary.get("status") == "void":
        return [Text(f"Hand #{hand_id} was voided ({summary.get('reason')}): every bet went back", style="yellow")]
    settlement = summary.get("settlement")
    if not settlement:
        return [Text(f"Hand #{hand_id}: not dealt ({summary.get('reason') or 'no Ante'})", style="dim")]
    owners = {int(b["spot"]): int(b["seat"]) for b in summary.get("bets") or []}
    shown = {int(k): v for k, v in (summary.get("shown") or {}).items()}
    head = Text(f"Hand #{hand_id} · ", style="bold")
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
            awards.append(Text(f"  JACKPOT! spot {spot} ({who(names, seat)}): {class_label(result.get('class'))} "
                               f"wins {result['jackpot_award']} chips", style="bold magenta"))
    lines.extend(awards)
    before, after = summary.get("meter_before"), summary.get("meter_after", settlement.get("meter"))
    if isinstance(before, int) and isinstance(after, int):
        lines.append(Text(f"  jackpot meter {meter_text(before)} -> {meter_text(after)}", style="dim"))
    return lines


def _spot_result(result: Mapping[str, Any], name: str, mine: bool, cards: Sequence[str] | None,
                 symbols: bool) -> list[Text]:
    line = Text(f"  spot {result['spot']} {name[:NAME_WIDTH]:<{NAME_WIDTH}} ", style="bold" if mine else "")
    if result.get("dead"):
        line.append("dead hand: every bet returned", style="yellow")
        return [line]
    parts = [f"{'folded, ' if result.get('folded') else ''}ante {signed(int(result.get('ante', 0)))}"]
    if not result.get("folded"):
        parts.append(f"back bet {signed(int(result.get('bet', 0)))}")
    if result.get("jackpot") or result.get("jackpot_award"):
        parts.append(f"jackpot {signed(int(result.get('jackpot', 0)))}")
    net = int(result.get("net", 0))
    line.append(" ".join(parts) + " = ")
    line.append(f"net {signed(net)}", style="green" if net > 0 else "red" if net < 0 else "")
    lines = [line]
    if cards:
        sub = Text("         ")
        sub.append_text(poker_cards_text(cards, symbols=symbols))
        sub.append(f"  {class_label(result.get('class'))}", style="dim")
        lines.append(sub)
    return lines


def history_bets(summary: Mapping[str, Any], names: Names) -> list[Text]:
    """The bets of a finished hand, one line per spot (for ``hcf history``)."""
    lines = []
    for b in summary.get("bets") or []:
        what = "dead" if b.get("dead") else f"folded ({b['folded']})" if b.get("folded") \
            else f"played {b.get('bet', 0)}"
        lines.append(Text(f"  spot {b['spot']} {who(names, b.get('seat')):<{NAME_WIDTH}} ante {b['ante']}"
                          + (" +jackpot" if b.get("jackpot") else "") + f" · {what}"))
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


# ------------------------------------------------------------------ bots


def choose_bets(strategy: str, choices: Choices, rng: random.Random, ante: int | None = None,
                prefer: int | None = None) -> list[SpotBet] | None:
    """The bets a bot places (None: none this hand), always within the limits and the stack.

    ``basic``: one spot (``prefer`` if free, else the first free), the Ante ``ante`` or
    the table's smallest, the jackpot wager on. ``random``: 1 to ``max_hands`` random
    free spots with random Antes and random jackpot wagers.

    >>> c = Choices(kind="bets", stack=1000, spots=7, free=(1, 2, 3), max_hands=3, min_ante=5, max_ante=500,
    ...             wager=1)
    >>> choose_bets("basic", c, random.Random(1), prefer=2)
    [SpotBet(spot=2, ante=5, jackpot=True)]
    """
    if strategy == "stubborn" or choices.kind != "bets" or not choices.free or choices.top_ante < choices.min_ante:
        return None
    if strategy == "basic":
        spot = prefer if prefer in choices.free else choices.free[0]
        chosen = min(max(ante or choices.min_ante, choices.min_ante), choices.top_ante)
        jackpot = choices.wager > 0 and PLAY_MULTIPLE * chosen + choices.wager <= choices.stack
        return [SpotBet(spot, chosen, jackpot)]
    count = rng.randint(1, min(choices.max_hands, len(choices.free)))
    spots = sorted(rng.sample(list(choices.free), count))
    room = choices.stack
    bets = []
    for spot in spots:
        jackpot = choices.wager > 0 and rng.random() < 0.5
        top = min(choices.max_ante, (room - (choices.wager if jackpot else 0)) // PLAY_MULTIPLE,
                  max(choices.min_ante, choices.stack // 20))
        if top < choices.min_ante:
            break
        chosen = rng.randint(choices.min_ante, top)
        room -= PLAY_MULTIPLE * chosen + (choices.wager if jackpot else 0)
        bets.append(SpotBet(spot, chosen, jackpot))
    return bets or None


def choose_play(strategy: str, cards: Sequence[str], rng: random.Random) -> bool | None:
    """Play (True), fold (False) or say nothing (None) on a spot's five cards.

    >>> choose_play("basic", ["Ac", "Kd", "4h", "3s", "2c"], random.Random(1)), \\
    ...     choose_play("basic", ["Ac", "Qd", "Jh", "Ts", "9c"], random.Random(1))
    (True, False)
    """
    if strategy == "stubborn":
        return None
    if strategy == "basic":
        return STRATEGIES["basic"](rank5(parse_cards(list(cards))))
    return rng.random() < 0.6


def bets_payload(bets: Sequence[SpotBet]) -> list[dict[str, Any]]:
    """Bets as the ``bet`` move carries them."""
    return [{"spot": b.spot, "ante": b.ante, "jackpot": b.jackpot} for b in bets]
