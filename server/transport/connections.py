"""One record per live connection: who it is, its request bucket, the tokens it opened with."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from server.identity import Identity
from server.transport.limits import TokenBucket


@dataclass(slots=True)
class Connection:
    """A live connection of this process, keyed by its sid in the gateway."""

    identity: Identity
    bucket: TokenBucket
    # The session token's digest (the token itself is a secret), so that revoking a token closes
    # its connections; None for a spectator.
    token: str | None = None
    # The host token a host connection gave: checked again at every host command, so a rotated
    # token (hcf-server host-token, from another process) stops its connections too.
    host_token: str | None = None
    # The language its sentences are said in (docs/i18n.md): from ``auth.lang``, changed by ``join``'s ``lang``.
    lang: str = "en"


def token_digest(token: str) -> str:
    """A session token's digest: what the gateway keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
