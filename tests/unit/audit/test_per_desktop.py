"""Rule ``per_desktop``: a per-desktop figure against its total and desktop count; two conflicting
totals are one finding."""

import math


def test_per_desktop(rec, run):
    rows = [rec("iops", "3,900", 3900), rec("iops_per_desktop", "7.2", 7.2, vantage="")]
    f = run(rows, "per_desktop")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 7.8)
    ok = [
        rec("iops", "3.2K", 3200),
        rec("iops_per_desktop", "6.4", 6.4),
        rec("iops", "21.1K", 21100, test_id="boot"),
        rec("iops_per_desktop", "42", 42, test_id="boot"),
        rec("iops", "65K", 65000, test_id="boot", vantage="array_backend"),
    ]  # other vantage: no alarm
    assert run(ok, "per_desktop").empty


def test_per_desktop_reports_one_conflict_between_two_totals_once(rec, run):
    """Two per-desktop figures, each reproduced by one of two conflicting totals, are one finding
    listing both (F011 and F012 were one pair reported twice)."""
    rows = [
        rec("iops", "3.6K", 3600, locator="Table 15", line=1541),
        rec("iops", "3,900", 3900, locator="Section 1", line=29),
        rec("iops_per_desktop", "7.8", 7.8, locator="Figure 30", line=1340),
        rec("iops_per_desktop", "7.2", 7.2, locator="Section 8", line=1561),
    ]
    f = run(rows, "per_desktop")
    assert len(f) == 1 and len(f.at[0, "record_ids"].split()) == 4
    assert "7.8" in f.at[0, "message"] and "7.2" in f.at[0, "message"]
