"""Rule ``shares_sum``: shares of one table that should add to 100 % (within their rounding)."""


def test_shares_sum(rec, run, restate):
    row = {"locator": "Table 11", "line": 5, "statistic": "single", "phase": "boot", "unit": "%"}
    bad = [
        rec("random_read_percent", "53", 53, **row),
        rec("random_write_percent", "24", 24, **row),
        rec("sequential_read_percent", "18", 18, **row),
        rec("sequential_write_percent", "10", 10, **row),
    ]
    assert len(run(bad, "shares_sum")) == 1  # 105: beyond 4 x 0.5
    ok = [dict(r) for r in bad]
    restate(ok[3], 6.0, "6")  # 101: rounding
    assert run(ok, "shares_sum").empty
    profile = [
        rec("workload_percent", str(v), v, unit="%", statistic="single", locator="Table 16", line=i, test_id="boot")
        for i, v in enumerate([17, 7, 7, 17, 18, 33, 1])
    ]
    assert run(profile, "shares_sum").empty
    restate(profile[0], 27.0, "27")
    assert len(run(profile, "shares_sum")) == 1
