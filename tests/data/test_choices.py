"""Analysis choices applied (one representative record or figure per choice), the sensitivity
table, and a reviewer's run (`make data CHOICES=file`) that re-runs only the model stage and
reproduces the sensitivity rows."""

import itertools

import numpy as np
import pandas as pd
import pytest

from vdi_report import catalogue, config
from vdi_report.models import boot, era, iops, sensitivity
from vdi_report.raw import choices as analysis

DECL = analysis.declared()


def ch(**opts):
    return DECL.defaults().with_options(**opts)


# --- each choice applied (one representative per choice) ---------------------------------------


def _reason(results, record_id, choices, sources_df):
    c = iops.candidate_records(results, choices=choices, sources_df=sources_df).set_index("record_id")
    return c.at[record_id, "reason"]


@pytest.mark.parametrize(
    "choice, option, record_id, default_reason, flipped_reason",
    [
        ("register_resolutions", "ignore", "ACCS-0003", "audit register", "choice total_source"),
        ("front_end_vantage", "array_only", "ACCS-0180", "", "choice front_end_vantage"),
        ("login_variant", "tuesday", "NTAP-0022", "choice login_variant", ""),
        ("sampled_desktop_average", "exclude", "HDS-0259", "", "choice sampled_desktop_average"),
        ("single_desktop_peak", "include", "HDS-0257", "choice single_desktop_peak", ""),
        ("boosted_load", "include", "DELL-0064", "choice boosted_load", ""),
    ],
)
def test_record_selection_choice(results, sources_df, choice, option, record_id, default_reason, flipped_reason):
    got_default = _reason(results, record_id, None, sources_df)
    got = _reason(results, record_id, ch(**{choice: option}), sources_df)
    assert (default_reason in got_default) if default_reason else got_default == ""
    assert (flipped_reason in got) if flipped_reason else got == ""


def test_total_source_uses_the_read_plus_write_sum_wherever_both_are_stated(results, sources_df):
    """D-ACCS-17: prefer the sum of the stated read and write averages; ACCS-0217 (3,200) is a
    stated total of the knowledge steady state whose parts ACCS-0215 + ACCS-0216 sum to 2,896."""
    c = iops.candidate_records(results, sources_df=sources_df).set_index("record_id")
    assert "choice total_source" in c.at["ACCS-0217", "reason"]
    summed = c.loc["ACCS-0200+ACCS-0199"]  # Figure 26's write 2.6K + read 296, the same test
    assert summed["reason"] == "" and summed["iops_per_desktop"] == pytest.approx(2896 / 500)
    # every stated average total with both parts stated is replaced, in every source (one rule everywhere)
    replaced = c[c["reason"].str.contains("choice total_source")]
    assert (replaced["statistic"] == "average").all() and replaced["source_id"].nunique() >= 1
    flipped = iops.candidate_records(results, choices=ch(total_source="stated_total"), sources_df=sources_df).set_index(
        "record_id"
    )
    assert "total_source" not in flipped.at["ACCS-0217", "reason"]
    assert "ACCS-0200+ACCS-0199" not in flipped.index  # a stated total exists: no sum stands in


def test_whole_test_window_choice_moves_the_whole_test_average(results, sources_df):
    c = iops.candidate_records(results, choices=ch(whole_test_window="steady_state"), sources_df=sources_df).set_index(
        "record_id"
    )
    assert c.at["NTAP-0096", "cell"] == "steady_state average"
    assert iops.candidate_records(results, sources_df=sources_df).set_index("record_id").at["NTAP-0096", "cell"] == (
        "login_and_steady_state average"
    )


