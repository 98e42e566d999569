"""6 Card Poker 1-2-5 in the terminal client: legal choices, typed lines -> moves, the view, the bots' choices.

Pure. :func:`legal_choices` reads what this player may do now from a snapshot
(``hand`` is the game's hand view, docs/games/sixcard.md); :func:`parse_line`
turns a line into a :class:`~client_cli.games.house.Move` or explains why not,
so invalid input (three cards to exchange, a broken Ante ratio...) is never sent.

>>> snap = {"game": "sixcard", "you": {"seat": 1}, "seats": [{"seat": 1, "name": "ann", "stack": 1000}],
...         "settings": {"boxes": 4, "min_ante": 5, "max_ante": None, "ante_ratio": 5, "min_bonus": 1,
...                      "max_bonus": None},
...         "hand": {"phase": "betting", "bets": [], "boxes": [], "turn": None}}
>>> choices = legal_choices(snap)
>>> parse_line("bet 1:10+1 2:20", choices).args
{'bets': [{'box': 1, 'ante': 10, 'bonus': 1}, {'box': 2, 'ante': 20, 'bonus': 0}]}
>>> parse_line("bet 1:10 2:60", choices).message
'your largest Ante (60) may be at most 5x your smallest (10)'
>>> turn = Choices(kind="decision", seated=True, stack=900, box=2, ante=10, cards=("Kh", "Kd", "7c", "4s", "2h"))
>>> parse_line("exchange 3 4 5", turn).message
'an exchange replaces 1, 2 or 5 cards, not 3'
>>> parse_line("x 4 5", turn).note
'box 2: 4s 2h (positions 4 5) exchanged for a fee of 10 chips'
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
    numbered_cards_text,
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
from server.rules.poker import best_five, class_name
from server.rules.sixcard.hand import cover_needed
from server.rules.sixcard.settings import BONUS_CLASSES
from server.rules.sixcard.settlement import EXCHANGE_SIZES, HAND_SIZE, BoxWager, box_roles, ratio_ok
from server.rules.sixcard.strategy import STRATEGIES

GAME: Final = "sixcard"
MAX_BOXES: Final = 4
"""One player may take 1 to 4 boxes (RULES-sixcard.md section 2)."""
ROLE_LABELS: Final = {"open": "open", "blind": "blind", "bonus_only": "bonus"}
SHORT_NAME: Final = 10

ChoiceKind = Literal["bets", "decision", "exchange"]
Command = Move | Help | Leave | SitOut | TopUp
BoxBet = tuple[int, int, int]
"""``(box, ante, bonus)``; an Ante of 0 with a bonus is a bonus-only box."""


@dataclass(frozen=True, slots=True)
class Ask:
    """One of the player's boxes in the dealer exchange."""

    box: int
    ante: int
    requested: bool
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Choices:
    """What the player may do now at a 6 Card Poker table, with the limits that apply."""

    kind: ChoiceKind | None = None
    stack: int = 0
    seated: bool = False
    between_hands: bool = True
    boxes: int = 0
    free: tuple[int, ...] = ()
    """Boxes this player may bet on: free ones and their own."""
    taken: tuple[tuple[int, str], ...] = ()
    min_ante: int = 0
    max_ante: int | None = None
    ante_ratio: int = 5
    min_bonus: int = 1
    max_bonus: int | None = None
    placed: tuple[BoxBet, ...] = ()
    confirmed: bool = False
    box: int = 0
    ante: int = 0
    role: str = ""
    cards: tuple[str, ...] = ()
    cls: str = ""
    drawn: bool = False
    asks: tuple[Ask, ...] = ()
    continued: bool = False


def idle(choices: Choices) -> Choices:
    """The same player with nothing asked (leaving)."""
    return Choices(stack=choices.stack, seated=choices.seated, between_hands=choices.between_hands)


# ------------------------------------------------------------------ choices


def legal_choices(snapshot: Mapping[str, Any]) -> Choices:
    """What this client may do now, read from a snapshot."""
    seat = my_seat(snapshot)
    hand = snapshot.get("hand") or {}
    phase = hand.get("phase")
    base = Choices(stack=my_stack(snapshot), seated=seat is not None, between_hands=not hand_active(snapshot))
    if seat is None or base.between_hands:
        return base
    seats = hand.get("seats")
    if phase == "betting" and (seats is None or seat in seats) and seat not in (hand.get("leaving") or []):
        return _bet_choices(base, snapshot, seat)
    turn = hand.get("turn") or {}
    if phase == "decisions" and turn.get("seat") == seat:
        box = _box_entry(hand, int(turn["box"]))
        return replace(base, kind="decision", box=int(turn["box"]), ante=int(box.get("ante", 0)),
                       role=str(box.get("role", "")), cards=tuple(box.get("cards") or ()),
                       cls=str(box.get("class", "")), drawn="draw" in box)
    exchange = hand.get("exchange") or {}
    if phase == "exchange" and seat in (exchange.get("owners") or []) and not exchange.get("closed"):
        asks = tuple(Ask(int(b["box"]), int(b["ante"]), bool(b.get("exchange_request")), tuple(b.get("cards") or ()))
                     for b in hand.get("boxes") or [] if b.get("seat") == seat and "exchange_request" in b)
        return replace(base, kind="exchange", asks=asks, continued=seat in (exchange.get("continued") or []))
    return base


