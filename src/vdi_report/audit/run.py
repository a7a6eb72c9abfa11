"""Running the registered rules over ``results.csv`` and linking findings to the register."""

from __future__ import annotations

import pandas as pd

from . import rules as _rules  # noqa: F401  (registers the rules)
from .common import FINDING_COLUMNS, KEY, intervals
from .registry import RULES


def link_register(findings: pd.DataFrame, register: pd.DataFrame) -> pd.Series:
    """For each finding, the ids (space-separated) of the register entries about the same
    statements: same source and either a record the entry sets aside among the finding's
    records, or one of the entry's two statements (locator and line) among the finding's."""
    out = []
    for f in findings.itertuples(index=False):
        recs = set(f.record_ids.split())
        spots = set(zip(f.locators.split(" | "), f.lines.split()))
        ids = []
        for e in register[register["source_id"] == f.source_id].itertuples(index=False):
            e_spots = {(e.a_locator, str(e.a_line)), (e.b_locator, str(e.b_line))}
            if recs & set(e.rejected_records.split()) or spots & e_spots:
                ids.append(e.id)
        out.append(" ".join(ids))
    return pd.Series(out, index=findings.index, dtype=str)


def run_rules(
    results: pd.DataFrame, rules=None, register: pd.DataFrame | None = None, facts: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Run the consistency rules over normalized records and return the findings.

    ``results``: the columns of ``normalize.RESULT_COLUMNS`` (``results.csv``,
    ``catalogue.read("results")``; all records, used in the analysis or not: the audit is about
    what the documents state). ``rules``: names from ``RULES`` (default: all). ``facts``: the
    statements of ``data/raw/facts.csv`` (``raw.facts.load_facts``) the rules with ``inputs =
    "facts"`` compare; without them those rules find nothing.

    Returns columns ``FINDING_COLUMNS``: ``finding_id`` (``FNNN``, numbered in output order), ``rule``, ``severity``
    (``inconsistent`` or ``note``), ``source_id``, ``test_id``, ``metric`` (space-separated when
    several), ``record_ids`` (space-separated), ``locators`` / ``values`` / ``quotes``
    (``" | "``-separated, in record order), ``lines``, ``stated`` and ``recomputed`` (normalized
    unit ``unit``, NaN where not a single number), ``message`` and ``register_ids`` (entries of
    ``register``, the curated discrepancy register, about the same statements; see
    ``link_register``; empty without a register). Sorted by source, rule (order of
    ``RULES``) and first record id, so two runs give identical rows. Raises KeyError for an
    unknown rule name or a missing input column.
    """
    missing = {
        "record_id",
        "value",
        "value_low",
        "value_high",
        "reported_value",
        "value_text",
        "bound",
        "locator",
        "line",
        "quote",
        *KEY,
    } - set(results.columns)
    if missing:
        raise KeyError(f"run_rules: results lack columns {sorted(missing)}")
    names = list(RULES) if rules is None else list(rules)
    for n in names:
        if n not in RULES:
            raise KeyError(f"unknown rule {n!r}; known: {', '.join(RULES)}")
    df = intervals(results.sort_values(["source_id", "record_id"], kind="stable").reset_index(drop=True))
    rows = []
    for n in names:
        r = RULES[n]
        if r.inputs == "facts":
            rows += r.check(facts, df) if facts is not None and len(facts) else []
        else:
            rows += r.check(df)
    out = pd.DataFrame(rows, columns=FINDING_COLUMNS[1:-1])
    if out.empty:
        return pd.DataFrame(columns=FINDING_COLUMNS)
    out["_r"] = out["rule"].map(list(RULES).index)
    out = out.drop_duplicates(["rule", "record_ids", "message"])
    out = out.sort_values(["source_id", "_r", "record_ids", "message"], kind="stable").drop(columns="_r")
    out.insert(0, "finding_id", [f"F{i:03d}" for i in range(1, len(out) + 1)])
    out = out.reset_index(drop=True)
    out["register_ids"] = "" if register is None else link_register(out, register)
    return out[FINDING_COLUMNS]
