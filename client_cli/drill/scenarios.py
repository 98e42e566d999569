"""The scenarios ``hcf drill`` rehearses: one shipped with the server, by name, or a file, by path.

The client reads the files itself (the server's reader is part of the server); what a scenario
is and how it is checked is the pure :mod:`server.rules.drill.scenario`, the same on both sides.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from server.i18n import phrase
from server.rules.drill.scenario import Scenario, ScenarioError, from_text


def _folder() -> Traversable:
    # The server's package data (pyproject.toml's package-data), read as files: nothing of server.drill is imported.
    return resources.files("server") / "drill" / "scenarios"


def shipped() -> list[str]:
    """The names of the scenarios shipped with the server, sorted."""
    return sorted(p.name[: -len(".json")] for p in _folder().iterdir() if p.name.endswith(".json"))


def load(name_or_path: str) -> Scenario:
    """A shipped scenario by name, or a scenario file by path; raises ScenarioError with a sentence."""
    names = shipped()
    if name_or_path in names:
        return from_text((_folder() / f"{name_or_path}.json").read_text("utf-8"), name_or_path)
    path = Path(name_or_path)
    if not path.is_file():
        raise ScenarioError(phrase("{name}: no shipped scenario of that name and no such file (shipped: {names})",
                                   name=name_or_path, names=", ".join(names)))
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(phrase("{name}: cannot be read: {problem}", name=name_or_path, problem=str(exc))) from None
    return from_text(text, name_or_path)
