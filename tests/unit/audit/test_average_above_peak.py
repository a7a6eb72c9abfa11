"""Rule ``average_above_peak``: an average above the peak of the same quantity."""


def test_average_above_peak(rec, run):
    rows = [
        rec("latency", "0.27ms", 0.27, unit="ms", test_id="refresh", locator="Table 1"),
        rec("latency", "0.14ms", 0.14, unit="ms", statistic="peak", test_id="refresh", locator="Table 14"),
        rec("read_iops", "860", 860, test_id="refresh", locator="Table 1"),
        rec("iops", "527", 527, statistic="peak", test_id="refresh", locator="Table 14"),
    ]
    assert len(run(rows, "average_above_peak")) == 2
    ok = [
        rec("latency", "0.59ms", 0.59, unit="ms"),
        rec("latency", "0.59ms", 0.59, unit="ms", statistic="peak"),
        rec("iops", "< 40%", 40, unit="%", bound="lt", statistic="peak"),
        rec("iops", "39%", 39, unit="%"),
    ]
    assert run(ok, "average_above_peak").empty
