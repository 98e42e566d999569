"""Cyber Caribbean Stud (docs/rules/caribbean.md): settings, settlement, strategy, the live hand."""
