"""Shared fixtures and the three test layers.

Layers (pytest markers, set here from the fixtures a test uses, so no test file lists them):

- ``unit``: needs no build (code on small inputs, data/raw, repository files);
- ``data``: reads data/processed (``make data`` and the model stages; fixtures ``results``,
  ``tests_table``, ``processed``);
- ``report``: reads the rendered report (``make report``; fixtures ``report_pdf``,
  ``report_html``).

A test may also carry ``@pytest.mark.data`` or ``@pytest.mark.report`` itself. Run one layer
with ``pytest -m unit`` (``make test-unit``, ``make test-data``, ``make test-report``).
"""

import pandas as pd
import pytest

from vdi_report import catalogue, config
from vdi_report.raw import sources

DATA_FIXTURES = {"results", "tests_table", "processed"}
REPORT_FIXTURES = {"report_pdf", "report_html"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        own = {m.name for m in item.iter_markers()}
        if "report" in own or used & REPORT_FIXTURES:
            layer = "report"
        elif "data" in own or used & DATA_FIXTURES:
            layer = "data"
        else:
            layer = "unit"
        if layer not in own:
            item.add_marker(getattr(pytest.mark, layer))


def _need(path, target):
    if not path.exists():
        pytest.fail(f"{path} is missing: run `make {target}` (make test builds it first)")
    return path


@pytest.fixture(scope="session")
def processed():
    """``catalogue.read``, failing with the make target to run when a table is missing."""

    def read(name, **keys):
        _need(catalogue.path(name, **keys), "data")
        return catalogue.read(name, **keys)

    return read


@pytest.fixture(scope="session")
def results(processed) -> pd.DataFrame:
    return processed("results")


@pytest.fixture(scope="session")
def tests_table(processed) -> pd.DataFrame:
    return processed("tests")


@pytest.fixture(scope="session")
def sources_df() -> pd.DataFrame:
    return sources.load_sources()


@pytest.fixture(scope="session")
def report_pdf():
    return _need(config.REPORTS_DIR / "vdi_storage_comparison.pdf", "report")


@pytest.fixture(scope="session")
def report_html():
    return _need(config.REPORTS_DIR / "vdi_storage_comparison.html", "report")
