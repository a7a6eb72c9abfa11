"""Sizing scenario: ``desktops`` desktops of one Login VSI ``worker_class`` with ``headroom``.

Required IOPS = desktops x IOPS per desktop (model estimate and 90 % PI) / (1 - headroom).
Capacity of a tested configuration in a phase = the peak IOPS it delivered in its test x 100 /
the peak utilization of its busiest resource in that phase (the density scaling law); without a
utilization figure the capacity is only what the test demonstrated (a lower bound).
"""

import math
import sys

import numpy as np
import pandas as pd

from . import iops
from .density import LIMIT_PCT, UTILIZATION_METRICS

PHASE_SOURCES = {"boot": ("boot", "overall"), "login": ("login", "login_and_steady_state", "overall"),
                 "steady_state": ("steady_state", "login_and_steady_state", "overall")}
IOPS_VANTAGES = ("array_frontend", "host", "storage_port", "")


def validate(desktops, worker_class, headroom) -> tuple[int, str, float]:
    """Check the scenario parameters; returns them typed (int, str, float).

    Raises ValueError with a plain message: desktops must be a positive whole number;
    worker_class one of ``iops.WORKER_CLASSES``; headroom a fraction in [0, 1).
    """
    try:
        d = float(desktops)
    except (TypeError, ValueError):
        raise ValueError(f"desktops must be a positive whole number, got {desktops!r}") from None
    if not math.isfinite(d) or d <= 0 or d != int(d):
        raise ValueError(f"desktops must be a positive whole number, got {desktops!r}")
    if worker_class not in iops.WORKER_CLASSES:
        raise ValueError(f"unknown worker_class {worker_class!r}; use one of {', '.join(iops.WORKER_CLASSES)} (Login VSI terms)")
    try:
        h = float(headroom)
    except (TypeError, ValueError):
        raise ValueError(f"headroom must be a fraction in [0, 1), e.g. 0.2 for 20 %, got {headroom!r}") from None
    if not (0 <= h < 1):
        raise ValueError(f"headroom must be a fraction in [0, 1), e.g. 0.2 for 20 %, got {headroom!r}")
    return int(d), worker_class, h


def required_iops(pred: pd.DataFrame, desktops, worker_class, headroom) -> pd.DataFrame:
    """Required array IOPS per phase and statistic.

    ``pred``: the table of iops_per_desktop_model.csv. Columns: phase, statistic,
    per_desktop, per_desktop_pi90_low, per_desktop_pi90_high (IOPS per desktop), required,
    required_pi90_low, required_pi90_high (IOPS, including headroom). Raises ValueError for
    invalid parameters (``validate``).
    """
    n, wc, h = validate(desktops, worker_class, headroom)
    p = pred[pred["worker_class"] == wc].copy()
    out = pd.DataFrame({"phase": p["phase"], "statistic": p["statistic"], "per_desktop": p["estimate"],
                        "per_desktop_pi90_low": p["pi90_low"], "per_desktop_pi90_high": p["pi90_high"]})
    for src, dst in (("estimate", "required"), ("pi90_low", "required_pi90_low"), ("pi90_high", "required_pi90_high")):
        out[dst] = n * p[src].to_numpy() / (1 - h)
    return out.reset_index(drop=True)


