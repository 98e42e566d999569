"""``hcf-server simulate --game caribbean``: Caribbean Stud hands by the hundred thousand.

Every player takes one spot and bets, every hand, an Ante of ``min_ante`` chips and
the jackpot wager; the strategy then plays (Back Bet of 2 Antes) or folds. Decks
come from :class:`~server.simulation.decks.DeckStream` and are dealt as the table
deals them: one card at a time to spots 1, 2, ... and the dealer last, five rounds.

Two engines play the same decks and the tests make them agree: :func:`play_reference`
calls :func:`~server.rules.caribbean.settlement.settle` on every hand, and
:func:`play_fast` values hands with numpy lookup tables (a hand's sorted ranks and
whether it is a flush index tables built from :func:`~server.rules.poker.rank5`) and
hands only the rare hands that touch the meter (a straight flush or a royal) to
``settle`` itself, with the meter as it stands at that hand.

>>> tally = simulate(1000, "5eed", "ak", players=2, batch=300)
>>> tally.hands, int(tally.class_counts.sum()), tally.antes, tally.jackpot_wagers
(1000, 3000, 2000, 2000)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from time import perf_counter
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.table import Table

from server.rules.cards import make_card
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import (
    BACK_BET_MULTIPLE,
    HAND_SIZE,
    CaribbeanSettlement,
    SpotWager,
    capped,
    settle,
)
from server.rules.caribbean.strategy import STRATEGIES
from server.rules.poker import CLASSES, class_name, qualifies_ak, rank5
from server.simulation.decks import Decks, DeckStream, random_seed
from server.simulation.progress import dealt, progress_bar

Ints = npt.NDArray[np.int64]

BATCH: Final = 50_000
MAX_PLAYERS: Final = 7
STRATEGY_NAMES: Final = ("ak", "basic", "pair")
ROYAL: Final = CLASSES.index("royal")
STRAIGHT_FLUSH: Final = CLASSES.index("straight_flush")
_CODES: Final = 13**HAND_SIZE
_PLACE: Final = np.array([13**i for i in range(HAND_SIZE)], dtype=np.int64)


@dataclass(frozen=True)
class Lookup:
    """Per-hand tables indexed by ``code + flush * 13**5``; ``code`` is the sorted ranks in base 13."""

    value: Ints
    cls: Ints
    qualifies: npt.NDArray[np.bool_]


@cache
def lookup() -> Lookup:
    """The tables, built once from :func:`rank5` on one hand of each rank multiset (flush or not)."""
    value = np.full(2 * _CODES, -1, dtype=np.int64)
    for ranks in combinations_with_replacement(range(13), HAND_SIZE):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        code = sum(r * 13**i for i, r in enumerate(ranks))
        # Equal ranks sit side by side, so position % 4 gives them distinct suits and no flush.
        value[code] = rank5([make_card(r, i % 4) for i, r in enumerate(ranks)])
        if len(set(ranks)) == HAND_SIZE:
            value[_CODES + code] = rank5([make_card(r, 0) for r in ranks])
    known = value >= 0
    cls = np.full(2 * _CODES, -1, dtype=np.int64)
    qualifies = np.zeros(2 * _CODES, dtype=np.bool_)
    cls[known] = [CLASSES.index(class_name(v)) for v in value[known].tolist()]
    qualifies[known] = [qualifies_ak(v) for v in value[known].tolist()]
    return Lookup(value, cls, qualifies)


@cache
def play_table(strategy: str) -> npt.NDArray[np.bool_]:
    """The strategy's decision for every table index (False where no hand exists)."""
    table = lookup()
    decide = STRATEGIES[strategy]
    plays = np.zeros(2 * _CODES, dtype=np.bool_)
    known = table.value >= 0
    plays[known] = [decide(v) for v in table.value[known].tolist()]
    return plays


