"""Certificates and who reads a trainee's history, at the real server (issue 27, items 4 and 7), and the limit
on the reports a client sends (a flood is refused with the wait and the limits)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
import sqlalchemy as sa

from server.app import DATABASE
from server.rules.drill.certificate import log_digest
from server.rules.drill.progress import compact
from server.storage.trainees import TraineeStore
from tests.support.clock import ManualClock

from .conftest import Server
from .test_http import call, code

ANSWER_LOG = [
    {"n": 1, "hand": 1, "step": "fees", "given": {"fees": {"2": 1}}, "answer": {"fees": {"2": 1}}, "right": True,
     "mistake": None, "rule": "RULES 3.3"},
    {"n": 2, "hand": 1, "step": "qualify", "given": {"qualifies": True}, "answer": {"qualifies": True},
     "right": True, "mistake": None, "rule": "RULES 1"},
]


def _report(*, passed: bool | None, steps: list[dict[str, Any]] = ANSWER_LOG) -> dict[str, Any]:
    report: dict[str, Any] = {
        "scenario": "bank-runs-out", "right": 2, "total": 2, "within_standard": 2, "ledger": "ok", "steps": steps,
        "by_step": {"fees": {"right": 1, "total": 1, "accuracy": 100.0, "median_seconds": 3.0,
                             "worst_seconds": 3.0, "standard_seconds": 10, "within_standard": 1},
                    "qualify": {"right": 1, "total": 1, "accuracy": 100.0, "median_seconds": 2.0,
                                "worst_seconds": 2.0, "standard_seconds": 5, "within_standard": 1}}}
    if passed is not None:
        report["exam"] = {"passed": passed, "right_percent": 100.0, "within_percent": 100.0,
                          "marks": {"right": 95, "within": 90}}
    return report


async def _tina(server: Server) -> str:
    status, answer = await call(server, "POST", "/api/register", {"name": "tina", "password": "password123"})
    assert status == 200
    token: str = answer["token"]
    return token


async def test_an_exam_passed_has_a_certificate_with_the_digest_of_its_answer_log(server: Server) -> None:
    store = TraineeStore(server.app[DATABASE], server.config)
    await store.keep_drill_report("tina", _report(passed=None), source="live", mode="training")
    await store.keep_drill_report("tina", _report(passed=False), source="live", mode="exam")
    await store.keep_drill_report("tina", _report(passed=True), source="live", mode="exam")

    status, cert = await call(server, "GET", "/api/trainees/tina/certificates/3", token=server.host_token)
    assert status == 200, cert
    canonical = json.dumps(ANSWER_LOG, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    expected = hashlib.sha256(canonical.encode()).hexdigest()
    assert (cert["trainee"], cert["session"], cert["scenario"], cert["right"], cert["total"]) == (
        "tina", 3, "bank-runs-out", 2, 2)
    assert (cert["digest"], cert["recomputed"], cert["checked"], cert["answers"]) == (expected, expected, True, 2)
    assert cert["marks"] == {"right": 95, "within": 90}
    assert cert["by_step"]["fees"]["median_seconds"] == 3.0

    for session, words in ((1, "session 1 of tina is not an exam passed"), (2, "session 2 of tina is not an exam"),
                           (4, "there is no session 4"), (0, "sessions are numbered from 1")):
        status, refused = await call(server, "GET", f"/api/trainees/tina/certificates/{session}",
                                     token=server.host_token)
        assert (status, code(refused)) == (404, "drill/no_certificate")
        assert words in refused["error"]["message"]


async def test_a_kept_report_changed_in_the_database_no_longer_checks(server: Server) -> None:
    store = TraineeStore(server.app[DATABASE], server.config)
    await store.keep_drill_report("tina", _report(passed=True), source="live", mode="exam")
    changed = _report(passed=True, steps=[ANSWER_LOG[0], {**ANSWER_LOG[1], "given": {"qualifies": False}}])
    engine = sa.create_engine(server.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("UPDATE drill_report SET report = :r"), {"r": json.dumps(changed)})
    finally:
        engine.dispose()
    status, cert = await call(server, "GET", "/api/trainees/tina/certificates/1", token=server.host_token)
    assert status == 200
    assert cert["checked"] is False
    assert cert["digest"] != cert["recomputed"]


async def test_a_trainee_reads_their_own_history_and_certificates_and_nobody_elses(server: Server) -> None:
    token = await _tina(server)
    store = TraineeStore(server.app[DATABASE], server.config)
    await store.keep_drill_report("tina", _report(passed=True), source="live", mode="exam")
    await store.keep_drill_report("bob", _report(passed=True), source="live", mode="exam")

    status, own = await call(server, "GET", "/api/trainees/TINA", token=token)
    assert (status, own["trainee"]) == (200, "tina")
    status, cert = await call(server, "GET", "/api/trainees/tina/certificates/1", token=token)
    assert (status, cert["checked"]) == (200, True)
    for path in ("/api/trainees/bob", "/api/trainees/bob/certificates/1"):
        status, refused = await call(server, "GET", path, token=token)
        assert (status, code(refused)) == (403, "auth/not_host")
        assert refused["error"]["message"] == ("you are logged in as tina: a trainee reads their own drill history "
                                               "only, and the host every trainee's")
    status, refused = await call(server, "GET", "/api/trainees", token=token)
    assert (status, code(refused)) == (403, "auth/not_host")


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_flood_of_drill_reports_is_refused_with_the_wait_and_the_limits(server: Server) -> None:
    token = await _tina(server)
    sent = {"source": "offline", "mode": "exam", "partial": False, "report": _report(passed=True)}
    for _ in range(3):  # refused reports keep nothing and use nothing up
        status, refused = await call(server, "POST", "/api/drill-reports", {"source": "live"}, token=token)
        assert (status, code(refused)) == (400, "request/malformed")
    for _ in range(10):
        status, answer = await call(server, "POST", "/api/drill-reports", sent, token=token)
        assert (status, answer) == (200, {"ok": True})
    status, refused = await call(server, "POST", "/api/drill-reports", sent, token=token)
    assert (status, code(refused)) == (429, "rate/limited")
    assert refused["error"]["message"] == ("too many drill reports sent by tina (the server keeps 10 at once, then "
                                           "one a minute): try again in 60 s")
    assert refused["error"]["retry_after"] == 60
    assert isinstance(server.clock, ManualClock)
    server.clock.advance(60)
    status, answer = await call(server, "POST", "/api/drill-reports", sent, token=token)
    assert status == 200
    status, history = await call(server, "GET", "/api/drill-history", token=token)
    assert len(history["sessions"]) == 11


async def _verify(server: Server, *args: str) -> tuple[int, str, str]:
    import asyncio
    import os
    import sys

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", "drill", "verify", *args, "--db", server.database_url, "--config", "",
        env={k: v for k, v in os.environ.items() if not k.startswith("HCF_")},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_hcf_server_drill_verify_checks_a_certificate_against_the_database(server: Server) -> None:
    store = TraineeStore(server.app[DATABASE], server.config)
    await store.keep_drill_report("tina", _report(passed=None), source="live", mode="training")
    await store.keep_drill_report("tina", _report(passed=True), source="live", mode="exam")
    kept = hashlib.sha256(json.dumps(ANSWER_LOG, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    status, out, _ = await _verify(server, "tina", "2")
    assert (status, out) == (0, f"tina, session 2: the exam bank-runs-out passed, 2 of 2 right; the answer log of 2 "
                                f"answers has the SHA-256 digest {kept}, the one kept with it: the certificate "
                                f"checks.\n")
    status, out, err = await _verify(server, "tina", "1")
    assert (status, out) == (2, "")
    assert err.endswith("error: session 1 of tina is not an exam passed: only an exam passed has a certificate\n")

    engine = sa.create_engine(server.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("UPDATE drill_report SET report = :r WHERE id = 2"),
                               {"r": json.dumps(_report(passed=True, steps=ANSWER_LOG[:1]))})
    finally:
        engine.dispose()
    status, out, _ = await _verify(server, "tina", "2")
    assert status == 1
    assert out.endswith(f"but {kept} was kept with it: the report changed after it was kept, and the certificate "
                        f"does not check.\n")


async def test_an_exam_sent_by_a_client_keeps_its_answer_log_for_the_certificate(server: Server) -> None:
    """What ``hcf drill`` sends of an exam (``compact``) carries its answer log, so the certificate's digest is the
    log's own, not an empty log's."""
    token = await _tina(server)
    sent = {"source": "offline", "mode": "exam", "partial": False, "report": compact(_report(passed=True))}
    status, answer = await call(server, "POST", "/api/drill-reports", sent, token=token)
    assert status == 200, answer
    status, cert = await call(server, "GET", "/api/trainees/tina/certificates/1", token=token)
    assert status == 200, cert
    assert (cert["digest"], cert["answers"]) == (log_digest({"steps": ANSWER_LOG}), 2)
    too_long = _report(passed=True, steps=[ANSWER_LOG[0]] * 151)
    assert len(compact(too_long)["steps"]) == 150
    status, refused = await call(server, "POST", "/api/drill-reports", {**sent, "report": too_long}, token=token)
    assert status == 400, refused
    assert "at most 150 answers" in refused["error"]["message"]
