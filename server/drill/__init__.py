"""Procedure drills off the table: scenarios, scripted players and the offline runner (docs/drills.md).

The engine (the steps, their right answers, the judging) is pure and lives in
:mod:`server.rules.drill`; this package reads scenarios, plays them through the
rules (to check them and to make the key) and at an in-process table.
"""
