"""What a run of bots is asked and what it reports: the options, each bot's report, the team that waits for all.

Records and bookkeeping only (:mod:`client_cli.bots` runs the bots, :mod:`client_cli.bot` is one bot).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Final, Literal

StrategyName = Literal["basic", "random", "stubborn"]
STRATEGIES: Final = ("basic", "random", "stubborn")


@dataclass(frozen=True, slots=True)
class BotOptions:
    """What ``hcf bot`` was asked to do."""

    url: str
    _: KW_ONLY  # the counts and the Ante go by name
    table: str = "main"
    count: int = 1
    hands: int = 10
    strategy: StrategyName = "basic"
    fast: bool = False
    prefix: str | None = None
    ante: int | None = None
    timeout: float | None = None
    seed: int | None = None


@dataclass(slots=True)
class BotReport:
    """One bot's result."""

    name: str
    hands: int = 0
    net: int = 0
    errors: list[str] = field(default_factory=list)
    finished: bool = False

    def as_json(self) -> dict[str, Any]:
        """``{"name", "hands", "net"}``."""
        return {"name": self.name, "hands": self.hands, "net": self.net}


class Team:
    """The bots of one run: who has played enough, and the hands they played."""

    def __init__(self, names: list[str], target: int) -> None:
        self.target = target
        self.counts = dict.fromkeys(names, 0)
        self.hand_ids: set[int] = set()
        self.all_done = asyncio.Event()

    def played(self, name: str, hands: int, hand_id: Any) -> None:
        """``name`` has played ``hands`` hands (the last one ``hand_id``)."""
        self.counts[name] = hands
        if isinstance(hand_id, int):
            self.hand_ids.add(hand_id)
        self._check()

    def give_up(self, name: str) -> None:
        """``name`` cannot play on (out of chips, stood up, or failed): do not wait for it."""
        self.counts.pop(name, None)
        self._check()

    def _check(self) -> None:
        if all(n >= self.target for n in self.counts.values()):
            self.all_done.set()


@dataclass(slots=True)
class RunReport:
    """The whole run."""

    hands: int
    bots: list[BotReport]
    timed_out: bool = False

    @property
    def errors(self) -> int:
        """Unexpected errors over every bot."""
        return sum(len(b.errors) for b in self.bots)

    @property
    def ok(self) -> bool:
        """Every bot played its hands without an unexpected error."""
        return not self.timed_out and self.errors == 0 and all(b.finished for b in self.bots)

    def as_json(self) -> dict[str, Any]:
        """``{"hands": N, "bots": [{"name", "hands", "net"}], "errors": N}``."""
        return {"hands": self.hands, "bots": [b.as_json() for b in self.bots], "errors": self.errors}


def bot_names(options: BotOptions) -> list[str]:
    """``PREFIX1`` .. ``PREFIXK`` (a random prefix unless one is given).

    >>> bot_names(BotOptions("http://x", count=2, prefix="fred-"))
    ['fred-1', 'fred-2']
    """
    prefix = options.prefix if options.prefix is not None else f"bot{secrets.token_hex(2)}-"
    return [f"{prefix}{i}" for i in range(1, options.count + 1)]
