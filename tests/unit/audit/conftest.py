"""Shared helpers of the audit rules' tests (one test file per rule module): synthetic normalized
records and statements, and one rule run over them. Each helper is a fixture returning a function
placed beside the function it returns (``run``, ``rec``, ``stmt``), so the test files import
nothing from here."""

import pandas as pd
import pytest

from vdi_report import audit
from vdi_report.transform import normalize


@pytest.fixture(scope="session")
def run():
    """``run(rows, rule, facts=None)``: the findings of the rule ``rule`` alone on the records
    ``rows`` (dicts, e.g. from ``rec``) and, for a statement rule, the statements ``facts``
    (dicts, e.g. from ``stmt``)."""

    def run_rule(rows, rule, facts=None):
        return audit.run_rules(pd.DataFrame(rows), rules=[rule], facts=None if facts is None else pd.DataFrame(facts))

    return run_rule


_n = iter(range(1, 10_000))


def make_record(
    metric,
    value_text,
    value,
    *,
    unit="IOPS",
    bound="eq",
    statistic="average",
    test_id="t1",
    phase="steady_state",
    locator="Table 1",
    line=10,
    vantage="host",
    desktops=500.0,
    source_id="demo",
    condition="normal",
    variant="",
    configuration="",
    worker_class="",
    value_high=None,
    quote=None,
    reported=None,
):
    """One normalized record. ``reported``: the number as printed when its unit differs from the
    normalized one (``3.2K`` -> 3.2 kIOPS for value 3200 IOPS); by default a trailing ``K`` in
    ``value_text`` means thousands."""
    lo, hi = normalize.interval(value, value_high, bound, unit)
    if reported is None:
        reported = value / 1000 if value_text.endswith("K") else value
    return {
        "source_id": source_id,
        "vendor": "Demo",
        "record_id": f"DEMO-{next(_n):04d}",
        "test_id": test_id,
        "phase": phase,
        "metric": metric,
        "statistic": statistic,
        "value": value,
        "unit": unit,
        "value_low": lo,
        "value_high": hi,
        "bound": bound,
        "vantage": vantage,
        "condition": condition,
        "variant": variant,
        "configuration": configuration,
        "worker_class": worker_class,
        "desktops": desktops,
        "locator": locator,
        "line": line,
        "value_text": value_text,
        "quote": quote or f"... {value_text} ...",
        "reported_value": reported,
        "reported_unit": unit,
    }


@pytest.fixture(scope="session")
def rec():
    """``rec(metric, value_text, value, **columns)``: one normalized record (``make_record``)."""
    return make_record


def restate_record(record: dict, value: float, value_text: str, *, reported: float | None = None, **columns) -> dict:
    """Change ``record`` (a ``make_record`` dict, bound ``eq``) in place to state ``value`` printed as
    ``value_text``: value, value_low and value_high, reported_value (``reported`` where the printed
    unit differs, else ``value``) and any other ``columns``. Returns the record."""
    reported_value = value if reported is None else reported
    record.update(value=value, value_low=value, value_high=value, reported_value=reported_value, value_text=value_text)
    record.update(columns)
    return record


@pytest.fixture(scope="session")
def restate():
    """``restate(record, value, value_text, *, reported=None, **columns)``: a record changed in place
    to state another value (``restate_record``)."""
    return restate_record


def make_statement(
    fact_id,
    fact,
    value,
    *,
    value_text=None,
    section="method",
    locator="Section 4.3",
    line=10,
    record_ids="",
    about="the Windows version of the desktops",
    source_id="demo",
):
    """One statement as data/raw/facts.csv holds it (``value_text`` defaults to ``value``; the quote
    contains it)."""
    vt = value_text or value
    return {
        "fact_id": fact_id,
        "source_id": source_id,
        "text_file": "",
        "fact": fact,
        "about": about,
        "value": value,
        "value_text": vt,
        "section": section,
        "locator": locator,
        "line": line,
        "quote": f"... {vt} ...",
        "record_ids": record_ids,
        "note": "",
    }


@pytest.fixture(scope="session")
def stmt():
    """``stmt(fact_id, fact, value, **columns)``: one statement of data/raw/facts.csv's shape."""
    return make_statement
