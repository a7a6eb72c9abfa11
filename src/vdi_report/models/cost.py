"""Cost per desktop from explicit assumptions only, consistent with the audit register.

No price is typed here, and nothing here reads ``data/raw``: the assumptions table (columns
``ASSUMPTION_COLUMNS``; by default ``data/raw/cost_assumptions.csv``, read by the notebook and
passed in) and the claims register (``data/raw/claims.csv``, passed in) are arguments.

- The vendors' $-per-desktop claims are *shown*, with the audit's resolution, never used as
  prices: the register (``discrepancies.csv``) sets them aside (``used_in_analysis = False``).
- An ambiguous claim is read every way its document allows (``claim_readings``): at the density
  it states, at the tested desktops, at "full density" by the array's rated IOPS over the
  document's IOPS-per-desktop sizing rule, and by the array's capacity over its capacity per
  desktop; each reading with its consequence (the array price it would imply and that price per
  tested desktop). A claim the claims table rates ``not testable`` gets no reading.
- Cost per desktop is computed only from array prices the assumptions table states
  (``array_price_usd:<source_id>`` or ``array_price_usd:<source_id>:<configuration>``, each with
  its scope; ``array_prices`` validates them); none are shipped, so by default there is none, and
  the report says so. The buyer's price per array at the sizing scenario is ``verdicts.verdicts``'s.
- Drive-cost comparisons of tiered configurations (``drive_mix``, ``tiering_saving``) use the
  assumed HDD/flash-module price ratio (scope: drives only).
"""

import math

import numpy as np
import pandas as pd

ASSUMPTION_COLUMNS = ["name", "value", "unit", "low", "high", "basis", "scope", "source_or_rationale"]
REQUIRED = ("hdd_to_fmd_price_ratio",)
ARRAY_PRICE_PREFIX = "array_price_usd:"


def load_assumptions(path) -> pd.DataFrame:
    """The assumptions file at ``path`` (required: the caller decides which file), validated:
    columns ``ASSUMPTION_COLUMNS`` (value, low, high float; an empty low or high is the value: a
    quote has no range).

    Raises ValueError naming the file and line when a column or a required name (``REQUIRED``)
    is missing, a number does not parse, low <= value <= high fails, or a scope or rationale is
    empty (no assumption enters silently). FileNotFoundError when the file is missing.
    """
    from ..raw import sources

    if path is None or str(path) == "":
        raise ValueError("cost assumptions: no file given (pass the path of cost_assumptions.csv or COST_FILE)")
    df = sources.read_csv_text(path)
    return validate_assumptions(df, path)


def validate_assumptions(df: pd.DataFrame, path="cost assumptions") -> pd.DataFrame:
    """Validate an assumptions table (see ``load_assumptions``); returns it typed."""
    df = df.copy().reset_index(drop=True)
    missing = [c for c in ASSUMPTION_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}; expected {ASSUMPTION_COLUMNS}")
    for col in ("low", "high"):  # a quote has no range: an empty low or high is the value
        if col in df.columns:
            df[col] = df[col].where(df[col].astype(str).str.strip() != "", df["value"])
    for col in ("value", "low", "high"):
        bad = pd.to_numeric(df[col], errors="coerce").isna()
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{path}: line {i + 2}: column {col!r} = {df.at[i, col]!r} is not a number")
        df[col] = df[col].astype(float)
    for i, r in df.iterrows():
        if not r["low"] <= r["value"] <= r["high"]:
            raise ValueError(
                f"{path}: line {i + 2}: {r['name']}: need low <= value <= high, got {r['low']}, {r['value']}, "
                f"{r['high']}"
            )
        for col in ("scope", "source_or_rationale"):
            if not str(r[col]).strip():
                raise ValueError(f"{path}: line {i + 2}: {r['name']}: empty {col}")
    absent = [n for n in REQUIRED if n not in set(df["name"])]
    if absent:
        raise ValueError(f"{path}: missing assumption(s) {absent}")
    return df[ASSUMPTION_COLUMNS]


def values(assumptions: pd.DataFrame, which: str = "value") -> dict[str, float]:
    """name -> value (or ``low``/``high``)."""
    return dict(zip(assumptions["name"], assumptions[which]))


