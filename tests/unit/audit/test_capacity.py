"""Rule ``capacity``: drives x drive capacity against the stated raw capacity (usable may be lower)."""

import math


def test_capacity(rec, run, restate):
    tb = {"unit": "GB", "statistic": "single", "phase": "testbed", "test_id": "testbed", "locator": "Section 3"}
    rows = [
        rec(
            "drives",
            "60",
            60,
            unit="count",
            statistic="single",
            phase="testbed",
            test_id="testbed",
            locator="Section 3",
        ),
        rec("drive_capacity", "1.92TB", 1920, **tb),
        rec("raw_capacity", "99TB", 99000, **tb),
    ]
    rows[1]["reported_value"], rows[1]["reported_unit"] = 1.92, "TB"
    rows[2]["reported_value"], rows[2]["reported_unit"] = 99, "TB"
    f = run(rows, "capacity")
    assert len(f) == 1 and math.isclose(f.at[0, "recomputed"], 115200)
    restate(rows[2], 115000.0, "115TB", reported=115)
    assert run(rows, "capacity").empty  # 115TB within 60 x (1.915-1.925) TB and its own rounding
    restate(rows[2], 80000.0, "80TB", reported=80, metric="usable_capacity")
    assert run(rows, "capacity").empty  # usable below raw is fine
    restate(rows[2], 130000.0, "130TB", reported=130)
    assert len(run(rows, "capacity")) == 1
