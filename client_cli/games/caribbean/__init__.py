"""Caribbean Stud in the terminal client, one module each for what it owns.

- :mod:`.choices`: what this player may do now, read from a snapshot, and the line that says it;
- :mod:`.parse`: typed lines -> moves, or why not, so invalid input is never sent;
- :mod:`.view`: the table, the log lines, the showdown, the history;
- :mod:`.bots`: the bots' bets and decisions.
"""

from client_cli.games.caribbean.bots import bot_bets, choose_bets, choose_decision, choose_play
from client_cli.games.caribbean.choices import Choices, choices_text, legal_choices
from client_cli.games.caribbean.parse import HELP, bets_payload, parse_line
from client_cli.games.caribbean.view import describe_event, history_bets, result_lines, seat_nets, table_lines

__all__ = [
    "HELP", "Choices", "bets_payload", "bot_bets", "choices_text", "choose_bets", "choose_decision", "choose_play",
    "describe_event", "history_bets", "legal_choices", "parse_line", "result_lines", "seat_nets", "table_lines",
]
