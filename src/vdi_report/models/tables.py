"""Display tables of the model sections of the report (formatting only; no computation).

Every column header says what kind of number it holds: *reported* (printed in a vendor
document), *derived* (arithmetic on reported numbers), *model* (fitted or extrapolated here) or
*assumed* (from the cost assumptions file).
"""

import math

import pandas as pd

from ..config import PHASE_LABELS
from ..tables import fmt_number

BOUND_WORDS = {"eq": "", "approx": "≈ ", "gt": "≥ ", "lt": "≤ "}  # on a derived maximum: at least / at most


def _iv(est, lo, hi, pct=False) -> str:
    if pd.isna(est):
        return "not estimable"
    f = (lambda x: f"{x:.0%}") if pct else fmt_number
    return f"{f(est)} ({f(lo)}–{f(hi)})"


def _phase(p: pd.Series) -> pd.Series:
    return p.map(PHASE_LABELS).fillna(p.str.replace("_", " "))


def prediction_table(pred: pd.DataFrame) -> pd.DataFrame:
    """The planning table (``iops_per_desktop_model.csv``): per phase, statistic and worker class
    (``any`` = pooled), the estimate with its interval and its kind, the documents behind it, and
    read share, I/O size and latency beside every IOPS figure."""
    unit = pred["unit"].fillna("")
    return pd.DataFrame({
        "Phase": _phase(pred["phase"]), "Statistic": pred["statistic"].str.replace("_", " "),
        "Worker class": pred["worker_class"].replace({"any": "any (pooled)"}),
        "Estimate (model)": [f"{_iv(e, lo, hi)} {u}" for e, lo, hi, u in zip(pred["estimate"], pred["pi90_low"], pred["pi90_high"], unit)],
        "Interval": pred["interval_kind"], "Documents": [f"{int(n)}: {v}" for n, v in zip(pred["n_vendors"], pred["vendors"])],
        "Read share (derived)": pred["read_share"].map(lambda x: "" if pd.isna(x) else f"{x:.0%}"),
        "I/O size, KB (derived)": pred["io_size_kb"].map(lambda x: "" if pd.isna(x) else fmt_number(x)),
        "Latency, ms (reported, median)": pred["latency_ms"].map(lambda x: "" if pd.isna(x) else fmt_number(x)),
    })


def exclusions_table(ex: pd.DataFrame) -> pd.DataFrame:
    """Records the IOPS model leaves out, grouped by reason: reason, records (count), record ids."""
    g = ex.groupby("reason", sort=True)["record_id"].agg(["count", lambda s: " ".join(s)]).reset_index()
    return pd.DataFrame({"Reason left out": g["reason"], "Records": g["count"], "Record ids": g["<lambda_0>"]})


def boot_table(storms: pd.DataFrame) -> pd.DataFrame:
    """Per document: desktops, boot duration (reported), boot rate, I/O per desktop boot and peak
    IOPS per desktop booted per minute (derived, with their bounds), records."""
    def b(v, bound):
        return "" if pd.isna(v) else f"{BOUND_WORDS.get(bound, '')}{fmt_number(v)}"
    return pd.DataFrame({
        "Vendor": storms["vendor"], "Desktops": storms["desktops"].map(fmt_number),
        "Boot duration, min (reported)": [b(v, x) for v, x in zip(storms["duration_min"], storms["duration_bound"])],
        "Boot rate, desktops/min (derived)": [b(v, x) for v, x in zip(storms["boot_rate_per_min"], storms["rate_bound"])],
        "Peak IOPS (reported)": [b(v, x) for v, x in zip(storms["peak_iops"], storms["peak_bound"])],
        "I/O per desktop boot (derived)": [b(v, x) for v, x in zip(storms["io_per_boot"], storms["io_per_boot_bound"])],
        "Peak IOPS per desktop/min (derived)": [b(v, x) for v, x in zip(storms["peak_iops_per_rate"], storms["peak_per_rate_bound"])],
        "Sources": (storms["duration_record"] + " " + storms["peak_record"].fillna("") + " " + storms["average_record"].fillna("")).str.split().str.join(" "),
    })


def coefficient_table(coefs: pd.DataFrame) -> pd.DataFrame:
    """Term, multiplicative factor on IOPS per desktop with its 95 % CI, p-value."""
    return pd.DataFrame({"Term": coefs["term"].str.replace("[T.", " = ", regex=False).str.rstrip("]"),
                         "Factor on IOPS per desktop (95 % CI)": [_iv(f, lo, hi) for f, lo, hi in zip(coefs["factor"], coefs["factor_low"], coefs["factor_high"])],
                         "p-value": coefs["p_value"].map(lambda p: f"{p:.2g}")})


