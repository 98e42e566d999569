"""A live drill table's ``drill`` settings (DRILLS section 2 and 6): who is the trainee, which steps, how long.

>>> d = drill_settings({"trainee": "tina", "mode": "exam"}, "caribbean", house_banked=True)
>>> d.trainee, d.mode, d.step_seconds, d.steps
('tina', 'exam', 30, ('irregularity', 'qualify', 'settle_spot'))
>>> two = drill_settings({"trainees": ["ana", "ben"], "trainee_turn": 2}, "hcf", house_banked=False)
>>> [two.trainee_at(hand) for hand in range(1, 7)]
['ana', 'ana', 'ben', 'ben', 'ana', 'ana']
>>> drill_settings({"trainee": "tina", "step_seconds": 2}, "hcf", house_banked=False)
Traceback (most recent call last):
...
server.rules.errors.SettingsError: drill.step_seconds: a whole number of seconds from 5 to 600, got 2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from server.i18n import phrase
from server.rules.drill.standards import PassMarks, pass_setting, standards_setting
from server.rules.drill.steps import steps_asked
from server.rules.errors import SettingsError

MODES: Final = ("training", "exam")
STEP_SECONDS: Final = (5, 600)
DEFAULT_STEP_SECONDS: Final = 30
_KEYS: Final = ("trainee", "trainees", "trainee_turn", "steps", "mode", "step_seconds", "standards", "pass")
TRAINEES: Final = 8  # the most trainees one drill table names
TURN_HANDS: Final = (1, 100)  # how many hands each trainee deals in a turn
_STORED: Final = ("ended",)  # kept with the table's row; not a setting the host gives


@dataclass(frozen=True, slots=True)
class DrillSettings:
    """The trainee's account name, the steps asked, ``training`` or ``exam``, the seconds each step waits."""

    trainee: str
    steps: tuple[str, ...]
    mode: str = "training"
    step_seconds: int = DEFAULT_STEP_SECONDS
    ended: bool = False  # the session's ``end``: the table asks nothing more, the report stays
    standards: Mapping[str, int] = field(default_factory=dict)  # step kind -> seconds, over the defaults
    pass_marks: PassMarks | None = None  # an exam's pass marks (None: its report neither passes nor fails)
    trainees: tuple[str, ...] = ()  # several trainees who deal in turn (issue 27, item 6); (): ``trainee`` alone
    trainee_turn: int = 1  # hands each trainee deals in a turn

    @property
    def names(self) -> tuple[str, ...]:
        """Every trainee of the drill, in the order they deal."""
        return self.trainees or (self.trainee,)

    def trainee_at(self, hand: int) -> str:
        """Who deals the table's hand number ``hand`` (the first hand is 1): each in turn, ``trainee_turn`` hands
        each."""
        names = self.names
        return names[(max(hand, 1) - 1) // self.trainee_turn % len(names)]

    def as_dict(self) -> dict[str, Any]:
        """The settings as stored with the table and shown to everyone."""
        who: dict[str, Any] = ({"trainees": list(self.trainees), "trainee_turn": self.trainee_turn}
                               if self.trainees else {"trainee": self.trainee})
        return (who | {"steps": list(self.steps), "mode": self.mode,
                 "step_seconds": self.step_seconds} | ({"ended": True} if self.ended else {})
                | ({"standards": dict(self.standards)} if self.standards else {})
                | ({"pass": self.pass_marks.as_dict()} if self.pass_marks is not None else {}))

    def report_options(self) -> dict[str, Any]:
        """What :func:`server.rules.drill.report.report` takes from the drill: its standards, and in an exam its
        pass marks (``report(..., **settings.report_options())``)."""
        return {"standards": dict(self.standards), "marks": self.pass_marks if self.mode == "exam" else None}

    def is_trainee(self, name: str) -> bool:
        """Whether the account named ``name`` is a trainee here (names compare as the accounts do, case aside)."""
        return name.lower() in {n.lower() for n in self.names}


def drill_settings(values: Any, game: str, *, house_banked: bool, chips: bool = False) -> DrillSettings:
    """Check a table's ``drill`` object; raises SettingsError with a sentence naming the setting. ``chips``: the
    table has chips in play, so its default steps include the payouts."""
    if not isinstance(values, Mapping):
        raise SettingsError(phrase("drill is an object like {example}", example='{"trainee": "tina"}'))
    unknown = sorted(set(values) - set(_KEYS) - set(_STORED))
    if unknown:
        raise SettingsError(phrase("drill: no setting {name} (the settings: {known})", name=repr(unknown[0]),
                                   known=", ".join(_KEYS)))
    trainees, turn = _trainees(values)
    try:
        steps = steps_asked(values.get("steps"), game, house_banked, chips)
    except ValueError as exc:
        raise SettingsError(phrase("drill.{sentence}", sentence=exc.args[0] if exc.args else str(exc))) from None
    mode = values.get("mode", "training")
    if mode not in MODES:
        raise SettingsError(phrase("drill.mode: training or exam, got {value}", value=repr(mode)))
    seconds = values.get("step_seconds", DEFAULT_STEP_SECONDS)
    low, high = STEP_SECONDS
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not low <= seconds <= high:
        raise SettingsError(phrase("drill.step_seconds: a whole number of seconds from {low} to {high}, got {value}",
                                   low=low, high=high, value=repr(seconds)))
    standards = values.get("standards")
    try:
        standards_setting(standards)
        marks = pass_setting(values.get("pass"))
    except SettingsError as exc:
        raise SettingsError(phrase("drill.{sentence}", sentence=exc.message)) from None
    return DrillSettings(trainees[0], steps, mode, seconds, values.get("ended") is True,
                         dict(standards or {}), marks, trainees if "trainees" in values else (), turn)


def _trainees(values: Mapping[str, Any]) -> tuple[tuple[str, ...], int]:
    """The trainees (``trainee``, or ``trainees`` who deal in turn) and the hands of a turn."""
    if ("trainee" in values) == ("trainees" in values):
        raise SettingsError(phrase("drill.trainee: the trainee's account name (1 to 24 characters), or "
                                   "drill.trainees: the names of 1 to {most} trainees who deal in turn", most=TRAINEES))
    given = values["trainees"] if "trainees" in values else [values["trainee"]]
    if not isinstance(given, list) or not 1 <= len(given) <= TRAINEES:
        raise SettingsError(phrase("drill.trainees: a list of 1 to {most} account names, like {example}", most=TRAINEES,
                                   example='["ana", "ben"]'))
    names = tuple(_name(name) for name in given)
    if len({name.lower() for name in names}) < len(names):
        raise SettingsError(phrase("drill.trainees: each trainee is named once"))
    turn = values.get("trainee_turn", 1)
    low, high = TURN_HANDS
    if isinstance(turn, bool) or not isinstance(turn, int) or not low <= turn <= high:
        raise SettingsError(phrase("drill.trainee_turn: the hands each trainee deals in a turn, {low} to {high}, got "
                                   "{value}", low=low, high=high, value=repr(turn)))
    return names, turn


def _name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 24:
        raise SettingsError(phrase("drill.trainee: the trainee's account name (1 to 24 characters)"))
    return name.strip()
