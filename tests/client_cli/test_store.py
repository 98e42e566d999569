"""Session tokens in the user's config directory, readable by the user alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from client_cli.store import TokenStore, config_dir


def test_the_config_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_dir() == tmp_path / "hcf-table"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert config_dir() == tmp_path / ".config" / "hcf-table"


def test_tokens_are_kept_per_server_and_name_in_a_0600_file(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "hcf-table")
    store.save("http://a:1/", "Alice", "tok-a")
    store.save("http://b:2", "alice", "tok-b")
    assert store.token("http://a:1", "alice") == "tok-a"
    assert store.token("http://b:2/", "ALICE") == "tok-b"
    assert store.last_name("http://a:1") == "Alice"
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(store.path.parent).st_mode) == 0o700
    store.forget("http://a:1", "alice")
    assert store.token("http://a:1", "alice") is None
    assert store.token("http://b:2", "alice") == "tok-b"


def test_bots_tokens_are_kept_apart_and_do_not_become_the_last_name(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.save("http://a:1", "bot-1", "t", kind="bots")
    assert store.token("http://a:1", "bot-1") is None
    assert store.token("http://a:1", "bot-1", kind="bots") == "t"
    assert store.last_name("http://a:1") is None


def test_a_damaged_file_is_read_as_empty(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path.write_text("{not json")
    assert store.token("http://a:1", "alice") is None
    store.save("http://a:1", "alice", "t")
    assert store.token("http://a:1", "alice") == "t"
