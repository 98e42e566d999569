"""What a simulation plays: the table's settings, how many seats, the bets and the strategy.

The conventions (``docs/simulation.md``): one unit is the table's ``min_ante``; every
player bets an Ante of one unit and one unit on each bonus, every hand; every seat
starts every hand with ``default_buy_in`` chips, so hands are independent. In the
``california`` profile all ``players`` seats are taken, everyone banks in turn and
the button moves one seat per hand, starting at seat 1; in ``standard`` the
``players`` seats play against the house dealer.

>>> s = Scenario.build("california", players=4)
>>> s.unit, s.player_positions, s.hands_dealt, [s.button(i) for i in range(5)]
(5, 3, 4, [1, 2, 3, 4, 1])
>>> [s.seat_at(1, position) for position in range(3)]   # the DP sits at seat 2
[3, 4, 1]
>>> Scenario.build("standard").players, Scenario.build("standard").button(7) is None
(6, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from server.rules.hcf.settings import PROFILES, SEAT_LIMITS, HcfSettings
from server.rules.hcf.settlement import deal_order, pays_fee
from server.simulation.strategies import Strategy, strategy_named

DEFAULT_PLAYERS: Final = {"california": 7, "standard": 6}
"""California: every seat of a full table, the DP included. Standard: six players and the house."""

MAX_RAISE: Final = 3
"""The largest raise, in Antes (a 6- or 7-card flush)."""


class ScenarioError(ValueError):
    """A simulation that cannot be played as asked; the message says why."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A simulated table. Build with :meth:`build`."""

    settings: HcfSettings
    players: int
    strategy: Strategy

    @classmethod
    def build(
        cls,
        profile: str,
        players: int | None = None,
        strategy: str = "basic",
        overrides: Mapping[str, Any] | None = None,
    ) -> Scenario:
        """The profile's default settings (with ``overrides``), ``players`` seats, all taken."""
        if profile not in PROFILES:
            raise ScenarioError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
        count = DEFAULT_PLAYERS[profile] if players is None else players
        low, high = SEAT_LIMITS[profile]
        if profile == "standard":
            low = 1  # one player against the house is a fine simulation; the table still has 2+ seats
        if not low <= count <= high:
            what = "seated players, the DP included" if profile == "california" else "players"
            raise ScenarioError(f"a {profile} table plays {low} to {high} {what}, got {count}")
        try:
            seats = max(count, SEAT_LIMITS[profile][0])
            settings = HcfSettings.from_mapping({**(overrides or {}), "profile": profile, "seats": seats})
            chosen = strategy_named(strategy)
        except ValueError as error:  # SettingsError, or an unknown strategy
            raise ScenarioError(str(error)) from None
        scenario = cls(settings, count, chosen)
        scenario._check_chips()
        return scenario

    def _check_chips(self) -> None:
        s = self.settings
        if not s.min_bonus <= self.unit <= s.max_bonus:
            raise ScenarioError(f"a bonus bet of one unit ({self.unit}) is outside "
                                f"{s.min_bonus}..{s.max_bonus}")
        fee = s.fee if pays_fee(s, dealer=False) else 0
        needed = self.unit * (1 + MAX_RAISE) + 2 * self.unit + fee
        if self.stack < needed:
            raise ScenarioError(f"default_buy_in {self.stack} does not cover a player's largest hand "
                                f"({needed}: Ante, both bonuses, a 3x raise and the fee)")
        dp_fee = s.fee if pays_fee(s, dealer=True) else 0
        if not s.house_banked and self.stack < max(s.min_bank, dp_fee):
            raise ScenarioError(f"default_buy_in {self.stack} is below min_bank {s.min_bank}: "
                                "nobody could bank")

    @property
    def unit(self) -> int:
        """Chips in one unit: the table's ``min_ante``. The Ante and each bonus bet are one unit."""
        return self.settings.min_ante

    @property
    def stack(self) -> int:
        """Chips every seat has at the start of every hand."""
        return self.settings.default_buy_in

    @property
    def house_banked(self) -> bool:
        """True for the ``standard`` profile."""
        return self.settings.house_banked

    @property
    def player_positions(self) -> int:
        """Hands that bet against the dealer (the DP or the house)."""
        return self.players if self.house_banked else self.players - 1

    @property
    def hands_dealt(self) -> int:
        """7-card hands dealt per round: the players' and the dealer's."""
        return self.player_positions + 1

    def button(self, hand_index: int) -> int | None:
        """The DP's seat in hand ``hand_index`` (0-based); None when the house deals."""
        return None if self.house_banked else hand_index % self.players + 1

    def seat_at(self, hand_index: int, position: int) -> int:
        """The seat of the ``position``-th player in dealing order (0 is dealt first)."""
        return deal_order(self.players, self.button(hand_index))[position]
