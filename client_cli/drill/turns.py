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

from server.i18n import _


def names_words(names: list[str]) -> str:
    """``ana``; ``ana and ben``; ``ana, ben and cy``."""
    return names[0] if len(names) == 1 else _("{items} and {last}", items=", ".join(names[:-1]), last=names[-1])


def who_trains(drill: Mapping[str, Any]) -> str:
    """``trainee tina``, or ``trainees ana and ben`` (a drill's snapshot, or a report)."""
    names = [str(n) for n in drill.get("trainees") or [drill.get("trainee")]]
    return _("trainee {name}", name=drill.get("trainee")) if len(names) <= 1 else \
        _("trainees {names}", names=names_words(names))


def turn_sentence(drill: Mapping[str, Any]) -> str:
    """The drill's trainee, or its trainees, how many hands each deals and whose turn it is now."""
    if len(drill.get("trainees") or ()) <= 1:
        return who_trains(drill)
    hands = int(drill.get("trainee_turn") or 1)
    each = _("1 hand each") if hands == 1 else _("{hands} hands each", hands=hands)
    return _("{who} deal in turn, {each}; {name} deals now", who=who_trains(drill), each=each,
             name=drill.get("trainee"))


def step_owner(step: Mapping[str, Any], name: str | None) -> str | None:
    """What a trainee is told of a step another trainee answers (None: the step is theirs, or nobody is named)."""
    owner = step.get("trainee")
    if name is None or owner is None or str(owner).lower() == name.lower():
        return None
    return _("hand {hand} is {owner}'s to deal: step {n} is theirs to answer; you watch until your turn",
             hand=step.get("hand"), owner=owner, n=step.get("n"))
