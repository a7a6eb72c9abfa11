"""Headroom and density: the resource closest to saturation per array, configuration and phase,
and the desktops it could carry under a stated scaling law.

Scaling law (an assumption, stated in the report): a resource's utilization is proportional to
the number of desktops, so a resource at ``u`` % with ``d`` desktops saturates at
``d x LIMIT_PCT / u`` desktops. Failover: a controller resource (array CPU, Hitachi MPU) measured
with both controllers up doubles when one controller carries all the load
(``FAILOVER_FACTOR``); disks do not fail over, so disk busy is unchanged. Where the vendor
measured a failover test (NetApp), its own failover figure is used instead. Latency does not
scale linearly (queueing), so it is shown beside the utilizations but never extrapolated.
"""

import numpy as np
import pandas as pd

UTILIZATION_METRICS = {"storage_cpu_utilization": "array controller CPU", "mpu_utilization": "MPU",
                       "disk_busy": "disk busy"}
CONTROLLER_RESOURCES = {"storage_cpu_utilization", "mpu_utilization"}
LIMIT_PCT = 100.0  # saturation
FAILOVER_FACTOR = 2.0  # two controllers -> one: per-controller load doubles
# "overall": a statement about all tests (AccelStor's "always under 4 %"), so it binds user phases too.
USER_PHASES = ("boot", "login", "login_and_steady_state", "steady_state", "overall")
MAINTENANCE_PHASES = ("provisioning", "patching")
DENSITY_COLUMNS = [
    "source_id", "vendor", "configuration", "phase", "condition", "variant", "resource", "statistic",
    "utilization_pct", "utilization_low", "utilization_high", "bound", "desktops", "population",
    "max_desktops", "max_desktops_low", "max_desktops_high", "max_bound", "saturated",
    "max_desktops_failover", "failover_basis", "phase_kind", "record_id",
]


def _pool(quote: str) -> str:
    q = quote.upper()
    return " (FMD)" if "FMD" in q else " (HDD)" if ("HDD" in q or "SAS" in q) else ""


def utilization(results: pd.DataFrame) -> pd.DataFrame:
    """Utilization records of test runs (results.csv rows with a metric in
    ``UTILIZATION_METRICS``, statistic peak or average, used in the analysis), one per distinct
    number. Columns: source_id, vendor, configuration, phase, condition, variant, resource
    (e.g. ``disk busy (FMD)``), statistic, utilization_pct, utilization_low, utilization_high
    (%, capped at 100), bound, desktops (the population the resource serves), population,
    record_id. A utilization without a phase is labelled ``overall``.
    """
    r = results[results["metric"].isin(list(UTILIZATION_METRICS)) & results["statistic"].isin(["peak", "average"])
                & results["used_in_analysis"] & ~results["phase"].isin(["sizing", "testbed"])].copy()
    r["phase"] = r["phase"].replace("", "overall")
    r["condition"] = r["condition"].replace("", "normal")
    r["resource"] = r["metric"].map(UTILIZATION_METRICS) + [_pool(q) if m == "disk_busy" else "" for q, m in zip(r["quote"], r["metric"])]
    r = r.sort_values("record_id").drop_duplicates(
        ["vendor", "configuration", "phase", "condition", "variant", "resource", "statistic", "value", "bound", "desktops"])
    out = r.rename(columns={"value": "utilization_pct", "value_low": "utilization_low", "value_high": "utilization_high"})
    out["utilization_high"] = out["utilization_high"].clip(upper=LIMIT_PCT)
    return out[["source_id", "vendor", "configuration", "phase", "condition", "variant", "resource", "statistic",
                "utilization_pct", "utilization_low", "utilization_high", "bound", "desktops", "population", "record_id"]]


