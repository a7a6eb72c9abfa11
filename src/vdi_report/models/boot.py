"""Boot storms by rate: I/O per desktop boot and peak IOPS at the tested boot rate.

A boot storm's peak is set by how fast desktops are booted (the broker's power-on throttling),
not by the desktop alone (shared/FIELD.md). Per seed document (normal condition, records used in
the analysis, front end or host vantage):

- ``boot_rate_per_min`` = desktops booted / boot duration (min). A duration printed as an upper
  bound ("less than 6 minutes") makes the rate a lower bound (``gt``).
- ``io_per_boot`` = average boot IOPS x duration (s) / desktops (total boot I/O per desktop).
  Where only a peak is reported, peak x duration / desktops is an upper bound (``lt``); where the
  average was taken over a window longer than the boot (``window = interval``), the boot's own
  average is higher, so the result is a lower bound (``gt``).
- ``peak_iops_per_rate`` = peak front-end IOPS / boot rate: IOPS per (desktop booted per
  minute). The boot-rate model: peak IOPS = rate x ``peak_iops_per_rate``. A rate lower bound
  makes it an upper bound; a host average in place of a missing peak makes it a lower bound.

``rate_model`` is the seed era's boot rows of the planning table: the one boot pooling,
``era.boot_rows`` (labs as the unit of replication, ``era.pool``).
"""

import numpy as np
import pandas as pd

from .. import catalogue
from . import semantics

FRONT_VANTAGES = ("array_frontend", "host", "storage_port", "")
# The boot-rate model's two statistics, as a reader reads them (planning tables).
STATISTIC_LABELS = {"peak_per_rate": "peak per boot rate", "io_per_boot": "I/O per boot"}
# The columns of ``boot_storms.csv``, in file order: the catalogue's declaration (one source).
BOOT_COLUMNS = catalogue.table("boot_storms").column_names
_FLIP = {"lt": "gt", "gt": "lt"}


def _pick(df: pd.DataFrame) -> pd.Series | None:
    """Prefer exact over approx over bounds, records of a named test, then the lowest record_id."""
    if df.empty:
        return None
    order = {"eq": 0, "approx": 1, "lt": 2, "gt": 2}
    d = df.assign(_b=df["bound"].map(order), _t=(df["test_id"] == "").astype(int))
    return d.sort_values(["_b", "_t", "record_id"]).iloc[0]


def _combine(*bounds: str) -> str:
    """Bound of a product/ratio of quantities with these bounds (``eq``/``approx`` neutral)."""
    b = {x for x in bounds if x in ("lt", "gt")}
    if len(b) > 1:
        return "unbounded"
    return b.pop() if b else ("approx" if "approx" in bounds else "eq")


APPROX_POINTS = ("mid", "low", "high")  # choice approx_point (data/raw/analysis_choices.csv)


def _point(x: pd.DataFrame, approx: str) -> pd.Series:
    """The values of ``x`` (results rows) as a range or an approximate figure enters (choice
    ``approx_point``): ``mid`` (the middle of ``value_low`` .. ``value_high``), ``low`` or
    ``high`` end. An exact single value (no range) is itself; a bound (lt/gt) stays at its
    printed value."""
    v = x["value"].astype(float)
    lo, hi = x["value_low"].astype(float).fillna(v), x["value_high"].astype(float).fillna(v)
    pick = {"mid": (lo + hi) / 2, "low": lo, "high": hi}[approx]
    return pick.where(~x["bound"].isin(["lt", "gt"]), v)


