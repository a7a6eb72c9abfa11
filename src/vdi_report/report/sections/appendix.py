"""Chapter 6, Appendix: the full claims table, every finding of the automated checks (in plain
words), the full discrepancy register, the coverage of the digitized data and the colophon
(commit, parameters, SHA-256 of the inputs, package versions)."""

import pandas as pd

from .. import audit_tables, colophon, tables
from ..chapter_cache import kept
from ..show import heading, say, table

ORDER = 60  # position in the report (sections/__init__.py)


def register_full(ctx) -> pd.DataFrame:
    """Every register entry: Entry (id, vendor, category), What is wrong, Resolution, Impact."""
    r = ctx.register.merge(ctx.sources[["source_id", "vendor"]], on="source_id", how="left")
    return pd.DataFrame(
        {
            "Entry": r["id"] + " · " + r["vendor"] + " · " + r["category"],
            "What is wrong": r["explanation"],
            "Resolution: what the analysis uses": r["resolution"],
            "Impact on a comparison": r["impact"],
        }
    )


@kept("choices_file")
def registers(ctx) -> None:
    """The claims, the automated checks' findings and notes, the register and the coverage table."""
    heading(1, "Appendix", "appendix")
    heading(2, "Headline claims, evidence and verdicts", "appendix-claims")
    table(
        audit_tables.claims_table(ctx.claims, ctx.sources),
        "Headline claims, evidence and verdicts",
        "claims-full",
        {"Claim": "26%", "Verdict": "9%", "Evidence for": "28%", "Evidence against": "29%"},
    )
    heading(2, "Every finding of the automated checks", "appendix-findings")
    plain = audit_tables.PlainWords(ctx.tests)
    widths = {
        "Document and check": "16%",
        "Finding (stated values as printed, with locator)": "52%",
        "Recomputed (derived)": "11%",
        "Records (register entry)": "13%",
    }
    table(
        audit_tables.plain_findings_table(ctx.findings, ctx.sources, plain),
        "Inconsistencies found by the automated checks",
        "audit-findings",
        widths,
    )
    table(
        audit_tables.plain_findings_table(ctx.findings, ctx.sources, plain, severity="note"),
        "Notes from the automated checks",
        "audit-notes",
        widths,
    )
    heading(2, "The full discrepancy register", "appendix-register")
    table(
        register_full(ctx),
        "Discrepancy register (all entries)",
        "register-full",
        {
            "Entry": "14%",
            "What is wrong": "32%",
            "Resolution: what the analysis uses": "28%",
            "Impact on a comparison": "24%",
        },
    )
    say(
        "## Coverage of the digitized data\n\nRecords per document and phase (test bed: facts about the test bed; "
        "sizing: targets, rules of thumb and workload definitions)."
    )
    table(tables.coverage_table(ctx.results), "Digitized records per phase and document", "coverage")


def colophon_part(ctx) -> None:
    """The colophon (commit, every report parameter, SHA-256 of the inputs): drawn on every run."""
    heading(2, "Colophon", "colophon")  # no page of its own: it follows the coverage table (one pass, no pieces)
    colophon.render(ctx)


# the chapter's parts in reading order (sections.parts; ``kept``: replayed between runs, chapter_cache)
PARTS = (registers, colophon_part)


def render(ctx) -> None:
    for part in PARTS:
        part(ctx)
