"""Report tables built from ``data/processed`` (never from typed numbers), and their display format.

Reported, derived and assumed values stay visibly apart: a printed value keeps its bound
(``< 6 min``, ``≈ 12 min``, ``> 216,000 IOPS``), derived per-desktop figures are in their own
column, and the vantage and statistic are spelled out (``peak, array front end``).
"""

import math

import pandas as pd

from .. import config
from ..models.iops.observations import HEADLINE_VANTAGES, register_id

VANTAGE_LABELS = {
    "array_frontend": "array front end",
    "array_backend": "array back end",
    "host": "ESXi host",
    "guest": "guest",
    "storage_port": "storage port",
    "": "vantage not stated",
}
CLONE_LABELS = {"full_clone": "full clones", "linked_clone": "linked clones", "mixed": "full + linked clones"}


# Which way a bounded number is rounded for print: a lower bound (``gt``, "≥") down and an upper
# bound (``lt``, "≤") up, at the digits shown, so that the printed bound never claims more than
# the value holds (≥ 783.62 prints "≥ 783", not "≥ 784"); other numbers to the nearest.
ROUND_TOWARD = {"gt": "down", "lt": "up"}


def _decimals(x: float) -> int:
    """The decimals ``fmt_number`` shows of ``x``."""
    if abs(x) >= 100:
        return 0
    if abs(x) >= 10:
        return 1
    return 2 - math.floor(math.log10(abs(x))) if x else 0