def _box_entry(hand: Mapping[str, Any], box: int) -> Mapping[str, Any]:
    entry: Mapping[str, Any] = next((b for b in hand.get("boxes") or [] if b.get("box") == box), {})
    return entry


def _bet_choices(base: Choices, snapshot: Mapping[str, Any], seat: int) -> Choices:
    settings = snapshot.get("settings") or {}
    names = seat_names(snapshot)
    bets = (snapshot.get("hand") or {}).get("bets") or []
    boxes = int(settings.get("boxes", 1))
    taken = tuple((int(b["box"]), names.get(int(b["seat"]), f"seat {b['seat']}"))
                  for b in bets if b.get("seat") != seat)
    held = {box for box, _ in taken}
    max_ante, max_bonus = settings.get("max_ante"), settings.get("max_bonus")
    return replace(
        base, kind="bets", boxes=boxes, free=tuple(b for b in range(1, boxes + 1) if b not in held), taken=taken,
        min_ante=int(settings.get("min_ante", 1)), max_ante=int(max_ante) if max_ante is not None else None,
        ante_ratio=int(settings.get("ante_ratio", 5)), min_bonus=int(settings.get("min_bonus", 1)),
        max_bonus=int(max_bonus) if max_bonus is not None else None,
        placed=tuple((int(b["box"]), int(b["ante"]), int(b["bonus"])) for b in bets if b.get("seat") == seat),
        confirmed=any(b.get("confirmed") for b in bets if b.get("seat") == seat))


def roles_of(bets: Sequence[BoxBet]) -> dict[int, str]:
    """Each box's role for one player's bets: the first two with an Ante open, the rest blind, else bonus-only.

    >>> roles_of([(1, 10, 0), (2, 0, 5), (3, 10, 0), (4, 5, 0)])
    {1: 'open', 2: 'bonus_only', 3: 'open', 4: 'blind'}
    """
    return box_roles(BoxWager(box, "me", (), ante, bonus) for box, ante, bonus in bets)


def bets_text(bets: Sequence[BoxBet]) -> str:
    """``box 1 ante 10 +bonus 1 (open), box 2 bonus 5 (bonus only)``."""
    roles = roles_of(bets)
    parts = []
    for box, ante, bonus in bets:
        what = " ".join(filter(None, [f"ante {ante}" if ante else "", f"+bonus {bonus}" if bonus else ""]))
        parts.append(f"box {box} {what} ({roles[box].replace('_', ' ')})")
    return ", ".join(parts)


def short_bets(bets: Sequence[BoxBet]) -> str:
    """Bets as they are typed, with the blind boxes named: ``1:10+1 2:10 3:5 (blind: 3)``."""
    text = " ".join(f"{box}:{ante or ''}{f'+{bonus}' if bonus else ''}" for box, ante, bonus in bets)
    blind = [str(box) for box, role in roles_of(bets).items() if role == "blind"]
    return text + (f" (blind: {' '.join(blind)})" if blind else "")


