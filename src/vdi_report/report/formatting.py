"""Formatting helpers of the report sections (numbers come in, text goes out; no data is read)."""

import math

import pandas as pd

from .tables import fmt_bound, fmt_number


def pct(x: float, digits: int = 0) -> str:
    """A fraction as a percentage: 0.2 -> ``20 %``."""
    return f"{x * 100:.{digits}f} %"


def pct_floor(x: float, digits: int = 0) -> str:
    """A fraction as a percentage rounded down, for a lower bound (``at least ...``): 0.269 ->
    ``26 %``, never ``27 %``, which would claim more than the bound holds."""
    scale = 10**digits
    return f"{math.floor(x * 100 * scale + 1e-9) / scale:.{digits}f} %"


def num(x) -> str:
    """A number for prose: thousands separators, few decimals (``tables.fmt_number``)."""
    return fmt_number(float(x))


def interval(est: float, lo: float, hi: float, bound: str = "eq") -> str:
    """``est (lo–hi)``; ``est (no interval)`` when the interval has no width (one document);
    ``not estimable`` for a missing estimate. ``bound``: the estimate's (``gt``: ``≥ 783 (no
    interval)``, rounded down: ``tables.fmt_bound``)."""
    if pd.isna(est):
        return "not estimable"
    e = fmt_bound(float(est), bound)
    if pd.isna(lo) or pd.isna(hi) or lo == hi:
        return f"{e} (no interval)"
    return f"{e} ({num(lo)}–{num(hi)})"


def bounded(x: float, bound: str) -> str:
    """A number with its bound's sign, rounded so that the bound claims no more than it holds
    (``tables.fmt_bound``: ``≥ 783`` for a lower bound of 783.62)."""
    return fmt_bound(float(x), bound)


def span(values) -> str:
    """``lo–hi`` of the values (one value: itself); empty when there are none."""
    v = pd.Series(values, dtype=float).dropna()
    if v.empty:
        return ""
    lo, hi = v.min(), v.max()
    return num(lo) if num(lo) == num(hi) else f"{num(lo)}–{num(hi)}"


def words(items) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = [str(i) for i in items if str(i)]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
