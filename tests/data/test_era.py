"""Planning figures by era (issue 16, ``vdi_report.models.era``) from results.csv, against hand
calculations citing records: the document as the unit of replication, never pooled across eras,
the external evidence read with its true status, leave one document out."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import gmean  # the hand calculations' geometric mean
from statsmodels.stats.meta_analysis import combine_effects

from vdi_report import config
from vdi_report.models import boot, era, harness, iops, scenario


@pytest.fixture(scope="module")
def plans(results, sources_df):
    """The planning rows under each option of choice tau2_source (default first)."""
    storms = boot.boot_storms(results, sources_df=sources_df)
    chars = scenario.io_characteristics(results, iops.io_profile(results, sources_df=sources_df), sources_df=sources_df)
    return {
        src: era.planning_rows(results, storms, chars, choices=era.EraChoices(tau2_source=src), sources_df=sources_df)
        for src in era.TAU2_SOURCES
    }


@pytest.fixture(scope="module")
def plan(plans):
    return plans["borrowed_seed"]


def test_planning_rows_by_era_count_documents_not_runs(plans, sources_df):
    """The hand calculations of the ranges (choice tau2_source = none: the range of the labs' runs)."""
    plan = plans["none"]
    roles = sources_df.set_index("source_id")["role"]
    labels = iops.document_labels(sources_df)
    by_label = {v: k for k, v in labels.items()}
    for _, r in plan.iterrows():
        docs = [by_label[d] for d in r["documents"].split(", ")]
        assert len(docs) == r["n_documents"]
        assert {roles[d] for d in docs} == {"seed" if r["era"] == "seed" else "external"}  # never pooled
        if r["n_labs"] < era.MIN_FOR_PI:  # one lab (all three modern documents) or two: never a 90 % PI of its own
            assert "90 %" not in r["interval_kind"] and "prediction" not in r["interval_spans"], (r["era"], r["cell"])
            assert r["tau2_source"] == "" and pd.isna(r["tau2"])
        assert r["interval_spans"] in set(era.SPANS.values()) | {"not estimable"}
    assert not plan.duplicated(["era", "provisioning", "cell"]).any()
    p = era.sizing_rows(plan).set_index(["era", "cell"])
    # AccelStor's knowledge and power login peaks (4,000 and 5,500 IOPS / 500: ACCS-0180, ACCS-0189) are one test
    # bed: one document with NetApp's 31,088 / 1,500 (NTAP-0014); two documents: their range
    login = p.loc[("seed", "login peak")]
    assert login["n_documents"] == 2 and login["n_obs"] == 3
    assert login["estimate"] == pytest.approx(gmean([gmean([8.0, 11.0]), 31088 / 1500]))
    assert (login["pi90_low"], login["pi90_high"]) == pytest.approx((8.0, 31088 / 1500))
    # the knowledge-worker steady state leaves Hitachi's task sample (HDS-0259, 3-4 IOPS) out: AccelStor alone,
    # (2,600 + 296) / 500 (ACCS-0199/0200) and (3,200 + 377) / 500 (ACCS-0022/0023; choice total_source)
    steady = p.loc[("seed", "steady-state average")]
    assert steady["vendors"] == "AccelStor"
    assert steady["estimate"] == pytest.approx(gmean([2896 / 500, 3577 / 500]))
    # modern whole runs: read + write averages of one run (RA2022-0105/0107 ...), three documents of ONE lab,
    # MCS runs only (register D-RA2053-02, D-RA2136-02): RA-2022 MCS W11 and W10 (RA2022-0105/0107, 0133/0135),
    # RA-2053 MCS and W11 (RA2053-0073/0075, 0094/0096), RA-2136 MCS W10 and W11 (RA2136-0049/0051, 0039/0041)
    whole = p.loc[("modern", "whole-test average")]
    assert whole["n_documents"] == 3 and whole["n_labs"] == 1 and whole["interval_spans"] == "one lab's runs"
    assert whole["provisioning"] == "mcs"
    mcs = {
        "ra2022": [(16467 + 17281) / 880, (17279 + 16403) / 960],
        "ra2053": [(21745 + 21148) / 1040, (22598 + 24123) / 1040],
        "ra2136": [24978 / 900, 27482 / 900],
    }
    assert whole["estimate"] == pytest.approx(gmean([gmean(v) for v in mcs.values()]), rel=1e-3)  # 35.8
    assert (whole["pi90_low"], whole["pi90_high"]) == pytest.approx((24978 / 900, 46721 / 1040), rel=1e-3)
    # read share per phase and provisioning: the MCS whole runs' own (about half reads), not Provisioning's
    assert 0.45 < whole["read_share"] < 0.55 and whole["read_share_basis"].startswith("whole runs")
    pvs = plan[(plan["era"] == "modern") & (plan["provisioning"] == "pvs") & (plan["cell"] == era.WHOLE_TEST)].iloc[0]
    assert pvs["read_share"] < 0.2  # Provisioning serves reads from the server's memory: 3,545 of 27,730 (RA2022-0106)
    seed_whole = p.loc[("seed", "whole-test average")]
    assert whole["ratio_to_seed"] == pytest.approx(whole["estimate"] / seed_whole["estimate"])
    assert whole["ratio_low"] == pytest.approx(whole["pi90_low"] / seed_whole["pi90_high"])
    # the modern login peak is known by bounds: RA-2022 MCS writes 23,820 (RA2022-0117) to reads + writes 46,780
    mlogin = p.loc[("modern", "login peak")]
    assert mlogin["bound"] == "bounds" and mlogin["pi90_low"] == pytest.approx(23820 / 880)
    assert mlogin["pi90_high"] == pytest.approx((22960 + 23820) / 880)
    assert mlogin["login_window_min"] == 48 and mlogin["rate_low"] == pytest.approx(880 / 48)
    # modern boot: the average over the boot (RA2022-0071, RA2053-0044) bounds the peak from below
    mboot = p.loc[("modern", "boot peak per boot rate")]
    assert mboot["bound"] == "gt" and pd.isna(mboot["pi90_low"]) and pd.isna(mboot["pi90_high"])  # a bound: no interval
    assert mboot["interval_spans"] == "lower bound" and mboot["read_share_basis"].startswith("boot charts")
    assert mboot["estimate"] == pytest.approx(gmean([36480 / (880 / 18.9), 29426 / (1040 / 27.7)]))


def _effect(values, floor=None):
    """ln of a lab's figure and the within-lab variance of it: var/n of its replicates' logs (or the floor)."""
    y = np.log(values)
    return float(y.mean()), (float(y.var(ddof=1) / len(y)) if len(y) > 1 else floor)


def test_default_rows_give_a_prediction_interval_for_a_new_lab_with_the_seed_labs_tau2(plan):
    """tau2_source = borrowed_seed (the default): the seed labs' between-lab variance (random effects,
    DerSimonian-Laird, statsmodels combine_effects) by hand. AccelStor is the one seed lab with two
    replicates per cell (knowledge and power: login peak 4,000 and 5,500 IOPS / 500, ACCS-0180, ACCS-0189;
    whole test 4.584 and 4.978; steady state 2,896 and 3,577 / 500): their median var/n is the floor of a
    lab of one run (NetApp's 31,088 / 1,500, NTAP-0014)."""
    acc = {"login": [8.0, 11.0], "whole": [4.584, 4.978], "steady": [2896 / 500, 3577 / 500]}
    floor = float(np.median([_effect(v)[1] for v in acc.values()]))
    tau2 = {}
    for cell, a, netapp in (("login peak", acc["login"], 31088 / 1500), (era.WHOLE_TEST, acc["whole"], 6.576667)):
        (ya, va), (yn, vn) = _effect(a), _effect([netapp], floor)
        tau2[cell] = combine_effects(np.array([ya, yn]), np.array([max(va, floor), vn]), method_re="dl").tau2
    # boot peak per boot rate: Hitachi and NetApp (HDS-0216..0218 over HDS-0213; NTAP-0006 over NTAP-0005)
    b = plan[(plan["era"] == "seed") & (plan["statistic"] == "peak_per_rate")].iloc[0]
    tau2_median = float(np.median([tau2["login peak"], tau2[era.WHOLE_TEST], b["tau2"]]))
    p = era.sizing_rows(plan).set_index(["era", "cell"])
    for cell in ("login peak", era.WHOLE_TEST):
        for e in ("seed", "modern"):
            assert p.loc[(e, cell), "tau2"] == pytest.approx(tau2[cell], rel=1e-6), (e, cell)
            assert p.loc[(e, cell), "tau2_source"] == "seed cell"
    assert p.loc[("seed", "steady-state average"), "tau2"] == pytest.approx(tau2_median)
    assert p.loc[("seed", "steady-state average"), "tau2_source"] == "seed median"
    whole = p.loc[("modern", era.WHOLE_TEST)]  # one lab, three documents (MCS runs, as in the range test)
    docs = [gmean([(16467 + 17281) / 880, (17279 + 16403) / 960]), gmean([(21745 + 21148) / 1040, 46721 / 1040])]
    docs.append(gmean([24978 / 900, 27482 / 900]))
    mu, v = _effect(docs)
    half = 1.6448536 * np.sqrt(tau2[era.WHOLE_TEST] + (tau2[era.WHOLE_TEST] + v))
    assert (whole["pi90_low"], whole["pi90_high"]) == pytest.approx((np.exp(mu - half), np.exp(mu + half)), rel=1e-3)
    assert whole["interval_spans"] == era.SPANS["borrowed"] and "borrowed" in whole["interval_kind"]
    for _, r in plan.iterrows():
        if r["bound"] in ("gt", "assumed"):  # a bound stays a bound: no interval, no tau2
            assert pd.isna(r["pi90_low"]) and pd.isna(r["pi90_high"]) and pd.isna(r["tau2"]) and not r["tau2_source"]
        else:
            assert r["interval_spans"] == era.SPANS["borrowed"] and r["tau2"] > 0, (r["era"], r["cell"])
            assert r["pi90_low"] < r["estimate"] < r["pi90_high"]


def test_modern_interval_spans_follow_the_tau2_source_choice(plans):
    spans = {k: set(t.loc[(t["era"] == "modern") & (t["bound"] != "gt"), "interval_spans"]) for k, t in plans.items()}
    assert spans == {"borrowed_seed": {era.SPANS["borrowed"]}, "none": {era.SPANS[1]}}
    a, b = (t.set_index(["era", "provisioning", "cell"]) for t in (plans["borrowed_seed"], plans["none"]))
    m = a.index[(a.reset_index()["era"] == "modern").to_numpy() & (a["bound"] != "gt").to_numpy()]
    assert (a.loc[m, "pi90_low"] <= b.loc[m, "pi90_low"]).all() and (
        a.loc[m, "pi90_high"] >= b.loc[m, "pi90_high"]
    ).all()
    assert np.allclose(a.loc[m, "estimate"], b.loc[m, "estimate"])  # one lab: its own figure under both


def test_leave_one_lab_out_calibration(results, sources_df):
    """Every seed cell with two labs, each lab held out: AccelStor's login peak (gmean of 8 and 11 IOPS per
    desktop) against NetApp's 20.7 alone; tau2 recomputed without AccelStor leaves only the boot cell's
    (Hitachi against NetApp), so the interval is wide and holds it. NetApp held out: no seed cell has two
    labs without it (not checkable). The ranges the rows printed before miss every held-out lab."""
    cal = era.calibration(results, boot.boot_storms(results, sources_df=sources_df), sources_df=sources_df)
    assert set(cal["era"]) == {"seed"}  # modern: one lab, nothing to hold out
    assert (cal["n_train_labs"] >= 1).all() and len(cal) == 2 * cal["cell"].nunique()
    c = cal.set_index(["cell", "held_out"])
    acc = c.loc[("login peak", "AccelStor")]
    assert acc["observed"] == pytest.approx(gmean([8.0, 11.0])) and acc["estimate"] == pytest.approx(31088 / 1500)
    assert acc["verdict"] == "inside" and acc["range_verdict"] == "below"
    assert acc["pi90_low"] < acc["observed"] < acc["pi90_high"]
    assert (cal.loc[cal["held_out"] == "NetApp", "verdict"] == "not checkable").all()
    assert cal.loc[cal["held_out"] == "NetApp", "pi90_low"].isna().all()
    assert (cal["range_verdict"] != "inside").all()
    cov = era.calibration_coverage(cal).set_index("interval")
    n_in = int((cal["verdict"] == "inside").sum())
    assert cov.iloc[0]["inside"] == n_in and cov.iloc[0]["checked"] == int((cal["verdict"] != "not checkable").sum())
    assert cov.iloc[1]["coverage"] == 0.0 and cov.iloc[1]["checked"] == len(cal)
    none = era.calibration(
        results,
        boot.boot_storms(results, sources_df=sources_df),
        choices=era.EraChoices(tau2_source="none"),
        sources_df=sources_df,
    )
    assert (none["verdict"] == none["range_verdict"]).all()  # none: the rows print the ranges, as before


@pytest.mark.parametrize("source", era.TAU2_SOURCES)
def test_external_evidence_reads_each_figure_with_its_status(results, plans, source, sources_df):
    plan = plans[source]
    ext = era.external_evidence(results, plan, sources_df=sources_df)
    seed = plan[plan["era"] == "seed"].set_index("cell")
    mcs = ext[(ext["test_id"] == "mcs_w11_8n_login") & (ext["variant"] == "")].set_index("status")
    assert mcs.at["lower bound", "observed"] == pytest.approx(23820 / 880)  # writes alone, RA2022-0117
    assert mcs.at["lower bound", "record_ids"] == "RA2022-0117"
    assert mcs.at["upper bound", "observed"] == pytest.approx((22960 + 23820) / 880)
    w = ext[(ext["test_id"] == "w11_8n_full_run")].iloc[0]  # RA-2053 Windows 11: 22,598 + 24,123 over 1,040
    assert w["status"] == "exact" and w["observed"] == pytest.approx(46721 / 1040)
    for _, r in ext.iterrows():
        s = seed.loc[r["cell"]]
        assert (r["predicted"], r["pi90_low"], r["pi90_high"]) == pytest.approx(
            (s["estimate"], s["pi90_low"], s["pi90_high"])
        )
        assert r["verdict"] == era.verdict(r["observed"], r["status"], r["pi90_low"], r["pi90_high"])
        assert r["covered"] == (r["verdict"] == "inside")  # one meaning of covered
        assert {"exact": "eq", "lower bound": "gt", "upper bound": "lt"}[r["status"]] == r["bound"]
    # the like-with-like comparison: whole-test averages against the seed whole-test cell
    assert set(ext.loc[ext["status"] == "exact", "cell"]) == {era.WHOLE_TEST}
    # the modern login peaks' lower bounds (27-31 IOPS per desktop) lie above the range of the two seed labs'
    # runs (8-20.7), inside the seed interval for a new lab (tau2 of AccelStor against NetApp)
    lower = ext.loc[ext["status"] == "lower bound", "verdict"]
    assert (lower == ("above" if source == "none" else "uninformative")).all()


def test_leave_one_document_out_holds_out_documents_within_each_era(results, sources_df):
    lodo = era.leave_one_document_out(results, boot.boot_storms(results, sources_df=sources_df), sources_df=sources_df)
    assert set(lodo["era"]) == {"seed", "modern"}
    w = lodo[(lodo["era"] == "modern") & (lodo["cell"] == era.WHOLE_TEST)].set_index("held_out")
    assert len(w) == 3 and (w["n_train"] == 2).all() and w["interval_kind"].str.startswith("one lab").all()
    ra2053 = gmean([(21745 + 21148) / 1040, (22598 + 24123) / 1040])  # MCS runs (RA2053-0073/0075, 0094/0096)
    assert w.at["Nutanix RA-2053", "observed"] == pytest.approx(ra2053)
    assert w.at["Nutanix RA-2053", "verdict"] == "above"  # above RA-2022's and RA-2136's runs (max 38.35)
    s = lodo[(lodo["era"] == "seed") & (lodo["cell"] == "login peak")].set_index("held_out")
    assert s.at["NetApp TR-4540", "pi90_high"] == 11.0 and s.at["NetApp TR-4540", "verdict"] == "above"


def test_the_built_planning_table_and_calibration_carry_tau2_and_keep_bounds_bare(processed):
    """data/processed: the planning table has tau2, i2, tau2_source beside n_labs; a lower bound has no
    interval and no tau2 in the CSV; the default (tau2_source = borrowed_seed) modern rows name their
    interval as borrowed; iops_calibration.csv holds the leave-one-lab-out rows of the model stage."""
    plan = processed("iops_per_desktop_model")
    assert {"tau2", "i2", "tau2_source", "n_labs", "n_documents", "interval_spans"} <= set(plan.columns)
    gt = plan[plan["bound"] == "gt"]
    assert len(gt) and gt[["pi90_low", "pi90_high", "tau2", "i2"]].isna().all().all()
    assert (gt["interval_spans"] == "lower bound").all() and (gt["tau2_source"] == "").all()
    m = plan[(plan["era"] == "modern") & (plan["bound"] != "gt")]
    assert (m["interval_spans"] == era.SPANS["borrowed"]).all() and (m["tau2"] > 0).all()
    assert m["tau2_source"].isin(["seed cell", "seed median"]).all()
    cal = processed("iops_calibration")
    assert len(cal) and set(cal["verdict"]) <= {"inside", "above", "below", "not checkable"}
    checkable = cal[cal["verdict"] != "not checkable"]
    assert (checkable["pi90_low"] < checkable["pi90_high"]).all()


def test_sensitivity_shows_what_tau2_source_does_to_the_default_rows(processed):
    """sensitivity.csv, one at a time: tau2_source = none gives the modern rows their lab's range, narrower
    than the borrowed interval for a new lab; the estimate of a one-lab row does not move."""
    s = processed("sensitivity")
    t = s[(s["kind"] == "one_at_a_time") & (s["choice_id"] == "tau2_source") & (s["era"] == "modern")]
    t = t[t["pi90_low"].notna()].set_index(["option", "phase", "statistic"]).sort_index()
    a, b = t.loc["borrowed_seed"], t.loc["none"]
    assert len(a) and a.index.equals(b.index)
    assert ((a["pi90_high"] / a["pi90_low"]) > (b["pi90_high"] / b["pi90_low"])).all()
    assert np.allclose(a["estimate"], b["estimate"])


def test_every_planning_row_states_its_harness_for_each_document(plan):
    """Issue 24 item 2: every published planning row says, for each of its documents, the load
    tool and the probe or timer actions that ran (test_setup.csv declares both for every
    document), and names the lines they come from; a modern Provisioning row gives its write cache."""
    published = pd.read_csv(config.PROCESSED_DIR / "iops_per_desktop_model.csv", keep_default_na=False)
    for rows in (plan, published):
        for _, r in rows.iterrows():
            docs = r["documents"].split(", ")
            for factor in ("load_tool", "probes"):
                at = [r[factor].find(f"{d}: ") for d in docs]  # each document, in the row's order
                assert at[0] == 0 and all(a < b for a, b in zip(at, at[1:])), (r["era"], r["cell"], factor)
                assert f": {harness.NOT_STATED}" not in r[factor] and r[factor] != harness.NOT_STATED
            assert r["harness_lines"].strip()
            if r["provisioning"] == "pvs":
                assert harness.NOT_STATED not in r["write_cache"]
