"""``hcf host``: the host (floor) commands, sent to ``/api/host`` with the host token."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final
from urllib.parse import quote

from client_cli.api import ServerRefused, UnreachableError, http_json, request_json
from client_cli.drill.turns import turn_sentence, who_trains
from client_cli.notes import notes_lines
from client_cli.numbers import percent_text, seconds_text, signed_text
from server.i18n import _, phrase, spoken

ACTIONS = {
    "create-table": "create_table",
    "change-settings": "change_settings",
    "pause": "pause",
    "resume": "resume",
    "remove-player": "remove_player",
    "grant-chips": "grant_chips",
    "declare-dead": "declare_dead",
    "misdeal": "misdeal",
    "shuffler-fault": "shuffler_fault",
    "arrange-deck": "arrange_deck",
    "close": "close_table",
    "show-settings": "show_settings",
    "inject": "inject",
    "drill-report": "drill_report",
    "drill-end": "drill_end",
}


def parse_settings(pairs: Sequence[str], raw_json: str | None = None) -> dict[str, Any]:
    """``key=value`` pairs (values read as JSON when they can be) over a JSON object.

    >>> parse_settings(["min_ante=10", "flush_pays=7: 300, 6: 100", "max_bonus_win=null"])
    {'min_ante': 10, 'flush_pays': '7: 300, 6: 100', 'max_bonus_win': None}
    >>> try:
    ...     parse_settings([], "game=caribbean")
    ... except ValueError as exc:
    ...     print(str(exc)[:62])
    --settings takes one JSON object, like '{"game": "caribbean"}'
    """
    settings: dict[str, Any] = {}
    if raw_json:
        try:
            loaded = json.loads(raw_json)
        except json.JSONDecodeError:
            loaded = None  # said below, in words: not the JSON library's
        if not isinstance(loaded, dict):
            raise ValueError(_("--settings takes one JSON object, like {example}, not {given} "
                               "(--set KEY=VALUE sets one setting)", example="'{\"game\": \"caribbean\"}'",
                               given=repr(raw_json)))
        settings.update(loaded)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(_("--set takes KEY=VALUE, got {given}", given=repr(pair)))
        try:
            settings[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            settings[key.strip()] = value
    return settings


def host_payload(command: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The ``/api/host`` body for a ``hcf host`` subcommand.

    >>> host_payload("declare-dead", {"table": "main", "seat": 3})
    {'action': 'declare_dead', 'table': 'main', 'seat': 3}
    """
    payload: dict[str, Any] = {"action": ACTIONS[command]}
    for key in ("table", "seat", "account", "amount", "cards", "hands", "settings", "kind"):
        value = args.get(key)
        if value is not None:
            payload[key] = value
    return payload


def _value(value: Any) -> str:
    """A setting's value as the host typed it (``--set`` reads JSON).

    >>> _value(None), _value(2.0), _value({"7": 200}), _value("all")
    ('null', '2', '{"7": 200}', 'all')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else json.dumps(value)


def changes_lines(changes: Mapping[str, Any], applied: str | None) -> list[str]:
    """What a settings change does, each setting ``old -> new``, and when.

    >>> changes_lines({"min_ante": {"old": 5, "new": 10}}, "after_hand")
    ['from the next hand (a hand is in play):', '  min_ante 5 -> 10']
    >>> changes_lines({}, "now")
    ['nothing changes: the table has these settings already']
    """
    if not changes:
        return [_("nothing changes: the table has these settings already")]
    head = _("from the next hand (a hand is in play):") if applied == "after_hand" else _("changed now:")
    return [head, *(f"  {key} {_value(c.get('old'))} -> {_value(c.get('new'))}" for key, c in sorted(changes.items()))]


STATUS_WORDS: Final[Mapping[str, str]] = {
    "waiting": phrase("waiting"), "playing": phrase("playing"), "paused": phrase("paused"), "closed": phrase("closed"),
}
"""A table's status (the server's word, the table list's) as ``show-settings`` says it."""


