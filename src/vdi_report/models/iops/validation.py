"""Validating the per-desktop IOPS model: leave-one-vendor-out, specification choice, bounds
sensitivity and the verdict of a bound against an interval. (The out-of-sample check against the
external documents is ``models.era.external_evidence``: each figure with its true status.)"""

import numpy as np
import pandas as pd

from .fit import fit, predict_grid
from .observations import (
    ANY_CLASS,
    DEFAULT_SPEC,
    REFERENCE_CLASS,
    SPECS,
    observations,
)

CV_COLUMNS = [
    "held_out",
    "trained_on",
    "n_train",
    "cell",
    "phase",
    "statistic",
    "worker_class",
    "vantage",
    "record_ids",
    "observed",
    "predicted",
    "pi90_low",
    "pi90_high",
    "log_error",
    "covered",
    "spec",
]
CV_FLOATS = ("observed", "predicted", "pi90_low", "pi90_high", "log_error")
BY_VENDOR_COLUMNS = [
    "held_out",
    "trained_on",
    "n_obs",
    "n_predicted",
    "median_error_factor",
    "n_covered",
    "coverage",
    "sharpness",
    "max_sharpness",
    "vacuous",
    "cells",
]


def leave_one_vendor_out(obs: pd.DataFrame, spec: str = DEFAULT_SPEC, weights: str | None = None) -> pd.DataFrame:
    """Predict each vendor's observations from a model fitted to the other vendors only.

    Columns: held_out (vendor), trained_on (the training vendors, ``;``-joined), n_train, the
    observation's keys (cell, phase, statistic, worker_class, vantage, record_ids), observed,
    predicted, pi90_low, pi90_high (IOPS per desktop), log_error (ln predicted - ln observed;
    NaN when not estimable: too few training observations, or a cell only the held-out vendor
    reports), covered (observed inside the 90 % PI), spec. A vendor is held out only when another
    vendor is left to train on: with one vendor (e.g. choice ``front_end_vantage = array_only``)
    the table has no rows (and the columns above).
    """
    rows = []
    for v in sorted(obs["vendor"].unique()):
        train, test = obs[obs["vendor"] != v], obs[obs["vendor"] == v]
        assert v not in set(train["vendor"])
        if train.empty:
            continue
        try:
            p = fit(train, spec, weights).predict(test)
        except ValueError:
            p = pd.DataFrame(np.nan, index=test.index, columns=["estimate", "pi90_low", "pi90_high"])
        rows.append(
            pd.DataFrame(
                {
                    "held_out": v,
                    "trained_on": ";".join(sorted(train["vendor"].unique())),
                    "n_train": len(train),
                    "cell": test["cell"],
                    "phase": test["phase"],
                    "statistic": test["statistic"],
                    "worker_class": test["worker_class"],
                    "vantage": test["vantage"],
                    "record_ids": test["record_ids"],
                    "observed": test["iops_per_desktop"],
                    "predicted": p["estimate"],
                    "pi90_low": p["pi90_low"],
                    "pi90_high": p["pi90_high"],
                }
            )
        )
    if not rows:
        return pd.DataFrame(columns=CV_COLUMNS).astype({c: float for c in CV_FLOATS})
    cv = pd.concat(rows, ignore_index=True)
    cv["predicted"] = cv["predicted"].astype(float)
    cv["log_error"] = np.log(cv["predicted"]) - np.log(cv["observed"])
    cv["covered"] = np.where(
        cv["predicted"].isna(), np.nan, (cv["observed"] >= cv["pi90_low"]) & (cv["observed"] <= cv["pi90_high"])
    )
    cv["spec"] = spec
    return cv