@dataclass
class Tally:
    """Running totals in chips (the meter in hundredths) and counts."""

    players: int
    meter: int
    hands: int = 0
    antes: int = 0
    plays: int = 0
    ante_bet_net: int = 0
    jackpot_wagers: int = 0
    jackpot_net: int = 0
    dealer_qualified: int = 0
    resets: int = 0
    class_counts: Ints = field(default_factory=lambda: np.zeros(len(CLASSES), dtype=np.int64))
    awards: Ints = field(default_factory=lambda: np.zeros(len(CLASSES), dtype=np.int64))

    def add_settlement(self, result: CaribbeanSettlement) -> None:
        """Count one hand settled by the rules core (its cards are counted by :meth:`add_cards`)."""
        self.hands += 1
        self.dealer_qualified += result.dealer_qualifies
        self.resets += result.seed_funding > 0
        self.jackpot_wagers += result.jackpot_wagers
        for spot in result.spots:
            self.antes += 1
            self.plays += not spot.folded
            self.ante_bet_net += spot.ante + spot.bet
            self.jackpot_net += spot.jackpot
            if spot.jackpot_award:
                self.awards[CLASSES.index(spot.cls)] += 1
        self.meter = result.meter_after

    def add_cards(self, hands: Sequence[Sequence[int]]) -> None:
        """Count the classes of 5-card hands dealt."""
        for cards in hands:
            self.class_counts[CLASSES.index(class_name(rank5(cards)))] += 1


def deal(decks: Decks, players: int) -> npt.NDArray[np.uint8]:
    """(decks, players + 1, 5) cards: card ``j`` of hand ``h`` is deck card ``j * (players + 1) + h``."""
    hands = players + 1
    return decks[:, : HAND_SIZE * hands].reshape(len(decks), HAND_SIZE, hands).transpose(0, 2, 1)


def spot_wagers(settings: CaribbeanSettings, cards: npt.NDArray[Any], players: int,
                strategy: str) -> list[SpotWager]:
    """One deal's spots as the rules core takes them: each bets ``min_ante`` and the jackpot wager if offered."""
    decide = STRATEGIES[strategy]
    spots = []
    for spot in range(players):
        hand = tuple(int(c) for c in cards[spot])
        spots.append(SpotWager(spot + 1, hand, settings.min_ante, play=decide(rank5(hand)), jackpot=settings.jackpot))
    return spots


def _settle_deal(settings: CaribbeanSettings, cards: npt.NDArray[Any], players: int, strategy: str,
                 tally: Tally) -> None:
    spots = spot_wagers(settings, cards, players, strategy)
    dealer = tuple(int(c) for c in cards[players])
    tally.add_settlement(settle(settings, tally.meter, dealer, spots))


def play_reference(settings: CaribbeanSettings, decks: Decks, players: int, strategy: str, tally: Tally) -> None:
    """Settle every hand with :func:`settle`, one at a time."""
    for cards in deal(decks, players):
        tally.add_cards(cards.tolist())
        _settle_deal(settings, cards, players, strategy, tally)


def play_fast(settings: CaribbeanSettings, decks: Decks, players: int, strategy: str, tally: Tally) -> None:
    """The same totals as :func:`play_reference`, with numpy for every hand that leaves the meter alone."""
    table = lookup()
    cards = deal(decks, players).astype(np.int64)
    ranks = np.sort(cards >> 2, axis=2)
    flush = (cards & 3 == (cards[..., :1] & 3)).all(axis=2)
    index = ranks @ _PLACE + flush * _CODES
    value, cls = table.value[index], table.cls[index]
    tally.class_counts += np.bincount(cls.ravel(), minlength=len(CLASSES))
    pays_meter = (cls[:, :players] >= STRAIGHT_FLUSH).any(axis=1) if settings.jackpot else np.zeros(len(cls), bool)
    normal = ~pays_meter
    _add_plain(settings, tally, value[normal], cls[normal], table.qualifies[index[normal, players]],
               play_table(strategy)[index[normal, :players]], players)
    # The meter matters only to straight flushes and royals: settle those hands in order, each
    # with the meter as the hands before it left it (every other hand only adds its contributions).
    done = 0
    per_hand = players * settings.contribution if settings.jackpot else 0
    for hand in np.flatnonzero(pays_meter).tolist():
        tally.meter += (hand - done) * per_hand
        _settle_deal(settings, cards[hand], players, strategy, tally)
        done = hand + 1
    tally.meter += (len(cards) - done) * per_hand


