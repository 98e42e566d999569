"""Analyses on disk, one JSON file per distinct input, so a second run answers at once.

The key is a SHA-256 of the canonical JSON of the validated settings (every setting,
defaults included, so two ways of writing the same table share one file), the meter
where it matters, and :data:`ALGORITHM`, bumped whenever a figure could change. Files
live in ``$HCF_CACHE_DIR``, else ``$XDG_CACHE_HOME/hcf-table/odds``, else
``~/.cache/hcf-table/odds``: a cache per user, safe to delete at any time.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final, TypeVar

import numpy as np

ALGORITHM: Final = "odds-2"

T = TypeVar("T")


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where analyses are kept (see the module docstring)."""
    env = os.environ if env is None else env
    if env.get("HCF_CACHE_DIR"):
        return Path(env["HCF_CACHE_DIR"])
    base = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hcf-table" / "odds"


def key_of(inputs: Mapping[str, Any]) -> str:
    """The file name for ``inputs`` (the algorithm version included)."""
    canonical = json.dumps({"algorithm": ALGORITHM, **inputs}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


def load(directory: Path, key: str) -> dict[str, Any] | None:
    """The stored analysis, or None (missing, unreadable or from another algorithm)."""
    try:
        data = json.loads((directory / f"{key}.json").read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("algorithm") == ALGORITHM else None


def load_arrays(directory: Path, key: str) -> dict[str, Any] | None:
    """Stored numeric arrays (an ``.npz`` beside the JSON files), or None if missing or unreadable."""
    try:
        with np.load(directory / f"{key}.npz") as data:
            return {name: data[name] for name in data.files}
    except (OSError, ValueError, KeyError):
        return None


def store_arrays(directory: Path, key: str, arrays: Mapping[str, Any]) -> None:
    """Write arrays atomically (the key already names the algorithm); skipped if the cache cannot be written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=directory, suffix=".tmp", delete=False) as out:
            np.savez_compressed(out, **arrays)
        os.replace(out.name, directory / f"{key}.npz")
    except OSError:
        pass


def store(directory: Path, key: str, data: Mapping[str, Any]) -> None:
    """Write atomically (a reader never sees half a file); a cache that cannot be written is skipped."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=directory, suffix=".tmp", delete=False) as out:
            json.dump({**data, "algorithm": ALGORITHM}, out)
        os.replace(out.name, directory / f"{key}.json")
    except OSError:
        pass


def made_once(directory: Path, key: str, read: Callable[[Path, str], T | None], make: Callable[[], T],
              keep: Callable[[Path, str, T], None]) -> T:
    """What ``read`` finds under ``key``, else what ``make`` gives, kept for the next caller.

    A count takes 5 to 25 s of CPU. Two processes that want the same one at once (the
    server's odds worker and ``hcf-server analyze``, or two test workers) would each make it:
    the maker holds the key's lock (``KEY.lock``, ``flock``), so the second one waits and then
    reads the first one's file. A cache that cannot be written is made without the lock.

    >>> made = []
    >>> def make() -> dict[str, int]:
    ...     made.append(1)
    ...     return {"n": 7}
    >>> d = Path(tempfile.mkdtemp())
    >>> [made_once(d, "k", load, make, store)["n"] for _ in range(2)], len(made)
    ([7, 7], 1)
    """
    found = read(directory, key)
    if found is not None:
        return found
    with _locked(directory, key):
        found = read(directory, key)  # made by whoever held the lock before us
        if found is None:
            found = make()
            keep(directory, key, found)
    return found


@contextlib.contextmanager
def _locked(directory: Path, key: str) -> Iterator[None]:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        lock = open(directory / f"{key}.lock", "a")  # noqa: SIM115 - held across the yield
    except OSError:
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
