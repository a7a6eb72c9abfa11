"""The report's data access on the built data (``report.context.Context``): the tables come typed
from the catalogue, and page 1's tables show what the records say (the unit tests of the
context: tests/unit/report/test_sections.py)."""

import re

import pandas as pd
import pytest

from vdi_report import catalogue
from vdi_report.report.context import TABLES, Context


def test_context_tables_come_typed_from_the_catalogue(context_params):
    ctx = Context(context_params)
    for attr, name in TABLES.items():
        got = getattr(ctx, attr)
        if isinstance(got, dict):
            assert got == catalogue.read(name)
            continue
        assert list(got.columns) == catalogue.table(name).column_names, attr
        text = [c.name for c in catalogue.table(name).columns if c.dtype is str]
        assert not got[text].isna().any().any(), f"{attr}: text columns hold NaN (empty should be '')"
        assert getattr(ctx, attr) is got  # read once
    assert pd.api.types.is_float_dtype(ctx.pred["estimate"])


def test_what_each_configuration_carried_from_records_with_untestable_figures_marked(context_params):
    """Page 1's capability table: one row per tested configuration; every cell's IOPS is a record
    it names; AccelStor's boot storm shows its host write peak (> 22,000, ACCS-0139), not the
    5,500 of its login; a utilization the claims table rates not testable says so and is never
    'at a limit'."""
    from vdi_report.report.sections import answers

    ctx = Context(context_params)
    t = answers.capability_table(ctx)
    cap = pd.DataFrame(ctx.sizing_inputs["capability"])
    assert len(t) == len(cap[["source_id", "configuration"]].drop_duplicates())
    acc = t[t["Array"].str.startswith("AccelStor")].iloc[0]
    assert acc["Boot storm (apart)"].startswith("≥ 22,000 IOPS") and "(ACCS-0139)" in acc["Boot storm (apart)"]
    assert "ACCS-0125" in acc["Provisioning; back end (apart)"]
    for col in t.columns[2:]:
        for cell in t[col]:
            if "not testable" in cell:
                assert "at a limit" not in cell, cell
            if "IOPS" in cell:
                assert any(f"({r})" in cell for r in " ".join(cap["record_ids"]).split()), cell


def test_a_planning_figure_from_one_clone_type_says_so(context_params):
    """A seed planning row whose documents all tested one clone type, while other seed documents
    tested another, says so in its estimate cell (I/O per boot from full clones is not a
    linked-clone figure)."""
    from vdi_report.report.sections import answers
    from vdi_report.report.tables import CLONE_LABELS

    ctx = Context(context_params)
    table = answers.planning_table(ctx)
    order = {ph: i for i, ph in enumerate(ctx.vocabulary_order("phase"))}
    plan = ctx.plan.assign(_o=ctx.plan["phase"].map(order)).sort_values(["_o", "statistic"], kind="stable")
    cells = list(plan.drop_duplicates("cell")["cell"])  # the page-1 table has one line per cell, in this order
    assert len(table) == len(cells)
    clones = dict(zip(ctx.seeds["vendor"], ctx.seeds["clone_type"]))
    for _, r in plan[plan["era"] == "seed"].iterrows():
        cell = table["Seed"].iloc[cells.index(r["cell"])]
        behind = {clones[v] for v in r["vendors"].split(", ") if v in clones}
        single = len(behind) == 1 and set(clones.values()) - behind
        assert (f"{CLONE_LABELS[next(iter(behind))]} only" in cell) == bool(single), (r["statistic"], cell)


def test_sensitivity_names_the_choices_that_move_no_planning_figure(pdf_text, processed):
    """The chapter says which choices leave every planning figure as it is (computed from
    sensitivity.csv), so an empty tornado row reads as a finding, not as a fault."""
    import re

    from vdi_report.models import sensitivity
    from vdi_report.raw import choices

    decl = choices.declared()
    rank = sensitivity.ranking(processed("sensitivity"))
    still = rank["max_abs_change"].fillna(0).abs() < 1e-12
    moves_interval = rank["max_abs_interval_change"].fillna(0).abs() >= 1e-12  # named apart (e.g. tau2_source)
    none = {decl.label[c] for c in rank.loc[still & ~moves_interval, "choice_id"]}
    text = re.sub(r"\s+", " ", pdf_text)
    m = re.search(r"(\d+) choices? moves? no planning figure \((.*?)\): the planning rows pool", text)
    assert m, "the sentence is missing"
    assert int(m.group(1)) == len(none) and all(label in m.group(2) for label in none), (m.group(0), none)
    moved = set(decl.label.values()) - none
    assert not any(label in m.group(2) for label in moved)


