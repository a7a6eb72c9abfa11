"""Normalization: raw records -> one tidy table (``results.csv``) and one row per test (``tests.csv``).

Steps, each a function: ``normalize_source`` (units, intervals, per-desktop figures for one
document) -> ``combine`` (all documents, comparability flags, audit resolutions) -> ``build_tests``.
"""

import math

import numpy as np
import pandas as pd

from .. import catalogue, config
from ..raw import sources
from ..raw.units import convert

# "~", "about", "almost": the printed value is taken as an interval of +/-10 %. Rounding a
# two-digit number to one significant figure ("~80 min") moves it by up to 6 %; 10 % also covers
# "almost"/"nearly" wording. Sensitivity to this choice is checked in the model notebook.
APPROX_TOLERANCE = 0.10

# Metrics that scale with the number of desktops and get a per-desktop figure.
PER_DESKTOP_METRICS = {
    "iops": "IOPS",
    "read_iops": "IOPS",
    "write_iops": "IOPS",
    "throughput": "MB/s",
    "read_throughput": "MB/s",
    "write_throughput": "MB/s",
    "used_capacity": "GB",
}
PERCENT_METRICS_CAP = 100.0  # a "> x %" utilization cannot exceed 100 %

# Columns of results.csv and normalized/<source>.csv, in file order: the table catalogue's.
RESULT_COLUMNS = catalogue.RESULT_COLUMNS
# Record fields carried into results.csv as they are; empty where a records file lacks them.
CARRIED_RECORD_FIELDS = ("text_file", "aggregation", "window", "load", "image_file")


def _sig(x: float) -> float:
    """Round away binary float noise (1000.0000000000001 -> 1000.0), keeping 12 significant digits."""
    if x is None or not np.isfinite(x) or x == 0:
        return x
    return round(x, 11 - math.floor(math.log10(abs(x))))


def interval(value: float, value_high: float | None, bound: str, unit: str) -> tuple[float, float]:
    """Interval ``(low, high)`` that a printed value stands for.

    ``eq`` -> [v, v] (a range -> [v, value_high]); ``approx`` -> v +/- ``APPROX_TOLERANCE``;
    ``lt`` -> [0, v]; ``gt`` -> [v, inf), capped at 100 for ``%``. Raises ValueError on an
    unknown bound.
    """
    high = value if value_high is None or pd.isna(value_high) else value_high
    if bound == "eq":
        return value, high
    if bound == "approx":
        return value * (1 - APPROX_TOLERANCE), high * (1 + APPROX_TOLERANCE)
    if bound == "lt":
        return 0.0, high
    if bound == "gt":
        return value, PERCENT_METRICS_CAP if unit == "%" else math.inf
    raise ValueError(f"unknown bound {bound!r}; expected one of {config.BOUNDS}")


