"""Rule ``count_product``: servers x VMs per server (or pools x desktops per pool, ...) is not the stated total."""

from __future__ import annotations

import pandas as pd

from ..common import finding, fmt, overlap, where
from ..registry import rule

COUNT_PRODUCTS = [
    ("hosts", "desktops_per_host", "desktops"),
    ("management_servers", "desktops_per_management_server", "desktops"),
    ("pools", "desktops_per_pool", "desktops"),
    ("datastores", "desktops_per_datastore", "desktops"),
    ("datastores", "vms_per_lun", "desktops"),
    ("volumes", "desktops_per_volume", "desktops"),
    ("launchers", "sessions_per_launcher", "sessions"),
]


def _counts_for(df: pd.DataFrame, per: pd.Series, metric: str) -> pd.DataFrame:
    """The counts a per-unit figure multiplies: only counts of the same thing.

    The count stated in the same statement (same locator and line: "four management servers,
    each controlling 875", "10 pools of 150 desktops each"); without one, counts of the same
    source, configuration and *named* worker class (both non-empty: "2 ESXi hosts for task
    users" x "200 desktops per task host"). A count that merely shares a table or figure with
    the figure (a caption's 10 pools and a script's -numvms 130) describes something else."""
    d = df[(df["source_id"] == per["source_id"]) & (df["metric"] == metric)]
    same = d[(d["locator"] == per["locator"]) & (d["line"] == per["line"])]
    if len(same):
        return same
    wc = per["worker_class"]
    if wc in ("", "mixed"):
        return d.iloc[0:0]
    return d[(d["worker_class"] == wc) & (d["configuration"] == per["configuration"])]


@rule(
    70,
    "count_product",
    "Count × per-unit ≠ total",
    "servers x VMs per server (or pools x desktops per pool, ...) is not the stated total",
)
def rule_count_product(df: pd.DataFrame) -> list[dict]:
    """Count x per-unit = total (``COUNT_PRODUCTS``: hosts x desktops per host = desktops, ...).

    For each stated per-unit figure (not a ``sizing`` limit such as "up to 500 VMs per LUN"),
    the counts of the same thing (``_counts_for``) times the figure must reproduce a stated total
    of that worker class (``desktops``/``sessions``) or, for the whole population, the test
    population in the ``desktops`` column. A finding when no count does."""
    out = []
    for count_m, per_m, total_m in COUNT_PRODUCTS:
        for _, per in df[(df["metric"] == per_m) & (df["phase"] != "sizing")].iterrows():
            wc = per["worker_class"]
            counts = _counts_for(df, per, count_m)
            if counts.empty:
                continue
            tot = df[(df["source_id"] == per["source_id"]) & (df["metric"] == total_m) & (df["worker_class"] == wc)]
            totals = [(t["value"], t["lo"], t["hi"], t) for _, t in tot.drop_duplicates("value").iterrows()]
            if total_m == "desktops" and wc in ("", "mixed"):
                totals.append((per["desktops"], per["desktops"], per["desktops"], None))
            if not totals:
                continue
            counts = counts.drop_duplicates("value")
            if any(
                overlap((n["lo"] * per["lo"], n["hi"] * per["hi"]), (t_lo, t_hi))
                for _, n in counts.iterrows()
                for _, t_lo, t_hi, _ in totals
            ):
                continue
            n = counts.iloc[0]
            stated = "; ".join(
                where(t) if t is not None else f"{fmt(v)} (the test population)" for v, _, _, t in totals
            )
            recs = [per.to_frame().T, n.to_frame().T] + [t.to_frame().T for *_, t in totals if t is not None]
            out.append(
                finding(
                    "count_product",
                    pd.concat(recs),
                    f"{count_m} {where(n)} x {per_m} {where(per)} = {fmt(n['value'] * per['value'])} "
                    f"{total_m}, but the document states {total_m}: {stated}.",
                    stated=totals[0][0],
                    recomputed=n["value"] * per["value"],
                    unit="count",
                )
            )
    return out
