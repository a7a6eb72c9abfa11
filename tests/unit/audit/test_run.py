"""Running the rules (``audit.run``): deterministic order and columns, unknown rules and missing columns
rejected, statement rules without statements, and the register's coverage by the findings."""

import pandas as pd
import pytest

from vdi_report import audit


def test_run_rules_is_deterministic_and_rejects_unknown_rule(rec):
    rows = [
        rec("latency", "468µs", 0.468, unit="ms", locator="Table 1"),
        rec("latency", "498µs", 0.498, unit="ms", locator="Table 11"),
    ]
    a, b = audit.run_rules(pd.DataFrame(rows)), audit.run_rules(pd.DataFrame(rows[::-1]))
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == audit.FINDING_COLUMNS
    with pytest.raises(KeyError, match="unknown rule"):
        audit.run_rules(pd.DataFrame(rows), rules=["no_such_rule"])
    with pytest.raises(KeyError, match="lack columns"):
        audit.run_rules(pd.DataFrame(rows).drop(columns="vantage"))


def test_fact_rules_without_facts_find_nothing(rec):
    assert audit.run_rules(
        pd.DataFrame([rec("iops", "1,000", 1000.0)]), rules=["statement_changes", "similar_claim"]
    ).empty


def test_register_coverage_says_stated_only_when_a_finding_cites_every_statement():
    reg = pd.DataFrame(
        [
            {
                "id": "D-DEMO-01",
                "source_id": "demo",
                "a_locator": "Table 1",
                "a_line": "10",
                "b_locator": "Table 2",
                "b_line": "20",
                "rejected_records": "",
            },
            {
                "id": "D-DEMO-02",
                "source_id": "demo",
                "a_locator": "Table 1",
                "a_line": "10",
                "b_locator": "",
                "b_line": "",
                "rejected_records": "",
            },
            {
                "id": "D-DEMO-03",
                "source_id": "demo",
                "a_locator": "Table 9",
                "a_line": "90",
                "b_locator": "",
                "b_line": "",
                "rejected_records": "",
            },
        ]
    )
    one = {"source_id": "demo", "record_ids": "DEMO-0001", "locators": "Table 1", "lines": "10"}
    cov = audit.register_coverage(pd.DataFrame([one]), reg)
    assert cov.to_dict() == {"D-DEMO-01": "linked", "D-DEMO-02": "stated", "D-DEMO-03": "none"}
    both = dict(one, record_ids="DEMO-0001 DEMO-0002", locators="Table 1 | Table 2", lines="10 20")
    assert audit.register_coverage(pd.DataFrame([both]), reg)["D-DEMO-01"] == "stated"
    chart = dict(one, locators="Figure: X (time axis 01:02-01:27)", lines="42")
    reg_chart = reg.assign(a_locator="Figure: X", a_line="42").iloc[[1]]
    assert audit.register_coverage(pd.DataFrame([chart]), reg_chart).iloc[0] == "stated"
