"""Rule ``same_quantity``: the same quantity stated with different values, at two locators or twice
inside one table or figure."""

from __future__ import annotations

import itertools

import pandas as pd

from ..common import COMPARISONS, TEST_FREE, finding, key, overlap, what
from ..registry import rule

# Metrics that a table or figure lists once per row of a profile (one value per I/O size, per
# application): inside one locator their records are parallel rows, never restatements.
PROFILE_METRICS = (
    "io_size",
    "workload_percent",
    "read_percent",
    "write_percent",
    "seek_percent",
    "sequential_percent",
    "random_read_percent",
    "random_write_percent",
    "sequential_read_percent",
    "sequential_write_percent",
)


# How a bound reads in a message: "less than 50%" and "over 50%" are not the same statement.
BOUND_WORDS = {"lt": "less than ", "gt": "over ", "approx": "about "}


def _restated_inside(g: pd.DataFrame) -> set[str]:
    """Locators inside which ``g`` (records of one quantity) states the quantity exactly twice, on
    two lines: a value restated within one table or figure (a bullet and the narrative under a
    figure, two rows of one results table). More than two records of one key inside a locator
    are parallel components the key cannot tell apart (pool tiers, port groups), so they are not
    paired; nor are profile rows (``PROFILE_METRICS``)."""
    if g["metric"].iloc[0] in PROFILE_METRICS:
        return set()
    per = g.groupby("locator")
    return {loc for loc, h in per if len(h) == 2 and h["line"].nunique() == 2}


@rule(
    10,
    "same_quantity",
    "Same quantity, different values",
    "the same quantity stated with different values at two places (or twice in one table or figure)",
)
def rule_same_quantity(df: pd.DataFrame) -> list[dict]:
    """The same quantity stated twice with values whose intervals cannot overlap.

    Same quantity: same ``common.key`` (source, phase, test, condition, variant, configuration,
    worker class, metric, statistic, vantage and, where recorded, aggregation, window and load).
    Two records are paired when their locators differ, or when they are the two statements of
    the quantity inside one table or figure (``_restated_inside``). One finding per quantity,
    listing all its records. Test-bed facts and general statements (empty ``test_id``) are left
    out: one metric there often names several things (rule ``testbed_cpu`` covers test-bed
    arithmetic)."""
    d = df[~df["test_id"].isin(TEST_FREE) & ~df["metric"].isin(list(COMPARISONS))]
    k = key(d)
    d = d[d.groupby(k, sort=False)[k[0]].transform("size") >= 2]  # a quantity stated once has no pair
    out = []
    for _, g in d.groupby(k, sort=True):
        inside = _restated_inside(g)
        clash = [
            (a, b)
            for (_, a), (_, b) in itertools.combinations(g.iterrows(), 2)
            if (a["locator"] != b["locator"] or (a["locator"] in inside and a["line"] != b["line"]))
            and not overlap((a["lo"], a["hi"]), (b["lo"], b["hi"]))
        ]
        if not clash:
            continue
        a, b = clash[0]
        places: dict[str, list[str]] = {}
        for v, bnd, loc, ln in zip(g["value_text"], g["bound"], g["locator"], g["line"]):
            printed = (
                f"{BOUND_WORDS.get(bnd, '')}{v}"
                if not v.lower().startswith(("less", "over", "about", "~", "<", ">"))
                else v
            )
            places.setdefault(printed, []).append(f"{loc} (line {int(ln)})" if loc in inside else loc)
        said = "; ".join(f"{v} in {', '.join(dict.fromkeys(locs))}" for v, locs in places.items())
        out.append(
            finding(
                "same_quantity",
                g.sort_values("record_id"),
                f"{what(a)} of test {a['test_id']} is stated as {said}.",
                stated=a["value"],
                recomputed=b["value"],
            )
        )
    return out
