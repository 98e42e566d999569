"""The drill engine (docs/drills.md): the steps a hand asks of a trainee, their right answers, the judging.

Pure, like the rest of the rules core: the key of a hand is read off the very
states and events the table runs, never worked out by a second copy of the rules.
"""
