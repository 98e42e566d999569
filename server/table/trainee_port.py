"""The port a live drill table keeps its trainee's reports through (issue 27, item 4).

:class:`server.storage.trainees.TraineeStore` implements it over the database (the composition root's
bindings); the table calls it once its drill ends, after the ``drill_ended`` event is recorded
(persist, then tell): ``await keeper.keep_drill_report(drill.settings.trainee, result, source="live",
mode=drill.settings.mode, partial=PARTIAL)``, ``PARTIAL`` being whether a step was still asked when
the host ended the session.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from server.rules.vocabulary import JSON


@runtime_checkable
class DrillReportKeeper(Protocol):
    """Keeps one drill report in a trainee's history."""

    async def keep_drill_report(self, trainee: str, report: JSON, *, source: str = "live",
                                mode: str = "training", partial: bool = False) -> None:
        """Keep ``report`` (the engine's, as the trainer sees it) in ``trainee``'s history."""
        ...
