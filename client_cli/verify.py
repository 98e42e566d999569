"""Check a finished hand's deal against what this client saw (docs/rules/hcf.md section 6).

Pure: it takes the server's ``hand_revealed`` summary (or a hand from the
history) and the cards this client saw during the hand, and rebuilds the deck
with the documented shuffle of :mod:`server.rules.fairness`:

1. the revealed server seed must hash to the commitment published before the
   bets closed (and that commitment must be the one this client saw then);
2. the deck seed is derived again from the server seed and the player seeds
   (this client's own seed must be among them);
3. the rebuilt deck is dealt one card at a time in ``deal_order``, seven rounds
   (five in Caribbean Stud and 6 Card Poker, whose deal orders name spots or
   boxes, the dealer as 0), and every hand this client saw (its own, the DP's, the hands shown at the
   showdown) must be exactly what that deal gives.

A deck the host arranged is never "verified": it is not a random deal.

>>> from server.rules.fairness import deal_deck
>>> from server.rules.cards import cards_list
>>> seed = bytes(range(32))
>>> commit, deck_seed, deck = deal_deck(seed, [b"mine"])
>>> reveal = {"hand_id": 7, "status": "settled", "arranged": False, "commitment": commit,
...           "server_seed": seed.hex(), "player_seeds": [[2, "mine"]], "deck_seed": deck_seed.hex(),
...           "deal_order": [2, 1]}
>>> hands = deal(deck, [2, 1])
>>> verdict = verify_reveal(reveal, Seen(commitment=commit, my_seat=2, my_seed="mine",
...                                      cards={2: cards_list(hands[2])}))
>>> verdict.ok, verdict.headline
(True, 'hand #7: deal verified (1 hand checked against the revealed seed)')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from server.i18n import _, phrase, spoken
from server.rules.cards import Card, CardError, cards_list, parse_cards
from server.rules.caribbean.hand import deal_hands as caribbean_deal
from server.rules.fairness import derive_deck_seed, player_seed_bytes, shuffled_deck, verify_commitment
from server.rules.hcf.hand import deal_hands
from server.rules.sixcard.hand import deal_boxes

HAND_SIZE: Final = 7
ARRANGED: Final = phrase("arranged deck: not a random deal")
PLACES: Final = {"hcf": "seat", "caribbean": "spot", "sixcard": "box"}
"""What a deal order's numbers name in each game (0 is always the house or dealer)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """What this client saw of one hand before the reveal."""

    commitment: str | None = None
    my_seat: int | None = None
    my_seed: str | None = None
    cards: Mapping[int, Sequence[str]] = field(default_factory=dict)
    """Seat -> the cards seen for it (own hand, the DP's, hands shown)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome: ``ok`` True (verified), False (a problem: warn loudly) or None (nothing to check)."""

    ok: bool | None
    headline: str
    problems: tuple[str, ...] = ()
    arranged: bool = False

    @property
    def lines(self) -> list[str]:
        """The headline and then each problem."""
        return [self.headline, *(f"  - {p}" for p in self.problems)]


def deal(deck: Sequence[Card], order: Sequence[int], game: str = "hcf") -> dict[int, tuple[Card, ...]]:
    """Deal one card at a time in ``order``: seven rounds in High Card Flush (docs/rules/hcf.md section 3.4), five in
    Caribbean Stud and 6 Card Poker, with each game's own dealing function.

    >>> deal(tuple(range(52)), [3, 1])[1]
    (1, 3, 5, 7, 9, 11, 13)
    >>> deal(tuple(range(52)), [2, 0], "sixcard")[0]
    (1, 3, 5, 7, 9)
    """
    if game == "caribbean":
        return dict(caribbean_deal(deck, order))
    if game == "sixcard":
        return dict(deal_boxes(deck, order))
    return dict(deal_hands(deck, order))


def seen_from_reveal(reveal: Mapping[str, Any]) -> dict[int, list[str]]:
    """The cards any spectator saw: the DP's (or dealer's) hand and the hands shown at the showdown.

    A 6 Card Poker box that drew shows its cards after the draw, not as dealt, so it is left out.
    """
    cards: dict[int, list[str]] = {}
    dealer = reveal.get("dealer")
    dealer_cards = reveal.get("dealer_cards")
    if dealer_cards:
        cards[dealer if isinstance(dealer, int) else 0] = list(dealer_cards)
    drew = {int(d["box"]) for d in reveal.get("draws") or [] if isinstance(d, Mapping) and "box" in d}
    for seat, shown in (reveal.get("shown") or {}).items():
        if int(seat) not in drew:
            cards[int(seat)] = list(shown)
    return cards


