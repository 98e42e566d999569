"""One entry point for every game: validated settings in, the odds report out, cached on disk.

>>> from server.rules.sixcard.settings import SixcardSettings
>>> import tempfile, pathlib
>>> where = pathlib.Path(tempfile.mkdtemp())
>>> cached_report(SixcardSettings(), cache=where) is None  # never computes: an empty cache has nothing
True

(Every game's main bets are now counted exactly, the first time in tens of seconds:
``tests/analysis/test_command.py`` shows a second run answered from the cache.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.analysis import cache as disk
from server.analysis import caribbean, caribbean_exact, caribbean_upcard, hcf, sixcard, sixcard_exact
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.hcf.settings import HcfSettings
from server.rules.sixcard.settings import SixcardSettings
from server.simulation.progress import Report

Settings = HcfSettings | CaribbeanSettings | SixcardSettings


def game_name(settings: Settings) -> str:
    """``hcf``, ``caribbean`` or ``sixcard``."""
    if isinstance(settings, HcfSettings):
        return "hcf"
    return "caribbean" if isinstance(settings, CaribbeanSettings) else "sixcard"


def _settings_json(settings: Settings) -> dict[str, Any]:
    return {**settings.as_dict(), "game": game_name(settings)}


def analyze_settings(settings: Settings, meter: int | None = None, *, progress: Report | None = None,
                     cache: Path | None = None, hands: int | None = None) -> dict[str, Any]:
    """The report for ``settings`` (``meter``: a Caribbean table's meter in hundredths of a chip).

    ``cache`` is the directory of stored analyses (None: :func:`~server.analysis.cache.cache_dir`);
    ``hands`` overrides the simulated hands (tests keep runs short).
    """
    directory = disk.cache_dir() if cache is None else cache
    inputs = _inputs(settings, meter, hands)
    key = disk.key_of(inputs)
    stored = disk.load(directory, key)
    if stored is not None:
        return {**stored, "cached": True}
    report = _compute(settings, meter, progress, directory, hands)
    report = {**report, "settings": inputs["settings"]}
    disk.store(directory, key, report)
    return {**report, "algorithm": disk.ALGORITHM, "cached": False}


def _inputs(settings: Settings, meter: int | None, hands: int | None) -> dict[str, Any]:
    inputs: dict[str, Any] = {"settings": _settings_json(settings), "hands": hands}
    if isinstance(settings, CaribbeanSettings):
        inputs["meter"] = meter if meter is not None else settings.jackpot_seed * 100
    return inputs


def cached_report(settings: Settings, meter: int | None = None, *, cache: Path | None = None) -> dict[str, Any] | None:
    """The stored report for these inputs, or None: never computes (a file read at most)."""
    directory = disk.cache_dir() if cache is None else cache
    stored = disk.load(directory, disk.key_of(_inputs(settings, meter, None)))
    return None if stored is None else {**stored, "cached": True}


def _compute(settings: Settings, meter: int | None, progress: Report | None, directory: Path,
             hands: int | None) -> dict[str, Any]:
    extra: dict[str, int] = {} if hands is None else {"hands": hands}
    if isinstance(settings, CaribbeanSettings):
        return caribbean.analyze(settings, meter, progress, play_counts=caribbean_counts(directory, progress),
                                 best_rows=caribbean_up_rows(directory, progress))
    if isinstance(settings, SixcardSettings):
        return sixcard.analyze(settings, progress, counts=sixcard_counts(directory, progress), **extra)
    bank = {} if hands is None else {"bank_hands": hands}
    return hcf.analyze(settings, progress, totals_cache=hcf_totals(directory, progress), **bank)


def hcf_totals(directory: Path, progress: Report | None = None) -> hcf.Totals:
    """The High Card Flush counts (the same for every table), from the cache or counted once."""
    stored = disk.made_once(directory, disk.key_of({"hcf_totals": True}), disk.load,
                            lambda: {"totals": hcf.totals(progress).as_json()}, disk.store)
    return hcf.Totals.from_json(stored["totals"])


def caribbean_counts(directory: Path, progress: Report | None = None) -> dict[str, int]:
    """Caribbean Stud's main-bet counts (the same for every table), from the cache or counted once."""
    stored = disk.made_once(directory, disk.key_of({"caribbean_play_counts": True}), disk.load,
                            lambda: {"counts": caribbean_exact.play_counts(progress)}, disk.store)
    return {k: int(v) for k, v in stored["counts"].items()}


def caribbean_up_rows(directory: Path, progress: Report | None = None) -> dict[str, Any]:
    """Caribbean Stud's counts per player hand and up card (the same for every table), cached or counted once
    (about 12 to 25 s of CPU)."""
    key = disk.key_of({"caribbean_up_card_rows": 2})  # 2: the strategy card's groups by how the up card stands
    return disk.made_once(directory, key, disk.load_arrays, lambda: caribbean_upcard.count_rows(progress),
                          disk.store_arrays)


def sixcard_counts(directory: Path, progress: Report | None = None) -> dict[str, Any]:
    """6 Card Poker's main-bet counts (the same for every table), cached or counted once (about 12 s of CPU)."""
    stored = disk.made_once(directory, disk.key_of({"sixcard_counts": True}), disk.load_arrays,
                            lambda: sixcard_exact.counts(progress), disk.store_arrays)
    return {**stored, "folded": int(stored["folded"])}


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """Each bet's house edge, in a few fields (for the lobby and the host's reply)."""
    game = report["game"]
    if game == "hcf":
        edges = {"ante_raise": report["ante_raise"]["basic"]["house_edge_per_ante"],
                 "ante_raise_optimal": report["ante_raise"]["optimal"]["house_edge_per_ante"],
                 "flush_bonus": report["flush_bonus"]["house_edge"],
                 "straight_flush_bonus": report["straight_flush_bonus"]["house_edge"]}
        out: dict[str, Any] = {"game": game, "house_edge": edges, "exact": True}
        if "banking" in report:
            out["dp_expected_per_hand"] = {str(r["players"]): r["simulated_expected_with_cap"]
                                           for r in report["banking"]["by_players"]}
        return out
    if game == "caribbean":
        jackpot = report["jackpot"]
        main = report["ante_bet"]
        simulated = bool(main.get("simulated"))
        edge = main["house_edge_per_ante"]
        edges = {"ante_bet": edge["value"] if simulated else edge, "jackpot": jackpot["house_edge_at_meter"]}
        if "ante_bet_best" in report:
            edges["ante_bet_best"] = report["ante_bet_best"]["house_edge_per_ante"]
        return {"game": game, "exact": not simulated,
                "house_edge": edges,
                "simulated": ["ante_bet"] if simulated else [],
                "jackpot_break_even_meter": jackpot["break_even_meter_chips"]}
    main = report["ante_bet"]
    simulated = bool(main.get("simulated"))
    edge = main["house_edge_per_ante"]
    return {"game": game, "exact": not simulated,
            "house_edge": {"ante_bet": edge["value"] if simulated else edge, "bonus": report["bonus"]["house_edge"]},
            "simulated": ["ante_bet"] if simulated else []}
