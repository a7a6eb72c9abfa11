"""Normalized data: specific digitized values, intervals, per-desktop figures, determinism."""

import pytest

from vdi_report import config, files
from vdi_report.raw import sources
from vdi_report.raw.units import convert
from vdi_report.transform import normalize


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


def test_processed_outputs_never_written_into_raw(tmp_path):
    with pytest.raises(PermissionError, match="data/raw"):
        files.write_csv(sources.load_sources(), config.RAW_DIR / "oops.csv")
    assert not (config.RAW_DIR / "oops.csv").exists()


def _frame(source_id, vendor, vantage="array_frontend"):
    import pandas as pd

    return pd.DataFrame(
        {
            "source_id": [source_id],
            "vendor": [vendor],
            "phase": ["boot"],
            "metric": ["iops"],
            "statistic": ["peak"],
            "vantage": [vantage],
            "record_id": [f"{source_id}-1"],
            **{c: [""] for c in ("used_in_analysis", "resolution")},
        }
    )


def test_comparable_flag_pools_by_role_and_platform(monkeypatch):
    import pandas as pd

    srcs = pd.DataFrame(
        {
            "source_id": ["s1", "s2", "x1", "x2", "x3"],
            "role": ["seed", "seed", "external", "external", "external"],
            "platform": [
                "all-flash array",
                "hybrid array",
                "hyperconverged (AOS 6.5, ESXi)",
                "hyperconverged (AOS 6.7, AHV)",
                "all-flash array",
            ],
        }
    )
    monkeypatch.setattr(normalize, "RESULT_COLUMNS", ["source_id", "comparable"])
    frames = [_frame("s1", "A"), _frame("x1", "N"), _frame("x3", "M")]
    out = normalize.combine(frames, sources_df=srcs).set_index("source_id")["comparable"]
    assert not out.any()  # one seed, one hyperconverged external, one external array: no pool has two
    frames += [_frame("s2", "B"), _frame("x2", "N")]
    out = normalize.combine(frames, sources_df=srcs).set_index("source_id")["comparable"]
    assert out.to_dict() == {"s1": True, "s2": True, "x1": True, "x2": True, "x3": False}
    with pytest.raises(KeyError, match="zz"):
        normalize.combine([_frame("zz", "Q")], sources_df=srcs)


def test_power_and_mhz_units():
    assert convert(862, "W", "host_power") == (862.0, "W")
    assert convert(2200, "MHz", "cpu_frequency") == (2.2, "GHz")
    assert convert(905, "MHz", "cpu_mhz_per_session") == (905.0, "MHz")
    with pytest.raises(ValueError, match="cannot express"):
        convert(862, "W", "iops")
