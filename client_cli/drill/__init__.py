"""``hcf drill``: a trainee rehearses a procedure drill in the terminal (docs/drills.md)."""
