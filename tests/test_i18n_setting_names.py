"""A settings refusal in Spanish or German keeps the setting's name as the host types it (a code) and says the
sentence around it in the language (docs/i18n.md, "Never translated, by design")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.i18n import render_text
from server.rules.errors import SettingsError
from server.rules.hcf.settings import HcfSettings

WHOLE = ("min_ante", "max_ante", "min_bonus", "max_bonus", "min_bank", "seats")


@pytest.mark.parametrize("lang", ["es", "de"])
@given(name=st.sampled_from(WHOLE), value=st.integers(max_value=-1))
def test_a_setting_name_stays_and_its_sentence_is_translated(lang: str, name: str, value: int) -> None:
    with pytest.raises(SettingsError) as refused:
        HcfSettings.from_mapping({name: value})
    english = str(refused.value)
    said = render_text(refused.value.message, lang)
    assert said.startswith(f"{name}: ")  # the name as the host typed it
    assert str(value) in said
    assert said != english  # the rest is Spanish or German
    assert "must be" not in said


def test_a_choice_setting_keeps_its_name_and_its_values() -> None:
    with pytest.raises(SettingsError) as refused:
        HcfSettings.from_mapping({"fee_mode": "nobody"})
    assert render_text(refused.value.message, "de") == \
        "fee_mode: muss eines von all, players, designated, none sein, nicht 'nobody'"
    assert render_text(refused.value.message, "es") == \
        "fee_mode: debe ser uno de all, players, designated, none, no 'nobody'"