def test_bounds_and_ranges_choices(results, sources_df):
    mid = iops.observations(results, sources_df=sources_df).set_index("record_ids")
    low = iops.observations(results, choices=ch(approx_point="low"), sources_df=sources_df).set_index("record_ids")
    assert mid.at["HDS-0259", "iops_per_desktop"] == pytest.approx(3.5)  # 'between 3 and 4'
    assert low.at["HDS-0259", "iops_per_desktop"] == pytest.approx(3.0)
    lt_gt = iops.candidate_records(results, sources_df=sources_df).query(
        "bound in ['lt', 'gt'] and reason == '' and role == 'seed'"
    )
    at_bound = " ".join(
        iops.observations(results, choices=ch(bounded_values="at_bound"), sources_df=sources_df)["record_ids"]
    ).split()
    assert set(lt_gt["record_id"]) <= set(at_bound)


def test_boot_pooling_and_estimate_statistic(results, sources_df):
    storms = boot.boot_storms(results, sources_df=sources_df)
    ok = storms[(storms["role"] == "seed") & storms["peak_per_rate_bound"].isin(["eq", "approx"])]
    for pooling, f in (("highest", max), ("lowest", min)):
        m = boot.rate_model(storms, pooling).set_index("statistic")
        assert m.at["peak_per_rate", "estimate"] == pytest.approx(f(ok["peak_iops_per_rate"]))
    # one boot pooling: the path the published table takes (planning_under -> era.boot_rows) gives the same
    # seed boot rows as boot.rate_model, under every option of boot_pooling
    from vdi_report.models import era

    floors, tau2s = era.era_heterogeneity(
        era.document_figures(era.grouped_runs(results, sources_df=sources_df)), storms
    )
    for pooling in boot.POOLINGS:
        plan = sensitivity.planning_under(results, ch(boot_pooling=pooling), sources_df=sources_df).plan
        pub = plan[(plan["era"] == "seed") & (plan["phase"] == "boot")].set_index("statistic")
        m = boot.rate_model(storms, pooling, floors["seed"], tau2s).set_index("statistic")
        for stat in ("peak_per_rate", "io_per_boot"):
            got = m.loc[stat, ["estimate", "pi90_low", "pi90_high"]].to_numpy(dtype=float)
            assert np.allclose(got, pub.loc[stat, ["estimate", "pi90_low", "pi90_high"]].to_numpy(dtype=float))
    model = iops.fit(iops.observations(results, sources_df=sources_df), "pooled")
    med, mean = iops.predict_grid(model, results), iops.predict_grid(model, results, "mean")
    assert np.allclose(mean["estimate"], med["estimate"] * np.exp(model.result.scale / 2))
    assert np.allclose(mean["pi90_high"], med["pi90_high"])  # the interval does not change


def test_provisioning_and_peak_to_average_choices_move_the_modern_rows(results, sources_df):
    """provisioning_pooling: separate (register D-RA2053-02, D-RA2136-02) gives MCS and Provisioning rows;
    pooled one row from both. boot_peak_to_average: documents turns the modern boot lower bound into the
    bound x NetApp's peak-to-average (117,752 / 57,231, NTAP-0006 / NTAP-0080), marked assumed."""
    from vdi_report.models import era

    sep = sensitivity.planning_under(results, sources_df=sources_df).plan
    pooled = sensitivity.planning_under(results, ch(provisioning_pooling="pooled"), sources_df=sources_df).plan
    m = sep[sep["era"] == "modern"]
    assert {"mcs", "pvs"} <= set(m["provisioning"]) and "mcs+pvs" not in set(m["provisioning"])
    assert set(pooled.loc[pooled["era"] == "modern", "provisioning"]) == {"mcs+pvs", "mcs"}  # boot: MCS tests only
    w = {
        k: t[(t["era"] == "modern") & (t["cell"] == era.WHOLE_TEST)].set_index("provisioning")["estimate"]
        for k, t in (("sep", sep), ("pooled", pooled))
    }
    assert w["pooled"]["mcs+pvs"] < w["sep"]["mcs"]  # 34.7 against 35.8: Provisioning's runs pull it down
    # every modern row keeps a read share under either option (the MCS-only boot rows take the pooled
    # group's: a missing one once crashed the sizing's back end, 1 - None)
    for t in (sep, pooled):
        assert t.loc[t["era"] == "modern", "read_share"].notna().all()
    from vdi_report.models import scenario

    inputs = scenario.build_inputs(pooled, scenario.demonstrated(results, sources_df=sources_df))
    assert scenario.size(scenario.validate(2000), inputs)["be_iops"].notna().all()
    pa = sensitivity.planning_under(results, ch(boot_peak_to_average="documents"), sources_df=sources_df).plan
    b0 = sep[(sep["era"] == "modern") & (sep["cell"] == "boot peak per boot rate")].iloc[0]
    b1 = pa[(pa["era"] == "modern") & (pa["cell"] == "boot peak per boot rate")].iloc[0]
    assert b0["bound"] == "gt" and b1["bound"] == "assumed"
    assert b1["estimate"] == pytest.approx(b0["estimate"] * 117752 / 57231)


