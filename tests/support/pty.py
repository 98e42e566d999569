"""The end of a pseudo-terminal test, whatever happened in it: the person's client, the bot beside it, the log."""

from __future__ import annotations

import signal
import subprocess
from typing import TextIO

import pexpect


def tear_down(child: pexpect.spawn, bot: subprocess.Popen[bytes] | None, screen: TextIO) -> None:
    """Kill the client if it still runs, stop the bot as a person would (Ctrl-C, then kill), close the screen log.

    The bot gets Ctrl-C first so it stands up and says goodbye like a client does; one that does not end within
    20 s is killed, so a failing test never leaves a process behind.
    """
    if child.isalive():
        child.terminate(force=True)
    if bot is not None:
        stop_bot(bot)
    screen.close()


def stop_bot(bot: subprocess.Popen[bytes]) -> None:
    """Stop a bot process as a person would: Ctrl-C, so it stands up and says goodbye; killed after 20 s."""
    bot.send_signal(signal.SIGINT)
    try:
        bot.wait(20)
    except subprocess.TimeoutExpired:
        bot.kill()
        bot.wait(5)
