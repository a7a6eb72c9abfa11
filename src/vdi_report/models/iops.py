"""Per-desktop IOPS model: log(IOPS per desktop) ~ phase, statistic and worker intensity (OLS/WLS).

Pipeline: ``candidate_records`` (every IOPS record with the reason it is or is not used) ->
``observations`` (one row per vendor x phase x statistic x worker class) -> ``fit`` (statsmodels)
-> ``predict_grid`` (the table ``iops_per_desktop_model.csv``) and ``leave_one_vendor_out``.

Modelling choices (justified in notebooks/04_iops_model.py):
- Phases: ``boot``, ``login`` (a ``login_and_steady_state`` test is counted as login: its peak is
  the login storm's; its average covers login plus steady state) and ``steady_state``.
- Worker class enters as one number, ``workload`` = log(Login VSI IOPS of the class / Login VSI
  IOPS of a knowledge worker), from the Login VSI workload table quoted by AccelStor (records of
  phase ``sizing`` in results.csv, never typed here). Boot has no user session, so its workload
  is 0 and its prediction is the same for every class.
- Bounds: ``lt``/``gt`` values are excluded from the fit (``bounded="exclude"``, the default);
  ranges and ``approx`` values enter at their interval midpoint. ``bounds_sensitivity`` refits
  with the other choices.
- Hitachi's pooled numbers (400 task + 180 extreme power = ``mixed``) are used only for boot,
  where the workload does not matter, always divided by all 580 desktops; extreme power is not a
  Login VSI class and is kept out of the fit.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import patsy
import statsmodels.api as sm

from ..normalize import VANTAGE_PREFERENCE

MODEL_PHASES = {"boot": "boot", "login": "login", "login_and_steady_state": "login", "steady_state": "steady_state"}
PHASES = ("boot", "login", "steady_state")
STATISTICS = ("peak", "average")
WORKER_CLASSES = ("task", "office", "knowledge", "power")  # Login VSI terms
REFERENCE_CLASS = "knowledge"
SPECS = {
    "additive": "log_iops ~ C(phase, levels=PHASES) + C(statistic, levels=STATISTICS) + workload",
    "interaction": "log_iops ~ 0 + C(phase, levels=PHASES):C(statistic, levels=STATISTICS) + workload",
    "no_workload": "log_iops ~ C(phase, levels=PHASES) + C(statistic, levels=STATISTICS)",
    "vantage": "log_iops ~ C(phase, levels=PHASES) + C(statistic, levels=STATISTICS) + workload + C(vantage)",
    "vsi_offset": "log_iops_vsi ~ C(phase, levels=PHASES) + C(statistic, levels=STATISTICS)",
}
# Specs whose response is log_iops - workload: IOPS per desktop proportional to Login VSI's
# table across classes (slope fixed at 1); predictions add the workload back.
OFFSET_SPECS = {"vsi_offset"}
DEFAULT_SPEC = "additive"
PI_ALPHA = 0.10  # 90 % prediction intervals
CI_ALPHA = 0.05  # 95 % confidence intervals


def login_vsi_weights(results: pd.DataFrame) -> dict[str, float]:
    """Login VSI's IOPS per desktop of each worker class (task, office, knowledge, power).

    Read from results.csv: phase ``sizing``, metric ``iops_per_desktop``, source
    ``accelstor_p710`` (the Login VSI workload table AccelStor reprints). Raises ValueError
    when a class is missing.
    """
    r = results[(results["phase"] == "sizing") & (results["metric"] == "iops_per_desktop")
                & (results["source_id"] == "accelstor_p710") & (results["statistic"] == "single")
                & results["worker_class"].isin(WORKER_CLASSES) & results["used_in_analysis"]]
    w = r.groupby("worker_class")["value"].first().to_dict()
    missing = [c for c in WORKER_CLASSES if c not in w]
    if missing:
        raise ValueError(f"Login VSI workload table lacks {missing} (expected in accelstor_p710 sizing records)")
    return {c: float(w[c]) for c in WORKER_CLASSES}


def workload_score(worker_class: pd.Series, phase: pd.Series, weights: dict[str, float]) -> pd.Series:
    """log(weight[class] / weight[knowledge]) for login and steady state; 0 for boot."""
    ref = weights[REFERENCE_CLASS]
    score = worker_class.map(lambda c: np.log(weights[c] / ref) if c in weights else np.nan)
    return score.where(phase != "boot", 0.0)


def _reason(r) -> str:
    if not r["used_in_analysis"]:
        return "not used in analysis (audit)"
    if r["phase"] not in MODEL_PHASES:
        return f"phase {r['phase']} not modelled"
    if r["statistic"] not in STATISTICS:
        return f"statistic {r['statistic']} (not peak or average)"
    if r["condition"] == "failover":
        return "failover (one controller down): not a demand measurement"
    if r["variant"] == "tuesday":
        return "Tuesday login (warm caches); Monday is the design case"
    if r["vantage"] in ("array_backend", "guest"):
        return f"vantage {r['vantage']}: not the desktops' own demand"
    phase = MODEL_PHASES[r["phase"]]
    if phase != "boot" and r["worker_class"] == "mixed":
        return "pooled 400 task + 180 extreme power: no per-class split"
    if phase != "boot" and r["worker_class"] not in WORKER_CLASSES:
        return f"worker class {r['worker_class'] or 'not stated'} is not a Login VSI class"
    return ""


def candidate_records(results: pd.DataFrame) -> pd.DataFrame:
    """Every per-desktop IOPS record, with ``iops_per_desktop`` (and ``_low``/``_high``) and ``reason``.

    Input: results.csv. Rows: metric ``iops`` with a per-desktop figure (value / desktops of the
    test, Hitachi's pool / 580) and metric ``iops_per_desktop`` as printed, outside ``sizing``.
    ``reason`` is empty when the record is eligible; ``bound`` tells whether it is exact.
    Columns added: ``model_phase``, ``iops_per_desktop``, ``iops_per_desktop_low``,
    ``iops_per_desktop_high``, ``reason``.
    """
    r = results[((results["metric"] == "iops") & results["per_desktop"].notna())
                | (results["metric"] == "iops_per_desktop")]
    r = r[r["phase"] != "sizing"].copy()
    direct = r["metric"] == "iops_per_desktop"
    r["iops_per_desktop"] = np.where(direct, r["value"], r["per_desktop"])
    r["iops_per_desktop_low"] = np.where(direct, r["value_low"], r["per_desktop_low"])
    r["iops_per_desktop_high"] = np.where(direct, r["value_high"], r["per_desktop_high"])
    r["model_phase"] = r["phase"].map(MODEL_PHASES).fillna("")
    r["reason"] = r.apply(_reason, axis=1)
    return r.reset_index(drop=True)


def observations(results: pd.DataFrame, bounded: str = "exclude", approx: str = "mid") -> pd.DataFrame:
    """Model observations: one row per vendor x phase x statistic x worker class (boot: class ``any``).

    ``bounded``: ``exclude`` drops lt/gt records, ``at_bound`` uses them at their printed value.
    ``approx``: ``mid``, ``low`` or ``high`` end of the interval of approx values and ranges.
    Within a group the preferred vantage wins (front end, host, port, unstated); repeats of one
    number are counted once; distinct tests (Hitachi's three configurations, AccelStor's 8-hour
    run) are combined by their geometric mean.
    Columns: vendor, source_id, phase, statistic, worker_class, vantage, iops_per_desktop
    (IOPS per desktop), low, high, n_tests, record_ids, workload, log_iops, log_iops_vsi (log_iops - workload).
    Raises ValueError for an unknown ``bounded`` or ``approx``.
    """
    if bounded not in ("exclude", "at_bound") or approx not in ("mid", "low", "high"):
        raise ValueError(f"bounded must be exclude|at_bound and approx mid|low|high, got {bounded!r}, {approx!r}")
    c = candidate_records(results)
    c = c[c["reason"] == ""]
    if bounded == "exclude":
        c = c[~c["bound"].isin(["lt", "gt"])]
    c = c.copy()
    lo, hi = c["iops_per_desktop_low"], c["iops_per_desktop_high"]
    exact_pt = np.where(c["bound"].isin(["lt", "gt"]), c["iops_per_desktop"], np.nan)
    pick = {"mid": (lo + hi) / 2, "low": lo, "high": hi}[approx]
    c["y"] = np.where(np.isnan(exact_pt), pick, exact_pt)
    c["phase"] = c["model_phase"]
    c["worker_class"] = c["worker_class"].where(c["phase"] != "boot", "any")
    c["_vp"] = c["vantage"].map(VANTAGE_PREFERENCE.index)
    keys = ["vendor", "source_id", "phase", "statistic", "worker_class"]
    c = c[c["_vp"] == c.groupby(keys)["_vp"].transform("min")]
    c = c.assign(_y=c["y"].round(6)).drop_duplicates(keys + ["test_id", "_y"])
    g = c.groupby(keys, sort=True)
    obs = g.agg(vantage=("vantage", "first"), iops_per_desktop=("y", lambda s: float(np.exp(np.log(s).mean()))),
                low=("iops_per_desktop_low", "min"), high=("iops_per_desktop_high", "max"),
                n_tests=("test_id", "nunique"), record_ids=("record_id", lambda s: " ".join(sorted(s)))).reset_index()
    obs["workload"] = workload_score(obs["worker_class"], obs["phase"], login_vsi_weights(results))
    obs["log_iops"] = np.log(obs["iops_per_desktop"])
    obs["log_iops_vsi"] = obs["log_iops"] - obs["workload"]
    return obs


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
    env = patsy.EvalEnvironment.capture().with_outer_namespace({"PHASES": list(PHASES), "STATISTICS": list(STATISTICS)})
    y, X = patsy.dmatrices(SPECS[spec], obs, eval_env=env, return_type="dataframe", NA_action="raise")
    return y, X


def _fit_arrays(y: np.ndarray, X: np.ndarray, weights: np.ndarray | None):
    """The one place a regression is estimated (tests patch it to see what CV trains on)."""
    return (sm.WLS(y, X, weights=weights) if weights is not None else sm.OLS(y, X)).fit()


def fit(obs: pd.DataFrame, spec: str = DEFAULT_SPEC, weights: str | None = None) -> IopsModel:
    """Fit ``SPECS[spec]`` to observations (from ``observations``) by OLS, or WLS with
    ``weights="vendor"`` (each vendor's observations weigh 1/n_vendor in total).

    Raises ValueError for an unknown spec or weights, or when there are not more observations
    than estimable coefficients.
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
    """Columns: term, coef (log scale), ci95_low, ci95_high, factor (exp(coef): multiplicative
    effect on IOPS per desktop), factor_low, factor_high, p_value."""
    r = model.result
    ci = np.asarray(r.conf_int(alpha=CI_ALPHA))
    names = [model.design_info.column_names[i] for i in model.kept]
    names = [n.replace("C(phase, levels=PHASES)", "phase").replace("C(statistic, levels=STATISTICS)", "statistic") for n in names]
    return pd.DataFrame({"term": names, "coef": r.params, "ci95_low": ci[:, 0], "ci95_high": ci[:, 1],
                         "factor": np.exp(r.params), "factor_low": np.exp(ci[:, 0]), "factor_high": np.exp(ci[:, 1]),
                         "p_value": r.pvalues})


def grid(results: pd.DataFrame, classes=WORKER_CLASSES) -> pd.DataFrame:
    """Phase x worker class x statistic rows (columns phase, worker_class, statistic, workload)."""
    rows = pd.MultiIndex.from_product([PHASES, classes, STATISTICS], names=["phase", "worker_class", "statistic"]).to_frame(index=False)
    rows["workload"] = workload_score(rows["worker_class"], rows["phase"], login_vsi_weights(results))
    return rows


def predict_grid(model: IopsModel, results: pd.DataFrame) -> pd.DataFrame:
    """The table of ``iops_per_desktop_model.csv``: phase, worker_class, statistic, estimate,
    pi90_low, pi90_high, ci95_low, ci95_high (IOPS per desktop), spec, n_obs.
    A ``vantage`` spec predicts at the array front end."""
    g = grid(results)
    g["vantage"] = "array_frontend"
    p = model.predict(g)
    out = pd.concat([g[["phase", "worker_class", "statistic"]], p], axis=1)
    out["spec"], out["n_obs"] = model.spec, int(model.result.nobs)
    return out[["phase", "worker_class", "statistic", "estimate", "pi90_low", "pi90_high", "ci95_low", "ci95_high", "spec", "n_obs"]]


def leave_one_vendor_out(obs: pd.DataFrame, spec: str = DEFAULT_SPEC, weights: str | None = None) -> pd.DataFrame:
    """Predict each vendor's observations from a model fitted to the other vendors only.

    Columns: held_out (vendor), trained_on (the training vendors, ``;``-joined), n_train, the
    observation's keys (phase, statistic, worker_class, vantage, record_ids), observed,
    predicted, pi90_low, pi90_high (IOPS per desktop), log_error (ln predicted - ln observed;
    NaN when not estimable), covered (observed inside the 90 % PI), spec.
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
            "phase": test["phase"], "statistic": test["statistic"], "worker_class": test["worker_class"],
            "vantage": test["vantage"], "record_ids": test["record_ids"], "observed": test["iops_per_desktop"],
            "predicted": p["estimate"], "pi90_low": p["pi90_low"], "pi90_high": p["pi90_high"]}))
    cv = pd.concat(rows, ignore_index=True)
    cv["log_error"] = np.log(cv["predicted"]) - np.log(cv["observed"])
    cv["covered"] = np.where(cv["predicted"].isna(), np.nan, (cv["observed"] >= cv["pi90_low"]) & (cv["observed"] <= cv["pi90_high"]))
    cv["spec"] = spec
    return cv


def cv_summary(cv: pd.DataFrame) -> dict:
    """n (observations), n_predicted (estimable), rmse_log (root mean squared ln error),
    median_factor (median of exp|ln error|: typical over/under-prediction factor), coverage
    (share of predicted observations inside their 90 % PI)."""
    p = cv[cv["predicted"].notna()]
    e = p["log_error"]
    return {"spec": cv["spec"].iloc[0], "n": len(cv), "n_predicted": len(p),
            "rmse_log": float(np.sqrt((e ** 2).mean())) if len(p) else np.nan,
            "median_factor": float(np.exp(e.abs().median())) if len(p) else np.nan,
            "coverage": float(p["covered"].astype(bool).mean()) if len(p) else np.nan}


def compare_specs(obs: pd.DataFrame, specs=tuple(SPECS)) -> pd.DataFrame:
    """One row per spec: n_params, aic, bic, adj_r2 (in-sample), and the leave-one-vendor-out
    n_predicted, rmse_log, median_factor, coverage (``cv_summary``)."""
    rows = []
    for s in specs:
        m = fit(obs, s)
        rows.append({**cv_summary(leave_one_vendor_out(obs, s)), "n_params": len(m.kept), "aic": m.result.aic,
                     "bic": m.result.bic, "adj_r2": m.result.rsquared_adj})
    return pd.DataFrame(rows)[["spec", "n_params", "aic", "bic", "adj_r2", "n", "n_predicted", "rmse_log", "median_factor", "coverage"]]


def bounds_sensitivity(results: pd.DataFrame, spec: str = DEFAULT_SPEC) -> pd.DataFrame:
    """Refit under each treatment of bounds; columns: treatment, n_obs, phase, worker_class,
    statistic, estimate, pi90_low, pi90_high (knowledge worker; IOPS per desktop)."""
    out = []
    for name, kw in {"exclude lt/gt, approx at midpoint (main)": {}, "approx at low end": {"approx": "low"},
                     "approx at high end": {"approx": "high"}, "lt/gt at printed bound": {"bounded": "at_bound"}}.items():
        o = observations(results, **kw)
        g = predict_grid(fit(o, spec), results)
        g = g[g["worker_class"] == REFERENCE_CLASS].assign(treatment=name, n_obs=len(o))
        out.append(g[["treatment", "n_obs", "phase", "worker_class", "statistic", "estimate", "pi90_low", "pi90_high"]])
    return pd.concat(out, ignore_index=True)


def rules_of_thumb(results: pd.DataFrame, pred: pd.DataFrame) -> pd.DataFrame:
    """The documents' per-desktop IOPS rules (results.csv, phase ``sizing``, metric
    ``iops_per_desktop``) beside the model's steady-state average and login peak for the class.

    Columns: vendor, record_id, rule (value with bound), rule_low, rule_high, worker_class,
    compared_class, steady_avg, steady_avg_pi90 (text), login_peak, verdict (rule inside, above
    or below the steady-state-average 90 % PI; ``not modelled`` for extreme power), audit (the
    audit's resolution; rules are shown even when the audit keeps them out of the analysis).
    """
    r = results[(results["phase"] == "sizing") & (results["metric"] == "iops_per_desktop")]
    r = r.drop_duplicates(["vendor", "value", "value_high", "bound", "worker_class"]).sort_values(["vendor", "record_id"])
    p = pred.set_index(["phase", "worker_class", "statistic"])
    rows = []
    for _, x in r.iterrows():
        cls = x["worker_class"] if x["worker_class"] else REFERENCE_CLASS
        lo, hi = x["value_low"], x["value_high"]
        row = {"vendor": x["vendor"], "record_id": x["record_id"], "worker_class": x["worker_class"] or "not stated",
               "compared_class": cls if cls in WORKER_CLASSES else "", "rule_low": lo, "rule_high": hi,
               "rule_value": x["value"], "bound": x["bound"], "audit": x["resolution"]}
        if cls in WORKER_CLASSES:
            s, lp = p.loc[("steady_state", cls, "average")], p.loc[("login", cls, "peak")]
            row.update(steady_avg=s["estimate"], steady_pi90_low=s["pi90_low"], steady_pi90_high=s["pi90_high"],
                       login_peak=lp["estimate"], login_pi90_low=lp["pi90_low"], login_pi90_high=lp["pi90_high"])
            if lo > s["pi90_high"]:
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
    """Altair chart: model estimate and 90 % PI per phase, class and statistic (log scale), with
    the observations (IOPS per desktop) as crosses. Boot is the same for every class."""
    import altair as alt

    from ..charts import vendor_scale
    p = pred.assign(label=pred["phase"].str.replace("_", " ") + " · " + pred["worker_class"])
    o = obs.assign(label=obs["phase"].str.replace("_", " ") + " · " + obs["worker_class"].replace("any", "all classes"))
    o = o[o["worker_class"].isin(list(WORKER_CLASSES) + ["any"])]
    o = pd.concat([o[o["worker_class"] != "any"]] + [o[o["worker_class"] == "any"].assign(
        label=f"boot · {c}") for c in WORKER_CLASSES], ignore_index=True)
    order = [f"{ph.replace('_', ' ')} · {c}" for ph in PHASES for c in WORKER_CLASSES]
    lo = float(min(p["pi90_low"].min(), o["iops_per_desktop"].min()) * 0.8)
    hi = float(max(p["pi90_high"].max(), o["iops_per_desktop"].max()) * 1.2)
    x_scale = alt.Scale(type="log", domain=[lo, hi])

    def panel(stat: str, show_labels: bool):
        ps, os_ = p[p["statistic"] == stat], o[o["statistic"] == stat]
        y = alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labels=show_labels))
        x = alt.X("pi90_low:Q", title="IOPS per desktop (log scale)", scale=x_scale)
        bars = alt.Chart(ps).mark_rule(strokeWidth=2, color="#999").encode(x=x, x2="pi90_high:Q", y=y)
        pts = alt.Chart(ps).mark_point(filled=True, size=50, color="black").encode(
            x=alt.X("estimate:Q", scale=x_scale), y=y,
            tooltip=["phase", "worker_class", "statistic", alt.Tooltip("estimate:Q", format=".1f"),
                     alt.Tooltip("pi90_low:Q", format=".1f"), alt.Tooltip("pi90_high:Q", format=".1f")])
        ob = alt.Chart(os_).mark_point(shape="cross", size=70, filled=True).encode(
            x=alt.X("iops_per_desktop:Q", scale=x_scale), y=y,
            color=alt.Color("vendor:N", scale=vendor_scale(), title="Observed"),
            tooltip=["vendor", "phase", "worker_class", "vantage", alt.Tooltip("iops_per_desktop:Q", format=".1f"), "record_ids"])
        return alt.layer(bars, pts, ob).properties(width=230, height=300, title=stat)

    return alt.hconcat(panel("peak", True), panel("average", False)).properties(
        title="IOPS per desktop: model estimate (dot), 90 % prediction interval (bar), observations (crosses)")


def cv_chart(cv: pd.DataFrame):
    """Altair chart: leave-one-vendor-out predictions (with 90 % PI) against the observed
    IOPS per desktop, log-log, one colour per held-out vendor; the diagonal is a perfect fit."""
    import altair as alt

    from ..charts import vendor_scale
    d = cv[cv["predicted"].notna()]
    lim = [float(min(d["observed"].min(), d["pi90_low"].min()) * 0.8), float(max(d["observed"].max(), d["pi90_high"].max()) * 1.2)]
    sc = alt.Scale(type="log", domain=lim)
    diag = alt.Chart(pd.DataFrame({"x": lim, "y": lim})).mark_line(color="#bbb", strokeDash=[4, 4]).encode(x=alt.X("x:Q", scale=sc), y=alt.Y("y:Q", scale=sc))
    base = alt.Chart(d).encode(x=alt.X("observed:Q", scale=sc, title="observed IOPS per desktop"),
                               color=alt.Color("held_out:N", scale=vendor_scale(), title="Held-out vendor"))
    rules = base.mark_rule(opacity=0.6).encode(y=alt.Y("pi90_low:Q", scale=sc, title="predicted from the other three vendors"), y2="pi90_high:Q")
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
    Normal condition, records used in the analysis. Columns: vendor, test_id, phase, statistic,
    vantage, read_share, kb_per_io, records.
    """
    r = results[results["used_in_analysis"] & (results["condition"] != "failover") & (results["test_id"] != "")
                & results["statistic"].isin(["peak", "average"])]
    keys = ["vendor", "test_id", "phase", "statistic", "vantage"]
    pick = r[r["metric"].isin(["iops", "read_iops", "write_iops", "throughput"])].sort_values("record_id")
    pick = pick.drop_duplicates(keys + ["metric"])
    w = pick.pivot_table(index=keys, columns="metric", values="value", aggfunc="first")
    ids = pick.groupby(keys)["record_id"].agg(" ".join)
    w = w.reindex(columns=["iops", "read_iops", "write_iops", "throughput"])
    out = pd.DataFrame({"read_share": w["read_iops"] / (w["read_iops"] + w["write_iops"]),
                        "kb_per_io": w["throughput"] * 1e6 / w["iops"] / 1024, "records": ids}).reset_index()
    return out.dropna(subset=["read_share", "kb_per_io"], how="all").sort_values(["vendor", "test_id", "statistic"]).reset_index(drop=True)
