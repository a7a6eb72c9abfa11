"""Planning figures by era (issue 16, ``vdi_report.models.era``) from results.csv, against hand
calculations citing records: the document as the unit of replication, never pooled across eras,
the external evidence read with its true status, leave one document out."""

import pandas as pd
import pytest
from scipy.stats import gmean  # the hand calculations' geometric mean

from vdi_report.models import boot, era, iops, scenario


@pytest.fixture(scope="module")
def plan(results):
    storms = boot.boot_storms(results)
    return era.planning_rows(results, storms, scenario.io_characteristics(results, iops.io_profile(results)))


def test_planning_rows_by_era_count_documents_not_runs(plan, sources_df):
    roles = sources_df.set_index("source_id")["role"]
    labels = iops.document_labels(sources_df)
    by_label = {v: k for k, v in labels.items()}
    for _, r in plan.iterrows():
        docs = [by_label[d] for d in r["documents"].split(", ")]
        assert len(docs) == r["n_documents"]
        assert {roles[d] for d in docs} == {"seed" if r["era"] == "seed" else "external"}  # never pooled
        if r["n_labs"] < era.MIN_FOR_PI:  # one lab (all three modern documents) or two: never a 90 % PI
            assert "90 %" not in r["interval_kind"] and "prediction" not in r["interval_spans"], (r["era"], r["cell"])
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
    assert mboot["interval_spans"] == "lower bound" and mboot["read_share_basis"].startswith("assumed")
    assert mboot["estimate"] == pytest.approx(gmean([36480 / (880 / 18.9), 29426 / (1040 / 27.7)]))


def test_external_evidence_reads_each_figure_with_its_status(results, plan):
    ext = era.external_evidence(results, plan)
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
    assert (ext.loc[ext["status"] == "lower bound", "verdict"] == "above").all()


def test_leave_one_document_out_holds_out_documents_within_each_era(results):
    lodo = era.leave_one_document_out(results, boot.boot_storms(results))
    assert set(lodo["era"]) == {"seed", "modern"}
    w = lodo[(lodo["era"] == "modern") & (lodo["cell"] == era.WHOLE_TEST)].set_index("held_out")
    assert len(w) == 3 and (w["n_train"] == 2).all() and w["interval_kind"].str.startswith("one lab").all()
    ra2053 = gmean([(21745 + 21148) / 1040, (22598 + 24123) / 1040])  # MCS runs (RA2053-0073/0075, 0094/0096)
    assert w.at["Nutanix RA-2053", "observed"] == pytest.approx(ra2053)
    assert w.at["Nutanix RA-2053", "verdict"] == "above"  # above RA-2022's and RA-2136's runs (max 38.35)
    s = lodo[(lodo["era"] == "seed") & (lodo["cell"] == "login peak")].set_index("held_out")
    assert s.at["NetApp TR-4540", "pi90_high"] == 11.0 and s.at["NetApp TR-4540", "verdict"] == "above"
