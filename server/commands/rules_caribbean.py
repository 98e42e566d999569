"""``hcf-server rules rank|settle`` for Caribbean Stud (``--game caribbean``, ``"game": "caribbean"``).

The JSON shapes are a contract other programs call; see docs/games/caribbean-cli.md.

>>> rank_json("Ac Kd 4h 3s 2c")
{'cards': ['Ac', 'Kd', '4h', '3s', '2c'], 'class': 'high_card', 'qualifies': True}
"""

from __future__ import annotations

from typing import Any, Final

from server.rules import scenario
from server.rules.cards import cards_list, parse_cards
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import HAND_SIZE, SettleError, SpotWager, settle
from server.rules.errors import RuleError
from server.rules.poker import class_name, qualifies_ak, rank5

SCENARIO_KEYS: Final = ("game", "table", "meter", "dealer", "spots")
SPOT_KEYS: Final = ("spot", "cards", "ante", "play", "jackpot", "dead")
RESULT_KEYS: Final = ("spot", "ante", "bet", "jackpot", "jackpot_award", "net")


def rank_json(text: str) -> dict[str, Any]:
    """The ``rules rank --game caribbean`` object for one 5-card hand."""
    cards = parse_cards(text, count=HAND_SIZE)
    value = rank5(cards)
    return {"cards": cards_list(cards), "class": class_name(value), "qualifies": qualifies_ak(value)}


def settle_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Settle one Caribbean Stud scenario into ``{"dealer", "order", "spots", "meter"}`` (player-side amounts)."""
    scenario.known(data, SCENARIO_KEYS, "scenario")
    table = data.get("table")
    if table is None:
        table = {}
    if not isinstance(table, dict):
        raise SettleError("table: must be an object of settings")
    try:
        settings = CaribbeanSettings.from_mapping({k: v for k, v in table.items() if k != "game"})
    except RuleError as exc:
        raise SettleError(f"table: {exc.message}") from None
    meter = data.get("meter")
    if meter is None:
        meter = settings.jackpot_seed * 100
    elif isinstance(meter, bool) or not isinstance(meter, int) or meter < 0:
        raise SettleError(f"meter: must be a whole number of hundredths of a chip, at least 0, got {meter!r}")
    if "dealer" not in data:
        raise SettleError("dealer: the dealer's 5 cards are missing")
    dealer = data["dealer"]
    dealer = scenario.cards(dealer.get("cards") if isinstance(dealer, dict) else dealer, "dealer")
    spots = data.get("spots")
    if spots is None:
        spots = []
    if not isinstance(spots, list):
        raise SettleError("spots: must be a list of objects")
    result = settle(settings, meter, dealer, [_spot(item) for item in spots])
    return {
        "dealer": {"qualifies": result.dealer_qualifies},
        "order": list(result.order),
        "spots": [{key: spot.as_json()[key] for key in RESULT_KEYS} for spot in result.spots],
        "meter": result.meter_after,
    }


def _spot(data: Any) -> SpotWager:
    if not isinstance(data, dict):
        raise SettleError("spots: each spot is a JSON object")
    number = _whole(data, "spot", "a spot")
    where = f"spot {number}"
    scenario.known(data, SPOT_KEYS, where)
    if "cards" not in data:
        raise SettleError(f"{where}: cards are missing")
    return SpotWager(number, scenario.cards(data["cards"], where), _whole(data, "ante", where),
                     play=scenario.flag(data, "play", where), jackpot=scenario.flag(data, "jackpot", where),
                     dead=scenario.flag(data, "dead", where))


def _whole(data: dict[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if value is None:
        raise SettleError(f"{where}: {key} is missing")
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettleError(f"{where}: {key} must be a whole number, got {value!r}")
    return value

