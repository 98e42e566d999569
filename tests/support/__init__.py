"""Helpers shared by test packages (not tests themselves)."""