def _add_plain(settings: CaribbeanSettings, tally: Tally, value: Ints, cls: Ints,
               dealer_qualifies: npt.NDArray[np.bool_], plays: npt.NDArray[np.bool_], players: int) -> None:
    """Hands without a meter award: Ante, Back Bet and fixed jackpot awards, all at once."""
    ante = settings.min_ante
    mine, dealer = value[:, :players], value[:, players:]
    qualified = dealer_qualifies[:, None]
    sign = np.sign(mine - dealer)
    bet_pays = np.array([settings.bet_pay(name) for name in CLASSES], dtype=np.int64)
    ante_result = np.where(qualified, sign * ante, ante)
    bet_win = BACK_BET_MULTIPLE * ante * bet_pays[cls[:, :players]]
    bet_result = np.where(qualified, np.where(sign > 0, bet_win, sign * BACK_BET_MULTIPLE * ante), 0)
    if settings.max_payout is not None:
        wins = (ante_result > 0) & (ante_result + bet_result > settings.max_payout)
        for row, col in zip(*np.nonzero(wins), strict=True):
            ante_result[row, col], bet_result[row, col] = capped(
                settings, int(ante_result[row, col]), int(bet_result[row, col]))
    result = np.where(plays, ante_result + bet_result, -ante)
    tally.hands += len(value)
    tally.antes += result.size
    tally.plays += int(plays.sum())
    tally.ante_bet_net += int(result.sum())
    tally.dealer_qualified += int(dealer_qualifies.sum())
    if settings.jackpot:
        fixed = np.array([_fixed_award(settings, name) for name in CLASSES], dtype=np.int64)
        awards = fixed[cls[:, :players]]
        tally.jackpot_wagers += awards.size
        tally.jackpot_net += int(awards.sum()) - awards.size * settings.jackpot_wager
        tally.awards += np.bincount(cls[:, :players][awards > 0], minlength=len(CLASSES))


def _fixed_award(settings: CaribbeanSettings, name: str) -> int:
    pay = settings.jackpot_pay(name)
    return pay[1] if pay is not None and pay[0] == "chips" else 0


def simulate(hands: int, seed: str, strategy: str, *, players: int = 1, settings: CaribbeanSettings | None = None,
             batch: int = BATCH, reference: bool = False, on_progress: Callable[[int], None] | None = None) -> Tally:
    """Totals over ``hands`` hands dealt from ``seed``, the meter starting at ``jackpot_seed``."""
    settings = settings or CaribbeanSettings()
    stream = DeckStream(seed)
    tally = Tally(players, settings.jackpot_seed * 100)
    engine = play_reference if reference else play_fast
    done = 0
    while done < hands:
        count = min(batch, hands - done)
        engine(settings, stream.take(count), players, strategy, tally)
        done += count
        if on_progress is not None:
            on_progress(done)
    return tally


