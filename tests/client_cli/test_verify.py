"""The client's check of a revealed deal (docs/rules/hcf.md section 6)."""

from __future__ import annotations

import dataclasses

from client_cli.verify import ARRANGED, Seen, deal, seen_from_reveal, verify_reveal
from server.rules.cards import parse_cards
from server.rules.fairness import derive_deck_seed, shuffled_deck
from tests.client_cli.samples import SERVER_SEED, PlayedHand, play_a_hand


def _seen_by_bob(played: PlayedHand) -> Seen:
    """What bob (seat 2, who raised) saw: his cards, the DP's, the hands shown."""
    return Seen(commitment=played.state.commitment, my_seat=2, my_seed="bob's seed",
                cards={2: played.own_cards(2)["cards"], **seen_from_reveal(played.reveal)})


def test_the_deal_rebuilt_from_the_seeds_is_the_deal_of_the_rules_core() -> None:
    played = play_a_hand()
    seeds = [s.encode() for _, s in played.reveal["player_seeds"]]
    rebuilt = deal(shuffled_deck(derive_deck_seed(SERVER_SEED, seeds)), played.reveal["deal_order"])
    assert rebuilt == dict(played.state.hands)


def test_a_fair_hand_is_verified_with_every_hand_seen() -> None:
    played = play_a_hand()
    verdict = verify_reveal(played.reveal, _seen_by_bob(played))
    assert verdict.ok is True
    assert verdict.headline == "hand #41: deal verified (2 hands checked against the revealed seed)"
    assert verdict.problems == ()


def test_a_folded_players_own_cards_are_checked_too() -> None:
    played = play_a_hand()
    seen = Seen(played.state.commitment, 3, "cy", {3: played.own_cards(3)["cards"]})
    assert verify_reveal(played.reveal, seen).ok is True


def test_a_seed_that_does_not_match_the_commitment_warns() -> None:
    played = play_a_hand()
    reveal = {**played.reveal, "server_seed": bytes(32).hex()}
    verdict = verify_reveal(reveal, _seen_by_bob(played))
    assert verdict.ok is False
    assert verdict.headline.startswith("WARNING")
    assert any("does not match the commitment" in p for p in verdict.problems)


def test_a_commitment_changed_after_the_bets_warns() -> None:
    played = play_a_hand()
    seen = dataclasses.replace(_seen_by_bob(played), commitment="ab" * 32)
    verdict = verify_reveal(played.reveal, seen)
    assert verdict.ok is False
    assert any("commitment changed" in p for p in verdict.problems)


def test_a_missing_player_seed_warns() -> None:
    played = play_a_hand()
    reveal = {**played.reveal, "player_seeds": [[3, "cy"]]}
    verdict = verify_reveal(reveal, _seen_by_bob(played))
    assert verdict.ok is False
    assert any("your seed is missing" in p for p in verdict.problems)


def test_cards_that_the_seed_does_not_deal_warn_and_name_the_seat() -> None:
    played = play_a_hand()
    seen = _seen_by_bob(played)
    mine = list(seen.cards[2])
    other = next(c for c in ("2c", "2d", "2h", "2s", "3c") if c not in mine and
                 all(c not in cards for cards in seen.cards.values()))
    verdict = verify_reveal(played.reveal, dataclasses.replace(seen, cards={**seen.cards, 2: [other, *mine[1:]]}))
    assert verdict.ok is False
    assert "DEAL NOT VERIFIED" in verdict.headline
    assert any(p.startswith("seat 2 was shown") for p in verdict.problems)


def test_a_wrong_deck_seed_warns() -> None:
    played = play_a_hand()
    verdict = verify_reveal({**played.reveal, "deck_seed": "00" * 32}, _seen_by_bob(played))
    assert verdict.ok is False


def test_an_arranged_deck_is_never_called_verified() -> None:
    deck = parse_cards("Ah Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s "
                       "Ac Kc Qc Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c")
    played = play_a_hand(arranged=deck)
    verdict = verify_reveal(played.reveal, _seen_by_bob(played))
    assert verdict.ok is None
    assert verdict.arranged
    assert ARRANGED in verdict.headline
    assert "verified" not in verdict.headline.replace("not a random deal", "")


def test_a_hand_without_cards_has_nothing_to_verify() -> None:
    verdict = verify_reveal({"hand_id": 5, "status": "not_dealt", "deal_order": []}, Seen())
    assert verdict.ok is None
    assert "nothing to verify" in verdict.headline


def test_a_spectator_checks_the_dp_and_the_shown_hands() -> None:
    played = play_a_hand()
    seen = seen_from_reveal(played.reveal)
    assert set(seen) == {1, 2}  # the DP and the hand that raised; the fold is never shown
    assert verify_reveal(played.reveal, Seen(cards=seen)).ok is True
