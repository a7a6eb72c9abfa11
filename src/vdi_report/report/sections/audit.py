"""Chapter 5, Audit: automated consistency checks, the curated register (entries that change the
numbers used) and the vendors' headline claims against their own data (chart; full tables in the
appendix)."""

from ... import audit as audit_rules
from .. import audit_tables, charts
from .. import formatting as fmt
from ..show import figure, heading, ref, say, table

ORDER = 50  # position in the report (sections/__init__.py)

FINDING_WIDTHS = {
    "Document and check": "16%",
    "Finding (stated values as printed, with locator)": "52%",
    "Recomputed (derived)": "11%",
    "Records (register entry)": "13%",
}


def render(ctx) -> None:
    heading(1, "Audit", "audit")
    f, reg, claims, srcs = ctx.findings, ctx.register, ctx.claims, ctx.sources
    n_bad = int((f["severity"] == "inconsistent").sum())
    say(
        "Vendor white papers contradict themselves, and a comparison that silently picks one value hides it. The "
        "audit has three parts, all from the documents' own text. **Automated checks** compare numbers that must "
        "agree (the same quantity stated twice, read + write against total, per-desktop against total ÷ desktops, "
        "percentages and multiples, shares against the whole, drives × size against capacity, averages against "
        "peaks); a check fires only when no reading of the printed numbers within their printed precision makes "
        "them agree, so rounding never counts as an error. A **curated register** records what rules cannot see and "
        "says which value this analysis uses; the records it sets aside are excluded from every table and model. A "
        "**claims table** tests each headline claim against the vendor's own data.\n\nThe checks found **{n_bad} "
        "inconsistencies** and {n_notes} notes; the register holds **{n_reg} entries**, which set aside {n_aside} of "
        "the {n_records} digitized numbers; {n_claims} headline claims were tested ({ref_claims}).",
        n_bad=n_bad,
        n_notes=len(f) - n_bad,
        n_reg=len(reg),
        n_aside=len(audit_rules.resolutions(reg)),
        n_records=fmt.num(len(ctx.results)),
        n_claims=len(claims),
        ref_claims=ref("appendix-claims"),
    )
    table(
        audit_tables.findings_counts(f, srcs),
        "Automated consistency checks: findings per document and check",
        "audit-counts",
    )
    say(
        "## What the automated checks found\n\n*Stated* values are quoted as printed; *recomputed* values are derived "
        "by the check from other stated values of the same document."
    )
    table(
        audit_tables.findings_table(f, srcs),
        "Inconsistencies found by the automated checks",
        "audit-findings",
        FINDING_WIDTHS,
    )
    say(
        "Notes are not errors: the arithmetic holds, but only in a way a reader should know, e.g. a difference "
        "computed against the larger of two values, or a saving that holds against one configuration only."
    )
    table(
        audit_tables.findings_table(f, srcs, severity="note"),
        "Notes from the automated checks",
        "audit-notes",
        FINDING_WIDTHS,
    )
    say(
        "## The curated discrepancy register\n\n`data/raw/discrepancies.csv` holds each discrepancy with both "
        "statements (locator, line, verbatim quote), an explanation, the resolution (which value this analysis uses, "
        "and why) and the impact on the comparison. The full register is in the appendix ({ref_reg}).",
        ref_reg=ref("appendix-register"),
    )
    table(
        audit_rules.register_summary(reg, srcs),
        "Discrepancy register: entries per document and category",
        "register-summary",
    )
    say(
        "The entries below change the numbers this report uses: each sets aside the records it names (they stay in "
        "`results.csv`, marked as not used, with the entry's id)."
    )
    table(
        audit_tables.register_table(reg, srcs),
        "Register entries that set records aside, and what the analysis uses instead",
        "register-aside",
        {"Entry": "28%", "Resolution: what the analysis uses": "50%", "Records not used": "14%"},
    )
    say(
        "## Headline claims against the vendors' own data\n\nVerdicts: *supported* (the document's data show it), "
        "*partly supported* (true for part of the claim or only under a condition the claim omits), *not supported* "
        "(the document's own data contradict it), *not testable* (the document gives no data that could confirm or "
        "refute it)."
    )
    figure(charts.verdict_chart(claims, srcs), "Verdicts on the headline claims, per document", "verdicts")
