"""``hcf account``: balance and recent chip movements, change the password, log out."""

from __future__ import annotations

import getpass
import json
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from client_cli.api import ServerRefused, http_json
from client_cli.session import log_in
from client_cli.store import TokenStore
from server.i18n import _, phrase, spoken

MOVEMENTS: Final[Mapping[str, str]] = {
    "issue": phrase("chips issued to you"), "redeem": phrase("chips redeemed"), "buy_in": phrase("bought in"),
    "top_up": phrase("topped up"), "cash_out": phrase("your stack came back"), "bet": phrase("a bet"),
    "raise": phrase("a raise"), "fee": phrase("a fee"), "fee_refund": phrase("a fee given back"),
    "refund": phrase("bets given back"), "win": phrase("a win"), "loss": phrase("a loss"),
    "settle": phrase("a settlement"), "jackpot_contribution": phrase("to the jackpot meter"),
    "jackpot_payout": phrase("a jackpot paid"), "jackpot_wager": phrase("a jackpot wager"),
    "jackpot_seed": phrase("the jackpot's seed"), "jackpot_award": phrase("a jackpot award"),
    "draw_fee": phrase("a draw fee"), "exchange_fee": phrase("a dealer exchange fee"),
}
"""Each kind of chip movement (the ledger's), as ``hcf account`` says it."""


def account_lines(info: Mapping[str, Any]) -> list[str]:
    """Balance, stacks at tables and the recent movements, for people.

    >>> account_lines({"name": "ann", "balance": 900, "stacks": {"main": 100},
    ...     "movements": [{"at": 0, "kind": "buy_in", "table": "main", "amount": -100, "memo": ""}]})[3][-26:]
    '    -100  bought in at main'

    """
    lines = [_("{name}: {chips} chips in the account", name=info.get("name"), chips=info.get("balance"))]
    stacks = info.get("stacks") or {}
    if stacks:
        lines.append(_("at tables: {stacks}", stacks=", ".join(f"{t} {n}" for t, n in sorted(stacks.items()))))
    movements = info.get("movements") or []
    if movements:
        lines.append(_("recent movements (newest first):"))
    for m in movements:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(m.get("at", 0))))
        where = " " + _("at {table}", table=m["table"]) if m.get("table") else ""
        memo = f" ({m['memo']})" if m.get("memo") else ""
        kind = str(m.get("kind"))
        said = spoken(MOVEMENTS[kind]) if kind in MOVEMENTS else kind.replace("_", " ")
        lines.append(f"  {when}  {int(m.get('amount', 0)):>+8}  {said}"
                     f"{where}{memo}")
    return lines


async def show_account(url: str, name: str, store: TokenStore, limit: int, as_json: bool) -> int:
    """Print the balance and the recent movements."""
    session = await log_in(url, name, store)
    info = await http_json("GET", f"{url.rstrip('/')}/api/account?limit={limit}", token=session.token)
    print(json.dumps(info, indent=2) if as_json else "\n".join(account_lines(info)))
    return 0


async def change_password(url: str, name: str, store: TokenStore,
                          ask: Callable[[str], str] = getpass.getpass) -> int:
    """Ask for the old and the new password (twice) and change it."""
    session = await log_in(url, name, store)
    old = ask(_("Current password for {name}: ", name=session.name))
    new = ask(_("New password (8 characters or more): "))
    if ask(_("New password again: ")) != new:
        print(_("error: the two new passwords differ; nothing changed"))
        return 1
    try:
        await http_json("POST", f"{url.rstrip('/')}/api/password",
                        {"old_password": old, "new_password": new}, token=session.token)
    except ServerRefused as exc:
        print(_("error: {why}", why=exc.message))
        return 1
    print(_("password changed; your other sessions are logged out"))
    return 0


async def log_out(url: str, name: str, store: TokenStore) -> int:
    """Revoke the saved session token and forget it."""
    token = store.token(url, name)
    if token is None:
        print(_("{name} has no saved session on {url}", name=name, url=url))
        return 0
    try:
        await http_json("POST", f"{url.rstrip('/')}/api/logout", token=token)
    except ServerRefused as exc:
        if exc.code not in ("auth/token_invalid", "auth/token_expired"):
            print(_("error: {why}", why=exc.message))
            return 1
    store.forget(url, name)
    print(_("logged out {name}", name=name))
    return 0
