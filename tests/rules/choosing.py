"""Holding a game's choices to its ``decide`` (protocol v2 section 3, docs/choices.md).

:func:`check_choices` takes one state and one seat and checks, for every offered
choice: each argument at each of its bounds and alternatives (the others at their
least) is admitted by :func:`~server.rules.choices.admits` and accepted by the
rules; one past a bound is refused; arguments filled up to the stack's cover are
accepted and one chip more is refused; and random arguments are admitted exactly
when the rules accept them. Every move the game knows that is not offered is
refused, with the arguments a player would most likely send. :func:`play_checking`
plays a random hand and checks every state it passes through.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

from server.protocol import sent
from server.rules.choices import admits, cost, fits, is_spec
from server.rules.errors import RuleError, Violation
from server.rules.game import JSON, Game
from server.rules.machine import Phased

Args = dict[str, Any]
Typical = Callable[[Any, int], list[Args]]
"""The arguments a player would send with one move, given the state and their seat."""

NOT_ARGS = ("request", "action", "limits")

S = TypeVar("S", bound=Phased)
C = TypeVar("C")
E = TypeVar("E")


def accepted(game: Game, state: Any, seat: int, action: str, args: Mapping[str, Any]) -> bool:
    """Whether the move, admitted by the game's declared moves and through its wire translation, is accepted by
    its ``decide`` (the table checks ``game.moves`` before ``game.move``)."""
    try:
        wire = sent(args)  # as the gateway hands it on: a null argument is one not sent
        game.moves.check(action, wire)
        game.decide(state, game.move(seat, action, wire))
    except RuleError:
        return False
    return True


def arguments(choice: Mapping[str, Any]) -> dict[str, Any]:
    """The choice's arguments and their specs."""
    return {k: v for k, v in choice.items() if k not in NOT_ARGS}


def is_span(spec: Any) -> bool:
    return isinstance(spec, Mapping) and "min" in spec


def is_text(spec: Any) -> bool:
    return isinstance(spec, Mapping) and "max_length" in spec


def is_list(spec: Any) -> bool:
    return isinstance(spec, Mapping) and "count" in spec


def of_objects(spec: Any) -> bool:
    """A list whose entries are objects (bets), not plain values (card positions)."""
    return is_list(spec) and not is_spec(spec["each"])


def alternatives(spec: Any) -> list[Any]:
    return spec if isinstance(spec, list) else [spec]


def least(spec: Any) -> Any:
    """The first value a spec allows (lists of entries: the fewest, at their least)."""
    if isinstance(spec, list):
        return least(spec[0])
    if is_span(spec):
        return spec["min"]
    if is_text(spec):
        return None
    if is_list(spec):
        return entries(spec, least(spec["count"]))
    return spec


def least_nonzero(spec: Any) -> Any:
    """The least value other than 0 or False that a spec allows, or None."""
    found = []
    for alt in alternatives(spec):
        if is_span(alt):
            low = max(alt["min"], 1)
            if low <= alt["max"]:
                found.append(low)
        elif alt not in (0, False):
            found.append(alt)
    return min(found) if found else None


def edges(spec: Any) -> list[Any]:
    """Every bound of a spec: each span's ends, each listed value."""
    out: list[Any] = []
    for alt in alternatives(spec):
        if is_span(alt):
            out += [alt["min"], alt["max"]]
        elif is_text(alt):
            out += [None, "s" * alt["max_length"]]
        else:
            out.append(alt)
    return out


def beyond(spec: Any) -> list[Any]:
    """Values just past a spec's bounds that it does not allow."""
    near: list[Any] = []
    for alt in alternatives(spec):
        if is_span(alt):
            near += [alt["min"] - 1, alt["max"] + 1]
        elif is_text(alt):
            near.append("s" * (alt["max_length"] + 1))
        elif isinstance(alt, bool):
            near.append(not alt)
        elif isinstance(alt, int):
            near += [alt - 1, alt + 1]
    return [v for v in near if not fits(spec, v)]


def places(spec: Mapping[str, Any]) -> list[int]:
    """The places (spots, boxes; plain values) entries of a list may use, then a few they may not."""
    each = spec["each"]
    allowed = list(range(each["min"], each["max"] + 1)) if is_span(each) else list(each[spec["distinct"]])
    return allowed + [p for p in range(0, max(allowed, default=0) + 3) if p not in allowed]