def settings_lines(reply: Mapping[str, Any]) -> list[str]:
    """``show-settings``: every setting of the table, and a change waiting for the hand's end.

    >>> print("\\n".join(settings_lines({"table": "main", "game": "hcf", "status": "playing",
    ...     "settings": {"min_ante": 5, "fee": 1}, "pending": {"fee": {"old": 1, "new": 2}}})))
    table main (hcf, playing)
      fee       1   (2 from the next hand)
      min_ante  5
    """
    settings: Mapping[str, Any] = reply.get("settings") or {}
    pending: Mapping[str, Any] = reply.get("pending") or {}
    width = max((len(k) for k in settings), default=0)
    status = str(reply.get("status"))
    lines = [_("table {table} ({game}, {status})", table=reply.get("table"), game=reply.get("game"),
               status=spoken(STATUS_WORDS[status]) if status in STATUS_WORDS else status)]
    for key in sorted(settings):
        line = f"  {key:<{width}}  {_value(settings[key])}"
        if key in pending:
            line += "   " + _("({value} from the next hand)", value=_value(pending[key].get("new")))
        lines.append(line)
    lines += [f"  {line}" for line in notes_lines(reply.get("notes"))]  # the house rules for the bank, the fees
    drill = reply.get("drill")
    if isinstance(drill, Mapping):
        state = _("over") if drill.get("ended") else _("{n} steps answered", n=drill.get("answered"))
        lines.append("  " + _("drill: {turn}, {mode}, {seconds} s a step, {state}; steps {steps}",
                              turn=turn_sentence(drill), mode=drill.get("mode"), seconds=drill.get("step_seconds"),
                              state=state, steps=", ".join(drill.get("steps") or [])))
    return lines


def seat_hands(seats: Sequence[Sequence[str]], dp: str | None) -> dict[str, str]:
    """``--seat N CARDS`` (repeated) and ``--dp CARDS`` as the server's ``hands``.

    >>> seat_hands([["2", "Ah Kh Qh Jh Th 9h 8h"]], "2c 3c 4c 5c 6c 7c 8c")
    {'2': 'Ah Kh Qh Jh Th 9h 8h', 'dp': '2c 3c 4c 5c 6c 7c 8c'}
    """
    hands = {str(seat): str(cards) for seat, cards in seats}
    if dp:
        hands["dp"] = dp
    return hands


def describe_reply(command: str, reply: Mapping[str, Any]) -> str:
    """A sentence (or a few lines) for what the server answered."""
    details = {k: v for k, v in reply.items() if k != "ok"}
    if command == "create-table":
        return _("created table {name}", name=details.get("table", {}).get("name"))
    if command == "grant-chips":
        return _("granted {chips} chips to {account}: balance {balance}", chips=details.get("granted"),
                 account=details.get("account"), balance=details.get("balance"))
    if command == "change-settings":
        return "\n".join(changes_lines(details.get("changes") or {}, details.get("applied")))
    if command == "show-settings":
        return "\n".join(settings_lines(details))
    if command == "arrange-deck":
        n = details.get("arranged_cards")
        said = _("the next hand is dealt from an arranged deck ({n} cards by seat, the rest random)", n=n) \
            if details.get("by_seat") else _("the next hand is dealt from an arranged deck ({n} cards in dealing "
                                             "order)", n=n)
        return said + ("\n" + _("warning: {warning}", warning=details["warning"]) if details.get("warning") else "")
    if command in ("drill-report", "drill-end"):
        ended = command == "drill-end" or bool(details.get("ended"))
        reports = [details.get("report") or {}, *(details.get("reports") or {}).values()]  # several: each one's too
        return "\n".join(line for report in reports for line in trainer_lines(report, ended=ended))
    sentence = _SAID.get(command)
    return sentence(details) if sentence is not None else _("{command}: done", command=command)


def answer_line(step: Mapping[str, Any]) -> str:
    """One answer as the trainer sees it: what the trainee said, right or not, the right answer, the time.

    >>> answer_line({"n": 3, "hand": 1, "step": "first_card", "given": {"seat": 3}, "answer": {"seat": 2},
    ...              "right": False, "mistake": "wrong", "rule": "RULES 3.4", "seconds": 4.2})
    'hand 1, step 3 (the first card): `first 3` wrong; right: `first 2` (RULES 3.4), 4.2 s'
    """
    from client_cli.drill.grammar import format_answer
    from server.rules.drill.explain import MISTAKE_NAMES, STEP_NAMES

    kind = str(step["step"])
    given = format_answer(kind, step.get("given"))
    mistake = str(step.get("mistake"))
    verdict = _("right") if step.get("right") else spoken(MISTAKE_NAMES.get(mistake) or MISTAKE_NAMES["wrong"])
    named = STEP_NAMES.get(kind, kind.replace("_", " "))
    line = _("hand {hand}, step {n} ({step}): `{given}` {verdict}", hand=step["hand"], n=step["n"], step=named,
             given=given, verdict=verdict)
    if not step.get("right"):
        line += _("; right: `{answer}` ({rule})", answer=format_answer(kind, step["answer"]), rule=step["rule"])
    seconds = step.get("seconds")
    return line + (f", {seconds_text(seconds)}" if isinstance(seconds, int | float) else "")


