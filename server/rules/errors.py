"""The one refusal type, and the rules' names for it.

A :class:`Refusal` carries a ``code`` from the closed list
(:data:`~server.rules.vocabulary.RefusalCode`, checked by mypy) and a sentence for
people. Every layer raises it: the rules, the table, the store (once its own codes are
mapped, :mod:`server.persistence.errors`) and the request parser. The rules' subclasses
stay only because callers tell them apart (a bad setting, a refused command).
"""

from __future__ import annotations

from typing import ClassVar

from server.rules.vocabulary import RefusalCode


class Refusal(Exception):  # noqa: N818 - a refusal, not a failure: the request changed nothing
    """A refused request: ``code`` is stable and listed; ``message`` is a sentence for people."""

    def __init__(self, code: RefusalCode, message: str) -> None:
        super().__init__(message)
        self.code: RefusalCode = code
        self.message = message


class RuleError(Refusal, ValueError):
    """A request the rules refuse; the code defaults to the class's own."""

    default_code: ClassVar[RefusalCode] = "request/malformed"

    def __init__(self, message: str, code: RefusalCode | None = None) -> None:
        super().__init__(code or self.default_code, message)


class SettingsError(RuleError):
    """Invalid table settings; the message names the setting."""

    default_code = "settings/invalid"


class Violation(RuleError):  # noqa: N818 - the rules vocabulary: a violation of them
    """An event or command the hand state machine refuses; the state is unchanged."""

    default_code = "phase/wrong"


class SettleError(RuleError):
    """A hand or scenario that cannot be settled as given; the message names the seat, spot, box or key."""

    default_code = "settle/invalid"
