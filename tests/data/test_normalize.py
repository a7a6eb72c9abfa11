"""Normalized data: specific digitized values, intervals, per-desktop figures, determinism."""

import math

import numpy as np
import pytest

from vdi_report.raw import sources
from vdi_report.transform import normalize


def one(results, **where):
    sel = results
    for k, v in where.items():
        sel = sel[sel[k] == v]
    assert len(sel) >= 1, f"no record with {where}"
    return sel


def test_netapp_boot_peak_iops(results):
    r = one(results, source_id="netapp_tr4540", phase="boot", metric="iops", statistic="peak", condition="normal")
    assert 117752 in set(r["value"])
    row = r[r["value"] == 117752].iloc[0]
    assert row["unit"] == "IOPS" and row["desktops"] == 1500
    assert row["per_desktop"] == pytest.approx(117752 / 1500)


def test_accelstor_provisioning_average_latency(results):
    r = one(results, source_id="accelstor_p710", phase="provisioning", metric="latency", statistic="average")
    assert 0.59 in set(r["value"]) and set(r["unit"]) == {"ms"}


def test_dell_boot_bounds_become_intervals(results):
    dur = one(results, source_id="dell_sc9000", phase="boot", metric="duration")
    lt = dur[dur["bound"] == "lt"].iloc[0]  # "less than 6 minutes"
    assert (lt["value_low"], lt["value_high"]) == (0.0, lt["value"])
    iops = one(results, source_id="dell_sc9000", phase="boot", metric="iops").iloc[0]  # "almost 125,000": below it
    assert iops["bound"] == "lt"
    assert (iops["value_low"], iops["value_high"]) == (0.0, iops["value"])
    thr = one(results, source_id="dell_sc9000", phase="boot", metric="throughput").iloc[0]  # 12.5GB/Sec
    assert thr["value"] == pytest.approx(12500) and thr["unit"] == "MB/s" and thr["reported_unit"] == "GBps"


def test_microseconds_become_milliseconds(results):
    r = results[(results["reported_unit"] == "µs")]
    assert len(r) > 0
    assert (r["value"] == (r["reported_value"] / 1000).round(12)).all()
    assert set(r["unit"]) == {"ms"}


def test_intervals_are_ordered_and_gt_is_open(results):
    assert (results["value_low"] <= results["value_high"]).all()
    gt = results[results["bound"] == "gt"]
    assert ((gt["unit"] == "%") | gt["value_high"].map(math.isinf)).all()


def test_hitachi_pooled_figures_use_the_whole_mix(results):
    pooled = results[
        (results["source_id"] == "hitachi_g600") & (results["worker_class"] == "mixed") & results["per_desktop"].notna()
    ]
    assert len(pooled) > 0
    assert set(pooled["desktops"]) == {580}
    assert pooled["population"].str.contains("400 Login VSI task").all()


def test_comparable_records_state_their_vantage(results):
    comp = results[results["comparable"]]
    assert len(comp) > 0 and (comp["vantage"] != "").all()
    assert not results[results["vantage"] == ""]["comparable"].any()


def test_every_source_reaches_results(results, sources_df):
    assert set(results["source_id"]) == set(sources_df["source_id"])
    assert results["record_id"].is_unique


def test_tests_table_has_one_row_per_test(tests_table):
    assert not tests_table.duplicated(["source_id", "test_id"]).any()
    boot = tests_table[(tests_table["source_id"] == "netapp_tr4540") & (tests_table["test_id"] == "boot")].iloc[0]
    assert float(boot["peak_iops"]) == 117752
    assert float(boot["peak_iops_per_desktop"]) == pytest.approx(117752 / 1500)


@pytest.mark.parametrize("source_id", sources.load_sources()["source_id"].tolist())
def test_pipeline_output_matches_a_fresh_normalization(results, source_id):
    """The file the report reads equals what the code produces now (no stale outputs)."""
    fresh = normalize.normalize_source(source_id)
    built = results[results["source_id"] == source_id]
    assert list(fresh["record_id"]) == list(built["record_id"])
    for col in ("value", "value_low", "value_high", "per_desktop", "desktops"):
        # the CSV keeps 10 significant digits (files.FLOAT_FORMAT)
        assert np.allclose(fresh[col].astype(float), built[col].astype(float), rtol=1e-9, equal_nan=True), col


def test_comparable_never_pairs_an_external_source_with_a_seed(results, sources_df):
    """A comparison group shared by seeds and external sources: each side is comparable only
    within its own pool (seeds by vendor; externals with externals of the same platform kind)."""
    role = results["source_id"].map(sources_df.set_index("source_id")["role"])
    comp = results[results["comparable"]]
    for (group, r), g in comp.groupby([comp["comparison_group"], role[comp.index]]):
        peers = g["vendor"] if r == "seed" else g["source_id"]
        assert peers.nunique() >= 2, f"{group}: {r} record comparable without a {r} peer"
    # the shared group of host CPU averages must exist on both sides and stay apart
    seed_groups = set(results.loc[role == "seed", "comparison_group"])
    ext_groups = set(results.loc[role == "external", "comparison_group"])
    assert seed_groups & ext_groups


def test_nutanix_host_power_digitized(results):
    """Host power of the three hyperconverged documents, as printed (one node)."""
    p = results[(results["metric"] == "host_power") & results["used_in_analysis"]]
    got = {(r.source_id, r.statistic): r.value for r in p.itertuples()}
    assert got[("nutanix_ra2022", "average")] == 757 and got[("nutanix_ra2136", "peak")] == 793
    assert got[("nutanix_ra2053", "average")] == 685 and set(p["unit"]) == {"W"}


def test_hyperconverged_raw_capacity_is_drives_per_node_times_nodes(results, sources_df):
    """A cluster that states drives per node and the node count on one table gets raw capacity
    = nodes x drives per node x drive size (derived); the records it used are named."""
    tb = normalize.build_testbeds(results, sources_df).set_index("source_id")
    per_node = results[(results["metric"] == "drives_per_node") & (results["phase"] == "testbed")]
    assert len(per_node) > 0
    for r in per_node.itertuples():
        nodes = results[
            results["metric"].isin(normalize.NODE_METRICS)
            & (results["source_id"] == r.source_id)
            & (results["locator"] == r.locator)
            & (results["phase"] == "testbed")
        ]
        size = results[
            (results["metric"] == "drive_capacity")
            & (results["source_id"] == r.source_id)
            & (results["line"] == r.line)
        ]
        row = tb.loc[r.source_id]
        if nodes.empty:
            assert math.isnan(row["drives"])
            continue
        n = nodes.iloc[0]["value"]
        assert row["drives"] == r.value * n
        assert row["raw_capacity_gb"] == pytest.approx(r.value * n * size.iloc[0]["value"])
        assert row["drive_layout"].endswith(f"per node × {n:.0f} nodes") and r.record_id in row["record_ids"].split()


def test_testbed_rows_ignore_test_configurations(results, sources_df):
    """Configurations named by test runs (not by drive records) do not split a source's test bed."""
    tb = normalize.build_testbeds(results, sources_df)
    drive_cfgs = set(results.loc[results["metric"].isin(["drives", "drives_per_node"]), "configuration"]) - {""}
    assert set(tb["configuration"]) - {""} <= drive_cfgs
    assert tb["source_id"].nunique() == len(sources_df)