def boot_storms(
    results: pd.DataFrame, sources_df: pd.DataFrame, use_register: bool = True, approx: str = "mid"
) -> pd.DataFrame:
    """One row per source with a boot storm (columns ``BOOT_COLUMNS``; IOPS, min, I/O per boot,
    desktops per minute, IOPS per desktop-per-minute). Sources of every role (``role`` says which).

    Peak and average IOPS of several configurations of one document are combined by their
    geometric mean (record ids space-joined). Rows without a duration are dropped. A printed
    range or approximate value (a duration, a peak, an average: results' ``value_low`` ..
    ``value_high``) enters at its middle, or its ``low`` or ``high`` end (``approx``, choice
    ``approx_point``): Hitachi's "3 minutes and 4-20 seconds" (HDS-0213) is 192 s at ``mid``.
    ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when None); the test
    set-up (provisioning) is read through ``raw.test_setup.setup_wide``.
    Raises ValueError for another ``approx``.
    """
    from ..raw import sources, test_setup

    sources.required(sources_df, "boot.boot_storms")
    if approx not in APPROX_POINTS:
        raise ValueError(f"approx must be one of {', '.join(APPROX_POINTS)}, got {approx!r}")
    r = semantics.observation_semantics(results[results["phase"] == "boot"], sources_df)
    # choice register_resolutions: ignore uses the records the register sets aside too
    r = r[(r["used_in_analysis"] | (not use_register)) & (r["condition"] != "failover")]
    src = sources_df.set_index("source_id")
    setup = test_setup.setup_wide()
    rows = []
    for sid, g in r.groupby("source_id", sort=True):
        dur = _pick(g[g["metric"] == "duration"])
        if dur is None:
            continue
        io = g[(g["metric"] == "iops") & g["vantage"].isin(FRONT_VANTAGES)]
        vp = [v for v in FRONT_VANTAGES if (io["vantage"] == v).any()]
        io = io[io["vantage"] == vp[0]] if vp else io

        def agg(stat, io=io):
            x = io[io["statistic"] == stat].drop_duplicates(["configuration", "value"])
            if x.empty:
                return np.nan, "", ""
            b = _combine(*x["bound"])
            if stat == "average" and (x["window"] == "interval").any():
                b = _combine(b, "gt")  # averaged over a window longer than the boot: the boot's own average is higher
            return float(np.exp(np.log(_point(x, approx)).mean())), b, " ".join(sorted(x["record_id"]))

        peak, pb, prec = agg("peak")
        avg, ab, arec = agg("average")
        desktops = float(g["desktops"].dropna().max())
        d_min, d_b = float(_point(dur.to_frame().T, approx).iloc[0]), dur["bound"]
        rate = desktops / d_min
        rate_b = _FLIP.get(d_b, d_b)
        if not np.isnan(avg):
            iob, iob_b = avg * d_min * 60 / desktops, _combine(ab, d_b)
        elif not np.isnan(peak):
            iob, iob_b = peak * d_min * 60 / desktops, _combine(pb, d_b, "lt")
        else:
            iob, iob_b = np.nan, ""
        if not np.isnan(peak):
            ppr, ppr_b = peak / rate, _combine(pb, _FLIP.get(rate_b, rate_b))
        elif not np.isnan(avg):
            ppr, ppr_b = avg / rate, _combine(ab, _FLIP.get(rate_b, rate_b), "gt")
        else:
            ppr, ppr_b = np.nan, ""
        prov = test_setup.lookup(setup, sid, dur["configuration"], "provisioning")[0] or src.at[sid, "clone_type"]
        rows.append(
            {
                "source_id": sid,
                "vendor": g["vendor"].iloc[0],
                "role": g["role"].iloc[0],
                "desktops": desktops,
                "duration_min": d_min,
                "duration_bound": d_b,
                "duration_record": dur["record_id"],
                "boot_rate_per_min": rate,
                "rate_bound": rate_b,
                "peak_iops": peak,
                "peak_bound": pb,
                "peak_record": prec,
                "average_iops": avg,
                "average_record": arec,
                "io_per_boot": iob,
                "io_per_boot_bound": iob_b,
                "peak_iops_per_rate": ppr,
                "peak_per_rate_bound": ppr_b,
                "vantage": vp[0] if vp else "",
                "provisioning": prov,
                "lab": src.at[sid, "lab"],
            }
        )
    return pd.DataFrame(rows, columns=BOOT_COLUMNS)


POOLINGS = ("geometric_mean", "highest", "lowest")  # choice boot_pooling (data/raw/analysis_choices.csv)


def rate_model(
    storms: pd.DataFrame,
    pooling: str = "geometric_mean",
    floor: float | None = None,
    tau2s: dict | None = None,
    tau2_source: str = "borrowed_seed",
) -> pd.DataFrame:
    """The seed era's boot-rate model: the seed boot rows of the planning table, pooled by the one
    boot pooling ``era.boot_rows`` (exact or approximate values; bounds are shown in
    ``boot_storms`` but not pooled; with only bounds, a lower bound without interval).

    ``pooling`` (choice ``boot_pooling``): the estimate is the labs' geometric mean, or the
    ``highest`` or ``lowest`` document's value; the interval is the same. Raises ValueError for
    another pooling. ``floor``, ``tau2s``, ``tau2_source``: the seed era's within-lab variance
    floor and τ² (``era.era_heterogeneity``) and the choice ``tau2_source``, as the planning table
    uses them (``era.boot_rows``); without them, the range of the documents.

    Rows (phase ``boot``, worker_class ``any``): statistic ``peak_per_rate`` (peak front-end IOPS
    per desktop booted per minute) and ``io_per_boot`` (I/O per desktop boot). Columns: phase,
    worker_class, statistic, estimate, pi90_low, pi90_high, interval_kind, n_vendors,
    boot_rate_per_min (geometric mean of the tested rates of the storms behind the row,
    desktops/min), io_per_boot (the pooled I/O per boot, repeated on both rows), records (source
    ids used), vendors.
    """
    from .era import boot_rows

    rows = boot_rows(storms, "seed", pooling, floor=floor, tau2s=tau2s, tau2_source=tau2_source)
    cols = [
        "phase",
        "worker_class",
        "statistic",
        "estimate",
        "pi90_low",
        "pi90_high",
        "interval_kind",
        "n_vendors",
        "boot_rate_per_min",
        "io_per_boot",
        "records",
        "vendors",
    ]
    return pd.DataFrame([r | {"records": " ".join(r["_sources"])} for r in rows]).reindex(columns=cols)


