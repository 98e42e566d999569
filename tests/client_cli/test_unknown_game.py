"""A game this client does not know: said so, and played from the server's choices alone, never as High Card Flush.

The pure parts first (the generic reading of a line against the choices, the fallback, the
deal check), then Top Card, the toy game of tests/toygame, at a real in-process server,
played by the terminal's own play loop with a face that records what it says.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.connection import Connection
from client_cli.games import HCF, game_client, known
from client_cli.games.generic import legal_choices, parse_line
from client_cli.games.house import Move
from client_cli.offers import check, read_offers
from client_cli.parse import InputError, Leave, TopUp
from client_cli.play import PlayOptions, TableSession
from client_cli.verify import Seen, verify_reveal
from server.rules.fairness import commitment
from tests.server.conftest import Server, config_overrides, database_url, server, server_clock, table_overrides
from tests.toygame.conftest import top_card

__all__ = ["config_overrides", "database_url", "server", "server_clock", "table_overrides", "top_card"]


def model(*moves: dict[str, Any], phase: str = "betting") -> dict[str, Any]:
    return {"game": "topcard", "you": {"seat": 1}, "seats": [{"seat": 1, "name": "ann", "stack": 300}],
            "hand": {"phase": phase}, "choices": {"seat": 1, "deadline": None, "moves": list(moves)}}


BET = {"request": "move", "action": "bet", "ante": {"min": 5, "max": 50}}
PASS = {"request": "move", "action": "pass"}


def test_a_game_this_client_does_not_know_is_not_played_as_high_card_flush() -> None:
    client = game_client({"game": "topcard"})
    assert client is not HCF
    assert client.name == "topcard"
    assert not known({"game": "topcard"})
    assert known({})
    assert known({"game": "sixcard"})


@given(ante=st.integers(5, 50))
def test_a_move_typed_with_its_values_in_order_is_the_offered_move(ante: int) -> None:
    snapshot = model(BET, PASS)
    move = parse_line(f"bet {ante}", legal_choices(snapshot))
    assert move == Move("bet", {"ante": ante})
    assert check(read_offers(snapshot), "move", {"action": "bet", **move.args}) is None


@given(ante=st.integers(-100, 200).filter(lambda n: not 5 <= n <= 50))
def test_a_value_out_of_the_offered_range_is_never_sent(ante: int) -> None:
    snapshot = model(BET, PASS)
    move = parse_line(f"bet ante={ante}", legal_choices(snapshot))
    assert isinstance(move, Move)
    problem = check(read_offers(snapshot), "move", {"action": "bet", **move.args})
    assert problem is not None
    assert "5 to 50" in problem


def test_a_fixed_value_goes_as_the_server_gave_it_and_names_are_read_by_name() -> None:
    choices = legal_choices(model({"request": "move", "action": "pick_card", "spot": 2,
                                   "card": ["Ah", "Kd"]}))
    assert parse_line("pick-card Kd", choices) == Move("pick_card", {"spot": 2, "card": "Kd"})
    assert parse_line("pick_card card=Ah", choices) == Move("pick_card", {"spot": 2, "card": "Ah"})
    refused = parse_line("pick-card Ah 3", choices)
    assert isinstance(refused, InputError)
    assert "pick-card takes: pick-card CARD (Ah or Kd)" in refused.message


def test_a_move_not_offered_and_the_table_words_read_as_at_every_table() -> None:
    choices = legal_choices(model(PASS, phase="settled"))
    refused = parse_line("raise 5", choices)
    assert isinstance(refused, InputError)
    assert refused.not_now
    assert isinstance(parse_line("q", choices), Leave)
    assert parse_line("topup 50", choices) == TopUp(50)
    assert parse_line("pass", choices) == Move("pass", {})


def test_a_word_that_is_none_of_the_games_declared_moves_is_said_so_and_one_of_them_is_not_possible_now() -> None:
    snapshot = model(PASS) | {"game_moves": {"bet": {"args": {"ante": {"min": 0, "max": 10**9}}, "required": []},
                                             "pass": {"args": {}, "required": []},
                                             "pick_card": {"args": {}, "required": []}}}
    choices = legal_choices(snapshot)
    assert parse_line("fly", choices) == InputError(
        "fly is not a move here now: this game's moves are bet, pass and pick-card (type 'help' for the commands)")
    later = parse_line("bet 10", choices)
    assert isinstance(later, InputError)
    assert later.not_now  # the play loop says what the server's choices hold now
    assert check(read_offers(snapshot), "move", {"action": "bet", "ante": 10}) == \
        "bet is not possible now. Now you may: pass"


def test_an_unknown_games_deal_is_not_checked_as_high_card_flushs() -> None:
    """Its seed is checked against the commitment; its cards are not dealt out as another game's."""
    server_seed = "ab" * 32
    reveal = {"game": "topcard", "hand_id": 3, "number": 3, "deal_order": [1, 0], "server_seed": server_seed,
              "commitment": commitment(bytes.fromhex(server_seed)), "player_seeds": [], "shown": {"1": ["2c"]}}
    verdict = verify_reveal(reveal, Seen(reveal["commitment"], 1, None, {1: ["2c"]}))
    assert verdict.ok is True, verdict.lines
    assert "does not know how 'topcard' deals" in verdict.headline


class RecordingFace:
    """The plain face's part the play loop uses: what it says is kept; lines are typed by the test."""

    live_view = False

    def __init__(self) -> None:
        self.said: list[str] = []
        self.closed = False
        self.type_line: Callable[[str | None], None] | None = None

    def start(self, on_line: Callable[[str | None], None] | None,
              on_edit: Callable[[], None] | None = None) -> None:  # noqa: ARG002
        self.type_line = on_line

    def say(self, lines: Any) -> None:
        self.said.extend(str(getattr(line, "plain", line)) for line in lines)

    def stop(self) -> None:
        pass

    async def saw(self, words: str, timeout: float = 10.0) -> str:
        """The first line said that holds ``words`` (waits for the table, never for a clock of its own)."""
        async with asyncio.timeout(timeout):
            while True:
                found = next((line for line in self.said if words in line), None)
                if found is not None:
                    return found
                await asyncio.sleep(0.02)


@pytest.mark.usefixtures("top_card")
async def test_top_card_is_played_through_the_terminal_from_the_choices(server: Server) -> None:
    host = await server.host()
    await host.host("create_table", table="top", settings={"game": "topcard", "min_ante": 5, "max_ante": 50,
                                                            "pause_seconds": 0.2, "bet_seconds": 30})
    await host.host("pause", table="top")
    account = await server.account("ann")
    conn = Connection(server.url, token=account["token"])
    await conn.connect()
    face = RecordingFace()
    session = TableSession(conn, PlayOptions(server.url, table="top", buy_in=300), face)  # type: ignore[arg-type]
    playing = asyncio.create_task(session.run())
    try:
        await face.saw("This client does not know the game 'topcard'")
        await host.host("resume", table="top")
        await face.saw("Your move: bet ANTE (5 to 50), pass")
        assert face.type_line is not None
        face.type_line("bet 60")
        await face.saw("! bet is not possible now: the ante is 5 to 50 chips")
        face.type_line("bet 20")
        await face.saw("hand #1 settled:")  # the result, in the server's own words
        assert not any("High Card" in line or "DP" in line for line in face.said), face.said
        face.type_line(None)  # the end of the input: leave
        assert await asyncio.wait_for(playing, 10) == 0
    finally:
        playing.cancel()
        await conn.close()
