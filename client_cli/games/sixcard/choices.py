"""What a player may do now at a 6 Card Poker table, read from a snapshot, and the line that says it.

Pure. What is asked and its limits (the boxes, how many, the Antes, the box in turn) are
the server's choices on the snapshot; ``hand``, the game's hand view (docs/games/sixcard.md),
only words them.

>>> snap = {"game": "sixcard", "you": {"seat": 1}, "seats": [{"seat": 1, "name": "ann", "stack": 1000}],
...         "settings": {"boxes": 4, "min_ante": 5, "max_ante": None, "ante_ratio": 5, "min_bonus": 1,
...                      "max_bonus": None},
...         "hand": {"phase": "betting", "bets": [], "boxes": [], "turn": None},
...         "choices": {"moves": [{"request": "move", "action": "bet", "bets": {"count": {"min": 1, "max": 4},
...             "each": {"box": [1, 2, 3, 4], "ante": [0, {"min": 5, "max": 250}], "bonus": {"min": 0, "max": 1000}},
...             "distinct": "box"}}, {"request": "move", "action": "pass"}]}}
>>> choices_text(legal_choices(snap))
'Bets are open: bet BOX:ANTE[+BONUS], boxes 1-4, Ante 5-250, bonus 1+ (BOX:+N: bonus only); or pass'
>>> legal_choices({**snap, "choices": {"moves": [{"request": "move", "action": "pass"}]}}).free
()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from client_cli.games.house import (
    BETTING,
    PASSED_TEXT,
    class_label,
    hand_active,
    open_bets,
    placed_text,
    places_text,
)
from client_cli.games.limits import offered_limits
from client_cli.offers import Offers, kind_of, read_offers
from client_cli.parse import SeatChoices, my_seat, my_stack
from server.i18n import _, phrase, spoken
from server.rules.sixcard.settlement import BoxWager, box_roles

MAX_BOXES: Final = 4
"""One player may take 1 to 4 boxes (docs/rules/sixcard.md section 2)."""

ChoiceKind = Literal["bets", "decision", "exchange"]
BoxBet = tuple[int, int, int]
"""``(box, ante, bonus)``; an Ante of 0 with a bonus is a bonus-only box."""


@dataclass(frozen=True, slots=True)
class Ask:
    """One of the player's boxes in the dealer exchange."""

    box: int
    ante: int
    requested: bool
    cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Choices(SeatChoices):
    """What the player may do now at a 6 Card Poker table, with the limits that apply."""

    kind: ChoiceKind | None = None
    boxes: int = 0
    free: tuple[int, ...] = ()
    """Boxes the server offers this player's bets now: free ones and their own."""
    taken: tuple[tuple[int, str], ...] = ()
    min_ante: int = 0
    max_ante: int | None = None
    ante_ratio: int = 5
    min_bonus: int = 1
    max_bonus: int | None = None
    placed: tuple[BoxBet, ...] = ()
    confirmed: bool = False
    rebet: bool = False
    """Whether the server offers Re-Bet now (it does only with last bets to repeat)."""
    passed: bool = False
    hold: int = MAX_BOXES
    """Boxes this player may hold now: four, or fewer while others still wait for one."""
    waiting: tuple[str, ...] = ()
    """Other players of the hand who have neither bet nor passed yet."""
    box: int = 0
    ante: int = 0
    role: str = ""
    cards: tuple[str, ...] = ()
    cls: str = ""
    drawn: bool = False
    asks: tuple[Ask, ...] = ()
    continued: bool = False
    offered_top: int | None = None
    """The largest Ante of one box the server offers now (None: none offered, or a record built without them)."""
    offers: Offers | None = field(default=None, compare=False, repr=False)
    """The server's choices now, the one judge of typed bets (None: the model carries none, the server judges)."""

    @property
    def top_ante(self) -> int | None:
        """The largest Ante of one box allowed now: the server's offer (the table's largest without one; None:
        no limit)."""
        return self.max_ante if self.offered_top is None else self.offered_top


KINDS: Final[dict[ChoiceKind, frozenset[str]]] = {
    "bets": BETTING, "decision": frozenset({"raise", "fold", "buy", "exchange"}),
    "exchange": frozenset({"request_exchange", "cancel_exchange", "continue"})}
"""Which hand moves of the server's choices each kind of :class:`Choices` stands for."""


def legal_choices(snapshot: Mapping[str, Any], offers: Offers | None = None) -> Choices:
    """What this client may do now: what the server's choices (``offers``, else the snapshot's own) ask, with
    their limits, and the hand view's words for them."""
    offers = read_offers(snapshot) if offers is None else offers
    seat = my_seat(snapshot)
    base = Choices(stack=my_stack(snapshot), seated=seat is not None, between_hands=not hand_active(snapshot),
                   offers=offers)
    kind = kind_of(offers, KINDS)
    if kind == "bets" and seat is not None:
        return _bet_choices(base, snapshot, seat, offers)
    hand = snapshot.get("hand") or {}
    if kind == "decision":
        item = next((offers.first("move", verb) for verb in ("raise", "fold", "buy", "exchange")
                     if offers.has("move", verb)), None)
        number = int(item.limits.get("box", 0)) if item is not None else 0
        box = _box_entry(hand, number)
        return replace(base, kind="decision", box=number, ante=int(box.get("ante", 0)),
                       role=str(box.get("role", "")), cards=tuple(box.get("cards") or ()),
                       cls=str(box.get("class", "")), drawn="draw" in box)
    if kind == "exchange":
        asks = tuple(Ask(int(b["box"]), int(b["ante"]), bool(b.get("exchange_request")), tuple(b.get("cards") or ()))
                     for b in hand.get("boxes") or [] if b.get("seat") == seat and "exchange_request" in b)
        continued = seat in ((hand.get("exchange") or {}).get("continued") or [])
        return replace(base, kind="exchange", asks=asks, continued=continued)
    return base


