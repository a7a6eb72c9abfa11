"""Rule ``statement_changes``: one fact of data/raw/facts.csv stated two ways (synthetic statements,
and the restatements the systematic reading digitized)."""

import pandas as pd

from vdi_report import audit


def test_statement_changes_flags_one_fact_stated_two_ways(rec, stmt, run):
    base = [rec("iops", "1,000", 1000.0)]  # any records: the statement rules read the facts
    bad = [
        stmt("S-DEMO-01", "guest_os_version", "1709"),
        stmt("S-DEMO-02", "guest_os_version", "1703", section="sizing", locator="Section 8", line=90),
    ]
    f = run(base, "statement_changes", facts=bad)
    assert len(f) == 1 and "1709" in f.at[0, "message"] and "1703" in f.at[0, "message"]
    assert f.at[0, "record_ids"] == "S-DEMO-01 S-DEMO-02" and f.at[0, "locators"] == "Section 4.3 | Section 8"
    same = [bad[0], dict(bad[1], value="1709", value_text="1709")]
    assert run(base, "statement_changes", facts=same).empty
    other_fact = [bad[0], dict(bad[1], fact="office_version")]
    assert run(base, "statement_changes", facts=other_fact).empty


def test_statements_found_by_the_rules_from_the_systematic_facts(rec):
    """The restatements the systematic reading digitized are found by statement_changes, among
    them the G8/G8/G9 table titles (D-RA2053-07) and NetApp's pools (D-NTAP-13)."""
    from vdi_report.raw import facts as fm

    f = audit.run_rules(
        pd.DataFrame([rec("iops", "1,000", 1000.0)]), rules=["statement_changes"], facts=fm.load_facts()
    )
    facts_found = set(f["metric"])
    assert {"generations_compared", "desktop_pools", "task_logon_interval", "config1_fmd_raid"} <= facts_found