def test_model_spec_choice_fixes_the_specification(results, sources_df):
    run = sensitivity.planning_under(results, ch(model_spec="workload"), sources_df=sources_df)
    # the fitted model predicts every class (the planning rows by era are knowledge-worker rows, issue 16)
    assert run.spec == "workload" and set(run.pred.loc[run.pred["phase"] != "boot", "worker_class"]) == set(
        config.LOGIN_VSI_CLASSES
    )


# --- every declared option runs (issue 26) ---------------------------------------------------------

EVERY_OPTION = [(cid, opt) for cid in DECL.ids for opt in DECL.options[cid]]  # read from analysis_choices.csv


@pytest.fixture(scope="module")
def memo():
    return {}


@pytest.fixture(scope="module")
def default_modern(results, memo, sources_df):
    plan = sensitivity.model_tables(results, None, memo=memo, sources_df=sources_df)["iops_per_desktop_model"]
    # (phase, statistic) pairs: a choice may split or pool a cell by provisioning, never drop it
    return plan[plan["era"] == "modern"][["phase", "statistic"]].drop_duplicates()


@pytest.mark.parametrize("choice, option", EVERY_OPTION, ids=[f"{c}={o}" for c, o in EVERY_OPTION])
def test_every_option_of_every_choice_builds_the_model_stage(results, memo, default_modern, choice, option, sources_df):
    """Every table of the model stage under every option of every choice in
    data/raw/analysis_choices.csv (new choices are covered as they are declared) matches its
    catalogue entry, and the planning table keeps the rows page 1 reads (every era's rows the
    defaults give). front_end_vantage = array_only once stopped the stage: no model could be
    fitted and the coefficients were written with only ``term``."""
    c = ch(**{choice: option})
    tables = sensitivity.model_tables(results, c, memo=memo, sources_df=sources_df)
    assert set(tables) == set(sensitivity.MODEL_TABLES)
    for name, df in tables.items():
        catalogue.validate(name, df)  # raises TableError naming the column and line
    plan = tables["iops_per_desktop_model"]
    got = plan[plan["era"] == "modern"].merge(default_modern, on=["phase", "statistic"])
    kept = set(zip(got["phase"], got["statistic"]))
    cells = set(zip(default_modern["phase"], default_modern["statistic"]))
    assert kept == cells, f"{choice}={option}: modern rows lost"
    assert got["estimate"].notna().all(), f"{choice}={option}: a modern row without an estimate"
    assert (plan["era"] == "seed").any()


def test_array_only_writes_empty_coefficients_with_their_declared_columns(results, memo, sources_df):
    tables = sensitivity.model_tables(results, ch(front_end_vantage="array_only"), memo=memo, sources_df=sources_df)
    coefs = tables["iops_model_coefficients"]
    assert list(coefs.columns) == catalogue.table("iops_model_coefficients").column_names
    assert coefs.empty  # one document (NetApp) remains: nothing to fit across vendors
    assert tables["iops_model_cv"].empty


