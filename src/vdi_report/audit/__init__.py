"""Source audit: consistency rules over the normalized data, and the curated registers.

Two halves:

1. **Automated rules** (``run_rules``) read ``data/processed/results.csv`` (every source, so a
   new document is audited without new code) and return one row per finding, written to
   ``data/processed/audit_findings.csv`` (columns ``FINDING_COLUMNS``). Each rule is one module
   under ``audit/rules/`` registered with ``@registry.rule(name, label, description)``; the
   findings table, the counts table and the report's rule list come from ``RULES``. Each rule
   compares numbers the documents *state*, and only numbers that describe the same thing; nothing
   here changes a value.
2. **Curated registers** (``load_discrepancies``, ``load_claims``): what the rules cannot find
   (narrative contradictions, swapped labels, unsupported claims), written by hand in
   ``data/raw/discrepancies.csv`` and ``data/raw/claims.csv`` and validated here.
   ``resolutions`` turns the register into the records the analysis does not use.

Layout: ``registry`` (the ``Rule`` record and ``@rule``), ``common`` (finding columns, printed
precision as intervals, message helpers), ``rules/`` (one module per rule), ``run`` (``run_rules``,
``link_register``, ``register_coverage``), ``vdi_report.raw.registers`` (the curated files;
re-exported here); the report's audit tables are ``vdi_report.report.audit_tables``.
"""

from ..raw.registers import (
    CATEGORIES,
    CLAIM_COLUMNS,
    DISCREPANCY_COLUMNS,
    OPTIONAL_CLAIM_COLUMNS,
    OPTIONAL_DISCREPANCY_COLUMNS,
    VERDICTS,
    RegisterError,
    check_claim_verdicts,
    load_claims,
    load_discrepancies,
    register_summary,
    resolutions,
    seed_texts,
    source_texts,
    verify_quotes,
)
from .common import FINDING_COLUMNS, KEY, SEVERITIES, TEST_FREE, intervals, printed_half_step
from .registry import RULES, Rule, rule, rules_table
from .run import link_register, register_coverage, run_rules

__all__ = [
    "CATEGORIES",
    "CLAIM_COLUMNS",
    "DISCREPANCY_COLUMNS",
    "FINDING_COLUMNS",
    "KEY",
    "OPTIONAL_CLAIM_COLUMNS",
    "OPTIONAL_DISCREPANCY_COLUMNS",
    "RULES",
    "SEVERITIES",
    "TEST_FREE",
    "VERDICTS",
    "RegisterError",
    "Rule",
    "check_claim_verdicts",
    "intervals",
    "link_register",
    "load_claims",
    "load_discrepancies",
    "printed_half_step",
    "register_coverage",
    "register_summary",
    "resolutions",
    "rule",
    "rules_table",
    "run_rules",
    "seed_texts",
    "source_texts",
    "verify_quotes",
]
