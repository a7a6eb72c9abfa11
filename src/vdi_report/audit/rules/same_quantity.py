"""Rule ``same_quantity``: the same quantity stated with different values at different locators."""

from __future__ import annotations

import itertools

import pandas as pd

from ..common import COMPARISONS, KEY, TEST_FREE, finding, overlap, what
from ..registry import rule


@rule(10, "same_quantity", "Same quantity, different values",
      "the same quantity stated with different values at different locators")
def rule_same_quantity(df: pd.DataFrame) -> list[dict]:
    """The same quantity (``KEY``: source, phase, test, condition, variant, configuration,
    worker class, metric, statistic, vantage) stated at two locators with values whose intervals
    cannot overlap. One finding per quantity, listing all its records. Test-bed facts and general
    statements (empty ``test_id``) are left out: one metric there often names several things."""
    d = df[~df["test_id"].isin(TEST_FREE) & ~df["metric"].isin(list(COMPARISONS))]
    out = []
    for _, g in d.groupby(KEY, sort=True):
        if g["locator"].nunique() < 2:
            continue
        clash = [(a, b) for (_, a), (_, b) in itertools.combinations(g.iterrows(), 2)
                 if a["locator"] != b["locator"] and not overlap((a["lo"], a["hi"]), (b["lo"], b["hi"]))]
        if not clash:
            continue
        a, b = clash[0]
        groups = g.groupby("value_text", sort=False)["locator"].agg(lambda s: ", ".join(dict.fromkeys(s)))
        said = "; ".join(f"{v} in {locs}" for v, locs in groups.items())
        out.append(finding(
            "same_quantity", g.sort_values("record_id"),
            f"{what(a)} of test {a['test_id']} is stated as {said}.",
            stated=a["value"], recomputed=b["value"]))
    return out
