"""Density: demonstrated before extrapolated.

Per tested array (and configuration): what it demonstrably carried (desktops, phase, normal and
one-controller-down) with the busiest resource it reported, and an extrapolation only where the
resource scales with desktops:

- Controller CPU (array CPU, Hitachi MPU) scales: a resource at ``u`` % with ``d`` desktops
  saturates at ``d x 100 / u`` desktops (the scaling law, an assumption: controller load need not
  be linear in desktops; caches and background work make it a rough guide). A ``< u`` figure gives
  only a lower bound. With one of two controllers down, controller load doubles
  (``FAILOVER_FACTOR``) unless the vendor measured its failover test.
- Port bandwidth scales: link speed x data ports (test-bed records ``storage_ports`` and a
  network or port speed on the same line) against the highest host or front-end throughput per
  desktop in a user phase gives ``desktops x port MB/s / tested MB/s``.
- Never extrapolated: a saturated figure (``SATURATED_PCT`` or more: the tested load already hit
  the limit), a non-proportional one (disk or flash-module busy %, which sits near 100 % whatever
  the number of drives), and any figure whose statement the claims table (data/raw/claims.csv,
  same source and line) rates ``not testable``.
- Consistency: the maximum at peak is never above the maximum on averages (a peak needs the
  average load carried too); where it would be, the average-based maximum caps it.
Latency rises non-linearly near saturation and is never extrapolated.
"""

import numpy as np
import pandas as pd

from .. import catalogue, config
from ..config import COUNT_PHASES, DAY_PHASES
from ..raw import choices as analysis

UTILIZATION_METRICS = {
    "storage_cpu_utilization": "array controller CPU",
    "mpu_utilization": "MPU",
    "disk_busy": "disk busy",
}
CONTROLLER_RESOURCES = {"storage_cpu_utilization", "mpu_utilization"}
SCALING_METRICS = CONTROLLER_RESOURCES  # resources whose load grows with desktops
NON_PROPORTIONAL = {"disk_busy": "busy % of disks or flash modules is not proportional to desktops"}
LIMIT_PCT = 100.0  # saturation
SATURATED_PCT = 95.0  # at or above: the tested load is at the limit, nothing to extrapolate
FAILOVER_FACTOR = 2.0  # two controllers -> one: per-controller load doubles
MB_PER_GBIT = 125.0  # 1 Gb/s = 125 MB/s (decimal)
SPEED_METRICS = ("port_speed", "network_speed", "fc_port_speed", "network_port_speed")
# The columns of ``density.csv``, in file order: the catalogue's declaration (one source). A
# utilization row (``utilization``) has them all but the extrapolation columns ``max_desktops``
# adds, and keeps the statement's ``line`` (to match claims.csv).
DENSITY_COLUMNS = catalogue.table("density").column_names
EXTRAPOLATION_COLUMNS = [
    "extrapolation",
    "reason",
    "max_desktops",
    "max_bound",
    "max_desktops_failover",
    "failover_basis",
    "phase_kind",
    "claim_id",
]
UTILIZATION_COLUMNS = [c for c in DENSITY_COLUMNS if c not in EXTRAPOLATION_COLUMNS] + ["line"]


def _pool(quote: str) -> str:
    q = quote.upper()
    return " (FMD)" if "FMD" in q else " (HDD)" if ("HDD" in q or "SAS" in q) else ""


