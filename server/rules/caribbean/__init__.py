"""Cyber Caribbean Stud (../shared/RULES-caribbean.md): settings, settlement, strategy, the live hand."""
