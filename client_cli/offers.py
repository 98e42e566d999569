"""The server's choices (protocol v2, docs/protocol.md section 3): what this viewer may send now.

Pure. Every update and snapshot carries ``choices``: the viewer's seat, the
deadline of its current decision, and ``moves``, each item a request it may
send as is (fixed args as values, free amounts as ``{"min", "max"}`` ranges,
choices among values as lists). The terminal client and the bots offer exactly
these: :func:`check` says why a request is not among them (so it is never
sent), :func:`possible_text` names what is possible now.

>>> offers = read_offers({"choices": {"seat": 2, "deadline": None, "moves": [
...     {"request": "move", "action": "raise", "amount": {"min": 10, "max": 40}},
...     {"request": "move", "action": "fold"}, {"request": "leave"}]}})
>>> offers.has("move", "raise"), offers.has("move", "bet")
(True, False)
>>> check(offers, "move", {"action": "raise", "amount": 50})
'raise 50 is not possible now: the amount is 10 to 40 chips. Now you may: raise 10 to 40, fold, leave'
>>> check(offers, "move", {"action": "bet", "ante": 10})
'bet is not possible now. Now you may: raise 10 to 40, fold, leave'
>>> check(offers, "move", {"action": "fold"}) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from server.i18n import _, phrase, spoken
from server.rules.choices import admits, cost

Args = Mapping[str, Any]

ACTION_WORDS: Final = {
    "bank": phrase("accept or decline the bank (y / n)"), "bet": "bet", "deal": "deal", "rebet": "rebet",
    "clear": "clear", "pass": "pass", "play": "play", "fold": "fold", "raise": "raise", "buy": "buy",
    "exchange": "exchange (x)", "request_exchange": "ask", "cancel_exchange": "cancel", "continue": "continue",
}
"""How the player types each move (what a sentence names)."""
_TYPED: Final = {"request_exchange": "ask", "cancel_exchange": "cancel"}
"""A move whose typed word is not its name."""
UNCHECKED: Final = frozenset({"request", "action", "limits"})
"""Keys of an item that are not the args' specs (``limits`` says what args keep together: the server judges)."""


@dataclass(frozen=True, slots=True)
class Offer:
    """One item of ``choices.moves``: a request with the values its args may take."""

    request: str
    action: str | None = None
    limits: Mapping[str, Any] = field(default_factory=dict)
    """Arg -> a fixed value, a ``{"min", "max"}`` range, or a list of the values allowed."""

    def range(self, arg: str) -> tuple[int, int] | None:
        """The inclusive range of a free amount, or None when ``arg`` is not one.

        >>> Offer("top_up", None, {"amount": {"min": 1, "max": 900}}).range("amount")
        (1, 900)
        """
        value = self.limits.get(arg)
        if isinstance(value, Mapping) and isinstance(value.get("min"), int) and isinstance(value.get("max"), int):
            return int(value["min"]), int(value["max"])
        return None

    def values(self, arg: str) -> tuple[Any, ...] | None:
        """The values ``arg`` may take (a list, or the one fixed value), or None for a range or an absent arg."""
        if arg not in self.limits:
            return None
        value = self.limits[arg]
        if isinstance(value, list | tuple):
            return tuple(value)
        return None if isinstance(value, Mapping) else (value,)

    def problem(self, args: Args) -> str | None:
        """Why ``args`` do not fit this item (None: they do)."""
        for arg, limit in self.limits.items():
            if arg in UNCHECKED or arg not in args:
                continue  # an arg left out takes its default; the server judges that
            sent = args[arg]
            problem = _fits(arg, sent, limit)
            if problem is not None:
                return problem
        return None

    def at(self, args: Args) -> bool:
        """Whether this item is on the spot or box ``args`` name (an item of no fixed place is on every one)."""
        return all(not isinstance(self.limits.get(k), int) or not isinstance(args.get(k), int)
                   or self.limits[k] == args[k] for k in ("spot", "box"))

    def raw(self) -> dict[str, Any]:
        """The item as the server gave it."""
        head: dict[str, Any] = {"request": self.request}
        if self.action is not None:
            head["action"] = self.action
        return {**head, **self.limits}

    def together(self, args: Args) -> str | None:
        """For a hand move: why ``args`` do not keep the item's limits together (the rules' own reading,
        :func:`server.rules.choices.admits`), else None."""
        if self.request != "move":
            return None
        sent = {k: v for k, v in args.items() if k != "action"}
        try:
            if admits(self.raw(), sent):
                return None
        except (KeyError, TypeError, ValueError):
            return None  # a shape the rules' reader does not take (6 Card Poker's discard): the server judges it
        cover = (self.limits.get("limits") or {}).get("cover")
        if isinstance(cover, Mapping) and isinstance(cover.get("max"), int):
            needed = cost(self.raw(), sent)
            if needed > cover["max"]:
                return _("your stack covers {chips} chips of these, they need {needed}", chips=cover["max"],
                         needed=needed)
        return _("these do not go together here (see help)")

    def misfit(self, args: Args) -> Misfit | None:
        """What keeps ``args`` from this item (None: they fit): the first arg outside its spec, else the cover."""
        for arg, limit in self.limits.items():
            if arg not in UNCHECKED and arg in args and _fits(arg, args[arg], limit) is not None:
                listed = isinstance(limit, Mapping) and "count" in limit and isinstance(args[arg], list)
                return _list_misfit(arg, args[arg], limit) if listed else Misfit(arg=arg, spec=limit)
        if self.together(args) is None:
            return None
        cover = (self.limits.get("limits") or {}).get("cover")
        if isinstance(cover, Mapping) and isinstance(cover.get("max"), int):
            needed = cost(self.raw(), {k: v for k, v in args.items() if k != "action"})
            if needed > cover["max"]:
                return Misfit(arg=None, needed=needed, cover=int(cover["max"]))
        return Misfit(arg="limits", spec=self.limits.get("limits"))  # another of the limits kept together

    def text(self) -> str:
        """How a sentence names this item: ``raise 10 to 40``, ``sitout``, ``topup 1 to 900``."""
        if self.request == "move":
            word = spoken(ACTION_WORDS.get(str(self.action), str(self.action).replace("_", " ")))
            place = next((f" {k} {self.limits[k]}" for k in ("spot", "box") if isinstance(self.limits.get(k), int)), "")
            amount = self.range("amount")
            if amount is not None:
                return f"{word}{place} {_span(amount)}"
            bets = self.limits.get("bets")
            each = bets.get("each") if isinstance(bets, Mapping) else None
            ante = span_of(self.limits.get("ante") if each is None else each.get("ante"))
            if ante is not None and self.action == "bet":
                return f"{word}{place} (Ante {_span(ante)})"
            return word + place
        return _table_text(self)


