"""What every rule shares: the findings table's columns, printed precision as intervals, and the
helpers that describe records in a finding's message.

Tolerance comes from the printed precision. A value printed ``441µs`` stands for 440.5-441.5 µs,
``3.2K`` for 3,150-3,250, ``~12 min`` for 12 min +/- ``normalize.APPROX_TOLERANCE`` (10 %),
``< 27%`` for 0-27 %. Two statements disagree only when these intervals cannot overlap, and a
computed figure (a sum, a product, a ratio) disagrees only when no choice of inputs inside their
intervals reproduces the stated one. So rounding never raises a finding.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .. import catalogue
from ..raw import sources

FINDING_COLUMNS = catalogue.table("audit_findings").column_names  # audit_findings.csv: the catalogue's declaration
# Rules in the order they run and appear; each maps to a one-line description for the report.
SEVERITIES = ("inconsistent", "note")  # note: arithmetic holds, but only with a base or pair worth knowing

# Statements about a test run; "testbed" facts and general statements are matched only by the
# rules that need them (capacity, count_product, testbed_facts).
TEST_FREE = ("", "testbed")
# What makes two records the same quantity: the same test (and its condition, variant,
# configuration, worker class), the same metric and statistic, the same vantage, and -- where the
# digitizer recorded them -- the same aggregation, window and load.
KEY = [
    "source_id",
    "phase",
    "test_id",
    "condition",
    "variant",
    "configuration",
    "worker_class",
    "metric",
    "statistic",
    "vantage",
]
QUALIFIERS = ["aggregation", "window", "load"]
# Stated comparisons: metric -> "percent" (a % difference) or "ratio" (a multiple). They compare
# two quantities, so no other rule treats them as a quantity of their own.
COMPARISONS = {
    "percent_difference": "percent",
    "cost_saving": "percent",
    "iops_ratio": "ratio",
    "relative_iops": "ratio",
}


def key(df: pd.DataFrame) -> list[str]:
    """``KEY`` plus the qualifier columns (``QUALIFIERS``) that ``df`` has."""
    return KEY + [c for c in QUALIFIERS if c in df.columns]


def printed_half_step(value_text: str, reported_value: float) -> float:
    """Half of the last printed digit of ``reported_value`` as it appears in ``value_text``, in the
    printed unit: ``441µs`` -> 0.5, ``3.2K`` -> 0.05, ``0.59ms`` -> 0.005, ``216,000`` -> 0.5.

    Uses the one parser of printed values (``sources.parse_printed``): the printed number equal
    to ``reported_value`` gives the precision; without one, the shortest decimal form of
    ``reported_value`` decides. Never raises; returns 0.5 for an integer.
    """
    for number, half in sources.parse_printed(value_text):
        if math.isclose(number, float(reported_value), rel_tol=1e-9, abs_tol=1e-12):
            return half
    s = repr(float(reported_value))
    decimals = 0 if s.endswith(".0") or "." not in s or "e" in s else len(s.split(".")[1])
    return 0.5 * 10**-decimals


def intervals(df: pd.DataFrame) -> pd.DataFrame:
    """Add ``lo``, ``hi`` (normalized unit) and ``step`` to records of ``results.csv``.

    ``[lo, hi]`` is every true value the printed statement allows: the interval of the bound
    (``value_low``/``value_high``, see ``normalize.interval``) widened by half the last printed
    digit, except on the open side of ``<`` (low end 0) and ``>`` (high end unbounded or 100 %)
    and for ``~`` (whose +/-10 % already covers the rounding).
    ``step`` is that half digit in the normalized unit. Input columns: ``value, value_low,
    value_high, reported_value, value_text, bound``.
    """
    out = df.copy()
    half = [printed_half_step(t, v) for t, v in zip(out["value_text"], out["reported_value"])]
    factor = np.where(out["reported_value"].abs() > 0, out["value"] / out["reported_value"].replace(0, np.nan), 1.0)
    factor = np.nan_to_num(factor, nan=1.0)
    out["step"] = np.asarray(half) * np.abs(factor)
    widen = np.where(out["bound"] == "approx", 0.0, out["step"])  # "~" already spans +/-10 %
    out["lo"] = np.where(out["bound"] == "lt", out["value_low"], out["value_low"] - widen)
    out["hi"] = np.where(out["bound"] == "gt", out["value_high"], out["value_high"] + widen)
    return out


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] + 1e-9 and b[0] <= a[1] + 1e-9


def fmt(x: float) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "inf" if x == math.inf else ""
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.4g}"


def finding(
    rule: str,
    recs: pd.DataFrame,
    message: str,
    *,
    severity: str = "inconsistent",
    stated: float = np.nan,
    recomputed: float = np.nan,
    unit: str = "",
) -> dict:
    recs = recs.drop_duplicates("record_id")
    first = recs.iloc[0]
    return {
        "rule": rule,
        "severity": severity,
        "source_id": first["source_id"],
        "test_id": " ".join(dict.fromkeys(t for t in recs["test_id"] if t)),
        "metric": " ".join(dict.fromkeys(recs["metric"])),
        "record_ids": " ".join(recs["record_id"]),
        "locators": " | ".join(recs["locator"]),
        "lines": " ".join(str(int(x)) for x in recs["line"]),
        "values": " | ".join(recs["value_text"]),
        "quotes": " | ".join(recs["quote"]),
        "stated": stated,
        "recomputed": recomputed,
        "unit": unit or first["unit"],
        "message": message,
    }


def fact_finding(
    rule: str, facts: pd.DataFrame, message: str, *, stated: float = np.nan, recomputed: float = np.nan, unit: str = ""
) -> dict:
    """A finding over statements (rows of data/raw/facts.csv, ``raw.facts``), listed as ``finding``
    lists records: their ``fact_id`` in ``record_ids``, their ``fact`` in ``metric``, their locators,
    lines, printed words and quotes; no test id; ``unit`` as given."""
    recs = facts.rename(columns={"fact_id": "record_id", "fact": "metric"}).assign(test_id="", unit=unit)
    return finding(rule, recs, message, stated=stated, recomputed=recomputed, unit=unit)


def fact_where(r) -> str:
    """``'1709' (summary, Section 4.3, line 88)``: a statement's printed words, section, locator and line."""
    return f"'{r['value_text']}' ({r['section']}, {r['locator']}, line {int(r['line'])})"


def what(r) -> str:
    """``average read iops``: statistic (unless a single value) and metric in words."""
    stat = "" if r["statistic"] == "single" else f"{r['statistic']} "
    return f"{stat}{r['metric'].replace('_', ' ')}"


def where(r) -> str:
    return f"{r['value_text']} ({r['locator']}, line {int(r['line'])})"


def overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """True when the closed intervals ``a`` and ``b`` share a point (1e-9 slack)."""
    return _overlap(a, b)