def trainer_lines(report: Mapping[str, Any], *, ended: bool) -> list[str]:
    """A live drill's report for the trainer: every answer, then the score (docs/drills.md)."""
    from client_cli.drill.screen import report_lines

    if not report.get("total"):
        return [_("no step answered yet; the session is over") if ended else _("no step answered yet")]
    who, table = who_trains(report), report.get("scenario")
    lines = [_("{who} at table {table} (the session is over)", who=who, table=table) if ended
             else _("{who} at table {table} (the session goes on)", who=who, table=table), _("Answers:")]
    lines += [f"  {answer_line(step)}" for step in report.get("steps", [])]
    return lines + report_lines(dict(report), str(report.get("mode")))


_SAID: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "pause": lambda _d: _("the table is paused: no new hand starts (a hand in play plays out)"),
    "resume": lambda _d: _("the table plays on"),
    "remove-player": lambda d: _("seat {seat} stands up now", seat=d.get("seat")) if d.get("removed") == "now"
                               else _("seat {seat} stands up after this hand", seat=d.get("seat")),
    "declare-dead": lambda d: str(d.get("message") or _("that seat's hand is dead: its bets and fee go back")),
    "misdeal": lambda _d: _("misdeal: the hand is void, every bet and fee goes back"),
    "shuffler-fault": lambda _d: _("shuffler fault: the hand is void, every bet and fee goes back"),
    "close": lambda d: "\n".join([_("the table is closed"), *(d.get("settle_up") or {}).get("lines", [])])
                       if d.get("closed") == "now" else _("the table closes after this hand, and its open session "
                       "with it ('hcf host settle-up' then shows its final settle-up)"),
    "inject": lambda d: _("injected {kind} at {seat}: the trainee is asked for the ruling; the table then carries "
                          "out the right one", kind=d.get("injected"), seat=d.get("seat"))
                        if d.get("seat") is not None else _("injected {kind}: the trainee is asked for the ruling; "
                                                             "the table then carries out the right one",
                                                             kind=d.get("injected")),
}
"""A sentence for each command's answer."""


def print_refusal(exc: ServerRefused, as_json: bool) -> int:
    """Print the server's refusal (as the JSON it sent, or one line) and return the exit status 1."""
    if as_json:
        print(json.dumps({"ok": False, "error": {"code": exc.code, "message": exc.message}}))
    else:
        print(_("error: {message}", message=exc.message))
    return 1


async def run_host(url: str, token: str, command: str, args: Mapping[str, Any], as_json: bool) -> int:
    """Send one host command and print the answer."""
    try:
        reply = await http_json("POST", f"{url.rstrip('/')}/api/host", host_payload(command, args), token=token)
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    odds = await fetch_odds(url, str(args.get("table"))) if command in ODDS_AFTER else None
    if as_json:
        print(json.dumps({**reply, "odds": odds} if odds else reply, indent=2))
    else:
        print(describe_reply(command, reply))
        if command in ODDS_AFTER:
            print(describe_odds(odds) if odds else _("odds: still being worked out; see hcf-server analyze "
                                                       "--table {table}", table=args.get("table")))
    return 0


ODDS_AFTER = ("create-table", "change-settings")
ODDS_TIMEOUT = 10.0
"""How long a host waits for the odds after a change: an analysis not in the cache may take a minute or more
(docs/odds.md), and the table is already made; the lobby shows them once they are known."""
_BETS = {"ante_raise": phrase("Ante+Raise"), "flush_bonus": phrase("Flush bonus"),
         "straight_flush_bonus": phrase("Straight Flush bonus"), "ante_bet": phrase("Ante+Bet"),
         "jackpot": phrase("jackpot"), "bonus": phrase("bonus")}


