"""Source audit: consistency rules on synthetic tables (known errors and known-consistent data), real
findings in the four documents, the curated registers (quotes verbatim in the seed texts), and the
register's resolutions applied in results.csv."""

import math

import pytest

from vdi_report import audit, config
from vdi_report.report import audit_tables


@pytest.fixture(scope="module")
def findings():
    path = config.PROCESSED_DIR / "audit_findings.csv"
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make report` (make test builds it first)")
    return audit_tables.read_findings(path)


def _has(findings, rule, *record_ids):
    f = findings[findings["rule"] == rule]
    return any(all(r in ids.split() for r in record_ids) for ids in f["record_ids"])


def test_findings_file_matches_a_fresh_run(findings, results):
    from vdi_report.raw import facts

    fresh = audit.run_rules(results, facts=facts.load_facts())
    assert len(fresh) == len(findings)
    assert list(fresh["record_ids"]) == list(findings["record_ids"])


def test_rules_run_on_every_source(findings, results):
    assert set(findings["source_id"]) <= set(results["source_id"])
    assert {"netapp_tr4540", "accelstor_p710", "dell_sc9000"} <= set(findings["source_id"])


def test_netapp_monday_failover_latency_table1_vs_table11(findings):
    """Table 1 (and Table 5) print 468µs, Table 11 prints 498µs for the same test."""
    assert _has(findings, "same_quantity", "NTAP-0020", "NTAP-0102")


def test_netapp_boot_time_and_patch_details(findings):
    assert _has(findings, "same_quantity", "NTAP-0339")  # 10 minutes vs ~12 min
    assert _has(findings, "same_quantity", "NTAP-0034", "NTAP-0330")  # 3 sec vs 10 seconds delay
    # the caption's 10 pools and the script's -numvms 130 describe different things: no product
    assert not _has(findings, "count_product", "NTAP-0295")


def test_dell_capacity_and_management_servers(findings):
    f = findings[findings["rule"] == "capacity"]
    msg = f[f["record_ids"].str.contains("DELL-0029")]["message"].iloc[0]
    assert "115,200" in msg and "active_drives" in msg  # 60 x 1.92TB; 99TB = 57 x 1.75TB
    assert _has(findings, "count_product", "DELL-0010", "DELL-0011")  # 4 x 875 = 3,500


def test_accelstor_totals_and_bases(findings):
    assert _has(findings, "read_write_total", "ACCS-0022", "ACCS-0023")  # 3,200 + 377 != 3,900
    assert _has(findings, "same_quantity", "ACCS-0222", "ACCS-0256")  # 3,900 vs 3.6K
    assert _has(findings, "same_quantity", "ACCS-0148", "ACCS-0210")  # VSIbase swapped in Figure 31
    assert _has(findings, "average_above_peak", "ACCS-0032", "ACCS-0240")  # refresh 0.27ms avg > 0.14ms peak
    wrong_base = findings[(findings["rule"] == "comparison") & (findings["severity"] == "inconsistent")]
    assert wrong_base["record_ids"].str.contains("ACCS-0248").any()  # "83% increase" is a decrease


def test_hitachi_shares_within_rounding_raise_no_finding(findings):
    """Tables 11/12 sum to 101/101/99 %: within the rounding of four integer shares (100 +/- 2)."""
    assert (
        not (findings["rule"] == "shares_sum").any()
        or not findings[findings["rule"] == "shares_sum"]["source_id"].eq("hitachi_g600").any()
    )


@pytest.fixture(scope="module")
def register():
    return audit.load_discrepancies()


def test_resolutions_applied_in_results(results, register):
    res = audit.resolutions(register)
    assert len(res) > 0
    r = results.set_index("record_id")
    assert not r.loc[res["record_id"], "used_in_analysis"].any()
    for rid, did in zip(res["record_id"], res["discrepancy_id"]):
        assert r.at[rid, "resolution"].startswith(f"{did}: ")
    others = r.drop(index=res["record_id"])
    assert others["used_in_analysis"].all() and (others["resolution"] == "").all()


def test_netapp_failover_latency_resolution(results):
    """D-NTAP-01: the analysis uses Table 11's 498µs; the summary tables' 468µs are set aside."""
    r = results.set_index("record_id")
    assert not r.at["NTAP-0020", "used_in_analysis"] and not r.at["NTAP-0054", "used_in_analysis"]
    assert r.at["NTAP-0102", "used_in_analysis"] and math.isclose(r.at["NTAP-0102", "value"], 0.498)


def test_real_findings_of_the_statement_rules(processed):
    f = processed("audit_findings")
    assert (f["rule"] == "statement_changes").sum() >= 4
    assert any("S-RA2022-01" in x and "S-RA2022-02" in x for x in f["record_ids"])  # logon vs boot phase
    assert any("S-RA2022-05" in x for x in f["record_ids"])  # first run vs averages across runs
    sim = f[f["rule"] == "similar_claim"]
    assert any("S-RA2022-06" in x for x in sim["record_ids"]) and not any("S-RA2022-08" in x for x in sim["record_ids"])
    assert any("RA2053-0300" in x for x in f.loc[f["rule"] == "per_session_target", "record_ids"])


def test_the_rules_state_at_least_30_percent_of_the_register_by_themselves(findings):
    """Issue 26 item 3: with the systematically digitized facts the rules alone state (one finding
    citing every statement of the entry) at least 30 % of the register; before they stated 25 of
    115 entries (21.7 %)."""
    cov = audit.register_coverage(findings, audit.load_discrepancies())
    assert (cov == "stated").mean() >= 0.30, cov.value_counts().to_dict()


def test_every_rule_finding_is_judged_in_the_register(findings):
    """Issue 26 item 4: an automated finding no register entry judges is an inconsistency the
    register leaves unflagged (the last three were RA-2022's profile location, D-RA2022-19, and the
    2023 edition's two boot CPU charts, D-RA2022E-07): each finding names its entries."""
    unjudged = findings[findings["register_ids"].fillna("").astype(str).str.strip() == ""]
    assert unjudged.empty, unjudged[["finding_id", "rule", "source_id", "message"]].to_string()
