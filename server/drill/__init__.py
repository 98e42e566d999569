"""Procedure drills off the table: scenarios and scripted players (docs/drills.md).

The engine (the steps, their right answers, the judging) is pure and lives in
:mod:`server.rules.drill`; this package reads scenarios and plays them through the
rules (to check them and to make the key). It imports only the rules, so the table
may use it; the offline runner, which plays a scenario at an in-process table over a
database, sits above the table and the storage in :mod:`server.drill_runner`.
"""
