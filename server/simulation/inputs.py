"""``KEY=VALUE`` settings on the command line, shared by ``analyze`` and ``simulate``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


class InputError(ValueError):
    """Settings that cannot be analyzed or simulated; the message says why, in our words."""


def parse_pairs(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs, each value read as JSON when it parses (as ``hcf host create-table --set``).

    >>> parse_pairs(["min_ante=10", 'flush_pays={"7": 300, "6": 100, "5": 10, "4": 1}', "profile=standard"])
    {'min_ante': 10, 'flush_pays': {'7': 300, '6': 100, '5': 10, '4': 1}, 'profile': 'standard'}
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set takes KEY=VALUE, got {pair!r}")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out
