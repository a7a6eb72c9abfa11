"""Cost per desktop: the vendors' own claims, what they imply, and recomputations.

No price is typed here. Reported figures come from results.csv (metric ``cost_per_desktop``,
``cost_saving``, ``drives``); every assumed number comes from the assumptions file
(``data/raw/cost_assumptions.csv`` by default; columns ``ASSUMPTION_COLUMNS``), which papermill
passes to the notebooks as ``cost_file``.
"""

import math
from pathlib import Path

import numpy as np
import pandas as pd

from .. import config, sources

ASSUMPTION_COLUMNS = ["name", "value", "unit", "low", "high", "basis", "source_or_rationale"]
REQUIRED = ("claim_price_factor", "accelstor_full_density_desktops", "hdd_to_fmd_price_ratio")
DEFAULT_FILE = config.RAW_DIR / "cost_assumptions.csv"


def load_assumptions(path=None) -> pd.DataFrame:
    """The assumptions file, validated: columns ``ASSUMPTION_COLUMNS`` (value, low, high float).

    Raises ValueError naming the file and row when a column or a required name
    (``REQUIRED``) is missing, a number does not parse, low <= value <= high fails, or a
    rationale is empty (no assumption enters silently).
    """
    path = Path(path) if path else DEFAULT_FILE
    df = sources.read_csv_text(path)
    missing = [c for c in ASSUMPTION_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; expected {ASSUMPTION_COLUMNS}")
    for col in ("value", "low", "high"):
        bad = pd.to_numeric(df[col], errors="coerce").isna()
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{path}: line {i + 2}: column {col!r} = {df.at[i, col]!r} is not a number")
        df[col] = df[col].astype(float)
    for i, r in df.iterrows():
        if not r["low"] <= r["value"] <= r["high"]:
            raise ValueError(f"{path}: line {i + 2}: {r['name']}: need low <= value <= high, got {r['low']}, {r['value']}, {r['high']}")
        if not r["source_or_rationale"].strip():
            raise ValueError(f"{path}: line {i + 2}: {r['name']}: empty source_or_rationale")
    absent = [n for n in REQUIRED if n not in set(df["name"])]
    if absent:
        raise ValueError(f"{path}: missing assumption(s) {absent}")
    return df[ASSUMPTION_COLUMNS]


def values(assumptions: pd.DataFrame, which: str = "value") -> dict[str, float]:
    """name -> value (or ``low``/``high``)."""
    return dict(zip(assumptions["name"], assumptions[which]))


def _stated_desktops(results: pd.DataFrame) -> dict[str, float]:
    """record_id -> desktops as written in data/raw (NaN when the record states none; the
    normalized table fills in the document's tested population)."""
    out = {}
    for sid in results["source_id"].unique():
        raw = sources.load_records(sid)
        out.update(dict(zip(raw["record_id"], raw["desktops"])))
    return out


def vendor_claims(results: pd.DataFrame, assumptions: pd.DataFrame) -> pd.DataFrame:
    """Each distinct $ per desktop claim and the array price it implies.

    Columns: vendor, record_id, worker_class, claim_usd (reported, USD per desktop),
    claimed_density (desktops the claim is made at), density_basis (``reported`` when the
    record states it; ``assumed: <name>`` when it comes from the assumptions file; empty when
    unknown), implied_price_usd (derived: claim_usd x claimed_density; NaN when the density is
    unknown, e.g. NetApp's untested AFF A200), audit (the audit's resolution). Claims are listed
    whether or not the audit lets the analysis use them: they are shown, never trusted.
    """
    a = values(assumptions)
    r = results[results["metric"] == "cost_per_desktop"].sort_values("record_id")
    r = r.drop_duplicates(["vendor", "value", "worker_class"])
    stated = _stated_desktops(r)
    rows = []
    for _, x in r.iterrows():
        d = stated.get(x["record_id"], np.nan)
        basis = "reported" if pd.notna(d) else ""
        if pd.isna(d) and x["source_id"] == "accelstor_p710":
            d, basis = a["accelstor_full_density_desktops"], "assumed: accelstor_full_density_desktops"
        rows.append({"vendor": x["vendor"], "record_id": x["record_id"], "worker_class": x["worker_class"],
                     "quote": x["quote"], "claim_usd": x["value"], "claimed_density": d, "density_basis": basis,
                     "implied_price_usd": x["value"] * d if pd.notna(d) else np.nan, "audit": x["resolution"]})
    return pd.DataFrame(rows)


def recompute(claims: pd.DataFrame, density_summary: pd.DataFrame, assumptions: pd.DataFrame) -> pd.DataFrame:
    """$ per desktop of each priced claim at other densities.

    Price = implied_price_usd x claim_price_factor (assumed). Densities: the claim's own, the
    desktops tested, and the model's maxima (``density.summary``: peak, average, peak with
    failover, average with failover; the lowest configuration of the vendor). Columns: vendor,
    record_id, density_case, desktops, desktops_bound (``gt`` = at least, ``lt`` = at most),
    price_usd, usd_per_desktop (derived).
    """
    f = values(assumptions)["claim_price_factor"]
    rows = []
    for _, c in claims[claims["implied_price_usd"].notna()].iterrows():
        s = density_summary[density_summary["vendor"] == c["vendor"]]
        cases = [("claimed", c["claimed_density"], "eq")]
        if len(s) and pd.notna(s["desktops_tested"]).any():
            cases.append(("tested", s["desktops_tested"].max(), "eq"))
            for case, label in [("peak", "model, peak"), ("average", "model, average"),
                                ("peak_failover", "model, peak, failover"), ("average_failover", "model, average, failover")]:
                col = f"{case}_max"
                if col in s and s[col].notna().any():
                    i = s[col].idxmin()
                    cases.append((label, s.at[i, col], s.at[i, f"{case}_bound"]))
        for label, d, b in cases:
            price = c["implied_price_usd"] * f
            rows.append({"vendor": c["vendor"], "record_id": c["record_id"], "density_case": label, "desktops": d,
                         "desktops_bound": b, "price_usd": price, "usd_per_desktop": price / d})
    return pd.DataFrame(rows)


def hitachi_drives(results: pd.DataFrame) -> pd.DataFrame:
    """Drives per Hitachi configuration from the test-bed records (metric ``drives``, phase
    ``testbed``, a configuration), typed FMD or HDD by the record's quote. Columns:
    configuration, fmd, hdd. Raises ValueError if a configuration has no FMD count."""
    r = results[(results["source_id"] == "hitachi_g600") & (results["metric"] == "drives")
                & (results["phase"] == "testbed") & (results["configuration"] != "")]
    r = r.assign(kind=np.where(r["quote"].str.contains("FMD"), "fmd", np.where(r["quote"].str.contains("HDD"), "hdd", "")))
    t = r[r["kind"] != ""].drop_duplicates(["configuration", "kind"]).pivot(index="configuration", columns="kind", values="value")
    t = t.reindex(columns=["fmd", "hdd"]).fillna({"hdd": 0.0}).reset_index()
    if t["fmd"].isna().any():
        raise ValueError(f"Hitachi configuration without an FMD count: {t}")
    return t


def hitachi_saving(drives: pd.DataFrame, hdd_to_fmd: float, reference: str = "config3", tiered: str = "config2") -> dict:
    """Drive-cost saving of the tiered configuration against a reference, in FMD price units.

    Returns claimed_fmd_only (1 - fmd_tiered / fmd_reference: the document's arithmetic) and
    with_hdds (1 - (fmd + r x hdd)_tiered / (fmd + r x hdd)_reference, r = HDD/FMD price
    ratio), and break_even_ratio (r at which the saving is 0).
    """
    d = drives.set_index("configuration")
    ft, ht, fr, hr = d.at[tiered, "fmd"], d.at[tiered, "hdd"], d.at[reference, "fmd"], d.at[reference, "hdd"]
    with_hdds = 1 - (ft + hdd_to_fmd * ht) / (fr + hdd_to_fmd * hr)
    be = (fr - ft) / (ht - hr) if ht != hr else math.inf
    return {"reference": reference, "claimed_fmd_only": 1 - ft / fr, "with_hdds": with_hdds, "break_even_ratio": be}


def outputs(p: dict, claims: pd.DataFrame, densities: dict, drives: pd.DataFrame) -> dict:
    """The cost results one set of inputs gives (used by ``tornado``): USD per desktop per vendor
    at its model density and Hitachi's saving. ``p``: assumption name -> value; ``densities``:
    vendor -> desktops; both may be overridden one at a time."""
    out = {}
    for _, c in claims.iterrows():
        d = c["claimed_density"]
        if c["density_basis"].startswith("assumed"):
            d = p["accelstor_full_density_desktops"]
        if pd.isna(d) or c["vendor"] not in densities:
            continue
        out[f"{c['vendor']}: USD per desktop at model density"] = c["claim_usd"] * d * p["claim_price_factor"] / p.get(f"density:{c['vendor']}", densities[c["vendor"]])
    out["Hitachi: drive-cost saving vs config3"] = hitachi_saving(drives, p["hdd_to_fmd_price_ratio"])["with_hdds"]
    return out


def density_ranges(density_summary: pd.DataFrame) -> dict:
    """vendor -> (value, low, high) model densities in desktops, for ``tornado``: value = the
    binding peak maximum (normal operation), low = the lower of the tested desktops and the peak
    maximum with failover, high = the average-based maximum (the peak one if none). Lowest
    configuration of each vendor; vendors without a tested utilization are left out."""
    out = {}
    for v, g in density_summary[density_summary["peak_max"].notna()].groupby("vendor"):
        peak = g["peak_max"].min()
        low = min(g["desktops_tested"].min(), g["peak_failover_max"].min())
        high = g["average_max"].min() if g["average_max"].notna().any() else peak
        out[v] = (float(peak), float(min(low, peak)), float(max(high, peak)))
    return out


def tornado(assumptions: pd.DataFrame, claims: pd.DataFrame, density_ranges: dict, drives: pd.DataFrame) -> pd.DataFrame:
    """One-at-a-time sensitivity: each input at its low and high end, the others at their value.

    ``density_ranges``: vendor -> (value, low, high) model densities (desktops). Columns:
    output, input, kind (``assumed`` or ``model``), base, at_low, at_high, swing (|high - low|).
    """
    base_p = values(assumptions)
    dens = {v: t[0] for v, t in density_ranges.items()}
    inputs = [(n, "assumed", lo, hi) for n, lo, hi in zip(assumptions["name"], assumptions["low"], assumptions["high"])]
    inputs += [(f"density:{v}", "model", t[1], t[2]) for v, t in density_ranges.items()]
    base = outputs(base_p, claims, dens, drives)
    rows = []
    for name, kind, lo, hi in inputs:
        o_lo = outputs({**base_p, name: lo}, claims, dens, drives)
        o_hi = outputs({**base_p, name: hi}, claims, dens, drives)
        for k, b in base.items():
            rows.append({"output": k, "input": name, "kind": kind, "base": b, "at_low": o_lo[k], "at_high": o_hi[k],
                         "swing": abs(o_hi[k] - o_lo[k])})
    t = pd.DataFrame(rows)
    return t[t["swing"] > 0].sort_values(["output", "swing"], ascending=[True, False]).reset_index(drop=True)


def tornado_chart(t: pd.DataFrame):
    """Altair tornado chart: for each output, the range each input moves it over (low end to
    high end), widest first; colour = assumed or model input."""
    import altair as alt
    d = t.assign(lo=t[["at_low", "at_high"]].min(axis=1), hi=t[["at_low", "at_high"]].max(axis=1))
    base = alt.Chart(d).encode(y=alt.Y("input:N", sort="-x", title=None))
    bars = base.mark_bar(height=14).encode(x=alt.X("lo:Q", title="output at the input's low and high end"), x2="hi:Q",
                                           color=alt.Color("kind:N", title="Input", scale=alt.Scale(domain=["assumed", "model"], range=["#e6550d", "#3182bd"])),
                                           tooltip=["output", "input", "kind", alt.Tooltip("base:Q", format=",.3g"),
                                                    alt.Tooltip("at_low:Q", format=",.3g"), alt.Tooltip("at_high:Q", format=",.3g")])
    tick = base.mark_tick(color="black", thickness=2, size=18).encode(x="base:Q")
    return alt.layer(bars, tick).properties(width=420, height=70).facet(
        row=alt.Row("output:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left", labelOrient="top")),
    ).resolve_scale(x="independent", y="independent").properties(title="Sensitivity of the cost results (black tick: base case)")