@dataclass(frozen=True, slots=True, kw_only=True)
class Misfit:
    """Why args are not among the offered items, for a game to word: the judge is :func:`misfit`."""

    arg: str | None = None
    """The arg outside its ``spec`` (``limits``: the args do not keep the item's limits together; None: nothing of
    this request is offered when ``cover`` is 0, else the args need ``needed`` chips of a stack's ``cover``)."""
    spec: Any = None
    needed: int = 0
    cover: int = 0
    part: str | None = None
    """For a list arg: ``count`` (how many entries), ``distinct`` (a place named twice) or the field of ``entry``
    outside ``spec``."""
    entry: Mapping[str, Any] | None = None

    @property
    def not_offered(self) -> bool:
        """Whether nothing of this request (action) is offered now."""
        return self.arg is None and self.cover == 0 and self.needed == 0


@dataclass(frozen=True, slots=True)
class Offers:
    """A viewer's choices now."""

    seat: int | None = None
    deadline: float | None = None
    items: tuple[Offer, ...] = ()

    def find(self, request: str, action: str | None = None) -> list[Offer]:
        """The items of ``request`` (and, for ``move``, of ``action``)."""
        return [o for o in self.items if o.request == request and (action is None or o.action == action)]

    def has(self, request: str, action: str | None = None) -> bool:
        """Whether ``request`` (``action``) is offered now."""
        return bool(self.find(request, action))

    @property
    def actions(self) -> frozenset[str]:
        """The hand moves offered now (the ``action`` of every ``move`` item)."""
        return frozenset(str(o.action) for o in self.items if o.request == "move")

    def first(self, request: str, action: str | None = None) -> Offer | None:
        """The first item of ``request`` (``action``), or None."""
        found = self.find(request, action)
        return found[0] if found else None


NOTHING: Final = Offers()


