"""Cells and observations of the per-desktop IOPS model: which records enter (``candidate_records``,
``exclusions``), one row per vendor x cell x worker class (``observations``), and the model's
constants (cells, specifications, interval levels)."""

import re

import numpy as np
import pandas as pd

from ...config import LOGIN_VSI_CLASSES, USER_PHASES
from ...raw import choices as analysis
from ...transform.normalize import VANTAGE_PREFERENCE
from .. import semantics

CELLS = {
    ("login", "peak"): "login peak",
    ("steady_state", "average"): "steady_state average",
    ("login_and_steady_state", "average"): "login_and_steady_state average",
}


CELL_ORDER = list(CELLS.values())


# guest: per-desktop figures of sampled desktops the document calls in-guest (Hitachi Figures 13/14,
# esxtop per VM); only sampled (single_desktop) guest rows reach the model (``exclusion_reason``)
VANTAGE_LEVELS = ["array_frontend", "host", "storage_port", "guest", ""]


STATISTICS = ("peak", "average")


ANY_CLASS = "any"


REFERENCE_CLASS = "knowledge"


SPECS = {
    "pooled": "log_iops ~ 0 + C(cell, levels=CELL_LEVELS)",
    "workload": "log_iops ~ 0 + C(cell, levels=CELL_LEVELS) + workload",
    "vsi_offset": "log_iops_vsi ~ 0 + C(cell, levels=CELL_LEVELS)",
    "vantage": "log_iops ~ 0 + C(cell, levels=CELL_LEVELS) + C(vantage, levels=VANTAGE_LEVELS)",
}


WORKLOAD_SPECS = {"workload", "vsi_offset"}


# Specs whose response is log_iops - workload: IOPS per desktop proportional to Login VSI's
# table across classes (slope fixed at 1); predictions add the workload back.
OFFSET_SPECS = {"vsi_offset"}


DEFAULT_SPEC = "pooled"


PI_ALPHA = 0.10  # 90 % prediction intervals


CI_ALPHA = 0.05  # 95 % confidence intervals


def login_vsi_weights(results: pd.DataFrame) -> dict[str, float]:
    """Login VSI's IOPS per desktop of each worker class (task, office, knowledge, power).

    Read from results.csv: phase ``sizing``, metric ``iops_per_desktop``, statistic ``single``,
    from the first source (by source_id) that reprints the whole Login VSI workload table (all
    four classes). Raises ValueError when no source gives all four.
    """
    r = results[
        (results["phase"] == "sizing")
        & (results["metric"] == "iops_per_desktop")
        & (results["statistic"] == "single")
        & results["worker_class"].isin(LOGIN_VSI_CLASSES)
        & results["used_in_analysis"]
    ]
    for _, g in r.sort_values("record_id").groupby("source_id", sort=True):
        w = g.groupby("worker_class")["value"].first().to_dict()
        if all(c in w for c in LOGIN_VSI_CLASSES):
            return {c: float(w[c]) for c in LOGIN_VSI_CLASSES}
    raise ValueError(f"no source reprints Login VSI's IOPS per desktop for all of {LOGIN_VSI_CLASSES} (phase sizing)")


def workload_score(worker_class: pd.Series, phase: pd.Series, weights: dict[str, float]) -> pd.Series:
    """log(weight[class] / weight[knowledge]); 0 for the pooled class ``any`` and for boot."""
    ref = weights[REFERENCE_CLASS]
    score = worker_class.map(
        lambda c: np.log(weights[c] / ref) if c in weights else (0.0 if c == ANY_CLASS else np.nan)
    )
    return score.where(phase != "boot", 0.0)


# The keys under which a read + write sum stands for the total of one test (derived_totals).
SUM_KEYS = [
    "source_id",
    "test_id",
    "phase",
    "statistic",
    "vantage",
    "condition",
    "variant",
    "configuration",
    "worker_class",
]


