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

Bots buy in the table's ``max_buy_in`` (or what their balance allows) and top up
between hands when below ``min_bank`` (``min_buy_in`` at the house-banked games), so
a table of bots always finds a DP. A bot that reaches its hands keeps playing until
every bot has (so a bot that sat down late does not leave the others waiting for a
table), then all stand up.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from client_cli.connection import Connection, ServerRefused, http_json
from client_cli.games import HOUSE_GAMES, Move, client_for
from client_cli.games import sixcard as sixcard_client
from client_cli.parse import my_stack, player_fee
from client_cli.store import TokenStore
from server.rules.cards import parse_cards
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.strategy import basic_raise, should_accept_bank

StrategyName = Literal["basic", "random", "stubborn"]
STRATEGIES: Final = ("basic", "random", "stubborn")
RANDOM_DECLINE: Final = 0.1
"""The random bot declines the bank at most one time in ten."""

EXPECTED: Final = frozenset({
    # Races with the clock or the table, not mistakes: the move came a moment too late.
    "clock/stale", "phase/wrong", "turn/not_yours", "hand/none", "hand/over", "table/hand_in_progress",
    "bet/already_answered", "seat/not_in_hand",
    # An event still queued after the bot stood up (or after a restart it had not yet seen).
    "seat/not_seated",
})
TAKEN: Final = frozenset({"spot/taken", "box/taken", "bet/others_waiting"})
"""Another player took the spot or box a moment before, or went back to choosing: choose again."""
REBET_REFUSALS: Final = frozenset({"bet/no_last_bets", "bet/none", "bet/below_min", "bet/above_max",
                                   "bet/insufficient_stack", "bet/too_many", "bet/ante_ratio", "spot/taken",
                                   "box/taken", "spot/invalid", "box/invalid", "bonus/below_min", "bonus/above_max",
                                   "bet/others_waiting"})
"""Re-Bet refused because last hand's bets no longer fit: the random bot bets afresh instead."""


@dataclass(frozen=True, slots=True)
class BotOptions:
    """What ``hcf bot`` was asked to do."""

    url: str
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


# ------------------------------------------------------------------ decisions (pure)


def choose_bank(strategy: str, rng: random.Random) -> bool | None:
    """Accept (True), decline (False) or say nothing (None) when the bank is offered."""
    if strategy == "stubborn":
        return None
    if strategy == "random":
        return rng.random() >= RANDOM_DECLINE
    return should_accept_bank()


