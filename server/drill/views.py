"""Kept importable from here for the server's own modules.

The code is pure and lives in :mod:`server.rules.drill.views`.
"""

from server.rules.drill.views import (
    BEFORE,
    GAME_NAMES,
    DealerView,
    Moment,
    SeatView,
    Seen,
    Where,
    dealer_view,
    event_questions,
    irregularity_question,
    moments,
    see,
    view_from_json,
    view_json,
)

__all__ = [
    "BEFORE",
    "GAME_NAMES",
    "DealerView",
    "Moment",
    "SeatView",
    "Seen",
    "Where",
    "dealer_view",
    "event_questions",
    "irregularity_question",
    "moments",
    "see",
    "view_from_json",
    "view_json",
]
