"""Rule ``same_quantity``: one quantity stated with different values, at two locators or twice in one
figure; no alarm within printed precision, bounds, parallel rows or other tests."""


def test_same_quantity_flags_different_values_at_two_locators(rec, run):
    rows = [
        rec("latency", "468µs", 0.468, unit="ms", locator="Table 1"),
        rec("latency", "498µs", 0.498, unit="ms", locator="Table 11"),
    ]
    f = run(rows, "same_quantity")
    assert len(f) == 1 and f.at[0, "locators"] == "Table 1 | Table 11"
    assert "468µs" in f.at[0, "message"] and "498µs" in f.at[0, "message"]


def test_same_quantity_no_false_alarm_within_precision_or_bounds(rec, run):
    rows = [
        rec("iops", "3.9K", 3900, locator="Figure 30"),
        rec("iops", "3,900", 3900, locator="Table 13"),
        rec("iops", "3,930", 3930, locator="Section 7", test_id="t2"),
        rec("iops", "3.9K", 3900, locator="Figure 9", test_id="t2"),  # 3.9K covers 3,850-3,950
        rec("duration", "~12 min", 12, unit="min", bound="approx", locator="Table 8", test_id="t3"),
        rec("duration", "11 minutes", 11, unit="min", locator="Section 6", test_id="t3"),
        rec("latency", "< 1ms", 1, unit="ms", bound="lt", locator="Section 6", test_id="t4"),
        rec("latency", "0.45ms", 0.45, unit="ms", locator="Table 1", test_id="t4"),
    ]
    assert run(rows, "same_quantity").empty


def test_same_quantity_ignores_one_locator_and_other_tests(rec, run):
    rows = [
        rec("disk_busy", "33%", 33, unit="%", locator="Figure 11"),
        rec("disk_busy", "76%", 76, unit="%", locator="Figure 11"),  # two tiers in one figure
        rec("iops", "100", 100, locator="Table 1", test_id="a"),
        rec("iops", "200", 200, locator="Table 2", test_id="b"),
    ]
    assert run(rows, "same_quantity").empty


def test_same_quantity_inside_one_figure(rec, run):
    """A value restated inside one figure (bullet vs narrative, two lines) is compared; three or
    more values of one key inside a figure are parallel components and are not."""
    restated = [
        rec("latency", "5.6 milliseconds", 5.6, unit="ms", locator="Figure 12", line=538, statistic="peak"),
        rec("latency", "5 msec", 5.0, unit="ms", locator="Figure 12", line=544, statistic="peak"),
    ]
    f = run(restated, "same_quantity")
    assert len(f) == 1 and "line 538" in f.at[0, "message"] and "line 544" in f.at[0, "message"]
    agree = [
        dict(restated[0]),
        rec("latency", "5.6 msec", 5.6, unit="ms", locator="Figure 12", line=544, statistic="peak"),
    ]
    assert run(agree, "same_quantity").empty
    tiers = [
        rec("disk_busy", v, float(v[:-1]), unit="%", locator="Figure 11", line=i, statistic="peak")
        for i, v in ((513, "33%"), (514, "97%"), (519, "33%"))
    ]
    assert run(tiers, "same_quantity").empty
    profile = [
        rec("io_size", "4KB", 4, unit="KB", locator="Table 16", line=1516, statistic="single"),
        rec("io_size", "8KB", 8, unit="KB", locator="Table 16", line=1517, statistic="single"),
    ]
    assert run(profile, "same_quantity").empty


def test_same_quantity_says_less_than_and_over_as_printed(rec, run):
    """'less than 50%' and 'over 50%' are two statements, not '50% in Section 6.6, Section 7' (F040)."""
    cpu = dict(metric="storage_cpu_utilization", unit="%", test_id="monday_login_failover")
    rows = [
        rec(value_text="40%", value=40.0, locator="Table 11", line=729, **cpu),
        rec(value_text="50%", value=50.0, bound="lt", locator="Section 6.6", line=778, **cpu),
        rec(value_text="50%", value=50.0, bound="gt", locator="Section 7", line=1465, **cpu),
    ]
    f = run(rows, "same_quantity")
    assert len(f) == 1
    msg = f.at[0, "message"]
    assert "less than 50% in Section 6.6" in msg and "over 50% in Section 7" in msg, msg
