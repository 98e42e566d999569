"""``hcf-server analyze`` as a person runs it: the three ways to give settings, the cache, errors, progress."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.analysis import cache as disk
from server.cli import main
from server.commands.analyze import parse_pairs
from server.persistence import open_database

CASINO_FLUSH = '{"7": 300, "6": 100, "5": 10, "4": 1}'


def analyze(capsys: pytest.CaptureFixture[str], cache: Path, *argv: str) -> dict[str, Any]:
    assert main(["analyze", *argv, "--json", "--cache-dir", str(cache)]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["analyze", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.strip()


def test_set_reads_json_values_as_create_table_does() -> None:
    assert parse_pairs(["flush_pays=" + CASINO_FLUSH, "fee_mode=all", "fee=2"]) == {
        "flush_pays": {"7": 300, "6": 100, "5": 10, "4": 1}, "fee_mode": "all", "fee": 2}


@pytest.mark.usefixtures("totals")
def test_set_file_and_defaults_agree_and_share_the_cache(capsys: pytest.CaptureFixture[str], odds_cache: Path,
                                                         tmp_path: Path) -> None:
    by_set = analyze(capsys, odds_cache, "--game", "hcf", "--set", "profile=standard",
                     "--set", "flush_pays=" + CASINO_FLUSH)
    path = tmp_path / "table.json"
    path.write_text(json.dumps({"game": "hcf", "profile": "standard"}))
    by_file = analyze(capsys, odds_cache, "--settings", str(path))
    # The same settings written two ways are one analysis, the second read from the cache.
    assert by_file["cached"] is True
    assert by_file["flush_bonus"] == by_set["flush_bonus"]
    assert f"{by_file['flush_bonus']['house_edge']:.4%}" == "7.8072%"


@pytest.mark.usefixtures("totals")
def test_the_second_run_answers_from_the_cache(capsys: pytest.CaptureFixture[str], odds_cache: Path) -> None:
    first = analyze(capsys, odds_cache, "--game", "hcf", "--set", "profile=standard", "--set", "min_ante=7")
    second = analyze(capsys, odds_cache, "--game", "hcf", "--set", "profile=standard", "--set", "min_ante=7")
    assert (first["cached"], second["cached"]) == (False, True)
    assert {k: v for k, v in first.items() if k != "cached"} == {k: v for k, v in second.items() if k != "cached"}
    files = list(odds_cache.glob("*.json"))
    assert files
    assert all(json.loads(f.read_text())["algorithm"] == disk.ALGORITHM for f in files)


def test_a_cache_file_of_another_algorithm_is_ignored(tmp_path: Path) -> None:
    key = disk.key_of({"x": 1})
    (tmp_path / f"{key}.json").write_text(json.dumps({"algorithm": "odds-0", "stale": True}))
    assert disk.load(tmp_path, key) is None
    disk.store(tmp_path, key, {"fresh": True})
    assert disk.load(tmp_path, key) == {"fresh": True, "algorithm": disk.ALGORITHM}


def test_the_cache_lives_in_the_users_cache_directory() -> None:
    assert disk.cache_dir({"HCF_CACHE_DIR": "/x/odds"}) == Path("/x/odds")
    assert disk.cache_dir({"XDG_CACHE_HOME": "/home/a/.c"}) == Path("/home/a/.c/hcf-table/odds")


def test_settings_are_refused_in_the_games_own_words(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert refused(capsys, "--game", "hcf", "--set", "min_ante=0") == (
        "hcf-server analyze: min_ante: must be a whole number of at least 1, got 0")
    assert "flush_pays" in refused(capsys, "--game", "hcf", "--set", 'flush_pays={"7": 300}')
    assert refused(capsys, "--game", "caribbean", "--set", "jackpot_rate=200") == (
        "hcf-server analyze: jackpot_rate: must be at most 100, got 200")
    assert refused(capsys, "--settings", str(tmp_path / "none.json")).startswith(
        "hcf-server analyze: --settings: cannot read")
    (tmp_path / "list.json").write_text("[1, 2]")
    assert "must hold a JSON object" in refused(capsys, "--settings", str(tmp_path / "list.json"))
    (tmp_path / "poker.json").write_text('{"game": "poker"}')
    assert refused(capsys, "--settings", str(tmp_path / "poker.json")) == (
        "hcf-server analyze: game: one of hcf, caribbean, sixcard, got 'poker'")
    assert refused(capsys, "--game", "hcf", "--set", "novalue") == (
        "hcf-server analyze: --set takes KEY=VALUE, got 'novalue'")


def test_table_reads_the_settings_and_meter_from_the_database(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path, odds_cache: Path) -> None:
    # The session's cache: the exact counts (about 45 s of CPU from none) are made once for the session, and no
    # other test asks for these settings (a jackpot seed of 50,000), so their report is worked out here.
    url = f"sqlite:///{tmp_path / 'hcf.db'}"

    async def make() -> None:
        db = await open_database(url)
        try:
            async with db.transaction() as tx:
                await tx.create_table("stud", {"jackpot_seed": 50000}, game="caribbean")
                await tx.create_table("six", {"game": "sixcard", "max_payout": 5000})  # as the server stores it
        finally:
            await db.close()

    asyncio.run(make())
    out = analyze(capsys, odds_cache, "--table", "stud", "--db", url)
    assert out["game"] == "caribbean"
    assert out["settings"]["jackpot_seed"] == 50000
    assert out["jackpot"]["meter"] == 50000  # no hand yet: the meter is at its seed
    six = analyze(capsys, odds_cache, "--table", "six", "--db", url)
    assert (six["game"], six["settings"]["max_payout"]) == ("sixcard", 5000)
    assert refused(capsys, "--table", "nowhere", "--db", url) == (
        f"Using the database at {tmp_path / 'hcf.db'} (from --db).\n"
        "hcf-server analyze: --table: there is no table named 'nowhere' in that database")


def run_with_tty_stderr(*argv: str, env: dict[str, str]) -> tuple[str, str]:
    """Run ``hcf-server`` with stdout a pipe and stderr a terminal: (stdout, what the terminal got)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "server.cli", *argv], stdout=subprocess.PIPE,
                            stderr=follower, env=env)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    out, _ = proc.communicate(timeout=120)
    os.close(leader)
    assert proc.returncode == 0
    return out.decode(), seen.decode(errors="replace")


def test_simulate_shows_progress_on_a_terminal_even_with_json(tmp_path: Path) -> None:
    env = {**os.environ, "HCF_CACHE_DIR": str(tmp_path)}
    out, terminal = run_with_tty_stderr("simulate", "--hands", "200000", "--json", "--seed", "1", env=env)
    assert json.loads(out)["hands"] == 200000  # stdout is the JSON alone
    assert "dealing" in terminal


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    # High Card Flush's counts (about 3 s of CPU from an empty cache) show their progress on a terminal too.
    proc = subprocess.run([sys.executable, "-m", "server.cli", "analyze", "--game", "hcf", "--json",
                           "--cache-dir", str(tmp_path)], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(proc.stdout)["game"] == "hcf"
    assert proc.stderr == ""


def test_analyze_shows_progress_on_a_terminal(tmp_path: Path) -> None:
    # High Card Flush's count from an empty cache: about 3 s of CPU (6 Card Poker's takes 12 s for the same check).
    env = {**os.environ, "HCF_CACHE_DIR": str(tmp_path)}
    out, terminal = run_with_tty_stderr("analyze", "--game", "hcf", "--json", env=env)
    assert json.loads(out)["game"] == "hcf"
    assert "counting hands" in terminal  # the main bets are counted exactly (docs/odds.md)
