"""The report's data access (``report.context.Context``), without a build: every table a section
reads is a catalogue table; an unknown attribute or a bad parameter is an error (the tables read
typed from the built data: tests/report/test_report_sections.py)."""

import pytest

from vdi_report import catalogue
from vdi_report.report.context import TABLES, Context


def test_every_context_table_is_a_catalogue_table():
    names = {t.name for t in catalogue._TABLES}
    assert set(TABLES.values()) <= names


def test_an_unknown_attribute_is_an_attribute_error(context_params):
    with pytest.raises(AttributeError, match="no attribute 'predictions'"):
        _ = Context(context_params).predictions


def test_a_bad_parameter_stops_the_context(context_params):
    with pytest.raises(ValueError, match="raid"):
        Context(dict(context_params, raid="raid4"))
