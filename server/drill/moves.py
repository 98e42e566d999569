"""Kept importable from here for the server's own modules.

The code is pure and lives in :mod:`server.rules.drill.moves`.
"""

from server.rules.drill.moves import (
    HCF_BETS,
    SCRIPTS,
    Args,
    CaribbeanScript,
    Floor,
    GameScript,
    HcfScript,
    Move,
    SixcardScript,
    bet_args,
    floor_for,
    house_bets,
)

__all__ = [
    "HCF_BETS",
    "SCRIPTS",
    "Args",
    "CaribbeanScript",
    "Floor",
    "GameScript",
    "HcfScript",
    "Move",
    "SixcardScript",
    "bet_args",
    "floor_for",
    "house_bets",
]
