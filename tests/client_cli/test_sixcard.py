"""6 Card Poker in the client: choices and parsing against the real rules, the view, the log, the results."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client_cli.games import sixcard as sg
from client_cli.games.house import Move
from client_cli.history import hand_lines, hand_row
from client_cli.parse import InputError
from client_cli.render import header_line
from client_cli.screen import Screen, plain, screen_lines
from client_cli.tracker import Tracker
from tests.client_cli.house_samples import HAND_ID, Table, arranged, judged, sixcard

# ann: boxes 1 (10 + bonus 1, open: three queens), 2 (10, open: a pair of fours), 3 (5, blind);
# bob: box 4 (bonus only). The dealer: no pair (does not qualify); the stub follows.
DEALT = {1: "Qc Qd Qh 4s 2d", 2: "Kd 4d 4h As 7h", 3: "Js Tc 9c 9h Ad", 4: "Ah 5d 3d 3c 3s", 0: "Kh Jh Td 6d 5h"}
DECK = arranged(DEALT, stub="8c 6s 7d 2c")


def dealt(deck: tuple[int, ...] = DECK) -> Table:
    table = sixcard(deck=deck)
    table.move(1, "bet", {"bets": [{"box": 1, "ante": 10, "bonus": 1}, {"box": 2, "ante": 10}, {"box": 3, "ante": 5}]})
    table.move(2, "bet", {"bets": [{"box": 4, "bonus": 5}]})
    table.move(1, "deal")
    table.move(2, "deal")
    return table


def send(table: Table, seat: int, line: str) -> Any:
    """Type ``line`` as ``seat``: parse it against the choices of the moment and play the move through the rules."""
    snapshot = table.snapshot(seat)
    result = judged(sg.parse_line(line, sg.legal_choices(snapshot)), snapshot)
    if isinstance(result, Move):
        table.move(seat, result.action, result.args)
    return result


def exchange_phase() -> Table:
    table = dealt()
    send(table, 1, "x 4 5")  # box 1: three queens; 4s 2d go
    send(table, 1, "raise")
    send(table, 1, "buy")  # box 2: a sixth card
    send(table, 1, "r")
    assert table.state.phase == "exchange"
    return table


# ------------------------------------------------------------------ choices


def test_bets_are_a_choice_with_the_free_boxes_and_the_limits() -> None:
    table = sixcard(max_ante=100, max_bonus=20)
    table.move(2, "bet", {"bets": [{"box": 2, "ante": 10}]})
    choices = sg.legal_choices(table.snapshot(1))
    assert (choices.kind, choices.free, dict(choices.taken)) == ("bets", (1, 3, 4), {2: "bob"})
    assert (choices.min_ante, choices.max_ante, choices.min_bonus, choices.max_bonus, choices.ante_ratio) == \
        (5, 100, 1, 20, 5)
    assert sg.choices_text(choices) == ("Bets are open: bet BOX:ANTE[+BONUS], boxes 1 3 4, Ante 5-100, bonus 1+ "
                                        "(BOX:+N: bonus only); or pass")  # no last bets: no Re-Bet offered


def test_placed_bets_name_the_blind_boxes() -> None:
    table = sixcard()
    send(table, 1, "bet 1:10+1 2:10 3:5")
    choices = sg.legal_choices(table.snapshot(1))
    assert choices.placed == ((1, 10, 1), (2, 10, 0), (3, 5, 0))
    assert sg.choices_text(choices) == "Your bets 1:10+1 2:10 3:5 (blind: 3): deal (d) to confirm them, clear (c), " \
                                       "pass, or bet again"


def test_the_decision_shows_the_box_in_turn_with_its_cards_and_the_fee() -> None:
    choices = sg.legal_choices(dealt().snapshot(1))
    assert (choices.kind, choices.box, choices.ante, choices.cls, choices.drawn) == ("decision", 1, 10, "trips", False)
    assert choices.cards == ("Qc", "Qd", "Qh", "4s", "2d")
    assert sg.choices_text(choices) == ("Box 1 (three of a kind): raise (r) = Bet 20, fold (f), buy, "
                                        "or x 1 3 (exchange 1, 2 or 5): fee 10")
    assert sg.legal_choices(dealt().snapshot(2)).kind is None


def test_after_a_draw_only_raise_or_fold_is_offered() -> None:
    table = dealt()
    send(table, 1, "buy")
    choices = sg.legal_choices(table.snapshot(1))
    assert choices.drawn
    assert len(choices.cards) == 6
    assert sg.choices_text(choices) == "Box 1 (three of a kind, drawn): raise (r) = Bet 20, or fold (f)"
    assert sg.parse_line("x 1", choices) == InputError("box 1 has had its draw: raise (r) or fold (f)")
    assert sg.parse_line("buy", choices) == InputError("box 1 has had its draw: raise (r) or fold (f)")


def test_the_dealer_exchange_lists_the_players_boxes_in_play() -> None:
    choices = sg.legal_choices(exchange_phase().snapshot(1))
    assert choices.kind == "exchange"
    assert [(a.box, a.ante, a.requested) for a in choices.asks] == [(1, 10, False), (2, 10, False), (3, 5, False)]
    assert sg.choices_text(choices) == "Dealer exchange: ask BOX (fee: its Ante), cancel BOX, then continue (final)"
    assert sg.legal_choices(exchange_phase().snapshot(2)).kind is None  # bob's bonus-only box is not in play


# ------------------------------------------------------------------ parsing


def test_bet_lines_become_the_bet_move() -> None:
    choices = sg.legal_choices(sixcard().snapshot(1))
    assert sg.parse_line("bet 1:10+1 2:20", choices) == Move(
        "bet", {"bets": [{"box": 1, "ante": 10, "bonus": 1}, {"box": 2, "ante": 20, "bonus": 0}]})
    assert sg.parse_line("bet 3:+5", choices) == Move("bet", {"bets": [{"box": 3, "ante": 0, "bonus": 5}]})
    assert sg.parse_line("10+2 +5", choices) == Move(
        "bet", {"bets": [{"box": 1, "ante": 10, "bonus": 2}, {"box": 2, "ante": 0, "bonus": 5}]})


@pytest.mark.parametrize(("line", "message"), [
    ("bet 5:10", "box 5: this table's boxes are 1 to 4"),
    ("bet 2:10", "box 2 is taken by bob; free: 1 3 4"),
    ("bet 1:0", "box 1: a box needs an Ante, a bonus bet or both"),
    ("bet 1:4", "box 1: the Ante is 5 to 250 chips, got 4"),  # the largest the server offers, as the terminal says
    ("bet 1:10 3:51", "your largest Ante (51) may be at most 5x your smallest (10)"),
    ("bet 1:100 3:100 4:100", "your stack of 1000 must cover every Bet and draw fee these boxes may take: 1100 chips "
                              "(4x the Ante of an open box, 3x of a blind one, plus the bonuses)"),
    ("bet 1:10+", "say 'bet BOX:ANTE[+BONUS] ...', e.g. 'bet 1:10+1 2:20', 'bet 3:+5' (bonus only), 'bet 10'"),
    ("raise", "it is not your turn to raise"),
    ("ask 1", "ask box 1 is not possible now. Now you may: bet (Ante 5 to 250), pass"),  # the server's choices
])
def test_invalid_input_is_explained_and_never_sent(line: str, message: str) -> None:
    table = sixcard()
    table.move(2, "bet", {"bets": [{"box": 2, "ante": 10}]})
    snapshot = table.snapshot(1)
    assert judged(sg.parse_line(line, sg.legal_choices(snapshot)), snapshot) == InputError(message)


@pytest.mark.parametrize(("line", "result"), [
    ("buy", Move("buy", {"box": 1}, note="box 1: a sixth card bought for a fee of 10 chips")),
    ("exchange 4 5", Move("exchange", {"box": 1, "discard": [4, 5]},
                          note="box 1: 4s 2d (positions 4 5) exchanged for a fee of 10 chips")),
    ("x 45", Move("exchange", {"box": 1, "discard": [4, 5]},
                  note="box 1: 4s 2d (positions 4 5) exchanged for a fee of 10 chips")),
    ("x all", Move("exchange", {"box": 1, "discard": [1, 2, 3, 4, 5]},
                   note="box 1: Qc Qd Qh 4s 2d (positions 1 2 3 4 5) exchanged for a fee of 10 chips")),
    ("x 1 2 3", InputError("an exchange replaces 1, 2 or 5 cards, not 3")),
    ("x 1 2 3 4", InputError("an exchange replaces 1, 2 or 5 cards, not 4")),
    ("x 6", InputError("positions are 1 to 5, got 6")),
    ("x 2 2", InputError("name each position once")),
    ("x", InputError("say 'exchange' with the positions of the cards to replace, e.g. 'x 1 3' or 'x all'")),
    ("r", Move("raise", {"box": 1})),
    ("fold 2", InputError("box 1 is in turn: say 'fold'")),
])
def test_decisions_say_the_fee_and_refuse_three_or_four_cards(line: str, result: Any) -> None:
    assert sg.parse_line(line, sg.legal_choices(dealt().snapshot(1))) == result


def test_the_exchange_choice_asks_cancels_and_continues() -> None:
    table = exchange_phase()
    assert send(table, 1, "ask") == InputError("say which box: one of 1 2 3")
    assert send(table, 1, "ask 1") == Move(
        "request_exchange", {"box": 1},
        note="box 1 asks for the dealer exchange: fee 10 chips (its Ante) if you continue")
    now = "Now you may: cancel box 1, ask box 2, ask box 3, continue"  # the server's choices
    assert send(table, 1, "ask 1") == InputError(f"ask box 1 is not possible now. {now}")
    assert send(table, 1, "cancel 2") == InputError(f"cancel box 2 is not possible now. {now}")
    assert send(table, 1, "ask 3") == Move(
        "request_exchange", {"box": 3},
        note="box 3 asks for the dealer exchange: fee 5 chips (its Ante) if you continue")
    assert send(table, 1, "cancel 3") == Move("cancel_exchange", {"box": 3})
    assert "asking: box 1" in str(sg.choices_text(sg.legal_choices(table.snapshot(1))))
    assert send(table, 1, "continue") == Move("continue", note="continued: boxes 1 ask for the exchange (fee 10 chips)")
    assert table.state.phase == "settled"
    assert table.state.settlement.exchanged


def test_a_whole_hand_typed_by_players_is_played_by_the_rules() -> None:
    table = sixcard(deck=DECK)
    for seat, line in ((1, "bet 1:10+1 2:10 3:5"), (2, "bet 4:+5"), (1, "d"), (2, "d"), (1, "x 4 5"), (1, "r"),
                       (1, "fold"), (1, "ask 3"), (1, "continue")):
        assert isinstance(send(table, seat, line), Move), (line, table.state.phase)
    assert table.state.phase == "settled"


_token = st.tuples(st.integers(0, 5), st.integers(0, 120), st.integers(0, 30))


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(_token, min_size=1, max_size=5), stack=st.integers(0, 1500),
       max_ante=st.one_of(st.none(), st.integers(5, 100)), max_bonus=st.one_of(st.none(), st.integers(1, 25)))
def test_a_bet_line_is_sent_exactly_when_the_rules_accept_it(tokens: list[tuple[int, int, int]], stack: int,
                                                           max_ante: int | None, max_bonus: int | None) -> None:
    table = sixcard({1: stack, 2: 1000}, max_ante=max_ante, max_bonus=max_bonus)
    table.move(2, "bet", {"bets": [{"box": 2, "ante": 5}]})
    line = "bet " + " ".join(f"{box}:{ante}+{bonus}" if ante else f"{box}:+{bonus}" for box, ante, bonus in tokens)
    snapshot = table.snapshot(1)
    parsed = judged(sg.parse_line(line, sg.legal_choices(snapshot)), snapshot)  # what the play loop sends
    accepted = table.accepts(1, "bet", {"bets": [{"box": b, "ante": a, "bonus": n} for b, a, n in tokens]})
    assert isinstance(parsed, Move) == accepted, (line, parsed)


@settings(max_examples=80, deadline=None)
@given(positions=st.lists(st.integers(0, 6), min_size=1, max_size=6))
def test_an_exchange_is_sent_exactly_when_the_rules_accept_it(positions: list[int]) -> None:
    table = dealt()
    snapshot = table.snapshot(1)
    parsed = judged(sg.parse_line("x " + " ".join(map(str, positions)), sg.legal_choices(snapshot)), snapshot)
    assert isinstance(parsed, Move) == table.accepts(1, "exchange", {"discard": positions}), (positions, parsed)


# ------------------------------------------------------------------ the view


def test_the_box_in_turn_shows_numbered_cards_and_later_boxes_stay_unseen() -> None:
    text = plain(sg.table_lines(dealt().snapshot(1), symbols=False))
    assert ">box 1 ann*       open  10+1   1:Qc 2:Qd 3:Qh 4:4s 5:2d  three of a kind (bonus pays) · to act" in text
    assert " box 2 ann*       open  10     not seen yet" in text
    assert " box 3 ann*       blind 5      not seen yet · Bet 10" in text
    assert " box 4 bob        bonus +5     face down" in text
    assert "Dealer: 5h up, four cards down" in text
    assert "Kh" not in text  # the dealer's hole cards


def test_a_draw_shows_its_fee_and_the_new_cards_to_the_owner_only() -> None:
    table = dealt()
    send(table, 1, "x 4 5")
    mine = plain(sg.table_lines(table.snapshot(1), symbols=False))
    assert "1:Qc 2:Qd 3:Qh 4:8c 5:6s" in mine
    assert "exchanged 2, fee 10" in mine
    theirs = plain(sg.table_lines(table.snapshot(2), symbols=False))
    assert "8c" not in theirs
    assert "exchanged, fee 10" in theirs


def test_the_exchange_phase_and_its_clock_show_in_the_header_and_the_table() -> None:
    table = exchange_phase()
    table.clock = {"kind": "exchange", "seat": None, "deadline": 1015.0}
    send(table, 1, "ask 1")
    snap = table.snapshot(1)
    head = header_line(snap, 1000.0).plain
    assert "dealer exchange · ARRANGED DECK · ask or continue · 0:15" in head
    text = plain(sg.table_lines(snap, symbols=False))
    assert "Kh Jh Td 6d 5h  high card · does NOT qualify" in text
    assert "asks for the exchange" in text


def test_the_live_screen_fits_80_columns() -> None:
    snap = dealt().snapshot(1)
    lines = screen_lines(Screen(snapshot=snap, body=sg.table_lines(snap, symbols=True),
                                choices=sg.choices_text(sg.legal_choices(snap))), 80, 24)
    assert all(len(line.plain) <= 80 for line in lines)
    assert any(line.plain.startswith("Box 1 (three of a kind)") for line in lines)


# ------------------------------------------------------------------ results and the log


def settled_with_exchange() -> Table:
    table = exchange_phase()
    send(table, 1, "ask 1")
    send(table, 1, "continue")
    return table


def test_results_give_each_boxs_draw_fee_ante_bet_bonus_and_net() -> None:
    table = settled_with_exchange()
    lines = plain(sg.result_lines(table.reveal(), {1: "ann", 2: "bob"}, 1, symbols=False)).splitlines()
    assert lines[0] == f"Hand #{HAND_ID} · Dealer: Kh Jh Td 6d 5h  high card · does NOT qualify"
    assert lines[1] == "  exchanged: Jh Td 6d 5h 2c  high card · still does not qualify"
    results = {line.split()[1]: line for line in lines if line.startswith("  box ")}
    assert "draw fee -10 ante -10 bet 0 bonus +25 = net +5 (dealer exchange)" in results["1"]
    assert "draw fee -10 ante +10 bet 0 = net 0" in results["2"]
    assert "blind ante +5 bet 0 = net +5" in results["3"]
    assert "bonus bonus +125 = net +125" in results["4"]


def test_every_event_of_a_hand_reads_as_a_line() -> None:
    table = settled_with_exchange()
    names = {1: "ann", 2: "bob"}
    said = "\n".join(line for line in (sg.describe_event(e, names) for e in table.public) if line)
    for expected in ("ann bets box 1 ante 10 +bonus 1 (open), box 2 ante 10 (open), box 3 ante 5 (blind)",
                     "bob bets box 4 +bonus 5 (bonus only)", "blind Bets placed: box 3 (ann) 10",
                     "ann exchanges cards for box 1 (fee 10)", "ann buys a sixth card for box 2 (fee 10)",
                     "ann sees blind box 3", "dealer exchange: ann may ask",
                     "ann asks for the dealer exchange on box 1",
                     "ann continues asking for the exchange on box 1", "the dealer's Kh is replaced by 2c for box 1",
                     "still does not qualify", "hand settled: the players net +135"):
        assert expected in said, expected


def _follow(table: Table, seat: int | None, seed: str | None = None) -> Tracker:
    tracker = Tracker(symbols=False)
    tracker.on_snapshot(table.snapshot(seat), 0.0)
    if seat is not None and seed is not None:
        tracker.note_bet(HAND_ID, seat, seed)
    privates = iter(table.private.get(seat or -1, []))
    for event in table.public:
        tracker.on_event(event)
        if event["type"] in ("turn_started", "cards_drawn", "blind_boxes_shown", "cards_dealt") and seat is not None:
            for payload in privates:
                tracker.on_private(payload)
                break
    tracker.on_event(table.reveal())
    return tracker


def _seeded() -> Table:
    table = sixcard()
    table.move(1, "bet", {"bets": [{"box": 1, "ante": 10, "bonus": 2}, {"box": 3, "ante": 10}, {"box": 4, "bonus": 1}],
                          "seed": "ann"})
    table.move(2, "bet", {"bets": [{"box": 2, "ante": 10}], "seed": "bob"})
    table.move(1, "deal")
    table.move(2, "deal")
    while table.state.phase == "decisions":
        box = table.state.turn
        seat = table.state.box(box).seat
        table.move(seat, "exchange" if box == 1 else "raise", {"discard": [1, 2]} if box == 1 else {})
        if box == 1:
            table.move(seat, "fold")
    if table.state.phase == "exchange":
        for seat in table.state.exchange_owners:
            table.move(seat, "continue")
    assert table.state.phase == "settled"
    return table


def test_a_player_checks_the_deal_with_their_boxes_as_dealt() -> None:
    table = _seeded()
    tracker = _follow(table, 1, "ann")
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True, tracker.verdict
    seen = tracker.hands[HAND_ID].cards
    assert {0, 1, 4} <= set(seen)  # the dealer, the box that drew (as dealt), the bonus-only box
    assert tracker.results[0].plain.startswith(f"Hand #{HAND_ID} · Dealer:")


def test_a_spectator_checks_the_dealer_and_the_boxes_shown_without_a_draw() -> None:
    tracker = _follow(_seeded(), None)
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True
    assert "deal verified" in tracker.verdict.headline


def test_the_history_lists_a_hand_with_each_seats_net() -> None:
    reveal = {**settled_with_exchange().reveal(), "number": 2}  # the table's own count, not the id
    assert hand_row(reveal) == "#2     played    ARRANGED 6 Card Poker: ann +10 · bob +125"
    text = plain(hand_lines(reveal))
    assert "box 1 ann" in text
    assert "exchanged (fee 10)" in text
    assert "arranged deck: not a random deal" in text


# ------------------------------------------------------------------ bots


@settings(max_examples=60, deadline=None)
@given(strategy=st.sampled_from(["basic", "random"]), stack=st.integers(0, 3000), seed=st.integers(0, 10**6),
       ante=st.one_of(st.none(), st.integers(1, 300)), taken=st.lists(st.integers(1, 4), max_size=3, unique=True),
       max_ante=st.one_of(st.none(), st.integers(5, 50)))
def test_the_bots_bets_are_always_accepted_by_the_rules(strategy: str, stack: int, seed: int, ante: int | None,
                                                       taken: list[int], max_ante: int | None) -> None:
    table = sixcard({1: stack, 2: 10000}, max_ante=max_ante)
    if taken:
        table.move(2, "bet", {"bets": [{"box": b, "ante": 5} for b in taken]})
    bets = sg.choose_bets(strategy, sg.legal_choices(table.snapshot(1)), random.Random(seed), ante, prefer=1)
    if bets is not None:
        table.move(1, "bet", {"bets": sg.bets_payload(bets)})  # raises if the rules refuse
        assert len(bets) == 1 or strategy == "random"


@pytest.mark.parametrize("seed", range(12))
def test_bots_play_whole_hands_with_moves_the_rules_accept(seed: int) -> None:
    rng = random.Random(seed)
    table = sixcard({1: 5000, 2: 5000})
    for seat, strategy in ((1, "random"), (2, "basic" if seed % 2 else "random")):
        bets = sg.choose_bets(strategy, sg.legal_choices(table.snapshot(seat)), rng, prefer=seat)
        if bets:
            table.move(seat, "bet", {"bets": sg.bets_payload(bets)})
            table.move(seat, "deal")
        else:
            table.move(seat, "pass")  # as the bots do: nobody waits for a player who bets nothing
    strategies = {1: "random", 2: "basic" if seed % 2 else "random"}
    for _ in range(30):
        if table.state.phase in ("settled", "not_dealt", "void"):
            break
        for seat in (1, 2):
            choices = sg.legal_choices(table.snapshot(seat))
            moves = [sg.choose_decision(strategies[seat], choices, rng)] if choices.kind == "decision" \
                else sg.choose_asks(strategies[seat], choices, rng)
            for move in moves:
                assert move is not None
                table.move(seat, move.action, move.args)  # raises if the rules refuse
    assert table.state.phase in ("settled", "not_dealt")


def test_the_basic_bot_raises_pairs_never_draws_and_asks_with_trips() -> None:
    rng = random.Random(1)
    choices = sg.legal_choices(dealt().snapshot(1))
    assert sg.choose_decision("basic", choices, rng) == Move("raise", {"box": 1})
    assert sg.choose_decision("stubborn", choices, rng) is None
    asks = sg.legal_choices(exchange_phase().snapshot(1))
    # box 1 holds three queens (before its draw too), boxes 2 and 3 a pair each
    assert sg.choose_asks("basic", asks, rng) == [Move("request_exchange", {"box": 1}), Move("continue")]
