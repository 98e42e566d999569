"""docs/drills.md lists every shipped scenario, and the README points to it."""

from __future__ import annotations

import re
from pathlib import Path

from client_cli.drill.grammar import format_answer
from client_cli.drill.session import Terminal, rehearse
from server.drill.play import dry_run
from server.drill.scenario import load, shipped
from server.drill.views import moments

ROOT = Path(__file__).resolve().parents[2]


def test_the_library_in_the_docs_is_the_shipped_one() -> None:
    text = (ROOT / "docs" / "drills.md").read_text(encoding="utf-8").split("<!-- library:")[1].split("\n## ")[0]
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    listed = {line.split("`")[1]: line for line in rows}
    assert sorted(listed) == shipped()
    for name in shipped():
        assert f"| {load(name).game} |" in listed[name]


def test_the_readme_and_the_cli_doc_point_to_the_drills() -> None:
    assert "(docs/drills.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(drills.md)" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


SESSION_MARKER = "<!-- hcf drill session: walk-away"
STEP_HEADER = re.compile(r"^--- hand \d+ · step (\d+) of \d+: .+ ---$")
SECONDS = re.compile(r"\d+\.\d s\b")


def _session_excerpt() -> list[str]:
    text = (ROOT / "docs" / "drills.md").read_text(encoding="utf-8").split(SESSION_MARKER)[1]
    return text.split("```\n")[1].splitlines()


def test_the_walkthroughs_session_is_what_hcf_drill_prints() -> None:
    """Replay the excerpt's typed lines (the key's answers at the steps it leaves out): every line it shows
    comes out, in order; only the times differ (a manual clock here)."""
    excerpt = _session_excerpt()
    typed: dict[int, list[str]] = {}
    step = 0
    for line in excerpt:
        header = STEP_HEADER.match(line)
        if header:
            step = int(header.group(1))
        elif line.startswith("> "):
            typed.setdefault(step, []).append(line[2:])
    scenario = load("walk-away")
    steps = moments(scenario, dry_run(scenario))
    lines = [answer for m in steps
             for answer in typed.get(m.n, [format_answer(m.asked.step.step, m.asked.step.answer)])]
    feed = iter(lines)
    printed: list[str] = []

    def read(prompt: str) -> str:
        line = next(feed)
        printed.append(prompt + line)  # as the terminal echoes it
        return line

    rehearse(scenario, steps, "training", Terminal(read, lambda text: printed.extend(text.split("\n")),
                                                   lambda: 0.0))
    remaining = iter([SECONDS.sub("T", line) for line in printed])
    for line in excerpt:
        if line == "...":
            continue
        wanted = SECONDS.sub("T", line)
        assert any(seen == wanted for seen in remaining), f"not printed (in this order): {line!r}"
