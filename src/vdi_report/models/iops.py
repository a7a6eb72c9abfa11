"""Per-desktop IOPS model for the planning table: log(IOPS per desktop) ~ cell [+ worker intensity].

Pipeline: ``candidate_records`` (every per-desktop IOPS record with its semantics and the reason
it is or is not used) -> ``observations`` (one row per vendor x cell x worker class) -> ``fit``
(statsmodels OLS) -> ``planning_table`` (``iops_per_desktop_model.csv``), ``leave_one_vendor_out``
and ``external_check``.

Like with like (``semantics.observation_semantics``):
- A *cell* is a phase with its statistic and window: ``login`` peak (the login storm's peak,
  also when the test spans login and steady state), ``steady_state`` average, and
  ``login_and_steady_state`` average (an average over a whole test, window ``test``: never
  pooled with a steady-state average).
- Per-desktop figures are array or host totals divided by the desktops of the test. A
  single-desktop sample (Hitachi's "four representative desktops") enters only as an average
  (the mean of sampled desktops estimates the mean per desktop); its peak is the peak of one
  desktop, not its share of the array's coincident peak, and is excluded.
- Only standard Login VSI loads; a boosted I/O workload (an IOPS target per desktop, or an I/O
  generator such as Vdbench) is excluded, with the reason, and listed.
- Boot storms are not modelled here: their demand depends on the boot rate (``models.boot``).
- External sources (sources.csv ``role = external``) never enter the fit; ``external_check``
  predicts them out of sample.

Bounds: ``lt``/``gt`` values are excluded (``bounded="exclude"``); ranges and ``approx`` values
enter at their midpoint. The specification is chosen by ``choose_spec`` from the computed criteria
(leave-one-vendor-out coverage of observations, then error, then AIC).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..transform.normalize import VANTAGE_PREFERENCE
from . import semantics

CELLS = {("login", "peak"): "login peak", ("steady_state", "average"): "steady_state average",
         ("login_and_steady_state", "average"): "login_and_steady_state average"}
CELL_ORDER = list(CELLS.values())
PHASES = ("login", "steady_state", "login_and_steady_state")
VANTAGE_LEVELS = ["array_frontend", "host", "storage_port", ""]
STATISTICS = ("peak", "average")
WORKER_CLASSES = ("task", "office", "knowledge", "power")  # Login VSI terms
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
    r = results[(results["phase"] == "sizing") & (results["metric"] == "iops_per_desktop")
                & (results["statistic"] == "single") & results["worker_class"].isin(WORKER_CLASSES)
                & results["used_in_analysis"]]
    for _, g in r.sort_values("record_id").groupby("source_id", sort=True):
        w = g.groupby("worker_class")["value"].first().to_dict()
        if all(c in w for c in WORKER_CLASSES):
            return {c: float(w[c]) for c in WORKER_CLASSES}
    raise ValueError(f"no source reprints Login VSI's IOPS per desktop for all of {WORKER_CLASSES} (phase sizing)")


def workload_score(worker_class: pd.Series, phase: pd.Series, weights: dict[str, float]) -> pd.Series:
    """log(weight[class] / weight[knowledge]); 0 for the pooled class ``any`` and for boot."""
    ref = weights[REFERENCE_CLASS]
    score = worker_class.map(lambda c: np.log(weights[c] / ref) if c in weights else (0.0 if c == ANY_CLASS else np.nan))
    return score.where(phase != "boot", 0.0)


def cell_of(phase: str, statistic: str, window: str) -> str:
    """The model cell of a record (``CELLS``), or "" when it has none."""
    if phase == "login_and_steady_state":
        phase = "login" if statistic == "peak" else phase
    if phase == "login_and_steady_state" and window != "test":
        return ""
    return CELLS.get((phase, statistic), "")


def _reason(r) -> str:
    if not r["used_in_analysis"]:
        return "not used in analysis (audit register)"
    if r["phase"] == "boot":
        return "boot storm: modelled per desktop boot and by boot rate (boot model)"
    if r["phase"] not in PHASES:
        return f"phase {r['phase'] or 'not stated'} not modelled"
    if r["statistic"] not in STATISTICS:
        return f"statistic {r['statistic']} (not peak or average)"
    if r["condition"] == "failover":
        return "failover (one controller down): the array's behaviour, not the desktops' demand"
    if r["variant"] == "tuesday":
        return "Tuesday login (warm caches); Monday is the design case"
    if r["vantage"] in ("array_backend", "guest"):
        return f"vantage {r['vantage']}: not the desktops' front-end demand"
    if r["aggregation"] == "single_desktop" and r["statistic"] == "peak":
        return "single-desktop peak sample: not the per-desktop share of the array's peak"
    if r["load"] == "boosted":
        return "boosted I/O workload (IOPS target or I/O generator), not a standard Login VSI load"
    if r["worker_class"] not in WORKER_CLASSES:
        return f"worker class {r['worker_class'] or 'not stated'} is not one Login VSI class"
    if not r["cell"]:
        return f"no model cell for {r['phase']} {r['statistic']} over window {r['window']}"
    return ""


def candidate_records(results: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every per-desktop IOPS record with its semantics and ``reason`` (empty = used).

    Input: results.csv. Rows: metric ``iops`` with a per-desktop figure (value / desktops of the
    test) and metric ``iops_per_desktop`` as printed, outside ``sizing``. Columns added:
    ``aggregation``, ``window``, ``load``, ``role`` (``semantics.observation_semantics``),
    ``cell``, ``iops_per_desktop``, ``iops_per_desktop_low``, ``iops_per_desktop_high`` (IOPS per
    desktop), ``reason``. External sources get their reasons too (they are checked out of
    sample, never fitted: ``observations`` filters on ``role``).
    """
    r = semantics.observation_semantics(results, sources_df)
    r = r[(((r["metric"] == "iops") & r["per_desktop"].notna()) | (r["metric"] == "iops_per_desktop"))
          & (r["phase"] != "sizing")].copy()
    direct = r["metric"] == "iops_per_desktop"
    r["iops_per_desktop"] = np.where(direct, r["value"], r["per_desktop"])
    r["iops_per_desktop_low"] = np.where(direct, r["value_low"], r["per_desktop_low"])
    r["iops_per_desktop_high"] = np.where(direct, r["value_high"], r["per_desktop_high"])
    r["cell"] = [cell_of(p, s, w) for p, s, w in zip(r["phase"], r["statistic"], r["window"])]
    r["reason"] = r.apply(_reason, axis=1) if len(r) else pd.Series(dtype=str)
    return r.reset_index(drop=True)