def utilization(results: pd.DataFrame) -> pd.DataFrame:
    """Utilization records of test runs (results.csv rows with a metric in
    ``UTILIZATION_METRICS``, statistic peak or average, used in the analysis), one per distinct
    number. Columns ``UTILIZATION_COLUMNS``: source_id, vendor, configuration, phase, condition,
    variant, resource (e.g. ``disk busy (FMD)``), metric, statistic, utilization_pct,
    utilization_low, utilization_high (%, capped at 100), bound, desktops (the population the
    resource serves), population, record_id, line. A utilization without a phase is labelled
    ``overall``.
    """
    r = results[
        results["metric"].isin(list(UTILIZATION_METRICS))
        & results["statistic"].isin(["peak", "average"])
        & results["used_in_analysis"]
        & ~results["phase"].isin(["sizing", "testbed"])
    ].copy()
    r["phase"] = r["phase"].replace("", "overall")
    r["condition"] = r["condition"].replace("", "normal")
    r["resource"] = r["metric"].map(UTILIZATION_METRICS) + [
        _pool(q) if m == "disk_busy" else "" for q, m in zip(r["quote"], r["metric"])
    ]
    r = r.sort_values("record_id").drop_duplicates(
        [
            "vendor",
            "configuration",
            "phase",
            "condition",
            "variant",
            "resource",
            "statistic",
            "value",
            "bound",
            "desktops",
        ]
    )
    out = r.rename(
        columns={"value": "utilization_pct", "value_low": "utilization_low", "value_high": "utilization_high"}
    )
    out["utilization_high"] = out["utilization_high"].clip(upper=LIMIT_PCT)
    return out[UTILIZATION_COLUMNS]


def not_testable(claims_register: pd.DataFrame) -> dict[tuple[str, int], str]:
    """(source_id, line) -> claim_id of the claims the register (data/raw/claims.csv, passed in)
    rates ``not testable``."""
    c = claims_register[claims_register["verdict"].str.strip() == "not testable"]
    return {(sid, int(line)): cid for sid, line, cid in zip(c["source_id"], c["line"], c["claim_id"])}


def set_aside(register: pd.DataFrame | None) -> dict[str, str]:
    """record_id -> register id of the records an audit register entry (data/raw/discrepancies.csv,
    passed in) names in its resolution while keeping them (not in its ``rejected_records``): kept
    and shown, never a basis for extrapolation (D-NTAP-24: ONTAP's utilization is not absolute;
    D-ACCS-22: AccelStor's "CPU under 4 %")."""
    import re

    out: dict[str, str] = {}
    if register is None:
        return out
    for _, e in register.iterrows():
        rejected = set(str(e.get("rejected_records", "")).split())
        for rid in re.findall(r"[A-Z][A-Z0-9]*-\d{4}", str(e["resolution"])):
            if rid not in rejected:
                out.setdefault(rid, e["id"])
    return out


