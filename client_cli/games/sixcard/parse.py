"""Typed lines -> 6 Card Poker moves, or why not, so invalid input (three cards to exchange, a broken Ante
ratio...) is never sent.

Pure. What every house game reads alike (the table-wide commands, deal, rebet,
clear) is :mod:`client_cli.games.commands`; this module adds the bet syntax, the
turn (raise, fold, buy, exchange) and the dealer exchange (ask, cancel, continue).
A bet's boxes and amounts are judged by the server's choices on the snapshot
(:func:`client_cli.offers.misfit`), worded by :mod:`.refusals`.

>>> from client_cli.games.sixcard.choices import legal_choices
>>> snap = {"game": "sixcard", "you": {"seat": 1}, "seats": [{"seat": 1, "name": "ann", "stack": 1000}],
...         "settings": {"boxes": 4, "min_ante": 5, "max_ante": None, "ante_ratio": 5, "min_bonus": 1,
...                      "max_bonus": None},
...         "hand": {"phase": "betting", "bets": [], "boxes": [], "turn": None},
...         "choices": {"moves": [{"request": "move", "action": "bet", "bets": {"count": {"min": 1, "max": 4},
...             "each": {"box": [1, 2, 3, 4], "ante": [0, {"min": 5, "max": 250}], "bonus": {"min": 0, "max": 1000}},
...             "distinct": "box"}, "limits": {"cover": {"max": 1000, "ante": [4, 4, 3, 3], "bonus": 1},
...             "ante_ratio": 5, "box_needs": ["ante", "bonus"]}}]}}
>>> choices = legal_choices(snap)
>>> parse_line("bet 1:10+1 2:20", choices).args
{'bets': [{'box': 1, 'ante': 10, 'bonus': 1}, {'box': 2, 'ante': 20, 'bonus': 0}]}
>>> parse_line("bet 1:10 2:60", choices).message
'your largest Ante (60) may be at most 5x your smallest (10)'
>>> from client_cli.offers import read_offers
>>> offers = read_offers({"choices": {"moves": [{"request": "move", "action": "exchange", "box": 2,
...     "discard": {"count": [1, 2, 5], "each": {"min": 1, "max": 5}, "distinct": True}}]}})
>>> turn = Choices(kind="decision", seated=True, stack=900, box=2, ante=10, cards=("Kh", "Kd", "7c", "4s", "2h"),
...                offers=offers)
>>> parse_line("exchange 3 4 5", turn).message
'an exchange replaces 1, 2 or 5 cards, not 3'
>>> parse_line("x 4 5", turn).note
'box 2: 4s 2h (positions 4 5) exchanged for a fee of 10 chips'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from client_cli.games.commands import Command, Grammar, read_line, typed_bets
from client_cli.games.house import Move
from client_cli.games.sixcard.choices import BoxBet, Choices, choices_text
from client_cli.games.sixcard.refusals import bets_refusal, exchange_refusal
from client_cli.offers import check, misfit
from client_cli.parse import InputError
from server.i18n import _, phrase, spoken
from server.rules.sixcard.settlement import HAND_SIZE

HELP = phrase("""\
Commands at a 6 Card Poker table (type them and press Enter):
  bet BOX:ANTE[+BONUS]  bet on boxes, e.g. 'bet 1:10+1 2:20', 'bet 3:+5' (bonus
                        only); 'bet 10+1': your box or the first free one. Your
                        first two boxes are open, the rest blind (Bet placed).
  deal (d) / pass       confirm your bets, or no bets from you this hand
  rebet / clear (c)     your last hand's bets again, or take all your bets back
  raise (r) / fold (f)  at your turn: Bet 2x the Ante, or fold (a bonus stays)
  buy / exchange P (x)  at your turn: a sixth card, or new cards at positions P
                        (1, 2 or 5: 'x 1 3', 'x all'); fee: 1x the Ante, once
  ask / cancel [BOX]    dealer exchange: ask to swap the dealer's highest card
                        (fee: its Ante), or take it back; continue: final
  sitout / back         sit out of the coming hands, or come back
  topup N               bring N more chips from your account (between hands)
  leave (Ctrl-C) / stay stand up and quit (now or after the hand), or stay
  help (?)              this help
