"""What a player may do now at a Caribbean Stud table, read from a snapshot, and the line that says it.

Pure. What is asked and its limits (the spots, how many, the Antes) are the server's choices
on the snapshot; ``hand``, the game's hand view (docs/games/caribbean.md), only words them.

>>> snap = {"game": "caribbean", "you": {"seat": 2}, "seats": [{"seat": 2, "name": "bo", "stack": 200}],
...         "settings": {"spots": 7, "max_hands": 3, "min_ante": 5, "max_ante": 500, "jackpot": True,
...                      "jackpot_wager": 1},
...         "hand": {"phase": "betting", "bets": [], "spots": [], "turn": None},
...         "choices": {"moves": [{"request": "move", "action": "bet", "bets": {"count": {"min": 1, "max": 3},
...             "each": {"spot": [1, 2, 3, 4, 5, 6, 7], "ante": {"min": 5, "max": 66}, "jackpot": [False, True]},
...             "distinct": "spot"}, "limits": {"cover": {"max": 200, "ante": 3, "jackpot": 1}}}]}}
>>> choices = legal_choices(snap)
>>> choices.kind, choices.free[:3], choices.top_ante
('bets', (1, 2, 3), 66)
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
from server.i18n import _
from server.rules.caribbean.messages import SpotBet

PLAY_MULTIPLE: Final = 3
"""A stack covers each Ante three times (Ante and the Back Bet of 2x), so a Play is never refused."""

ChoiceKind = Literal["bets", "decision"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Choices(SeatChoices):
    """What the player may do now at a Caribbean Stud table, with the limits that apply."""

    kind: ChoiceKind | None = None
    spots: int = 0
    free: tuple[int, ...] = ()
    """Spots the server offers this player's bets now: free ones and their own."""
    taken: tuple[tuple[int, str], ...] = ()
    """Spots other players hold, with their names."""
    max_hands: int = 1
    min_ante: int = 0
    max_ante: int = 0
    wager: int = 0
    """The jackpot wager in chips (0: this table offers none)."""
    placed: tuple[SpotBet, ...] = ()
    confirmed: bool = False
    rebet: bool = False
    """Whether the server offers Re-Bet now (it does only with last bets to repeat)."""
    passed: bool = False
    hold: int = 1
    """Spots this player may hold now: ``max_hands``, or fewer while others still wait for one."""
    waiting: tuple[str, ...] = ()
    """Other players of the hand who have neither bet nor passed yet."""
    spot: int = 0
    ante: int = 0
    cards: tuple[str, ...] = ()
    cls: str = ""
    offered_top: int | None = None
    """The largest Ante of one spot the server offers now (None: a record built without the server's choices)."""
    offers: Offers | None = field(default=None, compare=False, repr=False)
    """The server's choices now, the one judge of typed bets (None: the model carries none, the server judges)."""

    @property
    def top_ante(self) -> int:
        """The largest Ante of one spot allowed now: the server's offer (the table's largest without one)."""
        return self.max_ante if self.offered_top is None else self.offered_top


KINDS: Final[dict[ChoiceKind, frozenset[str]]] = {"bets": BETTING, "decision": frozenset({"play", "fold"})}
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
    if kind == "decision":
        return _decision_choices(base, snapshot, offers)
    return base


def _decision_choices(base: Choices, snapshot: Mapping[str, Any], offers: Offers) -> Choices:
    """The spot the server offers a play or fold on, with its Ante, cards and class as the hand view shows them."""
    item = offers.first("move", "play") or offers.first("move", "fold")
    spot = int(item.limits.get("spot", 0)) if item is not None else 0
    rows = (snapshot.get("hand") or {}).get("spots") or []
    entry: Mapping[str, Any] = next((s for s in rows if s.get("spot") == spot), {})
    return replace(base, kind="decision", spot=spot, ante=int(entry.get("ante", 0)),
                   cards=tuple(entry.get("cards") or ()), cls=str(entry.get("class", "")))


def _bet_choices(base: Choices, snapshot: Mapping[str, Any], seat: int, offers: Offers) -> Choices:
    """Bets are open: the spots, their number and the Antes the server offers (none: the stack covers no spot),
    with the bets down and who holds the other spots."""
    settings = snapshot.get("settings") or {}
    table = open_bets(snapshot, seat, "spot")
    limits = offered_limits(offers, "spot")
    wager = int(settings.get("jackpot_wager", 0)) if settings.get("jackpot") else 0
    low, high = limits.ante or (int(settings.get("min_ante", 1)), 0)
    return replace(base, kind="bets", spots=table.count, free=limits.free or (), taken=table.taken,
                   max_hands=int(settings.get("max_hands", 1)), hold=limits.hold or 0, waiting=table.waiting,
                   passed=table.passed, min_ante=max(low, 1), max_ante=int(settings.get("max_ante", high)),
                   offered_top=high, wager=wager,
                   placed=tuple(SpotBet(int(b["spot"]), int(b["ante"]), bool(b.get("jackpot"))) for b in table.mine),
                   confirmed=table.confirmed, rebet=offers.has("move", "rebet"))


def bets_text(bets: Sequence[SpotBet]) -> str:
    """``spot 1 ante 10 +jackpot, spot 3 ante 5``."""
    return ", ".join(_("spot {spot} ante {ante}", spot=b.spot, ante=b.ante) + (" +" + _("jackpot") if b.jackpot else "")
                     for b in bets)


def short_bets(bets: Sequence[SpotBet]) -> str:
    """Bets as they are typed: ``1:10j 3:5``."""
    return " ".join(f"{b.spot}:{b.ante}{'j' if b.jackpot else ''}" for b in bets)


def choices_text(choices: Choices) -> str | None:
    """One line that says exactly what may be typed now (None when nothing is asked).

    >>> choices_text(Choices(kind="decision", spot=3, ante=10, cls="pair"))
    'Your turn on spot 3 (pair): play (p) = Back Bet 20, or fold (f) = lose the Ante 10'
    """
    c = choices
    if c.kind == "bets":
        if c.placed or c.confirmed:
            return placed_text(short_bets(c.placed), c.confirmed)
        if c.passed:
            return PASSED_TEXT
        if c.top_ante < c.min_ante:
            return _("Bets are open, but your stack of {stack} cannot cover 3x the smallest Ante ({low}): pass",
                     stack=c.stack, low=c.min_ante)
        jackpot = _(", j = jackpot {chips}", chips=c.wager) if c.wager else ""
        rebet = _("or rebet, ") if c.rebet else ""
        return _("Bets are open: bet SPOT:ANTE[j], up to {most} of spots {spots}, Ante {low}-{high}{jackpot}; "
                 "{rebet}or pass", most=c.hold, spots=places_text(c.free, c.spots), low=c.min_ante, high=c.top_ante,
                 jackpot=jackpot, rebet=rebet)
    if c.kind == "decision":
        return _("Your turn on spot {spot} ({hand}): play (p) = Back Bet {bet}, or fold (f) = lose the Ante {ante}",
                 spot=c.spot, hand=class_label(c.cls), bet=2 * c.ante, ante=c.ante)
    return None
