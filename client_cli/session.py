"""Logging in from the terminal: who is playing, then a saved token or the password.

Nobody becomes someone else by accident: without ``--name`` the one person with
a saved session on this server is used (and named), and with several the user
is asked to choose (or, with no terminal to ask on, told to say ``--name``).
The password is read without echo (``getpass``); ``HCF_PASSWORD`` may give it
for scripts, and is tried once. A saved token is checked with the server
first; a stale one is dropped and the password asked again.
"""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

from client_cli.api import ServerRefused, http_json
from client_cli.store import TokenStore
from server.i18n import _

PASSWORD_TRIES = 3
STALE_TOKEN = frozenset({"auth/token_invalid", "auth/token_expired", "auth/required"})


class LoginError(Exception):
    """Could not log in; the message says why."""


@dataclass(frozen=True, slots=True)
class LoggedIn:
    """A usable session."""

    name: str
    token: str
    registered: bool = False


class IdentityError(Exception):
    """Who is playing cannot be told without asking; the message says what to type."""


def ask_name(store: TokenStore, url: str, name: str | None, ask: Callable[[str], str] | None = input,
             say: Callable[[str], None] | None = None) -> str:
    """The name to play under: given, the one saved on this server, or chosen (never guessed).

    ``ask`` is None when there is no terminal to ask on: then several saved
    sessions (or none) raise :class:`IdentityError` naming the choices.
    """
    if name:
        return name
    say = say or _say
    saved = store.names(url)
    if len(saved) == 1:
        say(_("playing as {name}: the one session saved on this machine for {url} "
              "(--name NAME plays as someone else)", name=saved[0], url=url))
        return saved[0]
    if ask is None:
        if saved:
            raise IdentityError(_("several people have played at {url} from this machine ({names}): "
                                  "say who you are with --name NAME", url=url, names=", ".join(saved)))
        raise IdentityError(_("say who you are with --name NAME"))
    question = _("Your name at the table: ")
    if saved:
        say(_("sessions saved on this machine for {url}: {names}", url=url, names=", ".join(saved)))
        question = _("Who are you ({names}; a new name registers)? ", names=_(" or ").join(saved))
    while not name:
        name = ask(question).strip()
    return name


def password_source() -> Callable[[str], str]:
    """``HCF_PASSWORD`` when set, else getpass (no echo)."""
    fixed = os.environ.get("HCF_PASSWORD")
    if fixed:
        return lambda _prompt: fixed
    return getpass.getpass


def _say(text: str) -> None:
    print(text, file=sys.stderr)


async def token_works(url: str, token: str) -> bool:
    """Whether the server still accepts ``token``."""
    try:
        await http_json("GET", f"{url}/api/account", token=token)
    except ServerRefused as exc:
        if exc.code in STALE_TOKEN:
            return False
        raise
    return True


async def log_in(url: str, name: str, store: TokenStore,
                 ask_password: Callable[[str], str] | None = None,
                 say: Callable[[str], None] | None = None) -> LoggedIn:
    """A saved token if the server still takes it; else log in or register with a password."""
    url = url.rstrip("/")
    say = say or _say
    saved = store.token(url, name)
    if saved and await token_works(url, saved):
        return LoggedIn(name, saved)
    if saved:
        store.forget(url, name)
        say(_("your saved session for {name} has ended: log in again", name=name))
    fixed = ask_password is None and bool(os.environ.get("HCF_PASSWORD"))
    ask = ask_password or password_source()
    # A password from HCF_PASSWORD gives the same answer every time: one try says all.
    for _try in range(1 if fixed else PASSWORD_TRIES):
        password = ask(_("Password for {name} (a new name is registered with it): ", name=name))
        session = await _login_or_register(url, name, password, say, None if fixed else ask)
        if session is not None:
            store.save(url, session.name, session.token)
            return session
    if fixed:
        raise LoginError(_("could not log in as {name}: the password in HCF_PASSWORD was refused", name=name))
    raise LoginError(_("could not log in as {name}", name=name))


async def _login_or_register(url: str, name: str, password: str, say: Callable[[str], None],
                             confirm: Callable[[str], str] | None = None) -> LoggedIn | None:
    """Log in; failing that, register the name, once a person (``confirm``) has typed the password again."""
    try:
        reply = await http_json("POST", f"{url}/api/login", {"name": name, "password": password})
        return LoggedIn(str(reply["name"]), str(reply["token"]))
    except ServerRefused as exc:
        if exc.code != "auth/bad_credentials":
            raise LoginError(exc.message) from None
    if confirm is not None:  # a typo must not become a new account's password (issue 23, item 16)
        again = confirm(_("Type it again to register {name} as a new account (Enter: try again): ", name=name))
        if not again:
            return None
        if again != password:
            say(_("the two passwords differ: nothing was registered"))
            return None
    try:
        reply = await http_json("POST", f"{url}/api/register", {"name": name, "password": password})
    except ServerRefused as exc:
        if exc.code == "auth/name_taken":
            say(_("wrong password for {name}", name=name))
            return None
        if exc.code == "auth/weak_password":
            say(exc.message)
            return None
        raise LoginError(exc.message) from None  # a bad name among them: said once, by whoever catches it
    say(_("registered a new account: {name}", name=reply["name"]))
    return LoggedIn(str(reply["name"]), str(reply["token"]), registered=True)
