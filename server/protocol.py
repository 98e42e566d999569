"""The wire contract between the table server and its clients.

Every client request is a Socket.IO event with one JSON object and an
acknowledgement: ``{"ok": true, ...}`` or ``{"ok": false, "error": {"code",
"message"}}``. Codes come from :data:`ERROR_CODES` only. Server pushes carry the
table's sequence number ``seq`` so a client can spot a gap and ask for a
snapshot. Everything a table records reaches each viewer as one ``table_update``
per batch of commands (``server/table/updates.py``). ``docs/protocol.md`` shows every message with an example.

The request models validate at the boundary: anything malformed is refused
before it reaches a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, TypedDict, Unpack

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from server import chat
from server.i18n import phrase, render_text
from server.move_bounds import MOST_ARGS as MOST_ARGS  # a move's bounds, named here for the protocol's readers
from server.move_bounds import bounded as bounded
from server.refusals import explain
from server.rules.errors import Refusal
from server.rules.vocabulary import JSON, AccountId, Answer, ErrorBody, OkReply, RefusalCode, RefusedReply, Reply, Seat

PROTOCOL_VERSION: Final = 2
NAMESPACE: Final = "/"
MAX_REQUEST_BYTES: Final = 4096

# ------------------------------------------------------------ server -> client
# {"table", "from_seq", "seq", "server_time", "events", "view", "patch", "choices"}: one per viewer per batch
EV_UPDATE: Final = "table_update"
EV_REPLACED: Final = "session_replaced"  # this connection was replaced by a newer one
EV_REVOKED: Final = "session_revoked"  # {"message"}: this connection's token was revoked; it is closed
EV_NOTICE: Final = "notice"  # {"level", "message"}: a human-readable notice
EV_CHAT: Final = "chat"  # {"table", "room", "kind", "name", "text", "at"}: a chat line (docs/protocol.md, chat)


# The shapes docs/protocol.md shows, as types (tests/test_protocol_shapes.py checks the docs' examples
# against them). A game's own parts (settings, a hand, an event) stay JSON objects here: each game
# documents its own (docs/games/).


# (Optional keys come from a ``total=False`` subclass: with postponed annotations, Python 3.11's
# TypedDict does not see ``NotRequired``.)

ErrorDetails = ErrorBody
"""The ``error`` of a refusal: a listed code and a sentence for people (the vocabulary's ``ErrorBody``)."""
Refused = RefusedReply
"""A refused request's acknowledgement: it changed nothing (the vocabulary's ``RefusedReply``)."""


class _EventEntry(TypedDict):
    seq: int
    event: JSON


class EventEntry(_EventEntry, total=False):
    """One event of an update, with its sequence number; a private one is marked."""

    private: bool


class Choices(TypedDict):
    """What a viewer may do now, always complete: the seat it concerns, its deadline and each move."""

    seat: Seat | None
    deadline: float | None
    moves: list[JSON]


class TableUpdate(TypedDict):
    """One ``table_update``: a batch's events for one viewer, what changed of its view, its choices."""

    table: str
    from_seq: int
    seq: int
    server_time: float
    events: list[EventEntry]
    view: JSON
    patch: list[list[Any]]  # [path, value] sets, [path] removes
    choices: Choices


class _SeatView(TypedDict):
    seat: Seat
    name: str
    stack: int
    sitting_out: bool
    present: bool
    willing_to_bank: bool
    leaving: bool
    button: bool


class SeatView(_SeatView, total=False):
    """An occupied seat as everyone at the table sees it."""

    away: bool  # the table acts for the player at once (the ``away`` request)


class You(TypedDict):
    """The asking connection's account, seat and sitting out (all null for a spectator)."""

    account: AccountId | None
    seat: Seat | None
    sitting_out: bool | None


class MoveArgs(TypedDict):
    """What one of the game's moves takes: each argument's shape (as the choices write one), the required ones."""

    args: JSON
    required: list[str]


class _TableSnapshot(TypedDict):
    table: str
    game: str
    game_name: str
    game_moves: dict[str, MoveArgs]
    seq: int
    server_time: float
    settings: JSON
    status: Literal["playing", "waiting", "paused", "closed"]
    waiting_reason: Literal["players", "no_bank", "game_ended"] | None
    seats: list[SeatView]
    button: int | None
    hand: JSON | None
    last_hand: JSON | None
    you: You
    arranged_next: bool
    drill: JSON | None
    choices: Choices


class TableSnapshot(_TableSnapshot, total=False):
    """Everything one connection may see of a table now (``join`` and ``snapshot`` answer it)."""

    jackpot_meter: int  # Caribbean Stud only
    jackpot_chips: int
    notes: list[JSON]  # a game's posted house rules and their status, each {"title", "lines", ...} (absent: none)

ERROR_CODES: Final[dict[RefusalCode, str]] = {
    "request/malformed": phrase("the payload is not what this request takes"),
    "request/unknown": phrase("no such request"),
    "request/too_large": phrase("the request is over {most} bytes", most=MAX_REQUEST_BYTES),
    "request/internal": phrase("the server failed on this request; nothing changed"),
    "rate/limited": phrase("too many requests: slow down"),
    "auth/required": phrase("log in first (send the session token when connecting)"),
    "auth/bad_credentials": phrase("wrong name or password"),
    "auth/name_taken": phrase("that name is taken"),
    "auth/bad_name": phrase("a name is 1 to 24 letters or digits of one alphabet, '_', '-' or '.'"),
    "auth/weak_password": phrase("passwords have at least 8 characters"),
    "auth/token_invalid": phrase("the session token is unknown or revoked"),
    "auth/token_expired": phrase("the session token has expired: log in again"),
    "auth/not_host": phrase("only the host may do that"),
    "account/unknown": phrase("no account with that name"),
    "table/unknown": phrase("no such table"),
    "table/exists": phrase("a table with that name exists"),
    "table/closed": phrase("the table is closed"),
    "table/not_joined": phrase("join the table first"),
    "table/hand_in_progress": phrase("that can only be done between hands"),
    "table/moved": phrase("the table moved to another server: send the request again"),
    "table/timeout": phrase("the table did not answer in time: send the request again"),
    "table/unavailable": phrase("no server runs that table now: try again"),
    "seat/taken": phrase("that seat is taken"),
    "seat/no_free_seat": phrase("the table is full"),
    "seat/invalid": phrase("no such seat at this table"),
    "seat/already_seated": phrase("you already have a seat at this table"),
    "seat/not_seated": phrase("you have no seat at this table"),
    "seat/not_in_hand": phrase("that seat takes no part in this hand"),
    "seat/removed": phrase("the host stands you up after this hand: you cannot stay"),
    "seat/not_leaving": phrase("you have not asked to leave this hand"),
    "seat/leave_acted": phrase("your leave already acted on this hand: you stay for the next hands"),
    "buy_in/out_of_range": phrase("the buy-in is outside the table's limits"),
    "ledger/insufficient_funds": phrase("not enough chips"),
    "settings/invalid": phrase("invalid table settings"),
    "phase/wrong": phrase("that cannot be done in this phase of the hand"),
    "turn/not_yours": phrase("it is not your turn"),
    "bet/below_min": phrase("the bet is below the table minimum"),
    "bet/above_max": phrase("the bet is above the table maximum"),
    "bet/bonus_without_ante": phrase("a bonus bet needs an Ante"),
    "bet/insufficient_stack": phrase("your stack cannot cover the bets, the smallest raise and the fee"),
    "bet/not_a_player": phrase("the designated player banks and does not bet"),
    "bet/already_answered": phrase("you already answered this betting round"),
    "bet/bad_seed": phrase("a player seed is text of at most 128 characters"),
    "bet/too_many": phrase("you may bet on no more spots this hand"),
    "bet/others_waiting": phrase("you may hold no more spots or boxes while another player has not bet or passed yet"),
    "bet/confirmed": phrase("your bets are confirmed: clear them first to change them"),
    "bet/none": phrase("you have no bets placed"),
    "bet/no_jackpot": phrase("this table offers no jackpot wager"),
    "bet/no_last_bets": phrase("you have no bets from a last hand to repeat"),
    "bet/ante_ratio": phrase("your largest Ante may be at most the table's ratio times your smallest"),
    "bonus/below_min": phrase("the bonus bet is below the table minimum"),
    "bonus/above_max": phrase("the bonus bet is above the table maximum"),
    "spot/invalid": phrase("no such betting spot at this table"),
    "spot/taken": phrase("another player bets on that spot"),
    "box/invalid": phrase("no such box at this table"),
    "box/taken": phrase("another player bets on that box"),
    "seat/leaving": phrase("you are leaving the table: no more bets this hand"),
    "draw/count": phrase("exchange exactly 1, 2 or 5 cards"),
    "draw/done": phrase("this box has drawn already: raise or fold"),
    "draw/positions": phrase("card positions are distinct numbers of the box's cards"),
    "exchange/continued": phrase("you pressed Continue: your choice is final"),
    "exchange/requested": phrase("that box already asks for the dealer exchange"),
    "exchange/not_requested": phrase("that box does not ask for the dealer exchange"),
    "raise/below_min": phrase("a raise is at least the Ante"),
    "raise/above_limit": phrase("the raise is above your flush's limit"),
    "raise/insufficient_stack": phrase("your stack cannot cover that raise"),
    "clock/stale": phrase("that clock is not running"),
    "hand/over": phrase("the hand is over"),
    "hand/none": phrase("no hand is in progress"),
    "hand/unknown": phrase("no such hand"),
    "settle/invalid": phrase("that hand cannot be settled as given"),
    "cards/invalid": phrase("bad card notation"),
    "server/shutting_down": phrase("the server is shutting down"),
    "drill/off": phrase("no drill runs at this table"),
    "drill/not_trainee": phrase("only the drill's trainee answers its steps"),
    "drill/no_step": phrase("no drill step is asked now"),
    "drill/waiting": phrase("the table waits for the trainee's answer to a drill step"),
    "drill/not_now": phrase("not at this moment of the drill (an irregularity comes between the deal and the first "
                            "decision; an exam's report at its end)"),
    "drill/trainee": phrase("the trainee deals from the dealer's chair and takes no seat"),
    "invite/invalid": phrase("that invite link is not valid"),
    "invite/expired": phrase("that invite link has expired"),
    "invite/revoked": phrase("that invite link was revoked"),
    "invite/used_up": phrase("that invite link has been used as many times as it allows"),
    "invite/unknown": phrase("no such invite"),
    "chat/empty": phrase("a chat line needs some text"),
    "hand/not_allowed": phrase("the host does not let you open this table's replays"),
    "drill/no_certificate": phrase("that session has no certificate: only an exam passed gives one"),
    "chat/too_long": f"a chat line is at most {chat.MAX_CHARS} characters",
    "chat/muted": phrase("the host has muted you at this table"),
}


class Request(BaseModel):
    """Base of client requests: unknown keys and wrong types are refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def check(self) -> None:
        """What the model's fields cannot say (a move's arguments); raises ProtocolError."""


TableName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]
Chips = Annotated[int, Field(ge=0, le=10**9)]
# A seat, spot or box: loose on purpose, the table checks it against its own number and says so.
SeatNo = Annotated[Seat, Field(ge=1, le=1000)]


class TableRequest(Request):
    """Any request about one table."""

    table: TableName


class Join(TableRequest):
    """Watch a table (and receive a snapshot); ``lang`` changes the language of this connection's sentences."""

    lang: Annotated[str, Field(max_length=35, pattern=r"^[A-Za-z0-9_.-]+$")] | None = None


