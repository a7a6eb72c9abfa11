"""Fitting the per-desktop IOPS model (statsmodels OLS/WLS on log IOPS per desktop) and predicting
the planning grid."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...config import LOGIN_VSI_CLASSES
from .observations import (
    ANY_CLASS,
    CELL_ORDER,
    CELLS,
    CI_ALPHA,
    DEFAULT_SPEC,
    OFFSET_SPECS,
    PI_ALPHA,
    SPECS,
    VANTAGE_LEVELS,
    WORKLOAD_SPECS,
    login_vsi_weights,
    workload_score,
)


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
        out = pd.DataFrame(
            np.nan, index=newdata.index, columns=["estimate", "ci95_low", "ci95_high", "pi90_low", "pi90_high"]
        )
        if ok.any():
            Xk = X[ok][:, self.kept]
            prediction = self.result.get_prediction(Xk)
            pi = prediction.summary_frame(alpha=pi_alpha)
            ci = prediction.summary_frame(alpha=ci_alpha)
            vals = np.column_stack(
                [pi["mean"], ci["mean_ci_lower"], ci["mean_ci_upper"], pi["obs_ci_lower"], pi["obs_ci_upper"]]
            )
            if self.spec in OFFSET_SPECS:
                vals = vals + newdata["workload"].to_numpy()[ok][:, None]
            out.loc[out.index[ok]] = np.exp(vals)
        return out


def _design(obs: pd.DataFrame, spec: str):
    if spec not in SPECS:
        raise ValueError(f"unknown model spec {spec!r}; known: {', '.join(SPECS)}")
    import patsy  # imported here: modules that only read the model's tables (the report) skip it

    env = patsy.EvalEnvironment.capture().with_outer_namespace(
        {"CELL_LEVELS": CELL_ORDER, "VANTAGE_LEVELS": VANTAGE_LEVELS}
    )
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
    names = [
        n.replace("C(cell, levels=CELL_LEVELS)", "cell").replace("C(vantage, levels=VANTAGE_LEVELS)", "vantage")
        for n in names
    ]
    return pd.DataFrame(
        {
            "term": names,
            "coef": r.params,
            "ci95_low": ci[:, 0],
            "ci95_high": ci[:, 1],
            "factor": np.exp(r.params),
            "factor_low": np.exp(ci[:, 0]),
            "factor_high": np.exp(ci[:, 1]),
            "p_value": r.pvalues,
        }
    )


def grid(results: pd.DataFrame, classes=LOGIN_VSI_CLASSES) -> pd.DataFrame:
    """Cell x worker class rows (columns cell, phase, statistic, worker_class, workload, vantage)."""
    rows = [
        {"cell": cell, "phase": ph, "statistic": st, "worker_class": c}
        for (ph, st), cell in CELLS.items()
        for c in classes
    ]
    g = pd.DataFrame(rows)
    g["workload"] = workload_score(g["worker_class"], g["phase"], login_vsi_weights(results))
    g["vantage"] = "array_frontend"
    return g


ESTIMATE_STATISTICS = ("median", "mean")  # choice estimate_statistic (data/raw/analysis_choices.csv)


def predict_grid(model: IopsModel, results: pd.DataFrame, statistic: str = "median") -> pd.DataFrame:
    """Predictions per cell: one row per worker class when the model has a worker term, else one
    pooled row per cell with ``worker_class = any`` (the class cannot be separated).

    ``statistic`` (choice ``estimate_statistic``): ``median`` reports exp of the fitted mean log
    (the median of a log-normal); ``mean`` reports exp(mu + s^2 / 2), s^2 the fit's residual
    variance (``result.scale``). The intervals are the same under both. Raises ValueError for
    another statistic.

    Columns: phase, worker_class, statistic, cell, estimate, pi90_low, pi90_high, ci95_low,
    ci95_high (IOPS per desktop), spec, n_obs. A ``vantage`` spec predicts at the array front end.
    """
    if statistic not in ESTIMATE_STATISTICS:
        raise ValueError(f"statistic must be one of {ESTIMATE_STATISTICS}, got {statistic!r}")
    classes = LOGIN_VSI_CLASSES if model.spec in WORKLOAD_SPECS else (ANY_CLASS,)
    g = grid(results, classes)
    p = model.predict(g)
    if statistic == "mean":
        p["estimate"] = p["estimate"] * float(np.exp(model.result.scale / 2))
    out = pd.concat([g[["phase", "worker_class", "statistic", "cell"]], p], axis=1)
    out["spec"], out["n_obs"] = model.spec, int(model.result.nobs)
    return out[
        [
            "phase",
            "worker_class",
            "statistic",
            "cell",
            "estimate",
            "pi90_low",
            "pi90_high",
            "ci95_low",
            "ci95_high",
            "spec",
            "n_obs",
        ]
    ]
