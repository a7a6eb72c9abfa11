"""The harness and data path of a planning row (issue 24 item 2): load tool, probes, profile
storage and Provisioning write cache of the row's documents, from data/raw/test_setup.csv."""

import pandas as pd
import pytest

from vdi_report.models import harness
from vdi_report.raw import test_setup

LABELS = {"nutanix_ra2022": "RA-2022", "nutanix_ra2053": "RA-2053", "netapp_tr4540": "NetApp"}


@pytest.fixture(scope="module")
def setup_wide():
    return test_setup.wide(test_setup.load_test_setup())


def _row(provisioning: str, sources: list[str], setup_wide) -> pd.Series:
    rows = pd.DataFrame({"provisioning": [provisioning]})
    return harness.harness_columns(rows, pd.Series([sources]), LABELS, setup_wide).iloc[0]


def test_a_modern_mcs_row_names_each_documents_profile_storage(setup_wide):
    r = _row("mcs", ["nutanix_ra2022", "nutanix_ra2053"], setup_wide)
    # RA-2022's MCS runs: profiles on the desktop disk and in containers on the same storage
    # (test_setup.csv); RA-2053 states none for its MCS run
    assert r["profile_storage"] == "RA-2022: desktop_disk | containers_same_storage; RA-2053: not stated"
    assert "EUX measurements modified" in r["probes"] and r["probes"].count("RA-20") == 2
    assert r["write_cache"] == harness.NOT_STATED  # no Provisioning run in an MCS row


def test_a_provisioning_row_gives_the_write_cache_and_no_profile_storage(setup_wide):
    r = _row("pvs", ["nutanix_ra2022", "nutanix_ra2053"], setup_wide)
    assert r["write_cache"] == "RA-2022: device RAM with overflow to disk; RA-2053: on local hard drive"
    assert r["profile_storage"] == harness.NOT_STATED


def test_the_lines_behind_a_row_point_into_its_documents(setup_wide):
    r = _row("full_clone+linked_clone", ["netapp_tr4540"], setup_wide)
    assert r["load_tool"] == "NetApp: Login VSI 4.1.4.2, office worker"
    lines = r["harness_lines"].split()
    assert lines and len(lines) == len(set(lines))
    assert all(":L" in x and x.split(":L")[1].isdigit() for x in lines)


def test_the_runs_behind_a_row_decide_its_configurations(setup_wide):
    """With the row's runs given (planning_rows passes the records' configurations), a document
    states only what those runs had: RA-2022's MCS rows hold mcs_w11_8n (desktop-disk profiles),
    not its first-run profile-container run mcs_w11_8n_cpm."""
    rows = pd.DataFrame({"provisioning": ["mcs"]})
    runs = pd.Series([[("nutanix_ra2022", "mcs_w11_8n"), ("nutanix_ra2022", "mcs_w10_8n")]])
    r = harness.harness_columns(rows, pd.Series([["nutanix_ra2022"]]), LABELS, setup_wide, runs).iloc[0]
    assert r["profile_storage"] == "RA-2022: desktop_disk"
