"""One bot at a table: its account, its seat, and its moves among the choices of each update.

How the strategies play is :mod:`client_cli.bots`'s docstring; the High Card Flush decisions are
:mod:`client_cli.bot_choices`, the house games' :mod:`client_cli.games`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Mapping
from typing import Any, Final

from client_cli.bot_choices import choose_bank, choose_bets, choose_raise
from client_cli.bot_team import BotOptions, BotReport, Team
from client_cli.connection import Connection, ServerRefused, http_json
from client_cli.games import HOUSE_GAMES, GameClient, Move, client_for
from client_cli.games import sixcard as sixcard_client
from client_cli.offers import Offer, Offers, check, fit, read_offers
from client_cli.parse import my_stack
from client_cli.store import TokenStore
from server.i18n import _

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
        self.seated_at = 0
        """The seq of the update that seated the bot: its model says where it sits from that seq on."""
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
        except ServerRefused as exc:  # the server's own sentence (a full table, a closed one...)
            self._error(exc.message)
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
            self._error(_("played {played} of {hands} hands", played=self.report.hands, hands=self.options.hands))
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
                raise RuntimeError(_("the name {name} is taken by an account this machine has no token for",
                                     name=self.name)) from None
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
            self._error(_("only {chips} chips: the buy-in is at least {low}", chips=self.balance, low=low))
            return False
        reply = await self.conn.call("sit", {"table": self.table, "buy_in": buy_in})
        self.balance -= buy_in
        self._take_model()
        self.seat = int(reply["seat"])
        # The model may not show the seat yet: the answer's update can wait behind spectators' updates still on
        # their way (docs/protocol.md section 3). A model older than the answer's says nothing about the seat.
        self.seated_at = int((reply.get("update") or {}).get("seq") or 0)
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
                self._error(_("could not handle {kind}: {error}", kind=getter.result().get("kind"),
                                    error=f"{type(exc).__name__}: {exc}"))
            if self.seat is None:
                return

    def _handle(self, item: dict[str, Any]) -> None:
        kind = item.get("kind")
        if kind in ("snapshot", "update") and item.get("table", self.table) == self.table:
            self._take_model()
            self.wake.set()
        elif kind == "replaced":
            self._error(_("its session was replaced by another connection"))
            self.seat = None
        elif kind == "revoked":
            self._error(_("its session was logged out (a logout or a password change)"))
        elif kind == "gone":  # the server would not take it back after a restart (connection.py)
            self._error(_("the server did not take it back: {message}", message=item.get("message")))
            self.seat = None
        elif kind == "table":
            self._table_event(item.get("event") or {})

    def _table_event(self, event: Mapping[str, Any]) -> None:
        kind, seat = event.get("type"), event.get("seat")
        if kind == "hand_revealed":
            self._hand_over(event)
        elif kind == "player_stood" and seat == self.seat:
            if not self.leaving:
                self._error(_("was stood up by the table"))
            self.seat = None
        elif kind == "table_closed":
            self._error(_("the table was closed"))
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
        if model and int(model.get("seq") or 0) >= self.seated_at:
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
                self._error(_("could not choose a move: {error}", error=f"{type(exc).__name__}: {exc}"))
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
            self._error(_("its turn came without its cards or Ante (hand {hand})", hand=hand.get("hand_id")))
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
                self._error(_("its turn came without its cards (hand {hand})", hand=hand.get("hand_id")))
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
                self._error(_("{what} refused: {message}", what=what, message=exc.message))
        except Exception as exc:  # a dropped link: the bot reconnects; the clock decides meanwhile
            if self.conn.connected:
                self._error(_("{what} failed: {error}", what=event, error=f"{type(exc).__name__}: {exc}"))
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
                    self._error(_("did not stand up within a minute of asking to leave"))
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
