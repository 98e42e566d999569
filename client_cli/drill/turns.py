"""Whose turn it is at a live drill table with several trainees (docs/drills.md, "Several trainees"), in words.

>>> turn_sentence({"trainee": "tina"})
'trainee tina'
>>> turn_sentence({"trainee": "ben", "trainees": ["ana", "ben"], "trainee_turn": 1})
'trainees ana and ben deal in turn, 1 hand each; ben deals now'
>>> print(step_owner({"trainee": "ben", "hand": 4, "n": 7}, "ana"))
hand 4 is ben's to deal: step 7 is theirs to answer; you watch until your turn
>>> step_owner({"trainee": "ana", "hand": 3, "n": 5}, "Ana") is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def names_words(names: list[str]) -> str:
    """``ana``; ``ana and ben``; ``ana, ben and cy``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def who_trains(drill: Mapping[str, Any]) -> str:
    """``trainee tina``, or ``trainees ana and ben`` (a drill's snapshot, or a report)."""
    names = [str(n) for n in drill.get("trainees") or [drill.get("trainee")]]
    return f"trainee {drill.get('trainee')}" if len(names) <= 1 else f"trainees {names_words(names)}"


def turn_sentence(drill: Mapping[str, Any]) -> str:
    """The drill's trainee, or its trainees, how many hands each deals and whose turn it is now."""
    if len(drill.get("trainees") or ()) <= 1:
        return who_trains(drill)
    hands = int(drill.get("trainee_turn") or 1)
    return (f"{who_trains(drill)} deal in turn, {hands} hand{'s' if hands != 1 else ''} each; "
            f"{drill.get('trainee')} deals now")


def step_owner(step: Mapping[str, Any], name: str | None) -> str | None:
    """What a trainee is told of a step another trainee answers (None: the step is theirs, or nobody is named)."""
    owner = step.get("trainee")
    if name is None or owner is None or str(owner).lower() == name.lower():
        return None
    return f"hand {step.get('hand')} is {owner}'s to deal: step {step.get('n')} is theirs to answer; " \
           "you watch until your turn"
