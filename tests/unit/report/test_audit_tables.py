"""The report's audit tables (``vdi_report.report.audit_tables``): findings in the words a reader knows."""

import pandas as pd

from vdi_report.report import audit_tables


def test_findings_in_plain_words():
    """The report names a test, a metric and a configuration as a reader knows them, never by
    the internal id ("vsibase of test knowledge_login" once stood in the audit chapter)."""
    tests = pd.DataFrame(
        [
            {
                "source_id": "accelstor_p710",
                "test_id": "knowledge_login",
                "phase": "login_and_steady_state",
                "variant": "",
                "configuration": "",
                "worker_class": "knowledge",
            },
            {
                "source_id": "nutanix_ra2053",
                "test_id": "w11_mcs_1n",
                "phase": "full_run",
                "variant": "",
                "configuration": "",
                "worker_class": "knowledge",
            },
        ]
    )
    words = audit_tables.PlainWords(tests)
    got = words(
        "vsibase of test knowledge_login is stated as 1087 ms; average iops of test other_test", "accelstor_p710"
    )
    assert got.startswith("Login VSI VSIbase of the Login + steady state (knowledge) test is stated as 1087 ms")
    assert "average IOPS of test other test" in got  # an unknown test id is not invented, only spelled out
    assert words("80 % (g8_1n)", "nutanix_ra2053") == "80 % (G8, 1 node)"
    assert words("knowledge_login", "nutanix_ra2053") == "knowledge login"  # another document's test: not its label