def cv_table(by_vendor: pd.DataFrame) -> pd.DataFrame:
    """Per held-out vendor (``iops.cv_by_vendor``): observations, predicted, error factor,
    coverage, sharpness; no all-vendor row."""
    def f(x, fmt):
        return "" if pd.isna(x) else fmt.format(x)
    return pd.DataFrame({
        "Held-out vendor": by_vendor["held_out"], "Trained on": by_vendor["trained_on"].str.replace(";", ", "),
        "Observations": by_vendor["n_obs"], "Predicted": by_vendor["n_predicted"],
        "Median error factor": by_vendor["median_error_factor"].map(lambda x: f(x, "{:.2f}×")),
        "Inside 90 % PI": [f"{int(c)} of {int(n)}" if n else "not estimable" for c, n in zip(by_vendor["n_covered"], by_vendor["n_predicted"])],
        "Sharpness (median PI high/low)": [f(x, "{:.1f}×") + (" (vacuous)" if v else "") for x, v in zip(by_vendor["sharpness"], by_vendor["vacuous"])],
    })


def external_table(ext: pd.DataFrame) -> pd.DataFrame:
    """External sources predicted by the seed model, labelled by how they differ."""
    return pd.DataFrame({
        "Source": ext["vendor"] + " (" + ext["source_id"] + ")", "Broker": ext["broker"], "Load tool": ext["load_tool"],
        "Guest OS": ext["guest_os"], "Platform": ext["platform"], "Cell": ext["cell"],
        "Observed (derived)": ext["observed"].map(fmt_number),
        "Predicted (model, 90 % PI)": [_iv(e, lo, hi) for e, lo, hi in zip(ext["predicted"], ext["pi90_low"], ext["pi90_high"])],
        "Observed / predicted": ext["ratio"].map(lambda x: f"{x:.2f}×"), "Inside PI": ext["covered"].map({True: "yes", False: "no"}),
        "Records": ext["record_ids"]})


def sizing_table(t: pd.DataFrame) -> pd.DataFrame:
    """The scenario (``scenario.size``) per phase: front end with its interval, read share,
    back end, throughput, capacity per desktop and which arrays demonstrably carried it."""
    return pd.DataFrame({
        "Phase": _phase(t["phase"]), "Statistic": t["statistic"], "Worker class used": t["worker_class"].replace({"any": "any (pooled)"}),
        "Front-end IOPS (model, 90 % PI)": [_iv(e, lo, hi) for e, lo, hi in zip(t["fe_iops"], t["fe_iops_pi90_low"], t["fe_iops_pi90_high"])],
        "Read share": t["read_share"].map(lambda x: f"{x:.0%}"),
        "Back-end IOPS (write penalty)": [f"{_iv(e, lo, hi)} (×{w:g})" for e, lo, hi, w in zip(t["be_iops"], t["be_iops_pi90_low"], t["be_iops_pi90_high"], t["write_penalty"])],
        "Throughput, MB/s": t["throughput_mbps"].map(fmt_number),
        "Demonstrably carried by (" + t["condition"].iloc[0] + ")": t["carried_by"]})


def rules_table(rules: pd.DataFrame) -> pd.DataFrame:
    """Each quoted rule of thumb (reported) beside the model (steady-state average, login peak)."""
    sign = {"eq": "", "gt": "> ", "lt": "< ", "approx": "≈ "}
    rule = [f"{sign[b]}{fmt_number(v)}" + (f"–{fmt_number(h)}" if h != v and b == "eq" else "")
            for b, v, h in zip(rules["bound"], rules["rule_value"], rules["rule_high"])]
    return pd.DataFrame({
        "Vendor": rules["vendor"], "Rule, IOPS per desktop (reported)": rule, "Worker class": rules["worker_class"].str.replace("_", " "),
        "Steady-state average (model, 90 % PI)": [_iv(e, lo, hi) if c else "" for e, lo, hi, c in zip(
            rules.get("steady_avg"), rules.get("steady_pi90_low"), rules.get("steady_pi90_high"), rules["compared_class"])],
        "Login peak (model, 90 % PI)": [_iv(e, lo, hi) if c else "" for e, lo, hi, c in zip(
            rules.get("login_peak"), rules.get("login_pi90_low"), rules.get("login_pi90_high"), rules["compared_class"])],
        "Rule vs steady-state PI": rules["verdict"], "Source": rules["record_id"]})


def _max(v, b) -> str:
    return "" if pd.isna(v) else f"{BOUND_WORDS.get(b, '')}{fmt_number(v)}"


def density_table(summ: pd.DataFrame) -> pd.DataFrame:
    """Per configuration: desktops tested (reported), binding maxima (model), claims (reported)."""
    def cell(case):
        return [(_max(v, b) + (f" ({_phase(pd.Series([p])).iloc[0].lower()}, {r})" if isinstance(p, str) and p else "")) if pd.notna(v) else "no utilization reported"
                for v, b, p, r in zip(summ[f"{case}_max"], summ[f"{case}_bound"], summ[f"{case}_phase"], summ[f"{case}_resource"])]
    return pd.DataFrame({"Vendor": summ["vendor"], "Configuration": summ["configuration"].replace("", "—"),
                         "Desktops tested (reported)": summ["desktops_tested"].map(fmt_number),
                         "Max at peak (model)": cell("peak"), "Max at average (model)": cell("average"),
                         "Max at peak, failover (model)": cell("peak_failover"),
                         "Max at average, failover (model)": cell("average_failover"),
                         "Vendor claims (reported)": summ["claims"]})