@pytest.mark.parametrize("option, seconds", [("mid", 192.0), ("low", 184.0), ("high", 200.0)])
def test_approx_point_reaches_the_boot_duration(results, option, seconds, sources_df):
    """Hitachi's boot took "3 minutes and 4-20 seconds" (HDS-0213, 002:L464): the declared
    default ``approx_point = mid`` puts it at 192 s (it was the short end, 184 s, under every
    option), and the boot rate and peak per rate follow."""
    s = boot.boot_storms(results, approx=option, sources_df=sources_df).set_index("source_id")
    assert s.at["hitachi_g600", "duration_min"] * 60 == pytest.approx(seconds)
    assert s.at["hitachi_g600", "boot_rate_per_min"] == pytest.approx(580 / (seconds / 60))
    plan = sensitivity.planning_under(results, ch(approx_point=option), sources_df=sources_df).storms.set_index(
        "source_id"
    )
    assert plan.at["hitachi_g600", "duration_min"] * 60 == pytest.approx(seconds)


def test_the_built_boot_storms_use_the_declared_default(processed):
    assert processed("boot_storms").set_index("source_id").at["hitachi_g600", "duration_min"] * 60 == pytest.approx(
        192.0
    )


# --- sensitivity.csv -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sens(processed):
    return processed("sensitivity")


def test_sensitivity_has_every_choice_option_and_the_defaults(sens, processed):
    one = sens[sens["kind"] == "one_at_a_time"]
    for cid in DECL.ids:
        assert set(one.loc[one["choice_id"] == cid, "option"]) == set(DECL.options[cid])
    plan = era.sizing_rows(processed("iops_per_desktop_model"))  # sensitivity.csv holds the sizing rows
    default = one[one["specification"] == analysis.DEFAULT_KEY].drop_duplicates(
        ["era", "phase", "worker_class", "statistic"]
    )
    m = plan.merge(default, on=["era", "phase", "worker_class", "statistic"], suffixes=("", "_s"))
    assert len(m) == len(plan)
    assert np.allclose(m["estimate"], m["estimate_s"], equal_nan=True)
    assert np.allclose(m["pi90_high"], m["pi90_high_s"], equal_nan=True)
    joint = [c for c in DECL.ids if DECL.joint[c]]
    n = int(np.prod([len(DECL.options[c]) for c in joint]))
    assert sens.loc[sens["kind"] == "joint", "specification"].nunique() == n
    assert set(sens["era"]) >= {"seed"}


def test_a_reviewers_choices_give_the_matching_sensitivity_rows(results, sens, sources_df):
    joint = [c for c in DECL.ids if DECL.joint[c]]
    for combo in itertools.islice(itertools.combinations(joint, 3), 0, 20, 7):
        c = DECL.defaults().with_options(**{k: next(o for o in DECL.options[k] if o != DECL.default[k]) for k in combo})
        plan = era.sizing_rows(sensitivity.planning_under(results, c, sources_df=sources_df).plan)
        rows = sens[(sens["kind"] == "joint") & (sens["specification"] == c.key())]
        m = plan.merge(rows, on=["era", "phase", "worker_class", "statistic"], suffixes=("", "_s"))
        assert len(m) == len(plan), c.key()
        assert np.allclose(m["estimate"], m["estimate_s"], equal_nan=True), c.key()


