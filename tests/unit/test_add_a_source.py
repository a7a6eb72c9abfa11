"""Adding a source is adding files: a synthetic fifth source, made by copying one records file
under a new source id and record prefix and adding one sources.csv row, builds in a throw-away
copy of the project with no code change and appears in results.csv and the report."""

from pathlib import Path

import pandas as pd
import pytest

from vdi_report import config
from vdi_report.raw import sources

NEW_ID, NEW_PREFIX, NEW_VENDOR = "synthetic_copy", "SYNTHX", "Synthetic Copy Storage"


@pytest.fixture(scope="module")
def project(tmp_path_factory, copy_project) -> tuple[Path, pd.DataFrame]:
    """A copy of the project (code unchanged, .venv shared) with one more source; returns the
    copy and the sources.csv row of the source it copied."""
    root = copy_project(tmp_path_factory.mktemp("project"), "data/raw")

    srcs = sources.load_sources()
    original = srcs[srcs["role"] == "seed"].iloc[0]
    raw = pd.read_csv(config.RECORDS_DIR / f"{original['source_id']}.csv", dtype=str, keep_default_na=False)
    raw["source_id"] = NEW_ID
    raw["record_id"] = raw["record_id"].str.replace(f"^{original['record_prefix']}-", f"{NEW_PREFIX}-", regex=True)
    raw.to_csv(root / "data/raw/records" / f"{NEW_ID}.csv", index=False)
    table = pd.read_csv(config.RAW_DIR / "sources.csv", dtype=str, keep_default_na=False)
    row = table[table["source_id"] == original["source_id"]].assign(
        source_id=NEW_ID, record_prefix=NEW_PREFIX, vendor=NEW_VENDOR
    )
    pd.concat([table, row]).to_csv(root / "data/raw/sources.csv", index=False)
    return root, original


@pytest.mark.slow
def test_a_fifth_source_builds_and_appears_in_results(project, make_in):
    root, original = project
    make_in(root, "data")
    results = pd.read_csv(root / "data/processed/results.csv", dtype=str, keep_default_na=False)
    mine = results[results["source_id"] == NEW_ID]
    theirs = results[results["source_id"] == original["source_id"]]
    assert len(mine) == len(theirs) > 0
    assert set(mine["vendor"]) == {NEW_VENDOR}
    assert mine["record_id"].str.startswith(f"{NEW_PREFIX}-").all()
    assert list(mine["value"]) == list(theirs["value"])
    assert (root / "data/processed/normalized" / f"{NEW_ID}.csv").is_file()
    tests = pd.read_csv(root / "data/processed/tests.csv", dtype=str, keep_default_na=False)
    assert NEW_ID in set(tests["source_id"])


@pytest.mark.slow
def test_a_fifth_source_reaches_the_report(project, make_in):
    root, _ = project
    make_in(root, "report")
    from pypdf import PdfReader

    text = " ".join(p.extract_text() for p in PdfReader(root / "reports/vdi_storage_comparison.pdf").pages)
    assert NEW_VENDOR in " ".join(text.split())
