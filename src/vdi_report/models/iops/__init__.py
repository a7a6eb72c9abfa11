"""Per-desktop IOPS model for the planning table: log(IOPS per desktop) ~ cell [+ worker intensity].

Pipeline: ``candidate_records`` (every per-desktop IOPS record with its semantics and the reason
it is or is not used) -> ``observations`` (one row per vendor x cell x worker class) -> ``fit``
(statsmodels OLS) -> ``predict_grid`` and ``leave_one_vendor_out``. The planning table
``iops_per_desktop_model.csv`` is ``models.era.planning_rows``: these observations pooled by
document, per era.

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
- External sources (sources.csv ``role = external``) never enter the fit; ``models.era``
  reads each of their figures with its true status against the seed rows (``external_evidence``).

Bounds: ``lt``/``gt`` values are excluded (``bounded="exclude"``); ranges and ``approx`` values
enter at their midpoint. The specification is chosen by ``choose_spec`` from the computed criteria
(leave-one-vendor-out coverage of observations, then error, then AIC).

Modules: ``observations`` (cells, candidate records, observations), ``fit`` (OLS and the grid),
``validation`` (leave-one-vendor-out, specification choice, bound verdicts), ``planning`` (rules
of thumb, I/O profile, observation context). Charts and words for the report live in ``vdi_report.report``.
"""

from .fit import ESTIMATE_STATISTICS, IopsModel, _design, _fit_arrays, coefficients, fit, grid, predict_grid
from .observations import (
    ANY_CLASS,
    CELL_ORDER,
    CELLS,
    CI_ALPHA,
    DEFAULT_SPEC,
    HEADLINE_VANTAGES,
    OFFSET_SPECS,
    PI_ALPHA,
    REFERENCE_CLASS,
    SPECS,
    STATISTICS,
    VANTAGE_LEVELS,
    WORKLOAD_SPECS,
    _reason,
    candidate_records,
    cell_of,
    derived_totals,
    exclusions,
    headline_iops,
    login_vsi_weights,
    observations,
    prepare,
    register_id,
    resolve_choices,
    workload_score,
)
from .planning import io_profile, observation_context, rules_of_thumb
from .validation import (
    BOUND_VERDICTS,
    VACUOUS_SHARPNESS,
    bound_verdict,
    bound_verdict_words,
    bounds_sensitivity,
    choose_spec,
    compare_specs,
    cv_by_vendor,
    cv_summary,
    document_labels,
    leave_one_vendor_out,
)

__all__ = [
    "CELLS",
    "CELL_ORDER",
    "VANTAGE_LEVELS",
    "STATISTICS",
    "ANY_CLASS",
    "REFERENCE_CLASS",
    "SPECS",
    "WORKLOAD_SPECS",
    "OFFSET_SPECS",
    "DEFAULT_SPEC",
    "PI_ALPHA",
    "CI_ALPHA",
    "login_vsi_weights",
    "workload_score",
    "cell_of",
    "_reason",
    "candidate_records",
    "exclusions",
    "observations",
    "derived_totals",
    "prepare",
    "resolve_choices",
    "HEADLINE_VANTAGES",
    "headline_iops",
    "register_id",
    "ESTIMATE_STATISTICS",
    "IopsModel",
    "_design",
    "_fit_arrays",
    "fit",
    "coefficients",
    "grid",
    "predict_grid",
    "leave_one_vendor_out",
    "cv_summary",
    "VACUOUS_SHARPNESS",
    "cv_by_vendor",
    "compare_specs",
    "choose_spec",
    "bounds_sensitivity",
    "BOUND_VERDICTS",
    "bound_verdict",
    "bound_verdict_words",
    "document_labels",
    "rules_of_thumb",
    "io_profile",
    "observation_context",
]