def test_the_choices_move_the_planning_figures_themselves(results, sens, sources_df):
    """The planning table (not only the observations or the regression model) follows the choices:
    the seed rows pool the observations under them, the boot rows pool by ``boot_pooling``. (Issue
    16's planning path once dropped both, and every one-at-a-time change in sensitivity.csv was 0.)"""
    one = sens[sens["kind"] == "one_at_a_time"].set_index(["choice_id", "option", "era", "phase", "statistic"])
    storms = boot.boot_storms(results, sources_df=sources_df)
    ok = storms[(storms["role"] == "seed") & storms["peak_per_rate_bound"].isin(["eq", "approx"])]
    for option, f in (("highest", max), ("lowest", min)):
        got = one.loc[("boot_pooling", option, "seed", "boot", "peak_per_rate"), "estimate"]
        assert float(np.atleast_1d(got)[0]) == pytest.approx(f(ok["peak_iops_per_rate"]))
    monday = one.loc[("login_variant", "monday", "seed", "login", "peak"), "estimate"]
    tuesday = one.loc[("login_variant", "tuesday", "seed", "login", "peak"), "estimate"]
    assert float(np.atleast_1d(tuesday)[0]) != pytest.approx(float(np.atleast_1d(monday)[0]))
    moved = set(sens.loc[(sens["kind"] == "one_at_a_time") & (sens["change"].abs() > 1e-9), "choice_id"])
    assert {"boot_pooling", "login_variant", "front_end_vantage", "boosted_load"} <= moved, moved


def test_ranking_names_the_largest_moves(sens):
    r = sensitivity.ranking(sens)
    assert list(r["choice_id"])[:1] and set(r["choice_id"]) == set(DECL.ids)
    assert (r["max_abs_change"].diff().dropna() <= 1e-12).all()


# --- a reviewer's run re-runs only the model stage -----------------------------------------------

FLIP = "choice_id,option\nlogin_variant,tuesday\ntotal_source,stated_total\nestimate_statistic,mean\n"


@pytest.mark.slow
def test_make_data_with_choices_reruns_only_the_model_stage_and_matches_sensitivity(
    processed, tmp_path, copy_project, make_in
):
    processed("sensitivity")  # the built tables are copied: they must exist
    root = copy_project(tmp_path / "project", "data", "build")
    mine = root / "mine.csv"
    mine.write_text(FLIP, encoding="utf-8")

    def make(*args):
        return make_in(root, *args).stdout

    make("data")  # settle anything the copy's timestamps leave stale
    out = make("data", f"CHOICES={mine}")
    assert "model: IOPS per desktop" in out
    for other in ("normalize every source", "combine the sources", "audit:", "sensitivity of the planning", "density"):
        assert other not in out, f"{other} re-ran for a change of analysis choices"
    plan = era.sizing_rows(
        pd.read_csv(root / "data/processed/iops_per_desktop_model.csv", keep_default_na=False, na_values=[""])
    )
    sens = pd.read_csv(root / "data/processed/sensitivity.csv", keep_default_na=False, na_values=[""])
    key = analysis.resolve(mine).key()
    rows = sens[(sens["kind"] == "joint") & (sens["specification"] == key)]
    m = plan.merge(rows, on=["era", "phase", "worker_class", "statistic"], suffixes=("", "_s"))
    assert len(m) == len(plan) and np.allclose(m["estimate"], m["estimate_s"], equal_nan=True)
    bad = root / "bad.csv"
    bad.write_text("choice_id,option\nlogin_variant,friday\n", encoding="utf-8")
    p = make_in(root, "data", f"CHOICES={bad}", check=False)
    assert p.returncode != 0 and "bad.csv: line 2: column 'option' = 'friday'" in p.stderr


