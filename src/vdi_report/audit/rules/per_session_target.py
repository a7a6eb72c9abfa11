"""Rule ``per_session_target``: a per-session CPU figure presented as a result that equals a
round utilization target x cores x clock / sessions in every configuration: it follows from the
target, it was not measured."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..common import finding, fmt
from ..registry import rule

ROUND_STEP = 0.05  # a utilization target is a round share (80 %, 85 %): a multiple of 5 %


@rule(
    92,
    "per_session_target",
    "CPU per session = target",
    "a per-session CPU figure (MHz per session) equals one round utilization share of cores x clock / sessions "
    "in every configuration: derived from a target, not measured",
)
def rule_per_session_target(df: pd.DataFrame) -> list[dict]:
    """Per source: for each configuration stating ``cpu_mhz_per_session`` (m, MHz), ``host_cores`` (c),
    ``cpu_frequency`` (f, in MHz from its normalized GHz) and ``desktops_per_host`` (n), the implied host CPU share
    u = m x n / (c x f), with its interval from the printed precision of m. A finding when two or
    more configurations imply one common share (their intervals intersect) that contains a
    multiple of ``ROUND_STEP``: measured figures of different hardware do not agree to the
    printed digit on a round number."""
    need = ("cpu_mhz_per_session", "host_cores", "cpu_frequency", "desktops_per_host")
    d = df[df["metric"].isin(need) & (df["configuration"] != "")]
    out = []
    for _sid, g in d.groupby("source_id", sort=True):
        rows = []
        for cfg, h in g.groupby("configuration", sort=True):
            if not all((h["metric"] == m).any() for m in need):
                continue
            m, c, f, n = (h[h["metric"] == x].sort_values("record_id").iloc[0] for x in need)
            mhz = f["value"] * (1000.0 if f["unit"] == "GHz" else 1.0)  # cpu_frequency is normalized in GHz
            k = n["value"] / (c["value"] * mhz)
            rows.append((cfg, m["lo"] * k, m["hi"] * k, m["value"] * k, [m, c, f, n]))
        if len(rows) < 2:
            continue
        lo, hi = max(r[1] for r in rows), min(r[2] for r in rows)
        step = np.ceil(lo / ROUND_STEP - 1e-9) * ROUND_STEP
        if lo > hi or step > hi:
            continue
        recs = pd.DataFrame([x for r in rows for x in r[4]])
        said = ", ".join(f"{fmt(100 * r[3])} % ({r[0]})" for r in rows)
        out.append(
            finding(
                "per_session_target",
                recs,
                f"MHz per session x sessions / (cores x clock) gives {said} (derived): every configuration sits at "
                f"{fmt(100 * step)} % of its CPU, so the per-session figure follows from a utilization target and was "
                "not measured.",
                stated=float(100 * rows[0][3]),  # in percent, as the unit says (it printed 0.8 for 80 %)
                recomputed=float(100 * step),
                unit="%",
            )
        )
    return out
