"""A live table asks the engine event by event: the same steps as the whole hand's key, in the same order."""

from __future__ import annotations

import pytest

from server.drill.play import dry_run
from server.drill.scenario import load, shipped
from server.rules.drill.key import event_steps, irregularity_step
from server.rules.games import game_named


@pytest.mark.parametrize("name", shipped())
def test_event_by_event_is_the_hands_key(name: str) -> None:
    scenario = load(name)
    game = game_named(scenario.game)
    for number, played in enumerate(dry_run(scenario)):
        irregularity = scenario.hands[number].irregularity
        state, steps = played.initial, []
        for event in played.events:
            after = game.evolve(state, event)
            steps += event_steps(scenario.game, state, event, after, scenario.chips)
            if irregularity is not None and type(event).__name__ == "CardsDealt":
                steps.append(irregularity_step(scenario.game, after, irregularity))
            state = after
        assert tuple(s for s in steps if s.step in scenario.steps) == played.key