def max_desktops(util: pd.DataFrame) -> pd.DataFrame:
    """Add the scaling-law columns to ``utilization`` rows (``DENSITY_COLUMNS``).

    max_desktops = desktops x 100 / utilization (point, at the printed number); low/high from
    the utilization interval (a ``< u`` utilization gives a lower bound, high = inf). max_bound:
    ``gt`` (at least: utilization was below the printed value), ``lt`` (at most: above it, or
    saturated at 100 %), ``approx``, ``eq``. saturated: the printed utilization is 100 % (the
    tested load already saturates the resource, so the law gives at most the tested desktops).
    max_desktops_failover and failover_basis: see the module docstring.
    """
    d = util.copy()
    u = d["utilization_pct"].clip(upper=LIMIT_PCT)
    d["max_desktops"] = d["desktops"] * LIMIT_PCT / u
    with np.errstate(divide="ignore"):
        d["max_desktops_low"] = d["desktops"] * LIMIT_PCT / d["utilization_high"]
        d["max_desktops_high"] = d["desktops"] * LIMIT_PCT / d["utilization_low"].replace(0, np.nan)
    d["max_desktops_high"] = d["max_desktops_high"].fillna(np.inf)
    d["saturated"] = u >= LIMIT_PCT
    d["max_bound"] = np.select([d["saturated"], d["bound"] == "lt", d["bound"] == "gt", d["bound"] == "approx"],
                               ["lt", "gt", "lt", "approx"], "eq")
    ctrl = d["resource"].isin([UTILIZATION_METRICS[m] for m in CONTROLLER_RESOURCES])
    measured = d["condition"] == "failover"
    d["max_desktops_failover"] = np.where(measured, d["max_desktops"],
                                          np.where(ctrl, d["max_desktops"] / FAILOVER_FACTOR, d["max_desktops"]))
    d["failover_basis"] = np.where(measured, "measured in the vendor's failover test",
                                   np.where(ctrl, "derived: controller load doubles", "disks: unchanged by controller failover"))
    d["phase_kind"] = np.where(d["phase"].isin(USER_PHASES), "user", "maintenance")
    return d[DENSITY_COLUMNS].sort_values(["vendor", "configuration", "phase", "condition", "resource", "statistic"]).reset_index(drop=True)


def _binding(g: pd.DataFrame, col: str) -> pd.Series:
    if g.empty or g[col].isna().all():
        return pd.Series({"max": np.nan, "bound": "", "phase": "", "resource": "", "record_id": "", "served": np.nan})
    i = g[col].idxmin()
    return pd.Series({"max": g.at[i, col], "bound": g.at[i, "max_bound"], "phase": g.at[i, "phase"],
                      "resource": g.at[i, "resource"], "record_id": g.at[i, "record_id"], "served": g.at[i, "desktops"]})


