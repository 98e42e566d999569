"""What a player may do now at a Caribbean Stud table, read from a snapshot, and the line that says it.

Pure. ``hand`` in a snapshot is the game's hand view (docs/games/caribbean.md).

>>> snap = {"game": "caribbean", "you": {"seat": 2}, "seats": [{"seat": 2, "name": "bo", "stack": 200}],
...         "settings": {"spots": 7, "max_hands": 3, "min_ante": 5, "max_ante": 500, "jackpot": True,
...                      "jackpot_wager": 1},
...         "hand": {"phase": "betting", "bets": [], "spots": [], "turn": None}}
>>> choices = legal_choices(snap)
>>> choices.kind, choices.free[:3], choices.top_ante
('bets', (1, 2, 3), 66)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from client_cli.games.house import (
    PASSED_TEXT,
    bettor,
    class_label,
    hand_active,
    offered,
    open_bets,
    placed_text,
    places_text,
)
from client_cli.games.limits import OfferedLimits
from client_cli.offers import Offers, read_offers
from client_cli.parse import SeatChoices, my_seat, my_stack
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
    offers: Offers | None = field(default=None, compare=False, repr=False)
    """The server's choices now, the one judge of typed bets (None: the model carries none, the server judges)."""

    @property
    def top_ante(self) -> int:
        """The largest Ante of one spot that the table and the stack allow."""
        return min(self.max_ante, (self.stack - self.wager) // PLAY_MULTIPLE)


def with_offers(choices: Choices, limits: OfferedLimits) -> Choices:
    """``choices`` with the server's limits of the moment while bets are open: the Ante's span, the spots free
    to bet on and how many this player may hold."""
    if choices.kind != "bets":
        return choices
    low, high = limits.ante or (choices.min_ante, choices.max_ante)
    return replace(choices, min_ante=max(low, 1), max_ante=high,
                   free=choices.free if limits.free is None else limits.free,
                   hold=choices.hold if limits.hold is None else limits.hold)


def legal_choices(snapshot: Mapping[str, Any]) -> Choices:
    """What this client may do now, read from a snapshot."""
    seat = my_seat(snapshot)
    hand = snapshot.get("hand") or {}
    phase = hand.get("phase")
    stack = my_stack(snapshot)
    base = Choices(stack=stack, seated=seat is not None, between_hands=not hand_active(snapshot),
                   offers=read_offers(snapshot) if "choices" in snapshot else None)
    if seat is None or base.between_hands:
        return base
    if phase == "betting" and bettor(hand, seat):
        return _bet_choices(base, snapshot, seat)
    turn = hand.get("turn") or {}
    if phase == "decisions" and turn.get("seat") == seat:
        spot = int(turn["spot"])
        entry: Mapping[str, Any] = next((s for s in hand.get("spots") or [] if s.get("spot") == spot), {})
        return replace(base, kind="decision", spot=spot, ante=int(entry.get("ante", 0)),
                       cards=tuple(entry.get("cards") or ()), cls=str(entry.get("class", "")))
    return base


def _bet_choices(base: Choices, snapshot: Mapping[str, Any], seat: int) -> Choices:
    settings = snapshot.get("settings") or {}
    table = open_bets(snapshot, seat, "spot")
    wager = int(settings.get("jackpot_wager", 0)) if settings.get("jackpot") else 0
    max_hands = int(settings.get("max_hands", 1))
    return replace(base, kind="bets", spots=table.count, free=table.free, taken=table.taken,
                   max_hands=max_hands, hold=table.hold(max_hands), waiting=table.waiting, passed=table.passed,
                   min_ante=int(settings.get("min_ante", 1)),
                   max_ante=int(settings.get("max_ante", 1)), wager=wager,
                   placed=tuple(SpotBet(int(b["spot"]), int(b["ante"]), bool(b.get("jackpot"))) for b in table.mine),
                   confirmed=table.confirmed, rebet=offered(snapshot, "rebet"))


def bets_text(bets: Sequence[SpotBet]) -> str:
    """``spot 1 ante 10 +jackpot, spot 3 ante 5``."""
    return ", ".join(f"spot {b.spot} ante {b.ante}" + (" +jackpot" if b.jackpot else "") for b in bets)


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
            return (f"Bets are open, but your stack of {c.stack} cannot cover 3x the smallest Ante ({c.min_ante}): "
                    f"pass")
        jackpot = f", j = jackpot {c.wager}" if c.wager else ""
        return (f"Bets are open: bet SPOT:ANTE[j], up to {c.hold} of spots {places_text(c.free, c.spots)}, "
                f"Ante {c.min_ante}-{c.top_ante}{jackpot}; {'or rebet, ' if c.rebet else ''}or pass")
    if c.kind == "decision":
        return (f"Your turn on spot {c.spot} ({class_label(c.cls)}): play (p) = Back Bet {2 * c.ante}, "
                f"or fold (f) = lose the Ante {c.ante}")
    return None