async def fetch_odds(url: str, table: str) -> dict[str, Any] | None:
    """The table's odds summary (``GET /api/tables/{name}/odds``), or None if it does not come in time."""
    address = f"{url.rstrip('/')}/api/tables/{quote(table, safe='')}/odds"
    try:
        data: Any = await asyncio.to_thread(request_json, "GET", address, None, None, ODDS_TIMEOUT)
    except (ServerRefused, UnreachableError):
        return None
    odds = data.get("odds") if isinstance(data, dict) and data.get("ok") else None
    report = data.get("report") if isinstance(data, dict) else None
    if isinstance(odds, dict) and isinstance(report, dict) and isinstance(report.get("profile"), str):
        odds = {**odds, "profile": report["profile"]}  # a California table's edge is the DP's, not the house's
    return odds if isinstance(odds, dict) else None


STRATEGIES: Final[Mapping[tuple[str, str], str]] = {
    ("hcf", "ante_raise"): phrase("basic strategy"),
    ("caribbean", "ante_bet"): phrase("playing A-K or better"),
    ("sixcard", "ante_bet"): phrase("basic strategy"),
}
"""The play each main bet's figure assumes (docs/odds.md)."""


def describe_odds(odds: Mapping[str, Any]) -> str:
    """One line: each bet's edge, with the play it assumes, the simulated ones marked. At a California table the
    players play against the DP, so the edge is the DP's.

    >>> describe_odds({"game": "caribbean", "house_edge": {"ante_bet": 0.05682, "jackpot": 0.3}})
    'odds: house edge Ante+Bet 5.682% (playing A-K or better), jackpot 30.000%'
    >>> describe_odds({"game": "hcf", "profile": "california", "house_edge": {"ante_raise": 0.027114,
    ...     "ante_raise_optimal": 0.021, "flush_bonus": 0.078072}, "dp_expected_per_hand": {"1": 1.9, "6": 11.45}})
    "odds: the DP's edge Ante+Raise 2.711% (basic strategy; 2.100% with the best play), Flush bonus 7.807%; \
banking: the DP expects +1.90 chips a hand against 1 player, +11.45 against 6 (simulated)"
    """
    game = str(odds.get("game"))
    simulated = set(odds.get("simulated", []))
    edges: Mapping[str, float] = odds.get("house_edge", {})
    parts = []
    for bet, edge in edges.items():
        if bet not in _BETS:
            continue
        notes = [spoken(STRATEGIES[game, bet])] if (game, bet) in STRATEGIES else []
        if bet == "ante_raise" and isinstance(edges.get("ante_raise_optimal"), float):
            notes[-1] += "; " + _("{edge} with the best play", edge=percent_text(edges["ante_raise_optimal"]))
        if bet == "ante_bet" and isinstance(edges.get("ante_bet_best"), float):
            best = percent_text(edges["ante_bet_best"])
            notes[-1] += "; " + _("{edge} with the best play, by the up card", edge=best)
        notes += [_("simulated")] if bet in simulated else []
        parts.append(f"{spoken(_BETS[bet])} {percent_text(edge)}" + (f" ({', '.join(notes)})" if notes else ""))
    california = game == "hcf" and (odds.get("profile") == "california" or "dp_expected_per_hand" in odds)
    said = ", ".join(parts)
    line = _("odds: the DP's edge {parts}", parts=said) if california else _("odds: house edge {parts}", parts=said)
    bank = odds.get("dp_expected_per_hand")
    if isinstance(bank, Mapping) and "1" in bank and "6" in bank:
        line += "; " + _("banking: the DP expects {one} chips a hand against 1 player, {six} against 6 (simulated)",
                         one=signed_text(bank["1"]), six=signed_text(bank["6"]))
    return line