def entries(spec: Mapping[str, Any], count: int, first: Any = None, **over: Any) -> list[Any]:
    """``count`` entries on the first places, at their least values.

    ``over`` changes the first entry's fields (object entries), ``first`` the first value (plain ones).
    """
    out: list[Any] = list(places(spec)[:max(count, 0)])
    if not of_objects(spec):
        return [first, *out[1:]] if first is not None and out else out
    each, place = spec["each"], spec["distinct"]
    objects = [{k: least(v) for k, v in each.items()} | {place: where} for where in out]
    return [objects[0] | over, *objects[1:]] if objects else objects


def one_entry(spec: Mapping[str, Any], field: str | None, value: Any) -> list[Any]:
    """One entry at its least, ``field`` (None: the value itself) set to ``value``."""
    return entries(spec, 1, value) if field is None else entries(spec, 1, **{field: value})


def entry_specs(spec: Mapping[str, Any]) -> dict[str | None, Any]:
    """Each field of an entry and its spec; a plain value's spec under None."""
    return dict(spec["each"]) if of_objects(spec) else {None: spec["each"]}


def repaired(choice: Mapping[str, Any], args: Args) -> Args:
    """``args`` made to keep ``box_needs``: failing entries get the least non-zero of a needed bet, whichever fits."""
    needs = choice.get("limits", {}).get("box_needs")
    if needs is None or admits(choice, args):
        return args
    for name, spec in arguments(choice).items():
        if not of_objects(spec) or not isinstance(args.get(name), list):
            continue
        options = []
        for entry in args[name]:
            if any(entry[k] for k in needs):
                options.append([entry])
                continue
            fixes = [entry | {k: least_nonzero(spec["each"][k])} for k in needs
                     if least_nonzero(spec["each"][k]) is not None]
            options.append(fixes or [entry])
        for combo in itertools.product(*options):
            candidate = args | {name: list(combo)}
            if admits(choice, candidate):
                return candidate
    return args


def bound_args(choice: Mapping[str, Any]) -> list[Args]:
    """The choice at each bound of each argument, the others at their least."""
    specs = arguments(choice)
    base = {name: least(spec) for name, spec in specs.items()}
    out = [base]
    for name, spec in specs.items():
        if is_list(spec):
            out += [base | {name: entries(spec, n)} for n in edges(spec["count"])]
            if fits(spec["count"], 1):
                out += [base | {name: one_entry(spec, k, v)} for k, each in entry_specs(spec).items()
                        for v in edges(each)]
        else:
            out += [base | {name: v} for v in edges(spec)]
    return [repaired(choice, args) for args in out]


def beyond_args(choice: Mapping[str, Any]) -> list[Args]:
    """The choice one step past each bound of each argument, the others at their least."""
    specs = arguments(choice)
    base = repaired(choice, {name: least(spec) for name, spec in specs.items()})
    out = []
    for name, spec in specs.items():
        if is_list(spec):
            out += [repaired(choice, base | {name: entries(spec, n)}) for n in beyond(spec["count"]) if n >= 0]
            for k, each in entry_specs(spec).items():
                wrong = [p for p in places(spec) if p not in each] if k == spec["distinct"] else beyond(each)
                out += [repaired(choice, base | {name: one_entry(spec, k, v)}) for v in wrong]
        else:
            out += [base | {name: v} for v in beyond(spec)]
    return out


def filled(choice: Mapping[str, Any]) -> Args | None:
    """The least arguments (one entry for a list) raised bet by bet until the stack's cover is used up."""
    cover = choice.get("limits", {}).get("cover")
    if cover is None:
        return None
    specs = arguments(choice)
    args = repaired(choice, {name: least(spec) for name, spec in specs.items()})
    listed = next((name for name, spec in specs.items() if of_objects(spec)), None)
    if listed is not None:
        if specs[listed]["count"]["max"] < 1:
            return None
        args = repaired(choice, args | {listed: entries(specs[listed], 1)})
    for field in (k for k in cover if k != "max"):
        spec = specs[field] if listed is None else specs[listed]["each"][field]
        weight = cover[field][0] if isinstance(cover[field], list) else cover[field]
        current = args[field] if listed is None else args[listed][0][field]
        target = int(current) + (cover["max"] - cost(choice, args)) // max(weight, 1)
        for value in sorted(edges(spec) + _clamped(spec, target), key=_order, reverse=True):
            candidate = _with(args, listed, field, value)
            if admits(choice, candidate):
                args = candidate
                break
    return args


def _clamped(spec: Any, target: int) -> list[int]:
    """The value nearest ``target`` in each span of a spec."""
    return [min(max(target, alt["min"]), alt["max"]) for alt in alternatives(spec) if is_span(alt)]


def _order(value: Any) -> int:
    return int(value) if isinstance(value, bool | int) else -1