def choices_text(choices: Choices) -> str | None:
    """One line that says exactly what may be typed now (None when nothing is asked).

    >>> choices_text(Choices(kind="decision", box=2, ante=10, cls="pair"))
    'Box 2 (pair): raise (r) = Bet 20, fold (f), buy, or x 1 3 (exchange 1, 2 or 5): fee 10'
    """
    c = choices
    if c.kind == "bets":
        if c.confirmed:
            return f"Your bets {short_bets(c.placed)} are confirmed: waiting for the others (clear (c) takes them back)"
        if c.placed:
            return f"Your bets {short_bets(c.placed)}: deal (d) to confirm them, clear (c), or bet again"
        free = f"1-{c.boxes}" if list(c.free) == list(range(1, c.boxes + 1)) and c.boxes > 1 \
            else " ".join(str(b) for b in c.free)
        top = f"-{c.max_ante}" if c.max_ante is not None else "+"
        return (f"Bets are open: bet BOX:ANTE[+BONUS], boxes {free}, Ante {c.min_ante}{top}, bonus {c.min_bonus}+ "
                f"(BOX:+N: bonus only); or rebet")
    if c.kind == "decision":
        if c.drawn:
            return f"Box {c.box} ({class_label(c.cls)}, drawn): raise (r) = Bet {2 * c.ante}, or fold (f)"
        return (f"Box {c.box} ({class_label(c.cls)}): raise (r) = Bet {2 * c.ante}, fold (f), buy, "
                f"or x 1 3 (exchange 1, 2 or 5): fee {c.ante}")
    if c.kind == "exchange":
        if c.continued:
            return "You pressed continue: waiting for the others (or the clock)"
        asking = " ".join(str(a.box) for a in c.asks if a.requested)
        return ("Dealer exchange: ask BOX (fee: its Ante), cancel BOX, then continue (final)"
                + (f"; asking: box {asking}" if asking else ""))
    return None


HELP = """\
Commands at a 6 Card Poker table (type them and press Enter):
  bet BOX:ANTE[+BONUS] ...  bet on boxes, e.g. 'bet 1:10+1 2:20'; 'bet 3:+5' is a bonus bet only;
                        'bet 10+1' bets on your box or the first free one. A new 'bet' replaces
                        your bets of this hand. Your first two boxes with an Ante are open, the
                        rest blind (their Bet of 2x the Ante is placed for you).
  deal (d)              confirm your bets (betting closes when everyone who bet has dealt)
  rebet                 place your bets of your last hand again, on the same boxes
  clear (c)             take all your bets back (confirmed ones too, while bets are open)
  raise (r)             at your turn: place the Bet (2x the Ante) on the box in turn
  fold (f)              at your turn: fold the box in turn (its Ante is lost, a bonus bet stands)
  buy                   at your turn: buy a sixth card (fee: 1x the Ante)
  exchange P ... (x)    at your turn: replace the cards at positions P (1, 2 or 5 of them,
                        e.g. 'x 1 3', 'x all'; fee: 1x the Ante). One draw per box, then raise or fold.
  ask [BOX]             dealer exchange: ask to replace the dealer's highest card (fee: the box's Ante)
  cancel [BOX]          dealer exchange: take the request back
  continue              dealer exchange: your choice is final (requests not continued lapse)
  sitout / back         sit out of the coming hands, or come back
  topup N               bring N more chips from your account (between hands)
  leave (or Ctrl-C)     stand up now, or after the current hand, and quit
  help (?)              this help
Your stack must cover 4x the Ante of each open box, 3x of each blind box, plus every bonus."""


# ------------------------------------------------------------------ parsing


_WORDS: Final = {
    "bet": "bet", "b": "bet", "ante": "bet",
    "deal": "deal", "d": "deal", "confirm": "deal",
    "rebet": "rebet", "re-bet": "rebet", "again": "rebet",
    "clear": "clear", "c": "clear",
    "raise": "raise", "r": "raise",
    "fold": "fold", "f": "fold",
    "buy": "buy", "sixth": "buy",
    "exchange": "exchange", "x": "exchange", "ex": "exchange", "draw": "exchange",
    "ask": "ask", "request": "ask",
    "cancel": "cancel",
    "continue": "continue", "cont": "continue", "go": "continue",
}
_AMOUNT: Final = re.compile(r"^(\d*)(?:\+(\d+))?$")


def parse_line(line: str, choices: Choices) -> Command | InputError:
    """One typed line -> a legal move, or why not (see :data:`HELP`)."""
    words = line.strip().lower().split()
    if not words:
        return InputError(choices_text(choices) or "type 'help' for the commands")
    if choices.kind == "bets" and (words[0][:1].isdigit() or words[0].startswith("+")):
        words = ["bet", *words]
    common = table_command(words, choices)
    if common is not None:
        return common
    verb = _WORDS.get(words[0])
    if verb is None:
        return InputError(f"unknown command {words[0]!r}: type 'help' for the commands")
    args = words[1:]
    if verb in ("raise", "fold", "buy", "exchange"):
        return _decision(verb, args, choices)
    if verb in ("ask", "cancel", "continue"):
        return _exchange(verb, args, choices)
    if choices.kind != "bets":
        return InputError("bets are not open for you now")
    if verb == "bet":
        return _bets(args, choices)
    if verb == "clear":
        return Move("clear") if choices.placed else InputError("you have no bets to clear")
    if choices.confirmed:
        return InputError("your bets are confirmed: waiting for the others (clear (c) takes them back)")
    if verb == "rebet":
        return Move("rebet")
    if not choices.placed:
        return InputError("place a bet first: bet BOX:ANTE[+BONUS], e.g. 'bet 1:10+1'")
    return Move("deal")