def assumptions_table(a: pd.DataFrame) -> pd.DataFrame:
    """The assumptions file as printed: name, value (low–high), unit, basis, rationale."""
    return pd.DataFrame({"Assumption": a["name"], "Value (low–high), assumed": [f"{fmt_number(v)} ({fmt_number(lo)}–{fmt_number(hi)})" for v, lo, hi in zip(a["value"], a["low"], a["high"])],
                         "Unit": a["unit"], "Basis": a["basis"], "Source or rationale": a["source_or_rationale"]})


def claims_table(c: pd.DataFrame) -> pd.DataFrame:
    """Vendor $ per desktop claims (reported), the density behind them, implied price (derived)."""
    return pd.DataFrame({"Vendor": c["vendor"], "Claim, USD per desktop (reported)": c["claim_usd"].map(lambda x: f"${fmt_number(x)}"),
                         "At desktops": [f"{fmt_number(d)} ({b or 'not stated'})" if pd.notna(d) else "not stated" for d, b in zip(c["claimed_density"], c["density_basis"])],
                         "Implied array price, USD (derived)": c["implied_price_usd"].map(lambda x: f"${fmt_number(x)}" if pd.notna(x) else "—"),
                         "Source": c["record_id"]})


def recompute_table(r: pd.DataFrame) -> pd.DataFrame:
    """USD per desktop of each implied price at the claimed, tested and model densities."""
    return pd.DataFrame({"Vendor": r["vendor"], "Density": r["density_case"],
                         "Desktops": [_max(v, b) for v, b in zip(r["desktops"], r["desktops_bound"])],
                         "Price, USD (derived × assumed factor)": r["price_usd"].map(lambda x: f"${fmt_number(x)}"),
                         "USD per desktop (derived)": [("≤ " if b == "gt" else "≥ " if b == "lt" else "") + f"${fmt_number(x)}"
                                                       for x, b in zip(r["usd_per_desktop"], r["desktops_bound"])]})


def required_table(req: pd.DataFrame) -> pd.DataFrame:
    """Required IOPS per phase and statistic (model, with headroom), with the per-desktop basis."""
    return pd.DataFrame({"Phase": _phase(req["phase"]), "Statistic": req["statistic"],
                         "IOPS per desktop (model, 90 % PI)": [_iv(e, lo, hi) for e, lo, hi in zip(req["per_desktop"], req["per_desktop_pi90_low"], req["per_desktop_pi90_high"])],
                         "Required IOPS incl. headroom (model, 90 % PI)": [_iv(e, lo, hi) for e, lo, hi in zip(req["required"], req["required_pi90_low"], req["required_pi90_high"])]})


def coverage_table(cov: pd.DataFrame) -> pd.DataFrame:
    """Per configuration and phase: tested IOPS (reported), capacity (model), margin, verdict."""
    return pd.DataFrame({"Vendor": cov["vendor"], "Configuration": cov["configuration"].replace("", "—"), "Phase": _phase(cov["phase"]),
                         "Tested peak IOPS (reported)": cov["tested_iops"].map(fmt_number),
                         "Capacity IOPS (model)": cov["capacity_iops"].map(fmt_number), "Capacity basis": cov["capacity_basis"],
                         "Margin at estimate": cov["margin"].map(lambda x: f"{x:+.0%}"),
                         "Margin at PI upper end": cov["margin_pi90_high"].map(lambda x: f"{x:+.0%}"), "Verdict": cov["verdict"]})


def cost_range_table(cr: pd.DataFrame) -> pd.DataFrame:
    """Arrays needed and cost range for configurations priced by a vendor claim."""
    return pd.DataFrame({"Vendor": cr["vendor"], "Tightest phase": _phase(cr["binding_phase"]),
                         "Arrays (estimate – PI upper end)": [f"{a}–{b}" if a != b else f"{a}" for a, b in zip(cr["arrays"], cr["arrays_pi90_high"])],
                         "Storage cost, USD (derived from assumed prices)": [f"${fmt_number(a)}–${fmt_number(b)}" for a, b in zip(cr["usd_low"], cr["usd_high"])],
                         "USD per desktop": [f"${fmt_number(a)}–${fmt_number(b)}" for a, b in zip(cr["usd_per_desktop_low"], cr["usd_per_desktop_high"])]})


def io_profile_table(p: pd.DataFrame, phases=("boot", "login", "login_and_steady_state", "steady_state")) -> pd.DataFrame:
    """Read share and implied KB per I/O (both derived) for the user-facing phases."""
    p = p[p["phase"].isin(phases)]
    return pd.DataFrame({"Vendor": p["vendor"], "Test": p["test_id"].str.replace("_", " "), "Phase": _phase(p["phase"]),
                         "Statistic, vantage": p["statistic"] + ", " + p["vantage"].str.replace("_", " ").replace("", "not stated"),
                         "Read share (derived)": p["read_share"].map(lambda x: "" if pd.isna(x) else f"{x:.0%}"),
                         "KB per I/O (derived)": p["kb_per_io"].map(lambda x: "" if pd.isna(x) else fmt_number(x)),
                         "Sources": p["records"]})