class Sit(TableRequest):
    """Take a seat (a chosen one or the first free) with a buy-in."""

    seat: SeatNo | None = None
    buy_in: Chips | None = None


class TopUp(TableRequest):
    """Add chips from the account to the stack, between hands."""

    amount: Annotated[int, Field(ge=1, le=10**9)]


class SitOut(TableRequest):
    """Sit out of the coming hands (``sitting_out`` true) or come back."""

    sitting_out: bool


class Away(TableRequest):
    """The away switch: the table acts for you at once while ``on`` (docs/protocol.md, away)."""

    on: bool


class WillingToBank(TableRequest):
    """The switch that lets the bank be offered to you."""

    willing: bool


def sent(args: Mapping[str, Any]) -> dict[str, Any]:
    """A move's arguments without what was not sent: a null argument, or an entry's null field.

    >>> sent({"seed": None, "bets": [{"spot": 1, "box": None}]})
    {'bets': [{'spot': 1}]}
    """
    return {k: [{f: v for f, v in e.items() if v is not None} if isinstance(e, Mapping) else e for e in v]
            if isinstance(v, list) else v for k, v in args.items() if v is not None}


MoveName = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_.-]+$")]


class Move(TableRequest):
    """A move in a hand: its ``action`` and ``args``, which the table's game checks (``Game.moves``).

    Any game's move fits here: the request only bounds it (names, at most :data:`MOST_ARGS`
    arguments, values within :func:`bounded`); the game refuses a move it does not have
    or arguments it does not take, in a sentence naming its own moves. The v2 form with
    the arguments beside ``action`` (``{"table", "action": "bet", "ante": 10}``) is read too:
    every key but ``table`` and ``action`` is then an argument.
    """

    action: MoveName
    # The arguments as the game reads them, made once as the move leaves the wire: a null argument (or an entry's
    # null field) is one not sent. Pydantic calls ``sent`` itself: no method of ours only passes them on.
    args: Annotated[dict[MoveName, Any], Field(max_length=MOST_ARGS), AfterValidator(sent)] = \
        Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _flat(cls, data: Any) -> Any:
        """The v2 form: the arguments beside ``action`` gathered into ``args``."""
        if not isinstance(data, dict) or "args" in data:
            return data
        return {**{k: data[k] for k in ("table", "action") if k in data},
                "args": {k: v for k, v in data.items() if k not in ("table", "action")}}

    def check(self) -> None:
        """Refuse an argument whose value is outside what any game's move takes."""
        for name, value in self.args.items():
            bounded(name, value)