def _first(results: pd.DataFrame, **eq) -> pd.Series | None:
    m = pd.Series(True, index=results.index)
    for k, v in eq.items():
        m &= results[k] == v
    r = results[m].sort_values("record_id")
    return r.iloc[0] if len(r) else None


def claim_readings(results: pd.DataFrame, sources_df: pd.DataFrame, claims_register: pd.DataFrame) -> pd.DataFrame:
    """Every $-per-desktop claim (results.csv metric ``cost_per_desktop``), read every way its
    document allows, with the consequence of each reading.

    ``sources_df``: sources.csv (tested desktops per source). ``claims_register``: claims.csv
    (``verdict``/``claim_id`` say when the claims table rates the claim on the record's source and
    line ``not testable``: its readings show what it would mean, never a price the analysis uses).
    A claim with no density stated (other than the tested one) and none derivable gets one row
    ``none: no density stated or derivable``; otherwise the tested-desktops reading comes first.
    Columns: vendor, source_id, record_id, claim_usd (reported, USD per desktop), reading
    (``tested desktops``, ``stated density``, ``full density by IOPS``, ``full density by
    capacity``), density (desktops), derivation (records and arithmetic), implied_price_usd
    (claim x density: what the array would cost if the claim held at that density),
    usd_per_tested_desktop (implied price / desktops tested), verdict, claim_id, audit (the
    register's resolution: why the claim is not used as a price).
    """
    tested = sources_df.set_index("source_id")["desktops"].astype(float)
    nt = claims_register[claims_register["verdict"].str.strip() == "not testable"]
    nt = {(s, int(ln)): c for s, ln, c in zip(nt["source_id"], nt["line"], nt["claim_id"])}
    r = (
        results[results["metric"] == "cost_per_desktop"]
        .sort_values("record_id")
        .drop_duplicates(["source_id", "value", "desktops"])
    )
    rows = []
    for _, c in r.iterrows():
        sid, t = c["source_id"], tested.get(c["source_id"], np.nan)
        base = {
            "vendor": c["vendor"],
            "source_id": sid,
            "record_id": c["record_id"],
            "claim_usd": c["value"],
            "audit": c["resolution"],
        }
        base["verdict"] = "not testable" if nt.get((sid, int(c["line"]))) else ""
        base["claim_id"] = nt.get((sid, int(c["line"])), "")
        reads = []
        if pd.notna(c["desktops"]) and c["desktops"] != t:
            reads.append(
                ("stated density", c["desktops"], f"{c['record_id']}: {c['desktops']:,.0f} desktops as stated")
            )
        s = results[(results["source_id"] == sid)]
        rated = s[(s["phase"] == "testbed") & (s["metric"] == "iops") & (s["statistic"] == "single")].sort_values(
            "value", ascending=False
        )
        rule = s[
            (s["phase"] == "sizing")
            & (s["metric"] == "iops_per_desktop")
            & (s["worker_class"].isin([c["worker_class"], ""]))
        ]
        if len(rated) and len(rule):
            # the document's own sizing average (not a reprinted workload table of single values)
            a, b = (
                rated.iloc[0],
                rule.assign(_s=(rule["statistic"] != "average")).sort_values(["_s", "record_id"]).iloc[0],
            )
            reads.append(
                (
                    "full density by IOPS",
                    a["value"] / b["value"],
                    f"{a['record_id']} {a['value']:,.0f} IOPS / {b['record_id']} {b['value']:g} IOPS per desktop "
                    "(sizing rule)",
                )
            )
        used = _first(s, metric="used_capacity", statistic="total")
        pct = _first(s, metric="used_capacity_percent")
        cap = s[(s["phase"] == "sizing") & (s["metric"] == "used_capacity_per_desktop")].sort_values("record_id")
        if used is not None and pct is not None and len(cap) and pct["value"] > 0:
            total = used["value"] * 100 / pct["value"]
            reads.append(
                (
                    "full density by capacity",
                    total / cap.iloc[0]["value"],
                    (
                        f"{used['record_id']} {used['value']:,.0f} GB = {pct['record_id']} {pct['value']:g} % of "
                        "capacity → "
                        f"{total:,.0f} GB (derived) / {cap.iloc[0]['record_id']} {cap.iloc[0]['value']:g} GB per "
                        "desktop"
                    ),
                )
            )
        if not reads:
            rows.append(
                {
                    **base,
                    "reading": "none: no density stated or derivable",
                    "density": np.nan,
                    "derivation": "",
                    "implied_price_usd": np.nan,
                }
            )
            continue
        reads.insert(0, ("tested desktops", t, f"sources.csv: {t:,.0f} desktops tested"))
        for name, dens, how in reads:
            rows.append(
                {
                    **base,
                    "reading": name,
                    "density": float(dens),
                    "derivation": how,
                    "implied_price_usd": c["value"] * dens,
                }
            )
    out = pd.DataFrame(
        rows,
        columns=[
            "vendor",
            "source_id",
            "record_id",
            "claim_usd",
            "reading",
            "density",
            "derivation",
            "implied_price_usd",
            "verdict",
            "claim_id",
            "audit",
        ],
    )
    out["usd_per_tested_desktop"] = out["implied_price_usd"] / out["source_id"].map(tested)
    return out