def verify_reveal(reveal: Mapping[str, Any], seen: Seen) -> Verdict:
    """Check the revealed seed and the deal against what was seen (see the module doc)."""
    number = reveal.get("number")
    hand = _("hand #{number}", number=number if isinstance(number, int) else reveal.get("hand_id"))
    order = [int(s) for s in reveal.get("deal_order") or []]
    if reveal.get("arranged"):
        return Verdict(None, f"{hand}: {spoken(ARRANGED)}", arranged=True)
    if not order:
        return Verdict(None, _("{hand}: no cards were dealt, nothing to verify", hand=hand))
    problems = _seed_problems(reveal, seen)
    deck_seed = None
    if not problems:
        seeds = [player_seed_bytes(str(s)) for _seat, s in reveal.get("player_seeds") or []]
        deck_seed = derive_deck_seed(bytes.fromhex(str(reveal["server_seed"])), seeds)
        if deck_seed.hex() != str(reveal.get("deck_seed", deck_seed.hex())).lower():
            problems.append(_("the deck seed the server revealed is not the one its seeds give"))
    if deck_seed is None:
        return _warn(hand, problems)
    game = str(reveal.get("game") or "hcf")
    if game not in PLACES:  # a game this client does not know: its seed is checked, its deal cannot be
        return Verdict(True, _("{hand}: seed matches the commitment (this client does not know how {game} "
                               "deals: no cards checked)", hand=hand, game=repr(game)))
    dealt = deal(shuffled_deck(deck_seed), order, game)
    checked = 0
    for seat, cards in sorted(seen.cards.items()):
        problem = _compare(seat, cards, dealt, PLACES.get(game, "seat"))
        if problem:
            problems.append(problem)
        else:
            checked += 1
    if problems:
        return _warn(hand, problems)
    if not checked:
        return Verdict(True, _("{hand}: seed matches the commitment (no cards seen to check)", hand=hand))
    if checked == 1:
        return Verdict(True, _("{hand}: deal verified (1 hand checked against the revealed seed)", hand=hand))
    return Verdict(True, _("{hand}: deal verified ({count} hands checked against the revealed seed)", hand=hand,
                           count=checked))


def _seed_problems(reveal: Mapping[str, Any], seen: Seen) -> list[str]:
    problems: list[str] = []
    try:
        server_seed = bytes.fromhex(str(reveal.get("server_seed") or ""))
    except ValueError:
        return [_("the revealed server seed is not hex")]
    if not server_seed:
        return [_("the server did not reveal its seed")]
    published = str(reveal.get("commitment") or "")
    if not verify_commitment(server_seed, published):
        problems.append(_("the revealed server seed does not match the commitment"))
    if seen.commitment is not None and seen.commitment.lower() != published.lower():
        problems.append(_("the commitment changed: {before}… was published before the bets, {after}… with the "
                          "reveal", before=seen.commitment[:12], after=published[:12]))
    if seen.my_seed is not None and seen.my_seat is not None:
        mine = [s for seat, s in reveal.get("player_seeds") or [] if int(seat) == seen.my_seat]
        if mine != [seen.my_seed]:
            problems.append(_("your seed is missing from the player seeds the server used"))
    return problems


def _compare(seat: int, cards: Sequence[str], dealt: Mapping[int, tuple[Card, ...]], place: str) -> str | None:
    who = (_("the house") if seat == 0 else _("spot {seat}", seat=seat) if place == "spot"
           else _("box {seat}", seat=seat) if place == "box" else _("seat {seat}", seat=seat))
    try:
        got = parse_cards(list(cards))
    except CardError as exc:
        return _("{who}: unreadable cards ({error})", who=who, error=exc)
    if seat not in dealt:
        return _("{who} had cards but was not in the deal order", who=who)
    if sorted(got) != sorted(dealt[seat]):
        return _("{who} was shown {shown} but the seed deals {dealt}", who=who, shown=" ".join(cards_list(got)),
                 dealt=" ".join(cards_list(dealt[seat])))
    return None


def _warn(hand: str, problems: list[str]) -> Verdict:
    return Verdict(False, _("WARNING {hand}: DEAL NOT VERIFIED", hand=hand), tuple(problems))