def max_desktops(
    util: pd.DataFrame, claims_register: pd.DataFrame | None = None, register: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Add the extrapolation columns to ``utilization`` rows (``DENSITY_COLUMNS``).

    extrapolation: ``scales`` (controller CPU/MPU, below saturation, testable) or ``not
    extrapolated``; reason: why not (saturated, non-proportional, rated not testable in
    claims.csv as ``claim_id``). max_desktops = desktops x 100 / utilization for ``scales`` rows
    (NaN otherwise); max_bound ``gt`` (at least: a ``<`` utilization), ``approx``, ``eq``.
    max_desktops_failover: the vendor's failover row as it is, or the normal row / 2 for a
    controller resource (``failover_basis`` says which).
    """
    d = util.copy()
    nt = not_testable(claims_register) if claims_register is not None else {}
    d["claim_id"] = [nt.get((s, int(ln)), "") if pd.notna(ln) else "" for s, ln in zip(d["source_id"], d["line"])]
    named = set_aside(register)
    aside = d["record_id"].map(lambda r: named.get(r, ""))
    u = d["utilization_pct"].clip(upper=LIMIT_PCT)
    reason = np.select(
        [
            d["claim_id"] != "",
            aside != "",
            ~d["metric"].isin(list(SCALING_METRICS)),
            (u >= SATURATED_PCT) & (d["bound"] != "lt"),
        ],
        [
            "claims table rates the statement not testable (" + d["claim_id"] + ")",
            "set aside from extrapolation by the register (" + aside + ")",
            d["metric"].map(NON_PROPORTIONAL).fillna("resource does not scale with desktops"),
            "saturated: the tested load already reaches the limit",
        ],
        "",
    )
    d["reason"] = reason
    d["extrapolation"] = np.where(d["reason"] == "", "scales", "not extrapolated")
    ok = d["extrapolation"] == "scales"
    d["max_desktops"] = np.where(ok, d["desktops"] * LIMIT_PCT / u, np.nan)
    d["max_bound"] = np.where(ok, np.select([d["bound"] == "lt", d["bound"] == "approx"], ["gt", "approx"], "eq"), "")
    measured = d["condition"] == "failover"
    d["max_desktops_failover"] = np.where(measured, d["max_desktops"], d["max_desktops"] / FAILOVER_FACTOR)
    d["failover_basis"] = np.where(
        ~ok, "", np.where(measured, "measured in the vendor's failover test", "derived: controller load doubles")
    )
    d["phase_kind"] = np.where(d["phase"].isin(DAY_PHASES), "user", "maintenance")
    return (
        d[DENSITY_COLUMNS]
        .sort_values(["vendor", "configuration", "phase", "condition", "resource", "statistic"])
        .reset_index(drop=True)
    )


def port_bandwidth(results: pd.DataFrame) -> pd.DataFrame:
    """Port-bandwidth limit per source where the test bed states the storage's data ports and
    their speed on one line (metrics ``storage_ports`` and one of ``SPEED_METRICS``).

    port_mbps = ports x Gb/s x 125 (MB/s, decimal). The tested throughput is the highest host or
    front-end throughput in a phase whose throughput scales with the number of desktops
    (``COUNT_PHASES``: login and steady state; a boot storm's throughput scales with the boot
    rate, so a port limit from it would limit the rate, not the count: D-ACCS-24), normal
    condition, or the sum of read and write throughput of one test, phase and statistic when only
    those are reported. max_desktops = desktops x port_mbps / tested_mbps, a limit at the tested
    per-desktop throughput. Columns: source_id, vendor, ports, gbps, port_mbps,
    phase, statistic, tested_mbps, desktops, max_desktops, records.
    """
    tb = results[results["phase"] == "testbed"]
    ports = tb[tb["metric"] == "storage_ports"]
    speed = tb[tb["metric"].isin(SPEED_METRICS)]
    rows = []
    for _, p in ports.iterrows():
        sp = speed[(speed["source_id"] == p["source_id"]) & (speed["line"] == p["line"])]
        if sp.empty:
            continue
        s = sp.iloc[0]
        port_mbps = p["value"] * s["value"] * MB_PER_GBIT
        r = results[
            (results["source_id"] == p["source_id"])
            & results["used_in_analysis"]
            & (results["condition"] == "normal")
            & results["phase"].isin(COUNT_PHASES)
            & results["vantage"].isin(["host", "array_frontend"])
        ]
        tot = r[r["metric"] == "throughput"][["phase", "statistic", "value", "desktops", "record_id"]]
        rw = r[r["metric"].isin(["read_throughput", "write_throughput"])]
        sums = (
            rw.groupby(["test_id", "phase", "statistic"])
            .agg(
                value=("value", "sum"),
                desktops=("desktops", "max"),
                n=("metric", "nunique"),
                record_id=("record_id", " ".join),
            )
            .reset_index()
        )
        sums = sums[sums["n"] == 2].drop(columns=["n", "test_id"])
        cand = pd.concat([tot, sums], ignore_index=True)
        if cand.empty:
            continue
        cand["per_desktop"] = cand["value"] / cand["desktops"]
        t = cand.sort_values("per_desktop", ascending=False).iloc[0]
        rows.append(
            {
                "source_id": p["source_id"],
                "vendor": p["vendor"],
                "ports": p["value"],
                "gbps": s["value"],
                "port_mbps": port_mbps,
                "phase": t["phase"],
                "statistic": t["statistic"],
                "tested_mbps": t["value"],
                "desktops": t["desktops"],
                "max_desktops": t["desktops"] * port_mbps / t["value"],
                "records": f"{p['record_id']} {s['record_id']} {t['record_id']}",
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "source_id",
            "vendor",
            "ports",
            "gbps",
            "port_mbps",
            "phase",
            "statistic",
            "tested_mbps",
            "desktops",
            "max_desktops",
            "records",
        ],
    )


SUMMARY_COLUMNS = catalogue.table("density_summary").column_names  # density_summary.csv: the catalogue's declaration


def _at_limit(g: pd.DataFrame) -> pd.DataFrame:
    return g[(g["utilization_pct"] >= SATURATED_PCT) & (g["bound"] != "lt")]


def _case(g: pd.DataFrame, col: str, tested: float):
    """(max, bound, basis) over the count phases of ``g``: the tested desktops when a resource
    is at its limit there (bound ``limit``), else the lowest extrapolation of a resource that
    scales, else nothing."""
    g = g[g["phase"].isin(COUNT_PHASES)]
    lim = _at_limit(g)
    if len(lim):
        x = lim.sort_values(["utilization_pct", "record_id"], ascending=[False, True]).iloc[0]
        return (
            tested,
            "limit",
            f"limit reached: {x['resource']} at {x['utilization_pct']:g} %, {x['phase'].replace('_', ' ')} "
            f"({x['record_id']})",
        )
    g = g[g[col].notna()]
    if g.empty:
        return np.nan, "", ""
    i = g[col].idxmin()
    return (
        float(g.at[i, col]),
        g.at[i, "max_bound"],
        f"{g.at[i, 'resource']}, {g.at[i, 'phase'].replace('_', ' ')} ({g.at[i, 'record_id']})",
    )


def _unknown_headroom(row: dict, unknown: list[str]) -> None:
    """Where another reported resource of the same phases cannot be extrapolated (``caveat``: its
    headroom is unknown), a maximum from a resource that scales is only that resource's limit:
    the array reaches at most that many desktops (bound ``lt``), perhaps fewer; when the scaling
    resource gave only a lower bound (``gt``, from a ``< u %`` figure), nothing is determined."""
    if not unknown:
        return
    names = ", ".join(unknown)
    for key in ("peak", "average", "peak_failover"):
        v, b, basis = row.get(f"{key}_max"), row.get(f"{key}_bound"), row.get(f"{key}_basis", "")
        if pd.isna(v) or b == "limit":
            continue
        if b == "gt":
            row[f"{key}_max"], row[f"{key}_bound"] = np.nan, ""
            row[f"{key}_basis"] = (
                f"not determined: {basis} allows at least {v:,.0f}, but the headroom of {names} is unknown"
            )
        else:
            row[f"{key}_bound"] = "lt"
            row[f"{key}_basis"] = f"{basis}; at most: the headroom of {names} is unknown"


def summary(
    density: pd.DataFrame,
    claims: pd.DataFrame | None = None,
    ports: pd.DataFrame | None = None,
    demonstrated: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Per vendor and configuration: demonstrated first, extrapolated second (``SUMMARY_COLUMNS``).

    desktops_tested / desktops_failover_tested: desktops of its normal and one-controller-down
    tests (``demonstrated``: ``scenario.demonstrated`` rows; else the utilization rows).
    busiest_*: the highest utilization it reported in a user phase (normal), extrapolated or not.
    peak_max / average_max / peak_failover_max (desktops), with bound and basis, over login and
    steady state (a boot storm's limit is a boot-rate limit, reported in ``boot_limit``): the
    tested desktops with bound ``limit`` when a reported resource is at ``SATURATED_PCT`` or more
    there (the array was at a limit: nothing to extrapolate), else the lowest maximum of a
    resource that scales (``max_desktops``); failover uses the vendor's failover test where it
    exists, else the derived controller figure. port_max: ``port_bandwidth`` (port_bound ``lt`` when
    computed from an average throughput: an upper bound, ``approx`` from a peak). caveat: resources
    that cannot be extrapolated and are not at a limit (their headroom is unknown). consistency:
    how a peak maximum above the average maximum was capped. claims: the vendor's density claims
    (``claims``; ``† D-…`` names the register entry that qualifies one). With a caveat, a maximum from a scaling
    resource becomes an upper bound, or not determined when it was only a lower bound
    (``_unknown_headroom``).
    """
    d = density[
        (density["phase_kind"] == "user") & ~density["variant"].isin(analysis.design_case_set_aside("login_variant"))
    ]
    keys = set(zip(d["vendor"], d["configuration"]))
    if demonstrated is not None:
        keys |= set(zip(demonstrated["vendor"], demonstrated["configuration"]))
    rows = []
    for vendor, conf in sorted(keys):
        g = d[(d["vendor"] == vendor) & (d["configuration"] == conf)]
        normal, fo = g[g["condition"] == "normal"], g[g["condition"] == "failover"]
        row = {"vendor": vendor, "configuration": conf}
        if demonstrated is not None:
            dm = demonstrated[(demonstrated["vendor"] == vendor) & (demonstrated["configuration"] == conf)]
            row["desktops_tested"] = dm.loc[dm["condition"] == "normal", "desktops"].max()
            row["desktops_failover_tested"] = dm.loc[dm["condition"] == "failover", "desktops"].max()
        else:
            row["desktops_tested"], row["desktops_failover_tested"] = normal["desktops"].max(), fo["desktops"].max()
        if len(normal):
            b = normal.sort_values(["utilization_pct", "record_id"], ascending=[False, True]).iloc[0]
            row.update(
                busiest_resource=b["resource"],
                busiest_pct=b["utilization_pct"],
                busiest_bound=b["bound"],
                busiest_phase=b["phase"],
                busiest_record=b["record_id"]
                + (f"; claims table: not testable, {b['claim_id']}" if b["claim_id"] else ""),
            )
        tested = row["desktops_tested"]
        for stat in ("peak", "average"):
            row[f"{stat}_max"], row[f"{stat}_bound"], row[f"{stat}_basis"] = _case(
                normal[normal["statistic"] == stat], "max_desktops", tested
            )
        bl = _at_limit(normal[normal["phase"] == "boot"])
        row["boot_limit"] = "; ".join(
            f"{x['resource']} at {x['utilization_pct']:g} % at the tested boot rate ({x['record_id']})"
            for _, x in bl.iterrows()
        )
        unk = normal[
            (normal["extrapolation"] != "scales")
            & (normal["utilization_pct"] < SATURATED_PCT)
            & normal["phase"].isin(COUNT_PHASES)
            & (normal["claim_id"] == "")
        ]
        row["caveat"] = "; ".join(sorted({f"{x['resource']}: {x['reason']}" for _, x in unk.iterrows()}))
        row["consistency"] = ""
        if pd.notna(row["peak_max"]) and pd.notna(row["average_max"]) and row["peak_max"] > row["average_max"]:
            # at a limit on averages, the limit statement says it all; otherwise name the cap
            row["consistency"] = (
                ""
                if row["average_bound"] == "limit"
                else (
                    f"the peak-based {row['peak_max']:,.0f} is capped by the average-based maximum "
                    "(a peak cannot be carried without its average load)"
                )
            )
            row["peak_max"], row["peak_bound"], row["peak_basis"] = (
                row["average_max"],
                row["average_bound"],
                row["average_basis"],
            )
        if len(fo):
            row["peak_failover_max"], row["peak_failover_bound"], row["peak_failover_basis"] = _case(
                fo[fo["statistic"] == "peak"], "max_desktops_failover", row["desktops_failover_tested"]
            )
        elif row["peak_bound"] == "limit":
            row["peak_failover_max"], row["peak_failover_bound"], row["peak_failover_basis"] = (
                np.nan,
                "",
                "not tested; at its limit with both controllers",
            )
        else:
            row["peak_failover_max"], row["peak_failover_bound"], row["peak_failover_basis"] = _case(
                normal[normal["statistic"] == "peak"], "max_desktops_failover", tested
            )
        if (
            pd.notna(row["peak_failover_max"])
            and pd.notna(row["peak_max"])
            and row["peak_failover_max"] > row["peak_max"]
        ):
            row["peak_failover_max"], row["peak_failover_bound"] = row["peak_max"], row["peak_bound"]
            row["peak_failover_basis"] = f"capped by the maximum with both controllers ({row['peak_basis']})"
        _unknown_headroom(row, sorted(set(unk["resource"])))
        if ports is not None:
            pt = ports[ports["vendor"] == vendor]
            if len(pt):
                x = pt.iloc[0]
                row["port_max"] = x["max_desktops"]
                # from an average throughput the limit is an upper bound: the peak is higher, so fewer fit
                row["port_bound"] = "approx" if x["statistic"] == "peak" else "lt"
                row["port_basis"] = (
                    f"{x['ports']:g} ports × {x['gbps']:g} Gb/s = {x['port_mbps']:,.0f} MB/s against "
                    f"{x['tested_mbps']:,.0f} MB/s in the {x['phase'].replace('_', ' ')} ({x['statistic']}; "
                    f"{x['records']})"
                )
        if claims is not None:
            c = claims[claims["vendor"] == vendor]
            mark = [f" († {a.split(':')[0]})" if a else "" for a in c["audit"]]
            row["claims"] = "; ".join(c["claim"] + mark) if len(c) else ""
        rows.append(row)
    return pd.DataFrame(rows).reindex(columns=SUMMARY_COLUMNS)


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
    sign = config.BOUND_SIGNS
    cls = r["worker_class"].map(lambda c: f" {c.replace('_', ' ')}" if c else "")
    return pd.DataFrame(
        {
            "vendor": r["vendor"],
            "record_id": r["record_id"],
            "value": r["value"],
            "bound": r["bound"],
            "claim": [f"{sign[b]}{v:,.0f}{c}" for b, v, c in zip(r["bound"], r["value"], cls)],
            "phase": r["phase"],
            "worker_class": r["worker_class"],
            "quote": r["quote"],
            "audit": r["resolution"],
        }
    ).reset_index(drop=True)


def latency(results: pd.DataFrame) -> pd.DataFrame:
    """Peak latency per vendor, configuration and user-facing phase (normal condition), beside
    the vendor's own latency threshold (phase ``sizing``, metric ``latency``, if any).

    Columns: vendor, configuration, phase, latency_ms (the highest peak, else average, reported),
    statistic, vantage, record_id, threshold_ms, share_of_threshold.
    """
    r = results[
        (results["metric"] == "latency")
        & results["used_in_analysis"]
        & results["phase"].isin(DAY_PHASES)
        & (results["condition"] != "failover")
        & ~results["variant"].isin(analysis.design_case_set_aside("login_variant"))
    ]
    r = r.assign(_s=(r["statistic"] != "peak").astype(int)).sort_values(["_s", "value"], ascending=[True, False])
    top = r.groupby(["vendor", "configuration", "phase"], sort=True).first().reset_index()
    th = results[(results["metric"] == "latency") & (results["phase"] == "sizing")].groupby("vendor")["value"].max()
    top["threshold_ms"] = top["vendor"].map(th)
    top["share_of_threshold"] = top["value"] / top["threshold_ms"]
    return top.rename(columns={"value": "latency_ms"})[
        [
            "vendor",
            "configuration",
            "phase",
            "latency_ms",
            "statistic",
            "vantage",
            "record_id",
            "threshold_ms",
            "share_of_threshold",
        ]
    ]


def read(path=None) -> pd.DataFrame:
    """``density.csv`` with its types (the catalogue's table ``density``; columns
    ``DENSITY_COLUMNS``): text columns keep empty strings (NetApp and AccelStor have no
    configuration), numbers are float. ``path``, when given, must be that table's file; raises
    catalogue.TableError for another file, FileNotFoundError naming the build target when missing."""
    if path is not None and catalogue.locate(path)[0] != "density":
        raise catalogue.TableError(f"{path}: not density.csv")
    return catalogue.read("density")[DENSITY_COLUMNS]
