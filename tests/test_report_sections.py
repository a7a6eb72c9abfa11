"""The report's data access (``report.context.Context``): every table a section reads is a
catalogue table, read through the catalogue with its types; an unknown attribute is an error."""

import pandas as pd
import pytest

from vdi_report import catalogue
from vdi_report.report.context import TABLES, Context

PARAMS = {
    "desktops": 2000,
    "worker_class": "knowledge",
    "concurrency": 1.0,
    "headroom": 0.2,
    "boot_window_min": 30,
    "raid": "none",
    "failover": "none",
    "report_date": "2026-01-01",
    "cost_file": "",
}


@pytest.mark.unit
def test_every_context_table_is_a_catalogue_table():
    names = {t.name for t in catalogue._TABLES}
    assert set(TABLES.values()) <= names


@pytest.mark.unit
def test_an_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'predictions'"):
        _ = Context(dict(PARAMS)).predictions


@pytest.mark.unit
def test_a_bad_parameter_stops_the_context():
    with pytest.raises(ValueError, match="raid"):
        Context(dict(PARAMS, raid="raid4"))


@pytest.mark.report
def test_context_tables_come_typed_from_the_catalogue():
    ctx = Context(dict(PARAMS))
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


@pytest.mark.report
def test_what_each_array_carried_names_vantage_and_leaves_out_untestable_figures():
    """Page 1's Table 2: a utilization whose statement the claims table rates not testable is not
    the busiest resource; every latency cell names where it was measured."""
    from vdi_report.report.sections import answers
    from vdi_report.report.tables import VANTAGE_LABELS, fmt_value

    ctx = Context(dict(PARAMS))
    t = answers.carried_table(ctx)
    assert list(t["Vendor"]) == list(ctx.seeds["vendor"])
    untestable = ctx.density[ctx.density["claim_id"] != ""]
    assert len(untestable), "the data should hold a utilization rated not testable (else this test checks nothing)"
    for _, u in untestable.iterrows():
        shown = f"{u['resource']} {fmt_value(u['utilization_pct'], '%', u['bound'])}"
        assert not t["Busiest resource at peak (reported)"].str.startswith(shown).any(), shown
    for cell in t["Steady-state average latency (reported)"]:
        assert cell == "–" or any(
            f"{label})" in cell or f"{label}" in cell for label in VANTAGE_LABELS.values() if label
        )


@pytest.mark.report
def test_a_planning_figure_from_one_clone_type_says_so():
    """A planning row whose documents all tested one clone type, while other seed documents tested
    another, says so in its estimate cell (I/O per boot from full clones is not a linked-clone figure)."""
    from vdi_report.report.sections import answers
    from vdi_report.report.tables import CLONE_LABELS

    ctx = Context(dict(PARAMS))
    table = answers.planning_table(ctx)
    clones = dict(zip(ctx.seeds["vendor"], ctx.seeds["clone_type"]))
    rows = ctx.pred.loc[table.index]
    for (_, r), cell in zip(rows.iterrows(), table["Estimate (interval)"]):
        behind = {clones[v] for v in r["vendors"].split(", ") if v in clones}
        single = len(behind) == 1 and set(clones.values()) - behind
        assert (f"{CLONE_LABELS[next(iter(behind))]} only" in cell) == bool(single), (r["statistic"], cell)
