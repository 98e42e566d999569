"""Account names of any alphabet, refused in a sentence when too long, and no two that look alike (issue 23, 11).

Before: ``José`` was refused ("a name has 1 to 24 letters"), and only ASCII letters
were letters. The rule (server/persistence/naming.py, docs/server.md): letters and
digits of any one alphabet and ``_ - .``, at most 24 characters after NFKC; two names
with the same look-alike key may not both be registered.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from server.persistence import Database, StoreError
from server.persistence.naming import ACCOUNT_NAME_MAX, account_name, name_key

from .test_accounts import _code

WORLD = ["José", "Zoë", "Straße", "Борис", "Ελένη", "山田太郎", "やまだ", "김민준", "محمد", "דוד", "देवनागरी",
         "Ngũgĩ", "Şükrü", "Åsa-Lill", "Łukasz", "\u02bbOkina"]  # (the okina: a modifier letter goes with any)


@pytest.mark.parametrize("name", WORLD)
async def test_a_name_in_any_alphabet_registers_logs_in_and_is_kept_as_typed(db: Database, name: str) -> None:
    account = await db.register(name, "correct horse", 0)
    assert account.name == name
    same, _token = await db.login(name.upper(), "correct horse")
    assert same == account


async def test_a_decomposed_accent_is_the_same_name_as_a_composed_one(db: Database) -> None:
    account = await db.register("Jose\u0301", "correct horse", 0)  # e and a combining acute accent
    assert account.name == "José"
    assert await _code(db.register("JOSÉ", "another pass", 0)) == "auth/name_taken"


@pytest.mark.parametrize(("first", "second"), [
    ("ape", "\u0430\u0440\u0435"),  # Cyrillic a, er, ie
    ("Kate", "\u039a\u0391\u03a4\u0395"),  # Greek capitals kappa, alpha, tau, epsilon
    ("bob3", "bob٣"),  # an Arabic-Indic digit three
    ("Ann", "\uff21\uff4e\uff4e"),  # full-width letters
    ("strasse", "Straße"),
])
async def test_a_name_that_looks_like_a_registered_one_is_taken(db: Database, first: str, second: str) -> None:
    await db.register(first, "correct horse", 0)
    with pytest.raises(StoreError) as caught:
        await db.register(second, "another pass", 0)
    assert caught.value.code == "auth/name_taken"
    assert repr(first) in caught.value.message or repr(first.upper()) in caught.value.message.upper()


async def test_an_over_long_name_is_refused_with_a_sentence_not_cut(db: Database) -> None:
    with pytest.raises(StoreError) as caught:
        await db.register("a" * 40, "correct horse", 0)
    assert (caught.value.code, caught.value.message) == ("auth/bad_name", "a name has at most 24 characters: "
                                                                          "that one has 40")
    assert await _code(db.login("a" * 24, "correct horse")) == "auth/bad_credentials"  # not cut: nobody


@pytest.mark.parametrize(("name", "words"), [
    ("ann smith", "a space is not one of them"),
    ("an\u200bn", "an invisible or control character is not one of them"),
    ("p\u0430ypal", "that one mixes Cyrillic and Latin"),
    ("\u0301ann", "an accent with no letter before it"),
    ("ann!", "'!' is not one of them"),
])
def test_a_refused_name_says_what_is_wrong(name: str, words: str) -> None:
    with pytest.raises(StoreError) as caught:
        account_name(name)
    assert caught.value.code == "auth/bad_name"
    assert words in caught.value.message
    assert "letters or digits (of any alphabet)" in caught.value.message or "mixes" in caught.value.message


NAME_CHARACTERS = st.characters(categories=("L", "Nd", "M", "Zs", "Cf", "Cc", "P", "S"))


def _named(text: str) -> tuple[str, str] | StoreError:
    try:
        return account_name(text)
    except StoreError as exc:
        return exc


@given(st.text(NAME_CHARACTERS, max_size=40))
def test_an_accepted_name_is_normal_short_visible_and_keeps_its_key(text: str) -> None:
    named = _named(text)
    if isinstance(named, StoreError):
        assert named.code == "auth/bad_name"
        assert named.message.startswith("a name")
        return
    shown, key = named
    assert shown == unicodedata.normalize("NFKC", text)
    assert 1 <= len(shown) <= ACCOUNT_NAME_MAX
    assert all(unicodedata.category(c)[0] in "LNM" or c in "_-." for c in shown)
    assert key == name_key(shown) == name_key(text) == name_key(shown.upper()) == name_key(shown.lower())
    assert account_name(shown) == (shown, key)  # normal already: nothing changes a second time


@given(st.text(st.characters(min_codepoint=0x30, max_codepoint=0x7A), min_size=1, max_size=24))
def test_an_ascii_name_keeps_the_key_it_always_had(text: str) -> None:
    assume(all(c.isalnum() or c in "_-." for c in text))
    assert account_name(text) == (text, text.lower())  # the keys of every account made before


async def test_the_refusal_of_a_look_alike_says_which_name_and_which_letters(db: Database) -> None:
    await db.register("ape", "correct horse", 0)
    with pytest.raises(StoreError) as caught:
        await db.register("\u0430\u0440\u0435", "another pass", 0)
    assert caught.value.message == ("the name '\u0430\u0440\u0435', in Cyrillic letters, looks like 'ape', "
                                    "which is taken")
