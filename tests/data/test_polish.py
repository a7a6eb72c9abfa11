"""Reader-facing defects of the report's model chapter and charts (issue: polish): bound
verdicts, the out-of-sample prose, table 13, readable term labels, log-axis ticks, chart titles
that repeat the caption, the boot-demand chart's line extent, and the latency chart's bounds."""

import math

import pytest

from vdi_report.models import boot
from vdi_report.models.scenario_stage import boot_demand_line
from vdi_report.report import charts
from vdi_report.report import model_tables as mtables


def test_coefficient_table_of_the_model_has_no_raw_term_names(processed):
    t = mtables.coefficient_table(processed("iops_model_coefficients"))
    assert not t["Term"].str.contains(r"[\[\]]").any()


def test_per_desktop_chart_has_power_of_ten_ticks_and_no_title(results, vega_nodes):
    spec = charts.per_desktop_iops_chart(results).to_dict()
    assert "title" not in spec
    # the same axis in each layer (marks, bounds, carets)
    found = [x["axis"]["values"] for x in vega_nodes(spec) if isinstance(x.get("axis"), dict) and "values" in x["axis"]]
    assert found and all(v == found[0] for v in found)
    assert all(v > 0 and abs(math.log10(v) % 1) < 1e-9 for v in found[0])


def test_prediction_chart_labels_are_not_truncated_and_no_title(processed):
    pred, obs = processed("iops_per_desktop_model"), processed("iops_model_observations")
    spec = charts.prediction_chart(pred[pred["phase"] != "boot"], obs).to_dict()
    assert "title" not in spec
    labels = (pred["phase"] + " " + pred["statistic"]).str.replace("_", " ") + " · " + pred["worker_class"]
    limits = [
        lay["encoding"]["y"]["axis"]["labelLimit"] for lay in spec["layer"] if "axis" in lay["encoding"].get("y", {})
    ]
    # about 7 px per character at the axis font size (11 px DejaVu Sans)
    assert limits and min(limits) >= 7 * labels.str.len().max()


def test_latency_chart_draws_normal_condition_only_with_open_marks_for_bounds(results):
    d = charts.latency_data(results)
    assert set(d["condition"].fillna("").replace("", "normal")) == {"normal"}
    failover = results[
        (results["metric"] == "latency") & (results["condition"] == "failover") & results["used_in_analysis"]
    ]
    assert not set(failover["record_id"]) & set(d["record_id"])
    spec = charts.latency_chart(results).to_dict()
    assert "title" not in spec
    marks = {lay["mark"].get("filled") for lay in spec["layer"] if lay["mark"].get("type") == "point"}
    assert marks == {True, False}
    assert any(t.get("field") == "vantage" for lay in spec["layer"] for t in lay["encoding"]["tooltip"])
    lt = d[d["bound"] == "lt"]
    assert (lt["shown"].str.startswith("≤ ")).all()


def _line_x(spec, color):
    return [
        r["boot_rate_per_min"]
        for lay in spec["layer"]
        if lay.get("mark", {}).get("type") == "line" and lay["mark"].get("color") == color
        for r in spec["datasets"][lay["data"]["name"]]
    ]


def test_boot_line_stops_at_one_and_a_half_times_the_highest_fitted_rate(seed_boot):
    model, storms = seed_boot
    fitted = boot.fitted_storms(model, storms)
    assert len(fitted) >= 1
    limit = boot.EXTRAPOLATION_FACTOR * fitted["boot_rate_per_min"].max()
    line = boot_demand_line(model, storms, 1.0)  # the scenario stage's line (boot_demand.csv)
    spec = charts.demand_chart(line, storms, scenario_rate=1.0).to_dict()
    assert max(_line_x(spec, "black")) == pytest.approx(limit)
    assert not _line_x(spec, "#666")  # no extrapolated part
    assert boot.EXTRAPOLATED not in str(spec["datasets"])


def test_boot_line_beyond_the_tested_rates_is_labelled_extrapolated(seed_boot):
    model, storms = seed_boot
    limit = boot.EXTRAPOLATION_FACTOR * boot.fitted_storms(model, storms)["boot_rate_per_min"].max()
    line = boot_demand_line(model, storms, 3 * limit)  # the scenario stage's line (boot_demand.csv)
    spec = charts.demand_chart(line, storms, scenario_rate=3 * limit).to_dict()
    assert max(_line_x(spec, "black")) == pytest.approx(limit)
    assert max(_line_x(spec, "#666")) == pytest.approx(3 * limit)
    assert boot.EXTRAPOLATED in str(spec["datasets"])