def cost_per_desktop(
    assumptions: pd.DataFrame, density_summary: pd.DataFrame, sources_df: pd.DataFrame
) -> pd.DataFrame:
    """USD per desktop from array prices the assumptions table states (``array_price_usd:<source_id>``,
    or ``array_price_usd:<source_id>:<configuration>`` for one configuration).

    For each such price: at the desktops demonstrated, and at the extrapolated peak maximum
    where ``density_summary`` (``density.summary``) has one that is not a ``limit``. Columns:
    vendor, source_id, price_usd, price_low, price_high, scope, density_case, desktops,
    usd_per_desktop, usd_per_desktop_low, usd_per_desktop_high. Empty when the table states no
    array price (the shipped default).
    """
    cols = [
        "vendor",
        "source_id",
        "price_usd",
        "price_low",
        "price_high",
        "scope",
        "density_case",
        "desktops",
        "usd_per_desktop",
        "usd_per_desktop_low",
        "usd_per_desktop_high",
    ]
    a = assumptions[assumptions["name"].str.startswith(ARRAY_PRICE_PREFIX)]
    vendor = sources_df.set_index("source_id")["vendor"]
    rows = []
    for _, p in a.iterrows():
        sid, _, conf = p["name"][len(ARRAY_PRICE_PREFIX) :].partition(":")
        if sid not in vendor.index:
            raise ValueError(f"cost assumptions: {p['name']}: unknown source_id {sid!r}")
        s = density_summary[density_summary["vendor"] == vendor[sid]]
        if conf:  # a price of one configuration (array_price_usd:<source_id>:<configuration>)
            s = s[s["configuration"] == conf]
        cases = [("demonstrated", s["desktops_tested"].min())]
        ok = s[s["peak_max"].notna() & (s["peak_bound"] != "limit")]
        if len(ok):
            cases.append(("extrapolated peak maximum", ok["peak_max"].min()))
        for case, d in cases:
            if pd.isna(d):
                continue
            rows.append(
                {
                    "vendor": vendor[sid],
                    "source_id": sid,
                    "price_usd": p["value"],
                    "price_low": p["low"],
                    "price_high": p["high"],
                    "scope": p["scope"],
                    "density_case": case,
                    "desktops": d,
                    "usd_per_desktop": p["value"] / d,
                    "usd_per_desktop_low": p["low"] / d,
                    "usd_per_desktop_high": p["high"] / d,
                }
            )
    return pd.DataFrame(rows, columns=cols)


def drive_mix(results: pd.DataFrame) -> pd.DataFrame:
    """Drives per configuration of documents that test several configurations (test-bed
    records, metric ``drives``, a configuration), typed flash module (FMD) or HDD by the record's
    quote. Columns: source_id, vendor, configuration, fmd, hdd."""
    r = results[(results["metric"] == "drives") & (results["phase"] == "testbed") & (results["configuration"] != "")]
    r = r.assign(
        kind=np.where(r["quote"].str.contains("FMD"), "fmd", np.where(r["quote"].str.contains("HDD"), "hdd", ""))
    )
    r = r[r["kind"] != ""].drop_duplicates(["source_id", "configuration", "kind"])
    if r.empty:
        return pd.DataFrame(columns=["source_id", "vendor", "configuration", "fmd", "hdd"])
    t = r.pivot_table(index=["source_id", "vendor", "configuration"], columns="kind", values="value", aggfunc="first")
    t = t.reindex(columns=["fmd", "hdd"]).fillna({"hdd": 0.0}).reset_index()
    return t.dropna(subset=["fmd"]).reset_index(drop=True)


