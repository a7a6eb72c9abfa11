"""Rule ``similar_claim``: a document calls two of its figures similar (or almost identical, or
comparable) while they differ by more than the tolerance an approximate statement gets
(``normalize.APPROX_TOLERANCE``, 10 %: the project's one reading of "about")."""

from __future__ import annotations

import pandas as pd

from ...transform.normalize import APPROX_TOLERANCE
from ..common import fact_where, finding, where
from ..registry import rule

SIMILAR = ("similar",)  # facts.csv value of a statement that calls figures alike


@rule(
    91,
    "similar_claim",
    "“Similar” yet apart",
    "figures the document calls similar or almost identical differ by more than an approximate statement allows "
    "(10 %) even at the ends of their printed precision",
    inputs="facts",
)
def rule_similar_claim(facts: pd.DataFrame, records: pd.DataFrame) -> list[dict]:
    """Statements with value ``similar`` naming two or more records (``record_ids``): a finding
    when the smallest record's upper end, widened by ``APPROX_TOLERANCE``, stays below the largest
    record's lower end (intervals ``lo``/``hi`` from ``common.intervals``: printed precision).
    Statements whose records are not all in ``records`` are skipped. A finding lists the statement
    and the records it names (their locators and lines: both sides of the claim)."""
    recs = records.set_index("record_id")
    out = []
    for _, f in facts[facts["value"].isin(SIMILAR)].sort_values("fact_id").iterrows():
        ids = f["record_ids"].split()
        if len(ids) < 2 or not all(i in recs.index for i in ids):
            continue
        r = recs.loc[ids]
        small, large = r.loc[r["value"].idxmin()], r.loc[r["value"].idxmax()]
        if small["hi"] * (1 + APPROX_TOLERANCE) >= large["lo"]:
            continue
        gap = large["value"] / small["value"] - 1
        cols = ["record_id", "source_id", "test_id", "metric", "locator", "line", "value_text", "quote", "unit"]
        stmt = (
            pd.DataFrame([f])
            .rename(columns={"fact_id": "record_id", "fact": "metric"})
            .assign(test_id="", unit=small["unit"])
        )
        listed = pd.concat([stmt[cols], r.reset_index()[cols]], ignore_index=True)
        msg = (
            f"{fact_where(f)}, but "
            + " and ".join(where(x) for _, x in r.iterrows())
            + f" differ by {100 * gap:.0f} % (derived; more than the {100 * APPROX_TOLERANCE:.0f} % of an "
            "approximate statement)."
        )
        out.append(
            finding(
                "similar_claim",
                listed,
                msg,
                stated=float(small["value"]),
                recomputed=float(large["value"]),
                unit=small["unit"],
            )
        )
    return out
