"""Shared fixtures and the three test layers.

The folder sets a test's layer (pytest marker), so no test lists it:

- ``tests/unit/`` (mirrors ``src/vdi_report``): needs no build (code on small inputs, data/raw,
  repository files, throw-away copies of the project);
- ``tests/data/``: reads data/processed (``make data`` and the model stages; fixtures
  ``results``, ``tests_table``, ``processed``, ``findings``);
- ``tests/report/``: reads the rendered report (``make report``; fixtures ``report_pdf``,
  ``report_html``, ``pdf_text``).

A test in a lower layer that asks for a fixture of a higher one is a collection error. Run one
layer with ``pytest -m unit`` (``make test-unit``, ``make test-data``, ``make test-report``).
"""

import re
from pathlib import Path

import pandas as pd
import pytest

from vdi_report import catalogue, config
from vdi_report.raw import sources

DATA_FIXTURES = {"results", "tests_table", "processed", "findings"}
REPORT_FIXTURES = {
    "report_pdf",
    "report_html",
    "reader",
    "pages",
    "pdf_text",
    "built",
}  # built: a copy of the built project


LAYERS = ("unit", "data", "report")
TESTS_DIR = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        folder = Path(str(item.fspath)).relative_to(TESTS_DIR).parts[0]
        if folder not in LAYERS:
            raise pytest.UsageError(f"{item.nodeid}: a test lives in tests/unit, tests/data or tests/report")
        used = set(getattr(item, "fixturenames", ()))
        above = (
            (DATA_FIXTURES | REPORT_FIXTURES) if folder == "unit" else REPORT_FIXTURES if folder == "data" else set()
        )
        if used & above:
            raise pytest.UsageError(
                f"{item.nodeid} is in tests/{folder} but uses {', '.join(sorted(used & above))}: "
                "move it to the layer that builds what it reads"
            )
        item.add_marker(getattr(pytest.mark, folder))


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


@pytest.fixture(scope="session")
def reader(report_pdf):
    """The built PDF (pypdf reader)."""
    from pypdf import PdfReader

    return PdfReader(report_pdf)


@pytest.fixture(scope="session")
def pages(reader) -> list[str]:
    """Text of each PDF page, whitespace runs collapsed to one space."""
    return [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]


@pytest.fixture(scope="session")
def pdf_text(pages) -> str:
    """The whole PDF's text, whitespace runs collapsed to one space (the one PDF-text helper)."""
    return re.sub(r"\s+", " ", " ".join(pages))
