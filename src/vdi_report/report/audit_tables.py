"""Report tables and chart from ``data/processed/audit_findings.csv`` and the registers. Rule labels
and descriptions come from the rule registry (``registry.RULES``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .. import config
from ..audit import rules as _rules  # noqa: F401  (registers the rules)
from ..audit.common import FINDING_COLUMNS
from ..audit.registry import RULES, rules_table


def rule_labels() -> dict[str, str]:
    """Rule name -> label, from the registry."""
    return {name: r.label for name, r in RULES.items()}


def rules_list() -> pd.DataFrame:
    """The report's list of checks, from the registry: columns ``Check`` (label) and ``What it
    compares`` (description), in run order."""
    t = rules_table()
    return pd.DataFrame({"Check": t["label"].values, "What it compares": t["description"].values})


def findings_summary(findings: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Counts of findings per vendor (rows) and rule (columns), inconsistencies and notes apart.

    Returns a table with a ``Vendor`` column (``source_id`` if ``sources_df`` is None), one column
    per rule that fired and ``Total``; cells are ``n`` or ``n (+m notes)``."""
    f = findings.copy()
    if sources_df is not None:
        f["source_id"] = f["source_id"].map(sources_df.set_index("source_id")["vendor"]).fillna(f["source_id"])
    cols = [r for r in RULES if r in set(f["rule"])]
    rows = []
    for src, g in f.groupby("source_id", sort=True):
        row = {"Vendor": src}
        for r in cols + ["Total"]:
            h = g if r == "Total" else g[g["rule"] == r]
            n, m = (h["severity"] == "inconsistent").sum(), (h["severity"] == "note").sum()
            row[r] = f"{n}" + (f" (+{m} notes)" if m else "")
        rows.append(row)
    return pd.DataFrame(rows, columns=["Vendor", *cols, "Total"])


VERDICT_ORDER = ("not supported", "partly supported", "supported", "not testable")


def read_findings(path: Path = config.PROCESSED_DIR / "audit_findings.csv") -> pd.DataFrame:
    """``audit_findings.csv`` back with its types (columns ``FINDING_COLUMNS``; ``stated`` and
    ``recomputed`` float, the rest str). Raises FileNotFoundError when the audit has not run."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    for col in ("stated", "recomputed"):
        df[col] = pd.to_numeric(df[col].replace("", None)).astype(float)
    return df[FINDING_COLUMNS]


def _vendor(source_ids: pd.Series, sources_df: pd.DataFrame | None) -> pd.Series:
    if sources_df is None:
        return source_ids
    return source_ids.map(sources_df.set_index("source_id")["vendor"]).fillna(source_ids)


def findings_counts(findings: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Findings per vendor (rows) and rule (columns labelled by the registry's labels): counts of
    inconsistencies, with notes in brackets (``3 (+2 notes)``), and a Total column and row."""
    f = findings.assign(vendor=_vendor(findings["source_id"], sources_df))
    rules = [r for r in RULES if r in set(f["rule"])]
    rows = []
    for vendor, g in list(f.groupby("vendor", sort=True)) + [("Total", f)]:
        row = {"Vendor": vendor}
        for r in rules + ["Total"]:
            h = g if r == "Total" else g[g["rule"] == r]
            n, m = int((h["severity"] == "inconsistent").sum()), int((h["severity"] == "note").sum())
            row[rule_labels().get(r, r) if r != "Total" else "Total"] = f"{n}" + (f" (+{m} notes)" if m else "")
        rows.append(row)
    return pd.DataFrame(rows)


def findings_table(
    findings: pd.DataFrame, sources_df: pd.DataFrame | None = None, severity: str = "inconsistent"
) -> pd.DataFrame:
    """The findings of one ``severity`` for the report: Document (vendor and check), Finding (the
    rule's message, quoting the printed values with their locators), Recomputed (derived by the
    check from other stated values; empty when it compares stated values only), Records (with
    the curated register entries about the same statements in brackets)."""
    f = findings[findings["severity"] == severity]
    recomputed = [
        ""
        if r in ("same_quantity", "average_above_peak") or pd.isna(x)
        else f"{x:,.0f} {u}".strip()
        if abs(x) >= 100
        else f"{x:.3g} {u}".strip()
        for r, x, u in zip(f["rule"], f["recomputed"], f["unit"].replace({"count": "", "ratio": "x"}))
    ]
    return pd.DataFrame(
        {
            "Document and check": (
                _vendor(f["source_id"], sources_df) + ": " + f["rule"].map(rule_labels()).fillna(f["rule"])
            ).values,
            "Finding (stated values as printed, with locator)": f["message"].values,
            "Recomputed (derived)": recomputed,
            "Records (register entry)": [
                r + (f" ({g})" if g else "") for r, g in zip(f["record_ids"], f["register_ids"])
            ],
        }
    )


def register_table(
    register: pd.DataFrame, sources_df: pd.DataFrame | None = None, only_with_rejections: bool = True
) -> pd.DataFrame:
    """Register entries for the report: Entry (id, vendor, category and the two statements'
    locators), Resolution (what the analysis uses, and why), Records not used (their ids).
    ``only_with_rejections`` keeps the entries that set records aside, i.e. those that change the
    numbers the analysis uses."""
    r = register[register["rejected_records"] != ""] if only_with_rejections else register
    vendor = _vendor(r["source_id"], sources_df)
    entry = [
        f"{i} ({v}, {c}): {a} (line {al})" + (f" vs {b} (line {bl})" if b else "")
        for i, v, c, a, al, b, bl in zip(
            r["id"], vendor, r["category"], r["a_locator"], r["a_line"], r["b_locator"], r["b_line"]
        )
    ]
    return pd.DataFrame(
        {
            "Entry": entry,
            "Resolution: what the analysis uses": r["resolution"].values,
            "Records not used": r["rejected_records"].values,
        }
    )


def claims_table(claims: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The claims table for the report, by vendor and verdict (``VERDICT_ORDER``): Claim (vendor,
    claim, locator), Verdict, Evidence for, Evidence against (both from the vendor's own data)."""
    c = claims.assign(_v=claims["verdict"].map(VERDICT_ORDER.index), _s=claims["source_id"])
    c = c.sort_values(["_s", "_v", "claim_id"], kind="stable")
    return pd.DataFrame(
        {
            "Claim": (
                _vendor(c["source_id"], sources_df)
                + ": "
                + c["claim"]
                + " ("
                + c["locator"]
                + ", line "
                + c["line"]
                + ")"
            ).values,
            "Verdict": c["verdict"].values,
            "Evidence for": c["evidence_for"].values,
            "Evidence against": c["evidence_against"].values,
        }
    )