def tiering_saving(drives: pd.DataFrame, hdd_to_fmd: float, reference: str, tiered: str) -> dict:
    """Drive-cost saving of the ``tiered`` configuration against ``reference``, in FMD price units.

    Returns reference, tiered, claimed_fmd_only (1 - fmd_tiered / fmd_reference: counting flash
    modules only), with_hdds (1 - (fmd + r x hdd)_tiered / (fmd + r x hdd)_reference, r = the
    HDD/FMD price ratio) and break_even_ratio (r at which the saving is 0; inf when the HDD
    counts are equal). Raises KeyError for an unknown configuration.
    """
    d = drives.set_index("configuration")
    ft, ht, fr, hr = d.at[tiered, "fmd"], d.at[tiered, "hdd"], d.at[reference, "fmd"], d.at[reference, "hdd"]
    with_hdds = 1 - (ft + hdd_to_fmd * ht) / (fr + hdd_to_fmd * hr)
    be = (fr - ft) / (ht - hr) if ht != hr else math.inf
    return {
        "reference": reference,
        "tiered": tiered,
        "claimed_fmd_only": 1 - ft / fr,
        "with_hdds": with_hdds,
        "break_even_ratio": be,
    }


def tiered_configuration(drives: pd.DataFrame) -> str:
    """The configuration that replaces the most flash modules with HDDs: fewest FMDs among those
    with HDDs (ties: most HDDs)."""
    t = drives[drives["hdd"] > 0].sort_values(["fmd", "hdd"], ascending=[True, False])
    if t.empty:
        raise ValueError("no configuration with HDDs: nothing tiered")
    return str(t.iloc[0]["configuration"])


def array_prices(assumptions: pd.DataFrame, sources_df: pd.DataFrame, path="cost assumptions") -> dict[str, float]:
    """The buyer's array prices: ``{"<source_id>" or "<source_id>:<configuration>": USD}`` from
    rows named ``array_price_usd:<source_id>`` (every configuration of that document) or
    ``array_price_usd:<source_id>:<configuration>`` (one configuration, e.g. Hitachi's
    ``config2``), the price of one array as tested, with its scope (hardware, software, support
    years) in ``scope``. Empty when the file states none (the shipped default).

    Raises ValueError naming the file and line: an unknown source_id, a configuration that is not
    one of that document's (vocabulary.csv, field configuration), a unit other than USD, or a
    price that is not positive."""
    from .. import config

    known = set(sources_df["source_id"])
    confs = {r["value"]: r.get("source_id", "") for r in config.VOCABULARY.get("configuration", []) if r["value"]}
    out = {}
    for i, r in assumptions.reset_index(drop=True).iterrows():
        if not str(r["name"]).startswith(ARRAY_PRICE_PREFIX):
            continue
        where = f"{path}: line {i + 2}: {r['name']}"
        key = str(r["name"])[len(ARRAY_PRICE_PREFIX) :]
        sid, _, conf = key.partition(":")
        if sid not in known:
            raise ValueError(f"{where}: unknown source_id {sid!r}; use one of {', '.join(sorted(known))}")
        if conf and (conf not in confs or confs[conf] not in ("", sid)):
            mine = sorted(c for c, s in confs.items() if s == sid)
            raise ValueError(
                f"{where}: unknown configuration {conf!r} of {sid}"
                + (f"; use one of {', '.join(mine)}" if mine else f"; {sid} tested one configuration: omit it")
            )
        if str(r["unit"]).strip() != "USD":
            raise ValueError(f"{where}: unit must be USD (the price of one array), got {r['unit']!r}")
        if not r["value"] > 0:
            raise ValueError(f"{where}: the price must be positive, got {r['value']!r}")
        out[key] = float(r["value"])
    return out


def check_cost_file(path) -> pd.DataFrame:
    """The COST_FILE report parameter's check (stages.PARAMETERS): the assumptions file loads
    (``load_assumptions``) and its array prices are valid (``array_prices``); raises ValueError
    naming the file and line."""
    from ..raw import sources

    a = load_assumptions(path)
    array_prices(a, sources.load_sources(), path)
    return a
