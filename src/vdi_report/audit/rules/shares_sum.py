"""Rule ``shares_sum``: shares that should add up to 100 % do not."""

from __future__ import annotations

import pandas as pd

from ..common import finding, fmt
from ..registry import rule

SHARES = [
    ("read/write split", ("read_percent", "write_percent"), "line"),
    ("random/sequential split", ("seek_percent", "sequential_percent"), "line"),
    (
        "random/sequential x read/write split",
        ("random_read_percent", "random_write_percent", "sequential_read_percent", "sequential_write_percent"),
        "line",
    ),
    ("workload profile by I/O size", ("workload_percent",), "table"),
]


@rule(50, "shares_sum", "Shares ≠ 100 %", "shares that should add up to 100 % do not")
def rule_shares_sum(df: pd.DataFrame) -> list[dict]:
    """Shares that should add up to 100 % (``SHARES``): the split of one table row (same line)
    or a whole profile table (same locator and test). A finding when 100 lies outside the sum of
    the printed intervals (n shares printed as integers allow 100 +/- n x 0.5)."""
    out = []
    keys = ["source_id", "locator", "phase", "test_id", "condition", "variant", "configuration", "worker_class"]
    for name, metrics, scope in SHARES:
        d = df[df["metric"].isin(metrics)]
        if scope == "table":
            d = d[d["locator"].str.startswith("Table ")]
        by = keys + (["line"] if scope == "line" else [])
        for _, g in d.groupby(by, sort=True):
            if len(metrics) > 1 and set(g["metric"]) != set(metrics):
                continue
            if len(g) < 2 or g["metric"].duplicated().any() and len(metrics) > 1:
                continue
            lo, hi, total = g["lo"].sum(), g["hi"].sum(), g["value"].sum()
            if lo <= 100 + 1e-9 and hi >= 100 - 1e-9:
                continue
            out.append(
                finding(
                    "shares_sum",
                    g.sort_values("record_id"),
                    f"{name} at {g.iloc[0]['locator']} (line {int(g['line'].min())}) adds up to {fmt(total)} %, "
                    f"not 100 % (printed precision allows {fmt(lo)}-{fmt(hi)}).",
                    stated=100.0,
                    recomputed=total,
                    unit="%",
                )
            )
    return out
