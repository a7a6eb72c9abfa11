"""Helpers of the build-safety and fault tests: what a build leaves in data/processed and reports/."""

import csv
import hashlib
from pathlib import Path

import pytest

OUTPUTS = ("data/processed", "reports")
# The scenario stage's tables in data/processed depend on the report parameters: once that stage
# has finished, a build stopped later leaves them as a correct new set for the new parameters
# (written atomically, each consistent with its inputs), while reports/ keeps the previous set.
SCENARIO_TABLES = ("data/processed/sizing_scenario.csv", "data/processed/array_verdicts.csv")


def snapshot(root: Path) -> dict[str, str]:
    """SHA-256 of every file under data/processed and reports."""
    out = {}
    for rel in OUTPUTS:
        for p in sorted((root / rel).rglob("*")):
            if p.is_file():
                out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def assert_previous_set_or_new_scenario(root: Path, before: dict[str, str], desktops: str) -> None:
    """Every file under data/processed and reports/ as in ``before`` (a ``snapshot``), except the
    scenario stage's tables, which are either as before or built whole for ``desktops``."""
    after = snapshot(root)
    assert {k: v for k, v in after.items() if k not in SCENARIO_TABLES} == {
        k: v for k, v in before.items() if k not in SCENARIO_TABLES
    }
    if after.get(SCENARIO_TABLES[0]) != before.get(SCENARIO_TABLES[0]):
        with open(root / SCENARIO_TABLES[0], encoding="utf-8", newline="") as fh:
            assert {float(r["desktops"]) for r in csv.DictReader(fh)} == {float(desktops)}
        assert after.get(SCENARIO_TABLES[1]) != before.get(SCENARIO_TABLES[1])


@pytest.fixture
def previous_set_or_new_scenario():
    """``assert_previous_set_or_new_scenario`` (a fixture: test modules do not import each other)."""
    return assert_previous_set_or_new_scenario