def fmt_number(x: float, toward: str = "") -> str:
    """Thousands separators for large numbers, up to 3 significant decimals for small ones.

    ``toward``: ``down`` or ``up`` rounds at the digits shown in that direction (a lower or an
    upper bound, ``ROUND_TOWARD``); empty: to the nearest."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if toward in ("down", "up") and math.isfinite(x):
        scale = 10 ** _decimals(x)
        x = (math.floor(x * scale + 1e-9) if toward == "down" else math.ceil(x * scale - 1e-9)) / scale
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:,.1f}".rstrip("0").rstrip(".")
    return f"{x:.3g}"


def fmt_bound(x: float, bound: str) -> str:
    """A number with its bound's sign (``config.bound_sign``: ``≥ 783``, ``≤ 1.25``, ``≈ 12``),
    rounded so that a bound claims no more than it holds (``ROUND_TOWARD``)."""
    return f"{config.bound_sign(bound)}{fmt_number(x, ROUND_TOWARD.get(bound, ''))}"


def fmt_value(value: float, unit: str, bound: str = "eq", value_high: float | None = None) -> str:
    """A value with its bound and unit: ``< 6 min``, ``≈ 12 min``, ``150–175 IOPS``, ``0.59 ms``.

    ``value_high`` (a range's upper end) is shown only when it differs from ``value``; a bound is
    rounded so that it claims no more than it holds (``fmt_bound``).
    """
    unit_txt = {"count": "", "%": "%", "": ""}.get(unit, f" {unit}")
    rng = value_high is not None and not pd.isna(value_high) and value_high != value and bound == "eq"
    num = f"{fmt_number(value)}–{fmt_number(value_high)}" if rng else fmt_bound(value, bound)
    return f"{num}{unit_txt}".strip()


def sources_table(sources_df: pd.DataFrame) -> pd.DataFrame:
    """Columns: Vendor, Array, Document, Published, Desktops, Clone type, Workload."""
    s = sources_df
    return pd.DataFrame(
        {
            "Vendor": s["vendor"],
            "Array": s["array"],
            "Document": [f"{d}: {t}" if d else t for d, t in zip(s["document_number"], s["title"])],
            "Published": s["published"],
            "Desktops": s["desktops"].map(fmt_number),
            "Clone type": s["clone_type"].map(CLONE_LABELS),
            "Workload": s["workload"],
        }
    )


def _test_label(t: pd.Series) -> str:
    extra = [
        t["variant"].replace("_", "-") if t["variant"] else "",
        t["configuration"].replace("config", "config ") if t["configuration"] else "",
        t["worker_class"].replace("_", " ") if t["worker_class"] not in ("", "mixed", "office") else "",
    ]
    label = config.PHASE_LABELS.get(t["phase"], t["phase"])
    extra = [e for e in extra if e]
    return f"{label} ({', '.join(extra)})" if extra else label


def _test_records(results: pd.DataFrame, t: pd.Series, metric: str, statistics=("peak", "average")) -> pd.DataFrame:
    """Records of one test run (source, test) for a metric, used in the analysis, normal."""
    r = results[
        (results["source_id"] == t["source_id"])
        & (results["test_id"] == t["test_id"])
        & (results["metric"] == metric)
        & results["statistic"].isin(statistics)
        & results["used_in_analysis"]
    ]
    return r.assign(_vp=r["vantage"].map(HEADLINE_VANTAGES.index)).sort_values(["_vp", "record_id"])


def _phase_statements(results: pd.DataFrame, t: pd.Series, metric: str) -> pd.DataFrame:
    """Statements of a metric for the test's phase that name no test run (e.g. "the boot storm
    took 3 minutes" for all configurations) or use another statistic: used, normal or unstated
    condition, same or no configuration."""
    phases = {t["phase"]} | ({"login", "steady_state"} if t["phase"] == "login_and_steady_state" else set())
    r = results[
        (results["source_id"] == t["source_id"])
        & (results["metric"] == metric)
        & results["phase"].isin(phases)
        & results["used_in_analysis"]
        & results["condition"].isin(["", "normal"])
        & results["configuration"].isin(["", t["configuration"]])
        & results["test_id"].isin(["", t["test_id"]])
        & results["variant"].isin(["", t["variant"]])
    ]
    exact = r["bound"].map({"eq": 0, "approx": 1}).fillna(2)
    return r.assign(_own=(r["test_id"] != t["test_id"]).astype(int), _x=exact).sort_values(["_own", "_x", "record_id"])


SET_ASIDE = "set aside"  # a value the document states but the register sets aside (never a dash)
READ_PLUS_WRITE = "read + write"  # a total derived as the sum of the stated read and write IOPS


def _iops_cell(r) -> str:
    """One headline IOPS cell: the value with its bound, ``(read + write)`` for a derived sum,
    ``set aside: ... (D-...)`` for a value the register sets aside."""
    text = fmt_value(r["iops_per_desktop"], "", r["bound"]) + (f" ({READ_PLUS_WRITE})" if r["derived"] else "")
    return f"{SET_ASIDE}: {text} ({r['set_aside']})" if r["set_aside"] else text


def headline_table(  # noqa: C901
    tests: pd.DataFrame, results: pd.DataFrame | None = None, headline: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Cross-vendor headline results from ``tests.csv``: one row per test run, normal operation.

    Columns: Vendor, Test, Desktops, Peak IOPS/desktop, Average IOPS/desktop (derived: the
    reported IOPS / desktops of the test; a figure at another vantage than the row's says so in
    its cell, so a back-end peak never sits unmarked beside a host average), IOPS measured at,
    Average latency, Peak latency, Latency measured at, Duration, Source (locators of the
    records behind the row). Reported bounds keep their sign. "–" means no document states it; a
    value the register sets aside is shown as ``set aside: 6.8 (D-ACCS-12)``.

    With ``results`` (results.csv), the table also: splits latency by worker class where a test
    reports it per class (Hitachi's task and extreme-power ports), shows a value the document
    states for the phase without naming the test run, or with another statistic, marked by its
    kind (``3.07 min (phase)``, ``> 1.5 ms (single value)``), and fills Source. Without it,
    Source is empty and cells come from tests.csv alone. With ``headline`` (``headline_iops.csv``,
    the model stage's ``iops.headline_iops`` under the report's analysis choices), the IOPS cells
    are the value the model takes for the quantity (a read + write sum marked so); with
    ``results``, the latency cells show a latency the register sets aside as such, never as a
    dash.
    """
    t = tests[(tests["condition"] != "failover") & tests["phase"].isin(config.PHASE_ORDER)].copy()
    t["_p"] = t["phase"].map(config.PHASE_ORDER.index)
    t = t.assign(
        **{
            c: pd.to_numeric(t[c], errors="coerce")
            for c in [
                "desktops",
                "peak_iops",
                "average_iops",
                "peak_iops_per_desktop",
                "average_iops_per_desktop",
                "average_latency_ms",
                "peak_latency_ms",
                "duration_min",
            ]
        }
    )
    t = t.sort_values(["_p", "vendor", "test_id"]).reset_index(drop=True)

    def num(c):
        return pd.to_numeric(t[c], errors="coerce")

    def cell(col, unit):
        return [
            fmt_value(v, unit, b) if pd.notna(v) else "–"
            for v, b in zip(t[col], t[f"{col.replace('_per_desktop', '')}_bound"])
        ]

    def where(*cols):
        """Vantages of the values present, e.g. ``array front end`` or ``array back end / ESXi host``."""
        present = [
            [VANTAGE_LABELS[v] if pd.notna(x) else None for x, v in zip(num(c), t[f"{c}_vantage"])] for c in cols
        ]
        return [" / ".join(dict.fromkeys(v for v in vals if v)) for vals in zip(*present)]

    peak, avg = cell("peak_iops_per_desktop", ""), cell("average_iops_per_desktop", "")
    if headline is not None:  # the model's value of each quantity (one value per quantity: D-ACCS-17, D-ACCS-15)
        hi = headline.set_index(["source_id", "test_id", "statistic"])
        for i, r in t.iterrows():
            for stat, out in (("peak", peak), ("average", avg)):
                k = (r["source_id"], r["test_id"], stat)
                if k in hi.index:
                    h = hi.loc[k]
                    out[i] = _iops_cell(h)
                    t.loc[i, f"{stat}_iops_per_desktop"] = h["iops_per_desktop"]
                    t.loc[i, f"{stat}_iops_vantage"] = str(h["vantage"])
                    t.loc[i, f"{stat}_iops"] = h["iops_per_desktop"]
    iops_at = where("peak_iops", "average_iops")
    for i, r in t.iterrows():
        pv, av = r["peak_iops_vantage"], r["average_iops_vantage"]
        if pd.notna(r["peak_iops_per_desktop"]) and pd.notna(r["average_iops_per_desktop"]) and pv != av:
            rank = HEADLINE_VANTAGES.index
            keep, other = ("average", "peak") if rank(av) < rank(pv) else ("peak", "average")
            main_v, other_v = (av, pv) if keep == "average" else (pv, av)
            if other == "peak":
                peak[i] = f"{peak[i]} ({VANTAGE_LABELS[other_v]})"
            else:
                avg[i] = f"{avg[i]} ({VANTAGE_LABELS[other_v]})"
            iops_at[i] = VANTAGE_LABELS[main_v]
    lat_avg, lat_peak = cell("average_latency_ms", "ms"), cell("peak_latency_ms", "ms")
    lat_at = where("average_latency_ms", "peak_latency_ms")
    duration = cell("duration_min", "min")
    source = [""] * len(t)
    if results is not None:
        res = results.copy()
        res["line"] = pd.to_numeric(res["line"], errors="coerce")
        # Each test's records are looked up in its own source's (and run's) rows, grouped once:
        # the same filters as on the whole table, without scanning it for every row.
        by_source = dict(tuple(res.groupby("source_id", sort=False)))
        by_test = dict(tuple(res.groupby(["source_id", "test_id"], sort=False)))
        none = res.iloc[:0]
        for i, r in t.iterrows():
            src_rows = by_source.get(r["source_id"], none)
            run_rows = by_test.get((r["source_id"], r["test_id"]), none)
            recs = []
            # latency per worker class where the test reports several
            lat = _test_records(run_rows, r, "latency")
            lat = lat[lat["_vp"] == lat["_vp"].min()] if len(lat) else lat
            for stat, out in (("average", lat_avg), ("peak", lat_peak)):
                x = lat[lat["statistic"] == stat].drop_duplicates("worker_class")
                if x["worker_class"].nunique() > 1:
                    out[i] = " / ".join(
                        f"{w.replace('_', ' ')} {fmt_value(v, 'ms', b)}"
                        for w, v, b in zip(x["worker_class"], x["value"], x["bound"])
                    )
                recs += list(x["record_id"][:3])
            # a latency the register sets aside is shown as such (never a dash)
            for stat, out in (("average", lat_avg), ("peak", lat_peak)):
                if out[i] != "–":
                    continue
                x = run_rows[
                    (run_rows["metric"] == "latency") & (run_rows["statistic"] == stat) & ~run_rows["used_in_analysis"]
                ]
                if len(x):
                    y = x.sort_values("record_id").iloc[0]
                    out[i] = f"{SET_ASIDE}: {fmt_value(y['value'], 'ms', y['bound'])} ({register_id(y['resolution'])})"
                    lat_at[i] = lat_at[i] or VANTAGE_LABELS.get(y["vantage"], y["vantage"])
                    recs.append(y["record_id"])
            # values stated for the phase (no test named) or with another statistic
            for metric, unit, outs in (("latency", "ms", (lat_avg, lat_peak)), ("duration", "min", (duration,))):
                if all(o[i] == "–" for o in outs):
                    x = _phase_statements(src_rows, r, metric)
                    x = x[~((x["test_id"] == r["test_id"]) & x["statistic"].isin(["peak", "average"]))]
                    if len(x):
                        y = x.iloc[0]
                        kind = (
                            "phase"
                            if y["test_id"] == ""
                            else ("single value" if y["statistic"] == "single" else y["statistic"])
                        )
                        ranged = (
                            y["bound"] in ("eq", "approx")
                            and math.isfinite(y["value_high"])
                            and math.isfinite(y["value_low"])
                            and y["value_high"] > y["value_low"]
                        )
                        shown = (
                            f"{fmt_number(y['value_low'])}–{fmt_value(y['value_high'], unit, y['bound'])}"
                            if ranged
                            else fmt_value(y["value"], unit, y["bound"])
                        )  # a printed range stays a range
                        outs[0][i] = f"{shown} ({kind})"
                        if metric == "latency" and not lat_at[i]:
                            lat_at[i] = VANTAGE_LABELS.get(y["vantage"], y["vantage"])
                        recs.append(y["record_id"])
            for m in ("iops", "duration"):
                recs += list(_test_records(run_rows, r, m, ("peak", "average", "single", "total"))["record_id"][:2])
            if not recs:  # a run that reports none of the headline metrics: where its own records are
                recs = list(run_rows.sort_values("record_id")["record_id"][:3])
            rows = res[res["record_id"].isin(recs)].sort_values("record_id")
            source[i] = "; ".join(list(dict.fromkeys(rows["locator"]))[:3])
    return pd.DataFrame(
        {
            "Vendor": t["vendor"],
            "Test": t.apply(_test_label, axis=1),
            "Desktops": t["desktops"].map(fmt_number),
            "Peak IOPS per desktop": peak,
            "Average IOPS per desktop": avg,
            "IOPS measured at": iops_at,
            "Average latency": lat_avg,
            "Peak latency": lat_peak,
            "Latency measured at": lat_at,
            "Duration": duration,
            "Source": source,
        }
    ).reset_index(drop=True)


def coverage_table(results: pd.DataFrame) -> pd.DataFrame:
    """Records per phase (rows, in the order of a VDI day, then context phases) and document
    (columns), with totals. Columns: Phase, one per vendor, Total."""
    t = pd.crosstab(results["phase"], results["vendor"], margins=True, margins_name="Total")
    order = [p for p in config.PHASES if p in t.index] + ["Total"]
    t = t.loc[order]
    t.index = [config.PHASE_LABELS.get(p, p.replace("_", " ").capitalize()) for p in t.index]
    return t.rename_axis("Phase").reset_index()


def testbed_table(testbeds: pd.DataFrame) -> pd.DataFrame:
    """Density of each tested array (all derived from reported drive counts and sizes).

    Columns: Vendor, Configuration, Desktops, Drives (layout), Raw capacity, Desktops per drive,
    Desktops per raw TB, Source.
    """
    t = testbeds
    missing = "not stated"
    return pd.DataFrame(
        {
            "Vendor": t["vendor"],
            "Configuration": t["configuration"].str.replace("config", "config "),
            "Desktops": t["desktops"].map(fmt_number),
            "Drives": [
                f"{fmt_number(n)} ({lay})" if pd.notna(n) else missing for n, lay in zip(t["drives"], t["drive_layout"])
            ],
            "Raw capacity (derived)": [
                fmt_value(v / 1000, "TB") if pd.notna(v) else missing for v in t["raw_capacity_gb"]
            ],
            "Desktops per drive (derived)": t["desktops_per_drive"].map(
                lambda v: fmt_number(v) if pd.notna(v) else missing
            ),
            "Desktops per raw TB (derived)": t["desktops_per_raw_tb"].map(
                lambda v: fmt_number(v) if pd.notna(v) else missing
            ),
            "Source": t["locator"].fillna(""),
        }
    )


def comparability_table(results: pd.DataFrame) -> pd.DataFrame:
    """Which reported metrics can be compared across vendors: groups (phase, metric, statistic,
    vantage) that two or more vendors report. Columns: Phase, Metric, Statistic, Vantage, Vendors, Records."""
    c = results[results["comparable"] & results["used_in_analysis"]]
    c = c[c.groupby(["phase", "metric", "statistic", "vantage"])["vendor"].transform("nunique") >= 2]  # across vendors
    g = (
        c.groupby(["phase", "metric", "statistic", "vantage"])
        .agg(Vendors=("vendor", lambda s: ", ".join(sorted(set(s)))), Records=("record_id", "count"))
        .reset_index()
    )
    g = g[g["phase"].isin(config.PHASE_ORDER)]
    g["_p"] = g["phase"].map(config.PHASE_ORDER.index)
    g = g.sort_values(["_p", "metric", "statistic"])
    return pd.DataFrame(
        {
            "Phase": g["phase"].map(config.PHASE_LABELS),
            "Metric": g["metric"].str.replace("_", " "),
            "Statistic": g["statistic"],
            "Vantage": g["vantage"].map(VANTAGE_LABELS),
            "Vendors": g["Vendors"],
            "Records": g["Records"],
        }
    ).reset_index(drop=True)


def _slug(text: str) -> str:
    import hashlib

    return "t" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def styled(df: pd.DataFrame, caption: str | None = None, widths: dict[str, str] | None = None, key: str | None = None):
    """A pandas Styler without the index, with an optional caption, for the report.

    ``key`` fixes the table's id (``T_<key>``; pandas otherwise draws a random one, which would
    make two builds differ); without it the id derives from the caption.

    ``widths`` (``{column: "40%"}``) fixes column widths so long text columns get the room; the
    PDF's table layout otherwise splits the page evenly; they are scaled so that they and the cell
    padding fit the page.
    """
    st = df.style.hide(axis="index")
    st = st.set_uuid(key or _slug(caption or "table"))
    if caption:
        st = st.set_caption(caption)
    if widths:
        # Cell padding comes on top of a column's width: scale the widths so that they and the
        # padding (about 1.8 % of an A4 text width per column) fit the page.
        room = 100 - 1.8 * len(df.columns)
        total = sum(float(w.rstrip("%")) for w in widths.values())
        widths = {c: f"{float(w.rstrip('%')) * min(1.0, room / total):.1f}%" for c, w in widths.items()}
        st = st.set_table_styles(
            [
                {"selector": "", "props": "table-layout: fixed; width: 100%;"},
                {"selector": "td, th", "props": "overflow-wrap: anywhere;"},
            ],
            overwrite=False,
        )
        st = st.set_table_styles(
            {c: [{"selector": "", "props": f"width: {w};"}] for c, w in widths.items()}, overwrite=False
        )
    return st
