"""Tests of the models (issue 6): synthetic recovery, hand calculations from specific records,
leave-one-vendor-out isolation, scenario parameters and their validation."""

import numpy as np
import pandas as pd
import pytest

from vdi_report import catalogue, config
from vdi_report.models import cost, density, iops

TRUE = {"login peak": 2.5, "steady_state average": 1.7, "login_and_steady_state average": 1.5, "workload": 0.9}


def synthetic(sd=0.05, seed=1):
    rng = np.random.default_rng(seed)
    rows = []
    for v in ("A", "B", "C", "D"):
        for (ph, st), cell in iops.CELLS.items():
            for w in (-0.35, -0.05, 0.0, 0.24):
                mu = TRUE[cell] + TRUE["workload"] * w
                rows.append(
                    {
                        "vendor": v,
                        "cell": cell,
                        "phase": ph,
                        "statistic": st,
                        "workload": w,
                        "vantage": "host",
                        "worker_class": f"w{w}",
                        "record_ids": "",
                        "log_iops": mu + rng.normal(0, sd),
                    }
                )
    d = pd.DataFrame(rows)
    d["log_iops_vsi"] = d["log_iops"] - d["workload"]
    d["iops_per_desktop"] = np.exp(d["log_iops"])
    return d


def test_workload_model_recovers_known_coefficients():
    c = iops.coefficients(iops.fit(synthetic(), "workload")).set_index("term")
    for cell in iops.CELL_ORDER:
        assert c.at[f"cell[{cell}]", "coef"] == pytest.approx(TRUE[cell], abs=0.05), cell
    assert c.at["workload", "coef"] == pytest.approx(TRUE["workload"], abs=0.1)
    assert (c["ci95_low"] < c["coef"]).all() and (c["coef"] < c["ci95_high"]).all()


def test_prediction_interval_covers_about_90_percent_of_new_data():
    m = iops.fit(synthetic(sd=0.3, seed=2), "workload")
    new = synthetic(sd=0.3, seed=3)
    p = m.predict(new)
    inside = ((new["iops_per_desktop"] >= p["pi90_low"]) & (new["iops_per_desktop"] <= p["pi90_high"])).mean()
    assert 0.8 <= inside <= 0.97


def test_offset_spec_adds_the_workload_back():
    d = synthetic()
    d["log_iops"] = d["log_iops"] - TRUE["workload"] * d["workload"] + d["workload"]  # slope exactly 1
    d["log_iops_vsi"] = d["log_iops"] - d["workload"]
    d["iops_per_desktop"] = np.exp(d["log_iops"])
    p = iops.fit(d, "vsi_offset").predict(d)
    assert np.allclose(np.log(p["estimate"]), d["log_iops"], atol=0.2)


def test_unknown_spec_and_too_few_observations_raise():
    with pytest.raises(ValueError, match="unknown model spec"):
        iops.fit(synthetic(), "nonsense")
    with pytest.raises(ValueError, match="observations cannot fit"):
        iops.fit(synthetic().head(2), "workload")


def test_choose_spec_prefers_more_predictions_then_lower_error():
    specs = pd.DataFrame(
        {"spec": ["a", "b", "c"], "n_predicted": [3, 5, 5], "rmse_log": [0.1, 0.9, 0.5], "aic": [1.0, 2.0, 3.0]}
    )
    assert iops.choose_spec(specs) == "c"
    with pytest.raises(ValueError, match="no model specification"):
        iops.choose_spec(pd.DataFrame({"spec": ["a"], "n_predicted": [0], "rmse_log": [np.nan], "aic": [np.nan]}))


def test_cv_on_synthetic_data_has_small_error():
    s = iops.cv_summary(iops.leave_one_vendor_out(synthetic(), "workload"))
    assert s["n_predicted"] == s["n"] and s["rmse_log"] < 0.1


def test_one_vendor_has_no_leave_one_vendor_out_fold():
    """With one vendor left (choice front_end_vantage = array_only keeps NetApp alone) nothing can
    be trained without it: no rows, the declared columns (a row with an empty trained_on once
    stopped the model stage)."""
    one = synthetic()
    one = one[one["vendor"] == "A"]
    cv = iops.leave_one_vendor_out(one, "pooled")
    assert cv.empty and list(cv.columns) == catalogue.table("iops_model_cv").column_names
    by_vendor = iops.cv_by_vendor(cv)
    assert by_vendor.empty and list(by_vendor.columns) == catalogue.table("iops_model_cv_by_vendor").column_names
    two = iops.leave_one_vendor_out(synthetic()[lambda d: d["vendor"].isin(["A", "B"])], "pooled")
    assert set(two["trained_on"]) == {"A", "B"}


