"""One module per schema revision (alembic ignores this file)."""