Your stack must cover 4x each open box's Ante, 3x each blind box's, and bonuses.""")

_WORDS: Final = {
    "raise": "raise", "r": "raise",
    "fold": "fold", "f": "fold",
    "buy": "buy", "sixth": "buy",
    "exchange": "exchange", "x": "exchange", "ex": "exchange", "draw": "exchange",
    "ask": "ask", "request": "ask",
    "cancel": "cancel",
    "continue": "continue", "cont": "continue", "go": "continue",
}
_AMOUNT: Final = re.compile(r"^(\d*)(?:\+(\d+))?$")
_USAGE: Final = phrase("say 'bet BOX:ANTE[+BONUS] ...', e.g. 'bet 1:10+1 2:20', 'bet 3:+5' (bonus only), 'bet 10'")


def parse_line(line: str, choices: Choices) -> Command | InputError:
    """One typed line -> a legal move, or why not (see :data:`HELP`)."""
    return read_line(line, choices, _GRAMMAR)


def _turn(verb: str, args: list[str], choices: Choices) -> Move | InputError | None:
    if verb in ("raise", "fold", "buy", "exchange"):
        return _decision(verb, args, choices)
    if verb in ("ask", "cancel", "continue"):
        return _exchange(verb, args, choices)
    return None


def _bets(args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    typed = typed_bets(args, c, _AMOUNT, usage=spoken(_USAGE), mine=[b for b, _, _ in c.placed], last=c.boxes,
                       word="box")
    if isinstance(typed, InputError):
        return typed
    bets = sorted((box, int(m.group(1) or 0), int(m.group(2) or 0)) for box, m in typed)
    move = Move("bet", {"bets": bets_payload(bets)})
    wrong = misfit(c.offers, "move", {"action": "bet", **move.args}) if c.offers is not None else None
    if wrong is None or c.offers is None or wrong.not_offered:
        return move  # among the server's choices (or none on the model: the server judges; not offered: the play
        # loop says what is)
    return InputError(bets_refusal(wrong, c, bets) or check(c.offers, "move", {"action": "bet", **move.args}) or "")


def bets_offered(bets: Sequence[BoxBet], c: Choices) -> bool:
    """Whether the server's choices hold ``bets`` (the bots' judge, the same as a typed line's; no choices on
    the model: the server judges what is sent)."""
    return c.offers is None or misfit(c.offers, "move", {"action": "bet", "bets": bets_payload(bets)}) is None


def bets_payload(bets: Sequence[BoxBet]) -> list[dict[str, int]]:
    """Bets as the ``bet`` move carries them."""
    return [{"box": box, "ante": ante, "bonus": bonus} for box, ante, bonus in bets]


def _decision(verb: str, args: list[str], choices: Choices) -> Move | InputError:
    c = choices
    at = _box_in_turn(verb, args, c)
    if isinstance(at, InputError):
        return at
    box = at["box"]
    if verb in ("raise", "fold"):
        return Move(verb, at)
    if verb == "buy":
        if args:
            return InputError(_("say 'buy' (a sixth card for the box in turn)"))
        return Move("buy", at, note=_("box {box}: a sixth card bought for a fee of {chips} chips", box=box,
                                      chips=c.ante))
    positions = _positions(args)
    if isinstance(positions, InputError):
        return positions
    wrong = misfit(c.offers, "move", {"action": "exchange", **at, "discard": positions}) \
        if c.offers is not None else None
    if wrong is not None and c.offers is not None:
        return InputError(exchange_refusal(wrong, positions)
                          or check(c.offers, "move", {"action": "exchange", **at, "discard": positions}) or "")
    given = " ".join(c.cards[p - 1] for p in positions) if len(c.cards) >= HAND_SIZE else ""
    numbers = " ".join(map(str, positions))
    note = _("box {box}: {cards} (positions {positions}) exchanged for a fee of {chips} chips", box=box, cards=given,
             positions=numbers, chips=c.ante) if given else \
        _("box {box}: positions {positions} exchanged for a fee of {chips} chips", box=box, positions=numbers,
          chips=c.ante)
    return Move("exchange", {**at, "discard": positions}, note=note)


def _box_in_turn(verb: str, args: list[str], c: Choices) -> dict[str, int] | InputError:
    """The box a turn's move goes on: the one the server's choices offer for ``verb``, or why ``verb`` is not
    possible now."""
    box = _offered_box(verb, c) if c.offers is not None else _recorded_box(verb, c)
    if isinstance(box, InputError):
        return box
    if verb in ("raise", "fold") and args and args != [str(box)]:
        return InputError(_("box {box} is in turn: say '{verb}'", box=box, verb=verb))
    return {"box": box}


def _offered_box(verb: str, c: Choices) -> int | InputError:
    offered = c.offers.first("move", verb) if c.offers is not None else None
    if offered is not None:
        return int(offered.limits.get("box", c.box))
    raise_ = c.offers.first("move", "raise") if c.offers is not None else None
    if verb in ("buy", "exchange") and raise_ is not None:  # the box in turn has drawn: raise or fold is left
        return InputError(_("box {box} has had its draw: raise (r) or fold (f)", box=raise_.limits.get("box")))
    return InputError(_("it is not your turn to {verb}", verb=verb), not_now=True)


def _recorded_box(verb: str, c: Choices) -> int | InputError:
    """A record built without the server's choices: its own box in turn (the server judges what is sent)."""
    if c.kind != "decision":
        return InputError(_("it is not your turn to {verb}", verb=verb), not_now=True)
    return c.box


