"""At 80 columns nothing on the live view ends in "...": help, prompts and each game's rows wrap (issue 23, item 7)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text

from client_cli.away import AWAY_HELP
from client_cli.fit import fit
from client_cli.games import CLIENTS, HCF
from client_cli.parse import SAY_HELP
from client_cli.screen import Screen, screen_lines
from server.i18n import LANGUAGES, render_text
from tests.client_cli.house_samples import Table, arranged, caribbean, sixcard
from tests.client_cli.samples import play_a_hand, snapshot

ELLIPSIS = ("…", "...")


@given(st.text(st.sampled_from("ab cd♠ ef-gh"), max_size=300), st.integers(10, 200))
def test_a_line_wraps_to_the_width_and_keeps_every_word(text: str, width: int) -> None:
    pieces = [p.plain for p in fit(Text(text), width)]
    assert all(len(p) <= width for p in pieces)
    assert "".join(p.strip() for p in pieces).replace(" ", "") == text.replace(" ", "")


def _caribbean() -> Table:
    table = caribbean(deck=arranged({1: "Kh Kd 7c 4s 2h", 2: "2s 6s 9s Js Qs", 0: "Ac Kc 8d 5h 3d"}))
    return table


def _sixcard() -> Table:
    table = sixcard(deck=arranged({1: "Kh Kd Kc 4s 2h 7d", 2: "2s 6s 9s Js Qs 3c", 0: "Ac Jc 8d 5h 3d 2c"}))
    table.move(1, "bet", {"bets": [{"box": 1, "ante": 10, "bonus": 5}, {"box": 2, "ante": 10, "bonus": 5}]})
    table.move(1, "deal")
    table.move(2, "pass")
    return table


def _hcf() -> dict[str, Any]:
    played = play_a_hand()
    snap = snapshot(played.state, 2, clock={"kind": "decision", "seat": 2, "deadline": 1010.0})
    snap["hand"]["phase"] = "decisions"
    return snap


@pytest.mark.parametrize("game", ["hcf", "caribbean", "sixcard"])
def test_each_games_screen_with_its_help_fits_80_columns_without_an_ellipsis(game: str) -> None:
    snap = _hcf() if game == "hcf" else (_caribbean() if game == "caribbean" else _sixcard()).snapshot(1)
    client = HCF if game == "hcf" else CLIENTS[game]
    choices = client.choices_text(client.legal_choices(snap)) or ""
    help_lines = [Text(line) for line in client.help.splitlines()]
    lines = screen_lines(Screen(snapshot=snap, server_now=1000.0, body=client.table_lines(snap, symbols=True),
                                choices=choices, message="refused: " + "the table's limits are 5 to 500 " * 4,
                                extra=help_lines, prompt="bet 10"), 80, 200)
    shown = [line.plain for line in lines]
    assert all(len(line) <= 80 for line in shown), [line for line in shown if len(line) > 80]
    assert not [line for line in shown if line.rstrip().endswith(ELLIPSIS)]
    words = " ".join(shown).split()
    for line in [*help_lines, Text(choices)]:
        for word in line.plain.split():
            assert word in words, f"{word!r} of {line.plain!r} is not on the screen"
    assert shown[-1] == "> bet 10"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["hcf", "caribbean", "sixcard"])
def test_the_whole_help_shows_on_a_24_row_terminal_the_seats_giving_way(game: str, lang: str) -> None:
    """On a terminal of 80 x 24 (pexpect's and many a laptop's), each game's help asked for shows to its last
    line (the chat and away commands come last), in each language, under the line of what may be typed now:
    the seats give way while it is shown, the header, the choices and the prompt stay."""
    snap = _hcf() if game == "hcf" else (_caribbean() if game == "caribbean" else _sixcard()).snapshot(1)
    client = HCF if game == "hcf" else CLIENTS[game]
    choices = client.choices_text(client.legal_choices(snap)) or ""
    said = [render_text(text, lang) for text in (client.help, AWAY_HELP, SAY_HELP)]
    help_lines = [Text(line) for text in said for line in text.splitlines()]
    rows = 24 - 1  # what the live view draws on 24 rows (client_cli/terminal.py: the cursor keeps the last)
    lines = screen_lines(Screen(snapshot=snap, server_now=1000.0, body=client.table_lines(snap, symbols=True),
                                choices=choices, extra=help_lines, prompt=""), 80, rows)
    shown = [line.plain for line in lines]
    assert len(shown) <= rows
    assert all(line.plain in shown for line in help_lines), [line.plain for line in help_lines
                                                             if line.plain not in shown]  # none cut, none wrapped
    assert shown[-1] == "> "
