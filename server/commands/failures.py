"""What a command says when the user's input or the machine says no: one sentence, never a traceback.

``hcf-server`` runs every subcommand through :func:`user_failure`: a config file that
cannot be used, a refusal of the store (``hand/unknown``, ``db/bad_url``, ...), a busy port or database, a database
that cannot be reached or opened, a file that cannot be read or written. Anything
else is a bug and keeps its traceback.
"""

from __future__ import annotations

from typing import Final

EXIT_REFUSED: Final = 1


def user_failure(exc: BaseException) -> str | None:
    """The sentence for a failure that is the user's or the machine's, not ours (None: a bug)."""
    import sqlalchemy as sa

    from server.config_file import ConfigError
    from server.listening import PortUnavailable
    from server.persistence.errors import StoreError
    from server.persistence.ownership import DatabaseBusy

    if isinstance(exc, StoreError):
        return exc.message
    if isinstance(exc, ConfigError):
        return str(exc)
    if isinstance(exc, DatabaseBusy | PortUnavailable):
        return f"{exc}; nothing was changed"
    if isinstance(exc, sa.exc.DBAPIError):  # the driver's own words, without SQLAlchemy's statement dump
        return f"the database refused: {_first_line(exc.orig) or type(exc.orig).__name__}"
    if isinstance(exc, sa.exc.SQLAlchemyError):
        return f"the database refused: {_first_line(exc)}"
    if isinstance(exc, ConnectionError | TimeoutError):
        return f"cannot reach the database: {_first_line(exc) or type(exc).__name__}"
    if isinstance(exc, OSError):
        reason = exc.strerror or _first_line(exc)
        return f"cannot use {exc.filename}: {reason}" if exc.filename else reason
    return None


def _first_line(exc: object) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else ""
