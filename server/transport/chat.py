"""Table chat, the shell: judge a line with server/chat.py, store it, send it through the table's room.

Chat never goes through the table's task or its hand pipeline: a line is checked
here, written to the chat log (persist, then send) and sent to the connections in
the table's Socket.IO room that may read it. A chat event carries only what a
person typed (or the reaction they chose) and who typed it: never a card, never a
view. Only this process's connections hear it (as the rooms go): with several
processes, chat stays with the process the speaker is connected to.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Protocol

import socketio

from server import chat
from server import protocol as p
from server.clock import Clock
from server.i18n import phrase
from server.identity import Identity
from server.rules.errors import Refusal
from server.rules.vocabulary import JSON, AccountId, Reply
from server.table.registry import Tables
from server.transport import edge
from server.transport.rooms import table_room

HISTORY_LINES: Final = 30  # the lines a join brings (what the viewer may read of them)
MOST_FLOOD_RECORDS: Final = 10_000  # (table, account) pairs remembered; beyond, the quiet ones are forgotten


class ChatLog(Protocol):
    """Where a table's chat is kept (server/storage/chat.py)."""

    async def record_chat(self, table: str, *, account: int | None, name: str, room: str, kind: str,
                          text: str) -> JSON:
        """Store one row; the row as it is sent."""
        ...

    async def chat_settings(self, table: str, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
        """The table's host chat settings (kind, subject), oldest first."""
        ...

    async def recent_chat(self, table: str, last: int) -> list[JSON]:
        """The table's last lines and reactions, oldest first."""
        ...


class TableChat:
    """Each table's chat: its state (from the log's host settings), each speaker's flood record, the sending."""

    def __init__(self, sio: socketio.AsyncServer, tables: Tables, log: ChatLog, clock: Clock,
                 account_of: Callable[[str], AccountId | None]) -> None:
        self.sio, self.tables, self.log, self.clock, self.account_of = sio, tables, log, clock, account_of
        self.states: dict[str, chat.ChatState] = {}
        self.floods: dict[tuple[str, AccountId], chat.Flood] = {}

    async def state(self, table: str) -> chat.ChatState:
        """The table's chat state, read from its log the first time."""
        if table not in self.states:
            self.states[table] = chat.replayed(await self.log.chat_settings(table, chat.HOST_KINDS))
        return self.states[table]

    async def say(self, sid: str, identity: Identity, table: str, request: p.Chat) -> Reply:
        """A line or reaction from ``identity``: refused with a sentence, or stored and sent."""
        if identity.account is None or not identity.name:
            raise Refusal("auth/required", phrase("log in to chat (spectators without an account only read)"))
        if not any(s == sid for s, _ in edge.participants(self.sio, table_room(table))):
            raise Refusal("table/not_joined", phrase("join table {table} to chat there", table=table))
        state = await self.state(table)
        chat.check_speaker(state, identity.name)
        text = chat.reaction_line(request.reaction) if request.reaction is not None \
            else chat.checked_line(request.text or "")
        key, now = (table, identity.account), self.clock.monotonic()
        flood = self.floods.get(key, chat.Flood())
        wait = flood.wait(now)
        if wait > 0:
            refusal = chat.flood_refusal(wait)
            return p.error(refusal.code, refusal.message, retry_after=round(wait, 3))
        self._remember(key, flood.sent(now), now)
        room = chat.room_of(await self._is_seated(table, identity.account))
        line = await self.log.record_chat(table, account=identity.account, name=identity.name, room=room,
                                          kind="line" if request.reaction is None else "reaction", text=text)
        await self._send(table, line, room, state)
        return p.ok(line=line)

    async def host(self, table: str, request: p.HostAction) -> JSON:
        """A host's chat setting (mute, unmute, spectator_chat): stored, applied, told to the table."""
        kind, subject, sentence = _setting(request)
        line = await self.log.record_chat(table, account=None, name=subject, room="table", kind=kind, text=sentence)
        self.states[table] = (await self.state(table)).after(kind, subject)
        await self._send(table, line, "table", self.states[table])
        return {"chat": line, "message": sentence}

    async def joined(self, table: str, *, seated: bool) -> JSON:
        """What a joining viewer gets of the chat: the recent lines it may read, the setting, whether it is muted.

        ``seated`` comes from the snapshot the join answers with: asking the table again could wait on another
        process, or on a dead one during a takeover, and hold the join up.
        """
        state = await self.state(table)
        lines = [line for line in await self.log.recent_chat(table, HISTORY_LINES)
                 if chat.reads(_room(line), seated=seated, state=state)]
        return {"lines": lines, "spectators_shown": state.spectators_shown}

    async def _send(self, table: str, line: JSON, room: chat.Room, state: chat.ChatState) -> None:
        if room == "table" or state.spectators_shown:
            await self.sio.emit(p.EV_CHAT, line, to=table_room(table))
            return
        seated = self._seated(table)
        frames: edge.Frames | None = None
        for sid, eio_sid in list(edge.participants(self.sio, table_room(table))):
            account = self.account_of(sid)
            if account is not None and (account in seated if seated is not None
                                        else await self._is_seated(table, account)):
                continue  # a player: the host keeps the spectators' chat from the seated
            frames = frames or edge.encoded(self.sio, p.EV_CHAT, line)
            await edge.send(self.sio, eio_sid, frames)

    def _seated(self, table: str) -> set[AccountId] | None:
        """The accounts seated at a table this process runs (None: another process runs it)."""
        runner = self.tables.runners.get(table)
        return None if runner is None else set(runner.roster.accounts().values())

    async def _is_seated(self, table: str, account: AccountId) -> bool:
        seated = self._seated(table)
        return account in seated if seated is not None else table in await self.tables.seated_names(account)

    def _remember(self, key: tuple[str, AccountId], flood: chat.Flood, now: float) -> None:
        if len(self.floods) >= MOST_FLOOD_RECORDS:  # forget who has been quiet for a whole window
            self.floods = {k: f for k, f in self.floods.items() if f.wait(now) > 0 or k == key}
        self.floods[key] = flood


def _room(line: JSON) -> chat.Room:
    return "spectators" if isinstance(line, dict) and line.get("room") == "spectators" else "table"


def _setting(request: p.HostAction) -> tuple[chat.HostKind, str, str]:
    if request.action == "spectator_chat":
        if request.shown is None:
            raise Refusal("request/malformed", "spectator_chat needs shown: true or false")
        if request.shown:
            return "spectators_shown", "", "The host lets the players read the spectators' chat."
        return "spectators_hidden", "", "The host keeps the spectators' chat from the players."
    if not request.account:
        raise Refusal("request/malformed", f"{request.action} needs the account name of the person")
    if request.action == "mute":
        return "mute", request.account, f"The host muted {request.account}: they cannot chat at this table."
    return "unmute", request.account, f"The host unmuted {request.account}: they may chat again."