INVITE_COMMANDS = ("invite", "invites", "revoke-invite")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> int:
    """Seconds from ``30m``, ``12h``, ``2d``, ``90s`` or plain seconds; a sentence naming the forms otherwise.

    >>> parse_duration("12h"), parse_duration("30m"), parse_duration("2d"), parse_duration("600")
    (43200, 1800, 172800, 600)
    >>> parse_duration("soon")
    Traceback (most recent call last):
    ...
    ValueError: --expires takes a duration such as 30m, 12h, 2d or plain seconds (600), not 'soon'
    """
    raw = text.strip().lower()
    number, unit = (raw[:-1], raw[-1]) if raw[-1:] in _UNITS else (raw, "s")
    if not number.isascii() or not number.isdigit() or int(number) <= 0:
        raise ValueError(_("--expires takes a duration such as 30m, 12h, 2d or plain seconds (600), not {given}",
                           given=repr(text)))
    return int(number) * _UNITS[unit]


def invite_lines(invites: Sequence[Mapping[str, Any]]) -> list[str]:
    """``hcf host invites``: one line per invite.

    >>> print("\\n".join(invite_lines([{"id": 3, "table": "main", "role": "player",
    ...     "expires_at": "2026-12-02T16:00:00Z", "uses": 5, "used": 2, "revoked": False}])))
    3  main  player  used 2 of 5  expires 2026-12-02T16:00:00Z
    """
    if not invites:
        return [_("no invites")]
    lines = []
    for invite in invites:
        uses = _("used {used} of {uses}", used=invite.get("used"), uses=invite["uses"]) \
            if invite.get("uses") is not None else _("used {used}", used=invite.get("used"))
        state = _("revoked") if invite.get("revoked") else _("expires {at}", at=invite.get("expires_at"))
        lines.append(f"{invite.get('id')}  {invite.get('table')}  {invite.get('role')}  {uses}  {state}")
    return lines


async def run_invites(url: str, token: str, command: str, args: Mapping[str, Any], as_json: bool) -> int:
    """``hcf host invite`` (prints the link), ``invites`` (lists) and ``revoke-invite ID``."""
    base = f"{url.rstrip('/')}/api/invites"
    try:
        if command == "invite":
            body = {"table": args["table"], "role": args["role"], "expires_seconds": args["expires"],
                    "uses": args.get("uses")}
            reply = await http_json("POST", base, body, token=token)
            text = str(reply.get("url"))
        elif command == "invites":
            reply = await http_json("GET", f"{base}?table={quote(str(args['table']), safe='')}", token=token)
            text = "\n".join(invite_lines(reply.get("invites") or []))
        else:
            reply = await http_json("DELETE", f"{base}/{args['invite_id']}", token=token)
            text = _("invite {id} is revoked (a floor token it gave stops working too)", id=reply.get("id"))
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    print(json.dumps(reply, indent=2) if as_json else text)
    return 0


def settle_csv(reply: Mapping[str, Any]) -> str:
    """``settle-up --csv``: a row per person, then a row per payment, for a spreadsheet.

    >>> print(settle_csv({"people": [{"name": "bob", "bought": 100, "cashed": 60, "on_table": 0, "brought": 0,
    ...     "net": -40}], "payments": [{"payer": "bob", "payee": "alice", "amount": 40}]}), end="")
    name,bought in,cashed out,on the table,had before,net
    bob,100,60,0,0,-40
    <BLANKLINE>
    payer,payee,amount
    bob,alice,40
    """
    out = io.StringIO()
    rows = csv.writer(out, lineterminator="\n")
    rows.writerow(["name", "bought in", "cashed out", "on the table", "had before", "net"])
    rows.writerows([p["name"], p["bought"], p["cashed"], p["on_table"], p["brought"], p["net"]]
                   for p in reply.get("people") or [])
    rows.writerows([[], ["payer", "payee", "amount"]])
    rows.writerows([p["payer"], p["payee"], p["amount"]] for p in reply.get("payments") or [])
    return out.getvalue()


async def run_settle_up(url: str, token: str, table: str, day: str | None, as_csv: bool, as_json: bool,
                        session: int | None = None) -> int:
    """``hcf host settle-up``: each person's net for the session and who pays whom (sentences, CSV or JSON)."""
    query = f"?day={quote(day, safe='')}" if day else ""
    query += f"{'&' if query else '?'}session={session}" if session is not None else ""
    try:
        reply = await http_json("GET", f"{url.rstrip('/')}/api/tables/{quote(table, safe='')}/settle-up{query}",
                                token=token)
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    if as_json:
        print(json.dumps(reply, indent=2))
    else:
        print(settle_csv(reply) if as_csv else "\n".join(reply.get("lines") or []), end="" if as_csv else "\n")
    return 0
