"""6 Card Poker 1-2-5 in the terminal client, one module each for what it owns.

- :mod:`.choices`: what this player may do now, read from a snapshot, and the line that says it;
- :mod:`.parse`: typed lines -> moves, or why not, so invalid input is never sent;
- :mod:`.view`: the table, the log lines, the showdown, the history;
- :mod:`.bots`: the bots' bets, decisions and dealer-exchange requests.
"""

from client_cli.games.sixcard.bots import bot_bets, choose_asks, choose_bets, choose_decision
from client_cli.games.sixcard.choices import Ask, BoxBet, Choices, choices_text, legal_choices
from client_cli.games.sixcard.parse import HELP, bets_offered, bets_payload, parse_line
from client_cli.games.sixcard.view import (
    describe_event,
    history_bets,
    original_cards,
    result_lines,
    seat_nets,
    table_lines,
)

__all__ = [
    "HELP", "Ask", "BoxBet", "Choices", "bets_offered", "bets_payload", "bot_bets", "choices_text", "choose_asks",
    "choose_bets", "choose_decision", "describe_event", "history_bets", "legal_choices", "original_cards",
    "parse_line", "result_lines", "seat_nets", "table_lines",
]
