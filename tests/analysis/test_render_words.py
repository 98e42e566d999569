"""``hcf-server analyze`` without ``--json`` is words: hand names as people say them, each figure's strategy named.

Issue 23, item 10: it printed ``win with high_card``, ``min_ante`` and ``fee mode players``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.cli import main

CODE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # snake_case: a code, not a word


def shown(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, game: str) -> str:
    monkeypatch.setenv("COLUMNS", "200")  # one table row per line: no word is wrapped
    assert main(["analyze", "--game", game, "--cache-dir", str(cache)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game", ["hcf", "caribbean", "sixcard"])
def test_every_line_is_words(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, odds_cache: Path,
                             game: str) -> None:
    out = shown(capsys, monkeypatch, odds_cache, game)
    assert not CODE.findall(out), out


def test_hands_are_named_as_people_say_them(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                            odds_cache: Path) -> None:
    out = shown(capsys, monkeypatch, odds_cache, "caribbean")
    for outcome in ("win with high card", "win with one pair", "win with three of a kind", "win with full house",
                    "win with four of a kind", "win with straight flush", "win with royal flush"):
        assert re.search(rf"│ {outcome} +│", out), outcome
    assert re.search(r"│ royal flush +│ 100% of the meter", out)


def test_the_strategy_behind_each_figure_is_named(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch, odds_cache: Path) -> None:
    hcf = shown(capsys, monkeypatch, odds_cache, "hcf")
    assert "Basic strategy: raise the most allowed with a flush of 4 cards or more" in hcf
    assert "Optimal strategy: for each 7-card hand" in hcf
    assert "at the table's minimum Ante (5 chips) and plays the basic strategy" in hcf
    assert "High Card Flush, California profile" in hcf
    stud = shown(capsys, monkeypatch, odds_cache, "caribbean")
    assert "Ante + Back Bet, exact, under the simple strategy: play (raise) with ace-king or better" in stud
    assert "Ante + Back Bet, exact, under the best strategy: raise or fold for each hand and the dealer's up" in stud
    assert "Strategy card, the best strategy" in stud
    assert "Jackpot wager (1 chip, exact; the same whatever the player's strategy)" in stud
    six = shown(capsys, monkeypatch, odds_cache, "sixcard")
    assert "Ante + Bet, exact, the dealer exchange included, under the basic strategy: raise a pair" in six
    assert "Strategy card, the basic strategy" in six
    assert "Bonus (exact; judged on the original five cards, whatever the player's strategy)" in six
