"""Tests of the models (issue 6): synthetic recovery, hand calculations from specific records,
leave-one-vendor-out isolation, scenario parameters and their validation."""

import math

import numpy as np
import pandas as pd
import pytest

from vdi_report import config, normalize
from vdi_report.models import cost, density, iops, scenario

RESULTS = config.PROCESSED_DIR / "results.csv"


@pytest.fixture(scope="module")
def results():
    if not RESULTS.exists():
        pytest.skip("data/processed/results.csv missing: run `make data`")
    return normalize.read_normalized(RESULTS)


@pytest.fixture(scope="module")
def pred(results):
    return iops.predict_grid(iops.fit(iops.observations(results), "pooled"), results)


# --- the model recovers known coefficients -------------------------------------------------

TRUE = {"login peak": 2.5, "steady_state average": 1.7, "login_and_steady_state average": 1.5, "workload": 0.9}


def synthetic(sd=0.05, seed=1):
    rng = np.random.default_rng(seed)
    rows = []
    for v in ("A", "B", "C", "D"):
        for (ph, st), cell in iops.CELLS.items():
            for w in (-0.35, -0.05, 0.0, 0.24):
                mu = TRUE[cell] + TRUE["workload"] * w
                rows.append({"vendor": v, "cell": cell, "phase": ph, "statistic": st, "workload": w, "vantage": "host",
                             "worker_class": f"w{w}", "record_ids": "", "log_iops": mu + rng.normal(0, sd)})
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
    specs = pd.DataFrame({"spec": ["a", "b", "c"], "n_predicted": [3, 5, 5], "rmse_log": [0.1, 0.9, 0.5], "aic": [1.0, 2.0, 3.0]})
    assert iops.choose_spec(specs) == "c"
    with pytest.raises(ValueError, match="no model specification"):
        iops.choose_spec(pd.DataFrame({"spec": ["a"], "n_predicted": [0], "rmse_log": [np.nan], "aic": [np.nan]}))


# --- per-desktop figures against hand calculations --------------------------------------

def _cand(results, record_id):
    c = iops.candidate_records(results)
    return c[c["record_id"] == record_id].iloc[0]


@pytest.mark.parametrize("record_id, expected", [
    ("NTAP-0014", 31088 / 1500),    # NetApp Monday login peak, 1,500 desktops
    ("NTAP-0096", 9865 / 1500),     # NetApp Monday login test average
    ("DELL-0064", 216000 / 5000),   # Dell login peak, 5,000 desktops
    ("ACCS-0180", 4000 / 500),      # AccelStor knowledge login peak (host), 500 desktops
    ("HDS-0216", 41021 / 580),      # Hitachi config1 boot peak: pooled, all 580 desktops
])
def test_per_desktop_figures_match_hand_calculation(results, record_id, expected):
    assert _cand(results, record_id)["iops_per_desktop"] == pytest.approx(expected, rel=1e-9)


def test_semantics_keep_unlike_figures_apart(results):
    c = iops.candidate_records(results).set_index("record_id")
    # Hitachi's per-desktop figures are samples of four representative desktops (HDS-0252/HDS-0256)
    assert c.at["HDS-0257", "aggregation"] == "single_desktop" and c.at["HDS-0257", "reason"].startswith("single-desktop peak")
    assert c.at["HDS-0259", "aggregation"] == "single_desktop" and c.at["HDS-0259", "reason"] == ""   # an average: kept
    # the average of a whole login + steady-state test is its own cell, never a steady-state average
    assert c.at["NTAP-0096", "window"] == "test" and c.at["NTAP-0096", "cell"] == "login_and_steady_state average"
    assert c.at["NTAP-0014", "cell"] == "login peak"
    # Dell's 40-IOPS-per-desktop workload is boosted (sources.csv workload), Hitachi's pooled login too
    assert c.at["DELL-0064", "load"] == "boosted" and c.at["DELL-0064", "reason"].startswith("boosted")
    assert c.at["HDS-0260", "load"] == "boosted"
    # boot storms are left to the boot-rate model
    assert c.at["NTAP-0006", "reason"].startswith("boot storm")


def test_exclusions_table_lists_every_unused_record_with_a_reason(results):
    e = iops.exclusions(results)
    used = set(" ".join(iops.observations(results)["record_ids"]).split())
    assert len(e) and (e["reason"] != "").all() and not used & set(e["record_id"])


def test_bounded_values_are_excluded_unless_asked(results):
    lt_gt = iops.candidate_records(results).query("bound in ['lt', 'gt'] and reason == ''")["record_id"]
    main = " ".join(iops.observations(results)["record_ids"])
    assert not any(r in main.split() for r in lt_gt)


# --- leave-one-vendor-out never trains on the vendor it predicts -------------------------

def test_cv_never_trains_on_the_held_out_vendor(results, monkeypatch):
    obs = iops.observations(results)
    seen = []
    real_fit = iops.fit

    def spy(train, *a, **kw):
        seen.append(set(train["vendor"]))
        return real_fit(train, *a, **kw)

    monkeypatch.setattr(iops, "fit", spy)
    cv = iops.leave_one_vendor_out(obs)
    vendors = sorted(obs["vendor"].unique())
    assert len(seen) == len(vendors)
    for held_out, trained in zip(vendors, seen):
        assert held_out not in trained and trained == set(vendors) - {held_out}
    for _, r in cv.iterrows():
        assert r["held_out"] not in r["trained_on"].split(";")


