"""``hcf drill --practice``: a session drawn from the steps this trainee misses most (docs/drills.md,
"Practice on weak items").

The candidates are every step of every shipped scenario, each played through the engine
(:func:`server.rules.drill.play.dry_run`, :func:`server.rules.drill.views.moments`): the dealer's view
and the right answer of that moment. The trainee's history (their own, read from the server with
their saved session) gives each step kind's place in the schedule (:mod:`server.rules.drill.practice`);
the seed draws the session, so ``--seed N`` replays it step for step.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from client_cli.drill.scenarios import load, shipped
from server.i18n import phrase
from server.rules.drill.play import dry_run
from server.rules.drill.practice import SEED_BITS, plan, schedule
from server.rules.drill.scenario import Scenario
from server.rules.drill.views import Moment, moments

Pool = dict[str, list[tuple[Scenario, Moment]]]


def pool(names: Sequence[str] | None = None) -> Pool:
    """Every step of the shipped scenarios (or of ``names``), by step kind, in a fixed order."""
    out: Pool = {}
    for name in sorted(names if names is not None else shipped()):
        scenario = load(name)
        for moment in moments(scenario, dry_run(scenario)):
            out.setdefault(moment.asked.step.step, []).append((scenario, moment))
    return out


def tallies(history: Mapping[str, Any] | None) -> list[dict[str, tuple[int, int]]]:
    """Each past session's (right, total) per step kind, oldest first, from the server's history (none: [])."""
    if not history:
        return []
    sessions: dict[int, dict[str, tuple[int, int]]] = {s["n"]: {} for s in history.get("sessions", [])}
    for kind, points in (history.get("trend") or {}).items():
        for p in points:
            sessions.setdefault(p["session"], {})[kind] = (int(p["right"]), int(p["total"]))
    return [sessions[n] for n in sorted(sessions)]


def new_seed() -> int:
    """A fresh seed, shown to the trainee so the session can be replayed."""
    return secrets.randbits(SEED_BITS)


def practice_session(candidates: Pool, past: Sequence[Mapping[str, tuple[int, int]]], seed: int,
                     steps: int) -> tuple[Scenario, list[Moment]]:
    """The session ``seed`` draws: a scenario to report under, and its steps numbered from 1."""
    picks = plan(schedule(past), {k: len(v) for k, v in candidates.items()}, len(past), seed, steps)
    chosen = [candidates[kind][i] for kind, i in picks]
    if not chosen:
        raise ValueError("no shipped scenario has a step to practise")
    base = chosen[0][0]
    scenario = dataclasses.replace(
        base, name=f"practice, seed {seed}", title=phrase("Practice on weak items (seed {seed})", seed=seed),
        about=phrase("Steps drawn from the shipped scenarios, weighted to the step kinds you miss most."),
        standards={}, pass_marks=None)
    return scenario, [dataclasses.replace(m, n=n) for n, (_, m) in enumerate(chosen, 1)]
