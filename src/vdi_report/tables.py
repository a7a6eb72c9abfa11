"""Report tables built from ``data/processed`` (never from typed numbers), and their display format.

Reported, derived and assumed values stay visibly apart: a printed value keeps its bound
(``< 6 min``, ``≈ 12 min``, ``> 216,000 IOPS``), derived per-desktop figures are in their own
column, and the vantage and statistic are spelled out (``peak, array front end``).
"""

import math

import pandas as pd

from . import config

VANTAGE_LABELS = {"array_frontend": "array front end", "array_backend": "array back end", "host": "ESXi host",
                  "guest": "guest", "storage_port": "storage port", "": "vantage not stated"}
BOUND_SIGNS = {"eq": "", "approx": "≈ ", "lt": "< ", "gt": "> "}
CLONE_LABELS = {"full_clone": "full clones", "linked_clone": "linked clones", "mixed": "full + linked clones"}


def fmt_number(x: float) -> str:
    """Thousands separators for large numbers, up to 3 significant decimals for small ones."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:,.1f}".rstrip("0").rstrip(".")
    return f"{x:.3g}"


def fmt_value(value: float, unit: str, bound: str = "eq", value_high: float | None = None) -> str:
    """A value with its bound and unit: ``< 6 min``, ``≈ 12 min``, ``150–175 IOPS``, ``0.59 ms``.

    ``value_high`` (a range's upper end) is shown only when it differs from ``value``.
    """
    unit_txt = {"count": "", "%": "%", "": ""}.get(unit, f" {unit}")
    rng = value_high is not None and not pd.isna(value_high) and value_high != value and bound == "eq"
    num = f"{fmt_number(value)}–{fmt_number(value_high)}" if rng else fmt_number(value)
    return f"{BOUND_SIGNS.get(bound, '')}{num}{unit_txt}".strip()


def fmt_where(statistic: str, vantage: str) -> str:
    """``peak, array front end``."""
    return f"{statistic}, {VANTAGE_LABELS.get(vantage, vantage)}"


def sources_table(sources_df: pd.DataFrame) -> pd.DataFrame:
    """Columns: Vendor, Array, Document, Published, Desktops, Clone type, Workload."""
    s = sources_df
    return pd.DataFrame({
        "Vendor": s["vendor"], "Array": s["array"],
        "Document": [f"{d}: {t}" if d else t for d, t in zip(s["document_number"], s["title"])],
        "Published": s["published"], "Desktops": s["desktops"].map(fmt_number),
        "Clone type": s["clone_type"].map(CLONE_LABELS), "Workload": s["workload"],
    })


def _test_label(t: pd.Series) -> str:
    extra = [t["variant"].replace("_", "-") if t["variant"] else "",
             t["configuration"].replace("config", "config ") if t["configuration"] else "",
             t["worker_class"].replace("_", " ") if t["worker_class"] not in ("", "mixed", "office") else ""]
    label = config.PHASE_LABELS.get(t["phase"], t["phase"])
    extra = [e for e in extra if e]
    return f"{label} ({', '.join(extra)})" if extra else label


def headline_table(tests: pd.DataFrame) -> pd.DataFrame:
    """Cross-vendor headline results from ``tests.csv``: one row per test run, normal operation.

    Columns: Vendor, Test, Desktops, Peak IOPS/desktop, Average IOPS/desktop (derived: the
    reported IOPS / desktops of the test), IOPS measured at (statistic's vantage), Average
    latency, Peak latency, Latency measured at, Duration. Reported bounds keep their sign.
    """
    t = tests[(tests["condition"] != "failover") & tests["phase"].isin(config.PHASE_ORDER)].copy()
    t["_p"] = t["phase"].map(config.PHASE_ORDER.index)
    t = t.assign(**{c: pd.to_numeric(t[c], errors="coerce") for c in ["desktops", "peak_iops_per_desktop", "average_iops_per_desktop",
                                         "average_latency_ms", "peak_latency_ms", "duration_min"]})
    t = t.sort_values(["_p", "vendor", "test_id"])
    num = lambda c: pd.to_numeric(t[c], errors="coerce")

    def cell(col, unit):
        return [fmt_value(v, unit, b) if pd.notna(v) else "–" for v, b in zip(t[col], t[f"{col.replace('_per_desktop', '')}_bound"])]

    def where(*cols):
        """Vantages of the values present, e.g. ``array front end`` or ``array back end / ESXi host``."""
        present = [[VANTAGE_LABELS[v] if pd.notna(x) else None for x, v in zip(num(c), t[f"{c}_vantage"])]
                   for c in cols]
        return [" / ".join(dict.fromkeys(v for v in vals if v)) for vals in zip(*present)]

    return pd.DataFrame({
        "Vendor": t["vendor"], "Test": t.apply(_test_label, axis=1), "Desktops": t["desktops"].map(fmt_number),
        "Peak IOPS per desktop": cell("peak_iops_per_desktop", ""),
        "Average IOPS per desktop": cell("average_iops_per_desktop", ""),
        "IOPS measured at": where("peak_iops", "average_iops"),
        "Average latency": cell("average_latency_ms", "ms"), "Peak latency": cell("peak_latency_ms", "ms"),
        "Latency measured at": where("average_latency_ms", "peak_latency_ms"),
        "Duration": cell("duration_min", "min"),
    }).reset_index(drop=True)


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
    return pd.DataFrame({
        "Vendor": t["vendor"], "Configuration": t["configuration"].str.replace("config", "config "),
        "Desktops": t["desktops"].map(fmt_number),
        "Drives": [f"{fmt_number(n)} ({lay})" if pd.notna(n) else missing for n, lay in zip(t["drives"], t["drive_layout"])],
        "Raw capacity (derived)": [fmt_value(v / 1000, "TB") if pd.notna(v) else missing for v in t["raw_capacity_gb"]],
        "Desktops per drive (derived)": t["desktops_per_drive"].map(lambda v: fmt_number(v) if pd.notna(v) else missing),
        "Desktops per raw TB (derived)": t["desktops_per_raw_tb"].map(lambda v: fmt_number(v) if pd.notna(v) else missing),
        "Source": t["locator"].fillna(""),
    })


def comparability_table(results: pd.DataFrame) -> pd.DataFrame:
    """Which reported metrics can be compared across vendors: groups (phase, metric, statistic,
    vantage) that two or more vendors report. Columns: Phase, Metric, Statistic, Vantage, Vendors, Records."""
    c = results[results["comparable"] & results["used_in_analysis"]]
    g = c.groupby(["phase", "metric", "statistic", "vantage"]).agg(
        Vendors=("vendor", lambda s: ", ".join(sorted(set(s)))), Records=("record_id", "count")).reset_index()
    g = g[g["phase"].isin(config.PHASE_ORDER)]
    g["_p"] = g["phase"].map(config.PHASE_ORDER.index)
    g = g.sort_values(["_p", "metric", "statistic"])
    return pd.DataFrame({"Phase": g["phase"].map(config.PHASE_LABELS), "Metric": g["metric"].str.replace("_", " "),
                         "Statistic": g["statistic"], "Vantage": g["vantage"].map(VANTAGE_LABELS),
                         "Vendors": g["Vendors"], "Records": g["Records"]}).reset_index(drop=True)


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
        st = st.set_table_styles([{"selector": "", "props": "table-layout: fixed; width: 100%;"},
                                  {"selector": "td, th", "props": "overflow-wrap: anywhere;"}], overwrite=False)
        st = st.set_table_styles({c: [{"selector": "", "props": f"width: {w};"}] for c, w in widths.items()},
                                 overwrite=False)
    return st
