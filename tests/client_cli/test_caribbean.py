"""Caribbean Stud in the client: choices and parsing against the real rules, the view, the log, the results."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from client_cli.games import caribbean as cg
from client_cli.games.house import Move, idle
from client_cli.parse import Help, InputError, Leave, SitOut, TopUp
from client_cli.render import header_line
from client_cli.screen import Screen, plain, screen_lines
from client_cli.tracker import Tracker
from server.rules.cards import parse_cards
from server.rules.caribbean.messages import SpotBet
from server.rules.poker import qualifies_ak, rank5
from tests.client_cli.house_samples import HAND_ID, Table, arranged, caribbean, judged

# Spot 1 (ann) a pair of kings, spot 2 (bob) a flush, the dealer A-K high (qualifies).
DECK = arranged({1: "Kh Kd 7c 4s 2h", 2: "2s 6s 9s Js Qs", 0: "Ac Kc 8d 5h 3d"})


def betting(**settings: Any) -> Table:
    return caribbean(**settings)


def dealt(deck: tuple[int, ...] = DECK) -> Table:
    """ann bets spot 1 (10 + jackpot), bob spot 2 (20 + jackpot); both dealt: ann's turn on spot 1."""
    table = caribbean(deck=deck)
    table.move(1, "bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}]})
    table.move(2, "bet", {"bets": [{"spot": 2, "ante": 20, "jackpot": True}]})
    table.move(1, "deal")
    table.move(2, "deal")
    return table


def send(table: Table, seat: int, line: str) -> Any:
    """Type ``line`` as ``seat``: parse it against the choices of the moment and play the move through the rules."""
    snapshot = table.snapshot(seat)
    result = judged(cg.parse_line(line, cg.legal_choices(snapshot)), snapshot)
    if isinstance(result, Move):
        table.move(seat, result.action, result.args)
    return result


def settled() -> Table:
    table = dealt()
    send(table, 1, "play")
    send(table, 2, "play")
    assert table.state.phase == "settled"
    return table


# ------------------------------------------------------------------ choices


def test_bets_are_a_choice_with_the_free_spots_and_what_the_stack_covers() -> None:
    table = caribbean({1: 100, 2: 1000})
    table.move(2, "bet", {"bets": [{"spot": 3, "ante": 10}]})
    choices = cg.legal_choices(table.snapshot(1))
    assert choices.kind == "bets"
    assert 3 not in choices.free
    assert dict(choices.taken) == {3: "bob"}
    assert (choices.min_ante, choices.max_ante, choices.wager) == (5, 500, 1)
    assert choices.top_ante == 33  # 3x the Ante plus the jackpot wager within 100
    assert "up to 3 of spots 1 2 4 5 6 7" in str(cg.choices_text(choices))


def test_placed_and_confirmed_bets_change_what_is_asked() -> None:
    table = betting()
    send(table, 1, "bet 1:10j 4:5")
    placed = cg.legal_choices(table.snapshot(1))
    assert placed.placed == (SpotBet(1, 10, True), SpotBet(4, 5, False))
    assert cg.choices_text(placed) == "Your bets 1:10j 4:5: deal (d) to confirm them, clear (c), pass, or bet again"
    table.move(2, "bet", {"bets": [{"spot": 2, "ante": 5}]})
    send(table, 1, "deal")
    confirmed = cg.legal_choices(table.snapshot(1))
    assert confirmed.confirmed
    assert "are confirmed" in str(cg.choices_text(confirmed))
    assert send(table, 1, "bet 1:10") == InputError("bet is not possible now. Now you may: clear")  # the server's


def test_a_seat_not_in_the_hand_is_not_offered_bets() -> None:
    table = betting()
    snap = table.snapshot(1)
    snap["hand"]["seats"] = [2]  # the tracker adds who takes part, from betting_opened
    snap["choices"] = table.choices(3) | {"seat": 1}  # the server offers a seat outside the hand nothing
    assert cg.legal_choices(snap).kind is None
    snap["hand"]["seats"] = [1, 2]
    snap["choices"] = table.choices(1)
    assert cg.legal_choices(snap).kind == "bets"


def test_the_decision_is_on_the_spot_in_turn_with_its_cards() -> None:
    table = dealt()
    choices = cg.legal_choices(table.snapshot(1))
    assert (choices.kind, choices.spot, choices.ante, choices.cls) == ("decision", 1, 10, "pair")
    assert sorted(choices.cards) == sorted(["Kh", "Kd", "7c", "4s", "2h"])
    assert cg.choices_text(choices) == \
        "Your turn on spot 1 (pair): play (p) = Back Bet 20, or fold (f) = lose the Ante 10"
    assert cg.legal_choices(table.snapshot(2)).kind is None
    assert cg.legal_choices(table.snapshot(None)).kind is None


def test_leaving_asks_nothing() -> None:
    assert idle(cg.legal_choices(dealt().snapshot(1))).kind is None


# ------------------------------------------------------------------ parsing


def test_bet_lines_become_the_bet_move() -> None:
    choices = cg.legal_choices(betting().snapshot(1))
    assert cg.parse_line("bet 1:10j 2:10", choices) == Move(
        "bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}, {"spot": 2, "ante": 10, "jackpot": False}]})
    assert cg.parse_line("10+j 20", choices) == Move(
        "bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}, {"spot": 2, "ante": 20, "jackpot": False}]})


def test_bets_without_a_spot_take_the_players_own_spots_first() -> None:
    table = betting()
    send(table, 1, "bet 5:10")
    assert send(table, 1, "bet 20j") == Move("bet", {"bets": [{"spot": 5, "ante": 20, "jackpot": True}]})


@pytest.mark.parametrize(("line", "message"), [
    ("bet 9:10", "spot 9: this table's spots are 1 to 7"),
    ("bet 3:10", "spot 3 is taken by bob; free: 1 2 4 5 6 7"),
    ("bet 1:10 1:20", "spot 1 is named twice"),
    ("bet 1:10 2:10 4:10 5:10", "you may bet on at most 3 spots, got 4"),
    ("bet 1:4", "spot 1: the Ante is 5 to 333 chips, got 4"),  # the largest the server offers (3x it covered), as
    ("bet 1:600", "spot 1: the Ante is 5 to 333 chips, got 600"),  # the terminal has always said (test_house_live)
    ("bet 1:200j 2:133j", "your stack of 1000 must cover 3x each Ante (Ante and Back Bet) plus the jackpot "
                          "wagers: 1001 chips"),
    ("bet spot 1", "say 'bet SPOT:ANTE[j] ...', e.g. 'bet 1:10j 2:10' (j: the jackpot wager), or 'bet 10j'"),
    ("deal", "deal is not possible now. Now you may: bet (Ante 5 to 333), pass"),  # the server's choices say
    ("clear", "clear is not possible now. Now you may: bet (Ante 5 to 333), pass"),
    ("play", "it is not your turn to play"),
    ("raise 10", "unknown command 'raise': type 'help' for the commands"),
    ("delt", "unknown command 'delt': did you mean 'deal'? (type 'help' for the commands)"),
])
def test_invalid_input_is_explained_and_never_sent(line: str, message: str) -> None:
    table = betting()
    table.move(2, "bet", {"bets": [{"spot": 3, "ante": 10}]})
    snapshot = table.snapshot(1)
    assert judged(cg.parse_line(line, cg.legal_choices(snapshot)), snapshot) == InputError(message)


def test_a_table_without_the_jackpot_refuses_the_wager_before_sending() -> None:
    choices = cg.legal_choices(caribbean(jackpot=False).snapshot(1))
    assert cg.parse_line("bet 1:10j", choices) == InputError("this table offers no jackpot wager")
    assert "j =" not in str(cg.choices_text(choices))


def test_decisions_name_the_spot_in_turn() -> None:
    snapshot = dealt().snapshot(1)
    choices = cg.legal_choices(snapshot)
    assert cg.parse_line("p", choices) == Move("play", {"spot": 1})
    assert cg.parse_line("fold 1", choices) == Move("fold", {"spot": 1})
    assert cg.parse_line("fold 2", choices) == InputError("spot 1 is in turn: say 'fold' (or 'fold 1')")
    assert judged(cg.parse_line("bet 1:10", choices), snapshot) == InputError(
        "bet is not possible now. Now you may: play spot 1, fold spot 1")


def test_table_commands_work_at_any_time() -> None:
    snapshot = dealt().snapshot(1)
    choices = cg.legal_choices(snapshot)
    assert isinstance(cg.parse_line("help", choices), Help)
    assert isinstance(cg.parse_line("quit", choices), Leave)
    assert cg.parse_line("sitout", choices) == SitOut(True)
    assert judged(cg.parse_line("topup 50", choices), snapshot) == InputError(
        "topup is not possible now. Now you may: play spot 1, fold spot 1")  # between hands only: the server's
    assert cg.parse_line("topup 50", cg.Choices(seated=True)) == TopUp(50)


def test_a_whole_hand_typed_by_players_is_played_by_the_rules() -> None:
    table = caribbean(deck=DECK)
    assert isinstance(send(table, 1, "bet 1:10j"), Move)
    assert isinstance(send(table, 2, "bet 2:20j"), Move)
    assert isinstance(send(table, 2, "clear"), Move)
    assert isinstance(send(table, 2, "bet 2:20j 3:5"), Move)
    assert isinstance(send(table, 1, "d"), Move)
    assert isinstance(send(table, 2, "deal"), Move)
    assert table.state.phase == "decisions"
    assert isinstance(send(table, 2, "p"), InputError)  # ann's spot 1 is first
    for seat, line in ((1, "play"), (2, "play"), (2, "f")):
        assert isinstance(send(table, seat, line), Move)
    assert table.state.phase == "settled"


def test_rebet_places_last_hands_bets_through_the_rules() -> None:
    table = caribbean()
    table.state = table.game.new_hand(table.settings, list(table.state.players), bytes(32), offer_from=1,
                                      arranged_deck=None, carry={"last_bets": {"1": [[4, 15, True]]}})
    assert send(table, 1, "rebet") == Move("rebet")
    assert cg.legal_choices(table.snapshot(1)).placed == (SpotBet(4, 15, True),)


_bet_token = st.tuples(st.integers(0, 9), st.integers(0, 700), st.booleans())


@settings(max_examples=150, deadline=None)
@given(tokens=st.lists(_bet_token, min_size=1, max_size=5), stack=st.integers(0, 2000), jackpot=st.booleans())
def test_a_bet_line_is_sent_exactly_when_the_rules_accept_it(tokens: list[tuple[int, int, bool]], stack: int,
                                                           jackpot: bool) -> None:
    table = caribbean({1: stack, 2: 1000}, jackpot=jackpot)
    table.move(2, "bet", {"bets": [{"spot": 3, "ante": 10}]})
    line = "bet " + " ".join(f"{spot}:{ante}{'j' if j else ''}" for spot, ante, j in tokens)
    snapshot = table.snapshot(1)
    parsed = judged(cg.parse_line(line, cg.legal_choices(snapshot)), snapshot)  # what the play loop sends
    accepted = table.accepts(1, "bet", {"bets": [{"spot": s, "ante": a, "jackpot": j} for s, a, j in tokens]})
    assert isinstance(parsed, Move) == accepted, (line, parsed)


# ------------------------------------------------------------------ the view


def test_a_player_sees_their_spot_with_its_class_and_the_dealers_up_card_only() -> None:
    text = plain(cg.table_lines(dealt().snapshot(1), symbols=False))
    assert "Dealer: 3d up, four cards down" in text
    assert "spot 1 ann*" in text
    assert "Kh Kd 7c 4s 2h  pair · to act" in text
    assert "spot 2 bob" in text
    assert "five cards, face down" in text
    assert "Qs" not in text  # bob's flush
    assert "Ac" not in text  # the dealer's hole cards


def test_a_spectator_sees_no_card_but_the_up_card() -> None:
    text = plain(cg.table_lines(dealt().snapshot(None), symbols=False))
    for card in ("Kh", "Qs", "Ac"):
        assert card not in text
    assert "3d up" in text


def test_the_header_shows_the_meter_with_two_decimals_and_the_spot_in_turn() -> None:
    table = dealt()
    table.clock = {"kind": "decision", "seat": 1, "deadline": 1020.0}
    snap = table.snapshot(2)
    snap["jackpot_meter"] = 1234567
    head = header_line(snap, 1000.0).plain
    assert "ann to act on spot 1" in head
    assert "jackpot 12,345.67" in head
    assert "0:20" in head


def test_the_live_screen_fits_80_columns_and_shows_the_table() -> None:
    table = dealt()
    snap = table.snapshot(1)
    lines = screen_lines(Screen(snapshot=snap, body=cg.table_lines(snap, symbols=True),
                                choices=cg.choices_text(cg.legal_choices(snap))), 80, 24)
    assert all(len(line.plain) <= 80 for line in lines)
    assert "jackpot 10,000.00" in lines[0].plain
    assert any("Your turn on spot 1" in line.plain for line in lines)


def test_after_settlement_played_spots_are_shown_and_folded_ones_stay_hidden() -> None:
    table = dealt()
    send(table, 1, "play")
    send(table, 2, "fold")
    text = plain(cg.table_lines(table.snapshot(None), symbols=False))
    assert "Kh Kd 7c 4s 2h  pair · played (20)" in text
    assert "Ac Kc 8d 5h 3d  high card · qualifies" in text
    # bob's flush folded but won a jackpot award, so it is shown (docs/rules/caribbean.md section 3.6)
    assert "Qs Js 9s 6s 2s  flush" in text


# ------------------------------------------------------------------ results and the log


def test_results_give_each_spots_ante_back_bet_jackpot_and_net_and_announce_awards() -> None:
    table = settled()
    lines = plain(cg.result_lines(table.reveal(), {1: "ann", 2: "bob"}, 1, symbols=False)).splitlines()
    assert lines[0] == f"Hand #{HAND_ID} · Dealer: Ac Kc 8d 5h 3d  high card · qualifies"
    assert "spot 2 bob" in lines[1]
    assert "ante +20 back bet +200 jackpot +49 = net +269" in lines[1]
    assert "spot 1 ann" in lines[3]
    assert "ante +10 back bet +20 jackpot -1 = net +29" in lines[3]
    assert "JACKPOT! spot 2 (bob): flush wins 50 chips" in lines[5]
    assert lines[6] == "  jackpot meter 10,000.00 -> 10,001.00"


def test_void_and_undealt_hands_say_so() -> None:
    assert cg.result_lines({"hand_id": 3, "status": "void", "reason": "misdeal"}, {})[0].plain == \
        "Hand #3 was voided: the host declared a misdeal; every bet went back"
    assert cg.result_lines({"hand_id": 4, "status": "not_dealt", "reason": "no_ante"}, {})[0].plain == \
        "No hand dealt: nobody placed an Ante"


def test_every_event_of_a_hand_reads_as_a_line() -> None:
    table = settled()
    names = {1: "ann", 2: "bob"}
    lines = [cg.describe_event(e, names) for e in table.public]
    said = "\n".join(line for line in lines if line)
    assert "ann bets spot 1 ante 10 +jackpot" in said
    assert "cards dealt to 2 spots; the dealer shows 3d" in said
    assert "ann plays spot 1 (Back Bet 20)" in said
    assert "the dealer shows" in said
    assert "qualifies (A-K or better)" in said
    assert "JACKPOT: spot 2 wins 50 (flush)" in said
    assert cg.describe_event({"type": "spot_folded", "seat": 2, "spot": 2, "reason": "clock"}, names) == \
        "bob folds spot 2 (the clock ran out)"
    assert cg.describe_event({"type": "player_sat", "seat": 3, "name": "cy", "stack": 500}, names) == \
        "cy sits at seat 3 with 500"


def _follow(table_of: Any, seat: int | None, seed: str | None = None) -> Tracker:
    tracker = Tracker(symbols=False)
    table = table_of()
    tracker.on_snapshot(table.snapshot(seat), 0.0)
    if seat is not None and seed is not None:
        tracker.note_bet(HAND_ID, seat, seed)
    for event in table.public:
        tracker.on_event(event)
    for payload in table.private.get(seat or -1, []):
        tracker.on_private(payload)
    tracker.on_snapshot(table.snapshot(seat), 0.0)
    tracker.on_event(table.reveal())
    return tracker


def _seeded_hand() -> Table:
    table = caribbean()
    table.move(1, "bet", {"bets": [{"spot": 2, "ante": 10, "jackpot": True}, {"spot": 5, "ante": 10}],
                          "seed": "ann's seed"})
    table.move(2, "bet", {"bets": [{"spot": 1, "ante": 10}], "seed": "bob's"})
    table.move(1, "deal")
    table.move(2, "deal")
    while table.state.phase == "decisions":
        turn = table.state.turn
        table.move(turn.seat, "fold" if turn.spot == 5 else "play")
    return table


def test_a_player_checks_the_deal_with_their_spots_and_the_shown_hands() -> None:
    tracker = _follow(_seeded_hand, 1, "ann's seed")
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True, tracker.verdict
    assert tracker.hands[HAND_ID].cards.keys() >= {0, 1, 2, 5}  # the dealer, shown spots, ann's folded spot
    assert tracker.results[0].plain.startswith(f"Hand #{HAND_ID} · Dealer:")
    assert "ann deals (bets confirmed)" in tracker.log


def test_a_spectator_checks_the_dealer_and_the_shown_spots() -> None:
    tracker = _follow(_seeded_hand, None)
    assert tracker.verdict is not None
    assert tracker.verdict.ok is True
    assert "deal verified (3 hands" in tracker.verdict.headline


def test_a_wrong_card_in_the_reveal_is_a_warning() -> None:
    table = _seeded_hand()
    tracker = Tracker(symbols=False)
    tracker.on_snapshot(table.snapshot(None), 0.0)
    for event in table.public:
        if event["type"] == "hand_settled":  # the hand shown at the table is not the one the seeds deal
            spot, cards = event["shown"][0]
            event = {**event, "shown": [[spot, [c for c in ("As", "Ks", "Qs", "Js", "Ts") if c not in cards][:1]
                                                + cards[1:]]]}
        tracker.on_event(event)
    tracker.on_event(table.reveal())
    assert tracker.verdict is not None
    assert tracker.verdict.ok is False
    assert f"spot {spot} was shown" in "\n".join(tracker.verdict.lines)


def test_an_arranged_deck_is_never_called_verified() -> None:
    tracker = _follow(settled, 1)
    assert tracker.verdict is not None
    assert tracker.verdict.arranged


# ------------------------------------------------------------------ bots


def test_the_basic_bot_plays_a_k_or_better() -> None:
    rng = random.Random(3)
    for hand in ("Ac Kd 4h 3s 2c", "Ac Qd Jh Ts 9c", "2c 2d 5h 7s 9c", "Kh Qh 9c 5d 3s"):
        assert cg.choose_play("basic", hand.split(), rng) is qualifies_ak(rank5(parse_cards(hand)))
    assert cg.choose_play("stubborn", ["Ac", "Kd", "4h", "3s", "2c"], rng) is None


@settings(max_examples=60, deadline=None)
@given(strategy=st.sampled_from(["basic", "random"]), stack=st.integers(0, 3000), seed=st.integers(0, 10**6),
       ante=st.one_of(st.none(), st.integers(1, 800)), others=st.lists(st.integers(1, 7), max_size=6, unique=True))
def test_the_bots_bets_are_always_accepted_by_the_rules(strategy: str, stack: int, seed: int, ante: int | None,
                                                       others: list[int]) -> None:
    table = caribbean({1: stack, 2: 10000})
    if others:
        table.move(2, "bet", {"bets": [{"spot": s, "ante": 5} for s in others[:3]]})
    bets = cg.choose_bets(strategy, cg.legal_choices(table.snapshot(1)), random.Random(seed), ante, prefer=1)
    if bets is None:
        assert stack < 16 or not cg.legal_choices(table.snapshot(1)).free
        return
    table.move(1, "bet", {"bets": cg.bets_payload(bets)})  # raises if the rules refuse
    assert 1 <= len(bets) <= (1 if strategy == "basic" else 3)
