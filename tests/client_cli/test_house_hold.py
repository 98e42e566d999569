"""The client says why a bet holds too many places while another player still chooses, as the rules would.

Issue 14 A.4: a random bot took all four boxes of a 6 Card table. Now one player
holds at most ``max_hands_while_waiting`` places while another player of the hand
has neither bet nor passed; the client refuses such a line itself, naming who is
still choosing, and the bots stay within it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from client_cli.games import caribbean as cg
from client_cli.games import sixcard as sg
from client_cli.games.house import Move
from client_cli.parse import InputError
from tests.client_cli.house_samples import caribbean, judged, sixcard


@pytest.mark.parametrize(("make", "game", "line", "word"), [
    (caribbean, cg, "bet 1:10 2:10", "spot"), (sixcard, sg, "bet 1:10 2:10", "box")])
def test_a_line_over_the_hold_limit_is_refused_naming_who_still_chooses(make: Any, game: Any, line: str,
                                                                        word: str) -> None:
    table = make(max_hands_while_waiting=1)
    parsed = game.parse_line(line, game.legal_choices(table.snapshot(1)))
    assert parsed == InputError(f"you may hold at most 1 {word} while bob has not bet or passed yet")
    assert not table.accepts(1, "bet", {"bets": [{word: 1, "ante": 10}, {word: 2, "ante": 10}]})
    table.move(2, "pass")
    parsed = game.parse_line(line, game.legal_choices(table.snapshot(1)))
    assert isinstance(parsed, Move)
    table.move(1, parsed.action, parsed.args)


@pytest.mark.parametrize("seed", range(20))
def test_random_bots_take_one_place_while_a_person_still_chooses(seed: int) -> None:
    for make, game in ((caribbean, cg), (sixcard, sg)):
        table = make({1: 5000, 2: 5000}, max_hands_while_waiting=1)
        bets = game.bot_bets("random", game.legal_choices(table.snapshot(1)), random.Random(seed))
        assert bets is not None
        assert len(bets) == 1
        table.move(1, "bet", {"bets": bets})  # raises if the rules refuse


def test_pass_is_a_move_and_a_second_pass_is_explained() -> None:
    table = caribbean()
    assert cg.parse_line("pass", cg.legal_choices(table.snapshot(1))) == Move("pass", note="you pass this hand")
    table.move(1, "pass")
    choices = cg.legal_choices(table.snapshot(1))
    assert choices.passed
    assert cg.choices_text(choices) == "You pass this hand: waiting for the others (a bet still counts while " \
                                       "bets are open)"
    snapshot = table.snapshot(1)
    assert judged(cg.parse_line("pass", choices), snapshot) == InputError(  # the server's choices say why not
        "pass is not possible now. Now you may: bet (Ante 5 to 333)")
