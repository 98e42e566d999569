"""Each game's hand view has the shape server/hand_views.py types, and the docs say the same (issue 24, item 3).

mypy checks the keys each ``view.hand_view`` writes against its TypedDict; this checks
the other two sides: the docs' shapes (the High Card Flush snapshot's example in
docs/protocol.md, the key lists of docs/games/caribbean.md and docs/games/sixcard.md)
name exactly the types' keys, and every view of real hands, played through the rules
core with moves drawn from their own choices, fits its type for every viewer.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server import hand_views as hv
from server.rules.errors import Violation
from server.rules.game import Game, Player
from server.rules.games import GAMES
from tests.test_protocol_shapes import example_after, problems

ROOT = Path(__file__).resolve().parents[1]
VIEWS: dict[str, Any] = {"hcf": hv.HcfHandView, "caribbean": hv.CaribbeanHandView, "sixcard": hv.SixcardHandView}


class HcfSnapshotHand(hv.HcfHandView, hv.HandStamp):
    """A High Card Flush snapshot's ``hand``: the game's view and what the table writes beside it."""


def shape_problems(value: Any, kind: Any, where: str = "hand") -> list[str]:
    """:func:`tests.test_protocol_shapes.problems`, with objects keyed by text (``seats``, ``shown``) looked into."""
    found = problems(value, kind, where)
    if is_typeddict(kind) and isinstance(value, dict):
        hints = get_type_hints(kind)
        for key in value.keys() & hints.keys():
            found += _inner(value[key], hints[key], f"{where}.{key}")
    return found


def _inner(value: Any, kind: Any, where: str) -> list[str]:
    """What :func:`problems` does not look into: a ``dict[str, X]``'s values, at any depth."""
    origin, args = get_origin(kind), get_args(kind)
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        return [p for key, item in value.items()
                for p in [*problems(item, args[1], f"{where}[{key!r}]"), *_inner(item, args[1], f"{where}[{key!r}]")]]
    if is_typeddict(kind) and isinstance(value, dict):
        hints = get_type_hints(kind)
        return [p for key in value.keys() & hints.keys() for p in _inner(value[key], hints[key], f"{where}.{key}")]
    if origin is list and isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _inner(item, args[0], f"{where}[{i}]")]
    if origin in (Union, types.UnionType):
        return min((_inner(value, arg, where) for arg in args if not problems(value, arg, where)), key=len, default=[])
    return []


def type_keys(kind: Any) -> Iterator[tuple[str, bool]]:
    """Every key of ``kind`` and of the records inside it, with whether it may be left out."""
    if is_typeddict(kind):
        for key, hint in get_type_hints(kind).items():
            yield key, key in kind.__optional_keys__
            yield from type_keys(hint)
    for arg in get_args(kind):
        yield from type_keys(arg)


def docs_keys(doc: str, heading: str) -> dict[str, bool]:
    """The keys a game's doc lists for its snapshot's hand (the paragraph after ``heading``), with whether the
    doc marks each as sometimes absent (``cards?``)."""
    text = (ROOT / "docs" / "games" / doc).read_text(encoding="utf-8")
    paragraph = text.split(heading, 1)[1].strip().split("\n\n", 1)[0]
    found: dict[str, bool] = {}
    for quoted, bare, optional in re.findall(r'"(\w+)"|[{,]\s*(\w+)(\?)?(?=\s*[,}:])', paragraph):
        key = quoted or bare
        found[key] = found.get(key, False) or bool(optional)
    for key in re.findall(r'"(\w+)"\?', paragraph):
        found[key] = True
    return found


def test_the_hcf_snapshot_example_s_hand_is_a_hcf_hand_view() -> None:
    (snapshot,) = example_after("## 7. The snapshot")
    assert shape_problems(snapshot["hand"], HcfSnapshotHand) == []


def test_a_hand_that_does_not_fit_is_found() -> None:
    (snapshot,) = example_after("## 7. The snapshot")
    broken = snapshot["hand"] | {"seats": {"2": {**snapshot["hand"]["seats"]["2"], "raise": "ten"}}}
    assert shape_problems(broken, HcfSnapshotHand) == ["hand.seats['2'].raise: not int"]
    assert shape_problems({**snapshot["hand"], "pot": 3}, HcfSnapshotHand) == [
        "hand: 'pot' is not part of HcfSnapshotHand"]