class Drill(TableRequest):
    """The trainee's request at a live drill: the step asked now, or the answer to it (docs/drills.md)."""

    action: Literal["question", "answer", "report"]
    answer: Annotated[dict[Annotated[str, Field(max_length=40)], Any], Field(max_length=12)] | None = None


class Chat(TableRequest):
    """A chat line (``text``, judged by server/chat.py) or a quick ``reaction`` (one of ``chat.REACTIONS``)."""

    text: Annotated[str, Field(max_length=2000)] | None = None
    reaction: Annotated[str, Field(max_length=32)] | None = None

    def check(self) -> None:
        """Exactly one of the two."""
        if (self.text is None) == (self.reaction is None):
            raise ProtocolError("request/malformed", "chat: send either text or a reaction")


class HostAction(Request):
    """A host (floor) command; ``action`` names it, the rest are its arguments."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    action: Literal[
        "create_table", "change_settings", "pause", "resume", "remove_player", "grant_chips",
        "declare_dead", "misdeal", "shuffler_fault", "arrange_deck", "close_table", "show_settings",
        "inject", "drill_report", "drill_end", "mute", "unmute", "spectator_chat",
    ]
    table: TableName | None = None
    settings: dict[str, Any] | None = None
    seat: Annotated[Seat, Field(ge=0, le=1000)] | None = None  # 0: the dealer (inject); tables check their seats
    account: Annotated[str, Field(min_length=1, max_length=24)] | None = None
    amount: Annotated[int, Field(ge=1, le=10**9)] | None = None
    cards: Annotated[str, Field(max_length=400)] | None = None
    # arrange_deck by seat: {"2": "Ah Kh ...", "dp": "..."}; the rules work out the dealing order.
    hands: Annotated[dict[Annotated[str, Field(max_length=8)], Annotated[str, Field(max_length=60)]],
                     Field(max_length=10)] | None = None
    # inject (a live drill): the irregularity; a miscount names its seat (spot, box), 0 for the dealer
    kind: Literal["miscount", "shuffler_fault", "none"] | None = None
    shown: bool | None = None  # spectator_chat: whether the seated read the spectators' chat


REQUESTS: Final[dict[str, type[Request]]] = {
    "join": Join,
    "leave_table": TableRequest,
    "snapshot": TableRequest,
    "sit": Sit,
    "stand": TableRequest,
    "top_up": TopUp,
    "sit_out": SitOut,
    "willing_to_bank": WillingToBank,
    "away": Away,
    "leave": TableRequest,
    "stay": TableRequest,
    "move": Move,
    "host": HostAction,
    "drill": Drill,
    "chat": Chat,
}
"""Socket.IO event name -> the payload it takes."""


def error(code: RefusalCode, message: str | None = None, *, retry_after: float | None = None) -> RefusedReply:
    """An ``ok: false`` acknowledgement with a listed code (``rate/limited`` says when to send again)."""
    details: ErrorBody = {"code": code, "message": message or ERROR_CODES[code]}
    if retry_after is not None:
        details["retry_after"] = retry_after
    return {"ok": False, "error": details}


def ok(**fields: Unpack[Answer]) -> OkReply:
    """An ``ok: true`` acknowledgement, with the fields the request answers with (mypy checks each name)."""
    return {"ok": True, **fields}


def said_in(reply: Reply, lang: str) -> Reply:
    """A reply's own sentence (``message``: a sit in mid-hand says why it waits), or the sentence of a refusal
    answered rather than raised (``error.message``), in ``lang``: the gateway's last step."""
    if lang == "en":
        return reply
    if not reply["ok"]:
        reply["error"]["message"] = render_text(reply["error"]["message"], lang)
    elif "message" in reply:
        reply["message"] = render_text(reply["message"], lang)
    return reply


def parse_request(event: str, payload: Any) -> Request:
    """Validate one request; raises ``ProtocolError`` with a code and a sentence."""
    model = REQUESTS.get(event)
    if model is None:
        raise ProtocolError("request/unknown", f"no request named {event!r}")
    if not isinstance(payload, dict):
        raise ProtocolError("request/malformed", f"{event}: the payload must be a JSON object")
    try:
        request = model.model_validate(payload)
    except ValidationError as exc:
        raise ProtocolError("request/malformed", explain(event, exc.errors())) from None
    request.check()
    return request


ProtocolError = Refusal
"""A request refused at the boundary: the one refusal type."""
