"""The boot-demand chart draws the boot storms' bounds as bounds (issue 20, layout: "bounds in
Figure 4 are drawn as ordinary marks")."""

from vdi_report.report import charts


def _caret_rows(spec, vega_nodes):
    """{caret glyph: set of vendors drawn with it}."""
    out = {}
    for x in vega_nodes(spec):
        if isinstance(x.get("mark"), dict) and x["mark"].get("type") == "text" and "text" in x["mark"]:
            rows = spec["datasets"][x["data"]["name"]] if "data" in x else []
            out.setdefault(x["mark"]["text"], set()).update(r["vendor"] for r in rows)
    return out


def test_boot_storm_bounds_have_carets_in_their_direction(seed_boot, vega_nodes):
    model, storms = seed_boot
    from vdi_report.models.scenario_stage import boot_demand_line

    line = boot_demand_line(model, storms, 1.0)  # the scenario stage's line (boot_demand.csv) at rate 1
    spec = charts.demand_chart(line, storms, scenario_rate=1.0).to_dict()
    carets = _caret_rows(spec, vega_nodes)
    rate_gt = (storms["rate_bound"] == "gt").any()
    peak_lt = ((storms["peak_bound"] == "lt") & storms["peak_iops"].notna()).any()
    average_only = (storms["peak_iops"].isna() & storms["average_iops"].notna()).any()
    assert rate_gt and peak_lt and average_only  # the data this test is about
    gt_rate = set(storms.loc[storms["rate_bound"] == "gt", "vendor"])
    lt_peak = set(storms.loc[(storms["peak_bound"] == "lt") & storms["peak_iops"].notna(), "vendor"])
    no_peak = set(storms.loc[storms["peak_iops"].isna() & storms["average_iops"].notna(), "vendor"])
    assert carets["▶"] == gt_rate  # a rate "at least" (a duration "under 6 min")
    assert carets["▼"] == lt_peak  # a peak "up to"
    assert carets["▲"] == no_peak  # an average standing in for a peak: the peak is at least that
