"""The closed list of refusal codes is one list: the type, the protocol's sentences and the docs agree.

The list is read from the code (``RefusalCode``'s arguments), never scanned out of the
source: mypy already refuses a refusal raised with an unlisted code, so what remains to
check is that the docs say the same, both ways, and that the store's own codes reach a
client only as listed ones.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server import protocol as p
from server.persistence.errors import FOR_CLIENTS, InsufficientFunds, StoreCode, StoreError, refusal_of
from server.rules.errors import Refusal
from server.rules.vocabulary import REFUSAL_CODES, RefusalCode, is_refusal_code
from server.storage.store import as_table_errors
from server.transport.http import STATUS

ROOT = Path(__file__).resolve().parents[1]
LISTED = set(get_args(RefusalCode))
STORE_OWN = sorted(get_args(StoreCode))
ROW = re.compile(r"^\| (`[a-z_]+/[a-z_]+`(?:, `[a-z_]+/[a-z_]+`)*) \| .* \| (\d{3}) \|$")


def documented() -> dict[str, int]:
    """Each code of docs/protocol.md's section 8 with the HTTP status the table gives it."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("## 8. Error codes", 1)[1].split("\n## ", 1)[0]
    found: dict[str, int] = {}
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            for code in re.findall(r"`([a-z_]+/[a-z_]+)`", match.group(1)):
                found[code] = int(match.group(2))
    return found


def test_every_code_of_the_type_is_in_the_docs_and_every_documented_code_is_in_the_type() -> None:
    docs = set(documented())
    assert len(docs) > 80, "the docs table was not read: fix the pattern"
    assert LISTED - docs == set(), "codes a refusal may carry that docs/protocol.md section 8 does not list"
    assert docs - LISTED == set(), "codes docs/protocol.md lists that RefusalCode does not"


def test_the_protocol_has_a_sentence_for_exactly_the_listed_codes() -> None:
    assert set(p.ERROR_CODES) == LISTED == REFUSAL_CODES


def test_the_docs_give_each_code_the_http_status_the_server_answers() -> None:
    server = {code: STATUS.get(code, 400) for code in LISTED}
    wrong = {code: (status, server[code]) for code, status in documented().items() if server[code] != status}
    assert not wrong, f"code: (docs, server): {wrong}"


def test_a_code_raised_across_server_processes_is_listed() -> None:
    # table/moved, table/timeout and table/unavailable were raised but not listed: a client saw request/internal
    for code in ("table/moved", "table/timeout", "table/unavailable"):
        reply = p.error(code, "say it again")
        assert reply == {"ok": False, "error": {"code": code, "message": "say it again"}}


# The store's sentence is said as it is where the code maps to a listed one: a sentence never names a code (Hypothesis
# draws strings from the constants of the code it imports, a code among them, so the sentences are drawn without them).
SENTENCES = st.text(min_size=1, max_size=40).filter(lambda m: not any(own in m for own in STORE_OWN))


@given(st.sampled_from(STORE_OWN), SENTENCES)
def test_each_of_the_stores_own_codes_reaches_a_client_as_a_listed_one(code: StoreCode, message: str) -> None:
    refusal = refusal_of(StoreError(code, message))
    assert is_refusal_code(refusal.code)
    assert refusal.code == FOR_CLIENTS[code]
    assert not any(own in refusal.message for own in STORE_OWN)


@given(st.sampled_from(sorted(LISTED)), st.text(min_size=1, max_size=40))
def test_a_listed_code_the_store_gives_passes_unchanged(code: RefusalCode, message: str) -> None:
    assert (refusal_of(StoreError(code, message)).code, refusal_of(StoreError(code, message)).message) \
        == (code, message)


def test_a_store_refusal_is_said_as_the_client_may_see_it() -> None:
    cases = {
        StoreError("seat/bad_number", "seats are numbered from 1, not 0"): "seat/invalid",
        StoreError("auth/unknown_account", "there is no account 7"): "account/unknown",
        StoreError("db/conflict", "serialization failure: run it again"): "request/internal",
        InsufficientFunds("account:7", 5, 10): "ledger/insufficient_funds",
    }
    for error, code in cases.items():
        with pytest.raises(Refusal) as refused, as_table_errors():
            raise error
        assert refused.value.code == code
        assert "account:" not in refused.value.message
        assert "db/" not in refused.value.message
