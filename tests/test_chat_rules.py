"""The chat's pure core (server/chat.py): what a line may be, the flood limit, mutes, who reads which room."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from server import chat
from server.persistence.chat import ChatEntry
from server.rules.errors import Refusal
from server.storage.chat import chat_fields

MARKUP = st.sampled_from(["<b>", "</b>", "<script>", "&amp;", "<img src=x onerror=alert(1)>", "**", "[link](x)"])
ANY_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
HOST_SETTINGS = st.lists(st.tuples(st.sampled_from(chat.HOST_KINDS), st.sampled_from(["ann", "ANN", "bob", ""])))


@given(ANY_TEXT)
def test_a_cleaned_line_has_no_control_character_and_no_direction_mark(text: str) -> None:
    line = chat.cleaned(text)
    assert all(unicodedata.category(c) != "Cc" for c in line)
    assert not set(line) & chat._BIDI
    assert line == line.strip()
    assert "  " not in line


@given(st.lists(st.one_of(MARKUP, st.text(alphabet="abc xyz!?", max_size=10)), max_size=12))
def test_markup_is_kept_as_the_text_typed(parts: list[str]) -> None:
    typed = "".join(parts)
    assert chat.cleaned(typed) == " ".join(typed.split())


@given(ANY_TEXT)
def test_a_line_is_sent_within_the_limit_or_refused_with_the_limit_said(text: str) -> None:
    length = len(chat.cleaned(text))
    if 0 < length <= chat.MAX_CHARS:
        assert chat.checked_line(text) == chat.cleaned(text)
        return
    with pytest.raises(Refusal) as refused:
        chat.checked_line(text)
    if length == 0:
        assert (refused.value.code, refused.value.message) == ("chat/empty", "a chat line needs some text")
    else:
        assert (refused.value.code, refused.value.message) == (
            "chat/too_long", f"a chat line is at most {chat.MAX_CHARS} characters; yours has {length}")


@given(st.lists(st.floats(min_value=0, max_value=5, allow_nan=False), max_size=40))
def test_no_window_of_the_flood_limit_ever_holds_more_lines_than_it_allows(gaps: list[float]) -> None:
    flood, now, accepted = chat.Flood(), 0.0, []
    for gap in gaps:
        now += gap
        if flood.wait(now) == 0:
            flood = flood.sent(now)
            accepted.append(now)
    for start in accepted:
        inside = [t for t in accepted if start <= t < start + chat.FLOOD_SECONDS]
        assert len(inside) <= chat.FLOOD_LINES


@given(st.lists(st.floats(min_value=0, max_value=5, allow_nan=False), max_size=40))
@example([1.3554583860959202, 0.3, 0.0, 0.0, 0.0, 1.0])  # found by a fresh clone's run: 1.8e-15 s still to wait
def test_a_refused_line_is_taken_once_its_wait_has_passed(gaps: list[float]) -> None:
    flood, now = chat.Flood(), 0.0
    for gap in gaps:
        now += gap
        wait = flood.wait(now)
        assert 0 <= wait <= chat.FLOOD_SECONDS
        if wait > 0:
            assert flood.wait(now + wait) == 0
        else:
            flood = flood.sent(now)


def test_the_flood_refusal_says_the_real_limit_and_the_wait() -> None:
    refusal = chat.flood_refusal(3.2)
    assert (refusal.code, refusal.message) == ("rate/limited",
                                               "you may send at most 5 chat lines in 10 seconds: wait 4 s")


@given(HOST_SETTINGS)
def test_a_mute_holds_until_the_last_unmute_of_that_name_whatever_its_letter_case(
        settings: list[tuple[str, str]]) -> None:
    state = chat.replayed(settings)
    for name in ("ann", "bob", "Ann"):
        said = [kind for kind, who in settings if kind in ("mute", "unmute") and who.casefold() == name.casefold()]
        assert state.is_muted(name) == (bool(said) and said[-1] == "mute")
        if state.is_muted(name):
            with pytest.raises(Refusal) as refused:
                chat.check_speaker(state, name)
            assert refused.value.code == "chat/muted"
    shown = [kind for kind, _ in settings if kind.startswith("spectators_")]
    assert state.spectators_shown == (not shown or shown[-1] == "spectators_shown")


@given(HOST_SETTINGS, st.sampled_from(chat.ROOMS), st.booleans())
def test_the_seated_read_the_spectators_room_only_when_the_host_shows_it(
        settings: list[tuple[str, str]], room: chat.Room, seated: bool) -> None:
    state = chat.replayed(settings)
    reads = chat.reads(room, seated=seated, state=state)
    if room == "table" or not seated:
        assert reads, "the table's chat is everyone's, and spectators read their own"
    else:
        assert reads == state.spectators_shown
    assert chat.room_of(seated) == ("table" if seated else "spectators")


@given(st.one_of(st.sampled_from(sorted(chat.REACTIONS)), st.text(max_size=20)))
def test_a_reaction_is_one_of_the_list_or_refused_naming_them(name: str) -> None:
    if name in chat.REACTIONS:
        assert chat.reaction_line(name) == chat.REACTIONS[name]
        return
    with pytest.raises(Refusal) as refused:
        chat.reaction_line(name)
    assert refused.value.message == "the quick reactions are " + ", ".join(chat.REACTIONS)


@given(st.builds(ChatEntry, id=st.integers(1, 10**9), table=st.text(min_size=1, max_size=32),
                 at=st.integers(0, 2**62), account=st.none() | st.integers(1, 10**9), name=st.text(max_size=24),
                 room=st.sampled_from(chat.ROOMS), kind=st.sampled_from(("line", "reaction", *chat.HOST_KINDS)),
                 text=ANY_TEXT))
def test_a_chat_line_carries_what_was_typed_and_who_typed_it_and_nothing_else(entry: ChatEntry) -> None:
    line = chat_fields(entry)
    assert set(line) == {"table", "id", "at", "room", "kind", "name", "text"}
    assert (line["text"], line["name"], line["room"], line["kind"]) == (entry.text, entry.name, entry.room, entry.kind)
    assert "account" not in line, "which account spoke stays on the server"
