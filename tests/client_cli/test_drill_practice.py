"""``hcf drill --practice`` as a trainee runs it: the seed it prints replays the same steps, and the last line
says plainly where the report is kept."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.client_cli.conftest import ROOT, client_env, hcf


def _practice(tmp_path: Path, *args: str) -> str:
    done = subprocess.run(hcf("drill", "--practice", "--steps", "5", *args), cwd=ROOT, input="", text=True,
                          capture_output=True, timeout=60, env=client_env(tmp_path / "config"), check=True)
    return done.stdout


def _asked(out: str) -> list[str]:
    """Each step's header and the dealer's view, up to its question (no time is in them)."""
    return re.findall(r"^--- hand .*?\n(?:.*\n)*?.*\?$", out, flags=re.MULTILINE)


def test_the_printed_seed_replays_the_same_practice_session(tmp_path: Path) -> None:
    first = _practice(tmp_path, "--keep-here")
    found = re.search(r"--seed (\d+) --over (\d+) --steps 5 replays this session", first)
    assert found is not None
    seed, over = found.groups()
    assert over == "0"
    again = _practice(tmp_path, "--keep-here", "--seed", seed, "--over", over)
    assert _asked(first)
    assert _asked(again) == _asked(first)
    assert first.rstrip().splitlines()[-1] == \
        "This report was sent nowhere (--keep-here): it is kept only on your screen."


def test_without_a_saved_session_the_trainee_is_told_the_report_is_kept_only_on_screen(tmp_path: Path) -> None:
    out = _practice(tmp_path, "--seed", "7", "--server", "http://127.0.0.1:9")
    assert "weighted by no history (none was read from a server), so every step kind weighs the same" in out
    assert out.rstrip().splitlines()[-1].startswith(
        "This report is kept only on your screen: no single saved session for http://127.0.0.1:9")
