"""Chapter Audit, written for a reviewer of the method: first the register entries that change a
number this report uses (which number, by how much), then the headline claims with their
verdicts, then what the automated checks found, check by check in plain words and per document
(each Nutanix document apart), and which facts the checks read and how they were collected. The
full lists (every finding, every register entry, every claim with its evidence) are in the
appendix."""

import re

from ... import audit as audit_rules
from ... import config
from ...raw import sources
from .. import audit_tables
from .. import formatting as fmt
from ..show import heading, ref, say, table

ORDER = 50  # position in the report (sections/__init__.py)
# the report parameters this chapter uses (the analysis choices in force, ctx.choices): its outputs are
# kept between runs while they and the other inputs stay the same (report/chapter_cache.py)
PARAMETERS = ("choices_file",)

FACTS_FILE = config.RAW_DIR / "facts.csv"


def words(ctx) -> audit_tables.PlainWords:
    """The plain-words translator of the findings (test, metric and configuration labels)."""
    return audit_tables.PlainWords(ctx.tests)


def render(ctx) -> None:
    heading(1, "Audit", "audit")
    f, reg, claims, srcs = ctx.findings, ctx.register, ctx.claims, ctx.sources
    plain = words(ctx)
    n_bad = int((f["severity"] == "inconsistent").sum())
    effects = audit_tables.register_effects(reg, ctx.results, srcs, plain)
    replaced = effects[effects["Used instead"] != "nothing: left out"]
    by_choice = audit_tables.choice_entries(reg, ctx.choices.declared, ctx.sensitivity_ranking)
    say(
        "Vendor white papers contradict themselves, and a comparison that silently picks one value hides it. The "
        "audit has three parts, all from the documents' own text: a **curated register** "
        "(`data/raw/discrepancies.csv`: both statements with locator, line and verbatim quote, the explanation and "
        "which value this analysis uses), a **claims table** testing each headline claim against the vendor's own "
        "data, and **automated checks** that compare numbers which must agree; a check fires only when no reading "
        "of the printed numbers within their printed precision makes them agree, so rounding never counts as an "
        "error.\n\nThe register holds **{n_reg} entries**; {n_aside_entries} of them set aside {n_aside} of the "
        "{n_records} digitized numbers, and {n_choice} more are applied by an analysis choice. {n_claims} headline "
        "claims were tested. The checks found **{n_bad} inconsistencies** and {n_notes} notes. This chapter gives "
        "first what changes the numbers, then the claims, then the checks; every finding, register entry and claim "
        "with its evidence is in the appendix ({ref_findings}, {ref_reg}, {ref_claims}).",
        n_reg=len(reg),
        n_aside_entries=int((reg["rejected_records"] != "").sum()),
        n_aside=len(audit_rules.resolutions(reg)),
        n_records=fmt.num(len(ctx.results)),
        n_choice=by_choice["Entry"].nunique(),
        n_claims=len(claims),
        n_bad=n_bad,
        n_notes=len(f) - n_bad,
        ref_findings=ref("appendix-findings"),
        ref_reg=ref("appendix-register"),
        ref_claims=ref("appendix-claims"),
    )

    heading(2, "Register entries that change a number this report uses", "audit-changes")
    say(
        "Each entry below sets aside statements of one quantity (they stay in `results.csv`, marked as not used, "
        "with the entry's id) and the report uses another statement of the same quantity instead: {n} quantities, "
        "by the change from the value set aside to the value used (derived). {n_left} further quantities are set "
        "aside with no other statement of them, so the report leaves them out ({ref_reg}).",
        n=len(replaced),
        n_left=len(effects) - len(replaced),
        ref_reg=ref("appendix-register"),
    )
    table(
        replaced.drop(columns=["Records set aside"]),
        "Register entries that change a number the report uses: the value set aside, the value used instead",
        "register-aside",
        {"Entry": "20%", "Number": "34%", "Set aside": "16%", "Used instead": "16%", "Change (derived)": "14%"},
    )
    if len(by_choice):
        say(
            "Some entries are applied by an analysis choice rather than by setting records aside: the choice's "
            "default follows the entry, and flipping it shows how far the planning figures depend on it "
            "({ref_sens}).",
            ref_sens=ref("sensitivity"),
        )
        table(
            by_choice,
            "Register entries applied by an analysis choice, and the largest move of the planning figures if the "
            "choice is flipped",
            "register-choices",
        )

    heading(2, "Headline claims and their verdicts", "audit-claims")
    say(
        "Verdicts: *supported* (the document's data show it), *partly supported* (true for part of the claim or only "
        "under a condition the claim omits), *not supported* (the document's own data contradict it), *not "
        "testable* (the document gives no data that could confirm or refute it). The evidence for and against "
        "each claim is in the appendix ({ref_claims}).",
        ref_claims=ref("appendix-claims"),
    )
    table(audit_tables.claims_by_document(claims, srcs), "Headline claims per document and verdict", "claims-counts")
    table(
        audit_tables.claims_verdicts(claims, srcs),
        "Every headline claim with its verdict",
        "claims-verdicts",
        {"Document": "16%", "Claim": "66%", "Verdict": "18%"},
    )

    heading(2, "What the automated checks found, check by check", "audit-checks")
    say(
        "*Stated* values are quoted as printed with their locator; *recomputed* values are derived by the check "
        "from other stated values of the same document. Notes are not errors: the arithmetic holds, but only in a "
        "way a reader should know (a difference computed against the larger of two values, a saving that holds "
        "against one configuration only). Every finding is listed in the appendix ({ref_findings}).",
        ref_findings=ref("appendix-findings"),
    )
    table(
        audit_tables.findings_by_document(f, srcs),
        "Automated checks: inconsistencies (and notes) per document and check",
        "audit-counts",
    )
    table(
        audit_tables.findings_by_rule(f, srcs, plain),
        "Automated checks, one row per check: what it compares, its findings per document and one of them",
        "audit-rules",
        {
            "Check": "13%",
            "What it compares": "25%",
            "Findings per document": "20%",
            "An example (as printed, with locator)": "42%",
        },
    )

    heading(2, "What the checks read, and how it was collected", "audit-inputs")
    facts = sources.read_csv_text(FACTS_FILE)
    cites = int(facts["note"].map(lambda s: bool(re.search(r"\bD-[A-Z0-9]+-\d+", s))).sum())
    fact_rules = audit_tables.fact_rules()
    checklist = sources.read_csv_text(FACTS_FILE.with_name("fact_checklist.csv"))
    facts_by_doc = audit_tables.facts_read(facts, srcs, checklist)
    n_docs = int((facts_by_doc["Facts"] > 0).sum())
    say(
        "The number checks read every digitized number of `results.csv` ({n_records} records: each with its "
        "document, locator, line, verbatim quote and whether it is exact, approximate or a bound). The fact checks "
        "({fact_rules}) read `data/raw/facts.csv`: {n_facts} statements of test-bed and method facts from {n_docs} "
        "of the {n_all} documents, each with the same provenance. {cites_sentence}",
        n_records=fmt.num(len(ctx.results)),
        fact_rules=fmt.words(fact_rules) if fact_rules else "none",
        n_facts=len(facts),
        n_docs=n_docs,
        n_all=len(srcs),
        cites_sentence=(
            f"{cites} of the {len(facts)} facts name a register entry in their note: they were digitized with the "
            "entry in view, so a fact check finding them restates what a reader found, and the checks are only as "
            "complete as the facts they are given."
            if cites
            else "None of them names a register entry: they were digitized without regard to what conflicts."
        ),
    )
    table(facts_by_doc, "The facts the fact checks read, per document and kind, with the checklist", "audit-facts")
