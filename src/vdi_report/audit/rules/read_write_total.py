"""Rule ``read_write_total``: read + write does not give the stated total."""

from __future__ import annotations

import itertools

import pandas as pd

from ..common import KEY, TEST_FREE, finding, fmt, overlap, what, where
from ..registry import rule

READ_WRITE = {"iops": ("read_iops", "write_iops"), "throughput": ("read_throughput", "write_throughput")}


@rule(20, "read_write_total", "Read + write ≠ total", "read + write does not give the stated total")
def rule_read_write_total(df: pd.DataFrame) -> list[dict]:
    """Read + write against the stated total of the same test, statistic and vantage.

    Averages and totals must add up; for peaks (which need not coincide in time) the total peak
    must lie between max(read, write) and read + write. Each distinct (read, write, total)
    combination of printed values is checked once. Numbers read from charts' legends
    (``image_file``) combine only within one chart: two charts of one test may span different
    windows (D-RA2022E-01), a difference the ``same_quantity`` rule reports."""
    d = df[~df["test_id"].isin(TEST_FREE)]
    keys = [k for k in KEY if k != "metric"]
    out = []
    for total_metric, (rm, wm) in READ_WRITE.items():
        part = d[d["metric"].isin([total_metric, rm, wm])]
        # only the tests that state all three (read, write, total) can disagree
        has = part[keys].assign(**{m: part["metric"].eq(m) for m in (total_metric, rm, wm)})
        part = part[has.groupby(keys, sort=False)[[total_metric, rm, wm]].transform("any").all(axis=1)]
        for _, g in part.groupby(keys, sort=True):
            same = ["value", "image_file"] if "image_file" in g.columns else ["value"]
            reads, writes, totals = (g[g["metric"] == m].drop_duplicates(same) for m in (rm, wm, total_metric))
            for (_, r), (_, w), (_, t) in itertools.product(reads.iterrows(), writes.iterrows(), totals.iterrows()):
                charts = {str(x.get("image_file", "") or "") for x in (r, w, t)} - {""}
                if len(charts) > 1:
                    continue
                lo, hi = r["lo"] + w["lo"], r["hi"] + w["hi"]
                if t["statistic"] == "peak":
                    ok = t["hi"] >= max(r["lo"], w["lo"]) - 1e-9 and t["lo"] <= hi + 1e-9
                    expect = f"between {fmt(max(r['value'], w['value']))} and {fmt(r['value'] + w['value'])}"
                else:
                    ok = overlap((lo, hi), (t["lo"], t["hi"]))
                    expect = fmt(r["value"] + w["value"])
                if ok:
                    continue
                recs = pd.concat([r.to_frame().T, w.to_frame().T, t.to_frame().T])
                out.append(
                    finding(
                        "read_write_total",
                        recs,
                        f"{what(t)} of test {t['test_id']}: read {where(r)} + write "
                        f"{where(w)} = {fmt(r['value'] + w['value'])} {t['unit']}, but the total is stated as "
                        f"{where(t)}" + (f" (a peak total must lie {expect})." if t["statistic"] == "peak" else "."),
                        stated=t["value"],
                        recomputed=r["value"] + w["value"],
                    )
                )
    return out
