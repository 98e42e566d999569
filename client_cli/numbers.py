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


def percent_text(fraction: float, decimals: int = 3) -> str:
    """A share as a percentage with ``decimals`` decimals, as the person's language writes it: ``13.162%``, in German
    and Spanish ``13,162 %`` (Babel's CLDR symbols and the language's own space before the sign).

    >>> percent_text(0.5, 1), percent_text(0.95, 0)
    ('50.0%', '95%')
    """
    lang = chosen_language()
    if lang == "en":
        return f"{fraction:.{decimals}%}"
    from babel.numbers import format_percent

    return str(format_percent(fraction, format=_digits(decimals) + "\u00a0%", locale=lang))


def seconds_text(seconds: float, decimals: int = 1) -> str:
    """A time in seconds, as the person's language writes it: ``2.5 s``, in German and Spanish ``2,5 s``.

    >>> seconds_text(2.5), seconds_text(30, 0)
    ('2.5 s', '30 s')
    """
    lang = chosen_language()
    if lang == "en":
        return f"{seconds:,.{decimals}f} s"
    from babel.numbers import format_decimal

    return f"{format_decimal(seconds, format=_digits(decimals), locale=lang)}\u00a0s"


def _digits(decimals: int) -> str:
    """The CLDR pattern of a number with ``decimals`` decimals and grouped thousands."""
    return "#,##0" + ("." + "0" * decimals if decimals > 0 else "")


def signed_text(value: float) -> str:
    """A signed figure with two decimals, as the person's language writes it: ``+1.90``, in German ``+1,90``."""
    lang = chosen_language()
    if lang == "en":
        return f"{value:+.2f}"
    from babel.numbers import format_decimal

    return str(format_decimal(value, format="+0.00;-0.00", locale=lang))
