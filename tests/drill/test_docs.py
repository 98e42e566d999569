"""docs/drills.md lists every shipped scenario, and the README points to it."""

from __future__ import annotations

from pathlib import Path

from server.drill.scenario import load, shipped

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