def read_offers(model: Mapping[str, Any] | None) -> Offers:
    """The choices of a table model (a snapshot with its ``choices``); nothing when it has none."""
    raw = (model or {}).get("choices")
    if not isinstance(raw, Mapping):
        return NOTHING
    items = []
    for item in raw.get("moves") or []:
        if isinstance(item, Mapping) and isinstance(item.get("request"), str):
            action = item.get("action")
            limits = {k: v for k, v in item.items() if k not in ("request", "action")}
            items.append(Offer(str(item["request"]), str(action) if action is not None else None, limits))
    seat, deadline = raw.get("seat"), raw.get("deadline")
    return Offers(seat if isinstance(seat, int) else None,
                  float(deadline) if isinstance(deadline, int | float) else None, tuple(items))


K = TypeVar("K", bound=str)


def kind_of(offers: Offers, kinds: Mapping[K, frozenset[str]]) -> K | None:
    """What is asked of this player now: the first kind of a game's choices whose hand moves are offered (None:
    nothing is asked).

    >>> kind_of(read_offers({"choices": {"moves": [{"request": "move", "action": "pass"}]}}),
    ...         {"bets": frozenset({"bet", "pass"}), "decision": frozenset({"fold"})})
    'bets'
    """
    offered = offers.actions
    return next((kind for kind, moves in kinds.items() if moves & offered), None)


def check(offers: Offers, request: str, args: Args) -> str | None:
    """None when ``request`` with ``args`` is among the choices; else a sentence that says what is possible now.

    Each arg must fit its spec, and a hand move's args must keep the item's ``limits`` together.
    """
    action = args.get("action") if request == "move" else None
    items = [item for item in offers.find(request, str(action) if action is not None else None)
             if item.at(args)]
    what = request_text(request, args)
    if not items:
        return _("{what} is not possible now.", what=what) + " " + possible_text(offers)
    problems = [item.problem(args) or item.together(args) for item in items]
    if any(p is None for p in problems):
        return None
    why = spoken(SWITCHES.get((request, str(args.get(_switch(request)))), problems[0]) or "")
    return _("{what} is not possible now: {why}.", what=what, why=why) + " " + possible_text(offers)


def misfit(offers: Offers, request: str, args: Args) -> Misfit | None:
    """None when ``request`` with ``args`` is among the choices; else what keeps it out (of the first item).

    The one judge of a typed move; each game words the answer in its own terms.

    >>> offers = read_offers({"choices": {"moves": [{"request": "move", "action": "raise",
    ...     "amount": {"min": 10, "max": 40}}]}})
    >>> misfit(offers, "move", {"action": "raise", "amount": 50})
    Misfit(arg='amount', spec={'min': 10, 'max': 40}, needed=0, cover=0, part=None, entry=None)
    >>> misfit(offers, "move", {"action": "fold"}).not_offered
    True
    >>> misfit(offers, "move", {"action": "raise", "amount": 10}) is None
    True
    """
    action = args.get("action") if request == "move" else None
    items = offers.find(request, str(action) if action is not None else None)
    if not items:
        return Misfit()
    misfits = [item.misfit(args) for item in items]
    return None if any(m is None for m in misfits) else misfits[0]


SWITCHES: Final = {
    ("sit_out", "True"): phrase("you sit out already"), ("sit_out", "False"): phrase("you are not sitting out"),
    ("willing_to_bank", "True"): phrase("the bank may be offered to you already"),
    ("willing_to_bank", "False"): phrase("the bank is not offered to you already"),
}
"""Why a switch cannot be flipped the way asked: it is that way already."""


def _switch(request: str) -> str:
    return {"sit_out": "sitting_out", "willing_to_bank": "willing"}.get(request, "")


def possible_text(offers: Offers) -> str:
    """``Now you may: bet (Ante 5 to 49), pass, leave`` (or that there is nothing to do now)."""
    names = list(dict.fromkeys(o.text() for o in offers.items))
    if not names:
        return _("Nothing to do now: wait for the table.")
    return _("Now you may: {moves}", moves=", ".join(names))


def request_text(request: str, args: Args) -> str:
    """How a sentence names a request: ``raise 50``, ``bet``, ``ask box 2``, ``sitout``."""
    if request == "move":
        action = str(args.get("action"))
        word = _TYPED.get(action, action.replace("_", " "))
        place = next((f" {k} {args[k]}" for k in ("spot", "box") if isinstance(args.get(k), int)), "")
        amount = args.get("amount")
        return f"{word}{place} {amount}" if isinstance(amount, int) and not isinstance(amount, bool) else word + place
    return _table_text(Offer(request, None, dict(args)))


def moves_of(offers: Offers, actions: Iterable[str]) -> list[Offer]:
    """The offered items of any of ``actions``, in the order the server gave them."""
    wanted = set(actions)
    return [o for o in offers.items if o.request == "move" and o.action in wanted]


