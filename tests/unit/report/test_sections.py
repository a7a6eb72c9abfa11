"""The report's data access (``report.context.Context``): every table a section reads is a
catalogue table, read through the catalogue with its types; an unknown attribute is an error."""

import pytest

from vdi_report import catalogue
from vdi_report.report.context import TABLES, Context

PARAMS = {
    "desktops": 2000,
    "worker_class": "knowledge",
    "concurrency": 1.0,
    "headroom": 0.2,
    "boot_window_min": 30,
    "raid": "none",
    "failover": "none",
    "report_date": "2026-01-01",
    "cost_file": "",
}


@pytest.mark.unit
def test_every_context_table_is_a_catalogue_table():
    names = {t.name for t in catalogue._TABLES}
    assert set(TABLES.values()) <= names


@pytest.mark.unit
def test_an_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'predictions'"):
        _ = Context(dict(PARAMS)).predictions


@pytest.mark.unit
def test_a_bad_parameter_stops_the_context():
    with pytest.raises(ValueError, match="raid"):
        Context(dict(PARAMS, raid="raid4"))
