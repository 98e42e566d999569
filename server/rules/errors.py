"""The rejections the rules can give, each with a stable code.

Codes are ``area/reason`` strings; the wire protocol carries them unchanged, so
they are a contract: add new ones, never rename.
"""

from __future__ import annotations

from typing import ClassVar


class RuleError(ValueError):
    """A request the rules refuse. ``code`` is stable; the message is for people."""

    code: ClassVar[str] = "rules/invalid"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code  # type: ignore[misc]  # per-instance refinement of the class code

    @property
    def message(self) -> str:
        """The human-readable sentence."""
        return str(self.args[0])


class SettingsError(RuleError):
    """Invalid table settings; the message names the setting."""

    code = "settings/invalid"


class Violation(RuleError):  # noqa: N818 - the rules vocabulary: a violation of them
    """An event or command the hand state machine refuses; the state is unchanged."""

    code = "hand/invalid"


class SettleError(RuleError):
    """A hand or scenario that cannot be settled as given; the message names the seat, spot, box or key."""

    code = "settle/invalid"