@pytest.mark.parametrize(("doc", "heading", "kind", "game"), [
    ("caribbean.md", "## The snapshot's hand", hv.CaribbeanHandView, "caribbean"),
    ("sixcard.md", "## The hand in a snapshot", hv.SixcardHandView, "sixcard"),
])
def test_a_game_s_doc_names_exactly_the_keys_of_its_hand_view(doc: str, heading: str, kind: Any, game: str) -> None:
    documented = docs_keys(doc, heading)
    typed = dict(type_keys(kind))
    documented.pop(game, None)  # the value of "game"
    assert set(documented) == set(typed)
    assert {k for k, optional in documented.items() if optional} <= {k for k, _ in type_keys(kind) if _}


# ------------------------------------------------------------------ real hands


def args_for(spec: Mapping[str, Any], data: st.DataObject) -> dict[str, Any]:
    """Args for one offered item, drawn within its specs (the rules judge what they keep together)."""
    return {arg: _value(limit, data) for arg, limit in spec.items() if arg not in ("request", "action", "limits")}


def _value(spec: Any, data: st.DataObject) -> Any:
    if isinstance(spec, Mapping) and "min" in spec and "max" in spec:
        return data.draw(st.integers(spec["min"], min(spec["max"], spec["min"] + 60)))
    if isinstance(spec, Mapping) and "max_length" in spec:
        return "seed"
    if isinstance(spec, Mapping) and "count" in spec:
        return _entries(spec, data)
    if isinstance(spec, list | tuple):
        return _value(data.draw(st.sampled_from(list(spec))), data)
    return spec


def _entries(spec: Mapping[str, Any], data: st.DataObject) -> list[Any]:
    count, each = _value(spec["count"], data), spec["each"]
    if not isinstance(each, Mapping) or "min" in each:  # plain values, each once
        pool = range(each["min"], each["max"] + 1) if isinstance(each, Mapping) else list(each)
        return sorted(data.draw(st.lists(st.sampled_from(list(pool)), min_size=count, max_size=count, unique=True)))
    place = next((k for k in ("spot", "box") if isinstance(each.get(k), list)), None)
    places = data.draw(st.lists(st.sampled_from(each[place]), min_size=count, max_size=count, unique=True)) \
        if place is not None and len(each[place]) >= count else [None] * count
    return [{**args_for(each, data), **({place: p} if place else {})} for p in places]


def play(game: Game, data: st.DataObject) -> Iterator[tuple[Any, int | None]]:
    """A hand of ``game`` for three players, each move drawn from a seat's own choices; yields each state seen
    with each viewer."""
    players = [Player(seat, data.draw(st.sampled_from([40, 400, 5000]))) for seat in (1, 2, 3)]
    state = game.new_hand(game.settings_from_mapping({}), players, data.draw(st.binary(min_size=32, max_size=32)),
                          offer_from=1, arranged_deck=None, carry={})
    for event in game.opening_events(state):
        state = game.evolve(state, event)
    for _ in range(40):
        yield from ((state, viewer) for viewer in (None, 1, 2, 3))
        offered = [(seat, item) for seat in (1, 2, 3) for item in game.choices(state, seat)
                   if item["request"] == "move"]
        if not offered:
            return
        seat, item = data.draw(st.sampled_from(offered))
        try:
            events = game.decide(state, game.move(seat, item["action"], args_for(item, data)))
        except Violation:
            continue  # args the choices' limits do not keep together: the rules refuse them, nothing changes
        for event in events:
            state = game.evolve(state, event)


@pytest.mark.parametrize("name", sorted(VIEWS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_view_of_a_real_hand_fits_its_game_s_type(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    for state, viewer in play(game, data):
        view = game.hand_view(state, viewer)
        assert shape_problems(view, VIEWS[name], f"{name} hand, viewer {viewer}") == []