def normalize_source(source_id: str, raw_dir=config.RAW_DIR) -> pd.DataFrame:
    """Normalize one document's records.

    Returns one row per record with the columns of ``RESULT_COLUMNS`` except the cross-vendor
    ones filled later by ``combine`` (``comparable``, ``comparison_group``). ``value``,
    ``value_low``, ``value_high`` are in the normalized unit of the metric (``units.METRIC_UNITS``);
    ``reported_value``/``reported_unit`` keep the number as printed. ``per_desktop*`` is value /
    desktops of the test (the record's ``desktops``, else the document's test population) for
    the metrics in ``PER_DESKTOP_METRICS``; ``kind`` is ``reported`` or, for per-desktop
    figures, they sit in their own columns so reported and derived values never share one.

    Raises sources.RawDataError (file, line, column, value) for invalid raw input, including
    units that cannot express the metric.
    """
    src = sources.load_sources(raw_dir).set_index("source_id")
    rec = sources.load_records(source_id, raw_dir)
    path = sources.records_path(source_id, raw_dir)
    row = src.loc[source_id]

    out = rec.copy()
    out["reported_value"], out["reported_unit"] = rec["value"], rec["unit"]
    values, highs, units, problems = [], [], [], []
    factors: dict = {}  # (unit, metric) -> (factor, normalized unit) or the error: pint once per pair
    for i, r in enumerate(rec[["value", "value_high", "unit", "metric"]].itertuples(index=False)):
        key = (r.unit, r.metric)
        if key not in factors:
            try:
                factors[key] = convert(1.0, r.unit, r.metric)
            except ValueError as exc:
                factors[key] = exc
        got = factors[key]
        if isinstance(got, Exception):
            problems.append(f"{path}: line {i + 2}: column 'unit' = {r.unit!r}: {got}")
            continue
        factor, u = got  # every unit here is a multiple of its normalized unit (no offsets)
        values.append(r.value * factor), units.append(u)
        highs.append(np.nan if pd.isna(r.value_high) else r.value_high * factor)
    if problems:
        raise sources.RawDataError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))
    out["value"], out["unit"] = [_sig(v) for v in values], units
    lows_highs = [interval(v, h, b, u) for v, h, b, u in zip(out["value"], highs, out["bound"], units)]
    out["value_low"] = [_sig(lo) for lo, _ in lows_highs]
    out["value_high"] = [_sig(hi) for _, hi in lows_highs]

    out["desktops"] = out["desktops"].fillna(float(row["desktops"]))
    out["population"] = np.where(
        out["worker_class"] == "mixed", row["workload"], out["desktops"].map(lambda d: f"{int(d):,} desktops")
    )
    scalable = out["metric"].isin(list(PER_DESKTOP_METRICS)) & (out["phase"] != "sizing")
    for col, src_col in (
        ("per_desktop", "value"),
        ("per_desktop_low", "value_low"),
        ("per_desktop_high", "value_high"),
    ):
        out[col] = np.where(scalable, out[src_col] / out["desktops"], np.nan)
        out[col] = out[col].map(_sig)
    out["per_desktop_unit"] = np.where(scalable, out["metric"].map(PER_DESKTOP_METRICS), "")
    for col in CARRIED_RECORD_FIELDS:
        out[col] = rec[col] if col in rec.columns else ""
    out["vendor"] = row["vendor"]
    out["kind"] = "reported"
    out["used_in_analysis"] = True
    out["resolution"] = ""
    out["comparison_group"] = ""
    out["comparable"] = False
    return out[RESULT_COLUMNS]


def comparison_group(df: pd.DataFrame) -> pd.Series:
    """Key under which records may be compared across vendors: phase, metric, statistic, vantage."""
    return df["phase"] + "|" + df["metric"] + "|" + df["statistic"] + "|" + df["vantage"].replace("", "unstated")


def platform_kind(platform: str) -> str:
    """The kind of storage platform of a ``sources.csv`` ``platform`` text: the words before any
    parenthesis, lower-cased and trimmed (``hyperconverged (Nutanix AOS 6.5.5.1, ...)`` ->
    ``hyperconverged``); versions and hypervisors in parentheses do not split a platform."""
    return str(platform).split("(")[0].strip().lower()