def cv_summary(cv: pd.DataFrame) -> dict:
    """n (observations), n_predicted (estimable), rmse_log (root mean squared ln error),
    median_factor (median of exp|ln error|), coverage (share of predicted observations inside
    their 90 % PI), median_sharpness (median pi90_high / pi90_low). For choosing a spec; the
    report shows ``cv_by_vendor`` instead (a pooled figure can hide vacuous intervals)."""
    p = cv[cv["predicted"].notna()]
    e = p["log_error"]
    return {
        "spec": cv["spec"].iloc[0] if len(cv) else "",
        "n": len(cv),
        "n_predicted": len(p),
        "rmse_log": float(np.sqrt((e**2).mean())) if len(p) else np.nan,
        "median_factor": float(np.exp(e.abs().median())) if len(p) else np.nan,
        "coverage": float(p["covered"].astype(bool).mean()) if len(p) else np.nan,
        "median_sharpness": float((p["pi90_high"] / p["pi90_low"]).median()) if len(p) else np.nan,
    }


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
        rows.append(
            {
                "held_out": v,
                "trained_on": g["trained_on"].iloc[0],
                "n_obs": len(g),
                "n_predicted": len(p),
                "median_error_factor": float(np.exp(p["log_error"].abs().median())) if len(p) else np.nan,
                "n_covered": int(p["covered"].astype(bool).sum()),
                "coverage": float(p["covered"].astype(bool).mean()) if len(p) else np.nan,
                "sharpness": float(sharp.median()) if len(p) else np.nan,
                "max_sharpness": float(sharp.max()) if len(p) else np.nan,
                "vacuous": bool(sharp.median() > VACUOUS_SHARPNESS) if len(p) else False,
                "cells": ", ".join(sorted(set(g["cell"]))),
            }
        )
    return pd.DataFrame(rows, columns=BY_VENDOR_COLUMNS)


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
        rows.append(
            {
                **cv_summary(leave_one_vendor_out(obs, s)),
                "n_params": len(m.kept),
                "aic": m.result.aic,
                "bic": m.result.bic,
                "adj_r2": m.result.rsquared_adj,
            }
        )
    cols = [
        "spec",
        "n_params",
        "aic",
        "bic",
        "adj_r2",
        "n",
        "n_predicted",
        "rmse_log",
        "median_factor",
        "coverage",
        "median_sharpness",
    ]
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


def bounds_sensitivity(results: pd.DataFrame, sources_df: pd.DataFrame, spec: str = DEFAULT_SPEC) -> pd.DataFrame:
    """Refit under each treatment of bounds; columns: treatment, n_obs, phase, worker_class,
    statistic, estimate, pi90_low, pi90_high (IOPS per desktop; the reference class, or the
    pooled row). ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when None)."""
    out = []
    for name, kw in {
        "exclude lt/gt, approx at midpoint (main)": {},
        "approx at low end": {"approx": "low"},
        "approx at high end": {"approx": "high"},
        "lt/gt at printed bound": {"bounded": "at_bound"},
    }.items():
        o = observations(results, sources_df=sources_df, **kw)
        g = predict_grid(fit(o, spec), results)
        g = g[g["worker_class"].isin([REFERENCE_CLASS, ANY_CLASS])].assign(treatment=name, n_obs=len(o))
        out.append(g[["treatment", "n_obs", "phase", "worker_class", "statistic", "estimate", "pi90_low", "pi90_high"]])
    return pd.concat(out, ignore_index=True)


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
    (``Nutanix RA-2022``), the vendor alone when the document has no number; two documents with one
    label (two editions) get their publication year (``Nutanix RA-2022 (2023)``)."""
    num = sources_df.get("document_number", pd.Series("", index=sources_df.index)).fillna("").astype(str).str.strip()
    # a number is a short code (TR-4540, RA-2022); a title pasted into the column is not one
    num = num.where(num.str.fullmatch(r"[A-Za-z]{1,6}-?\d[\w.-]{0,12}"), "")
    labels = {sid: f"{v} {n}".strip() for sid, v, n in zip(sources_df["source_id"], sources_df["vendor"], num)}
    # two editions of one document (RA-2022 of 2023 and of 2024) are told apart by the year
    year = dict(
        zip(sources_df["source_id"], sources_df.get("published", pd.Series("", index=sources_df.index)).astype(str))
    )
    twice = {x for x in labels.values() if list(labels.values()).count(x) > 1}
    return {sid: f"{x} ({year[sid][:4]})" if x in twice and year[sid] else x for sid, x in labels.items()}
