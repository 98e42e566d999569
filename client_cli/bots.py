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
import contextlib
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from client_cli.connection import Connection, ServerRefused, http_json
from client_cli.games import HOUSE_GAMES, GameClient, Move, client_for
from client_cli.games import sixcard as sixcard_client
from client_cli.offers import Offer, Offers, check, fit, read_offers
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
    # Our own server asked us to slow down, and the connection's retries ran out: the next update brings
    # the move back (issue 15: never an error).
    "rate/limited",
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

Step = tuple[str, dict[str, Any]]
"""A request the bot sends: its name and args (without the table)."""
TRIES: Final = 3
"""How often a bot sends one move in one phase of a hand before it leaves it to the clock."""


class Bot:
    """One bot at the table: it acts on the choices of each update (protocol v2), never asking for a snapshot."""

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
        self.leaving = False
        self.game = "hcf"
        self.refusal: str | None = None
        self.bet_before = False
        self.tries: dict[tuple[Any, ...], int] = {}
        """(hand, phase, action) -> moves sent: a move refused again and again is left to the clock."""
        self.done_in_hand: dict[Any, set[str]] = {}
        """Hand -> the once-a-hand moves made in it (a random bot's Clear, Re-Bet, exchange plan)."""
        self.plan: list[Move] = []
        self.wake = asyncio.Event()
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
        await self.conn.join(self.table)
        self._take_model()
        if self.seat is None and not await self._sit():
            return
        actor = asyncio.create_task(self._actor())
        self.wake.set()
        try:
            await self._events()
        finally:
            actor.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await actor
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

    @property
    def model(self) -> dict[str, Any]:
        """The connection's model of the table: the snapshot every update brings up to date."""
        if self.conn is None:
            return {}
        model: dict[str, Any] = self.conn.models.get(self.table) or {}
        return model

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
        offer = read_offers(self.model).first("sit")
        s = self.settings
        low, high = (offer.range("buy_in") if offer else None) or (int(s["min_buy_in"]), int(s["max_buy_in"]))
        buy_in = min(high, self.balance)
        if buy_in < low:
            self._error(f"only {self.balance} chips: the buy-in is at least {low}")
            return False
        reply = await self.conn.call("sit", {"table": self.table, "buy_in": buy_in})
        self.seat = int(reply["seat"])
        self.balance -= buy_in
        self._take_model()
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
        if kind in ("snapshot", "update") and item.get("table", self.table) == self.table:
            self._take_model()
            self.wake.set()
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

    def _table_event(self, event: Mapping[str, Any]) -> None:
        kind, seat = event.get("type"), event.get("seat")
        if kind == "hand_revealed":
            self._hand_over(event)
        elif kind == "player_stood" and seat == self.seat:
            if not self.leaving:
                self._error("was stood up by the table")
            self.seat = None
        elif kind == "table_closed":
            self._error("the table was closed")
            self.seat = None

    def _hand_over(self, event: Mapping[str, Any]) -> None:
        names = event.get("names") or {}
        counts = self.options.strategy == "stubborn" or (
            str(self.seat) in names and event.get("status") != "not_dealt")
        if counts:
            self.report.hands += 1
            self.team.played(self.name, self.report.hands, event.get("hand_id"))
        hand_id = event.get("hand_id")
        for key in [k for k in self.tries if k[0] == hand_id]:
            del self.tries[key]
        self.done_in_hand.pop(hand_id, None)

    def _take_model(self) -> None:
        model = self.model
        self.settings = dict(model.get("settings") or self.settings)
        self.game = str(model.get("game") or self.game)
        if model:
            seat = (model.get("you") or {}).get("seat")
            self.seat = seat if isinstance(seat, int) else None

    # ------------------------------------------------------------ acting on the choices

    async def _actor(self) -> None:
        """Each time the model changes: one step from the choices, if the strategy takes one."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            if self.leaving or self.team.all_done.is_set():
                continue
            try:
                step = self._next_step()
            except Exception as exc:  # reported, and the bot plays on (the next update may read better)
                self._error(f"could not choose a move: {type(exc).__name__}: {exc}")
                continue
            if step is None:
                continue
            event, args = step
            if event == "move":
                await self._think()
                offers = read_offers(self.model)
                if check(offers, event, args) is not None:  # it went by while the bot thought
                    self.wake.set()
                    continue
            await self._send(event, args)
            self.wake.set()  # look again at the choices the answer brought

    def _next_step(self) -> Step | None:
        """What the bot does now, from the model's choices (None: nothing)."""
        model = self.model
        offers = read_offers(model)
        if self.seat is None or not offers.items:
            return None
        step = self._hand_step(model, offers) if offers.actions and self.options.strategy != "stubborn" else None
        if step is None:
            step = self._table_step(model, offers)
        if step is None:
            return None
        hand = model.get("hand") or {}
        key = (hand.get("hand_id"), hand.get("phase"), step[0], step[1].get("action"))
        if self.tries.get(key, 0) >= TRIES:
            return None
        if check(offers, *step) is not None:
            return None  # never send what the server does not offer
        self.tries[key] = self.tries.get(key, 0) + 1
        return step

    def _table_step(self, model: Mapping[str, Any], offers: Offers) -> Step | None:
        back = offers.first("sit_out")
        if back is not None and back.limits.get("sitting_out") is False and self.options.strategy != "stubborn":
            return "sit_out", {"sitting_out": False}  # the clock sat it out: it comes back
        top_up = offers.first("top_up")
        if top_up is not None:
            stack = my_stack(model)
            # The house-banked games have no bank to hold: their floor is the table's smallest buy-in.
            floor = int(self.settings["min_bank"] if "min_bank" in self.settings else self.settings["min_buy_in"])
            span = top_up.range("amount")
            want = min(int(self.settings["max_buy_in"]) - stack, self.balance, span[1] if span else self.balance)
            if stack < floor and want > 0 and (span is None or want >= span[0]):
                return "top_up", {"amount": want}
        return None

    def _hand_step(self, model: Mapping[str, Any], offers: Offers) -> Step | None:
        if self.game in HOUSE_GAMES:
            move = self._house_move(model, offers)
            return None if move is None else ("move", {"action": move.action, **move.args})
        return self._hcf_step(model, offers)

    def _hcf_step(self, model: Mapping[str, Any], offers: Offers) -> Step | None:
        strategy = self.options.strategy
        if offers.has("move", "bank"):
            return "move", {"action": "bank", "accept": bool(choose_bank(strategy, self.rng))}
        bet = offers.first("move", "bet")
        if bet is not None:
            return self._hcf_bet(model, offers, bet)
        if offers.has("move", "raise") or offers.has("move", "fold"):
            return self._hcf_decision(model, offers)
        return None

    def _hcf_bet(self, model: Mapping[str, Any], offers: Offers, bet: Offer) -> Step | None:
        ante_span = bet.range("ante")
        limits = dict(self.settings)
        if ante_span is not None:
            limits.update(min_ante=ante_span[0], max_ante=ante_span[1])
        bets = choose_bets(self.options.strategy, limits, my_stack(model), self.rng, self.options.ante)
        if bets is not None:
            for key in ("ante", "straight_flush_bonus", "flush_bonus"):
                if key in bet.limits:
                    bets[key] = fit(bet.limits[key], bets[key]) or 0
            step: Step = ("move", {"action": "bet", **bets, "seed": secrets.token_hex(8)})
            if check(offers, *step) is None:
                return step
        return ("move", {"action": "pass"}) if offers.has("move", "pass") else None

    def _hcf_decision(self, model: Mapping[str, Any], offers: Offers) -> Step | None:
        hand = model.get("hand") or {}
        cards = (hand.get("your_cards") or {}).get("cards")
        span = (offers.first("move", "raise") or Offer("move")).range("amount")
        ante = int(((hand.get("seats") or {}).get(str(self.seat)) or {}).get("ante", 0)) or (span[0] if span else 0)
        if not cards or not ante:
            self._error(f"its turn came without its cards or Ante (hand {hand.get('hand_id')})")
            return ("move", {"action": "fold"}) if offers.has("move", "fold") else None
        amount = choose_raise(self.options.strategy, list(cards), ante, my_stack(model), self.rng)
        if amount and span is not None:
            return "move", {"action": "raise", "amount": fit({"min": span[0], "max": span[1]}, amount)}
        return ("move", {"action": "fold"}) if offers.has("move", "fold") else None

    def _house_move(self, model: Mapping[str, Any], offers: Offers) -> Move | None:
        """A house-banked game's move: bets (choosing again when a spot or box was taken), Deal, the turn, the
        dealer exchange."""
        game = client_for({"game": self.game})
        assert game is not None
        choices = game.choices_now(model, offers)
        hand = model.get("hand") or {}
        done = self.done_in_hand.setdefault(hand.get("hand_id"), set())
        strategy = self.options.strategy
        if choices.kind == "bets":
            return self._house_bets(game, choices, offers, done)
        if choices.kind == "decision":
            move: Move | None = game.bot_decision(strategy, choices, self.rng)
            if move is None:
                self._error(f"its turn came without its cards (hand {hand.get('hand_id')})")
            return move
        if choices.kind == "exchange":
            if "plan" not in done:
                done.add("plan")
                self.plan = sixcard_client.choose_asks(strategy, choices, self.rng)
            return self.plan.pop(0) if self.plan else None
        return None

    def _house_bets(self, game: GameClient, choices: Any, offers: Offers, done: set[str]) -> Move | None:
        random_bot = self.options.strategy == "random"
        if choices.confirmed or choices.passed:
            return None
        if choices.placed:
            if random_bot and "clear" not in done and self.rng.random() < 0.15:
                done.add("clear")
                return Move("clear")  # changes its mind once: bets again from scratch
            return Move("deal")  # at once: the betting waits for every other player to deal or pass
        if "refused" in done:
            return Move("pass")  # its bets did not fit a moment ago: no bet this hand
        if random_bot and self.bet_before and "rebet" not in done and offers.has("move", "rebet") \
                and self.rng.random() < 0.3:
            done.add("rebet")
            rebet = offers.first("move", "rebet")
            # 6 Card Poker's Re-Bet takes a new seed; Caribbean Stud's keeps the one given with the bets.
            return Move("rebet", {"seed": secrets.token_hex(8)} if rebet and "seed" in rebet.limits else {})
        bets = game.bot_bets(self.options.strategy, choices, self.rng, self.options.ante, self.seat)
        if bets is not None:
            move = Move("bet", {"bets": bets, "seed": secrets.token_hex(8)})
            if check(offers, "move", {"action": "bet", **move.args}) is None:
                return move
        return Move("pass")  # betting is optional: no bet this hand, and nobody waits for it

    async def _send(self, event: str, args: dict[str, Any]) -> None:
        expected = TAKEN | REBET_REFUSALS if args.get("action") in ("bet", "rebet") else frozenset()
        reply = await self._request(event, args, expected)
        if reply is None:
            if args.get("action") in ("bet", "rebet") and self.refusal not in TAKEN:
                hand = self.model.get("hand") or {}
                self.done_in_hand.setdefault(hand.get("hand_id"), set()).add("refused")
            return
        if args.get("action") == "deal":
            self.bet_before = True
        elif event == "top_up":
            self.balance -= int(args["amount"])

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
                self._error(f"{what} refused: {exc.message}")
        except Exception as exc:  # a dropped link: the bot reconnects; the clock decides meanwhile
            if self.conn.connected:
                self._error(f"{event} failed: {type(exc).__name__}: {exc}")
        return None

    async def _rejoin(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.join(self.table)

    async def _stand(self) -> None:
        if self.conn is None or self.seat is None:
            return
        self.leaving = True
        offers = read_offers(self.model)
        event = "stand" if offers.has("stand") and not offers.has("leave") else "leave"
        reply = await self._request(event, {})
        if reply is not None and reply.get("standing") != "now":
            while self.seat is not None:  # wait for the stand-up after the current hand
                try:
                    item = await asyncio.wait_for(self.conn.events.get(), 60)
                except TimeoutError:
                    self._error("did not stand up within a minute of asking to leave")
                    return
                self._handle(item)
        elif reply is not None:
            self.seat = None

    async def _close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()

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