def saving_curve(drives: pd.DataFrame, assumptions: pd.DataFrame):
    """Altair line chart: Hitachi's drive-cost saving of config2 against config3 and config1 as
    a function of the HDD/FMD price ratio, with the assumed range shaded and the claimed 75 %."""
    import altair as alt
    a = assumptions.set_index("name").loc["hdd_to_fmd_price_ratio"]
    rs = np.linspace(0, 1, 101)
    d = pd.DataFrame([{"ratio": r, "against": ref, "saving": hitachi_saving(drives, r, ref)["with_hdds"]}
                      for ref in ("config3", "config1") for r in rs])
    band = alt.Chart(pd.DataFrame({"lo": [a["low"]], "hi": [a["high"]]})).mark_rect(opacity=0.15, color="#e6550d").encode(x="lo:Q", x2="hi:Q")
    claim = alt.Chart(pd.DataFrame({"y": [hitachi_saving(drives, 0)["claimed_fmd_only"]]})).mark_rule(strokeDash=[4, 4]).encode(y="y:Q")
    line = alt.Chart(d).mark_line().encode(x=alt.X("ratio:Q", title="price of one HDD / price of one FMD (assumed)"),
                                           y=alt.Y("saving:Q", title="drive-cost saving of config2", axis=alt.Axis(format="%")),
                                           color=alt.Color("against:N", title="Against"))
    return (band + claim + line).properties(width=420, height=240, title="Hitachi's '75 % of FMD cost saved', HDDs included")