def _positions(args: list[str]) -> list[int] | InputError:
    """The typed positions of the cards to replace (``all``, ``1 3``, ``13``), in order; the server's choices
    judge how many and which."""
    if args == ["all"]:
        return list(range(1, HAND_SIZE + 1))
    tokens = [t for a in args for t in a.replace(",", " ").split()]
    if len(tokens) == 1 and tokens[0].isdigit() and len(tokens[0]) > 1:
        tokens = list(tokens[0])  # 'x 13' reads as positions 1 and 3
    if not tokens or not all(t.isdigit() for t in tokens):
        return InputError(_("say 'exchange' with the positions of the cards to replace, e.g. 'x 1 3' or 'x all'"))
    return sorted(int(t) for t in tokens)


def _exchange(verb: str, args: list[str], choices: Choices) -> Move | InputError:
    """``ask``, ``cancel`` or ``continue`` as the dealer exchange's move; the server's choices say whether it may be
    made now and on which boxes (the play loop checks them)."""
    c = choices
    if verb == "continue":
        if args:
            return InputError(_("say 'continue'"))
        asking = [a for a in c.asks if a.requested]
        fees = sum(a.ante for a in asking)
        note = (_("continued: boxes {boxes} ask for the exchange (fee {chips} chips)",
                  boxes=" ".join(str(a.box) for a in asking), chips=fees)
                if asking else _("continued: no exchange for your boxes"))
        return Move("continue", note=note)
    action = "request_exchange" if verb == "ask" else "cancel_exchange"
    box = _which(verb, args, _offered_boxes(action, c))
    if isinstance(box, InputError):
        return box
    if action == "cancel_exchange":
        return Move(action, {"box": box})
    ante = next((a.ante for a in c.asks if a.box == box), None)
    note = _("box {box} asks for the dealer exchange: fee {chips} chips (its Ante) if you continue", box=box,
             chips=ante) if ante is not None else _("box {box} asks for the dealer exchange", box=box)
    return Move(action, {"box": box}, note=note)


def _offered_boxes(action: str, c: Choices) -> list[int]:
    """The boxes the server's choices offer ``action`` on (a record built without them: the player's boxes)."""
    if c.offers is None:
        return [a.box for a in c.asks]
    return [int(o.limits["box"]) for o in c.offers.find("move", action) if isinstance(o.limits.get("box"), int)]


def _which(verb: str, args: list[str], boxes: list[int]) -> int | InputError:
    """The box a typed line names, or the only one offered (``verb``: what was typed)."""
    listed = " ".join(map(str, boxes))
    if not args:
        if len(boxes) == 1:
            return boxes[0]
        return InputError(_("say which box: one of {boxes}", boxes=listed)) if boxes else \
            InputError(_("{verb} is not possible now", verb=verb), not_now=True)
    if len(args) != 1 or not args[0].isdigit():
        return InputError(_("say one box: one of {boxes}", boxes=listed) if boxes else _("say one box by its number"))
    return int(args[0])  # the server's choices judge it


_GRAMMAR: Final[Grammar[Choices]] = Grammar(
    _WORDS, phrase("bet BOX:ANTE[+BONUS], e.g. 'bet 1:10+1'"), choices_text, _bets, _turn, bet_signs="+")
