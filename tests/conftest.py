"""Shared fixtures: the processed data and the rendered report (built by `make test` first)."""

import pandas as pd
import pytest

from vdi_report import config, normalize, sources


def _need(path):
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make report` (make test builds it first)")
    return path


@pytest.fixture(scope="session")
def results() -> pd.DataFrame:
    return normalize.read_normalized(_need(config.PROCESSED_DIR / "results.csv"))


@pytest.fixture(scope="session")
def tests_table() -> pd.DataFrame:
    return pd.read_csv(_need(config.PROCESSED_DIR / "tests.csv"), keep_default_na=False)


@pytest.fixture(scope="session")
def sources_df() -> pd.DataFrame:
    return sources.load_sources()


@pytest.fixture(scope="session")
def report_pdf():
    return _need(config.REPORTS_DIR / "vdi_storage_comparison.pdf")


@pytest.fixture(scope="session")
def report_html():
    return _need(config.REPORTS_DIR / "vdi_storage_comparison.html")
