"""Rule ``per_desktop``: a stated per-desktop figure is not total / desktops of the test."""

from __future__ import annotations

import pandas as pd

from ..common import TEST_FREE, finding, fmt, overlap, what, where
from ..registry import rule

PER_DESKTOP = {
    "iops_per_desktop": "iops",
    "used_capacity_per_desktop": "used_capacity",
    "capacity_per_desktop": "used_capacity",
}


@rule(
    30,
    "per_desktop",
    "Per-desktop ≠ total ÷ desktops",
    "a stated per-desktop figure is not total / desktops of the test",
)
def rule_per_desktop(df: pd.DataFrame) -> list[dict]:
    """A stated per-desktop figure against every stated total of the same test and statistic
    divided by the test's desktops (vantage must agree when both state one). A finding when no
    total reproduces it, or when a total at the same vantage as a reproducing one does not; the
    message says which totals reproduce it."""
    found: dict = {}  # (keys, totals involved) -> (records, message parts, stated, recomputed)
    keys = ["source_id", "phase", "test_id", "condition", "variant", "configuration", "worker_class", "statistic"]
    for pd_metric, total_metric in PER_DESKTOP.items():
        stated = df[(df["metric"] == pd_metric) & ~df["test_id"].isin(TEST_FREE)]
        totals = df[df["metric"] == total_metric]
        for _, s in stated.iterrows():
            cand = totals[(totals[keys] == s[keys]).all(axis=1)]
            cand = cand[(cand["vantage"] == s["vantage"]) | (cand["vantage"] == "") | (s["vantage"] == "")]
            if cand.empty:
                continue
            n = s["desktops"]
            good, bad = [], []
            for _, t in cand.drop_duplicates(["value", "vantage"]).iterrows():
                (good if overlap((t["lo"] / n, t["hi"] / n), (s["lo"], s["hi"])) else bad).append(t)
            # a total at another vantage (e.g. back end) that no reproducing total shares is no contradiction
            if good:
                bad = [t for t in bad if t["vantage"] in {g["vantage"] for g in good}]
            if not bad:
                continue
            recs = pd.concat([s.to_frame().T, cand[cand["value"].isin([t["value"] for t in bad + good])]])
            msg = (
                f"{what(s)} of test {s['test_id']} stated as {where(s)}; "
                + "; ".join(f"{where(t)} / {n:,.0f} desktops = {fmt(t['value'] / n)}" for t in bad)
                + (
                    ". Reproduced by " + ", ".join(where(t) for t in good) + "."
                    if good
                    else ". No stated total reproduces it."
                )
            )
            # two per-desktop figures each reproduced by one of two conflicting totals are one
            # conflict between the totals: one finding lists both figures
            conflict = (tuple(s[keys]), frozenset(t["value"] for t in bad + good))
            if conflict in found:
                prev = found[conflict]
                found[conflict] = (pd.concat([prev[0], recs]), prev[1] + [msg], prev[2], prev[3])
            else:
                found[conflict] = (recs, [msg], s["value"], bad[0]["value"] / n)
    out = []
    for recs, msgs, st, rc in found.values():
        out.append(finding("per_desktop", recs.sort_values("record_id"), " ".join(msgs), stated=st, recomputed=rc))
    return out
