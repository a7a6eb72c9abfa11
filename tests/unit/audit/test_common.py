"""The audit's shared helpers (``audit.common``): the precision a printed number carries."""

import math

import pytest

from vdi_report import audit


@pytest.mark.parametrize(
    "text, value, half",
    [
        ("441µs", 441, 0.5),
        ("3.2K", 3.2, 0.05),
        ("0.59ms", 0.59, 0.005),
        ("216,000", 216000, 0.5),
        ("8,1", 8.1, 0.05),
        ("~12 min", 12, 0.5),
        ("approximately 41,021", 41021, 0.5),
        ("1.92TB", 1.92, 0.005),
    ],
)
def test_printed_half_step(text, value, half):
    assert math.isclose(audit.printed_half_step(text, value), half)