def resolve_choices(choices=None) -> "analysis.Choices":
    """``choices`` (a ``raw.choices.Choices``), or the declared defaults when None."""
    return analysis.resolve() if choices is None else choices


def cell_of(phase: str, statistic: str, window: str, whole_test: str = "separate") -> str:
    """The model cell of a record (``CELLS``), or "" when it has none. ``whole_test`` (choice
    ``whole_test_window``): ``separate`` keeps a whole-test average (window ``test``) in its own
    cell, ``steady_state`` pools it with the steady-state averages."""
    if phase == "login_and_steady_state":
        if statistic == "peak":
            phase = "login"
        elif window == "test" and whole_test == "steady_state":
            return CELLS[("steady_state", "average")]
    if phase == "login_and_steady_state" and window != "test":
        return ""
    return CELLS.get((phase, statistic), "")


# The columns ``_reason`` reads.
REASON_COLUMNS = (
    "used_in_analysis",
    "_replaced",
    "phase",
    "statistic",
    "condition",
    "variant",
    "aggregation",
    "vantage",
    "load",
    "worker_class",
    "cell",
    "window",
)


def _reason(r, choices=None) -> str:
    """Why a candidate record does not enter the model ("" = it does), under ``choices``
    (``raw.choices``; default: the declared defaults). Each judgement names its choice."""
    ch = resolve_choices(choices)
    if not r["used_in_analysis"] and ch["register_resolutions"] == "apply":
        return "not used in analysis (audit register)"
    if r.get("_replaced", False):
        return "stated total: the read + write sum of the same test is used (choice total_source)"
    if r["phase"] == "boot":
        return "boot storm: modelled per desktop boot and by boot rate (boot model)"
    if r["phase"] not in USER_PHASES:
        return f"phase {r['phase'] or 'not stated'} not modelled"
    if r["statistic"] not in STATISTICS:
        return f"statistic {r['statistic']} (not peak or average)"
    if r["condition"] == "failover":
        return "failover (one controller down): the array's behaviour, not the desktops' demand"
    if r["variant"] in ch.set_aside("login_variant"):
        warm = " (warm caches)" if r["variant"] == "tuesday" else " (cold caches)"
        used = ch["login_variant"].title()
        return f"{r['variant'].title()} login{warm}; the {used} login is used (choice login_variant)"
    sampled = r["aggregation"] == "single_desktop"
    if r["vantage"] == "array_backend" or (r["vantage"] == "guest" and not sampled):
        return f"vantage {r['vantage']}: not the desktops' front-end demand"
    if ch["front_end_vantage"] == "array_only" and r["vantage"] != "array_frontend":
        return f"vantage {r['vantage'] or 'not stated'}: only the array front end is used (choice front_end_vantage)"
    if sampled and r["statistic"] == "peak" and ch["single_desktop_peak"] == "exclude":
        return "single-desktop peak sample: not the per-desktop share of the array's peak (choice single_desktop_peak)"
    if sampled and r["statistic"] == "average" and ch["sampled_desktop_average"] == "exclude":
        return "sampled desktops' average (choice sampled_desktop_average)"
    if r["load"] == "boosted" and ch["boosted_load"] == "exclude":
        return (
            "boosted I/O workload (IOPS target or I/O generator), not a standard Login VSI load (choice boosted_load)"
        )
    if r["worker_class"] not in LOGIN_VSI_CLASSES:
        return f"worker class {r['worker_class'] or 'not stated'} is not one Login VSI class"
    if not r["cell"]:
        return f"no model cell for {r['phase']} {r['statistic']} over window {r['window']}"
    return ""


MODEL_METRICS = ("iops", "read_iops", "write_iops", "iops_per_desktop", "duration")
# (id, replace) of a prepared table -> (a weak reference to it, its derived sums); (id,
# "weights") -> (the reference, its Login VSI weights): ``prepare`` computes them once for the
# many runs of the sensitivity grid. An entry answers only for the very table it was made for
# (``_prepared``: the reference must still point to it; a table made later at the same address is
# another table) and is dropped when that table is freed.
_SUMS: dict = {}


