"""The examples in the client's docstrings hold (pytest collects doctests under tests/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["account", "bot_choices", "bot_team", "hcf_refusals", "history", "host", "lobby", "offers", "parse",
           "reasons", "render", "start", "trainees",
           "verify", "games",
           "games.house", "games.commands", "games.generic", "games.limits", "games.caribbean.refusals",
           "games.sixcard.refusals", "drill.grammar", "drill.screen",
           *(f"games.{game}.{part}" for game in ("caribbean", "sixcard")
             for part in ("choices", "parse", "view", "bots"))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"client_cli.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0