def test_specification_curve_gives_this_reports_value_in_every_row(context_params):
    """Table 'Specification curve': every "This report" cell is a number (it said "see Table" in
    5 of 9 rows: the planning rows are knowledge-worker rows, the lookup read only class any)."""
    from vdi_report.report.sections import sensitivity

    ctx = Context(context_params)
    t = sensitivity.curve_table(ctx)
    assert len(t) and not t["This report"].str.contains("see", case=False).any()
    here = sensitivity.this_report_rows(ctx).set_index(["era", "phase", "statistic"])["estimate"]
    plan = ctx.plan[ctx.plan["worker_class"].isin(["any", "knowledge"])]
    for _, r in plan.drop_duplicates(["era", "phase", "statistic"]).iterrows():
        assert here[(r["era"], r["phase"], r["statistic"])] == pytest.approx(r["estimate"], nan_ok=True)


def test_sensitivity_chapter_says_which_choices_move_the_rows_page_one_reads(context_params, pdf_text):
    from vdi_report.models import sensitivity as sens_model
    from vdi_report.report.sections import sensitivity

    ctx = Context(context_params)
    movers = sens_model.row_movers(ctx.sensitivity, ctx.params["era"])
    rows = movers.drop_duplicates(["phase", "statistic"])
    assert len(rows) == len(ctx.plan[ctx.plan["era"] == ctx.params["era"]].drop_duplicates(["phase", "statistic"]))
    table = sensitivity.answer_movers(ctx)
    assert len(table) == len(movers)
    assert "What moves the answer." in " ".join(pdf_text.split())


INTERNAL_ID = re.compile(r"\b(?:of test|test) [a-z0-9]+_[a-z0-9_]+|\bvsibase\b|\b[a-z]+_[a-z]+_?[a-z]* of test\b")


def test_audit_chapter_for_reviewers_order_plain_words_and_each_document(context_params, pdf_text):
    """Issue 26: the chapter gives first the register entries that change a number (which, by how
    much), then the claims with their verdicts as a table, then the checks per rule in plain words
    (no internal ids such as "vsibase of test knowledge_login"), per document with each Nutanix
    document apart, then what the checks read; the full lists are in the appendix."""
    from vdi_report.report import audit_tables

    text = " ".join(pdf_text.split())
    start = text.index("Register entries that change a number this report uses")
    end = text.index("Appendix", text.index("What the checks read, and how it was collected", start))
    audit = text[start:end]
    order = [
        audit.index("Register entries that change a number this report uses"),
        audit.index("Headline claims and their verdicts"),
        audit.index("What the automated checks found, check by check"),
        audit.index("What the checks read, and how it was collected"),
    ]
    assert order == sorted(order)
    assert not INTERNAL_ID.search(audit), INTERNAL_ID.search(audit).group(0)
    ctx = Context(context_params)
    counts = audit_tables.findings_by_document(ctx.findings, ctx.sources)
    nutanix = [d for d in counts["Document"] if d.startswith("Nutanix")]
    assert len(nutanix) == (ctx.sources["vendor"] == "Nutanix").sum() >= 3
    effects = audit_tables.register_effects(ctx.register, ctx.results, ctx.sources, audit_tables.PlainWords(ctx.tests))
    # D-ACCS-05 sets aside AccelStor's 3,900 power steady-state total for Table 15's 3.6K: -7.7 %
    acc = effects[effects["Entry"].str.startswith("D-ACCS-05") & effects["Set aside"].str.startswith("3,900")]
    assert len(acc) and acc["Used instead"].iloc[0].startswith("3,600") and acc["Change (derived)"].iloc[0] == "-8 %"
    claims = audit_tables.claims_verdicts(ctx.claims, ctx.sources)
    assert len(claims) == len(ctx.claims) and set(claims["Verdict"]) <= set(audit_tables.VERDICT_ORDER)
