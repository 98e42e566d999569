"""``hcf host show-settings`` says the table's status in the host's language (issue 28 item 5)."""

from __future__ import annotations

import pytest

from client_cli.host import settings_lines


@pytest.mark.usefixtures("german")
def test_the_status_word_is_german() -> None:
    assert settings_lines({"table": "main", "game": "hcf", "status": "waiting", "settings": {}})[0] == \
        "Tisch main (hcf, wartet)"


def test_the_english_status_word_and_an_unknown_one_stay() -> None:
    assert settings_lines({"table": "main", "game": "hcf", "status": "waiting", "settings": {}})[0] == \
        "table main (hcf, waiting)"
    assert settings_lines({"table": "main", "game": "hcf", "status": "odd", "settings": {}})[0] == \
        "table main (hcf, odd)"
