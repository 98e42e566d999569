"""Leaving a table from the terminal: Ctrl-C, ``leave`` and ``stay`` (issue 14 B.15, issue 23 item 4).

Between hands, Ctrl-C stands the player up. During a hand it asks the table to stand
them up after it; the leave passes their betting or folds their hand when their turn
comes (docs/rules/hcf.md section 4). On the player's own turn that fold would be at
once, so Ctrl-C asks first: ``fold and leave? [y/N]``. ``y`` (or a second Ctrl-C)
says yes; anything else keeps the player in the hand, and nothing is sent. ``stay``
is offered only while it can still take the leave back in this hand: once the leave
has folded or passed the hand, the status says so and names no ``stay``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from client_cli.connection import ServerRefused
from client_cli.reasons import stay_effect
from server.i18n import _, phrase, spoken

if TYPE_CHECKING:
    from client_cli.play import TableSession

QUESTION: Final = phrase("fold and leave? [y/N] (it is your turn; Ctrl-C again means yes)")
YES: Final = frozenset({"y", "yes"})
OVER: Final = frozenset({None, "settled", "void", "not_dealt"})


class Departure:
    """One player's way out of a table: whether they are leaving, and the question Ctrl-C asks on their turn."""

    def __init__(self, session: TableSession) -> None:
        self.session = session
        self.leaving = False
        self.leave_sent = False
        self.asking = False
        """Ctrl-C came on the player's turn: the next line answers ``fold and leave?``."""
        self.acted = False
        """The leave has folded or passed this seat in the hand in progress: ``stay`` cannot undo that."""

    # ------------------------------------------------------------ what the player sees

    def status(self) -> str | None:
        """The status line while asking or leaving (None: nothing to say)."""
        if self.asking:
            return spoken(QUESTION)
        if not self.leaving:
            return None
        if self.acted or not self._in_hand():
            return _("leaving: your hand is folded or passed; you stand up after it (Ctrl-C: quit now)")
        return _("leaving after this hand: 'stay' takes it back; Ctrl-C again quits now")

    def seen(self, event: dict[str, Any], seat: int | None) -> None:
        """Follow the hand: a new hand forgets the last one's leave effect; the leave acting on this seat is noted."""
        if event.get("type") == "hand_started":
            self.acted = False
        elif seat is not None and event.get("seat") == seat and event.get("reason") == "left":
            self.acted = True

    # ------------------------------------------------------------ Ctrl-C and its question

    def interrupt(self) -> None:
        """Ctrl-C: quit now while already leaving; ask on the player's turn; else leave after the hand."""
        s = self.session
        if self.leaving or s.options.watch or s.my_seat() is None:
            s.finish(0 if self.leave_sent or s.options.watch else 130,
                     _("quit: you stand up after this hand") if self.leave_sent else _("quit"))
            return
        if self.asking or not self._my_turn():
            if self.asking:
                self.asking = False
                s.say_message(None)
            s.spawn(self.leave())
            return
        self.asking = True
        s.say_message(spoken(QUESTION))
        s.redraw()

    def answer(self, line: str | None) -> bool:
        """The typed line answers the question, if one is asked (True: it was the answer, and it is handled)."""
        if not self.asking:
            return False
        self.asking = False
        if line is not None and line.strip().lower() in YES:
            self.session.say_message(None)
            self.session.spawn(self.leave())
        else:
            self.session.say_message(_("you keep playing: nothing was folded"))
        return True

    def _my_turn(self) -> bool:
        offers = self.session.offers()
        return offers is not None and offers.has("move", "fold")

    def _in_hand(self) -> bool:
        hand = (self.session.tracker.snapshot or {}).get("hand") or {}
        return hand.get("phase") not in OVER

    # ------------------------------------------------------------ the requests

    async def leave(self) -> None:
        """Ask the table to stand this player up (now between hands, after the hand during one)."""
        s = self.session
        if s.options.watch or s.my_seat() is None:
            s.finish(0, "bye")
            return
        self.leaving = True
        s.redraw()
        offers = s.offers()
        # Between hands the server offers "stand", in a hand "leave": the same request to the table.
        event = "stand" if offers is not None and offers.has("stand") and not offers.has("leave") else "leave"
        try:
            reply = await s.conn.call(event, {"table": s.table})
        except ServerRefused as exc:
            if exc.code == "seat/not_seated":
                s.finish(0, _("you have no seat here any more; bye"))
            else:
                s.say_message(_("could not leave: {why}", why=exc.message))
            return
        except Exception:  # retried when the connection comes back
            s.say_message(_("the server is out of reach: you leave when the connection comes back "
                            "(Ctrl-C again quits at once)"))
            return
        self.leave_sent = True
        if reply.get("standing") == "now":
            s.stood(int(reply.get("cashed_out", 0)))
        else:
            s.note(_("you will stand up after this hand"))

    async def stay(self) -> None:
        """Take a leave back (the server says what that means for the hand in progress)."""
        s = self.session
        if not self.leaving and not self.marked_leaving():
            s.say_message(_("you are not leaving: nothing to take back"))
            return
        if self.leaving and not self.leave_sent:  # the leave never reached the server (the link was down)
            self.leaving = False
            s.note(_("you stay: the leave was never sent"))
            return
        try:
            reply = await s.conn.call("stay", {"table": s.table})
        except ServerRefused as exc:
            s.say_message(_("you cannot stay: {why}", why=exc.message))
            return
        except Exception:  # the link is down; the player may try again
            s.say_message(_("not sent: the connection is down (reconnecting); type 'stay' again"))
            return
        self.leaving = self.leave_sent = False
        s.message = None
        played = reply.get("hand") if isinstance(reply, dict) else None
        s.note(stay_effect(s.tracker.snapshot or {}, played if isinstance(played, str) else None))
        s.sync()
        s.redraw()

    def marked_leaving(self) -> bool:
        """Whether the table shows this seat as leaving (the host may have stood it up)."""
        seat = self.session.my_seat()
        seats = (self.session.tracker.snapshot or {}).get("seats") or []
        return any(e.get("seat") == seat and e.get("leaving") for e in seats)
