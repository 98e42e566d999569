"""A clock that moves only when a test says so: the server's own ``ManualClock`` (server/clock.py)."""

from __future__ import annotations

from server.clock import MONOTONIC_START, ROUNDING, WALL_START, ManualClock, ManualTimer

__all__ = ["MONOTONIC_START", "ROUNDING", "WALL_START", "ManualClock", "ManualTimer"]
