"""Normalized data: specific digitized values, intervals, per-desktop figures, determinism."""

import math

import numpy as np

import pytest

from vdi_report import config, files, normalize, sources
from vdi_report.units import convert


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
    pooled = results[(results["source_id"] == "hitachi_g600") & (results["worker_class"] == "mixed")
                     & results["per_desktop"].notna()]
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


def test_unit_conversion_rejects_wrong_dimension():
    with pytest.raises(ValueError, match="cannot express"):
        convert(1.0, "ms", "iops")
    assert convert(1.5, "kIOPS", "iops") == (1500.0, "IOPS")


def test_two_runs_are_byte_identical(tmp_path):
    srcs = sources.load_sources()
    outs = []
    for run in ("a", "b"):
        frames = [normalize.normalize_source(s) for s in srcs["source_id"]]
        res = normalize.combine(frames)
        p1 = files.write_csv(res, tmp_path / run / "results.csv")
        p2 = files.write_csv(normalize.build_tests(res, srcs), tmp_path / run / "tests.csv")
        outs.append((p1.read_bytes(), p2.read_bytes()))
    assert outs[0] == outs[1]


@pytest.mark.parametrize("source_id", sources.load_sources()["source_id"].tolist())
def test_pipeline_output_matches_a_fresh_normalization(results, source_id):
    """The file the report reads equals what the code produces now (no stale outputs)."""
    fresh = normalize.normalize_source(source_id)
    built = results[results["source_id"] == source_id]
    assert list(fresh["record_id"]) == list(built["record_id"])
    for col in ("value", "value_low", "value_high", "per_desktop", "desktops"):
        # the CSV keeps 10 significant digits (files.FLOAT_FORMAT)
        assert np.allclose(fresh[col].astype(float), built[col].astype(float), rtol=1e-9, equal_nan=True), col


def test_processed_outputs_never_written_into_raw(tmp_path):
    with pytest.raises(PermissionError, match="data/raw"):
        files.write_csv(sources.load_sources(), config.RAW_DIR / "oops.csv")
    assert not (config.RAW_DIR / "oops.csv").exists()
