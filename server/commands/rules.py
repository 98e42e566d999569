"""``hcf-server rules ...``: the rules core from the command line, as JSON.

The JSON shapes here are a contract that other programs call; see
``docs/cli.md``. Errors print one sentence to stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from server.rules.cards import cards_list, parse_cards
from server.rules.errors import RuleError
from server.rules.fairness import deal_deck, player_seed_bytes
from server.rules.hcf.evaluate import HAND_SIZE, compare, evaluate
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.settlement import SettleError, Wager, settle

EXIT_USAGE = 2
GAMES = ("hcf", "caribbean", "sixcard")


def add_parser(subparsers: Any) -> None:
    """Register ``rules`` and its subcommands."""
    rules = subparsers.add_parser(
        "rules", help="rank, compare, settle and deal with the rules core (JSON out)",
        description="The pure rules core from the command line. Every command prints JSON.",
    )
    sub = rules.add_subparsers(dest="rules_command", required=True, metavar="COMMAND")
    rank = sub.add_parser("rank", help="evaluate a 7-card hand",
                          epilog="example: hcf-server rules rank Ah 4h 3h 2h Kc Qd Js")
    rank.add_argument("--game", choices=list(GAMES), default="hcf", help="the game (default hcf)")
    rank.add_argument("cards", nargs="+",
                      help="hcf: seven cards, e.g. Ah 4h 3h 2h Kc Qd Js; caribbean: five; sixcard: five or six")
    rank.set_defaults(handler=_rank)
    cmp = sub.add_parser("compare", help="compare two 7-card hands: winner 1, 2 or 0 (tie)",
                         epilog='example: hcf-server rules compare "Ah 4h 3h 2h Kc Qd Js" '
                                '"Kd Qd Jd Td 2c 3c 4s"')
    cmp.add_argument("first")
    cmp.add_argument("second")
    cmp.set_defaults(handler=_compare)
    st = sub.add_parser("settle", help="settle one scenario or a JSON array of them",
                        epilog="example: hcf-server rules settle scenario.json  (or - for stdin); "
                               "the scenario format is in docs/cli.md")
    st.add_argument("file", help="a JSON file, or - for standard input")
    st.set_defaults(handler=_settle)
    deal = sub.add_parser("deal", help="rebuild a deck from the revealed seeds",
                          epilog="example: hcf-server rules deal 00ff...(64 hex) alice-seed bob-seed")
    deal.add_argument("server_seed", metavar="SERVER_SEED_HEX")
    deal.add_argument("player_seeds", nargs="*", metavar="PLAYER_SEED",
                      help="player seeds in seat order, as text")
    deal.set_defaults(handler=_deal)


def run(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run a parsed ``rules`` command; 0 on success, 2 on refused input."""
    out, err = out or sys.stdout, err or sys.stderr  # looked up now, so a test's capture applies
    handler: Callable[[argparse.Namespace], Any] = args.handler
    try:
        result = handler(args)
    except (RuleError, ValueError) as exc:
        print(f"error: {exc}", file=err)
        return EXIT_USAGE
    print(json.dumps(result), file=out)
    return 0


def rank_json(text: str) -> dict[str, Any]:
    """The ``rules rank`` object for one 7-card hand."""
    cards = parse_cards(text, count=HAND_SIZE)
    hand = evaluate(cards)
    return {
        "cards": cards_list(cards),
        "flush": cards_list(hand.flush_cards()),
        "flush_size": hand.flush_size,
        "straight_flush": cards_list(hand.straight_flush_cards()),
        "straight_flush_length": hand.straight_flush_length,
        "qualifies": hand.qualifies,
        "raise_limit": hand.raise_limit,
    }


def _rank(args: argparse.Namespace) -> dict[str, Any]:
    text = " ".join(args.cards)
    if args.game == "caribbean":
        from server.commands import rules_caribbean

        return rules_caribbean.rank_json(text)
    if args.game == "sixcard":
        from server.commands import rules_sixcard

        return rules_sixcard.rank_json(text)
    return rank_json(text)


