"""Numbers as the person's language writes them (docs/i18n.md): a jackpot meter's chips with their decimals.

English needs nothing but the standard library; another language takes Babel's CLDR symbols (Babel
is loaded for its catalogs anyway).
"""

from __future__ import annotations

from decimal import Decimal

from server.i18n import chosen_language


def meter_text(hundredths: int) -> str:
    """A jackpot meter in chips with two decimals, written as the person's language writes numbers: ``10,000.50``,
    in German and Spanish ``10.000,50`` (Babel's CLDR symbols)."""
    lang = chosen_language()
    if lang == "en":
        return f"{hundredths // 100:,}.{hundredths % 100:02d}"
    from babel.numbers import format_decimal  # (Babel already reads the catalogs of a language not English)

    return str(format_decimal(Decimal(hundredths) / 100, format="#,##0.00", locale=lang))


def percent_text(fraction: float) -> str:
    """A share as a percentage with three decimals, as the person's language writes it: ``13.162%``, in German and
    Spanish ``13,162 %`` (Babel's CLDR symbols and the language's own space before the sign)."""
    lang = chosen_language()
    if lang == "en":
        return f"{fraction:.3%}"
    from babel.numbers import format_percent

    return str(format_percent(fraction, format="#,##0.000\u00a0%", locale=lang))


def signed_text(value: float) -> str:
    """A signed figure with two decimals, as the person's language writes it: ``+1.90``, in German ``+1,90``."""
    lang = chosen_language()
    if lang == "en":
        return f"{value:+.2f}"
    from babel.numbers import format_decimal

    return str(format_decimal(value, format="+0.00;-0.00", locale=lang))