def report(tally: Tally, settings: CaribbeanSettings, *, strategy: str, seed: str, seconds: float) -> dict[str, Any]:
    """The JSON object of ``simulate --game caribbean --json``: Ante+Back Bet in Antes, the jackpot in chips."""
    ante = settings.min_ante
    antes, wagered = tally.antes, tally.jackpot_wagers * settings.jackpot_wager
    dealt = int(tally.class_counts.sum())
    return {
        "game": "caribbean",
        "hands": tally.hands,
        "players": tally.players,
        "strategy": strategy,
        "seed": seed,
        "unit_chips": ante,
        "settings": settings.as_dict(),
        "ante_bet": {
            "antes": antes,
            "bets": BACK_BET_MULTIPLE * tally.plays,
            "net": tally.ante_bet_net / ante,
            "per_ante": tally.ante_bet_net / (antes * ante) if antes else 0.0,
            "per_wager": tally.ante_bet_net / ((antes + BACK_BET_MULTIPLE * tally.plays) * ante) if antes else 0.0,
            "played_share": tally.plays / antes if antes else 0.0,
        },
        "jackpot": {
            "wagered": wagered,
            "net": tally.jackpot_net,
            "per_unit": tally.jackpot_net / wagered if wagered else 0.0,
            "awards": {name: int(tally.awards[i]) for i, name in enumerate(CLASSES) if tally.awards[i]},
            "resets": tally.resets,
            "meter": tally.meter / 100,
        },
        "hand_class_freq": {name: int(tally.class_counts[i]) / dealt if dealt else 0.0
                            for i, name in enumerate(CLASSES)},
        "dealer_qualified": tally.dealer_qualified / tally.hands if tally.hands else 0.0,
        "seconds": seconds,
        "hands_per_second": tally.hands / seconds if seconds > 0 else 0.0,
    }


def run(args: argparse.Namespace) -> int:
    """Run ``simulate --game caribbean`` from parsed arguments; the exit status."""
    if args.strategy not in STRATEGY_NAMES:
        print(f"hcf-server simulate: --strategy: one of {', '.join(STRATEGY_NAMES)} for caribbean, "
              f"got {args.strategy!r}", file=sys.stderr)
        return 2
    players = 1 if args.players is None else args.players
    if not 1 <= players <= MAX_PLAYERS:
        print(f"hcf-server simulate: --players: 1 to {MAX_PLAYERS} for caribbean (one spot each), got {players}",
              file=sys.stderr)
        return 2
    from server.simulation.command import house_settings

    settings = house_settings(args, CaribbeanSettings)
    if settings is None:
        return 2
    seed = args.seed or random_seed()
    started = perf_counter()
    with progress_bar() as bar:
        tally = simulate(args.hands, seed, args.strategy, players=players, settings=settings,
                         on_progress=dealt(bar, args.hands))
    summary = report(tally, settings, strategy=args.strategy, seed=seed, seconds=perf_counter() - started)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        render(summary, Console())
    return 0


def render(summary: dict[str, Any], console: Console) -> None:
    """The human tables of a :func:`report`."""
    console.print(
        f"[bold]Caribbean Stud[/], {summary['players']} player(s) against the house, strategy "
        f"{summary['strategy']}: {summary['hands']:,} hands in {summary['seconds']:.2f} s "
        f"({summary['hands_per_second']:,.0f}/s), seed {summary['seed']}"
    )
    bets = Table(title=f"Players' results (Ante = {summary['unit_chips']} chips; jackpot in chips)")
    for header in ("bet", "wagered", "net", "return"):
        bets.add_column(header, justify="left" if header == "bet" else "right")
    ante, jackpot = summary["ante_bet"], summary["jackpot"]
    bets.add_row("Ante + Back Bet (per Ante)", f"{ante['antes']:,} Antes", f"{ante['net']:+,.1f} Antes",
                 f"{ante['per_ante']:+.4%}")
    bets.add_row("Ante + Back Bet (per unit bet)", f"{ante['antes'] + ante['bets']:,} Antes",
                 f"{ante['net']:+,.1f} Antes", f"{ante['per_wager']:+.4%}")
    bets.add_row("Jackpot", f"{jackpot['wagered']:,}", f"{jackpot['net']:+,}", f"{jackpot['per_unit']:+.4%}")
    console.print(bets)
    console.print(f"Played {ante['played_share']:.2%} of hands; dealer qualified {summary['dealer_qualified']:.2%}; "
                  f"meter at the end {jackpot['meter']:,.2f} chips after {jackpot['resets']} royal reset(s).")
    classes = Table(title="Every 5-card hand dealt (players' and dealer's)")
    for header in ("class", "share"):
        classes.add_column(header, justify="right")
    for name, share in reversed(summary["hand_class_freq"].items()):
        classes.add_row(name, f"{share:.5%}")
    console.print(classes)
