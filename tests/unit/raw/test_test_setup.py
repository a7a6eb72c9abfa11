"""data/raw/test_setup.csv (issue 24): how each test was run and where its I/O went, every value with
the line it comes from; bad input named by file, line, column and value."""

import shutil

import pandas as pd
import pytest

from vdi_report import config
from vdi_report.raw import provenance, sources, test_setup


@pytest.mark.usefixtures("source_texts")
def test_every_setup_value_is_quoted_verbatim_at_its_line(sources_df):
    s = test_setup.load_test_setup()
    dirs = sources_df.set_index("source_id")["text_dir"]
    for r in s.itertuples():
        lines = provenance.text_path(dirs[r.source_id], r.text_file).read_text(encoding="utf-8").splitlines()
        assert r.quote in lines[r.line - 1], (r.source_id, r.configuration, r.factor, r.line)


def test_every_document_declares_its_harness_and_every_citrix_run_its_provisioning(sources_df):
    w = test_setup.wide(test_setup.load_test_setup())
    docs = w[w["configuration"] == ""].set_index("source_id")
    for sid in sources_df["source_id"]:
        assert docs.at[sid, "load_tool"] and docs.at[sid, "probes"], sid
    # every Provisioning run names where its write cache lives
    pvs = w[w["provisioning"] == "pvs"]
    assert set(zip(pvs["source_id"], pvs["configuration"])) == {
        ("nutanix_ra2022", "pvs_w11_8n"),
        ("nutanix_ra2022_2023", "g8_pvs_8n"),
        ("nutanix_ra2053", "pvs_8n"),
        ("nutanix_ra2136", "pvs_w11_6n_amd"),
    }
    assert (pvs["write_cache"] != "").all()
    assert (w.loc[w["provisioning"] != "", "provisioning_source"].str.match(r"^\S+:L\d+( \(assumed\))?$")).all()


@pytest.mark.parametrize(
    "line, message",
    [
        ("nutanix_ra2022,mcs_w11_8n,provisioning,vdi,stated,nutanix_ra2022_06_validation_results.md,1,x,", "'vdi'"),
        ("nutanix_ra9999,,probes,x,stated,nutanix_ra2022_06_validation_results.md,1,x,", "not in sources.csv"),
        ("nutanix_ra2022,,probes,x,stated,nowhere.md,1,x,", "column 'text_file' = 'nowhere.md'"),
        ("nutanix_ra2022,,probes,x,maybe,nutanix_ra2022_06_validation_results.md,1,x,", "maybe"),
        ("nutanix_ra2022,,load_tool,x,stated,nutanix_ra2022_06_validation_results.md,11,x,", "given twice"),
    ],
)
def test_bad_setup_line_is_named_and_nothing_else_changes(tmp_path, line, message):
    raw = tmp_path / "raw"
    shutil.copytree(config.RAW_DIR, raw)
    f = raw / "test_setup.csv"
    before = f.read_text(encoding="utf-8")
    f.write_text(before + line + "\n", encoding="utf-8")
    with pytest.raises(sources.RawDataError, match=message) as e:
        test_setup.load_test_setup(f)
    n = len(before.splitlines()) + 1
    assert str(f) in str(e.value) and f"line {n}" in str(e.value)


def test_setup_wide_is_read_once_and_again_when_the_file_changes(tmp_path):
    """setup_wide keeps the validated file for a process (the sensitivity grid asks ~100 times)
    and reads it again when it changes: a changed line is seen, a bad line is refused."""
    import os

    raw = tmp_path / "raw"
    shutil.copytree(config.RAW_DIR, raw)
    f = raw / "test_setup.csv"
    first = test_setup.setup_wide(f)
    first.loc[:, "probes"] = "changed by a caller"  # a copy: the next call is not affected
    assert test_setup.setup_wide(f).equals(test_setup.wide(test_setup.load_test_setup(f)))
    text = f.read_text(encoding="utf-8")
    f.write_text(text + "nutanix_ra2022,,load_tool,x,stated,nutanix_ra2022_06_validation_results.md,11,x,\n")
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    with pytest.raises(sources.RawDataError, match="given twice"):
        test_setup.setup_wide(f)


def test_lookup_takes_the_configurations_line_then_the_documents():
    w = test_setup.wide(
        pd.DataFrame(
            {
                "source_id": ["s", "s", "s"],
                "configuration": ["", "c1", "c2"],
                "factor": ["probes", "probes", "provisioning"],
                "value": ["doc-wide", "own", "mcs"],
                "basis": ["stated"] * 3,
                "text_file": ["t.md"] * 3,
                "line": [1, 2, 3],
                "quote": ["q"] * 3,
                "note": [""] * 3,
            }
        )
    )
    assert test_setup.lookup(w, "s", "c1", "probes") == ("own", "t.md:L2")
    assert test_setup.lookup(w, "s", "c2", "probes") == ("doc-wide", "t.md:L1")
    assert test_setup.lookup(w, "s", "c9", "provisioning") == ("", "")
    assert test_setup.lookup(w, "other", "c1", "probes") == ("", "")
    with pytest.raises(KeyError):
        test_setup.lookup(w, "s", "c1", "no_such_factor")


def test_a_frames_lookup_index_goes_with_the_frame():
    import gc

    w = test_setup.wide(test_setup.load_test_setup())
    test_setup.lookup(w, "nutanix_ra2022", "", "probes")
    key = id(w)
    assert key in test_setup._INDEX
    del w
    gc.collect()
    assert key not in test_setup._INDEX