def _fits(arg: str, sent: Any, spec: Any) -> str | None:
    """Why ``sent`` is not what ``spec`` allows (None: it is).

    A spec is a fixed value, a span ``{"min", "max"}``, a list of alternatives (values
    or spans), a list argument ``{"count", "each", "distinct"}`` (bets, the cards to
    exchange), or text ``{"max_length"}``.

    >>> _fits("bonus", 3, [0, {"min": 5, "max": 100}])
    'the bonus is 0 or 5 to 100 chips'
    >>> _fits("discard", [1, 3], {"count": [1, 2, 5], "each": {"min": 1, "max": 5}, "distinct": True}) is None
    True
    >>> _fits("discard", [1, 2, 3], {"count": [1, 2, 5], "each": {"min": 1, "max": 5}, "distinct": True})
    'the discard takes 1, 2 or 5 entries'
    """
    label = _("the amount") if arg == "amount" else _("the {name}", name=arg.replace("_", " "))
    if isinstance(spec, Mapping):
        if "min" in spec and "max" in spec:
            if not isinstance(sent, int) or isinstance(sent, bool):
                return _("{label} is a number of chips", label=label)
            return None if spec["min"] <= sent <= spec["max"] else _("{label} is {span} chips", label=label,
                                                                    span=spec_text(spec))
        if "count" in spec:
            return _list_fits(label, sent, spec)
        if "max_length" in spec:
            ok = isinstance(sent, str) and len(sent) <= int(spec["max_length"])
            return None if ok else _("{label} is text of at most {n} characters", label=label, n=spec["max_length"])
        return None  # a shape this client does not know: the server judges it
    if isinstance(spec, list | tuple):
        if any(_fits(arg, sent, alternative) is None for alternative in spec):
            return None
        if any(isinstance(a, Mapping) for a in spec):
            return _("{label} is {span} chips", label=label, span=spec_text(spec))
        return _("{label} is {value}", label=label, value=spec_text(spec)) if len(spec) == 1 \
            else _("{label} is one of {values}", label=label, values=spec_text(spec))
    return None if sent == spec and type(sent) is type(spec) else _("{label} is {value}", label=label,
                                                                     value=_value(spec))


def _list_fits(label: str, sent: Any, spec: Mapping[str, Any]) -> str | None:
    """A list argument: ``count`` entries, each as ``each`` (an object's specs, or one value's), ``distinct``: no
    entry twice (True) or no ``spot``/``box`` twice (its name)."""
    if not isinstance(sent, list):
        return _("{label} is a list", label=label)
    if _fits("count", len(sent), spec["count"]) is not None:
        return _("{label} takes {n} entries", label=label, n=spec_text(spec["count"]))
    each, distinct = spec.get("each"), spec.get("distinct")
    if _is_value_spec(each):
        if distinct and len({repr(v) for v in sent}) != len(sent):
            return _("{label} names each entry once", label=label)
        for entry in sent:
            if _fits("entry", entry, each) is not None:
                return _("{label}: each is {value}", label=label, value=spec_text(each))
        return None
    if isinstance(each, Mapping):
        seen: set[tuple[str, Any]] = set()
        for entry in sent:
            if not isinstance(entry, Mapping):
                return _("{label}: each entry is an object", label=label)
            for key, value in entry.items():
                if key in ("spot", "box") or key == distinct:
                    if (key, value) in seen:
                        return _("{label}: {key} {value} is named twice", label=label, key=key, value=value)
                    seen.add((key, value))
                if key in each:
                    problem = _fits(key, value, each[key])
                    if problem is not None:
                        return problem + (f" ({entry_name(entry)})" if entry_name(entry) else "")
    return None


