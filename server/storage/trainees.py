"""Trainees' drill reports (issue 27, item 4; docs/drills.md, "Progress over sessions"), kept in the database.

Every drill's report is a row of ``drill_report`` (server/persistence/drill_reports.py): a live
drill table's at its end (:meth:`TraineeStore.keep_drill_report`, called by the table), and an
``hcf drill`` rehearsal's or practice's sent by the client. The history is worked out from the
rows by the pure :mod:`server.rules.drill.progress`.
"""

from __future__ import annotations

from typing import Any

from server.i18n import phrase
from server.persistence.tx import Tx
from server.rules.drill.certificate import certificate
from server.rules.drill.progress import SOURCES, Kept, checked_report, history, overview
from server.rules.errors import Refusal
from server.rules.names import name_key
from server.storage.store import Store

MODES = ("training", "exam", "practice")


class TraineeStore(Store):
    """The trainees' kept reports over one :class:`Database`."""

    async def keep_drill_report(self, trainee: str, report: Any, *, source: str = "live",
                                mode: str = "training", partial: bool = False) -> None:
        """Keep one drill report in ``trainee``'s history (their account name); refuses a malformed one.

        A live drill table calls it when its session ends (``source="live"``), with the report it
        shows the trainer; ``partial`` when the session ended before its last step.
        """
        if source not in SOURCES or mode not in MODES:
            raise Refusal("request/malformed", phrase("a report comes from {sources}, in the mode {modes}",
                                                      sources=", ".join(SOURCES), modes=", ".join(MODES)))
        try:
            kept = checked_report(report)
        except ValueError as exc:
            raise Refusal("request/malformed", exc.args[0] if exc.args else str(exc)) from None  # (its phrase)
        scenario = str(kept.get("scenario") or "a drill")[:120]
        await self.db.run(lambda tx: tx.keep_drill_report(name_key(trainee), trainee[:24], source=source,
                                                          scenario=scenario, mode=mode, partial=partial,
                                                          report=kept))

    async def trainees(self) -> list[dict[str, Any]]:
        """Every trainee with a kept report: sessions, last seen, accuracy, certificates; by name."""
        async def read(tx: Tx) -> list[dict[str, Any]]:
            return [overview(name, await tx.drill_reports(key)) for key, name in await tx.drill_trainees()]
        return await self.db.run(read, write=False)

    async def trainee_history(self, trainee: str) -> dict[str, Any]:
        """One trainee's history (:func:`server.rules.drill.progress.history`); ``account/unknown`` without one."""
        name, kept = await self._kept(trainee)
        return history(name, kept)

    async def drill_certificate(self, trainee: str, session: int) -> dict[str, Any]:
        """The certificate of ``trainee``'s session ``session`` (counting from 1, as in the history), its digest
        worked out again from the kept report (:func:`server.rules.drill.certificate.certificate`);
        ``drill/no_certificate`` for a session that is not an exam passed."""
        name, kept = await self._kept(trainee)
        if not 1 <= session <= len(kept):
            raise Refusal("drill/no_certificate", phrase("{name} has {count} kept sessions, numbered 1 to {count}: "
                                                         "there is no session {session}", name=name, count=len(kept),
                                                         session=session))
        one = kept[session - 1]
        try:
            return certificate(trainee=name, session=session, at=one.at / 1e6, source=one.source,
                               scenario=one.scenario, report=one.report, kept_digest=one.digest)
        except ValueError as exc:
            raise Refusal("drill/no_certificate", exc.args[0] if exc.args else str(exc)) from None  # (its phrase)

    async def _kept(self, trainee: str) -> tuple[str, list[Kept]]:
        """The trainee's name as last written and their kept reports, oldest first; ``account/unknown`` without."""
        async def read(tx: Tx) -> dict[str, Any]:
            kept = await tx.drill_reports(name_key(trainee))
            names = dict(await tx.drill_trainees())
            return {"kept": kept, "name": names.get(name_key(trainee), trainee)}
        found = await self.db.run(read, write=False)
        if not found["kept"]:
            raise Refusal("account/unknown", phrase("no drill report is kept for {trainee}: a trainee's history "
                                                    "starts with their first drill", trainee=trainee))
        return found["name"], found["kept"]
