"""The ``hcf-server simulate`` Monte Carlo: many hands, fast, and checked against the rules.

Two engines play the same decks: :mod:`~server.simulation.reference` through the
real hand state machine, one hand at a time, and :mod:`~server.simulation.vectorized`
with numpy over thousands of hands at once. The tests make them agree seat by seat;
``simulate`` uses the fast one. Conventions are in ``docs/simulation.md``.

numpy lives here and never in :mod:`server.rules`, which stays standard library only.
"""
