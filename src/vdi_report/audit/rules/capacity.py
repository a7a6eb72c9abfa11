"""Rule ``capacity``: drive count x drive size does not give the stated raw/usable capacity."""

from __future__ import annotations

import itertools

import pandas as pd

from ..common import finding, fmt, overlap, where
from ..registry import rule

DRIVE_COUNTS = ("drives", "active_drives")
DRIVE_SIZES = ("drive_capacity", "drive_usable_capacity")


def _scope(df: pd.DataFrame, r: pd.Series, metrics) -> pd.DataFrame:
    """Records of ``metrics`` in the scope of ``r``: same source and configuration (empty matches),
    preferring the same locator, then the same phase."""
    d = df[
        (df["source_id"] == r["source_id"])
        & df["metric"].isin(metrics)
        & ((df["configuration"] == r["configuration"]) | (df["configuration"] == "") | (r["configuration"] == ""))
    ]
    for narrow in (d[d["locator"] == r["locator"]], d[d["phase"] == r["phase"]]):
        if len(narrow):
            return narrow
    return d.iloc[0:0]


@rule(
    60, "capacity", "Drives × size ≠ capacity", "drive count x drive size does not give the stated raw/usable capacity"
)
def rule_capacity(df: pd.DataFrame) -> list[dict]:
    """Stated raw capacity against drive count x drive size (``DRIVE_COUNTS`` x ``DRIVE_SIZES``)
    in its scope (``_scope``), and stated usable capacity against the largest such product
    (usable cannot exceed raw). The message names the product that reproduces a raw figure."""
    out = []
    for _, cap in df[df["metric"].isin(["raw_capacity", "usable_capacity"])].iterrows():
        counts, sizes = _scope(df, cap, DRIVE_COUNTS), _scope(df, cap, DRIVE_SIZES)
        if counts.empty or sizes.empty:
            continue
        prods = []
        for (_, n), (_, s) in itertools.product(
            counts.drop_duplicates(["metric", "value"]).iterrows(),
            sizes.drop_duplicates(["metric", "value"]).iterrows(),
        ):
            prods.append((n, s, n["value"] * s["value"], n["lo"] * s["lo"], n["hi"] * s["hi"]))

        def txt(p):
            return f"{p[0]['value_text']} {p[0]['metric']} x {p[1]['value_text']} {p[1]['metric']} = {fmt(p[2])} GB"

        if cap["metric"] == "raw_capacity":
            plain = [p for p in prods if p[0]["metric"] == "drives" and p[1]["metric"] == "drive_capacity"]
            if not plain or any(overlap((p[3], p[4]), (cap["lo"], cap["hi"])) for p in plain):
                continue
            wide = df[
                (df["source_id"] == cap["source_id"])
                & (df["phase"] == cap["phase"])
                & ((df["configuration"] == cap["configuration"]) | (df["configuration"] == ""))
            ]
            other = []
            for (_, n), (_, z) in itertools.product(
                wide[wide["metric"].isin(DRIVE_COUNTS)].drop_duplicates(["metric", "value"]).iterrows(),
                wide[wide["metric"].isin(DRIVE_SIZES)].drop_duplicates(["metric", "value"]).iterrows(),
            ):
                if overlap((n["lo"] * z["lo"], n["hi"] * z["hi"]), (cap["lo"], cap["hi"])):
                    other.append((n, z, n["value"] * z["value"]))
            p = plain[0]
            msg = f"raw capacity stated as {where(cap)} but {txt(p)}" + (
                f"; it matches {txt(other[0])} instead." if other else "; no stated drive count and size give it."
            )
            recs = pd.concat(
                [cap.to_frame().T, p[0].to_frame().T, p[1].to_frame().T]
                + ([other[0][0].to_frame().T, other[0][1].to_frame().T] if other else [])
            )
            out.append(finding("capacity", recs, msg, stated=cap["value"], recomputed=p[2]))
        else:
            top = max(prods, key=lambda p: p[4])
            if cap["lo"] <= top[4] + 1e-9:
                continue
            recs = pd.concat([cap.to_frame().T, top[0].to_frame().T, top[1].to_frame().T])
            out.append(
                finding(
                    "capacity",
                    recs,
                    f"usable capacity stated as {where(cap)} exceeds the raw capacity of the drives: {txt(top)}.",
                    stated=cap["value"],
                    recomputed=top[2],
                )
            )
    return out