def _bets(args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    if c.confirmed:
        return InputError("your bets are confirmed: clear (c) first to change them")
    usage = InputError("say 'bet BOX:ANTE[+BONUS] ...', e.g. 'bet 1:10+1 2:20', 'bet 3:+5' (bonus only), 'bet 10'")
    named: list[int | None] = []
    amounts: list[tuple[int, int]] = []
    for token in args:
        place, _, rest = token.rpartition(":")
        match = _AMOUNT.match(rest)
        if match is None or not rest or rest == "+" or (place and not place.isdigit()):
            return usage
        named.append(int(place) if place else None)
        amounts.append((int(match.group(1) or 0), int(match.group(2) or 0)))
    if not amounts:
        return usage
    boxes = assign_places(named, mine=[b for b, _, _ in c.placed], free=c.free, taken=dict(c.taken), last=c.boxes,
                          word="box")
    if isinstance(boxes, str):
        return InputError(boxes)
    bets = sorted((box, ante, bonus) for box, (ante, bonus) in zip(boxes, amounts, strict=True))
    problem = bets_problem(bets, c)
    if problem is not None:
        return InputError(problem)
    return Move("bet", {"bets": bets_payload(bets)})


def bets_problem(bets: Sequence[BoxBet], c: Choices) -> str | None:
    """Why a player may not place ``bets`` (RULES-sixcard.md section 3), or None."""
    if len(bets) > MAX_BOXES:
        return f"one player may take at most {MAX_BOXES} boxes, got {len(bets)}"
    for box, ante, bonus in bets:
        if not ante and not bonus:
            return f"box {box}: a box needs an Ante, a bonus bet or both"
        if ante and (ante < c.min_ante or (c.max_ante is not None and ante > c.max_ante)):
            top = f"to {c.max_ante}" if c.max_ante is not None else "or more"
            return f"box {box}: the Ante is {c.min_ante} {top} chips, got {ante}"
        if bonus and (bonus < c.min_bonus or (c.max_bonus is not None and bonus > c.max_bonus)):
            top = f"to {c.max_bonus}" if c.max_bonus is not None else "or more"
            return f"box {box}: the bonus bet is {c.min_bonus} {top} chips, got {bonus}"
    antes = [ante for _, ante, _ in bets if ante]
    if not ratio_ok(antes, c.ante_ratio):
        return f"your largest Ante ({max(antes)}) may be at most {c.ante_ratio}x your smallest ({min(antes)})"
    needed = cover_needed(list(bets))
    if needed > c.stack:
        return (f"your stack of {c.stack} must cover every Bet and draw fee these boxes may take: {needed} chips "
                f"(4x the Ante of an open box, 3x of a blind one, plus the bonuses)")
    return None


def bets_payload(bets: Sequence[BoxBet]) -> list[dict[str, int]]:
    """Bets as the ``bet`` move carries them."""
    return [{"box": box, "ante": ante, "bonus": bonus} for box, ante, bonus in bets]


def _decision(verb: str, args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    if c.kind != "decision":
        return InputError(f"it is not your turn to {verb}")
    at = {"box": c.box}
    if verb in ("raise", "fold"):
        if args and args != [str(c.box)]:
            return InputError(f"box {c.box} is in turn: say '{verb}'")
        return Move(verb, at)
    if c.drawn:
        return InputError(f"box {c.box} has had its draw: raise (r) or fold (f)")
    if verb == "buy":
        if args:
            return InputError("say 'buy' (a sixth card for the box in turn)")
        return Move("buy", at, note=f"box {c.box}: a sixth card bought for a fee of {c.ante} chips")
    positions = _positions(args, len(c.cards) or HAND_SIZE)
    if isinstance(positions, InputError):
        return positions
    given = " ".join(c.cards[p - 1] for p in positions) if len(c.cards) >= HAND_SIZE else ""
    what = f"{given} (positions {' '.join(map(str, positions))})" if given \
        else f"positions {' '.join(map(str, positions))}"
    return Move("exchange", {**at, "discard": positions},
                note=f"box {c.box}: {what} exchanged for a fee of {c.ante} chips")


def _positions(args: list[str], count: int) -> list[int] | InputError:
    if args == ["all"]:
        return list(range(1, HAND_SIZE + 1))
    tokens = [t for a in args for t in a.replace(",", " ").split()]
    if len(tokens) == 1 and tokens[0].isdigit() and len(tokens[0]) > 1:
        tokens = list(tokens[0])  # 'x 13' reads as positions 1 and 3
    if not tokens or not all(t.isdigit() for t in tokens):
        return InputError("say 'exchange' with the positions of the cards to replace, e.g. 'x 1 3' or 'x all'")
    positions = [int(t) for t in tokens]
    if any(not 1 <= p <= min(count, HAND_SIZE) for p in positions):
        return InputError(f"positions are 1 to {HAND_SIZE}, got {' '.join(tokens)}")
    if len(set(positions)) != len(positions):
        return InputError("name each position once")
    if len(positions) not in EXCHANGE_SIZES:
        return InputError(f"an exchange replaces 1, 2 or 5 cards, not {len(positions)}")
    return sorted(positions)


def _exchange(verb: str, args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    if c.kind != "exchange":
        return InputError("the dealer exchange is not open for you now")
    if c.continued:
        return InputError("you pressed continue: your choice is final")
    if verb == "continue":
        if args:
            return InputError("say 'continue'")
        asking = [a for a in c.asks if a.requested]
        fees = sum(a.ante for a in asking)
        note = (f"continued: boxes {' '.join(str(a.box) for a in asking)} ask for the exchange (fee {fees} chips)"
                if asking else "continued: no exchange for your boxes")
        return Move("continue", note=note)
    ask = _which(args, c)
    if isinstance(ask, InputError):
        return ask
    if verb == "ask":
        if ask.requested:
            return InputError(f"box {ask.box} already asks for the exchange")
        return Move("request_exchange", {"box": ask.box},
                    note=f"box {ask.box} asks for the dealer exchange: fee {ask.ante} chips (its Ante) if you continue")
    if not ask.requested:
        return InputError(f"box {ask.box} does not ask for the exchange")
    return Move("cancel_exchange", {"box": ask.box})


def _which(args: list[str], c: Choices) -> Ask | InputError:
    boxes = " ".join(str(a.box) for a in c.asks)
    if not args:
        if len(c.asks) == 1:
            return c.asks[0]
        return InputError(f"say which box: one of {boxes}")
    if len(args) != 1 or not args[0].isdigit():
        return InputError(f"say one box: one of {boxes}")
    found = next((a for a in c.asks if a.box == int(args[0])), None)
    return found if found is not None else InputError(f"box {args[0]} is not one of yours in play: {boxes}")


# ------------------------------------------------------------------ the view


def table_lines(snapshot: Mapping[str, Any], *, symbols: bool = True) -> list[Text]:
    """The seats, the dealer's cards and every box of the hand (cards where this viewer may see them)."""
    hand = snapshot.get("hand") or {}
    names = seat_names(snapshot)
    rows = list(hand.get("bets") or []) if hand.get("phase") == "betting" or not hand.get("boxes") \
        else list(hand.get("boxes") or [])
    places: dict[int, list[int]] = {}
    for row in rows:
        places.setdefault(int(row["seat"]), []).append(int(row["box"]))
    lines = seat_lines(snapshot, places, "box")
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
    line = Text("Dealer: ", style="bold")
    if not cards:
        up = dealer.get("up")
        if not up:
            return []
        line.append_text(poker_cards_text([up], symbols=symbols))
        line.append(" up, four cards down", style="dim")
        return [line]
    line.append_text(poker_cards_text(cards, symbols=symbols))
    line.append(f"  {class_label(_class_of(cards))}")
    qualifies = dealer.get("qualifies")
    line.append(" · qualifies" if qualifies else " · does NOT qualify", style="green" if qualifies else "yellow")
    lines = [line]
    after = dealer.get("after")
    if after:
        again = Text("  exchanged: ")
        again.append_text(poker_cards_text(after, symbols=symbols))
        again.append(f"  {class_label(_class_of(after))}")
        good = dealer.get("qualifies_after")
        again.append(" · now qualifies" if good else " · still does not qualify", style="green" if good else "yellow")
        lines.append(again)
    return lines


def _class_of(cards: Sequence[str]) -> str:
    try:
        return class_name(best_five(parse_cards(list(cards)))[0])
    except (ValueError, KeyError):
        return ""


def _box_line(row: Mapping[str, Any], names: Names, you: int | None, turn: Any, phase: Any,
              roles: Mapping[int, str], symbols: bool) -> Text:
    box, seat = int(row["box"]), int(row["seat"])
    mine = seat == you
    role = str(row.get("role") or roles.get(box, ""))
    line = Text(">" if box == turn else " ", style="bold yellow")
    line.append(f"box {box} ")
    name = who(names, seat)[:SHORT_NAME - 1] + ("*" if mine else "")
    line.append(f"{name:<{SHORT_NAME}} ", style="bold" if mine else "")
    stakes = f"{row.get('ante') or ''}{'+' + str(row['bonus']) if row.get('bonus') else ''}"
    line.append(f"{ROLE_LABELS.get(role, role):<6}{stakes:<7}")
    if phase == "betting":
        line.append("confirmed" if row.get("confirmed") else "not confirmed yet", style="dim")
        return line
    cards = row.get("cards")
    if cards and mine:
        line.append_text(numbered_cards_text(cards, symbols=symbols))
    elif cards:
        line.append_text(poker_cards_text(cards, symbols=symbols))
    else:
        line.append("not seen yet" if mine and role != "bonus_only" else "face down", style="dim")
    if cards:
        line.append(f"  {class_label(row.get('class'))}", style="bold" if mine else "")
        if row.get("bonus") and row.get("bonus_class") in BONUS_CLASSES:
            paying = "bonus pays" if row["bonus_class"] == row.get("class") \
                else f"bonus: {class_label(row['bonus_class'])}"
            line.append(f" ({paying})", style="bold magenta")
    line.append_text(_box_state(row, box == turn))
    return line


def _box_state(row: Mapping[str, Any], in_turn: bool) -> Text:
    out = Text()
    draw = row.get("draw")
    if draw:
        what = "bought" if draw.get("kind") == "buy" else \
            f"exchanged {len(draw['new'])}" if draw.get("new") else "exchanged"
        out.append(f" · {what}, fee {draw.get('fee')}", style="cyan")
    if row.get("dead"):
        out.append(" · dead", style="red")
    elif row.get("folded"):
        out.append(" · folded", style="dim")
    elif row.get("bet"):
        out.append(f" · Bet {row['bet']}", style="bold")
    elif in_turn:
        out.append(" · to act", style="yellow")
    if row.get("exchange_request"):
        out.append(" · asks for the exchange", style="magenta")
    if row.get("continued"):
        out.append(" · continued", style="dim")
    return out


# ------------------------------------------------------------------ events


def describe_event(event: Mapping[str, Any], names: Names) -> str | None:
    """A one-line account of a 6 Card Poker table event for the log (None for bookkeeping events)."""
    kind = event.get("type")
    name = who(names, event.get("seat"))
    box = event.get("box")
    if kind == "box_bets_placed":
        bets = [(int(b), int(a), int(n)) for b, a, n in event.get("bets") or []]
        return f"{name} bets {bets_text(bets)}" if bets else f"{name} takes their bets back"
    if kind == "bets_confirmed":
        return f"{name} deals (bets confirmed)"
    if kind == "bets_cleared":
        return {"clear": f"{name} clears their bets", "clock": f"{name}'s unconfirmed bets go back (the clock ran out)",
                "left": f"{name}'s bets go back (leaving)"}.get(str(event.get("reason")), f"{name}'s bets go back")
    if kind == "bets_closed":
        count = len(event.get("bets") or [])
        return f"bets closed: {count} box{'es' if count != 1 else ''}" if count else None
    if kind == "blind_bets_placed":
        placed = event.get("bets") or []
        return "blind Bets placed: " + ", ".join(f"box {b} ({who(names, s)}) {a}" for b, s, a in placed)
    if kind == "hand_not_dealt":
        return "no hand: nobody placed a bet" if event.get("reason") == "no_bets" else "no hand this time"
    if kind == "deck_prepared":
        return None
    if kind == "cards_dealt":
        count = len(event.get("counts") or {})
        return f"cards dealt to {count} box{'es' if count != 1 else ''}; the dealer shows {event.get('dealer_up')}"
    if kind == "turn_started":
        return f"{name} to act on box {box}"
    if kind == "box_raised":
        return f"{name} raises box {box} (Bet {event.get('amount')})"
    if kind == "box_folded":
        return f"{name} folds box {box}" + reason_text(event.get("reason"), "fold")
    if kind == "cards_drawn":
        what = "buys a sixth card" if event.get("kind") == "buy" else "exchanges cards"
        return f"{name} {what} for box {box} (fee {event.get('fee')})"
    if kind == "blind_boxes_shown":
        boxes = " ".join(str(b) for b in event.get("boxes") or [])
        return f"{name} sees blind box{'es' if len(event.get('boxes') or []) > 1 else ''} {boxes}"
    if kind == "seat_dead":
        boxes = " ".join(str(b) for b in event.get("boxes") or [])
        return f"{name}'s boxes {boxes} are dead" + reason_text(event.get("reason"), "")
    if kind == "dealer_revealed":
        cards = list(event.get("cards") or [])
        verdict = "qualifies (a pair or better)" if event.get("qualifies") else "does NOT qualify"
        return f"the dealer shows {' '.join(cards)}: {class_label(_class_of(cards))}, {verdict}"
    return _exchange_event(event, names) or table_event_text(event, names)


def _exchange_event(event: Mapping[str, Any], names: Names) -> str | None:
    kind = event.get("type")
    name = who(names, event.get("seat"))
    if kind == "exchange_opened":
        owners = sorted({who(names, s) for _, s in event.get("boxes") or []})
        return f"dealer exchange: {', '.join(owners)} may ask to replace the dealer's highest card, or continue"
    if kind == "exchange_requested":
        return f"{name} asks for the dealer exchange on box {event.get('box')}"
    if kind == "exchange_cancelled":
        return f"{name} no longer asks for the exchange on box {event.get('box')}"
    if kind == "exchange_continued":
        boxes = " ".join(str(b) for b in event.get("boxes") or [])
        asking = f" asking for boxes {boxes}" if boxes else " without an exchange"
        return f"{name} continues{asking}" + reason_text(event.get("reason"), "continue")
    if kind == "exchange_closed":
        dropped = event.get("dropped") or []
        lapsed = f"; requests of boxes {' '.join(map(str, dropped))} lapsed" if dropped else ""
        return "the dealer exchange choice is over" + reason_text(event.get("reason"), "continued") + lapsed
    if kind == "dealer_exchanged":
        after = list(event.get("after") or [])
        verdict = "now qualifies" if event.get("qualifies") else "still does not qualify"
        return (f"the dealer's {event.get('discarded')} is replaced by {event.get('replacement')} for boxes "
                f"{' '.join(map(str, event.get('boxes') or []))}: {' '.join(after)}, {verdict}")
    if kind == "hand_settled":
        house = (event.get("settlement") or {}).get("house")
        return "hand settled" + (f": the players net {signed(-int(house))}" if isinstance(house, int) else "")
    return None


# ------------------------------------------------------------------ results


def result_lines(summary: Mapping[str, Any], names: Names, my_seat: int | None = None, *,
                 symbols: bool = False) -> list[Text]:
    """The showdown: the dealer's hand(s), each box's draw fee, Ante, Bet, bonus and net."""
    hand_id = summary.get("hand_id")
    if summary.get("status") == "void":
        return [Text(f"Hand #{hand_id} was voided ({summary.get('reason')}): every bet and fee went back",
                     style="yellow")]
    settlement = summary.get("settlement")
    if not settlement:
        return [Text(f"Hand #{hand_id}: not dealt ({summary.get('reason') or 'no bets'})", style="dim")]
    dealer = settlement.get("dealer") or {}
    lines = dealer_lines({"cards": dealer.get("cards") or summary.get("dealer_cards"),
                          "qualifies": dealer.get("qualifies"), "after": dealer.get("after"),
                          "qualifies_after": dealer.get("qualifies_after")}, symbols)
    head = Text(f"Hand #{hand_id} · ", style="bold")
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
    role = ROLE_LABELS.get(str(result.get("role")), str(result.get("role")))
    line = Text(f"  box {result['box']} {name[:SHORT_NAME]:<{SHORT_NAME}} {role:<6}", style="bold" if mine else "")
    if result.get("dead"):
        line.append("dead box: every bet and fee returned", style="yellow")
        return [line]
    parts = []
    if result.get("draw_fee"):
        parts.append(f"draw fee {signed(int(result['draw_fee']))}")
    if role != "bonus":
        parts.append(f"{'folded, ' if result.get('folded') else ''}ante {signed(int(result.get('ante', 0)))}")
        if not result.get("folded"):
            parts.append(f"bet {signed(int(result.get('bet', 0)))}")
    if result.get("bonus"):
        parts.append(f"bonus {signed(int(result['bonus']))}")
    net = int(result.get("net", 0))
    line.append(" ".join(parts) + " = ")
    line.append(f"net {signed(net)}", style="green" if net > 0 else "red" if net < 0 else "")
    if result.get("exchanged"):
        line.append(" (dealer exchange)", style="dim")
    lines = [line]
    if cards:
        sub = Text("         ")
        sub.append_text(poker_cards_text(cards, symbols=symbols))
        sub.append(f"  {class_label(result.get('class') or _class_of(cards))}", style="dim")
        lines.append(sub)
    return lines


def history_bets(summary: Mapping[str, Any], names: Names) -> list[Text]:
    """The bets of a finished hand, one line per box (for ``hcf history``)."""
    draws = {int(d["box"]): d for d in summary.get("draws") or []}
    lines = []
    for b in summary.get("bets") or []:
        what = "dead" if b.get("dead") else {"raise": "raised", "fold": "folded"}.get(str(b.get("decision")), "")
        draw = draws.get(int(b["box"]))
        extra = f" · {'bought' if draw['kind'] == 'buy' else 'exchanged'} (fee {draw['fee']})" if draw else ""
        lines.append(Text(f"  box {b['box']} {who(names, b.get('seat')):<{NAME_WIDTH}} "
                          f"{ROLE_LABELS.get(str(b.get('role')), '')} ante {b['ante']} bonus {b['bonus']}"
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


# ------------------------------------------------------------------ bots


def choose_bets(strategy: str, choices: Choices, rng: random.Random, ante: int | None = None,
                prefer: int | None = None) -> list[BoxBet] | None:
    """The bets a bot places (None: none this hand), always within the limits, the ratio rule and the stack.

    ``basic``: one box (``prefer`` if free, else the first free), the Ante ``ante`` or the
    table's smallest, no bonus. ``random``: 1 to 4 random free boxes, random Antes within
    the ratio, random bonus bets, now and then a bonus-only box.

    >>> c = Choices(kind="bets", stack=1000, boxes=4, free=(1, 2, 3, 4), min_ante=5, ante_ratio=5, min_bonus=1)
    >>> choose_bets("basic", c, random.Random(1), prefer=3)
    [(3, 5, 0)]
    """
    if strategy == "stubborn" or choices.kind != "bets" or not choices.free:
        return None
    c = choices
    top = c.max_ante if c.max_ante is not None else 10**9
    if strategy == "basic":
        box = prefer if prefer in c.free else c.free[0]
        chosen = min(max(ante or c.min_ante, c.min_ante), top)
        bets = [(box, chosen, 0)]
        return bets if bets_problem(bets, c) is None else None
    count = rng.randint(1, min(MAX_BOXES, len(c.free)))
    boxes = sorted(rng.sample(list(c.free), count))
    low = rng.randint(c.min_ante, max(c.min_ante, min(top, c.stack // 40)))
    bets = []
    for box in boxes:
        bonus = rng.randint(c.min_bonus, min(c.max_bonus or 5, 5)) if rng.random() < 0.4 else 0
        if bonus and rng.random() < 0.2:
            bets.append((box, 0, bonus))
        else:
            bets.append((box, rng.randint(low, min(top, low * c.ante_ratio, low * 2)), bonus))
    while bets and bets_problem(bets, c) is not None:
        bets.pop()
    return bets or None


def _value(cards: Sequence[str]) -> int:
    return best_five(parse_cards(list(cards)))[0]


def choose_decision(strategy: str, choices: Choices, rng: random.Random) -> Move | None:
    """The bot's move on its box in turn: raise, fold, buy or exchange (None: say nothing).

    ``basic`` raises any pair or better, folds the rest and never draws.

    >>> c = Choices(kind="decision", box=1, ante=10, cards=("2c", "2d", "7h", "8s", "9c"))
    >>> choose_decision("basic", c, random.Random(1))
    Move(action='raise', args={'box': 1}, note=None)
    """
    if strategy == "stubborn" or choices.kind != "decision" or not choices.cards:
        return None
    at = {"box": choices.box}
    if strategy == "basic":
        return Move("raise" if STRATEGIES["basic"].raises(_value(choices.cards)) else "fold", at)
    if not choices.drawn and rng.random() < 0.4:
        if rng.random() < 0.5:
            return Move("buy", at)
        size = rng.choice(EXCHANGE_SIZES)
        return Move("exchange", {**at, "discard": sorted(rng.sample(range(1, HAND_SIZE + 1), size))})
    return Move("raise" if rng.random() < 0.7 else "fold", at)


def choose_asks(strategy: str, choices: Choices, rng: random.Random) -> list[Move]:
    """The bot's dealer-exchange moves: its requests (a random bot may toggle one), then continue.

    ``basic`` asks for every box holding three of a kind or better.
    """
    if strategy == "stubborn" or choices.kind != "exchange" or choices.continued:
        return []
    moves: list[Move] = []
    for ask in choices.asks:
        if strategy == "basic":
            wanted = bool(ask.cards) and STRATEGIES["basic"].exchanges(_value(ask.cards))
        else:
            wanted = rng.random() < 0.5
            if not ask.requested and rng.random() < 0.2:
                moves += [Move("request_exchange", {"box": ask.box}), Move("cancel_exchange", {"box": ask.box})]
        if wanted and not ask.requested:
            moves.append(Move("request_exchange", {"box": ask.box}))
        elif ask.requested and not wanted:
            moves.append(Move("cancel_exchange", {"box": ask.box}))
    return [*moves, Move("continue")]