def external_check(storms: pd.DataFrame, model: pd.DataFrame) -> pd.DataFrame:
    """External documents' boot storms against the seeds' boot-rate model: their I/O per
    desktop boot and peak IOPS per desktop booted per minute (with bounds) beside the seed
    estimate and its interval. Columns: source_id, vendor, statistic (``io_per_boot``,
    ``peak_per_rate``), observed, bound, estimate, low, high (seed model), ratio (observed /
    estimate), inside (``era.verdict`` of the figure's status: ``inside``, ``above``, ``below``,
    or ``uninformative`` for a bound that cannot contradict the seeds' interval),
    boot_rate_per_min. Zero rows without external boot storms."""
    from .era import STATUS_OF_BOUND, verdict

    e = storms[storms["role"] == "external"]
    m = model.set_index("statistic")
    rows = []
    for _, x in e.iterrows():
        for stat, col, bcol in (
            ("io_per_boot", "io_per_boot", "io_per_boot_bound"),
            ("peak_per_rate", "peak_iops_per_rate", "peak_per_rate_bound"),
        ):
            if pd.isna(x[col]) or stat not in m.index:
                continue
            lo, hi, est = m.at[stat, "pi90_low"], m.at[stat, "pi90_high"], m.at[stat, "estimate"]
            b = x[bcol]
            inside = verdict(float(x[col]), STATUS_OF_BOUND.get(b, "exact"), lo, hi)
            rows.append(
                {
                    "source_id": x["source_id"],
                    "vendor": x["vendor"],
                    "statistic": stat,
                    "observed": x[col],
                    "bound": b,
                    "estimate": est,
                    "low": lo,
                    "high": hi,
                    "ratio": x[col] / est,
                    "inside": inside,
                    "boot_rate_per_min": x["boot_rate_per_min"],
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "source_id",
            "vendor",
            "statistic",
            "observed",
            "bound",
            "estimate",
            "low",
            "high",
            "ratio",
            "inside",
            "boot_rate_per_min",
        ],
    )


def demand_curve(model: pd.DataFrame, rates) -> pd.DataFrame:
    """Peak front-end boot IOPS at each boot rate (desktops/min): rate x peak_per_rate (estimate
    and interval ends). Columns: boot_rate_per_min, fe_iops, fe_iops_low, fe_iops_high."""
    m = model.set_index("statistic").loc["peak_per_rate"]
    r = np.asarray(rates, dtype=float)
    return pd.DataFrame(
        {
            "boot_rate_per_min": r,
            "fe_iops": r * m["estimate"],
            "fe_iops_low": r * m["pi90_low"],
            "fe_iops_high": r * m["pi90_high"],
        }
    )


EXTRAPOLATION_FACTOR = 1.5  # the fitted line is drawn to 1.5x the highest boot rate the model was fitted on
FITTED, EXTRAPOLATED, SCENARIO = "model (fitted)", "extrapolated beyond the tested boot rates", "scenario boot rate"


def fitted_storms(model: pd.DataFrame, storms: pd.DataFrame) -> pd.DataFrame:
    """The boot storms the ``peak_per_rate`` row of ``model`` pools (seed documents of its
    ``vendors`` with an exact or approximate peak per rate): rows of ``storms``."""
    m = model.set_index("statistic").loc["peak_per_rate"]
    vendors = {v.strip() for v in str(m.get("vendors", "")).split(",") if v.strip()}
    role = storms["role"] if "role" in storms.columns else pd.Series("seed", index=storms.index)
    return storms[
        (role == "seed") & storms["vendor"].isin(vendors) & storms["peak_per_rate_bound"].isin(["eq", "approx"])
    ]


def demand_line_extent(
    model: pd.DataFrame, storms: pd.DataFrame, scenario_rate: float | None = None
) -> tuple[float, float]:
    """(end of the fitted line, end of its extrapolated part) in desktops per minute: the line
    stops at ``EXTRAPOLATION_FACTOR`` x the highest boot rate of ``fitted_storms``; when the
    scenario's rate lies beyond, the line goes on to it as an extrapolation (second value; equal
    to the first otherwise). Raises ValueError when no fitted storm has a boot rate."""
    rates = pd.to_numeric(fitted_storms(model, storms)["boot_rate_per_min"], errors="coerce").dropna()
    if rates.empty:
        raise ValueError("demand_line_extent: the boot-rate model pools no boot storm with a boot rate")
    end = float(rates.max() * EXTRAPOLATION_FACTOR)
    return end, max(end, float(scenario_rate or 0))