def exclusions(results: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """The records the model does not use, with the reason (a table the report lists).

    Columns: source_id, vendor, role, record_id, test_id, phase, statistic, vantage,
    aggregation, window, load, worker_class, iops_per_desktop (IOPS per desktop), reason.
    One row per record; audit exclusions and non-modelled phases included.
    """
    c = candidate_records(results, sources_df)
    c = c[c["reason"] != ""]
    cols = ["source_id", "vendor", "role", "record_id", "test_id", "phase", "statistic", "vantage", "aggregation",
            "window", "load", "worker_class", "iops_per_desktop", "reason"]
    return c[cols].sort_values(["role", "source_id", "record_id"]).reset_index(drop=True)


def observations(results: pd.DataFrame, bounded: str = "exclude", approx: str = "mid", role: str = "seed",
                 sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Model observations: one row per vendor x cell x worker class, from sources of ``role``.

    ``bounded``: ``exclude`` drops lt/gt records, ``at_bound`` uses them at their printed value.
    ``approx``: ``mid``, ``low`` or ``high`` end of the interval of approx values and ranges.
    Within a group the preferred vantage wins (front end, host, port, unstated); repeats of one
    number are counted once; distinct tests are combined by their geometric mean.
    Columns: vendor, source_id, cell, phase, statistic, window, aggregation, worker_class,
    vantage, iops_per_desktop (IOPS per desktop), low, high, n_tests, record_ids, workload,
    log_iops, log_iops_vsi (log_iops - workload). Raises ValueError for an unknown ``bounded``
    or ``approx``. May be empty (e.g. no external source yet).
    """
    if bounded not in ("exclude", "at_bound") or approx not in ("mid", "low", "high"):
        raise ValueError(f"bounded must be exclude|at_bound and approx mid|low|high, got {bounded!r}, {approx!r}")
    c = candidate_records(results, sources_df)
    c = c[(c["reason"] == "") & (c["role"] == role)]
    if bounded == "exclude":
        c = c[~c["bound"].isin(["lt", "gt"])]
    c = c.copy()
    cols = ["vendor", "source_id", "cell", "phase", "statistic", "window", "aggregation", "worker_class", "vantage",
            "iops_per_desktop", "low", "high", "n_tests", "record_ids", "workload", "log_iops", "log_iops_vsi"]
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
    g = c.groupby(keys, sort=True)
    obs = g.agg(phase=("phase", "first"), statistic=("statistic", "first"), window=("window", "first"),
                aggregation=("aggregation", "first"), vantage=("vantage", "first"),
                iops_per_desktop=("y", lambda s: float(np.exp(np.log(s).mean()))),
                low=("iops_per_desktop_low", "min"), high=("iops_per_desktop_high", "max"),
                n_tests=("test_id", "nunique"), record_ids=("record_id", lambda s: " ".join(sorted(s)))).reset_index()
    obs["workload"] = workload_score(obs["worker_class"], obs["phase"], login_vsi_weights(results))
    obs["log_iops"] = np.log(obs["iops_per_desktop"])
    obs["log_iops_vsi"] = obs["log_iops"] - obs["workload"]
    return obs[cols]


@dataclass
class IopsModel:
    """A fitted model: ``spec`` name, statsmodels ``result``, the patsy ``design_info`` and the
    kept design columns (columns absent from the training data are dropped, and any prediction
    that needs them is NaN: not estimable)."""

    spec: str
    result: object
    design_info: object
    kept: list
    vendors: tuple

    def predict(self, newdata: pd.DataFrame, pi_alpha: float = PI_ALPHA, ci_alpha: float = CI_ALPHA) -> pd.DataFrame:
        """Predictions in IOPS per desktop for rows of ``newdata`` (columns phase, statistic,
        workload[, vantage]): ``estimate`` (exp of the mean log, the median), ``ci95_low/high``,
        ``pi90_low/high``. Rows needing a column absent from training are NaN."""
        import patsy

        X = np.asarray(patsy.build_design_matrices([self.design_info], newdata, return_type="dataframe")[0])
        dropped = np.setdiff1d(np.arange(X.shape[1]), self.kept)
        ok = ~(np.abs(X[:, dropped]) > 0).any(axis=1) if len(dropped) else np.ones(len(X), bool)
        out = pd.DataFrame(np.nan, index=newdata.index, columns=["estimate", "ci95_low", "ci95_high", "pi90_low", "pi90_high"])
        if ok.any():
            Xk = X[ok][:, self.kept]
            pi = self.result.get_prediction(Xk).summary_frame(alpha=pi_alpha)
            ci = self.result.get_prediction(Xk).summary_frame(alpha=ci_alpha)
            vals = np.column_stack([pi["mean"], ci["mean_ci_lower"], ci["mean_ci_upper"], pi["obs_ci_lower"], pi["obs_ci_upper"]])
            if self.spec in OFFSET_SPECS:
                vals = vals + newdata["workload"].to_numpy()[ok][:, None]
            out.loc[out.index[ok]] = np.exp(vals)
        return out


def _design(obs: pd.DataFrame, spec: str):
    if spec not in SPECS:
        raise ValueError(f"unknown model spec {spec!r}; known: {', '.join(SPECS)}")
    import patsy  # imported here: modules that only read the model's tables (the report) skip it

    env = patsy.EvalEnvironment.capture().with_outer_namespace({"CELL_LEVELS": CELL_ORDER, "VANTAGE_LEVELS": VANTAGE_LEVELS})
    y, X = patsy.dmatrices(SPECS[spec], obs, eval_env=env, return_type="dataframe", NA_action="raise")
    return y, X


def _fit_arrays(y: np.ndarray, X: np.ndarray, weights: np.ndarray | None):
    """The one place a regression is estimated (tests patch it to see what CV trains on)."""
    # the statsmodels submodule alone (statsmodels.api imports every model family: seconds)
    from statsmodels.regression.linear_model import OLS, WLS

    return (WLS(y, X, weights=weights) if weights is not None else OLS(y, X)).fit()


def fit(obs: pd.DataFrame, spec: str = DEFAULT_SPEC, weights: str | None = None) -> IopsModel:
    """Fit ``SPECS[spec]`` to observations (from ``observations``) by OLS, or WLS with
    ``weights="vendor"`` (each vendor's observations weigh 1/n_vendor in total).

    Raises ValueError for an unknown spec or weights, or when there are not more observations
    than estimable coefficients (no residual degree of freedom: no prediction interval).
    """
    y, X = _design(obs, spec)
    kept = [i for i in range(X.shape[1]) if (X.iloc[:, i].abs() > 0).any()]
    if len(obs) <= np.linalg.matrix_rank(X.iloc[:, kept].to_numpy()):
        raise ValueError(f"{len(obs)} observations cannot fit {len(kept)} coefficients of spec {spec!r}")
    if weights not in (None, "vendor"):
        raise ValueError(f"weights must be None or 'vendor', got {weights!r}")
    w = 1.0 / obs.groupby("vendor")["vendor"].transform("size").to_numpy() if weights else None
    res = _fit_arrays(y.to_numpy().ravel(), X.iloc[:, kept].to_numpy(), w)
    res.model.exog_names[:] = [X.columns[i] for i in kept]
    return IopsModel(spec, res, X.design_info, kept, tuple(sorted(obs["vendor"].unique())))


def coefficients(model: IopsModel) -> pd.DataFrame:
    """Columns: term, coef (log scale), ci95_low, ci95_high, factor (exp(coef): IOPS per desktop
    for a cell term, multiplicative effect otherwise), factor_low, factor_high, p_value."""
    r = model.result
    ci = np.asarray(r.conf_int(alpha=CI_ALPHA))
    names = [model.design_info.column_names[i] for i in model.kept]
    names = [n.replace("C(cell, levels=CELL_LEVELS)", "cell").replace("C(vantage, levels=VANTAGE_LEVELS)", "vantage") for n in names]
    return pd.DataFrame({"term": names, "coef": r.params, "ci95_low": ci[:, 0], "ci95_high": ci[:, 1],
                         "factor": np.exp(r.params), "factor_low": np.exp(ci[:, 0]), "factor_high": np.exp(ci[:, 1]),
                         "p_value": r.pvalues})


def grid(results: pd.DataFrame, classes=WORKER_CLASSES) -> pd.DataFrame:
    """Cell x worker class rows (columns cell, phase, statistic, worker_class, workload, vantage)."""
    rows = [{"cell": cell, "phase": ph, "statistic": st, "worker_class": c}
            for (ph, st), cell in CELLS.items() for c in classes]
    g = pd.DataFrame(rows)
    g["workload"] = workload_score(g["worker_class"], g["phase"], login_vsi_weights(results))
    g["vantage"] = "array_frontend"
    return g


def predict_grid(model: IopsModel, results: pd.DataFrame) -> pd.DataFrame:
    """Predictions per cell: one row per worker class when the model has a worker term, else one
    pooled row per cell with ``worker_class = any`` (the class cannot be separated).

    Columns: phase, worker_class, statistic, cell, estimate, pi90_low, pi90_high, ci95_low,
    ci95_high (IOPS per desktop), spec, n_obs. A ``vantage`` spec predicts at the array front end.
    """
    classes = WORKER_CLASSES if model.spec in WORKLOAD_SPECS else (ANY_CLASS,)
    g = grid(results, classes)
    p = model.predict(g)
    out = pd.concat([g[["phase", "worker_class", "statistic", "cell"]], p], axis=1)
    out["spec"], out["n_obs"] = model.spec, int(model.result.nobs)
    return out[["phase", "worker_class", "statistic", "cell", "estimate", "pi90_low", "pi90_high", "ci95_low", "ci95_high",
                "spec", "n_obs"]]


def leave_one_vendor_out(obs: pd.DataFrame, spec: str = DEFAULT_SPEC, weights: str | None = None) -> pd.DataFrame:
    """Predict each vendor's observations from a model fitted to the other vendors only.

    Columns: held_out (vendor), trained_on (the training vendors, ``;``-joined), n_train, the
    observation's keys (cell, phase, statistic, worker_class, vantage, record_ids), observed,
    predicted, pi90_low, pi90_high (IOPS per desktop), log_error (ln predicted - ln observed;
    NaN when not estimable: too few training observations, or a cell only the held-out vendor
    reports), covered (observed inside the 90 % PI), spec.
    """
    rows = []
    for v in sorted(obs["vendor"].unique()):
        train, test = obs[obs["vendor"] != v], obs[obs["vendor"] == v]
        assert v not in set(train["vendor"])
        try:
            p = fit(train, spec, weights).predict(test)
        except ValueError:
            p = pd.DataFrame(np.nan, index=test.index, columns=["estimate", "pi90_low", "pi90_high"])
        rows.append(pd.DataFrame({
            "held_out": v, "trained_on": ";".join(sorted(train["vendor"].unique())), "n_train": len(train),
            "cell": test["cell"], "phase": test["phase"], "statistic": test["statistic"], "worker_class": test["worker_class"],
            "vantage": test["vantage"], "record_ids": test["record_ids"], "observed": test["iops_per_desktop"],
            "predicted": p["estimate"], "pi90_low": p["pi90_low"], "pi90_high": p["pi90_high"]}))
    cv = pd.concat(rows, ignore_index=True)
    cv["predicted"] = cv["predicted"].astype(float)
    cv["log_error"] = np.log(cv["predicted"]) - np.log(cv["observed"])
    cv["covered"] = np.where(cv["predicted"].isna(), np.nan, (cv["observed"] >= cv["pi90_low"]) & (cv["observed"] <= cv["pi90_high"]))
    cv["spec"] = spec
    return cv


def cv_summary(cv: pd.DataFrame) -> dict:
    """n (observations), n_predicted (estimable), rmse_log (root mean squared ln error),
    median_factor (median of exp|ln error|), coverage (share of predicted observations inside
    their 90 % PI), median_sharpness (median pi90_high / pi90_low). For choosing a spec; the
    report shows ``cv_by_vendor`` instead (a pooled figure can hide vacuous intervals)."""
    p = cv[cv["predicted"].notna()]
    e = p["log_error"]
    return {"spec": cv["spec"].iloc[0], "n": len(cv), "n_predicted": len(p),
            "rmse_log": float(np.sqrt((e ** 2).mean())) if len(p) else np.nan,
            "median_factor": float(np.exp(e.abs().median())) if len(p) else np.nan,
            "coverage": float(p["covered"].astype(bool).mean()) if len(p) else np.nan,
            "median_sharpness": float((p["pi90_high"] / p["pi90_low"]).median()) if len(p) else np.nan}


VACUOUS_SHARPNESS = 10.0  # a 90 % interval whose ends differ by more than 10x does not guide a purchase


def cv_by_vendor(cv: pd.DataFrame) -> pd.DataFrame:
    """Leave-one-vendor-out result per held-out vendor (no all-vendor summary).

    Columns: held_out, trained_on, n_obs, n_predicted, median_error_factor (median of
    exp|ln predicted - ln observed|), n_covered, coverage (n_covered / n_predicted), sharpness
    (median pi90_high / pi90_low of its predictions), max_sharpness, vacuous (sharpness >
    ``VACUOUS_SHARPNESS``: the interval is too wide to inform a purchase, so its coverage says
    little), cells (the cells held out). Vendors with nothing estimable keep a row of NaN.
    """
    rows = []
    for v, g in cv.groupby("held_out", sort=True):
        p = g[g["predicted"].notna()]
        sharp = p["pi90_high"] / p["pi90_low"]
        rows.append({"held_out": v, "trained_on": g["trained_on"].iloc[0], "n_obs": len(g), "n_predicted": len(p),
                     "median_error_factor": float(np.exp(p["log_error"].abs().median())) if len(p) else np.nan,
                     "n_covered": int(p["covered"].astype(bool).sum()),
                     "coverage": float(p["covered"].astype(bool).mean()) if len(p) else np.nan,
                     "sharpness": float(sharp.median()) if len(p) else np.nan,
                     "max_sharpness": float(sharp.max()) if len(p) else np.nan,
                     "vacuous": bool(sharp.median() > VACUOUS_SHARPNESS) if len(p) else False,
                     "cells": ", ".join(sorted(set(g["cell"])))})
    return pd.DataFrame(rows)


def compare_specs(obs: pd.DataFrame, specs=tuple(SPECS)) -> pd.DataFrame:
    """One row per spec: n_params, aic, bic, adj_r2 (in-sample), and the leave-one-vendor-out
    n_predicted, rmse_log, median_factor, coverage, median_sharpness (``cv_summary``). A spec
    that cannot be fitted to all observations is listed with NaN criteria."""
    rows = []
    for s in specs:
        try:
            m = fit(obs, s)
        except ValueError:
            rows.append({"spec": s, "n": len(obs)})
            continue
        rows.append({**cv_summary(leave_one_vendor_out(obs, s)), "n_params": len(m.kept), "aic": m.result.aic,
                     "bic": m.result.bic, "adj_r2": m.result.rsquared_adj})
    cols = ["spec", "n_params", "aic", "bic", "adj_r2", "n", "n_predicted", "rmse_log", "median_factor", "coverage",
            "median_sharpness"]
    return pd.DataFrame(rows).reindex(columns=cols)


def choose_spec(specs: pd.DataFrame) -> str:
    """The specification the criteria of ``compare_specs`` prefer: the most held-out
    observations predicted, then the lowest leave-one-vendor-out RMSE (ln), then the lowest AIC.
    Raises ValueError when no spec could be fitted."""
    s = specs.dropna(subset=["aic"])
    if s.empty:
        raise ValueError("no model specification could be fitted to the observations")
    s = s.assign(_np=-s["n_predicted"].fillna(0), _e=s["rmse_log"].fillna(np.inf))
    return str(s.sort_values(["_np", "_e", "aic"]).iloc[0]["spec"])


def bounds_sensitivity(results: pd.DataFrame, spec: str = DEFAULT_SPEC) -> pd.DataFrame:
    """Refit under each treatment of bounds; columns: treatment, n_obs, phase, worker_class,
    statistic, estimate, pi90_low, pi90_high (IOPS per desktop; the reference class, or the
    pooled row)."""
    out = []
    for name, kw in {"exclude lt/gt, approx at midpoint (main)": {}, "approx at low end": {"approx": "low"},
                     "approx at high end": {"approx": "high"}, "lt/gt at printed bound": {"bounded": "at_bound"}}.items():
        o = observations(results, **kw)
        g = predict_grid(fit(o, spec), results)
        g = g[g["worker_class"].isin([REFERENCE_CLASS, ANY_CLASS])].assign(treatment=name, n_obs=len(o))
        out.append(g[["treatment", "n_obs", "phase", "worker_class", "statistic", "estimate", "pi90_low", "pi90_high"]])
    return pd.concat(out, ignore_index=True)


def derived_totals(results: pd.DataFrame) -> pd.DataFrame:
    """Total IOPS derived as read + write IOPS where a test reports both but no total at that
    vantage and statistic (e.g. the external documents). Rows shaped like results.csv rows of
    metric ``iops`` with ``per_desktop``; record_id ``<read id>+<write id>``; kind ``derived``.
    An average of a sum is the sum of the averages (bound as reported); separate peaks need not
    coincide, so their sum bounds the total peak from above (bound ``lt``)."""
    rw = results[results["metric"].isin(["read_iops", "write_iops"]) & results["statistic"].isin(["peak", "average"])]
    keys = ["source_id", "test_id", "phase", "statistic", "vantage", "condition", "variant", "configuration", "worker_class"]
    have = set(map(tuple, results.loc[results["metric"] == "iops", keys].to_numpy()))
    rows = []
    for k, g in rw.groupby(keys, sort=True):
        if k in have or set(g["metric"]) != {"read_iops", "write_iops"}:
            continue
        rd, wr = g[g["metric"] == "read_iops"].iloc[0], g[g["metric"] == "write_iops"].iloc[0]
        x = rd.copy()
        x["metric"], x["value"] = "iops", rd["value"] + wr["value"]
        x["record_id"] = f"{rd['record_id']}+{wr['record_id']}"
        x["bound"] = "lt" if x["statistic"] == "peak" else ("approx" if "approx" in (rd["bound"], wr["bound"]) else rd["bound"])
        x["per_desktop"] = x["value"] / x["desktops"]
        x["per_desktop_low"] = x["per_desktop_high"] = x["per_desktop"]
        x["used_in_analysis"] = bool(rd["used_in_analysis"] and wr["used_in_analysis"])
        x["kind"] = "derived"
        rows.append(x)
    cols = list(dict.fromkeys(list(results.columns) + ["per_desktop", "per_desktop_low", "per_desktop_high", "kind"]))
    return pd.DataFrame(rows, columns=cols)


EXTERNAL_COLUMNS = ["source_id", "vendor", "broker", "load_tool", "guest_os", "platform", "test_id", "configuration", "variant",
                    "cell", "worker_class", "observed", "bound", "predicted", "pi90_low", "pi90_high", "ratio", "covered",
                    "record_ids"]


def external_check(results: pd.DataFrame, model: IopsModel, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """Out-of-sample check on the external sources (sources.csv ``role = external``).

    Their per-desktop figures pass the same semantics and exclusions as the seeds' (a total
    derived as read + write where they report no total: ``derived_totals``) and are predicted
    by ``model`` (fitted to the seeds only), one row per external test run and cell, labelled by
    how the source differs. Columns ``EXTERNAL_COLUMNS``: observed, predicted, pi90_low,
    pi90_high in IOPS per desktop; bound (``lt``: the observed figure is an upper bound, e.g. a
    sum of separate read and write peaks); ratio (observed / predicted); covered (observed
    inside the 90 % PI; for an upper bound, whether the interval starts below it). Zero rows
    when no external source has a usable figure.
    """
    from ..raw import sources
    s = (sources.load_sources() if sources_df is None else sources_df).set_index("source_id")
    ext_ids = set(s.index[s["role"] == "external"])
    r = results[results["source_id"].isin(ext_ids)]
    if r.empty:
        return pd.DataFrame(columns=EXTERNAL_COLUMNS)
    c = candidate_records(pd.concat([results, derived_totals(r)], ignore_index=True), sources_df)
    c = c[(c["role"] == "external") & (c["reason"] == "") & c["cell"].isin(CELL_ORDER) & c["bound"].isin(["eq", "approx", "lt"])]
    if c.empty:
        return pd.DataFrame(columns=EXTERNAL_COLUMNS)
    c = c.assign(_vp=c["vantage"].map(VANTAGE_PREFERENCE.index)).sort_values(["_vp", "record_id"])
    c = c.drop_duplicates(["source_id", "test_id", "configuration", "variant", "cell"])
    c = c.assign(_y=c["iops_per_desktop"].round(6)).drop_duplicates(["source_id", "configuration", "variant", "cell", "_y"])  # one figure in two tables
    g = grid(results, WORKER_CLASSES if model.spec in WORKLOAD_SPECS else (ANY_CLASS,))
    cls = c["worker_class"].where(c["worker_class"].isin(g["worker_class"]), ANY_CLASS) if model.spec in WORKLOAD_SPECS else ANY_CLASS
    new = c.assign(worker_class=cls)[["cell", "worker_class"]].merge(g, on=["cell", "worker_class"], how="left")
    p = model.predict(new.set_index(c.index))
    out = pd.DataFrame({"source_id": c["source_id"], "vendor": c["vendor"], "test_id": c["test_id"], "configuration": c["configuration"],
                        "variant": c["variant"], "cell": c["cell"], "worker_class": c["worker_class"], "observed": c["iops_per_desktop"],
                        "bound": c["bound"], "predicted": p["estimate"], "pi90_low": p["pi90_low"], "pi90_high": p["pi90_high"],
                        "record_ids": c["record_id"]})
    for col in ("broker", "load_tool", "guest_os", "platform"):
        out[col] = out["source_id"].map(s[col])
    out["ratio"] = out["observed"] / out["predicted"]
    inside = (out["observed"] >= out["pi90_low"]) & (out["observed"] <= out["pi90_high"])
    out["covered"] = np.where(out["bound"] == "lt", out["pi90_low"] <= out["observed"], inside)
    return out[EXTERNAL_COLUMNS].sort_values(["source_id", "cell", "test_id"]).reset_index(drop=True)


BOUND_VERDICTS = ("yes", "no", "consistent", "uninformative")


def bound_verdict(observed: float, bound: str, low: float, high: float) -> tuple[str, str]:
    """What an observed figure says about an interval ``low``–``high`` (same unit), given its
    bound (``eq``/``approx``: a value; ``lt``: an upper bound, the true figure is at most
    ``observed``; ``gt``: a lower bound, at least ``observed``).

    Returns ``(verdict, where)``: ``where`` is ``inside``, ``above`` or ``below`` the interval;
    ``verdict`` is ``yes``/``no`` for a value (inside or not), and for a bound ``consistent``
    (the bound lies inside the interval), ``no`` (the bound excludes the whole interval: an upper
    bound below it, a lower bound above it) or ``uninformative`` (an upper bound above the
    interval, or a lower bound below it, cannot contradict it). Raises ValueError on another
    bound or a missing number.
    """
    if any(pd.isna(x) for x in (observed, low, high)):
        raise ValueError(f"bound_verdict needs observed, low and high, got {observed!r}, {low!r}, {high!r}")
    where = "inside" if low <= observed <= high else ("above" if observed > high else "below")
    if bound in ("eq", "approx", ""):
        return ("yes" if where == "inside" else "no"), where
    if bound not in ("lt", "gt"):
        raise ValueError(f"bound_verdict: unknown bound {bound!r} (expected eq, approx, lt or gt)")
    if where == "inside":
        return "consistent", where
    excludes = (bound == "lt" and where == "below") or (bound == "gt" and where == "above")
    return ("no" if excludes else "uninformative"), where


def bound_verdict_words(observed: float, bound: str, low: float, high: float) -> str:
    """``bound_verdict`` in words for a table cell or prose, e.g. ``uninformative: an upper bound
    above the interval cannot contradict it`` or ``no: above the interval``."""
    verdict, where = bound_verdict(observed, bound, low, high)
    kind = {"lt": "an upper bound", "gt": "a lower bound"}.get(bound)
    if kind is None:
        return "yes" if verdict == "yes" else f"no: {where} the interval"
    if verdict == "consistent":  # not a confirmation: a bound inside the interval only fails to contradict it
        return f"not contradicted: {kind} inside the interval"
    if verdict == "uninformative":
        return f"uninformative: {kind} {where} the interval (cannot contradict it)"
    return f"no: {kind} {where} the interval"


def document_labels(sources_df: pd.DataFrame) -> dict[str, str]:
    """{source_id: readable name}: the vendor with the document number of ``sources.csv``
    (``Nutanix RA-2022``), the vendor alone when the document has no number."""
    num = sources_df.get("document_number", pd.Series("", index=sources_df.index)).fillna("").astype(str).str.strip()
    # a number is a short code (TR-4540, RA-2022); a title pasted into the column is not one
    num = num.where(num.str.fullmatch(r"[A-Za-z]{1,6}-?\d[\w.-]{0,12}"), "")
    return {sid: f"{v} {n}".strip() for sid, v, n in zip(sources_df["source_id"], sources_df["vendor"], num)}


def rules_of_thumb(results: pd.DataFrame, pred: pd.DataFrame) -> pd.DataFrame:
    """The documents' per-desktop IOPS rules (results.csv, phase ``sizing``, metric
    ``iops_per_desktop``) beside the model's steady-state average and login peak (the rule's
    class, or the pooled row ``any`` when the model cannot separate classes).

    Columns: vendor, record_id, worker_class, compared_class, rule_value, rule_low, rule_high,
    bound, steady_avg, steady_pi90_low, steady_pi90_high, login_peak, login_pi90_low,
    login_pi90_high (IOPS per desktop), verdict (rule inside, above or below the
    steady-state-average 90 % PI; ``not modelled`` for a class outside Login VSI), audit.
    """
    r = results[(results["phase"] == "sizing") & (results["metric"] == "iops_per_desktop")]
    r = r.drop_duplicates(["vendor", "value", "value_high", "bound", "worker_class"]).sort_values(["vendor", "record_id"])
    p = pred.set_index(["phase", "worker_class", "statistic"])
    # Boot rows are always pooled (boot storms are workload-independent): look at the other phases.
    pooled = ANY_CLASS in set(pred.loc[pred["phase"] != "boot", "worker_class"])
    missing = pd.Series({"estimate": np.nan, "pi90_low": np.nan, "pi90_high": np.nan})

    def cell(phase, wc, stat):
        return p.loc[(phase, wc, stat)] if (phase, wc, stat) in p.index else missing

    rows = []
    for _, x in r.iterrows():
        cls = x["worker_class"] if x["worker_class"] else REFERENCE_CLASS
        lo, hi = x["value_low"], x["value_high"]
        use = ANY_CLASS if pooled else cls
        row = {"vendor": x["vendor"], "record_id": x["record_id"], "worker_class": x["worker_class"] or "not stated",
               "compared_class": use if cls in WORKER_CLASSES else "", "rule_low": lo, "rule_high": hi,
               "rule_value": x["value"], "bound": x["bound"], "audit": x["resolution"]}
        if cls in WORKER_CLASSES:
            s, lp = cell("steady_state", use, "average"), cell("login", use, "peak")
            row.update(steady_avg=s["estimate"], steady_pi90_low=s["pi90_low"], steady_pi90_high=s["pi90_high"],
                       login_peak=lp["estimate"], login_pi90_low=lp["pi90_low"], login_pi90_high=lp["pi90_high"])
            if pd.isna(s["pi90_high"]):
                row["verdict"] = "model not estimable"
            elif lo > s["pi90_high"]:
                row["verdict"] = "above the 90 % PI"
            elif hi < s["pi90_low"]:
                row["verdict"] = "below the 90 % PI"
            else:
                row["verdict"] = "inside the 90 % PI"
        else:
            row["verdict"] = "not modelled (not a Login VSI class)"
        rows.append(row)
    return pd.DataFrame(rows)


def prediction_chart(pred: pd.DataFrame, obs: pd.DataFrame):
    """Altair chart: model estimate and 90 % PI per cell (log scale), with the observations
    (IOPS per desktop, colour = vendor) as crosses."""
    import altair as alt

    from ..report.charts import log_ticks, vendor_scale
    pooled = ANY_CLASS in set(pred["worker_class"])
    p = pred.assign(label=(pred["phase"] + " " + pred["statistic"]).str.replace("_", " ") + " · " + pred["worker_class"])
    o = obs.assign(label=(obs["phase"] + " " + obs["statistic"]).str.replace("_", " ") + " · " + (ANY_CLASS if pooled else obs["worker_class"]))
    lo = float(min(p["pi90_low"].min(), o["iops_per_desktop"].min()) * 0.8)
    hi = float(max(p["pi90_high"].max(), o["iops_per_desktop"].max()) * 1.2)
    sc = alt.Scale(type="log", domain=[lo, hi])
    y = alt.Y("label:N", title=None, sort=list(p["label"]), axis=alt.Axis(labelLimit=400))
    bars = alt.Chart(p).mark_rule(strokeWidth=2, color="#999").encode(
        x=alt.X("pi90_low:Q", scale=sc, title="IOPS per desktop (log scale)", axis=alt.Axis(values=log_ticks(lo, hi, nice=False), format=",~g")),
        x2="pi90_high:Q", y=y)
    pts = alt.Chart(p).mark_point(filled=True, size=50, color="black").encode(
        x=alt.X("estimate:Q", scale=sc), y=y, tooltip=["phase", "statistic", "worker_class", alt.Tooltip("estimate:Q", format=".1f"),
                                                       alt.Tooltip("pi90_low:Q", format=".1f"), alt.Tooltip("pi90_high:Q", format=".1f")])
    ob = alt.Chart(o).mark_point(shape="cross", size=70, filled=True).encode(
        x=alt.X("iops_per_desktop:Q", scale=sc), y=y, color=alt.Color("vendor:N", scale=vendor_scale(o["vendor"]), title="Observed"),
        tooltip=["vendor", "phase", "statistic", "worker_class", "vantage", alt.Tooltip("iops_per_desktop:Q", format=".1f"), "record_ids"])
    # no title: the report's caption names the marks (estimate dot, interval bar, observation crosses)
    return alt.layer(bars, pts, ob).properties(width=420, height=160)


def cv_chart(cv: pd.DataFrame):
    """Altair chart: leave-one-vendor-out predictions (with 90 % PI) against the observed
    IOPS per desktop, log-log, one colour per held-out vendor; the diagonal is a perfect fit."""
    import altair as alt

    from ..report.charts import vendor_scale
    d = cv[cv["predicted"].notna()]
    lim = [float(min(d["observed"].min(), d["pi90_low"].min()) * 0.8), float(max(d["observed"].max(), d["pi90_high"].max()) * 1.2)]
    sc = alt.Scale(type="log", domain=lim)
    diag = alt.Chart(pd.DataFrame({"x": lim, "y": lim})).mark_line(color="#bbb", strokeDash=[4, 4]).encode(x=alt.X("x:Q", scale=sc), y=alt.Y("y:Q", scale=sc))
    base = alt.Chart(d).encode(x=alt.X("observed:Q", scale=sc, title="observed IOPS per desktop"),
                               color=alt.Color("held_out:N", scale=vendor_scale(d["held_out"]), title="Held-out vendor"))
    rules = base.mark_rule(opacity=0.6).encode(y=alt.Y("pi90_low:Q", scale=sc, title="predicted from the other vendors"), y2="pi90_high:Q")
    pts = base.mark_point(filled=True, size=60).encode(
        y=alt.Y("predicted:Q", scale=sc), shape=alt.Shape("phase:N", title="Phase"),
        tooltip=["held_out", "phase", "statistic", "worker_class", alt.Tooltip("observed:Q", format=".1f"),
                 alt.Tooltip("predicted:Q", format=".1f"), alt.Tooltip("pi90_low:Q", format=".1f"), alt.Tooltip("pi90_high:Q", format=".1f")])
    return (diag + rules + pts).properties(width=380, height=300, title="Leave-one-vendor-out: predicted vs observed (90 % PI)")


def io_profile(results: pd.DataFrame) -> pd.DataFrame:
    """Read share and implied I/O size per vendor, test and statistic (derived).

    read_share = read IOPS / (read + write IOPS) where both are reported for the same test,
    statistic and vantage; kb_per_io = throughput (MB/s, decimal) x 10^6 / IOPS / 1024 (KB,
    binary, see units.py) where both are reported for the same test, statistic and vantage.
    Normal condition, records used in the analysis, sources of every role (``role`` says which:
    only seeds may be pooled). Columns: source_id, role, vendor, test_id, phase, statistic,
    vantage, read_share, kb_per_io, records.
    """
    from .semantics import observation_semantics

    r = results[results["used_in_analysis"] & (results["condition"] != "failover") & (results["test_id"] != "")
                & results["statistic"].isin(["peak", "average"])]
    r = r.assign(role=observation_semantics(r)["role"].to_numpy())
    # test ids are unique within a source only: the source is part of the key
    keys = ["source_id", "role", "vendor", "test_id", "phase", "statistic", "vantage"]
    pick = r[r["metric"].isin(["iops", "read_iops", "write_iops", "throughput"])].sort_values("record_id")
    pick = pick.drop_duplicates(keys + ["metric"])
    w = pick.pivot_table(index=keys, columns="metric", values="value", aggfunc="first")
    ids = pick.groupby(keys)["record_id"].agg(" ".join)
    w = w.reindex(columns=["iops", "read_iops", "write_iops", "throughput"])
    out = pd.DataFrame({"read_share": w["read_iops"] / (w["read_iops"] + w["write_iops"]),
                        "kb_per_io": w["throughput"] * 1e6 / w["iops"] / 1024, "records": ids}).reset_index()
    return out.dropna(subset=["read_share", "kb_per_io"], how="all").sort_values(["vendor", "test_id", "statistic"]).reset_index(drop=True)


def class_vendors(obs: pd.DataFrame) -> str:
    """How many vendors observed each worker class, e.g. ``knowledge: 1 vendor, office: 1 vendor``."""
    n = obs.groupby("worker_class")["vendor"].nunique()
    return ", ".join(f"{c}: {k} vendor{'s' if k > 1 else ''}" for c, k in n.items())


PLANNING_COLUMNS = ["phase", "worker_class", "statistic", "estimate", "pi90_low", "pi90_high", "interval_kind", "unit",
                    "n_obs", "n_vendors", "vendors", "spec", "boot_rate_per_min", "io_per_boot", "read_share", "io_size_kb",
                    "latency_ms", "read_share_vendors", "io_size_vendors", "latency_vendors", "identifiable"]


def planning_table(pred: pd.DataFrame, obs: pd.DataFrame, boot_model: pd.DataFrame, chars: pd.DataFrame) -> pd.DataFrame:
    """The planning table ``iops_per_desktop_model.csv``: columns ``PLANNING_COLUMNS``.

    Rows: the IOPS model's predictions (``predict_grid``: login peak, steady-state average,
    login + steady-state test average; unit IOPS per desktop; 90 % PI) and the boot-rate model
    (``boot.rate_model``: ``peak_per_rate`` in IOPS per desktop booted per minute, ``io_per_boot``
    in I/O per desktop boot; their interval is the documents' range when too few for a PI,
    ``interval_kind`` says which). n_vendors / vendors: the documents behind the row.
    read_share, io_size_kb, latency_ms: ``scenario.io_characteristics`` of the row's phase
    (login_and_steady_state rows take the whole tests' own, steady state's when ``chars`` has no
    such row), with the vendors behind each
    (read_share_vendors, io_size_vendors, latency_vendors: comma-separated). identifiable: what
    the row can and cannot tell (e.g. the worker class is pooled).
    """
    rows = []
    ch = chars.set_index("phase")
    pooled = ANY_CLASS in set(pred["worker_class"])
    for _, p in pred.iterrows():
        o = obs[obs["cell"] == p["cell"]]
        vendors = sorted(set(o["vendor"]))
        note = (f"worker classes pooled ({class_vendors(obs)}): with so few vendors per class the class effect "
                "cannot be separated from the vendor effect" if pooled else f"worker class {p['worker_class']}")
        rows.append({"phase": p["phase"], "worker_class": p["worker_class"], "statistic": p["statistic"],
                     "estimate": p["estimate"], "pi90_low": p["pi90_low"], "pi90_high": p["pi90_high"],
                     "interval_kind": f"90 % prediction interval ({p['spec']} OLS on ln)", "unit": "IOPS per desktop",
                     "n_obs": len(o), "n_vendors": len(vendors), "vendors": ", ".join(vendors), "spec": p["spec"],
                     "identifiable": note})
    for _, b in boot_model.iterrows():
        rows.append({"phase": "boot", "worker_class": b["worker_class"], "statistic": b["statistic"], "estimate": b["estimate"],
                     "pi90_low": b["pi90_low"], "pi90_high": b["pi90_high"], "interval_kind": b["interval_kind"],
                     "unit": "IOPS per (desktop booted per minute)" if b["statistic"] == "peak_per_rate" else "I/O per desktop boot",
                     "n_obs": b["n_vendors"], "n_vendors": b["n_vendors"], "vendors": b["vendors"], "spec": "boot rate",
                     "boot_rate_per_min": b["boot_rate_per_min"], "io_per_boot": b["io_per_boot"],
                     "identifiable": "no user session during boot: one row for every worker class; demand scales with the boot rate"})
    t = pd.DataFrame(rows)
    key = t["phase"] if "login_and_steady_state" in ch.index else t["phase"].replace("login_and_steady_state", "steady_state")
    for c in ("read_share", "io_size_kb", "latency_ms"):
        t[c] = key.map(ch[c]) if c in ch else np.nan
    for c in ("read_share_vendors", "io_size_vendors", "latency_vendors"):
        t[c] = key.map(ch[c]).fillna("") if c in ch else ""
    return t.reindex(columns=PLANNING_COLUMNS)


def observation_context(obs: pd.DataFrame, storms: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """What each observation behind the planning table was measured with: per observation of
    the IOPS model and per seed boot storm, the source's broker, load tool (Login VSI version),
    guest OS, clone type and platform (sources.csv). Columns: vendor, what (cell, or boot storm),
    worker_class, value (IOPS per desktop, or IOPS per desktop booted per minute), bound (of the
    value: ``eq`` for a model observation, the boot storm's ``peak_per_rate_bound``), low and high
    (a model observation's printed range, e.g. "between 3 and 4"), records,
    broker, load_tool, guest_os, clone_type, platform."""
    from ..raw import sources
    s = (sources.load_sources() if sources_df is None else sources_df).set_index("source_id")
    a = pd.DataFrame({"source_id": obs["source_id"], "vendor": obs["vendor"], "what": obs["cell"], "worker_class": obs["worker_class"],
                      "value": obs["iops_per_desktop"], "low": obs["low"], "high": obs["high"], "bound": "eq",
                      "records": obs["record_ids"]})
    st = storms[storms["role"] == "seed"]
    b = pd.DataFrame({"source_id": st["source_id"], "vendor": st["vendor"], "what": "boot storm (peak IOPS per desktop/min)",
                      "worker_class": "any", "value": st["peak_iops_per_rate"],
                      "bound": st["peak_per_rate_bound"].replace("", "eq"),
                      "records": (st["peak_record"].fillna("") + " " + st["duration_record"]).str.strip()})
    out = pd.concat([a, b], ignore_index=True)
    for c in ("broker", "load_tool", "guest_os", "clone_type", "platform"):
        out[c] = out["source_id"].map(s[c])
    return out.drop(columns="source_id")