def test_declared_choices_reach_the_modern_rows_page_one_reads(results, sources_df):
    """Issue 26 item 2: the modern rows (page 1's default basis) were unmoved by every choice. The
    login peak known only by bounds enters at their geometric midpoint (assumed), or at either
    bound (choice peak_bounds_point), MCS and Provisioning rows alike; the register's set-aside
    runs enter the modern runs under register_resolutions = ignore (RA2053-0093, D-RA2053-05).
    (The modern boot rows are lower bounds: the choice boot_peak_to_average moves them.)"""

    def modern(**opts):
        p = sensitivity.planning_under(results, ch(**opts), sources_df=sources_df).plan
        return p[p["era"] == "modern"].set_index(["provisioning", "phase", "statistic"])["estimate"]

    base = modern()
    lo, hi = modern(peak_bounds_point="lower"), modern(peak_bounds_point="upper")
    for prov in ("mcs", "pvs"):
        assert lo[(prov, "login", "peak")] < base[(prov, "login", "peak")] < hi[(prov, "login", "peak")]
    ids = {
        o: " ".join(era._modern_runs(results, sources_df, era.EraChoices(register=o))["record_ids"])
        for o in ("apply", "ignore")
    }
    assert "RA2053-0093" not in ids["apply"] and "RA2053-0093" in ids["ignore"]  # set aside by the register


# --- choices behind the modern rows (issue 24, issue 26 item 2) ----------------------------------


MODERN_CHOICES = ("peak_bounds_point", "probe_handling", "profile_storage")  # choices only the modern rows read


@pytest.fixture(scope="module")
def modern_plans(results, sources_df):
    """The planning table under every option of peak_bounds_point and probe_handling (one at a
    time, the other choices at their defaults), keyed by (choice, option)."""
    memo: dict = {}
    return {
        (cid, opt): sensitivity.planning_under(results, ch(**{cid: opt}), memo=memo, sources_df=sources_df).plan
        for cid in MODERN_CHOICES
        for opt in DECL.options[cid]
    }


def _modern(plan, provisioning="mcs"):
    m = plan[(plan["era"] == "modern") & (plan["provisioning"] == provisioning)]
    return m.set_index(["phase", "statistic"])


@pytest.mark.parametrize(
    "cid, opt",
    [(c, o) for c in MODERN_CHOICES for o in DECL.options[c]],
)
def test_every_option_of_the_modern_choices_builds_the_planning_rows(modern_plans, cid, opt):
    """Each option builds every modern cell (MCS and Provisioning login peak and whole test, the
    MCS boot rows) with an estimate, and an interval inside which it lies (a bound row has none)."""
    plan = modern_plans[(cid, opt)]
    for prov in ("mcs", "pvs"):
        m = _modern(plan, prov)
        for key in (("login", "peak"), ("full_run", "average")):
            r = m.loc[key]
            assert np.isfinite(r["estimate"]) and r["pi90_low"] <= r["estimate"] <= r["pi90_high"], (prov, key)
            assert r["n_labs"] == 1
    assert {"peak_per_rate", "io_per_boot"} <= set(_modern(plan).loc["boot"].index)


def test_peak_bounds_point_moves_the_login_peak_to_the_bound_it_names(modern_plans, results):
    """The RA-2022 login peak is known by RA2022-0115 (read) and RA2022-0117 (write) only: lower
    takes the larger of the two ÷ desktops, upper their sum ÷ desktops, geometric_mid the
    geometric mean of the two (the row's estimate: one document, one run)."""
    v = results.set_index("record_id")["value"]
    n = float(results.set_index("record_id").at["RA2022-0115", "desktops"])  # the MCS Windows 11 run's desktops
    lo = max(v["RA2022-0115"], v["RA2022-0117"]) / n
    hi = (v["RA2022-0115"] + v["RA2022-0117"]) / n
    got = {o: _modern(modern_plans[("peak_bounds_point", o)]).at[("login", "peak"), "estimate"] for o in PEAKS}
    assert got["lower"] == pytest.approx(lo) and got["upper"] == pytest.approx(hi)
    assert got["geometric_mid"] == pytest.approx(np.sqrt(lo * hi))
    for o in PEAKS:  # the interval moves with the point; the whole test does not
        a, b = _modern(modern_plans[("peak_bounds_point", o)]), _modern(modern_plans[("peak_bounds_point", "lower")])
        assert a.at[("full_run", "average"), "estimate"] == pytest.approx(b.at[("full_run", "average"), "estimate"])
    assert (
        _modern(modern_plans[("peak_bounds_point", "upper")]).at[("login", "peak"), "pi90_high"]
        > _modern(modern_plans[("peak_bounds_point", "geometric_mid")]).at[("login", "peak"), "pi90_high"]
        > _modern(modern_plans[("peak_bounds_point", "lower")]).at[("login", "peak"), "pi90_high"]
    )


