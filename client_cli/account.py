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

MOVEMENTS: Final[Mapping[str, str]] = {
    "issue": "chips issued to you", "redeem": "chips redeemed", "buy_in": "bought in", "top_up": "topped up",
    "cash_out": "your stack came back", "bet": "a bet", "raise": "a raise", "fee": "a fee",
    "fee_refund": "a fee given back", "refund": "bets given back", "win": "a win", "loss": "a loss",
    "settle": "a settlement", "jackpot_contribution": "to the jackpot meter", "jackpot_payout": "a jackpot paid",
    "jackpot_wager": "a jackpot wager", "jackpot_seed": "the jackpot's seed", "jackpot_award": "a jackpot award",
    "draw_fee": "a draw fee", "exchange_fee": "a dealer exchange fee",
}
"""Each kind of chip movement (the ledger's), as ``hcf account`` says it."""


def account_lines(info: Mapping[str, Any]) -> list[str]:
    """Balance, stacks at tables and the recent movements, for people.

    >>> account_lines({"name": "ann", "balance": 900, "stacks": {"main": 100},
    ...     "movements": [{"at": 0, "kind": "buy_in", "table": "main", "amount": -100, "memo": ""}]})[3][-26:]
    '    -100  bought in at main'

    """
    lines = [f"{info.get('name')}: {info.get('balance')} chips in the account"]
    stacks = info.get("stacks") or {}
    if stacks:
        lines.append("at tables: " + ", ".join(f"{t} {n}" for t, n in sorted(stacks.items())))
    movements = info.get("movements") or []
    if movements:
        lines.append("recent movements (newest first):")
    for m in movements:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(m.get("at", 0))))
        where = f" at {m['table']}" if m.get("table") else ""
        memo = f" ({m['memo']})" if m.get("memo") else ""
        kind = str(m.get("kind"))
        lines.append(f"  {when}  {int(m.get('amount', 0)):>+8}  {MOVEMENTS.get(kind, kind.replace('_', ' '))}"
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
    old = ask(f"Current password for {session.name}: ")
    new = ask("New password (8 characters or more): ")
    if ask("New password again: ") != new:
        print("error: the two new passwords differ; nothing changed")
        return 1
    try:
        await http_json("POST", f"{url.rstrip('/')}/api/password",
                        {"old_password": old, "new_password": new}, token=session.token)
    except ServerRefused as exc:
        print(f"error: {exc.message}")
        return 1
    print("password changed; your other sessions are logged out")
    return 0


async def log_out(url: str, name: str, store: TokenStore) -> int:
    """Revoke the saved session token and forget it."""
    token = store.token(url, name)
    if token is None:
        print(f"{name} has no saved session on {url}")
        return 0
    try:
        await http_json("POST", f"{url.rstrip('/')}/api/logout", token=token)
    except ServerRefused as exc:
        if exc.code not in ("auth/token_invalid", "auth/token_expired"):
            print(f"error: {exc.message}")
            return 1
    store.forget(url, name)
    print(f"logged out {name}")
    return 0
