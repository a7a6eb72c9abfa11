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
    out = []
    for _, a in avgs.drop_duplicates(keys + ["metric", "value"]).iterrows():
        metrics = {a["metric"], SERIES_PARENT.get(a["metric"], a["metric"])}
        p = peaks[(peaks[keys] == a[keys]).all(axis=1) & peaks["metric"].isin(metrics)]
        for _, pk in p.drop_duplicates(["metric", "value"]).iterrows():
            if a["lo"] > pk["hi"] + 1e-9:
                recs = pd.concat([a.to_frame().T, pk.to_frame().T])
                out.append(
                    finding(
                        "average_above_peak",
                        recs,
                        f"{what(a)} {where(a)} is larger than the {what(pk)} {where(pk)} of test {a['test_id']}.",
                        stated=a["value"],
                        recomputed=pk["value"],
                    )
                )
    return out