PEAKS = ("geometric_mid", "lower", "upper")


def test_probe_handling_keeps_the_2023_edition_out_by_default_and_pools_it_as_one_more_document(modern_plans):
    """Register D-RA2022E-03: the 2023 edition's EUX disk actions raised IOPS up to tenfold, so by
    default no modern row holds it; pooled adds it to the whole-test rows as a fourth document of
    the same lab (n_labs stays 1), raising both estimates and naming the register entry."""
    sep, pooled = modern_plans[("probe_handling", "separate")], modern_plans[("probe_handling", "pooled")]
    assert not sep.loc[sep["era"] == "modern", "documents"].str.contains("2023").any()
    for prov in ("mcs", "pvs"):
        a, b = _modern(sep, prov).loc[("full_run", "average")], _modern(pooled, prov).loc[("full_run", "average")]
        assert b["n_documents"] == a["n_documents"] + 1 and b["n_labs"] == a["n_labs"] == 1
        assert "RA-2022 (2023)" in b["documents"] and "D-RA2022E-03" in b["interval_kind"]
        assert b["estimate"] > a["estimate"] and b["pi90_high"] > a["pi90_high"]
        # the login peak has no 2023 figure (its chart peak spans logons and steady state)
        assert "2023" not in _modern(pooled, prov).at[("login", "peak"), "documents"]


def test_within_lab_effects_are_labelled_and_rest_on_their_records(processed, results):
    """within_lab_effects.csv: MCS vs Provisioning in each Nutanix document, FSLogix colocated vs
    dedicated Files, and the 2023 vs 2024 edition of RA-2022; the reported read and write
    averages are the records' values, per desktop and ratio derived from them."""
    w = processed("within_lab_effects")
    v = results.set_index("record_id")["value"]
    assert set(w["effect"]) == {"provisioning", "profile_storage", "harness"}
    assert w["scope"].str.startswith("within-lab comparison").all() and (w["lab"] == w["lab"].iloc[0]).all()
    for side in ("a", "b"):
        rd, wr = zip(*w[f"{side}_record_ids"].str.split())
        assert np.allclose(w[f"{side}_read_iops"], v.loc[list(rd)]) and np.allclose(
            w[f"{side}_write_iops"], v.loc[list(wr)]
        )
        per = (w[f"{side}_read_iops"] + w[f"{side}_write_iops"]) / w[f"{side}_desktops"]
        assert np.allclose(w[f"{side}_iops_per_desktop"], per)
    assert np.allclose(w["ratio"], w["a_iops_per_desktop"] / w["b_iops_per_desktop"])
    h = w[w["effect"] == "harness"]
    assert (h["a_source_id"] == "nutanix_ra2022_2023").all() and (h["b_source_id"] == "nutanix_ra2022").all()
    assert set(h["a_record_ids"]) == {"RA2022E-0060 RA2022E-0056"}  # 34,871 read + 23,040 write, 1,000 desktops
    assert (h["ratio"] > 1).all() and h["also_differs"].str.contains("window").all()
    p = w[w["effect"] == "provisioning"]
    assert {"nutanix_ra2022", "nutanix_ra2022_2023", "nutanix_ra2053", "nutanix_ra2136"} == set(p["a_source_id"])
    f = w[w["effect"] == "profile_storage"].iloc[0]
    assert (f["a_configuration"], f["b_configuration"]) == ("g8_mcs_8n_files_colocated", "g8_mcs_8n_files_dedicated")


