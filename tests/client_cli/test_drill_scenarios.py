"""The client reads drill scenarios itself (client_cli/drill/scenarios.py): the same ones as the server reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_cli.drill import scenarios as client
from server.drill import scenario as server
from server.rules.drill.scenario import ScenarioError


def test_the_client_lists_and_reads_every_shipped_scenario_as_the_server_does() -> None:
    assert client.shipped() == server.shipped()
    assert client.shipped(), "no shipped scenario found"
    for name in client.shipped():
        assert client.load(name) == server.load(name)


def test_a_scenario_file_is_read_by_its_path(tmp_path: Path) -> None:
    name = client.shipped()[0]
    copy = tmp_path / "mine.json"
    copy.write_text((Path(server.__file__).parent / "scenarios" / f"{name}.json").read_text("utf-8"), "utf-8")
    assert client.load(str(copy)) == server.load(name)


@pytest.mark.parametrize(("text", "words"), [(None, "no shipped scenario of that name and no such file"),
                                             ("{not json", "not JSON"),
                                             ("[]", "a scenario is a JSON object")])
def test_a_scenario_that_cannot_be_read_is_refused_in_a_sentence(tmp_path: Path, text: str | None,
                                                                words: str) -> None:
    path = tmp_path / "bad.json"
    if text is not None:
        path.write_text(text, "utf-8")
    with pytest.raises(ScenarioError, match=words):
        client.load(str(path))