def _compare(args: argparse.Namespace) -> dict[str, Any]:
    first = parse_cards(args.first, count=HAND_SIZE)
    second = parse_cards(args.second, count=HAND_SIZE)
    return {"winner": compare(first, second)}


def _deal(args: argparse.Namespace) -> dict[str, Any]:
    try:
        seed = bytes.fromhex(args.server_seed)
    except ValueError:
        raise ValueError(f"the server seed must be hex, got {args.server_seed!r}") from None
    if not seed:
        raise ValueError("the server seed is empty")
    commit, deck_seed, deck = deal_deck(seed, [player_seed_bytes(s) for s in args.player_seeds])
    return {"commitment": commit, "deck_seed": deck_seed.hex(), "deck": cards_list(deck)}


def _settle(args: argparse.Namespace) -> Any:
    text = sys.stdin.read() if args.file == "-" else _read(args.file)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON: {exc}") from None
    if isinstance(data, list):
        return [settle_scenario(item, index) for index, item in enumerate(data)]
    return settle_scenario(data, None)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None


def settle_scenario(data: Any, index: int | None) -> dict[str, Any]:
    """Settle one ``rules settle`` scenario (see docs/cli.md for the shape)."""
    where = "" if index is None else f"scenario {index}: "
    try:
        return _settle_one(data)
    except RuleError as exc:
        raise SettleError(where + exc.message) from None


def _settle_one(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SettleError("a scenario is a JSON object")
    game = data.get("game", "hcf")
    if game not in GAMES:
        raise SettleError(f"game: one of {', '.join(GAMES)}, got {game!r}")
    if game == "caribbean":
        from server.commands import rules_caribbean

        return rules_caribbean.settle_scenario(data)
    if game == "sixcard":
        from server.commands import rules_sixcard

        return rules_sixcard.settle_scenario(data)
    profile = data.get("profile", "california")
    table = data.get("table") or {}
    if not isinstance(table, dict):
        raise SettleError("table: must be an object of settings")
    settings = HcfSettings.from_mapping({**table, "profile": profile})
    dealer = data.get("dealer")
    if not isinstance(dealer, dict) or "cards" not in dealer:
        raise SettleError("dealer: needs an object with cards")
    try:
        dealer_cards = _cards(dealer["cards"])
    except RuleError as exc:
        raise SettleError(f"dealer: {exc.message}") from None
    house = settings.house_banked
    button = None if house else _int(data, "button", "scenario", required=True)
    stack = None if house else _int(dealer, "stack", "dealer", required=True)
    seats = data.get("seats", [])
    if not isinstance(seats, list):
        raise SettleError("seats: must be a list")
    wagers = [_wager(seat) for seat in seats]
    result = settle(settings, dealer_cards, wagers, button=button, dealer_stack=stack)
    return result.as_json()


def _wager(data: Any) -> Wager:
    if not isinstance(data, dict):
        raise SettleError("each seat is a JSON object")
    seat = _int(data, "seat", "a seat", required=True)
    where = f"seat {seat}"
    if "cards" not in data:
        raise SettleError(f"{where}: cards are missing")
    try:
        cards = _cards(data["cards"])
    except RuleError as exc:
        raise SettleError(f"{where}: {exc.message}") from None
    return Wager(
        seat, cards, _int(data, "ante", where, required=True),
        _int(data, "straight_flush_bonus", where), _int(data, "flush_bonus", where),
        _int(data, "raise", where),
    )


def _cards(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return parse_cards(value)
    raise SettleError("cards are a string like 'Ah Kh 9h 2c 3d 4s 5s' or a list of such cards")


def _int(data: dict[str, Any], key: str, where: str, *, required: bool = False) -> int:
    value = data.get(key)
    if value is None:
        if required:
            raise SettleError(f"{where}: {key} is missing")
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettleError(f"{where}: {key} must be a whole number, got {value!r}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for tests: ``main(["rank", "Ah", ...])``."""
    parser = argparse.ArgumentParser(prog="hcf-server")
    add_parser(parser.add_subparsers(dest="command", required=True))
    return run(parser.parse_args(["rules", *(argv or [])]))
