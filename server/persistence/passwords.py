"""Password hashing (scrypt) and opaque tokens; only digests are ever stored.

>>> stored = hash_password("correct horse")
>>> stored.split("$")[:4]
['scrypt', '16384', '8', '1']
>>> verify_password("correct horse", stored), verify_password("wrong horse", stored)
(True, False)
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import secrets
from typing import Final

SCRYPT_N: Final = 2**14
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
SALT_BYTES: Final = 16
KEY_BYTES: Final = 32
_MAXMEM: Final = 64 * 1024 * 1024  # n=2**14, r=8 needs 16 MiB; OpenSSL's default cap is 32 MiB.


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=_MAXMEM, dklen=KEY_BYTES)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str) -> str:
    """``scrypt$n$r$p$salt_b64$hash_b64`` with a fresh random salt (about 50 ms of CPU)."""
    salt = secrets.token_bytes(SALT_BYTES)
    digest = _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches ``stored``, compared in constant time."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest, validate=True)
        actual = _scrypt(password, base64.b64decode(salt, validate=True), int(n), int(r), int(p))
    except ValueError:
        return False
    return hmac.compare_digest(actual, expected)


@functools.cache
def decoy_hash() -> str:
    """A hash to verify against when the name is unknown, so timing does not tell names apart."""
    return hash_password(secrets.token_urlsafe(16))


def new_token() -> str:
    """A fresh bearer token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
