"""The interactive loop of ``hcf play`` and ``hcf watch``.

One task reads the connection's events in table order and feeds the tracker;
the view is the connection's table model (``conn.models[table]``: a snapshot
that every update brings up to date, protocol v2), so no snapshot is asked for
during play, only on join and reconnect (and by the connection after a gap).
Another task redraws the clock. Typed lines are parsed against the choices of
the moment, which never go beyond the server's ``choices``; a line that is not
among them is answered with what is possible now and never sent. Every game
takes the same path: High Card Flush's moves go as ``move`` like the others.
The connection reconnects by itself; on reconnect the table is joined again and
the snapshot carries the player on where they were. Ctrl-C leaves cleanly: standing up between hands, or
asking to leave mid-hand and waiting for the stand-up; ``stay`` takes that back.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import secrets
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from client_cli.away import AWAY_HELP, away_asked, switched_text, your_seat
from client_cli.chat import chat_text
from client_cli.connection import Connection, ServerRefused
from client_cli.games import GameClient, Move, game_client, game_of, known
from client_cli.games.generic import unknown_game_line
from client_cli.leaving import Departure
from client_cli.offers import Offers, check, possible_text, read_offers
from client_cli.parse import SAY_HELP, Help, InputError, Leave, SitOut, Stay, TopUp, WillingToBank, my_seat, said
from client_cli.reasons import stood_text
from client_cli.render import header_line
from client_cli.screen import Screen
from client_cli.terminal import Face, LiveFace
from client_cli.tracker import Tracker, card_words
from server.i18n import _, heard, spoken

TableCommand = SitOut | TopUp | WillingToBank
STOOD_GRACE = 0.5

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """What ``hcf play`` / ``hcf watch`` were asked to do."""

    url: str
    table: str = "main"
    seat: int | None = None
    buy_in: int | None = None
    watch: bool = False


class TableSession:
    """One player (or spectator) at one table, until they leave."""

    def __init__(self, conn: Connection, options: PlayOptions, face: Face) -> None:
        self.conn, self.options, self.face = conn, options, face
        self.table = options.table
        self.tracker = Tracker(symbols=isinstance(face, LiveFace))
        self.done = asyncio.Event()
        self.exit_code = 0
        self.departure = Departure(self)
        self.connected = True
        self.message: str | None = None
        self.help: list[Text] = []
        self.farewell: list[str] = []
        self.last_seat: int | None = None
        """The seat this player last held: a stand-up event may arrive after a snapshot without it."""
        self.printed: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------ lifecycle

    async def run(self) -> int:
        """Join (and sit), then play until leaving; returns the exit status."""
        self.conn.on_reconnect = self._reconnected
        self.conn.on_disconnect = self._dropped
        snapshot = await self.conn.join(self.table)
        if not known(snapshot):  # played from the server's choices alone: say so, never play it as another game
            self.tracker.note(unknown_game_line(game_of(snapshot)))
        if not self.options.watch:
            seat = my_seat(snapshot)
            if seat is None:
                if not await self._sit(snapshot):
                    return self.exit_code
            else:
                self.tracker.note(_("you are back at seat {seat}", seat=seat))
        loop = asyncio.get_running_loop()
        self.face.start(None if self.options.watch else self._line, self._edited)
        loop.add_signal_handler(signal.SIGINT, self.departure.interrupt)
        workers = [asyncio.create_task(self._consume()), asyncio.create_task(self._tick())]
        try:
            await self.done.wait()
        finally:
            self.conn.on_disconnect = self.conn.on_reconnect = None
            loop.remove_signal_handler(signal.SIGINT)
            for task in [*workers, *self._tasks]:
                task.cancel()
            for task in workers:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            self.redraw()
            self.face.say(self.tracker.take_fresh())  # plain output: what came last (live: nothing)
            self.face.stop()
        for line in self.farewell:
            print(line, flush=True)
        return self.exit_code

    def finish(self, code: int, *lines: str) -> None:
        """End the session with ``code``, saying ``lines`` after the view closes."""
        if self.done.is_set():
            return  # already ending: the first reason stands
        self.exit_code = code
        self.farewell.extend(lines)
        self.done.set()

    async def _sit(self, snapshot: dict[str, Any]) -> bool:
        settings = snapshot.get("settings") or {}
        buy_in = self.options.buy_in or int(settings.get("default_buy_in", 0))
        payload: dict[str, Any] = {"table": self.table, "buy_in": buy_in}
        if self.options.seat is not None:
            payload["seat"] = self.options.seat
        try:
            reply = await self.conn.call("sit", payload)
        except ServerRefused as exc:
            self.exit_code = 1
            print(_("error: cannot sit at {table}: {reason}", table=self.table, reason=exc.message), flush=True)
            return False
        sat = _("you sit at seat {seat} with {stack} chips (type 'help' for the commands)",
                seat=reply["seat"], stack=reply["stack"])
        self.tracker.note(sat)
        # Also the status line, until the person types: at a table of fast bots the log scrolls the line away
        # before the live view is first drawn.
        self.message = sat
        if reply.get("message"):  # the server's: a hand in progress goes on without you
            self.tracker.note(str(reply["message"]))
        self.last_seat = int(reply["seat"])
        self.sync()  # the seat in the view at once (the answer's update): a Ctrl-C now must stand up, not just quit
        return True

    # ------------------------------------------------------------ events

    async def _consume(self) -> None:
        while True:
            item = await self.conn.events.get()
            try:
                self._handle(item)
            except Exception as exc:  # one odd message must not freeze the table
                # The person gets a sentence; the details go to the debug log for a bug report.
                _log.debug("message %s could not be shown", item.get("kind"), exc_info=exc)
                self.note(_("this screen could not show the table's last message; the next one brings it up to date"))
            if self.conn.events.empty():
                self._after_burst()

    def _handle(self, item: dict[str, Any]) -> None:
        kind = item.get("kind")
        if kind == "snapshot" and item.get("table") == self.table:
            self.tracker.on_snapshot(copy.deepcopy(item["snapshot"]), time.time(), joined=True)
            self._check_stood()
        elif kind == "table" and item.get("table") == self.table:
            event = item.get("event") or {}
            seat = self.my_seat()
            seat = self.last_seat = seat if seat is not None else self.last_seat
            self.tracker.on_event(event)
            self.departure.seen(event, seat)
            if event.get("type") == "player_leaving" and seat is not None and event.get("seat") == seat \
                    and not self.departure.leaving:  # not this player's own leave: the host's
                self.tracker.note(_("the host stands you up after this hand"))
            if event.get("type") == "player_stood" and seat is not None and event.get("seat") == seat:
                self.stood(int(event.get("cashed_out", 0)), event.get("reason"))
            elif event.get("type") == "table_closed":
                self.finish(0, _("the host closed table {table}", table=self.table))
        elif kind == "private" and item.get("table") == self.table:
            self.tracker.on_private(item.get("event") or {})
        elif kind == "update" and item.get("table") == self.table:
            self.sync()
        elif kind == "replaced":
            self.finish(1, _("this account connected from somewhere else: this client stops here"))
        elif kind == "revoked":
            self.finish(1, str(item.get("message") or _("this session was logged out: log in again")))
        elif kind == "gone":  # the server would not take this client back after it stopped
            self.finish(1, _("the server did not take this client back: {why}", why=item.get("message")))
        elif kind == "notice":
            self.tracker.note(heard(item, "message"))  # a shared sentence, in this client's language
        elif kind == "chat" and item.get("table") == self.table:
            self.tracker.note(chat_text(item))

    def sync(self) -> None:
        """Show the connection's model of the table (every applied update brings it up to date)."""
        model = self.conn.models.get(self.table)
        if model is None:
            return
        # A copy: the tracker marks a hand over on its own, and the model must stay the server's.
        self.tracker.on_snapshot(copy.deepcopy(model), time.time())
        self._check_stood()

    def my_seat(self) -> int | None:
        return my_seat(self.tracker.snapshot or {})

    def _check_stood(self) -> None:
        seat = self.my_seat()
        if seat is not None:
            self.last_seat = seat
        if self.departure.leaving and self.departure.leave_sent and not self.options.watch and self.my_seat() is None:
            self.spawn(self._stood_soon())

    async def _stood_soon(self) -> None:
        # A snapshot without the seat can overtake the player_stood event still queued behind it: that event
        # says how many chips went back, so it gets a moment to be read first.
        await asyncio.sleep(STOOD_GRACE)
        self.stood(None)

    def stood(self, cashed_out: int | None, reason: object = None) -> None:
        asked = self.departure.leaving and reason is None
        self.finish(0, stood_text(reason, cashed_out, self.table, asked=asked))

    # ------------------------------------------------------------ drawing

    @property
    def game(self) -> GameClient:
        """The game played here."""
        return game_client(self.tracker.snapshot or {})

    def offers(self) -> Offers | None:
        """The server's choices for this player now (None: the view carries none)."""
        snapshot = self.tracker.snapshot
        return read_offers(snapshot) if snapshot is not None and "choices" in snapshot else None

    def choices(self) -> Any:
        """The legal choices now (none while leaving or watching), never more than the server offers."""
        game = self.game
        if self.options.watch or self.tracker.snapshot is None:
            return game.idle(game.choices_now({}))
        choices = game.choices_now(self.tracker.snapshot, self.offers())
        return game.idle(choices) if self.departure.leaving else choices

    def choices_line(self) -> str | None:
        """The line that says what may be typed now."""
        text: str | None = self.game.choices_text(self.choices())
        offers = self.offers()
        if text is None and offers is not None and offers.actions and not self.departure.leaving \
                and not self.options.watch:
            return possible_text(offers)  # moves this client cannot word: named as the server gives them
        return text

    def screen(self) -> Screen:
        """What the live view shows now."""
        verdict = self.tracker.verdict
        status = self.departure.status() if self.departure.asking else self.message or self.departure.status()
        return Screen(
            snapshot=self.tracker.snapshot,
            server_now=self.tracker.server_now(time.time()),
            connected=self.connected,
            log=list(self.tracker.log),
            results=self.tracker.results,
            verdict=verdict.lines if verdict else (),
            verdict_ok=verdict.ok if verdict else None,
            choices=self.choices_line() or (_("watching: Ctrl-C quits") if self.options.watch else None),
            message=status,
            symbols=isinstance(self.face, LiveFace),
            extra=list(self.help),
            body=self._body(isinstance(self.face, LiveFace)),
        )

    def _body(self, symbols: bool) -> list[Text] | None:
        if self.tracker.snapshot is None:
            return None
        lines: list[Text] = self.game.table_lines(self.tracker.snapshot, symbols=symbols)
        return lines

    def redraw(self) -> None:
        """Redraw the live view (plain output prints as things happen instead)."""
        if isinstance(self.face, LiveFace):
            self.face.draw(self.screen())

    def _edited(self) -> None:
        # The last refusal and the help stay on screen until the player types again (issue 23, item 7).
        if isinstance(self.face, LiveFace) and self.face.buffer and not self.departure.asking:
            self.help, self.message = [], None
        self.redraw()

    def _after_burst(self) -> None:
        if isinstance(self.face, LiveFace):
            self.redraw()
            return
        self.face.say(self.tracker.take_fresh())
        snap = self.tracker.snapshot or {}
        hand = snap.get("hand") or {}
        active = hand.get("phase") not in (None, "settled", "void", "not_dealt")
        # Plain lines: the table again when the hand moves to a new phase or this player sees new cards
        # (the log already says whose turn it is).
        seat = self.my_seat()
        seen = [row.get("cards") for row in hand.get("spots") or hand.get("boxes") or [] if row.get("seat") == seat]
        seen.append((hand.get("your_cards") or {}).get("cards"))
        key = (hand.get("hand_id"), hand.get("phase"), str(hand.get("dealer")), str(seen)) if active else "idle"
        if self.printed.get("table") != key:
            self.printed["table"] = key  # between hands too: a watcher of an empty table shows it (and so
            # finds out when nobody reads its output any more)
            self.face.say([header_line(snap, self.tracker.server_now(time.time())), *(self._body(False) or [])])
        text = self.choices_line()
        if text != self.printed.get("choices"):
            self.printed["choices"] = text
            if text:
                self.face.say([f"> {text}"])

    async def _tick(self) -> None:
        live = isinstance(self.face, LiveFace)
        while True:
            await asyncio.sleep(0.25 if live else 1.0)
            self.redraw()
            if getattr(self.face, "closed", False) and not self.departure.leaving:
                self.spawn(self.departure.leave())  # nobody reads the output any more: as at the end of the input
            # A gap in the updates is closed by the connection itself (a snapshot after a short hold).

    # ------------------------------------------------------------ the link

    def _dropped(self) -> None:
        if self.done.is_set():
            return
        self.connected = False
        self.note(_("connection lost: reconnecting…"))
        self.redraw()

    async def _reconnected(self) -> None:
        self.connected = True
        self.note(_("reconnected"))
        await self._rejoin()
        if self.departure.leaving and not self.departure.leave_sent:
            await self.departure.leave()

    async def _rejoin(self) -> None:
        try:
            await self.conn.join(self.table)
        except Exception as exc:  # shown to the player; the next reconnect tries again
            self.note(_("could not rejoin {table}: {why}", table=self.table, why=exc))

    def note(self, line: str) -> None:
        self.tracker.note(line)
        if not isinstance(self.face, LiveFace):
            self.face.say(self.tracker.take_fresh())

    # ------------------------------------------------------------ input

    def _line(self, line: str | None) -> None:
        if self.departure.answer(line):  # the answer to "fold and leave?"
            self.redraw()
            return
        if line is None:
            self.spawn(self.departure.leave())
            return
        self.help = []
        if (text := said(line)) is not None:  # chat goes to the table's room, not the hand
            self.spawn(self._say(text))
            return
        if (on := away_asked(line, self.tracker.snapshot)) is not None:
            self.spawn(self._away(on))
            if on or not your_seat(self.tracker.snapshot).get("sitting_out"):  # 'back' also ends a sit-out
                self.redraw()
                return
        game = self.game
        result = game.parse_line(line, self.choices())
        offers = self.offers()
        if isinstance(result, InputError):
            # Not among the choices now: say what is.
            extra = f" {possible_text(offers)}" if result.not_now and offers is not None else ""
            self.say_message(result.message + ("." if extra else "") + extra)
        elif isinstance(result, Help):
            self.help = [Text(h) for h in [*spoken(game.help).splitlines(), spoken(AWAY_HELP), spoken(SAY_HELP)]]
            if not isinstance(self.face, LiveFace):
                self.face.say(self.help)
            self.message = None
        elif isinstance(result, Leave):
            self.spawn(self.departure.leave())
        elif isinstance(result, Stay):
            self.spawn(self.departure.stay())
        else:
            event, args = self._request(result)
            try:
                problem = check(offers, event, args) if offers is not None else None
            except Exception:  # an item this client cannot read must not swallow the line: the server judges it
                problem = None
            if problem is not None:
                self.say_message(problem)  # never sent: the server does not offer it now
            else:
                self.message = None
                self.spawn(self._send(result, event, args))
        self.redraw()

    def say_message(self, text: str | None) -> None:
        self.message = text
        if text and not isinstance(self.face, LiveFace):
            self.face.say([f"! {text}"])

    async def _send(self, command: Move | TableCommand, event: str, args: dict[str, Any]) -> None:
        if isinstance(command, Move):
            args = self._seeded(command, args)
        try:
            await self.conn.call(event, {"table": self.table, **args})
        except ServerRefused as exc:
            self.say_message(_("refused: {why}", why=exc.message))
        except Exception:  # the link is down; say so, the player can try again
            self.say_message(_("not sent: the connection is down (reconnecting)"))
        else:
            if isinstance(command, Move):
                self._moved(command)
            self.sync()  # the answer's update is applied by now
            self._after_burst()
        self.redraw()

    async def _away(self, on: bool) -> None:
        try:
            await self.conn.call("away", {"table": self.table, "on": on})
        except ServerRefused as exc:
            self.say_message(_("refused: {why}", why=exc.message))
        except Exception:  # the link is down; say so, the player can try again
            self.say_message(_("not sent: the connection is down (reconnecting)"))
        else:
            self.say_message(switched_text(on))
            self.sync()
        self.redraw()

    async def _say(self, text: str) -> None:
        try:  # a refusal is said at once (a flood waits seconds): no retry, unlike a move
            reply = await self.conn.raw_call("chat", {"table": self.table, "text": text})
        except Exception:
            reply = {"error": {"message": _("the connection is down (reconnecting)")}}
        if not (isinstance(reply, dict) and reply.get("ok")):
            error = reply.get("error") if isinstance(reply, dict) else None
            self.say_message(_("not said: {why}", why=(error or {}).get("message", _("the server did not answer"))))
        self.redraw()

    def _seeded(self, move: Move, args: dict[str, Any]) -> dict[str, Any]:
        # Bets carry a seed of the player's own (docs/rules/hcf.md section 6); Caribbean's Re-Bet keeps the one given.
        if move.action == "bet" or (move.action == "rebet" and self.tracker.game == "sixcard"):
            seed = secrets.token_hex(16)
            seat = self.my_seat()
            if seat is not None:
                self.tracker.note_bet(self.tracker.current, seat, seed)
            return {**args, "seed": seed}
        return args

    def _moved(self, move: Move) -> None:
        if move.action == "clear":
            self.tracker.forget_seed(self.tracker.current)
        if move.note:  # its cards (an exchange's) written as the view writes them
            self.note(card_words(move.note, symbols=isinstance(self.face, LiveFace)))

    @staticmethod
    def _request(command: Move | TableCommand) -> tuple[str, dict[str, Any]]:
        """The request a command goes as, and its args (without the table)."""
        if isinstance(command, Move):
            return "move", {"action": command.action, **command.args}
        if isinstance(command, SitOut):
            return "sit_out", {"sitting_out": command.sitting_out}
        if isinstance(command, WillingToBank):
            return "willing_to_bank", {"willing": command.willing}
        assert isinstance(command, TopUp)
        return "top_up", {"amount": command.amount}

    # ------------------------------------------------------------ helpers of the departure

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def play(options: PlayOptions, token: str | None, face: Face) -> int:
    """Connect, join and play (or watch) until leaving; returns the exit status."""
    conn = Connection(options.url, token=token)
    try:
        await conn.connect()
    except Exception as exc:  # reported to the user
        print(_("error: cannot connect to {url}: {why}", url=options.url, why=_why(exc)), flush=True)
        return 1
    try:
        return await TableSession(conn, options, face).run()
    except ServerRefused as exc:
        print(_("error: {why}", why=exc.message), flush=True)
        return 1
    finally:
        with contextlib.suppress(Exception):
            await conn.close()


def _why(exc: BaseException) -> str:
    args: Sequence[Any] = getattr(exc, "args", ())
    return " ".join(str(a) for a in args) or type(exc).__name__