def comparison_pool(df: pd.DataFrame, sources_df: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """For each row of ``df`` (column ``source_id``): the pool it may be compared within and the
    peer it counts as, from ``sources_df`` (sources.csv: ``source_id, role, platform``).

    A seed (``role = seed``) is pooled with the seeds and counts by vendor; an external source
    (``role = external``) is never pooled with the seeds: it is pooled with the external sources
    of the same ``platform_kind`` and counts by source (the external documents may share one
    vendor). Raises KeyError naming source ids missing from ``sources_df``."""
    s = sources_df.set_index("source_id")
    missing = sorted(set(df["source_id"]) - set(s.index))
    if missing:
        raise KeyError(f"source_id(s) not in sources.csv: {missing}")
    role = df["source_id"].map(s["role"])
    kind = df["source_id"].map(s["platform"].map(platform_kind))
    pool = role.where(role == "seed", "external|" + kind)
    peer = df["vendor"].where(role == "seed", df["source_id"])
    return pool, peer


def combine(
    frames: list[pd.DataFrame], resolutions: pd.DataFrame | None = None, sources_df: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Stack normalized sources into ``results.csv`` (columns ``RESULT_COLUMNS``), sorted stably.

    ``comparable`` is True when the record states its vantage and another peer of its pool
    reports the same phase, metric, statistic and vantage (``comparison_pool``): for a seed,
    another seed vendor; for an external source, another external source of the same platform
    kind. A seed is never comparable because of an external source, nor the reverse.
    ``sources_df``: sources.csv (default ``sources.load_sources()``). ``resolutions`` (columns
    ``record_id, discrepancy_id, resolution``) marks records the analysis does not use
    (``used_in_analysis`` False) and says why. Validation against the catalogue's schema
    happens when the table is written (``catalogue.write("results", df)``).
    """
    df = pd.concat(frames, ignore_index=True)
    df["comparison_group"] = comparison_group(df)
    pool, peer = comparison_pool(df, sources.load_sources() if sources_df is None else sources_df)
    peers = peer.groupby([df["comparison_group"], pool]).transform("nunique")
    df["comparable"] = (df["vantage"] != "") & (peers >= 2)
    if resolutions is not None and len(resolutions):
        res = resolutions.set_index("record_id")
        hit = df["record_id"].isin(res.index)
        df.loc[hit, "used_in_analysis"] = False
        df.loc[hit, "resolution"] = df.loc[hit, "record_id"].map(
            lambda r: f"{res.at[r, 'discrepancy_id']}: {res.at[r, 'resolution']}"
        )
    df = df.sort_values(["source_id", "record_id"], kind="stable").reset_index(drop=True)
    return df[RESULT_COLUMNS]


# Headline metrics of tests.csv: (metric, statistic) -> column name.
TEST_HEADLINES = catalogue.TEST_HEADLINES
# When a test reports a metric at several vantages, the headline takes the one nearest to
# what the desktops generate: the array front end, then the host, the port, unstated, back end, guest
# (array_controller: the controllers' CPU and cache, never an I/O figure).
VANTAGE_PREFERENCE = ["array_frontend", "host", "storage_port", "", "array_backend", "guest", "array_controller"]


def test_phase(phases: pd.Series) -> str:
    """Phase of a test run from its records' phases: a run reporting login and steady-state
    numbers is ``login_and_steady_state``; otherwise the most frequent test phase."""
    p = set(phases) - set(config.CONTEXT_PHASES)
    if len(p) > 1 and p <= set(config.USER_PHASES):
        return "login_and_steady_state"
    ranked = phases[phases.isin(p)].value_counts()
    return ranked.index[0] if len(ranked) else phases.iloc[0]


def test_worker_class(classes: pd.Series) -> str:
    """Worker class of a test run: ``mixed`` if any record is pooled over a mix, else the classes joined by +."""
    c = set(classes) - {""}
    return "mixed" if "mixed" in c else "+".join(sorted(c))


HARNESS_COLUMNS = ("load_tool", "probes", "provisioning", "profile_storage", "write_cache")  # test_setup.FACTORS


def build_tests(results: pd.DataFrame, sources_df: pd.DataFrame, setup: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per test run: ``source_id, vendor, test_id, phase, condition, variant,
    configuration, desktops, worker_class, clone_type, persistence, lab`` (sources.csv), the
    harness and data path of ``HARNESS_COLUMNS`` (data/raw/test_setup.csv through
    ``raw.test_setup.lookup``: the run's configuration, else its document's line; each with
    ``<factor>_source``, ``text_file:L<line>``; empty: not stated; ``setup``: that file as
    ``load_test_setup`` returns it, default read from data/raw) plus, per headline in
    ``TEST_HEADLINES``, its value, its vantage (``<col>_vantage``) and its bound (``<col>_bound``),
    and ``peak_iops_per_desktop``/``average_iops_per_desktop``. Only records used in the
    analysis count; among duplicates the preferred vantage, then a stated value before a bound
    ("0.56 ms" before "under 0.6 ms"), then the lowest record_id, wins.
    """
    r = results[(results["test_id"] != "") & (results["test_id"] != "testbed") & results["used_in_analysis"]]
    r = r.assign(_vp=r["vantage"].map(VANTAGE_PREFERENCE.index), _bound=~r["bound"].isin(["eq", "approx"]))
    r = r.sort_values(["source_id", "test_id", "_vp", "_bound", "record_id"])
    keys = ["source_id", "test_id"]

    def first(s):
        return s.iloc[0]

    base = (
        r.groupby(keys, sort=True)
        .agg(
            vendor=("vendor", first),
            phase=("phase", test_phase),
            condition=("condition", first),
            variant=("variant", first),
            configuration=("configuration", first),
            desktops=("desktops", "max"),
            worker_class=("worker_class", test_worker_class),
        )
        .reset_index()
    )
    meta = sources_df.set_index("source_id")[["clone_type", "persistence", "lab"]]
    base = base.join(meta, on="source_id")
    from ..raw import test_setup

    w = test_setup.wide(test_setup.load_test_setup() if setup is None else setup)
    for factor in HARNESS_COLUMNS:
        found = [test_setup.lookup(w, sid, conf, factor) for sid, conf in zip(base["source_id"], base["configuration"])]
        base[factor] = [v for v, _ in found]
        base[f"{factor}_source"] = [src for _, src in found]
    for (metric, stat), col in TEST_HEADLINES.items():
        sel = r[(r["metric"] == metric) & (r["statistic"] == stat)].groupby(keys).first()
        base = base.join(
            sel[["value", "vantage", "bound"]].rename(
                columns={"value": col, "vantage": f"{col}_vantage", "bound": f"{col}_bound"}
            ),
            on=keys,
        )
        if metric == "iops":
            base = base.join(sel[["per_desktop"]].rename(columns={"per_desktop": f"{col}_per_desktop"}), on=keys)
    return base.sort_values(keys, kind="stable").reset_index(drop=True)


# Metrics counting the nodes of a hyperconverged cluster (data/raw/metrics.csv).
NODE_METRICS = ("hosts", "storage_nodes")


def build_testbeds(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Density of each tested array (derived): one row per source and pool configuration.

    Drives and drive sizes come from test-bed records (phase ``testbed``); a drive count and a
    drive size stated on the same line of the same locator form one drive group (a table row
    such as "24 800GB SSDs", or one pool's row of a drive table). The first locator stating drives is
    used. Columns: ``source_id, vendor, configuration, desktops, drives, raw_capacity_gb``
    (sum of count x size, decimal GB), ``drive_layout``, ``desktops_per_drive``,
    ``desktops_per_raw_tb``, ``locator``, ``record_ids``. A source whose document states no
    drive count of the tested array gets empty figures rather than a guess.

    A hyperconverged cluster states drives per node (metric ``drives_per_node``) instead: when
    the same table (locator) also states the node count (a metric of ``NODE_METRICS``), the
    drives are drives per node x nodes (derived; ``drive_layout`` reads
    ``4 × 1,920 GB per node × 8 nodes``). Without a node count
    on that table the figures stay empty.
    """
    tb = results[
        (results["phase"] == "testbed")
        & results["used_in_analysis"]
        & results["metric"].isin(["drives", "drive_capacity", "drives_per_node", *NODE_METRICS])
    ]
    rows = []
    for _, src in sources_df.iterrows():
        s = tb[tb["source_id"] == src["source_id"]].sort_values("record_id")
        # pool configurations are those the drive records name (Hitachi's config1..3), not the
        # test configurations other records carry (a node count of each test run)
        configs = sorted(set(s.loc[s["metric"].isin(["drives", "drives_per_node"]), "configuration"]) - {""}) or [""]
        for cfg in configs:
            c = s[s["configuration"] == cfg]
            drives = c[c["metric"] == "drives"]
            per_node = c[c["metric"] == "drives_per_node"] if drives.empty else drives.iloc[0:0]
            row = {
                "source_id": src["source_id"],
                "vendor": src["vendor"],
                "configuration": cfg,
                "desktops": float(src["desktops"]),
            }
            nodes, suffix = None, ""
            if len(per_node):
                loc = per_node.iloc[0]["locator"]
                n_rec = c[c["metric"].isin(NODE_METRICS) & (c["locator"] == loc)]
                if len(n_rec):
                    nodes = n_rec.iloc[0]
                    drives = per_node
                    suffix = f" per node × {nodes['value']:.0f} nodes"
            if len(drives):
                loc = drives.iloc[0]["locator"]
                mult = 1.0 if nodes is None else float(nodes["value"])
                groups, ids = [], [] if nodes is None else [nodes["record_id"]]
                for _, d in drives[drives["locator"] == loc].iterrows():
                    size = c[(c["metric"] == "drive_capacity") & (c["locator"] == loc) & (c["line"] == d["line"])]
                    if len(size):
                        groups.append((d["value"] * mult, size.iloc[0]["value"], d["value"]))
                        ids += [d["record_id"], size.iloc[0]["record_id"]]
                if groups:
                    n = sum(g[0] for g in groups)
                    raw = sum(g[0] * g[1] for g in groups)
                    row.update(
                        drives=n,
                        raw_capacity_gb=_sig(raw),
                        drive_layout=" + ".join(f"{g[2]:.0f} × {g[1]:,.0f} GB" for g in groups) + suffix,
                        desktops_per_drive=_sig(row["desktops"] / n),
                        desktops_per_raw_tb=_sig(row["desktops"] / (raw / 1000)),
                        locator=loc,
                        record_ids=" ".join(ids),
                    )
            rows.append(row)
    cols = [
        "source_id",
        "vendor",
        "configuration",
        "desktops",
        "drives",
        "raw_capacity_gb",
        "drive_layout",
        "desktops_per_drive",
        "desktops_per_raw_tb",
        "locator",
        "record_ids",
    ]
    return pd.DataFrame(rows).reindex(columns=cols)