def test_sensitivity_shows_the_modern_choices_moving_the_modern_rows(sens):
    """sensitivity.csv carries peak_bounds_point and probe_handling with their effect on the modern
    rows (login peak; whole test), and the ranking reports a choice that moves an interval only
    (tau2_source: the estimate stays, the interval for a new lab becomes a range of runs)."""
    one = sens[(sens["kind"] == "one_at_a_time") & (sens["era"] == "modern")]
    moved = one[one["change"].abs() > 1e-9].groupby("choice_id")["phase"].agg(set)
    assert "login" in moved["peak_bounds_point"] and "full_run" in moved["probe_handling"]
    # every choice that reaches the modern rows is in the file, with its effect (zero where it moves none)
    assert set(era.CHOICE_IDS.values()) <= set(one["choice_id"])
    assert "profile_storage" not in moved  # no 2024 run has its profiles on another cluster
    r = sensitivity.ranking(sens).set_index("choice_id")
    assert r.at["tau2_source", "max_abs_interval_change"] > 0.01
    assert r.at["peak_bounds_point", "max_abs_interval_change"] > 0.01


def test_profile_storage_keeps_runs_whose_profiles_bypass_the_storage_out_by_default(results, sources_df):
    """Choice profile_storage: a run with profiles on a file service of another cluster (the 2023
    edition's dedicated Files run, test_setup.csv profile_storage = file_service_separate) enters
    no row by default; ``any`` enters it in the modern whole-test cell (with the 2023 edition
    pooled: no 2024 run sends its profiles elsewhere, so under probe_handling = separate the
    option moves nothing, and the test says so)."""

    def runs(**opts):
        r = era._modern_runs(results, sources_df, era.EraChoices(**opts))
        return set(r["configuration"])

    dedicated = "g8_mcs_8n_files_dedicated"
    assert dedicated not in runs(probes="pooled")
    assert dedicated in runs(probes="pooled", profile_storage="any")
    assert runs() == runs(profile_storage="any")  # no 2024 run has its profiles on another cluster

    def whole(**opts):
        p = sensitivity.planning_under(results, ch(**opts), sources_df=sources_df).plan
        return _modern(p).loc[("full_run", "average")]

    a, b = whole(probe_handling="pooled"), whole(probe_handling="pooled", profile_storage="any")
    assert b["n_obs"] == a["n_obs"] + 1 and b["estimate"] != a["estimate"]


def test_modern_boot_read_share_comes_from_the_boot_charts(results, processed, sources_df):
    """The modern boot rows' read share is the 2023 edition's boot charts' read ÷ (read + write)
    averages, the two charts of the one MCS boot (register D-RA2022E-01) averaged, not the whole
    runs' share (which holds logons and steady state). Hand calculation from the records."""
    v = results.set_index("record_id")["value"]
    charts = [("RA2022E-0008", "RA2022E-0006"), ("RA2022E-0030", "RA2022E-0026")]  # (read, write) averages
    share = np.mean([v[r] / (v[r] + v[w]) for r, w in charts])
    plan = processed("iops_per_desktop_model")
    boot_rows = plan[(plan["era"] == "modern") & (plan["phase"] == "boot")]
    assert len(boot_rows) and np.allclose(boot_rows["read_share"], share)
    assert boot_rows["read_share_basis"].str.contains("boot charts").all()
    whole = plan[(plan["era"] == "modern") & (plan["provisioning"] == "mcs") & (plan["phase"] == "full_run")]
    assert abs(float(whole["read_share"].iloc[0]) - share) > 0.1  # the boot's own split, not the whole run's
    for pooling in era.PROVISIONING_POOLINGS:  # the MCS boot rows keep MCS's boot share when MCS and PVS pool
        p = sensitivity.planning_under(results, ch(provisioning_pooling=pooling), sources_df=sources_df).plan
        b = p[(p["era"] == "modern") & (p["phase"] == "boot")]
        assert np.allclose(b["read_share"], share), pooling
