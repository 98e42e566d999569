"""Alembic migrations of the store's schema; applied by ``server.persistence.migrate``."""
