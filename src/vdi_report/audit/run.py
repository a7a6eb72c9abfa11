"""Running the registered rules over ``results.csv`` and linking findings to the register."""

from __future__ import annotations

import re

import pandas as pd

from . import rules as _rules  # noqa: F401  (registers the rules)
from .common import FINDING_COLUMNS, KEY, intervals
from .registry import RULES


def _chart_caption(locator: str) -> str:
    """A chart-legend record's locator without its time axis (``Figure: X (time axis 01:02-01:27)``
    -> ``Figure: X``): the register cites the chart by its caption."""
    return re.sub(r" \((time axis \d{2}:\d{2}-\d{2}:\d{2}|bar chart)\)$", "", locator)


def link_register(findings: pd.DataFrame, register: pd.DataFrame) -> pd.Series:
    """For each finding, the ids (space-separated) of the register entries about the same
    statements: same source and either a record the entry sets aside among the finding's
    records, or one of the entry's two statements (locator and line) among the finding's."""
    out = []
    for f in findings.itertuples(index=False):
        recs = set(f.record_ids.split())
        spots = set(zip((_chart_caption(x) for x in f.locators.split(" | ")), f.lines.split()))
        ids = []
        for e in register[register["source_id"] == f.source_id].itertuples(index=False):
            e_spots = {(e.a_locator, str(e.a_line)), (e.b_locator, str(e.b_line))}
            if recs & set(e.rejected_records.split()) or spots & e_spots:
                ids.append(e.id)
        out.append(" ".join(ids))
    return pd.Series(out, index=findings.index, dtype=str)


def register_coverage(findings: pd.DataFrame, register: pd.DataFrame) -> pd.Series:
    """How far the rules state each register entry by themselves, indexed by entry ``id``:
    ``stated`` (one finding cites every statement of the entry, its a and, if any, b locator and
    line, or lists every record the entry sets aside), ``linked`` (a finding is about one of them,
    ``link_register``) or ``none``. ``findings``: ``audit_findings.csv`` rows; ``register``:
    ``discrepancies.csv``. The share ``stated`` is the measure of issue 26 (rules alone)."""
    out = {}
    linked = set(" ".join(link_register(findings, register)).split()) if len(findings) else set()
    for e in register.itertuples(index=False):
        want = {(e.a_locator, str(e.a_line))} | ({(e.b_locator, str(e.b_line))} if e.b_locator else set())
        rejected = set(e.rejected_records.split())
        status = "linked" if e.id in linked else "none"
        for f in findings[findings["source_id"] == e.source_id].itertuples(index=False):
            spots = set(zip((_chart_caption(x) for x in f.locators.split(" | ")), f.lines.split()))
            if want <= spots or (rejected and rejected <= set(f.record_ids.split())):
                status = "stated"
                break
        out[e.id] = status
    return pd.Series(out, name="coverage", dtype=str)


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