def capacity(results: pd.DataFrame) -> pd.DataFrame:
    """Per vendor, configuration and phase (boot, login, steady_state): tested_iops (the highest
    peak total IOPS reported at the front end, host or port, normal condition; an average when
    no peak is reported), its record and statistic; utilization_pct of the busiest resource
    (peak), its bound and record; capacity_iops (tested x 100 / utilization, or tested when no
    utilization is reported) and capacity_basis.
    """
    io = results[(results["metric"] == "iops") & results["used_in_analysis"] & (results["condition"] != "failover")
                 & (results["variant"] != "tuesday") & results["vantage"].isin(IOPS_VANTAGES) & (results["test_id"] != "")
                 & (results["test_id"] != "testbed") & results["statistic"].isin(["peak", "average"])]
    ut = results[results["metric"].isin(list(UTILIZATION_METRICS)) & (results["statistic"] == "peak") & results["used_in_analysis"]
                 & (results["condition"] != "failover") & (results["variant"] != "tuesday")]
    ut = ut.assign(phase=ut["phase"].replace("", "overall"))
    rows = []
    for (vendor, conf), _ in results[results["source_id"].isin(io["source_id"].unique())].groupby(["vendor", "configuration"]):
        for phase, srcs in PHASE_SOURCES.items():
            i = io[(io["vendor"] == vendor) & (io["configuration"] == conf) & io["phase"].isin(srcs)]
            if i.empty:
                continue
            pk = i[i["statistic"] == "peak"]
            i = (pk if len(pk) else i).sort_values(["value", "record_id"], ascending=[False, True])
            t = i.iloc[0]
            u = ut[(ut["vendor"] == vendor) & ut["configuration"].isin([conf, ""]) & ut["phase"].isin(srcs)]
            row = {"vendor": vendor, "configuration": conf, "phase": phase, "tested_iops": t["value"],
                   "tested_bound": t["bound"], "tested_statistic": t["statistic"], "tested_record": t["record_id"]}
            if len(u):
                b = u.sort_values(["value", "record_id"], ascending=[False, True]).iloc[0]
                cap = t["value"] * LIMIT_PCT / min(b["value"], LIMIT_PCT)
                basis = {"lt": "scaling law, lower bound (utilization '<')", "gt": "scaling law, upper bound"}.get(b["bound"], "scaling law")
                row.update(utilization_pct=b["value"], utilization_bound=b["bound"], utilization_record=b["record_id"],
                           capacity_iops=cap, capacity_basis=basis)
            else:
                row.update(utilization_pct=np.nan, utilization_bound="", utilization_record="",
                           capacity_iops=t["value"], capacity_basis="demonstrated only (no utilization)")
            rows.append(row)
    return pd.DataFrame(rows)


def coverage(required: pd.DataFrame, cap: pd.DataFrame) -> pd.DataFrame:
    """Which tested configurations cover the scenario's peak demand, phase by phase.

    Columns: vendor, configuration, phase, required, required_pi90_high (IOPS), capacity_iops,
    capacity_basis, margin (capacity / required - 1), margin_pi90_high, verdict (``covers``
    even at the PI's upper end, ``covers the estimate only``, ``does not cover``).
    """
    req = required[required["statistic"] == "peak"].set_index("phase")
    c = cap.join(req[["required", "required_pi90_high"]], on="phase")
    c["margin"] = c["capacity_iops"] / c["required"] - 1
    c["margin_pi90_high"] = c["capacity_iops"] / c["required_pi90_high"] - 1
    c["verdict"] = np.select([c["margin_pi90_high"] >= 0, c["margin"] >= 0], ["covers", "covers the estimate only"], "does not cover")
    return c[["vendor", "configuration", "phase", "required", "required_pi90_high", "tested_iops", "capacity_iops",
              "capacity_basis", "margin", "margin_pi90_high", "verdict"]]


def cost_range(cov: pd.DataFrame, claims: pd.DataFrame, assumptions: pd.DataFrame, desktops) -> pd.DataFrame:
    """Arrays needed and cost for configurations with a price implied by a vendor claim.

    Arrays = ceil(required / capacity) in the configuration's tightest phase, at the estimate
    and at the PI's upper end; price = implied price x claim_price_factor (value .. high).
    Columns: vendor, configuration, binding_phase, arrays, arrays_pi90_high, usd_low, usd_high,
    usd_per_desktop_low, usd_per_desktop_high (derived from assumed prices).
    """
    from .cost import values
    f, f_hi = values(assumptions)["claim_price_factor"], values(assumptions, "high")["claim_price_factor"]
    price = claims.dropna(subset=["implied_price_usd"]).groupby("vendor")["implied_price_usd"].min()
    rows = []
    for (vendor, conf), g in cov[cov["vendor"].isin(price.index)].groupby(["vendor", "configuration"]):
        w = g.loc[g["margin"].idxmin()]
        n = math.ceil(w["required"] / w["capacity_iops"])
        n_hi = math.ceil(w["required_pi90_high"] / w["capacity_iops"])
        lo, hi = n * price[vendor] * f, n_hi * price[vendor] * f_hi
        rows.append({"vendor": vendor, "configuration": conf, "binding_phase": w["phase"], "arrays": n, "arrays_pi90_high": n_hi,
                     "usd_low": lo, "usd_high": hi, "usd_per_desktop_low": lo / int(desktops), "usd_per_desktop_high": hi / int(desktops)})
    return pd.DataFrame(rows)


def main(argv: list[str]) -> int:
    """``python -m vdi_report.models.scenario DESKTOPS WORKER HEADROOM``: check the report's
    scenario parameters before any notebook runs (exit 2 with the reason)."""
    try:
        validate(*argv)
    except (TypeError, ValueError) as exc:
        print(f"invalid report parameter: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
