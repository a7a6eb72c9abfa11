"""Rule ``comparison``: a stated percent difference against the two values it compares (base stated,
unstated, wrong, not reproduced)."""


def test_comparison_wrong_base_and_unstated_base(rec, run, restate):
    common = {"locator": "Table 15", "line": 20, "statistic": "average"}
    difference = {"unit": "%", "statistic": "single", "test_id": "", "locator": "Table 15", "line": 21}
    rows = [
        rec("iops", "21.1K", 21100, test_id="boot", **common),
        rec("iops", "3.6K", 3600, test_id="ss", **common),
        rec("percent_difference", "83%", 83, quote="% difference 83%", **difference),
    ]
    f = run(rows, "comparison")
    assert list(f["severity"]) == ["note"] and "larger" in f.at[0, "message"]
    rows[2]["quote"] = "An 83% IOPS increase is seen during boot"
    f = run(rows, "comparison")
    assert list(f["severity"]) == ["inconsistent"] and "increase" in f.at[0, "message"]
    restate(rows[2], 486.0, "486%", quote="a 486% increase during boot")
    assert run(rows, "comparison").empty  # growth from the smaller value: consistent
    restate(rows[2], 50.0, "50%")
    assert "not reproduced" in run(rows, "comparison").at[0, "message"]