def test_unknown_headroom_turns_a_scaling_maximum_into_an_upper_bound():
    row = {
        "peak_max": 1724.0,
        "peak_bound": "eq",
        "peak_basis": "array controller CPU, login (R-1)",
        "average_max": 2000.0,
        "average_bound": "gt",
        "average_basis": "MPU, login (R-2)",
        "peak_failover_max": 580.0,
        "peak_failover_bound": "limit",
        "peak_failover_basis": "limit reached",
    }
    density._unknown_headroom(row, ["disk busy (FMD)"])
    assert (
        row["peak_max"] == 1724.0 and row["peak_bound"] == "lt" and "headroom of disk busy (FMD)" in row["peak_basis"]
    )
    assert pd.isna(row["average_max"]) and row["average_basis"].startswith("not determined")
    assert row["peak_failover_bound"] == "limit" and row["peak_failover_max"] == 580.0  # a reached limit stays
    untouched = {"peak_max": 1724.0, "peak_bound": "eq", "peak_basis": "b"}
    density._unknown_headroom(untouched, [])
    assert untouched == {"peak_max": 1724.0, "peak_bound": "eq", "peak_basis": "b"}


def test_assumptions_file_is_validated(tmp_path):
    good = cost.load_assumptions(config.RAW_DIR / "cost_assumptions.csv")
    assert set(cost.REQUIRED) <= set(good["name"]) and (good["scope"].str.len() > 0).all()
    bad = good.copy()
    bad.loc[0, "low"] = bad.loc[0, "value"] + 1
    p = tmp_path / "a.csv"
    bad.to_csv(p, index=False)
    with pytest.raises(ValueError, match="line 2: .*low <= value <= high"):
        cost.load_assumptions(p)
    good.drop(columns="scope").to_csv(p, index=False)
    with pytest.raises(ValueError, match="missing column"):
        cost.load_assumptions(p)
    good.assign(scope="").to_csv(p, index=False)
    with pytest.raises(ValueError, match="empty scope"):
        cost.load_assumptions(p)


def test_derived_totals_sum_read_and_write_with_honest_bounds():
    base = {
        "source_id": "x",
        "test_id": "t",
        "phase": "login",
        "vantage": "array_frontend",
        "condition": "normal",
        "variant": "",
        "configuration": "",
        "worker_class": "knowledge",
        "desktops": 100.0,
        "used_in_analysis": True,
        "bound": "eq",
    }
    rows = [
        {**base, "record_id": f"X-{i}", "metric": m, "statistic": st, "value": v}
        for i, (m, st, v) in enumerate(
            [
                ("read_iops", "average", 1000),
                ("write_iops", "average", 3000),
                ("read_iops", "peak", 2000),
                ("write_iops", "peak", 5000),
            ]
        )
    ]
    d = iops.derived_totals(pd.DataFrame(rows)).set_index("statistic")
    assert (
        d.at["average", "value"] == 4000 and d.at["average", "per_desktop"] == 40 and d.at["average", "bound"] == "eq"
    )
    assert d.at["peak", "bound"] == "lt"  # separate peaks need not coincide: their sum bounds the total peak from above
    with_total = pd.DataFrame(
        rows + [{**base, "record_id": "X-9", "metric": "iops", "statistic": "average", "value": 4100}]
    )
    assert set(iops.derived_totals(with_total)["statistic"]) == {"peak"}  # a reported total wins


def test_what_prepare_keeps_answers_only_for_its_own_table():
    """The read + write sums and weights ``iops.prepare`` keeps for the sensitivity grid answer
    for that very table, never for another one (equal, or made later at a freed table's
    address), and are dropped when it is freed."""
    import gc
    import importlib

    obs = importlib.import_module("vdi_report.models.iops.observations")
    table, twin = pd.DataFrame({"x": [1.0]}), pd.DataFrame({"x": [1.0]})
    obs._keep(table, True, "sums of table")
    assert obs._prepared(table, True) == "sums of table"
    assert obs._prepared(table, False) is None and obs._prepared(twin, True) is None
    key = (id(table), True)
    del table
    gc.collect()
    assert key not in obs._SUMS
