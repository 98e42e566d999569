"""Bots: each its own account and connection, playing a strategy for N hands.

``basic`` plays the rules core's strategy (:func:`server.rules.hcf.strategy.basic_raise`,
the simulator's rule) on the table's smallest Ante; ``random`` takes random legal
actions within the limits and its stack, bonus bets included, and declines the
bank at most one time in ten; ``stubborn`` never answers, so the clocks decide.

At a Caribbean Stud or 6 Card Poker table (the snapshot's ``game``) the same
strategies play that game through :mod:`client_cli.games`: ``basic`` bets one spot
or box at the smallest Ante (or ``--ante``) and plays the rules core's strategy
(Caribbean: Play A-K or better, the jackpot wager on; 6 Card Poker: raise a pair or
better, never draw, ask for the dealer exchange with three of a kind or better);
``random`` takes random legal moves there too: several spots or boxes (no more than
the table's ``max_hands_while_waiting`` while another player has not bet or passed),
Re-Bet and Clear, buys, exchanges and dealer-exchange requests. A bot deals at once,
and passes a hand it does not bet on: betting stays open until every player has
dealt or passed (or its clock runs out), so a fast bot never closes it on a person.

Every bot acts on the choices its table model carries (protocol v2: each update
brings them, docs/protocol.md section 3): it picks among the offered moves, within
their ranges, by its strategy, and sends nothing else; it never asks for a
snapshot during play. A ``rate/limited`` refusal is retried by the connection
after the delay it gives, and is never counted as an error.

Bots buy in the table's ``max_buy_in`` (or what their balance allows) and top up
between hands when below ``min_bank`` (``min_buy_in`` at the house-banked games), so
a table of bots always finds a DP. A bot that reaches its hands keeps playing until
every bot has (so a bot that sat down late does not leave the others waiting for a
table), then all stand up.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from client_cli.bot import Bot
from client_cli.bot_choices import choose_bank, choose_bets, choose_raise
from client_cli.bot_team import STRATEGIES, BotOptions, BotReport, RunReport, StrategyName, Team, bot_names
from client_cli.store import TokenStore
from server.i18n import _


async def run_bots(options: BotOptions, store: TokenStore | None = None,
                   stop: asyncio.Event | None = None,
                   progress: Callable[[str], None] | None = None) -> RunReport:
    """Run the bots until each has played ``options.hands`` hands (or time runs out, or ``stop``)."""
    names = bot_names(options)
    team = Team(names, options.hands)
    master = random.Random(options.seed)
    store = store or TokenStore()
    bots = [Bot(name, options, team, store, random.Random(master.random())) for name in names]
    timeout = options.timeout if options.timeout is not None else max(300.0, 120.0 * options.hands)
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    stopper = asyncio.create_task((stop or asyncio.Event()).wait())
    started = time.monotonic()
    done, _pending = await asyncio.wait({stopper, asyncio.create_task(team.all_done.wait())}, timeout=timeout,
                                 return_when=asyncio.FIRST_COMPLETED)
    timed_out = not done
    if not team.all_done.is_set():
        team.all_done.set()  # stop every bot: they stand up and report
    stopper.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if timed_out:
        for bot in bots:
            if not bot.report.finished:
                bot.report.errors.append(_("timed out after {seconds} s", seconds=f"{time.monotonic() - started:.0f}"))
    if progress is not None:
        progress(_("{n} hands played", n=len(team.hand_ids)))
    return RunReport(len(team.hand_ids), [b.report for b in bots], timed_out)


__all__ = ["STRATEGIES", "Bot", "BotOptions", "BotReport", "RunReport", "StrategyName", "Team", "bot_names",
           "choose_bank", "choose_bets", "choose_raise", "run_bots"]
