"""Rule ``statement_changes``: one fact of a document stated differently in two of its sections
(method, results, summary, captions, conclusion): a version, a worker class, the phase a
difference falls in, which test run a comparison uses (``data/raw/facts.csv``)."""

from __future__ import annotations

import pandas as pd

from ..common import fact_finding, fact_where
from ..registry import rule


@rule(
    90,
    "statement_changes",
    "Fact restated",
    "one fact of a document (a version, a worker class, the phase of a difference, the test run a comparison "
    "uses) stated one way in one section and another way in another",
    inputs="facts",
)
def rule_statement_changes(facts: pd.DataFrame, records: pd.DataFrame) -> list[dict]:
    """Statements of one fact (same source and ``fact`` in facts.csv) whose normalized ``value``
    differ: one finding per fact, listing every statement with its section and locator."""
    out = []
    for _, g in facts.sort_values("fact_id").groupby(["source_id", "fact"], sort=True):
        if g["value"].nunique() < 2:
            continue
        said = "; ".join(f"{fact_where(r)} says {r['value']}" for _, r in g.drop_duplicates("value").iterrows())
        out.append(
            fact_finding("statement_changes", g, f"{g['about'].iloc[0][0].upper()}{g['about'].iloc[0][1:]}: {said}.")
        )
    return out