def test_cv_on_synthetic_data_has_small_error():
    s = iops.cv_summary(iops.leave_one_vendor_out(synthetic(), "workload"))
    assert s["n_predicted"] == s["n"] and s["rmse_log"] < 0.1


# --- model table: pooled where the class cannot be separated -------------------------------

def test_chosen_model_pools_worker_classes(results, pred):
    specs = iops.compare_specs(iops.observations(results))
    assert iops.choose_spec(specs) == "pooled"
    assert set(pred["worker_class"]) == {"any"}
    for cell in iops.CELL_ORDER:
        r = pred[pred["cell"] == cell].iloc[0]
        assert r["pi90_low"] < r["estimate"] < r["pi90_high"]


def test_cv_by_vendor_reports_each_vendor_without_a_pooled_row(results):
    obs = iops.observations(results)
    t = iops.cv_by_vendor(iops.leave_one_vendor_out(obs, "pooled"))
    assert sorted(t["held_out"]) == sorted(obs["vendor"].unique())
    p = t[t["n_predicted"] > 0]
    assert (p["sharpness"] >= 1).all() and ((p["coverage"] >= 0) & (p["coverage"] <= 1)).all()


def test_external_check_is_empty_or_labelled(results):
    obs = iops.observations(results)
    ext = iops.external_check(results, iops.fit(obs, "pooled"))
    assert {"broker", "load_tool", "platform", "ratio", "covered"} <= set(ext.columns)
    assert not set(ext["source_id"]) & set(obs["source_id"])  # never the seeds


# --- density and cost: hand calculations ---------------------------------------------------

def test_density_scaling_law_netapp_boot(results):
    d = density.max_desktops(density.utilization(results)).set_index("record_id")
    assert d.at["NTAP-0084", "max_desktops"] == pytest.approx(1500 * 100 / 58)        # average 58 %
    assert d.at["NTAP-0084", "max_desktops_failover"] == pytest.approx(1500 * 100 / 58 / 2)
    assert d.at["NTAP-0092", "max_desktops_failover"] == pytest.approx(1500 * 100 / 82)  # measured failover
    assert d.at["NTAP-0083", "saturated"] and d.at["NTAP-0083", "max_bound"] == "lt"     # 100 % peak: at most 1,500


def test_density_lower_bound_from_less_than(results):
    d = density.max_desktops(density.utilization(results)).set_index("record_id")
    assert d.at["HDS-0223", "max_bound"] == "gt" and d.at["HDS-0223", "max_desktops"] == pytest.approx(580 * 100 / 27)


def test_implied_price_and_hitachi_saving(results):
    a = cost.load_assumptions()
    c = cost.vendor_claims(results, a).set_index("record_id")
    assert c.at["NTAP-0258", "implied_price_usd"] == pytest.approx(39 * 2666)
    assert pd.isna(c.at["NTAP-0253", "implied_price_usd"])  # AFF A200: no density, nothing implied
    drives = cost.hitachi_drives(results).set_index("configuration")
    assert drives.loc["config2", ["fmd", "hdd"]].tolist() == [4, 20]
    s = cost.hitachi_saving(drives.reset_index(), 0.0)
    assert s["claimed_fmd_only"] == pytest.approx(0.75) and s["with_hdds"] == pytest.approx(0.75)
    s = cost.hitachi_saving(drives.reset_index(), 0.15)
    assert s["with_hdds"] == pytest.approx(1 - (4 + 0.15 * 20) / 16) and s["break_even_ratio"] == pytest.approx(0.6)


def test_assumptions_file_is_validated(tmp_path):
    good = cost.load_assumptions()
    assert set(cost.REQUIRED) <= set(good["name"]) and (good["source_or_rationale"].str.len() > 0).all()
    bad = good.copy()
    bad.loc[0, "low"] = bad.loc[0, "value"] + 1
    p = tmp_path / "a.csv"
    bad.to_csv(p, index=False)
    with pytest.raises(ValueError, match="low <= value <= high"):
        cost.load_assumptions(p)
    good.drop(columns="basis").to_csv(p, index=False)
    with pytest.raises(ValueError, match="missing column"):
        cost.load_assumptions(p)


def test_io_profile_hand_calculation(results):
    p = iops.io_profile(results).set_index(["vendor", "test_id", "statistic", "vantage"])
    assert p.at[("NetApp", "boot", "peak", "array_frontend"), "kb_per_io"] == pytest.approx(3082e6 / 117752 / 1024)
    assert p.at[("Dell EMC", "boot", "peak", "array_frontend"), "kb_per_io"] == pytest.approx(12500e6 / 125000 / 1024)
    assert p.at[("AccelStor", "boot", "average", "host"), "read_share"] == pytest.approx(11700 / (11700 + 9400))
