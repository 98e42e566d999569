"""No module of the server is over 500 lines, the database migrations aside (issue 15, item 4).

A module that outgrows this owns more than one thing: split it by what its parts own.
"""

from __future__ import annotations

from pathlib import Path

SERVER = Path(__file__).resolve().parent.parent / "server"
MAX_LINES = 500


def long_modules(root: Path, limit: int) -> dict[str, int]:
    """Each ``.py`` under ``root`` (outside ``migrations``) longer than ``limit`` lines, with its length."""
    out: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.relative_to(root).parts:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            out[str(path.relative_to(root.parent))] = lines
    return out


def test_no_server_module_is_over_500_lines() -> None:
    assert long_modules(SERVER, MAX_LINES) == {}


def test_the_check_sees_a_long_module_and_skips_migrations(tmp_path: Path) -> None:
    (tmp_path / "server" / "migrations").mkdir(parents=True)
    (tmp_path / "server" / "long.py").write_text("x = 1\n" * 501, encoding="utf-8")
    (tmp_path / "server" / "short.py").write_text("x = 1\n" * 500, encoding="utf-8")
    (tmp_path / "server" / "migrations" / "v1.py").write_text("x = 1\n" * 900, encoding="utf-8")
    assert long_modules(tmp_path / "server", MAX_LINES) == {"server/long.py": 501}
