"""The shipped drill scenarios and scenario files, read from disk (docs/drills.md).

Reading is all this module does: the scenario itself, its checks and its
:class:`ScenarioError` are pure and live in :mod:`server.rules.drill.scenario` (the
names below stay importable from here for the server's own modules).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from server.rules.drill.scenario import (
    DRILL_CLOCKS,
    PLACE,
    HandSpec,
    Scenario,
    ScenarioError,
    SeatSpec,
    from_text,
    parse,
)


def shipped() -> list[str]:
    """The names of the scenarios shipped with the server, sorted."""
    folder = resources.files("server.drill") / "scenarios"
    return sorted(p.name[: -len(".json")] for p in folder.iterdir() if p.name.endswith(".json"))


def load(name_or_path: str) -> Scenario:
    """A shipped scenario by name, or a scenario file by path; raises ScenarioError."""
    if name_or_path in shipped():
        text = (resources.files("server.drill") / "scenarios" / f"{name_or_path}.json").read_text("utf-8")
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise ScenarioError(f"{name_or_path}: no shipped scenario of that name and no such file "
                                f"(shipped: {', '.join(shipped())})")
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ScenarioError(f"{name_or_path}: cannot be read: {exc}") from None
    return from_text(text, name_or_path)


__all__ = ["DRILL_CLOCKS", "PLACE", "HandSpec", "Scenario", "ScenarioError", "SeatSpec", "load", "parse", "shipped"]