def _box_entry(hand: Mapping[str, Any], box: int) -> Mapping[str, Any]:
    entry: Mapping[str, Any] = next((b for b in hand.get("boxes") or [] if b.get("box") == box), {})
    return entry


def _bet_choices(base: Choices, snapshot: Mapping[str, Any], seat: int, offers: Offers) -> Choices:
    """Bets are open: the boxes, their number and the Antes the server offers (none: the stack covers no box), with
    the bets down and who holds the other boxes."""
    settings = snapshot.get("settings") or {}
    table = open_bets(snapshot, seat, "box")
    limits = offered_limits(offers, "box")
    max_ante, max_bonus = settings.get("max_ante"), settings.get("max_bonus")
    return replace(
        base, kind="bets", boxes=table.count, free=limits.free or (), taken=table.taken,
        min_ante=max(limits.ante[0], 1) if limits.ante else int(settings.get("min_ante", 1)),
        max_ante=int(max_ante) if max_ante is not None else None, offered_top=limits.ante[1] if limits.ante else None,
        ante_ratio=int(settings.get("ante_ratio", 5)), min_bonus=int(settings.get("min_bonus", 1)),
        max_bonus=int(max_bonus) if max_bonus is not None else None,
        placed=tuple((int(b["box"]), int(b["ante"]), int(b["bonus"])) for b in table.mine),
        confirmed=table.confirmed, rebet=offers.has("move", "rebet"), passed=table.passed,
        hold=limits.hold or 0, waiting=table.waiting)


def roles_of(bets: Sequence[BoxBet]) -> dict[int, str]:
    """Each box's role for one player's bets: the first two with an Ante open, the rest blind, else bonus-only.

    >>> roles_of([(1, 10, 0), (2, 0, 5), (3, 10, 0), (4, 5, 0)])
    {1: 'open', 2: 'bonus_only', 3: 'open', 4: 'blind'}
    """
    return box_roles(BoxWager(box, "me", (), ante, bonus) for box, ante, bonus in bets)


ROLE_NAMES: Final = {"open": phrase("open"), "blind": phrase("blind"), "bonus_only": phrase("bonus only")}
"""Each box's role in a bet's summary."""


def bets_text(bets: Sequence[BoxBet]) -> str:
    """``box 1 ante 10 +bonus 1 (open), box 2 bonus 5 (bonus only)``."""
    roles = roles_of(bets)
    parts = []
    for box, ante, bonus in bets:
        what = " ".join(filter(None, [_("ante {chips}", chips=ante) if ante else "",
                                      "+" + _("bonus {chips}", chips=bonus) if bonus else ""]))
        role = spoken(ROLE_NAMES[roles[box]]) if roles[box] in ROLE_NAMES else roles[box].replace("_", " ")
        parts.append(_("box {box}", box=box) + f" {what} ({role})")
    return ", ".join(parts)


def short_bets(bets: Sequence[BoxBet]) -> str:
    """Bets as they are typed, with the blind boxes named: ``1:10+1 2:10 3:5 (blind: 3)``."""
    text = " ".join(f"{box}:{ante or ''}{f'+{bonus}' if bonus else ''}" for box, ante, bonus in bets)
    blind = [str(box) for box, role in roles_of(bets).items() if role == "blind"]
    return text + (_(" (blind: {boxes})", boxes=" ".join(blind)) if blind else "")


def choices_text(choices: Choices) -> str | None:
    """One line that says exactly what may be typed now (None when nothing is asked).

    >>> choices_text(Choices(kind="decision", box=2, ante=10, cls="pair"))
    'Box 2 (pair): raise (r) = Bet 20, fold (f), buy, or x 1 3 (exchange 1, 2 or 5): fee 10'
    """
    c = choices
    if c.kind == "bets":
        if c.placed or c.confirmed:
            return placed_text(short_bets(c.placed), c.confirmed)
        if c.passed:
            return PASSED_TEXT
        if not c.free:
            return _("Bets are open, but your stack of {stack} cannot cover a box: pass", stack=c.stack)
        top = f"-{c.top_ante}" if c.top_ante is not None else "+"
        most = _("up to {most} of ", most=c.hold) if c.hold < min(MAX_BOXES, len(c.free)) else ""
        rebet = _("or rebet, ") if c.rebet else ""
        return _("Bets are open: bet BOX:ANTE[+BONUS], {most}boxes {boxes}, Ante {low}{top}, bonus {bonus}+ "
                 "(BOX:+N: bonus only); {rebet}or pass", most=most, boxes=places_text(c.free, c.boxes),
                 low=c.min_ante, top=top, bonus=c.min_bonus, rebet=rebet)
    if c.kind == "decision":
        if c.drawn:
            return _("Box {box} ({hand}, drawn): raise (r) = Bet {bet}, or fold (f)", box=c.box,
                     hand=class_label(c.cls), bet=2 * c.ante)
        return _("Box {box} ({hand}): raise (r) = Bet {bet}, fold (f), buy, or x 1 3 (exchange 1, 2 or 5): fee {ante}",
                 box=c.box, hand=class_label(c.cls), bet=2 * c.ante, ante=c.ante)
    if c.kind == "exchange":
        if c.continued:
            return _("You pressed continue: waiting for the others (or the clock)")
        asking = " ".join(str(a.box) for a in c.asks if a.requested)
        return (_("Dealer exchange: ask BOX (fee: its Ante), cancel BOX, then continue (final)")
                + (_("; asking: box {boxes}", boxes=asking) if asking else ""))
    return None