def choose_bets(strategy: str, settings: Mapping[str, Any], stack: int, rng: random.Random,
                ante: int | None = None) -> dict[str, int] | None:
    """The bets to place (None: pass), always within the limits and the stack.

    >>> choose_bets("basic", {"min_ante": 5, "max_ante": 500, "fee_mode": "players", "fee": 1}, 1000,
    ...             random.Random(1))
    {'ante': 5, 'straight_flush_bonus': 0, 'flush_bonus': 0}
    >>> choose_bets("basic", {"min_ante": 5, "max_ante": 500, "fee_mode": "players", "fee": 1}, 10,
    ...             random.Random(1)) is None
    True
    """
    if strategy == "stubborn":
        return None
    fee = player_fee(settings)
    min_ante, max_ante = int(settings["min_ante"]), int(settings["max_ante"])
    top = min(max_ante, (stack - fee) // 2)
    if top < min_ante:
        return None
    if strategy == "basic":
        chosen = min(max(ante or min_ante, min_ante), top)
        return {"ante": chosen, "straight_flush_bonus": 0, "flush_bonus": 0}
    chosen = rng.randint(min_ante, max(min_ante, min(top, stack // 20)))
    bets = {"ante": chosen, "straight_flush_bonus": 0, "flush_bonus": 0}
    min_bonus, max_bonus = int(settings.get("min_bonus", 1)), int(settings.get("max_bonus", 0))
    for key in ("straight_flush_bonus", "flush_bonus"):
        room = stack - fee - 2 * chosen - bets["straight_flush_bonus"] - bets["flush_bonus"]
        if rng.random() < 0.5 and min(max_bonus, room) >= min_bonus:
            bets[key] = rng.randint(min_bonus, min(max_bonus, room))
    return bets


def choose_raise(strategy: str, cards: list[str], ante: int, stack: int, rng: random.Random) -> int | None:
    """Chips to raise (0 folds; None: say nothing), within the flush's limit and the stack.

    >>> choose_raise("basic", ["Ah", "Kh", "Qh", "Jh", "2c", "3d", "4s"], 10, 1000, random.Random(1))
    10
    >>> choose_raise("basic", ["9h", "8h", "7h", "6c", "5c", "4d", "3s"], 10, 1000, random.Random(1))
    0
    """
    if strategy == "stubborn":
        return None
    hand = evaluate(parse_cards(cards))
    top = min(hand.raise_limit * ante, stack)
    if top < ante:
        return 0
    if strategy == "basic":
        wanted = basic_raise(hand, ante)
        return min(wanted, top) if wanted else 0
    if rng.random() < 0.3:
        return 0
    return rng.randint(ante, top)


# ------------------------------------------------------------------ one bot


class Bot:
    """One bot at the table."""

    def __init__(self, name: str, options: BotOptions, team: Team, store: TokenStore,
                 rng: random.Random) -> None:
        self.name, self.options, self.team, self.store, self.rng = name, options, team, store, rng
        self.report = BotReport(name)
        self.conn: Connection | None = None
        self.table = options.table
        self.seat: int | None = None
        self.settings: dict[str, Any] = {}
        self.balance = 0
        self.start_total = 0
        self.cards: dict[int, list[str]] = {}
        self.current: int | None = None
        self.antes: dict[int, int] = {}
        self.leaving = False
        self.stood = asyncio.Event()
        self.game = "hcf"
        self.hand_seats: list[int] = []
        self.refusal: str | None = None
        self.bet_before = False
        self._tasks: set[asyncio.Task[Any]] = set()

    async def run(self) -> BotReport:
        """Sign up, sit, play until the team is done, stand up."""
        try:
            await self._play()
        except Exception as exc:  # every failure is reported in the summary, never raised
            self._error(f"{type(exc).__name__}: {exc}")
        finally:
            if not self.report.finished:
                self.team.give_up(self.name)
            await self._close()
        return self.report

    async def _play(self) -> None:
        token = await self._account()
        info = await http_json("GET", f"{self._url}/api/account", token=token)
        self.balance = int(info["balance"])
        self.start_total = self.balance + int((info.get("stacks") or {}).get(self.table, 0))
        self.conn = Connection(self._url, token=token)
        self.conn.on_reconnect = self._rejoin
        await self.conn.connect()
        snapshot = await self.conn.join(self.table)
        self._take_snapshot(snapshot)
        if self.seat is None and not await self._sit():
            return
        await self._events()
        await self._stand()
        self.report.finished = self.report.hands >= self.options.hands
        if not self.report.finished and not self.report.errors:
            self._error(f"played {self.report.hands} of {self.options.hands} hands")
        with contextlib.suppress(Exception):
            after = await http_json("GET", f"{self._url}/api/account", token=token)
            self.report.net = int(after["balance"]) + int((after.get("stacks") or {}).get(self.table, 0)) \
                - self.start_total

    @property
    def _url(self) -> str:
        return self.options.url.rstrip("/")

    async def _account(self) -> str:
        password = secrets.token_urlsafe(18)
        try:
            reply = await http_json("POST", f"{self._url}/api/register", {"name": self.name, "password": password})
        except ServerRefused as exc:
            if exc.code != "auth/name_taken":
                raise
            token = self.store.token(self._url, self.name, kind="bots")
            if token is None:
                raise RuntimeError(f"the name {self.name} is taken by an account this machine has no token for") \
                    from None
            return token
        token = str(reply["token"])
        with contextlib.suppress(OSError):
            self.store.save(self._url, self.name, token, kind="bots")
        return token

    async def _sit(self) -> bool:
        assert self.conn is not None
        s = self.settings
        buy_in = min(int(s["max_buy_in"]), self.balance)
        if buy_in < int(s["min_buy_in"]):
            self._error(f"only {self.balance} chips: the buy-in is at least {s['min_buy_in']}")
            return False
        reply = await self.conn.call("sit", {"table": self.table, "buy_in": buy_in})
        self.seat = int(reply["seat"])
        self.balance -= buy_in
        return True

    async def _events(self) -> None:
        assert self.conn is not None
        while not self.team.all_done.is_set():
            getter = asyncio.ensure_future(self.conn.events.get())
            done_waiter = asyncio.ensure_future(self.team.all_done.wait())
            await asyncio.wait({getter, done_waiter}, return_when=asyncio.FIRST_COMPLETED)
            done_waiter.cancel()
            if not getter.done():
                getter.cancel()
                break
            try:
                self._handle(getter.result())
            except Exception as exc:  # reported, and the bot plays on
                self._error(f"could not handle {getter.result().get('kind')}: {type(exc).__name__}: {exc}")
            if self.seat is None:
                return

    def _handle(self, item: dict[str, Any]) -> None:
        kind = item.get("kind")
        if kind == "snapshot":  # queued by join: it may predate the sit, so only its settings count
            self.settings = dict(item["snapshot"].get("settings") or self.settings)
            self.game = str(item["snapshot"].get("game") or self.game)
        elif kind == "private":
            event = item.get("event") or {}
            if event.get("type") == "your_cards" and self.current is not None:
                self.cards[self.current] = list(event.get("cards") or [])
        elif kind == "replaced":
            self._error("its session was replaced by another connection")
            self.seat = None
        elif kind == "revoked":
            self._error("its session was logged out (a logout or a password change)")
        elif kind == "gone":  # the server would not take it back after a restart (connection.py)
            self._error(f"the server did not take it back: {item.get('message')}")
            self.seat = None
        elif kind == "table":
            self._table_event(item.get("event") or {})

    def _table_event(self, event: dict[str, Any]) -> None:
        kind, seat = event.get("type"), event.get("seat")
        if isinstance(event.get("hand_id"), int) and kind != "hand_revealed":
            self.current = event["hand_id"]
        strategy = self.options.strategy
        acting = not self.leaving
        if self.game in HOUSE_GAMES and self._house_event(event):
            return
        if kind == "bank_offered" and seat == self.seat and acting:
            self._spawn(self._answer_bank())
        elif kind == "betting_opened" and self.seat in (event.get("bettors") or []) and acting:
            self._spawn(self._bet(event.get("hand_id")))
        elif kind == "turn_started" and seat == self.seat and acting:
            self._spawn(self._decide(event.get("hand_id")))
        elif kind == "hand_revealed":
            self._hand_over(event)
        elif kind == "settings_changed":
            self.settings = dict(event.get("settings") or self.settings)
        elif kind == "player_sat_out" and seat == self.seat and strategy != "stubborn" and acting:
            self._spawn(self._request("sit_out", {"sitting_out": False}))
        elif kind == "player_stood" and seat == self.seat:
            if not self.leaving:
                self._error("was stood up by the table")
            self.seat = None
            self.stood.set()
        elif kind == "table_closed":
            self._error("the table was closed")
            self.seat = None

    def _house_event(self, event: Mapping[str, Any]) -> bool:
        """Start the move a house-banked game's event asks of this bot; True when the event was one of those."""
        kind, seat = event.get("type"), event.get("seat")
        hand_id = event.get("hand_id")
        if kind == "betting_opened":
            self.hand_seats = [int(s) for s in event.get("seats") or []]
            if self.seat in self.hand_seats and not self.leaving:
                self._spawn(self._house_bet(hand_id))
            return True
        if kind == "turn_started":
            if seat == self.seat and not self.leaving:
                self._spawn(self._house_decide(hand_id))
            return True
        if kind == "exchange_opened":
            if self.seat in [owner for _, owner in event.get("boxes") or []] and not self.leaving:
                self._spawn(self._house_exchange())
            return True
        return False

    def _hand_over(self, event: Mapping[str, Any]) -> None:
        names = event.get("names") or {}
        counts = self.options.strategy == "stubborn" or (
            str(self.seat) in names and event.get("status") != "not_dealt")
        if counts:
            self.report.hands += 1
            self.team.played(self.name, self.report.hands, event.get("hand_id"))
        if not self.team.all_done.is_set() and not self.leaving:
            self._spawn(self._top_up())

    # ------------------------------------------------------------ moves

    async def _answer_bank(self) -> None:
        accept = choose_bank(self.options.strategy, self.rng)
        if accept is not None:
            await self._think()
            await self._request("bank", {"accept": accept})

    async def _bet(self, hand_id: Any) -> None:
        snapshot = await self._snapshot()
        if snapshot is None or self.options.strategy == "stubborn" or (snapshot.get("you") or {}).get("seat") is None:
            return
        bets = choose_bets(self.options.strategy, self.settings, my_stack(snapshot), self.rng, self.options.ante)
        await self._think()
        if bets is None:
            await self._request("pass", {})
            return
        if isinstance(hand_id, int):
            self.antes[hand_id] = bets["ante"]
        await self._request("bet", {**bets, "seed": secrets.token_hex(8)})

    async def _decide(self, hand_id: Any) -> None:
        if self.options.strategy == "stubborn":
            return
        snapshot = await self._snapshot()
        if snapshot is None:
            return
        hand = snapshot.get("hand") or {}
        cards = (hand.get("your_cards") or {}).get("cards") or self.cards.get(hand_id or -1)
        ante = int(((hand.get("seats") or {}).get(str(self.seat)) or {}).get("ante", 0))
        if not cards or not ante:
            self._error(f"its turn came without its cards or Ante (hand {hand_id})")
            return
        amount = choose_raise(self.options.strategy, list(cards), ante, my_stack(snapshot), self.rng)
        await self._think()
        if amount:
            await self._request("raise", {"amount": amount})
        elif amount == 0:
            await self._request("fold", {})

    # ------------------------------------------------------------ house-banked games

    async def _house_bet(self, hand_id: Any) -> None:
        """Bet (choosing again when a spot or box was taken a moment before) and Deal, or pass."""
        if self.options.strategy == "stubborn":
            return
        game = client_for({"game": self.game})
        assert game is not None
        await self._think()
        if self.options.strategy == "random" and self.bet_before and self.rng.random() < 0.3 \
                and await self._move(Move("rebet", {"seed": secrets.token_hex(8)}), REBET_REFUSALS) is not None:
            await self._deal_when_ready()
            return
        for _ in range(4):
            snapshot = await self._snapshot()
            if snapshot is None or self.seat is None:
                return
            bets = game.bot_bets(self.options.strategy, game.legal_choices(snapshot), self.rng, self.options.ante,
                                 self.seat)
            if bets is None:
                await self._move(Move("pass"))  # betting is optional: no bet this hand, and nobody waits for it
                return
            reply = await self._move(Move("bet", {"bets": bets, "seed": secrets.token_hex(8)}), TAKEN)
            if reply is not None:
                break
            if self.refusal not in TAKEN:
                return
        else:
            return
        if self.options.strategy == "random" and self.rng.random() < 0.15:
            await self._move(Move("clear"))  # changes its mind once: bets again from scratch
            self._spawn(self._house_bet(hand_id))
            return
        await self._deal_when_ready()

    async def _deal_when_ready(self) -> None:
        """Deal at once: the betting waits for every other player to deal or pass by themselves."""
        if await self._move(Move("deal")) is not None:
            self.bet_before = True

    async def _house_decide(self, hand_id: Any) -> None:
        """The bot's decision on its spot or box in turn (after a 6 Card Poker draw, the decision that follows)."""
        if self.options.strategy == "stubborn":
            return
        game = client_for({"game": self.game})
        assert game is not None
        for _ in range(2):
            snapshot = await self._snapshot()
            if snapshot is None:
                return
            choices = game.legal_choices(snapshot)
            if choices.kind != "decision":
                return
            move = game.bot_decision(self.options.strategy, choices, self.rng)
            if move is None:
                self._error(f"its turn came without its cards (hand {hand_id})")
                return
            await self._think()
            if await self._move(move) is None or move.action not in ("buy", "exchange"):
                return

    async def _house_exchange(self) -> None:
        """6 Card Poker's dealer exchange: ask (or not) for each box in play, then continue."""
        if self.options.strategy == "stubborn":
            return
        snapshot = await self._snapshot()
        if snapshot is None:
            return
        await self._think()
        for move in sixcard_client.choose_asks(self.options.strategy, sixcard_client.legal_choices(snapshot), self.rng):
            if await self._move(move) is None:
                return

    async def _move(self, move: Move, expected: frozenset[str] = frozenset()) -> dict[str, Any] | None:
        return await self._request("move", {"action": move.action, **move.args}, expected)

    # ------------------------------------------------------------ between hands

    async def _top_up(self) -> None:
        snapshot = await self._snapshot()
        if snapshot is None or self.seat is None:
            return
        stack = my_stack(snapshot)
        want = min(int(self.settings["max_buy_in"]) - stack, self.balance)
        # The house-banked games have no bank to hold: their floor is the table's smallest buy-in.
        floor = int(self.settings["min_bank"] if "min_bank" in self.settings else self.settings["min_buy_in"])
        if stack < floor and want > 0 \
                and await self._request("top_up", {"amount": want}) is not None:
            self.balance -= want

    async def _think(self) -> None:
        if not self.options.fast:
            await asyncio.sleep(self.rng.uniform(0.5, 2.0))

    async def _request(self, event: str, payload: dict[str, Any],
                       expected: frozenset[str] = frozenset()) -> dict[str, Any] | None:
        if self.conn is None:
            return None
        self.refusal = None
        try:
            return await self.conn.call(event, {"table": self.table, **payload})
        except ServerRefused as exc:
            self.refusal = exc.code
            if exc.code not in EXPECTED and exc.code not in expected:
                what = f"{event} {payload.get('action')}" if event == "move" else event
                self._error(f"{what} refused: {exc.code}: {exc.message}")
        except Exception as exc:  # a dropped link: the bot reconnects; the clock decides meanwhile
            if self.conn.connected:
                self._error(f"{event} failed: {type(exc).__name__}: {exc}")
        return None

    async def _snapshot(self) -> dict[str, Any] | None:
        reply = await self._request("snapshot", {})
        if reply is None:
            return None
        snapshot: dict[str, Any] = reply["snapshot"]
        self._take_snapshot(snapshot)
        return snapshot

    def _take_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        self.settings = dict(snapshot.get("settings") or self.settings)
        self.game = str(snapshot.get("game") or self.game)
        seat = (snapshot.get("you") or {}).get("seat")
        self.seat = seat if isinstance(seat, int) else None

    async def _rejoin(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.join(self.table)

    async def _stand(self) -> None:
        if self.conn is None or self.seat is None:
            return
        self.leaving = True
        reply = await self._request("leave", {})
        if reply is not None and reply.get("standing") != "now":
            while self.seat is not None:  # wait for the stand-up after the current hand
                try:
                    item = await asyncio.wait_for(self.conn.events.get(), 60)
                except TimeoutError:
                    self._error("did not stand up within a minute of asking to leave")
                    return
                self._handle(item)

    async def _close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _error(self, message: str) -> None:
        self.report.errors.append(message)


# ------------------------------------------------------------------ a run


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
    done, _ = await asyncio.wait({stopper, asyncio.create_task(team.all_done.wait())}, timeout=timeout,
                                 return_when=asyncio.FIRST_COMPLETED)
    timed_out = not done
    if not team.all_done.is_set():
        team.all_done.set()  # stop every bot: they stand up and report
    stopper.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if timed_out:
        for bot in bots:
            if not bot.report.finished:
                bot.report.errors.append(f"timed out after {time.monotonic() - started:.0f} s")
    if progress is not None:
        progress(f"{len(team.hand_ids)} hands played")
    return RunReport(len(team.hand_ids), [b.report for b in bots], timed_out)