def summary(density: pd.DataFrame, claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per vendor and configuration, the binding (lowest) maximum over the user-facing phases.

    Columns: vendor, configuration, desktops_tested, and for each case in (peak, average,
    peak_failover, average_failover): ``<case>_max`` (desktops), ``<case>_bound``,
    ``<case>_phase``, ``<case>_resource``, ``<case>_record_id``, ``<case>_served`` (desktops the
    binding resource served in the test, e.g. Hitachi's 400 task desktops on the HDD pool); then ``claims`` (the vendor's
    own density claims, from ``claims``, with † when the audit does not accept one; a vendor with claims but no utilization gets a row of
    NaN). Normal-condition rows of the Tuesday variant are
    ignored (Monday is the design case). Failover cases use the vendor's failover rows where they
    exist, else the derived failover column of the normal rows.
    """
    d = density[(density["phase_kind"] == "user") & (density["variant"] != "tuesday")]
    rows = []
    for (vendor, conf), g in d.groupby(["vendor", "configuration"], sort=True):
        row = {"vendor": vendor, "configuration": conf, "desktops_tested": g["desktops"].max()}
        normal, fo = g[g["condition"] == "normal"], g[g["condition"] == "failover"]
        for stat in ("peak", "average"):
            b = _binding(normal[normal["statistic"] == stat], "max_desktops")
            row.update({f"{stat}_{k}": v for k, v in b.items()})
            src = fo[fo["statistic"] == stat] if len(fo[fo["statistic"] == stat]) else normal[normal["statistic"] == stat]
            b = _binding(src, "max_desktops_failover")
            row.update({f"{stat}_failover_{k}": v for k, v in b.items()})
        if claims is not None:
            c = claims[claims["vendor"] == vendor]
            row["claims"] = "; ".join(c["claim"] + np.where(c["audit"] != "", " †", "")) if len(c) else ""
        rows.append(row)
    out = pd.DataFrame(rows)
    if claims is not None:  # vendors that report no utilization at all stay visible
        missing = sorted(set(claims["vendor"]) - set(out["vendor"]))
        extra = [{"vendor": v, "configuration": "", "claims": "; ".join(claims.loc[claims["vendor"] == v, "claim"]
                                                                          + np.where(claims.loc[claims["vendor"] == v, "audit"] != "", " †", ""))} for v in missing]
        out = pd.concat([out, pd.DataFrame(extra)], ignore_index=True) if extra else out
    return out


def claims(results: pd.DataFrame) -> pd.DataFrame:
    """The vendors' own density claims: results.csv metric ``users_supported`` (any phase).

    Columns: vendor, record_id, value (desktops), bound, claim (text ``> 3,000``), phase,
    worker_class, quote,
    audit (the audit's resolution, e.g. "not demonstrated"). Claims are shown whether or not the
    audit lets the analysis use them: they are what the model is compared with, never an input.
    Repeats of the same number are listed once (lowest record_id).
    """
    r = results[results["metric"] == "users_supported"].sort_values("record_id")
    r = r.drop_duplicates(["vendor", "value", "bound", "worker_class"])
    sign = {"eq": "", "gt": "> ", "lt": "< ", "approx": "≈ "}
    cls = r["worker_class"].map(lambda c: f" {c.replace('_', ' ')}" if c else "")
    return pd.DataFrame({"vendor": r["vendor"], "record_id": r["record_id"], "value": r["value"], "bound": r["bound"],
                         "claim": [f"{sign[b]}{v:,.0f}{c}" for b, v, c in zip(r["bound"], r["value"], cls)],
                         "phase": r["phase"], "worker_class": r["worker_class"], "quote": r["quote"],
                         "audit": r["resolution"]}).reset_index(drop=True)


def latency(results: pd.DataFrame) -> pd.DataFrame:
    """Peak latency per vendor, configuration and user-facing phase (normal condition), beside
    the vendor's own latency threshold (phase ``sizing``, metric ``latency``, if any).

    Columns: vendor, configuration, phase, latency_ms (the highest peak, else average, reported),
    statistic, vantage, record_id, threshold_ms, share_of_threshold.
    """
    r = results[(results["metric"] == "latency") & results["used_in_analysis"] & results["phase"].isin(USER_PHASES)
                & (results["condition"] != "failover") & (results["variant"] != "tuesday")]
    r = r.assign(_s=(r["statistic"] != "peak").astype(int)).sort_values(["_s", "value"], ascending=[True, False])
    top = r.groupby(["vendor", "configuration", "phase"], sort=True).first().reset_index()
    th = results[(results["metric"] == "latency") & (results["phase"] == "sizing")].groupby("vendor")["value"].max()
    top["threshold_ms"] = top["vendor"].map(th)
    top["share_of_threshold"] = top["value"] / top["threshold_ms"]
    return top.rename(columns={"value": "latency_ms"})[["vendor", "configuration", "phase", "latency_ms", "statistic",
                                                        "vantage", "record_id", "threshold_ms", "share_of_threshold"]]


def summary_chart(summ: pd.DataFrame, claims_df: pd.DataFrame):
    """Altair chart: model maximum desktops per configuration (peak, average, each with and
    without failover; log scale) beside the desktops tested and the vendor's claims."""
    import altair as alt
    s = summ[summ["desktops_tested"].notna()].copy()
    s["array"] = (s["vendor"] + " " + s["configuration"]).str.strip()
    cases = {"peak": "model: peak", "average": "model: average", "peak_failover": "model: peak, failover",
             "average_failover": "model: average, failover"}
    m = pd.concat([pd.DataFrame({"array": s["array"], "case": lab, "desktops": s[f"{c}_max"], "bound": s[f"{c}_bound"],
                                 "detail": s[f"{c}_phase"] + ": " + s[f"{c}_resource"]}) for c, lab in cases.items()])
    t = pd.DataFrame({"array": s["array"], "case": "tested (reported)", "desktops": s["desktops_tested"], "bound": "eq", "detail": ""})
    c = claims_df.copy()
    mixed = c.groupby("vendor")["worker_class"].transform(lambda w: (w != "").sum() > 1) & (c["worker_class"] != "")
    if mixed.any():  # a mixed population (Hitachi: 400 task + 180 extreme power) is one claim of its total
        g = c[mixed].groupby("vendor").agg(value=("value", "sum"), bound=("bound", "first"),
                                           claim=("claim", lambda x: " + ".join(x)), record_id=("record_id", " ".join)).reset_index()
        c = pd.concat([c[~mixed], g], ignore_index=True)
    c = c.merge(s[["vendor", "array"]], on="vendor")
    c = pd.DataFrame({"array": c["array"], "case": "vendor claim (reported)", "desktops": c["value"], "bound": c["bound"],
                      "detail": c["claim"] + " (" + c["record_id"] + ")"})
    d = pd.concat([m, t, c], ignore_index=True).dropna(subset=["desktops"])
    d["bound"] = d["bound"].map({"eq": "as stated", "approx": "approximately", "gt": "at least", "lt": "at most"})
    domain = list(cases.values()) + ["tested (reported)", "vendor claim (reported)"]
    colors = ["#08519c", "#6baed6", "#a50f15", "#fc9272", "#333333", "#ff7f0e"]
    return alt.Chart(d).mark_point(size=80, filled=True, opacity=0.85).encode(
        x=alt.X("desktops:Q", scale=alt.Scale(type="log"), title="desktops (log scale)"), y=alt.Y("array:N", title=None),
        color=alt.Color("case:N", title=None, scale=alt.Scale(domain=domain, range=colors)),
        shape=alt.Shape("bound:N", title="Bound", scale=alt.Scale(domain=["as stated", "approximately", "at least", "at most"],
                                                                 range=["circle", "diamond", "triangle-right", "triangle-left"])),
        tooltip=["array", "case", "detail", alt.Tooltip("desktops:Q", format=",.0f"), "bound"],
    ).properties(width=460, height=160, title="Maximum desktops under the scaling law vs tested and claimed")


def summary_sentences(summ: pd.DataFrame) -> list[str]:
    """Plain-language sentences, one per configuration, built from ``summary`` (no typed numbers)."""
    word = {"eq": "", "approx": "about ", "gt": "at least ", "lt": "at most "}
    out = []
    for _, s in summ.iterrows():
        name = f"{s['vendor']} {s['configuration']}".strip()
        has = isinstance(s.get("claims"), str) and s["claims"]
        claims_txt = f" The vendor's own figures: {s['claims']}" + (" († not accepted by the audit)." if has and "†" in s["claims"] else ".") if has else ""
        if pd.isna(s.get("desktops_tested")) or pd.isna(s.get("peak_max")):
            out.append(f"{name} reports no array utilization, so its density cannot be estimated.{claims_txt}")
            continue
        phase = s["peak_phase"].replace("_", " ")
        txt = (f"{name}: at peak the binding resource is {s['peak_resource']} ({phase}), giving "
               f"{word[s['peak_bound']]}{s['peak_max']:,.0f} desktops against the {s['peak_served']:,.0f} it served in the test")
        if s["peak_bound"] == "gt":
            txt += " (only a lower bound: the document says the resource stayed below a value, so its real limit lies elsewhere)"
        if pd.notna(s.get("average_max")):
            txt += f"; on averages, {word[s['average_bound']]}{s['average_max']:,.0f}"
        if pd.notna(s.get("peak_failover_max")):
            txt += f"; at peak with one controller down, {word[s['peak_failover_bound']]}{s['peak_failover_max']:,.0f}"
        out.append(txt + "." + claims_txt)
    return out


def read(path) -> pd.DataFrame:
    """Read ``density.csv`` back with its types: text columns keep empty strings (NetApp and
    AccelStor have no configuration), numbers are float, ``saturated`` is bool."""
    d = pd.read_csv(path, dtype=str, keep_default_na=False)
    num = ["utilization_pct", "utilization_low", "utilization_high", "desktops", "max_desktops", "max_desktops_low",
           "max_desktops_high", "max_desktops_failover"]
    for c in num:
        d[c] = pd.to_numeric(d[c].replace("", None)).astype(float)
    d["saturated"] = d["saturated"].map({"True": True, "False": False})
    return d[DENSITY_COLUMNS]