def _keep(r: pd.DataFrame, kind, value) -> None:
    """Keep ``value`` for the table ``r`` itself (``_SUMS``), until ``r`` is freed."""
    import weakref

    key = (id(r), kind)
    _SUMS[key] = (weakref.ref(r, lambda _ref, key=key: _SUMS.pop(key, None)), value)


def _prepared(r: pd.DataFrame, kind):
    """The value ``prepare`` kept for the table ``r`` itself (``kind``: a ``replace`` flag or
    ``"weights"``), else None."""
    entry = _SUMS.get((id(r), kind))
    return entry[1] if entry is not None and entry[0]() is r else None


def prepare(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """The results.csv rows the planning models read (metrics ``MODEL_METRICS``), with their
    semantics (``semantics.observation_semantics``: aggregation, window, load, role), for many
    runs under different choices (``sensitivity``): the semantics and the read + write sums are
    computed once. ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when
    None). Columns: results.csv's plus ``role``."""
    r = semantics.observation_semantics(results, sources_df)
    r = r[r["metric"].isin(MODEL_METRICS)].reset_index(drop=True)
    for replace in (False, True):
        _keep(r, replace, derived_totals(r, replace=replace))
    try:
        _keep(r, "weights", login_vsi_weights(r))
    except ValueError:  # raised again, with its message, by the observations that need them
        pass
    return r


def candidate_records(results: pd.DataFrame, sources_df: pd.DataFrame, choices=None) -> pd.DataFrame:
    """Every per-desktop IOPS record with its semantics and ``reason`` (empty = used), under
    ``choices`` (``raw.choices.Choices``; default: the declared defaults).

    Input: results.csv (or ``prepare``'s subset); ``sources_df``: sources.csv
    (``raw.sources.load_sources``; TypeError when None). Rows: metric ``iops`` with a per-desktop figure
    (value / desktops of the test), metric ``iops_per_desktop`` as printed, outside ``sizing``,
    and the read + write sums of ``derived_totals`` (choice ``total_source``: with
    ``read_plus_write`` a stated average total of a test whose read and write averages are both
    stated is left out for their sum; otherwise sums stand in only where no total is stated).
    Columns added: ``aggregation``, ``window``, ``load``, ``role``
    (``semantics.observation_semantics``), ``cell``, ``iops_per_desktop``,
    ``iops_per_desktop_low``, ``iops_per_desktop_high`` (IOPS per desktop), ``reason``. External
    sources get their reasons too (they are checked out of sample, never fitted:
    ``observations`` filters on ``role``).
    """
    from ...raw import sources

    sources.required(sources_df, "iops.candidate_records")
    ch = resolve_choices(choices)
    r = results if "role" in results.columns else semantics.observation_semantics(results, sources_df)
    replace = ch["total_source"] == "read_plus_write"
    sums = _prepared(results, replace)
    if sums is None:
        sums = derived_totals(r, replace=replace)
    r = pd.concat([r, sums], ignore_index=True) if len(sums) else r
    r = r[
        (((r["metric"] == "iops") & r["per_desktop"].notna()) | (r["metric"] == "iops_per_desktop"))
        & (r["phase"] != "sizing")
    ].copy()
    summed = set(map(tuple, sums.loc[sums["statistic"] == "average", SUM_KEYS].to_numpy())) if replace else set()
    kind = r["kind"] if "kind" in r.columns else pd.Series("reported", index=r.index)
    r["_replaced"] = [k in summed and kd != "derived" for k, kd in zip(map(tuple, r[SUM_KEYS].to_numpy()), kind)]
    direct = r["metric"] == "iops_per_desktop"
    r["iops_per_desktop"] = np.where(direct, r["value"], r["per_desktop"])
    r["iops_per_desktop_low"] = np.where(direct, r["value_low"], r["per_desktop_low"])
    r["iops_per_desktop_high"] = np.where(direct, r["value_high"], r["per_desktop_high"])
    whole = ch["whole_test_window"]
    r["cell"] = [cell_of(p, s, w, whole) for p, s, w in zip(r["phase"], r["statistic"], r["window"])]
    # one dict per row (the columns ``_reason`` reads), not a Series per row (DataFrame.apply)
    rows = r[[c for c in REASON_COLUMNS if c in r.columns]].to_dict("records")
    r["reason"] = pd.Series([_reason(x, ch) for x in rows], index=r.index, dtype=object) if len(r) else ""
    return r.drop(columns="_replaced").reset_index(drop=True)


def exclusions(results: pd.DataFrame, sources_df: pd.DataFrame, choices=None) -> pd.DataFrame:
    """The records the model does not use under ``choices``, with the reason (a table the report
    lists). ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when None).

    Columns: source_id, vendor, role, record_id, test_id, phase, statistic, vantage,
    aggregation, window, load, worker_class, iops_per_desktop (IOPS per desktop), reason.
    One row per record; audit exclusions and non-modelled phases included.
    """
    c = candidate_records(results, sources_df, choices)
    c = c[c["reason"] != ""]
    cols = [
        "source_id",
        "vendor",
        "role",
        "record_id",
        "test_id",
        "phase",
        "statistic",
        "vantage",
        "aggregation",
        "window",
        "load",
        "worker_class",
        "iops_per_desktop",
        "reason",
    ]
    return c[cols].sort_values(["role", "source_id", "record_id"]).reset_index(drop=True)


def observations(
    results: pd.DataFrame,
    bounded: str | None = None,
    approx: str | None = None,
    role: str = "seed",
    sources_df: pd.DataFrame | None = None,
    choices=None,
) -> pd.DataFrame:
    """Model observations: one row per vendor x cell x worker class, from sources of ``role``,
    under ``choices`` (``raw.choices.Choices``; default: the declared defaults).

    ``bounded`` (default: choice ``bounded_values``): ``exclude`` drops lt/gt records,
    ``at_bound`` uses them at their printed value. ``approx`` (default: choice
    ``approx_point``): ``mid``, ``low`` or ``high`` end of the interval of approx values and ranges.
    Within a group the preferred vantage wins (front end, host, port, unstated); repeats of one
    number are counted once; distinct tests are combined by their geometric mean.
    Columns: vendor, source_id, cell, phase, statistic, window, aggregation, worker_class,
    vantage, iops_per_desktop (IOPS per desktop), low, high, n_tests, record_ids, workload,
    log_iops, log_iops_vsi (log_iops - workload). ``sources_df``: sources.csv
    (``raw.sources.load_sources``; required: TypeError when None). Raises ValueError for an
    unknown ``bounded`` or ``approx``. May be empty (e.g. no external source yet).
    """
    ch = resolve_choices(choices)
    bounded = ch["bounded_values"] if bounded is None else bounded
    approx = ch["approx_point"] if approx is None else approx
    if bounded not in ("exclude", "at_bound") or approx not in ("mid", "low", "high"):
        raise ValueError(f"bounded must be exclude|at_bound and approx mid|low|high, got {bounded!r}, {approx!r}")
    c = candidate_records(results, sources_df, ch)
    c = c[(c["reason"] == "") & (c["role"] == role)]
    if bounded == "exclude":
        c = c[~c["bound"].isin(["lt", "gt"])]
    c = c.copy()
    cols = [
        "vendor",
        "source_id",
        "cell",
        "phase",
        "statistic",
        "window",
        "aggregation",
        "worker_class",
        "vantage",
        "iops_per_desktop",
        "low",
        "high",
        "n_tests",
        "record_ids",
        "workload",
        "log_iops",
        "log_iops_vsi",
    ]
    if c.empty:
        return pd.DataFrame(columns=cols)
    lo, hi = c["iops_per_desktop_low"], c["iops_per_desktop_high"]
    exact_pt = np.where(c["bound"].isin(["lt", "gt"]), c["iops_per_desktop"], np.nan)
    pick = {"mid": (lo + hi) / 2, "low": lo, "high": hi}[approx]
    c["y"] = np.where(np.isnan(exact_pt), pick, exact_pt)
    c["phase"], c["statistic"] = zip(*[next(k for k, v in CELLS.items() if v == cell) for cell in c["cell"]])
    c["_vp"] = c["vantage"].map(VANTAGE_PREFERENCE.index)
    keys = ["vendor", "source_id", "cell", "worker_class"]
    c = c[c["_vp"] == c.groupby(keys)["_vp"].transform("min")]
    c = c.assign(_y=c["y"].round(6)).drop_duplicates(keys + ["test_id", "_y"])
    # built-in aggregations only (a Python function per group was most of this function's time in
    # the sensitivity grid): the geometric mean as exp(mean(log y)); the record ids sorted first
    c = c.assign(_log_y=np.log(c["y"].astype(float)))
    g = c.groupby(keys, sort=True)
    obs = g.agg(
        phase=("phase", "first"),
        statistic=("statistic", "first"),
        window=("window", "first"),
        aggregation=("aggregation", "first"),
        vantage=("vantage", "first"),
        iops_per_desktop=("_log_y", "mean"),
        low=("iops_per_desktop_low", "min"),
        high=("iops_per_desktop_high", "max"),
        n_tests=("test_id", "nunique"),
    )
    obs["iops_per_desktop"] = np.exp(obs["iops_per_desktop"])
    obs["record_ids"] = c.sort_values("record_id", kind="stable").groupby(keys, sort=True)["record_id"].agg(" ".join)
    obs = obs.reset_index()
    weights = _prepared(results, "weights") or login_vsi_weights(results)
    obs["workload"] = workload_score(obs["worker_class"], obs["phase"], weights)
    obs["log_iops"] = np.log(obs["iops_per_desktop"])
    obs["log_iops_vsi"] = obs["log_iops"] - obs["workload"]
    return obs[cols]


def derived_totals(results: pd.DataFrame, replace: bool = False) -> pd.DataFrame:
    """Total IOPS derived as read + write IOPS where a test reports both but no total at that
    vantage and statistic (e.g. the external documents); with ``replace`` (choice
    ``total_source = read_plus_write``) also for averages whose total is stated (the register
    prefers the sum: D-ACCS-17). Rows shaped like results.csv rows of
    metric ``iops`` with ``per_desktop``; record_id ``<read id>+<write id>``; kind ``derived``.
    An average of a sum is the sum of the averages (bound as reported); separate peaks need not
    coincide, so their sum bounds the total peak from above (bound ``lt``), and a stated total
    peak always wins."""
    rw = results[results["metric"].isin(["read_iops", "write_iops"]) & results["statistic"].isin(["peak", "average"])]
    keys = SUM_KEYS
    have = set(map(tuple, results.loc[results["metric"] == "iops", keys].to_numpy()))
    rows = []
    for k, g in rw.groupby(keys, sort=True):
        if set(g["metric"]) != {"read_iops", "write_iops"}:
            continue
        if k in have and not (replace and k[keys.index("statistic")] == "average"):
            continue
        rd, wr = g[g["metric"] == "read_iops"].iloc[0], g[g["metric"] == "write_iops"].iloc[0]
        x = rd.copy()
        x["metric"], x["value"] = "iops", rd["value"] + wr["value"]
        x["record_id"] = f"{rd['record_id']}+{wr['record_id']}"
        x["bound"] = (
            "lt" if x["statistic"] == "peak" else ("approx" if "approx" in (rd["bound"], wr["bound"]) else rd["bound"])
        )
        x["per_desktop"] = x["value"] / x["desktops"]
        x["per_desktop_low"] = x["per_desktop_high"] = x["per_desktop"]
        x["used_in_analysis"] = bool(rd["used_in_analysis"] and wr["used_in_analysis"])
        x["kind"] = "derived"
        rows.append(x)
    cols = list(dict.fromkeys(list(results.columns) + ["per_desktop", "per_desktop_low", "per_desktop_high", "kind"]))
    return pd.DataFrame(rows, columns=cols)


# The headline table's IOPS cells (report Table 'Headline results'): the value the model takes
HEADLINE_VANTAGES = [
    "array_frontend",
    "host",
    "storage_port",
    "",
    "array_backend",
    "guest",
]  # as normalize.VANTAGE_PREFERENCE

_REGISTER_ID = r"\bD-[A-Z0-9]+-\d+\b"


def register_id(resolution: str) -> str:
    """The register entry named by a record's ``resolution`` (``D-ACCS-12: Use ...`` -> ``D-ACCS-12``)."""
    m = re.search(_REGISTER_ID, resolution or "")
    return m.group(0) if m else "the register"


def headline_iops(results: pd.DataFrame, sources_df: pd.DataFrame, choices=None) -> pd.DataFrame:
    """The IOPS per desktop the report's Table 'Headline results' shows per test run and statistic
    (the model stage writes it, ``headline_iops.csv``): the value
    the model's record selection takes (``iops.candidate_records`` under ``choices``), so a
    quantity has one value in the table and the model. A stated average total that the register
    prefers the read + write sum to (choice ``total_source``: D-ACCS-17) is shown as that sum; a
    test known only by its read and write IOPS gets their sum (an average exact, a sum of peaks an
    upper bound); the vantage order is ``HEADLINE_VANTAGES`` (host before back end: D-ACCS-15).
    Where the register sets every statement of the quantity aside, the value is shown as set aside
    with the entry's id; a quantity no document states has no row. ``sources_df``: sources.csv
    (``raw.sources.load_sources``; TypeError when None).

    Columns: source_id, test_id, statistic (peak, average), iops_per_desktop (IOPS per desktop,
    derived), bound, vantage, derived (a read + write sum), set_aside (register id, or "")."""
    c = candidate_records(results, sources_df, choices)
    c = c[
        (c["metric"] == "iops")
        & c["condition"].isin(["", "normal"])
        & c["statistic"].isin(["peak", "average"])
        & (c["test_id"] != "")
    ].copy()
    kind = c["kind"] if "kind" in c.columns else pd.Series("reported", index=c.index)
    c["derived"] = kind.eq("derived").to_numpy()
    aside = c["reason"].str.startswith("not used in analysis")
    replaced = c["reason"].str.startswith("stated total")
    prefer_sum = resolve_choices(choices)["total_source"] == "read_plus_write"
    c["_use"] = (~aside & ~replaced).astype(int)
    c["_vp"] = c["vantage"].map(
        lambda v: HEADLINE_VANTAGES.index(v) if v in HEADLINE_VANTAGES else len(HEADLINE_VANTAGES)
    )
    c["_x"] = c["bound"].map({"eq": 0, "approx": 1}).fillna(2)
    c["_d"] = np.where(c["derived"] == (prefer_sum & (c["statistic"] == "average")), 0, 1)
    c = c.sort_values(["_use", "_vp", "_x", "_d", "record_id"], ascending=[False, True, True, True, True])
    c = c.drop_duplicates(["source_id", "test_id", "statistic"])
    c["set_aside"] = [
        "" if u else register_id(r) for u, r in zip(c["_use"], c["resolution"] if "resolution" in c else [""] * len(c))
    ]
    cols = ["source_id", "test_id", "statistic", "iops_per_desktop", "bound", "vantage", "derived", "set_aside"]
    return c[cols].reset_index(drop=True)
