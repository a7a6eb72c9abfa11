"""Rule ``per_session_target``: a per-session CPU figure derived from a target utilization, not measured."""

import math

import pandas as pd

from vdi_report import audit


def test_per_session_target_flags_a_figure_derived_from_a_target(rec, restate):
    tb = {"phase": "testbed", "test_id": "testbed", "statistic": "single", "vantage": ""}
    rows = []
    for cfg, cores, mhz, users, per in (
        ("g7", 36, 2200, 70, 905),
        ("g8", 48, 2800, 120, 896),
        ("g9", 48, 2600, 130, 768),
    ):
        rows += [
            rec("host_cores", str(cores), cores, unit="count", configuration=cfg, **tb),
            rec("cpu_frequency", str(mhz), mhz, unit="MHz", configuration=cfg, **tb),
            rec("desktops_per_host", str(users), users, unit="count", configuration=cfg),
            rec("cpu_mhz_per_session", str(per), per, unit="MHz", configuration=cfg),
        ]
    f = audit.run_rules(pd.DataFrame(rows), rules=["per_session_target"])
    assert len(f) == 1 and "80 %" in f.at[0, "message"]
    # the stated and recomputed shares in the unit the finding names (percent: 80, not 0.8)
    assert f.at[0, "unit"] == "%" and math.isclose(f.at[0, "recomputed"], 80)
    assert math.isclose(f.at[0, "stated"], 100 * 905 * 70 / (36 * 2200), rel_tol=1e-9)
    measured = [dict(r) for r in rows]
    for r in measured:
        if r["metric"] == "cpu_mhz_per_session" and r["configuration"] == "g8":
            restate(r, 950.0, "950")
    assert audit.run_rules(pd.DataFrame(measured), rules=["per_session_target"]).empty