def _list_misfit(arg: str, sent: list[Any], spec: Mapping[str, Any]) -> Misfit:
    """Which part of a list arg is outside its spec: how many entries, a place named twice, or one entry's field.

    >>> spec = {"count": {"min": 1, "max": 2}, "each": {"spot": [1, 2], "ante": {"min": 5, "max": 9}},
    ...         "distinct": "spot"}
    >>> _list_misfit("bets", [{"spot": 2, "ante": 10}], spec)
    Misfit(arg='bets', spec={'min': 5, 'max': 9}, needed=0, cover=0, part='ante', entry={'spot': 2, 'ante': 10})
    >>> _list_misfit("bets", [{"spot": 1, "ante": 5}] * 3, spec).part
    'count'
    """
    if _fits("count", len(sent), spec["count"]) is not None:
        return Misfit(arg=arg, spec=spec["count"], part="count")
    each, seen = spec.get("each"), set()
    if _is_value_spec(each):  # plain values (the cards to exchange)
        if spec.get("distinct") and len({repr(v) for v in sent}) != len(sent):
            return Misfit(arg=arg, spec=spec, part="distinct")
        return Misfit(arg=arg, spec=each, part="each")
    for entry in sent:
        if not isinstance(entry, Mapping) or not isinstance(each, Mapping):
            break  # a shape this client does not know: the list as a whole is what does not fit
        for key, value in entry.items():
            if key in ("spot", "box") or key == spec.get("distinct"):
                if (key, value) in seen:
                    return Misfit(arg=arg, spec=spec, part="distinct", entry=entry)
                seen.add((key, value))
            if key in each and _fits(key, value, each[key]) is not None:
                return Misfit(arg=arg, spec=each[key], part=key, entry=entry)
    return Misfit(arg=arg, spec=spec)


def _is_value_spec(spec: Any) -> bool:
    """Whether ``spec`` says what one plain value may be (a span or alternatives), not an object's fields."""
    return isinstance(spec, list | tuple) or (isinstance(spec, Mapping) and "min" in spec and "max" in spec)


def entry_name(entry: Mapping[str, Any]) -> str:
    """``spot 2`` or ``box 1`` for one bet of a list, else nothing."""
    return next((f"{k} {entry[k]}" for k in ("spot", "box") if k in entry), "")


def spec_text(spec: Any) -> str:
    """A spec as words: ``5 to 40``, ``0 or 5 to 100``, ``1, 2 or 5``.

    >>> spec_text([0, {"min": 5, "max": 100}]), spec_text([1, 2, 5]), spec_text({"min": 3, "max": 3})
    ('0 or 5 to 100', '1, 2 or 5', '3')
    """
    if isinstance(spec, Mapping) and "min" in spec and "max" in spec:
        return _span((int(spec["min"]), int(spec["max"])))
    if isinstance(spec, list | tuple):
        words = [spec_text(s) for s in spec]
        return words[0] if len(words) == 1 else _("{first} or {last}", first=", ".join(words[:-1]), last=words[-1])
    return _value(spec)


def fit(spec: Any, wanted: int) -> int | None:
    """The allowed amount nearest to ``wanted`` (None when ``spec`` allows no amount).

    >>> fit({"min": 5, "max": 40}, 60), fit([0, {"min": 5, "max": 100}], 3), fit(0, 7)
    (40, 5, 0)
    """
    if isinstance(spec, Mapping) and "min" in spec and "max" in spec:
        return min(max(wanted, int(spec["min"])), int(spec["max"]))
    if isinstance(spec, list | tuple):
        options = [f for f in (fit(s, wanted) for s in spec) if f is not None]
        return min(options, key=lambda v: (abs(v - wanted), -v)) if options else None
    return spec if isinstance(spec, int) and not isinstance(spec, bool) else None


def span_of(spec: Any) -> tuple[int, int] | None:
    """The chips a spec allows beyond zero, as one ``(low, high)`` (None: only zero, or not an amount).

    >>> span_of([0, {"min": 5, "max": 100}]), span_of({"min": 0, "max": 9}), span_of(0)
    ((5, 100), (0, 9), None)
    """
    if isinstance(spec, Mapping) and "min" in spec and "max" in spec:
        return int(spec["min"]), int(spec["max"])
    if isinstance(spec, list | tuple):
        spans = [s for s in (span_of(a) for a in spec) if s is not None]
        return (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else None
    return None


def _value(value: Any) -> str:
    return {True: _("yes"), False: _("no")}.get(value, str(value)) if isinstance(value, bool) else str(value)


def _span(low_high: tuple[int, int]) -> str:
    low, high = low_high
    return str(low) if low == high else _("{low} to {high}", low=low, high=high)


def _table_text(item: Offer) -> str:
    limits = item.limits
    if item.request == "sit_out":
        flag = limits.get("sitting_out")
        return "back" if flag is False else "sitout" if flag is True else "sitout / back"
    if item.request == "willing_to_bank":
        flag = limits.get("willing")
        return "bank off" if flag is False else "bank on" if flag is True else "bank on / bank off"
    if item.request == "top_up":
        amount = item.range("amount")
        return f"topup {_span(amount)}" if amount else "topup"
    if item.request in ("stand", "leave"):
        return "leave"
    return item.request.replace("_", " ")
