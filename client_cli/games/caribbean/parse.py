"""Typed lines -> Caribbean Stud moves, or why not, so invalid input is never sent.

Pure. What every house game reads alike (the table-wide commands, deal, rebet,
clear) is :mod:`client_cli.games.commands`; this module adds the bet syntax
(``SPOT:ANTE[j]``) and the turn (play, fold). A bet's spots and amounts are
judged by the server's choices on the snapshot (:func:`client_cli.offers.misfit`),
worded by :mod:`.refusals`.

>>> from client_cli.games.caribbean.choices import legal_choices
>>> snap = {"game": "caribbean", "you": {"seat": 2}, "seats": [{"seat": 2, "name": "bo", "stack": 200}],
...         "settings": {"spots": 7, "max_hands": 3, "min_ante": 5, "max_ante": 500, "jackpot": True,
...                      "jackpot_wager": 1},
...         "hand": {"phase": "betting", "bets": [], "spots": [], "turn": None},
...         "choices": {"moves": [{"request": "move", "action": "bet", "bets": {"count": {"min": 1, "max": 3},
...             "each": {"spot": [1, 2, 3, 4, 5, 6, 7], "ante": {"min": 5, "max": 66}, "jackpot": [False, True]},
...             "distinct": "spot"}, "limits": {"cover": {"max": 200, "ante": 3, "jackpot": 1}}}]}}
>>> choices = legal_choices(snap)
>>> parse_line("bet 1:10j 3:20", choices).args
{'bets': [{'spot': 1, 'ante': 10, 'jackpot': True}, {'spot': 3, 'ante': 20, 'jackpot': False}]}
>>> parse_line("bet 10j", choices).args
{'bets': [{'spot': 1, 'ante': 10, 'jackpot': True}]}
>>> parse_line("bet 1:60 2:10", choices).message
'your stack of 200 must cover 3x each Ante (Ante and Back Bet) plus the jackpot wagers: 210 chips'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from client_cli.games.caribbean.choices import Choices, choices_text
from client_cli.games.caribbean.refusals import bets_refusal
from client_cli.games.commands import Command, Grammar, read_line, typed_bets
from client_cli.games.house import Move
from client_cli.offers import check, misfit
from client_cli.parse import InputError
from server.i18n import _, phrase, spoken
from server.rules.caribbean.messages import SpotBet

HELP = phrase("""\
Commands at a Caribbean Stud table (type them and press Enter):
  bet SPOT:ANTE[j] ...  bet on spots: 'bet 1:10j 2:10' (j: the jackpot wager);
                        'bet 10j' bets on your spot or the first free one. A new
                        'bet' replaces your bets until you deal. You may hold
                        fewer spots while another player has not bet or passed.
  deal (d) / pass       confirm your bets, or no bets from you this hand
  rebet / clear (c)     your last hand's bets again, or take all your bets back
  play (p) / fold (f)   at your turn: the Back Bet (2x the Ante) on the spot in
                        turn, or fold it (its Ante is lost)
  sitout / back         sit out of the coming hands, or come back
  topup N               bring N more chips from your account (between hands)
  leave (or Ctrl-C)     stand up now, or after the current hand, and quit
  stay                  take back a leave asked during the hand: keep your seat
  help (?)              this help
Your stack must cover 3x each Ante (Ante and Back Bet) plus the jackpot wagers.""")


_WORDS: Final = {
    "play": "play", "p": "play", "call": "play",
    "fold": "fold", "f": "fold",
}
_AMOUNT: Final = re.compile(r"^(\d+)(\+?j|\+?jp|\+?jackpot)?$")
_USAGE: Final = phrase("say 'bet SPOT:ANTE[j] ...', e.g. 'bet 1:10j 2:10' (j: the jackpot wager), or 'bet 10j'")


def parse_line(line: str, choices: Choices) -> Command | InputError:
    """One typed line -> a legal move, or why not (see :data:`HELP`)."""
    return read_line(line, choices, _GRAMMAR)


def _turn(verb: str, args: list[str], choices: Choices) -> Move | InputError | None:
    return _decision(verb, args, choices) if verb in ("play", "fold") else None


def _decision(verb: str, args: list[str], choices: Choices) -> Move | InputError:
    """``play`` / ``fold`` with the spot typed, else the spot in turn; the server's choices judge both."""
    if choices.offers is None:
        if choices.kind != "decision":
            return InputError(_("it is not your turn to {verb}", verb=verb), not_now=True)
        return Move(verb, {"spot": choices.spot})  # no choices on the model: the server judges the spot
    offered = choices.offers.first("move", verb)
    in_turn = offered.limits.get("spot") if offered is not None else None
    if len(args) > 1 or (args and not args[0].isdigit()):
        return InputError(_("say '{verb}' (or '{verb} SPOT')", verb=verb))
    spot = int(args[0]) if args else in_turn
    wrong = misfit(choices.offers, "move", {"action": verb, "spot": spot})
    if wrong is None:
        return Move(verb, {"spot": spot})
    if wrong.not_offered:
        return InputError(_("it is not your turn to {verb}", verb=verb), not_now=True)
    return InputError(_("spot {spot} is in turn: say '{verb}' (or '{verb} {spot}')", spot=in_turn, verb=verb))


def _bets(args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    typed = typed_bets(args, c, _AMOUNT, usage=spoken(_USAGE), mine=[b.spot for b in c.placed], last=c.spots,
                       word="spot")
    if isinstance(typed, InputError):
        return typed
    bets = [SpotBet(spot, int(m.group(1)), m.group(2) is not None) for spot, m in typed]
    move = Move("bet", {"bets": bets_payload(bets)})
    wrong = misfit(c.offers, "move", {"action": "bet", **move.args}) if c.offers is not None else None
    if wrong is None or c.offers is None or wrong.not_offered:
        return move  # among the server's choices (or none on the model: the server judges; not offered: the play
        # loop says what is)
    return InputError(bets_refusal(wrong, c, len(bets)) or check(c.offers, "move", {"action": "bet", **move.args})
                      or "")


def bets_offered(bets: Sequence[SpotBet], c: Choices) -> bool:
    """Whether the server's choices hold ``bets`` (the bots' judge, the same as a typed line's; a record built
    without them: the server judges what is sent)."""
    return c.offers is None or misfit(c.offers, "move", {"action": "bet", "bets": bets_payload(bets)}) is None


def bets_payload(bets: Sequence[SpotBet]) -> list[dict[str, Any]]:
    """Bets as the ``bet`` move carries them."""
    return [{"spot": b.spot, "ante": b.ante, "jackpot": b.jackpot} for b in bets]


_GRAMMAR: Final[Grammar[Choices]] = Grammar(_WORDS, phrase("bet SPOT:ANTE, e.g. 'bet 1:10j'"), choices_text, _bets,
                                             _turn)
