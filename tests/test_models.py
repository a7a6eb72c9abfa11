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
    return iops.predict_grid(iops.fit(iops.observations(results)), results)


# --- the model recovers known coefficients -------------------------------------------------

TRUE = {"Intercept": 4.0, "login": -1.5, "steady_state": -1.7, "average": -0.8, "workload": 0.9}


def synthetic(sd=0.05, seed=1):
    rng = np.random.default_rng(seed)
    rows = []
    for v in ("A", "B", "C", "D"):
        for ph in iops.PHASES:
            for st in iops.STATISTICS:
                for w in (-0.35, -0.05, 0.0, 0.24):
                    mu = TRUE["Intercept"] + TRUE.get(ph, 0) + TRUE.get(st, 0) + TRUE["workload"] * w
                    rows.append({"vendor": v, "phase": ph, "statistic": st, "workload": w, "vantage": "host",
                                 "worker_class": f"w{w}", "record_ids": "",
                                 "log_iops": mu + rng.normal(0, sd)})
    d = pd.DataFrame(rows)
    d["log_iops_vsi"] = d["log_iops"] - d["workload"]
    d["iops_per_desktop"] = np.exp(d["log_iops"])
    return d


def test_additive_model_recovers_known_coefficients():
    c = iops.coefficients(iops.fit(synthetic(), "additive")).set_index("term")
    got = {"Intercept": c.at["Intercept", "coef"], "login": c.at["phase[T.login]", "coef"],
           "steady_state": c.at["phase[T.steady_state]", "coef"], "average": c.at["statistic[T.average]", "coef"],
           "workload": c.at["workload", "coef"]}
    for k, v in TRUE.items():
        assert got[k] == pytest.approx(v, abs=0.05), k
    assert (c["ci95_low"] < c["coef"]).all() and (c["coef"] < c["ci95_high"]).all()


def test_prediction_interval_covers_about_90_percent_of_new_data():
    m = iops.fit(synthetic(sd=0.3, seed=2), "additive")
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
        iops.fit(synthetic().head(2), "additive")


# --- per-desktop figures against hand calculations --------------------------------------

def _cand(results, record_id):
    c = iops.candidate_records(results)
    return c[c["record_id"] == record_id].iloc[0]


@pytest.mark.parametrize("record_id, expected", [
    ("NTAP-0006", 117752 / 1500),   # NetApp boot storm peak, 1,500 desktops
    ("NTAP-0080", 57231 / 1500),    # NetApp boot storm average
    ("DELL-0064", 216000 / 5000),   # Dell login peak, 5,000 desktops
    ("ACCS-0252", 21100 / 500),     # AccelStor boot average (host), 500 desktops
    ("HDS-0216", 41021 / 580),      # Hitachi config1 boot peak: pooled, all 580 desktops
])
def test_per_desktop_figures_match_hand_calculation(results, record_id, expected):
    assert _cand(results, record_id)["iops_per_desktop"] == pytest.approx(expected, rel=1e-9)


def test_hitachi_pool_is_never_divided_by_one_user_type(results):
    c = iops.candidate_records(results)
    pooled = c[(c["source_id"] == "hitachi_g600") & (c["worker_class"] == "mixed") & (c["metric"] == "iops")]
    assert len(pooled) and (pooled["desktops"] == 580).all()
    assert (pooled.loc[pooled["model_phase"] != "boot", "reason"] != "").all()  # pooled login: not in the fit


def test_hitachi_boot_observation_is_geometric_mean_of_configurations(results):
    o = iops.observations(results)
    h = o[(o["source_id"] == "hitachi_g600") & (o["phase"] == "boot") & (o["statistic"] == "peak")].iloc[0]
    expected = math.exp(np.mean(np.log([41021 / 580, 42692 / 580, 42013 / 580])))
    assert h["iops_per_desktop"] == pytest.approx(expected, rel=1e-6)


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
    s = iops.cv_summary(iops.leave_one_vendor_out(synthetic()))
    assert s["n_predicted"] == s["n"] and s["rmse_log"] < 0.1


# --- model table covers the required cells ------------------------------------------------

