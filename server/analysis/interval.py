"""Confidence intervals for the simulated figures, by batch means.

A run is split into batches of equal size; the batch results are independent, so
the spread of their means gives the interval with Student's t (the hands inside a
batch may share cards and a dealer, which a per-hand variance would ignore).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import sqrt
from statistics import fmean, stdev
from typing import Final

BATCHES: Final = 20
T_95_19: Final = 2.093024
"""Student's t, 95% two-sided, 19 degrees of freedom (20 batches)."""


def interval(batch_means: Sequence[float]) -> dict[str, float | list[float]]:
    """Mean and its 95% interval from equal-size batch means."""
    mean = fmean(batch_means)
    half = T_95_19 * stdev(batch_means) / sqrt(len(batch_means)) if len(batch_means) > 1 else 0.0
    return {"value": mean, "interval_95": [mean - half, mean + half]}