def _with(args: Args, listed: str | None, field: str, value: Any) -> Args:
    if listed is None:
        return args | {field: value}
    return args | {listed: [args[listed][0] | {field: value}]}


def bumps(choice: Mapping[str, Any], args: Args) -> list[Args]:
    """``args`` with one bet one chip higher (or a flag turned on), each way there is."""
    specs = arguments(choice)
    listed = next((name for name, spec in specs.items() if of_objects(spec)), None)
    fields = [k for k in choice["limits"]["cover"] if k != "max"]
    out = []
    for field in fields:
        current = args[field] if listed is None else args[listed][0][field]
        bumped = True if isinstance(current, bool) else current + 1
        out.append(_with(args, listed, field, bumped))
    return out


def random_args(rnd: random.Random, choice: Mapping[str, Any]) -> Args:
    """Arguments near and inside the choice's bounds, and now and then past them."""
    out: Args = {}
    for name, spec in arguments(choice).items():
        if is_list(spec):
            counts = [n for n in edges(spec["count"]) + beyond(spec["count"]) if n >= 0]
            where = rnd.sample(places(spec), min(rnd.choice(counts), len(places(spec))))
            out[name] = ([{spec["distinct"]: p} | {k: _value(rnd, v) for k, v in spec["each"].items()
                                                   if k != spec["distinct"]} for p in where]
                         if of_objects(spec) else where)
        else:
            out[name] = _value(rnd, spec)
    return out


def _value(rnd: random.Random, spec: Any) -> Any:
    if is_text(spec):
        return rnd.choice([None, "", "s" * spec["max_length"], "s" * (spec["max_length"] + 1)])
    spans = [alt for alt in alternatives(spec) if is_span(alt)]
    if spans and rnd.random() < 0.5:
        alt = rnd.choice(spans)
        return rnd.randint(alt["min"], alt["max"])
    return rnd.choice(edges(spec) + beyond(spec))


def check_choices(game: Game, state: Any, seat: int, data: st.DataObject, moves: Mapping[str, Typical],
                  samples: int = 3) -> list[JSON]:
    """Check everything the module docstring says for ``seat`` at ``state``; the choices."""
    offered = game.choices(state, seat)
    assert json.loads(json.dumps(offered)) == offered  # plain JSON: lists, not tuples
    for choice in offered:
        assert choice["request"] == "move"
        assert choice["action"] in moves, choice
        _check_choice(game, state, seat, choice, offered, data, samples)
    actions = {choice["action"] for choice in offered}
    for action, typical in moves.items():
        if action not in actions:
            for args in typical(state, seat):
                assert not accepted(game, state, seat, action, args), (action, args, offered)
    return offered


def _check_choice(game: Game, state: Any, seat: int, choice: JSON, offered: Sequence[JSON],
                  data: st.DataObject, samples: int) -> None:
    action = choice["action"]
    same = [c for c in offered if c["action"] == action]

    def admitted(args: Args) -> bool:
        return any(admits(c, args) for c in same)

    for args in bound_args(choice):
        assert admits(choice, args), (choice, args)
        assert accepted(game, state, seat, action, args), (choice, args)
    for args in beyond_args(choice):
        if not admitted(args):
            assert not accepted(game, state, seat, action, args), (choice, args)
    full = filled(choice)
    if full is not None:
        assert accepted(game, state, seat, action, full), (choice, full, cost(choice, full))
        for args in bumps(choice, full):
            if not admitted(args):
                assert not accepted(game, state, seat, action, args), (choice, args)
    rnd = data.draw(st.randoms(use_true_random=False))
    for _ in range(samples):
        args = random_args(rnd, choice)
        assert admitted(args) == accepted(game, state, seat, action, args), (choice, args)


def play_checking(start: S, data: st.DataObject, *, opening_events: Callable[[S], Sequence[E]],
                  decide: Callable[[S, C], Sequence[E]], evolve: Callable[[S, E], S], terminal: Collection[str],
                  next_command: Callable[[st.DataObject, S], C], check: Callable[[S, st.DataObject], None],
                  steps: int = 30) -> None:
    """Play a hand from ``start`` with the game's functions, calling ``check`` on every state it reaches.

    After its opening events, the hand takes up to ``steps`` commands drawn by ``next_command``
    (one refused changes nothing) and stops once it is over, its last state checked too.
    """
    state = start
    for event in opening_events(start):
        state = evolve(state, event)
    for _ in range(steps):
        check(state, data)
        if state.phase in terminal:
            break
        try:
            events = decide(state, next_command(data, state))
        except Violation:
            continue
        for event in events:
            state = evolve(state, event)