def test_model_table_covers_phases_classes_statistics(pred):
    for ph in ("boot", "login", "steady_state"):
        for wc in ("task", "knowledge", "power"):
            for st in ("peak", "average"):
                r = pred[(pred["phase"] == ph) & (pred["worker_class"] == wc) & (pred["statistic"] == st)]
                assert len(r) == 1 and r["pi90_low"].iloc[0] < r["estimate"].iloc[0] < r["pi90_high"].iloc[0]


# --- scenario: parameters change the output; invalid parameters fail clearly -------------

def test_scenario_scales_with_desktops_and_headroom(pred):
    a = scenario.required_iops(pred, 2000, "knowledge", 0.2)
    b = scenario.required_iops(pred, 3000, "knowledge", 0.2)
    c = scenario.required_iops(pred, 2000, "knowledge", 0.5)
    assert np.allclose(b["required"] / a["required"], 1.5)
    assert np.allclose(c["required"] / a["required"], 0.8 / 0.5)


def test_scenario_changes_with_worker_class(pred):
    t = scenario.required_iops(pred, 2000, "task", 0.2).set_index(["phase", "statistic"])
    p = scenario.required_iops(pred, 2000, "power", 0.2).set_index(["phase", "statistic"])
    assert not np.isclose(t.loc[("login", "peak"), "required"], p.loc[("login", "peak"), "required"])
    assert np.isclose(t.loc[("boot", "peak"), "required"], p.loc[("boot", "peak"), "required"])  # boot: no class effect


def test_scenario_coverage_changes_with_desktops(results, pred):
    cap = scenario.capacity(results)
    small = scenario.coverage(scenario.required_iops(pred, 100, "knowledge", 0.2), cap)
    large = scenario.coverage(scenario.required_iops(pred, 100000, "knowledge", 0.2), cap)
    assert (small["margin"] > large["margin"]).all()
    assert (large["verdict"] == "does not cover").all()


@pytest.mark.parametrize("args, message", [
    ((-5, "knowledge", 0.2), "desktops must be a positive whole number"),
    ((0, "knowledge", 0.2), "desktops must be a positive whole number"),
    ((2.5, "knowledge", 0.2), "desktops must be a positive whole number"),
    (("many", "knowledge", 0.2), "desktops must be a positive whole number"),
    ((100, "wizard", 0.2), "unknown worker_class 'wizard'"),
    ((100, "extreme_power", 0.2), "unknown worker_class"),
    ((100, "task", 1.0), "headroom must be a fraction in \\[0, 1\\)"),
    ((100, "task", -0.1), "headroom must be a fraction"),
    ((100, "task", float("nan")), "headroom must be a fraction"),
])
def test_invalid_scenario_parameters_raise_clear_errors(args, message):
    with pytest.raises(ValueError, match=message):
        scenario.validate(*args)


def test_valid_parameters_are_typed():
    assert scenario.validate("3000", "power", "0.25") == (3000, "power", 0.25)


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


def test_cost_assumption_changes_the_scenario_cost(results, pred):
    a = cost.load_assumptions()
    claims = cost.vendor_claims(results, a)
    cov = scenario.coverage(scenario.required_iops(pred, 2000, "knowledge", 0.2), scenario.capacity(results))
    base = scenario.cost_range(cov, claims, a, 2000)
    a2 = a.copy()
    a2.loc[a2["name"] == "claim_price_factor", "high"] = 3.0
    assert (scenario.cost_range(cov, claims, a2, 2000)["usd_high"] > base["usd_high"]).all()


def test_io_profile_hand_calculation(results):
    p = iops.io_profile(results).set_index(["vendor", "test_id", "statistic", "vantage"])
    assert p.at[("NetApp", "boot", "peak", "array_frontend"), "kb_per_io"] == pytest.approx(3082e6 / 117752 / 1024)
    assert p.at[("Dell EMC", "boot", "peak", "array_frontend"), "kb_per_io"] == pytest.approx(12500e6 / 125000 / 1024)
    assert p.at[("AccelStor", "boot", "average", "host"), "read_share"] == pytest.approx(11700 / (11700 + 9400))
