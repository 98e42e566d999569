"""``hcf-server rules rank|settle`` for 6 Card Poker (``--game sixcard``, ``"game": "sixcard"``).

The JSON shapes are a contract other programs call; see docs/games/sixcard-cli.md.
For six cards, ``qualifies`` applies the dealer's qualifier (a pair or better) to the best five.

>>> rank_json("Ac Kd 4h 3s 2c 5d")
{'cards': ['Ac', 'Kd', '4h', '3s', '2c', '5d'], 'best': ['Ac', '4h', '3s', '2c', '5d'], 'class': 'straight',
 'qualifies': True}
"""

from __future__ import annotations

from typing import Any, Final

from server.rules import scenario
from server.rules.cards import Card, CardError, cards_list, parse_cards
from server.rules.errors import RuleError
from server.rules.poker import best_five, class_name, qualifies_pair
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import BoxWager, Draw, SettleError, settle

SCENARIO_KEYS: Final = ("game", "table", "dealer", "dealer_replacement", "boxes")
BOX_KEYS: Final = ("box", "player", "cards", "ante", "bonus", "draw", "raise", "exchange_request", "dead")
RANK_SIZES: Final = (5, 6)


def rank_json(text: str) -> dict[str, Any]:
    """The ``rules rank --game sixcard`` object for 5 or 6 cards; ``best`` keeps the order given."""
    cards = parse_cards(text)
    if len(cards) not in RANK_SIZES:
        raise CardError(f"expected 5 or 6 cards, got {len(cards)}")
    value, best = best_five(cards)
    return {"cards": cards_list(cards), "best": cards_list(best), "class": class_name(value),
            "qualifies": qualifies_pair(value)}


def settle_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Settle one 6 Card Poker scenario into ``{"dealer": {...}, "boxes": [...]}`` (player-side amounts)."""
    scenario.known(data, SCENARIO_KEYS, "scenario")
    table = data.get("table") or {}
    if not isinstance(table, dict):
        raise SettleError("table: must be an object of settings")
    try:
        settings = SixcardSettings.from_mapping(table)
    except RuleError as exc:
        raise SettleError(f"table: {exc.message}") from None
    if "dealer" not in data:
        raise SettleError("dealer: the dealer's 5 cards are missing")
    dealer = scenario.cards(data["dealer"], "dealer")
    replacement = data.get("dealer_replacement")
    replacement_card = None if replacement is None else _one_card(replacement, "dealer_replacement")
    boxes = data.get("boxes") or []
    if not isinstance(boxes, list):
        raise SettleError("boxes: must be a list of objects")
    return settle(settings, dealer, replacement_card, [_box(item) for item in boxes]).as_json()


def _box(data: Any) -> BoxWager:
    if not isinstance(data, dict):
        raise SettleError("boxes: each box is a JSON object")
    number = _whole(data, "box", "a box", required=True)
    where = f"box {number}"
    scenario.known(data, BOX_KEYS, where)
    if "cards" not in data:
        raise SettleError(f"{where}: cards are missing")
    player = data.get("player")
    if isinstance(player, bool) or not isinstance(player, str | int) or player == "":
        raise SettleError(f"{where}: player must name the box's owner, got {player!r}")
    bonus = _whole(data, "bonus", where)
    ante = _whole(data, "ante", where, required=bonus == 0)
    return BoxWager(number, str(player), scenario.cards(data["cards"], where), ante=ante, bonus=bonus,
                    draw=_draw(data.get("draw"), where), raised=scenario.flag(data, "raise", where),
                    exchange_request=scenario.flag(data, "exchange_request", where),
                    dead=scenario.flag(data, "dead", where))


def _draw(value: Any, where: str) -> Draw | None:
    if value is None:
        return None
    if isinstance(value, dict) and set(value) == {"buy"}:
        return Draw("buy", (), (_one_card(value["buy"], f"{where}: draw.buy"),))
    if isinstance(value, dict) and set(value) == {"exchange"} and isinstance(value["exchange"], dict):
        exchange = value["exchange"]
        scenario.known(exchange, ("discard", "replace"), f"{where}: draw.exchange")
        if set(exchange) != {"discard", "replace"}:
            raise SettleError(f"{where}: draw.exchange needs discard and replace")
        return Draw("exchange", scenario.cards(exchange["discard"], f"{where}: draw.exchange.discard"),
                    scenario.cards(exchange["replace"], f"{where}: draw.exchange.replace"))
    raise SettleError(f"{where}: draw is null, {{\"buy\": card}} or "
                      f"{{\"exchange\": {{\"discard\": cards, \"replace\": cards}}}}, got {value!r}")


def _one_card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise SettleError(f"{where}: one card like 'Kd' or null, got {value!r}")
    cards = scenario.cards(value, where)
    if len(cards) != 1:
        raise SettleError(f"{where}: one card like 'Kd', got {len(cards)}")
    return cards[0]


def _whole(data: dict[str, Any], key: str, where: str, *, required: bool = False) -> int:
    value = data.get(key)
    if value is None:
        if required:
            raise SettleError(f"{where}: {key} is missing")
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SettleError(f"{where}: {key} must be a whole number (0 or more), got {value!r}")
    return value

