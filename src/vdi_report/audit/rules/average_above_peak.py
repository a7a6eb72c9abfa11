"""Rule ``average_above_peak``: an average is larger than the peak of the same series."""

from __future__ import annotations

import pandas as pd

from ..common import TEST_FREE, finding, what, where
from ..registry import rule

SERIES_PARENT = {
    "read_iops": "iops",
    "write_iops": "iops",
    "read_throughput": "throughput",
    "write_throughput": "throughput",
}


@rule(90, "average_above_peak", "Average > peak", "an average is larger than the peak of the same series")
def rule_average_above_peak(df: pd.DataFrame) -> list[dict]:
    """An average of a series larger than its peak: same test, condition, variant,
    configuration, worker class and vantage; the peak's metric is the average's metric or its
    total (the average read IOPS cannot exceed the peak total IOPS, ``SERIES_PARENT``)."""
    d = df[~df["test_id"].isin(TEST_FREE)]
    keys = ["source_id", "phase", "test_id", "condition", "variant", "configuration", "worker_class", "vantage"]
    avgs, peaks = d[d["statistic"] == "average"], d[d["statistic"] == "peak"]
    avgs = avgs.drop_duplicates(keys + ["metric", "value"])
    # every (average, peak) pair of one series, found by one merge instead of a scan of the peaks
    # per average; in the averages' order, then the peaks' (the order of the row-by-row search)
    a = avgs[keys + ["metric"]].assign(_a=avgs.index, _parent=avgs["metric"].map(lambda m: SERIES_PARENT.get(m, m)))
    p = peaks[keys].assign(_p=peaks.index, _metric=peaks["metric"], _value=peaks["value"])
    pairs = a.merge(p, on=keys, how="inner")
    pairs = pairs[(pairs["_metric"] == pairs["metric"]) | (pairs["_metric"] == pairs["_parent"])]
    pairs = pairs.sort_values(["_a", "_p"], kind="stable").drop_duplicates(["_a", "_metric", "_value"])
    out = []
    for ai, pi in zip(pairs["_a"], pairs["_p"]):
        a_row, pk = avgs.loc[ai], peaks.loc[pi]
        if a_row["lo"] > pk["hi"] + 1e-9:
            recs = pd.concat([a_row.to_frame().T, pk.to_frame().T])
            out.append(
                finding(
                    "average_above_peak",
                    recs,
                    f"{what(a_row)} {where(a_row)} is larger than the {what(pk)} {where(pk)} "
                    f"of test {a_row['test_id']}.",
                    stated=a_row["value"],
                    recomputed=pk["value"],
                )
            )
    return out
