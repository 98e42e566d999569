"""``hcf host trainees`` and ``hcf host trainee NAME [--csv]``: the trainees' drill histories (docs/drills.md,
"Progress over sessions"), read with the host token from ``/api/trainees``."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from client_cli.api import ServerRefused, http_json
from client_cli.host import print_refusal
from server.i18n import _
from server.rules.drill.explain import step_name

CSV_COLUMNS = ("session", "date", "step", "right", "total", "accuracy", "median_seconds")


def _day(seconds: float) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _sessions(n: int) -> str:
    return _("1 session") if n == 1 else _("{n} sessions", n=n)


def _certificates(n: int) -> str:
    return _("1 certificate") if n == 1 else _("{n} certificates", n=n)


def trainees_lines(trainees: list[Mapping[str, Any]]) -> list[str]:
    """One sentence per trainee: sessions, last seen, accuracy, certificates.

    >>> trainees_lines([{"trainee": "tina", "sessions": 3, "last_seen": 0, "accuracy": 87.5, "certificates": 1}])
    ['tina: 3 sessions, last seen 1970-01-01 00:00 UTC, 87.5% right, 1 certificate.']
    """
    if not trainees:
        return [_("No trainee has a drill report yet: a trainee's history starts with their first drill.")]
    return [_("{name}: {sessions}, last seen {day}, {percent}% right, {certificates}.", name=t["trainee"],
              sessions=_sessions(t["sessions"]), day=_day(t["last_seen"]), percent=f"{t['accuracy']:.1f}",
              certificates=_certificates(t["certificates"])) for t in trainees]


def trainee_lines(history: Mapping[str, Any]) -> list[str]:
    """A trainee's history in sentences: sessions, the trend of each step kind, weak items, certificates."""
    sessions = history["sessions"]
    out = [_("{name}: {sessions}, {percent}% right in all.", name=history["trainee"],
             sessions=_sessions(len(sessions)), percent=f"{history['accuracy']:.1f}")]
    for s in sessions:
        how = s["source"] if s["mode"] == s["source"] else f"{s['source']}, {s['mode']}"
        if s["partial"]:
            how = _("{how}, stopped before its end", how=how)
        out.append("  " + _("Session {n}, {day}: {scenario} ({how}), {right} of {total} right.", n=s["n"],
                              day=_day(s["at"]), scenario=s["scenario"], how=how, right=s["right"], total=s["total"]))
    out.append(_("Each step kind, session by session (percent right):"))
    for kind, points in history["trend"].items():
        figures = ", ".join(f"{p['accuracy']:.0f}%" for p in points)
        out.append(f"  {step_name(kind)}: {figures}.")
    if history["weak"]:
        out.append(_("Weak items (below 80% over their last 3 sessions): {items}.", items="; ".join(
            f"{step_name(w['step'])} {w['accuracy']:.0f}%" for w in history["weak"])))
    else:
        out.append(_("No weak item: every step kind is at 80% or better over its last 3 sessions."))
    for c in history["certificates"]:
        out.append(_("Certificate: the exam {scenario} passed on {day}, {right}% right, {within}% within the standard.",
                     scenario=c["scenario"], day=_day(c["at"]), right=f"{c['right_percent']:.0f}",
                     within=f"{c['within_percent']:.0f}"))
    if not history["certificates"]:
        out.append(_("No certificate yet: a certificate is an exam passed."))
    return out


def trainee_csv(history: Mapping[str, Any]) -> str:
    """``--csv``: a row per step kind per session (the trend), for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for kind, points in history["trend"].items():
        for p in points:
            median = p.get("median_seconds")
            writer.writerow([p["session"], _day(p["at"]), step_name(kind), p["right"], p["total"],
                             f"{p['accuracy']:.1f}", "" if median is None else f"{median:.1f}"])
    return out.getvalue()


async def run_trainees(url: str, token: str, as_json: bool) -> int:
    """``hcf host trainees``."""
    try:
        reply = await http_json("GET", f"{url.rstrip('/')}/api/trainees", token=token)
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    print(json.dumps(reply, indent=2) if as_json else "\n".join(trainees_lines(reply["trainees"])))
    return 0


async def run_trainee(url: str, token: str, name: str, as_csv: bool, as_json: bool) -> int:
    """``hcf host trainee NAME [--csv]``."""
    try:
        reply = await http_json("GET", f"{url.rstrip('/')}/api/trainees/{quote(name, safe='')}", token=token)
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    if as_json:
        print(json.dumps(reply, indent=2))
    else:
        print(trainee_csv(reply) if as_csv else "\n".join(trainee_lines(reply)), end="" if as_csv else "\n")
    return 0
