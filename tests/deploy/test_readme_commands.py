"""The README's two commands work as written on a fresh Debian machine (issue 23, item 5).

The test takes them from README.md, clones the repository afresh and runs them there
with Debian's own ``/usr/bin/python3`` first on ``PATH`` and no virtual environment
active (CI puts pyenv's python first: this test does not). The first must serve
``/healthz``; the second must start the suite, and is stopped once its first test
passes. That suite would run this test again: the variable :data:`INSIDE` makes it
skip itself there.

A clone, a virtual environment and an install cost a minute or two, done once here;
pip's own cache (the user's) keeps the downloads.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.durability.helpers import free_port

REPO = Path(__file__).resolve().parents[2]
DEBIAN_PYTHON = Path("/usr/bin/python3")
INSIDE = "HCF_README_TEST_INSIDE"
SERVE_SECONDS = 600.0  # a fresh .venv and its install, then the server's start
SUITE_SECONDS = 900.0  # the test tools' install, ruff, mypy and the import contracts, then one test


def readme_commands(text: str) -> list[str]:
    """The commands of the README's "Run it, test it" block, without their comments.

    >>> readme_commands("## Run it, test it\\n\\n```sh\\nbash a.sh   # runs\\nbash b.sh\\n```\\n")
    ['bash a.sh', 'bash b.sh']
    """
    section = text.split("## Run it, test it", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the README's run section has no sh block"
    lines = (line.split("#", 1)[0].strip() for line in block.group(1).splitlines())
    return [line for line in lines if line]


def fresh_debian_environment(home_data: Path, port: int) -> dict[str, str]:
    """The environment of a person on Debian: its python3 first, no virtual environment, our ports."""
    keep = {k: v for k, v in os.environ.items()
            if k in ("HOME", "LANG", "LC_ALL", "TERM", "USER") or k.startswith("PIP_")}
    return {**keep, "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_DATA_HOME": str(home_data),
            "HCF_PORT": str(port), "HCF_WEB_PORT": "0", INSIDE: "1"}


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if os.environ.get(INSIDE):
        pytest.skip("this is the suite the README's test command started: it does not start itself again")
    if not DEBIAN_PYTHON.exists() or shutil.which("git") is None:
        pytest.fail("needs Debian's /usr/bin/python3 and git")
    where = tmp_path_factory.mktemp("readme") / "hcf-table"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(where)], check=True, timeout=120)
    return where


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test starts, each in its own group; every group is stopped at the end."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for proc in processes:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def start(command: str, cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen[str]:
    with log.open("w") as out:
        return subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def first_test_passed(log: str) -> bool:
    """Whether pytest's progress (after scripts/test.sh's ``== pytest``) shows a passed test.

    >>> first_test_passed("== pytest\\ntests/a.py s.")
    True
    >>> first_test_passed("== pytest\\n4 workers [9 items]\\n\\nsx..   [ 40%]")
    True
    >>> first_test_passed("== pytest\\n4 workers [9 items]\\n\\nsx")
    False
    """
    _, _, progress = log.partition("== pytest\n")
    return bool(re.search(r"^\S+\.py [sxX]*\.", progress, re.MULTILINE)  # one process: a file's progress
                or re.search(r"^[sxX]*\.[.sxXEF]*\s*(?:\[\s*\d+%\])?$", progress, re.MULTILINE)  # pytest-xdist's
                or re.search(r"\b[1-9]\d* passed", progress))


def wait_for(condition: object, proc: subprocess.Popen[str], log: Path, seconds: float) -> None:
    """Poll ``condition()`` (a callable) until true; fail with the log if ``proc`` ends or time runs out."""
    assert callable(condition)
    deadline = time.monotonic() + seconds
    while not condition():
        if proc.poll() is not None:
            pytest.fail(f"the command ended with status {proc.returncode}:\n{log.read_text()[-4000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"nothing after {seconds:.0f} s:\n{log.read_text()[-4000:]}")
        time.sleep(1)  # a real process's progress, not a clock of ours


@pytest.mark.slow
def test_the_readme_commands_work_on_a_fresh_debian(clone: Path, tmp_path: Path,
                                                     started: list[subprocess.Popen[str]]) -> None:
    run, check = readme_commands((clone / "README.md").read_text())
    port = free_port()
    env = fresh_debian_environment(tmp_path / "data", port)
    assert subprocess.run(["bash", "-c", "command -v python3"], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == str(DEBIAN_PYTHON)
    serve_log = tmp_path / "serve.log"
    server = start(run, clone, env, serve_log)
    started.append(server)
    wait_for(lambda: healthy(port), server, serve_log, SERVE_SECONDS)
    os.killpg(server.pid, signal.SIGINT)
    assert server.wait(timeout=60) == 0, serve_log.read_text()[-4000:]

    suite_log = tmp_path / "suite.log"
    suite = start(check, clone, env, suite_log)
    started.append(suite)
    wait_for(lambda: first_test_passed(suite_log.read_text()), suite, suite_log, SUITE_SECONDS)
    text = suite_log.read_text()
    for stage in ("== ruff", "== mypy --strict", "== import contracts", "== pytest"):
        assert stage in text
    assert "externally-managed-environment" not in text + serve_log.read_text()
