"""The planning figures under any analysis choices, and their sensitivity to each choice.

``planning_under(results, choices)`` is the one path from results.csv to the planning table
(``iops_per_desktop_model.csv``) under a set of options of ``data/raw/analysis_choices.csv``
(``raw.choices``): the model stage (notebook 04) writes what it returns, and ``sensitivity``
calls it for every specification, so a reviewer's run (``make report CHOICES=file``) writes
exactly the rows ``sensitivity.csv`` holds for that file's specification.

``sensitivity`` recomputes the planning table (every era, phase, worker class and statistic)
under each option of each declared choice with every other choice at its default (*one at a
time*), and under every combination of the options of the choices declared ``joint = yes`` (the
*specification curve*: the joint range of the defensible specifications). Each row names its
specification by ``Choices.key`` (``id=option;...`` of the choices not at their default;
``default`` for none).

Columns of ``sensitivity.csv`` (``SENSITIVITY_COLUMNS``): kind (``one_at_a_time`` or
``joint``), choice_id (``joint`` on the specification curve), option (the choice's option; the
specification key on joint rows), is_default (the option is the choice's default; the joint
specification is the default one), specification, era, phase, worker_class, statistic,
estimate, pi90_low, pi90_high (the planning table's unit: IOPS per desktop, IOPS per desktop
booted per minute, I/O per desktop boot), change (estimate / the default estimate of the same
era, phase and statistic - 1; NaN when either is not estimable), n_obs, spec (the model
specification used).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import itertools
import pickle
from types import SimpleNamespace

import numpy as np
import pandas as pd

from .. import catalogue
from ..raw import choices as analysis
from . import boot, iops, scenario

SENSITIVITY_COLUMNS = catalogue.table("sensitivity").column_names  # sensitivity.csv: the catalogue's declaration
KEYS = ["era", "phase", "worker_class", "statistic"]
DEFAULT_ERA = "seed"  # the era of a planning table without an era column (the seed documents)


def _signature(obs: pd.DataFrame) -> tuple:
    """What identifies a set of observations for the fits: each one's vendor, cell, worker class,
    vantage and IOPS per desktop (rounded to 1e-9)."""
    return (
        tuple(map(tuple, obs[["vendor", "cell", "worker_class", "vantage"]].to_numpy())),
        tuple(np.round(obs["iops_per_desktop"].to_numpy(dtype=float), 9)),
    )


def _spec_and_prediction(obs: pd.DataFrame, results: pd.DataFrame, ch, memo: dict) -> tuple:
    """(spec, model or None, predict_grid rows, the ``compare_specs`` table when model_spec is
    auto, else None) for ``obs`` under ``ch`` (model_spec,
    estimate_statistic); a cell the observations cannot estimate is NaN. ``memo`` caches by the
    observations themselves: different choices often select the same observations."""
    osig = _signature(obs)
    if ch["model_spec"] == "auto":
        if ("spec", osig) not in memo:
            memo[("specs", osig)] = table = iops.compare_specs(obs)
            try:
                memo[("spec", osig)] = iops.choose_spec(table)
            except ValueError:  # no specification can be fitted: nothing is estimable
                memo[("spec", osig)] = iops.DEFAULT_SPEC
        spec = memo[("spec", osig)]
    else:
        spec = ch["model_spec"]
    key = ("fit", osig, spec, ch["estimate_statistic"])
    if key not in memo:
        try:
            model = iops.fit(obs, spec)
            pred = iops.predict_grid(model, results, ch["estimate_statistic"])
        except ValueError:
            model = None
            pred = iops.grid(results, (iops.ANY_CLASS,))[["phase", "worker_class", "statistic", "cell"]].assign(
                estimate=np.nan,
                pi90_low=np.nan,
                pi90_high=np.nan,
                ci95_low=np.nan,
                ci95_high=np.nan,
                spec=spec,
                n_obs=len(obs),
            )
        memo[key] = (spec, model, pred)
    return (*memo[key], memo.get(("specs", osig)) if ch["model_spec"] == "auto" else None)


class _ReadsRecorded(analysis.Choices):
    """``choices`` that record which choices a computation reads: ``read`` holds the ids read one
    by one (``choices[id]``, ``set_aside``); reading the whole set (iterating, ``key``,
    ``differing``, ``for_stage``, ``with_options``) records every id."""

    def __init__(self, choices: analysis.Choices):
        super().__init__(dict(choices), choices.declared)
        self.read: set[str] = set()

    def __getitem__(self, k: str) -> str:
        self.read.add(k)
        return super().__getitem__(k)

    def _whole(self, method: str, *args, **kwargs):
        self.read.update(self._c)
        return getattr(super(), method)(*args, **kwargs)

    def __iter__(self):
        return self._whole("__iter__")

    def key(self, ids=None) -> str:
        return self._whole("key", ids)

    def differing(self) -> list[tuple[str, str, str]]:
        return self._whole("differing")

    def for_stage(self, stage: str) -> str:
        return self._whole("for_stage", stage)

    def with_options(self, **opts: str) -> analysis.Choices:
        return self._whole("with_options", **opts)


def _observations(results: pd.DataFrame, sources_df: pd.DataFrame, ch, memo: dict) -> pd.DataFrame:
    """``iops.observations(results, sources_df=..., choices=ch)``, computed once per set of options
    of the choices it reads (``_ReadsRecorded``): most specifications of the grid differ only in
    choices the observations never read (the estimate statistic, the boot pooling, τ², the model
    specification), and 83 calls became 30 (about 2 s of the grid's CPU, measured). Given the same
    tables and those same options, the observations are the same: the same reads, in the same
    order, of the same values. ``memo``: as ``planning_under``'s (keyed by the two tables, which it
    keeps alive so that their ids stay theirs). A copy is returned."""
    _tables, computed = memo.setdefault(("observations", id(results), id(sources_df)), ((results, sources_df), []))
    for read, obs in computed:
        if all(ch[k] == v for k, v in read):
            return obs.copy()
    recorded = _ReadsRecorded(ch)
    obs = iops.observations(results, sources_df=sources_df, choices=recorded)
    computed.append((tuple((k, recorded[k]) for k in sorted(recorded.read)), obs))
    return obs.copy()


def planning_under(
    results: pd.DataFrame,
    choices=None,
    sources_df: pd.DataFrame | None = None,
    chars: pd.DataFrame | None = None,
    memo: dict | None = None,
) -> SimpleNamespace:
    """The planning models under ``choices`` (``raw.choices.Choices``; default: the declared
    defaults). ``results``: results.csv (or ``iops.prepare`` of it, for many runs); ``sources_df``:
    sources.csv (``raw.sources.load_sources``, loaded by the caller: TypeError when None); ``chars``:
    ``scenario.io_characteristics`` (computed when None; no choice reaches it); ``memo``: a dict
    shared across runs (caches fits and boot models).

    Returns a namespace: ``choices``, ``obs`` (``iops.observations``), ``specs``
    (``iops.compare_specs`` when model_spec is auto, else None), ``spec``, ``model``
    (``IopsModel`` or None when not estimable), ``pred`` (``iops.predict_grid``), ``storms``
    (``boot.boot_storms``), ``boot_model`` (the planning table's seed boot rows), ``chars``, ``plan`` (the
    planning table, ``era.PLANNING_COLUMNS``)."""
    from ..raw import sources

    sources.required(sources_df, "sensitivity.planning_under")
    ch = iops.resolve_choices(choices)
    memo = {} if memo is None else memo
    obs = _observations(results, sources_df, ch, memo)
    spec, model, pred, specs = _spec_and_prediction(obs, results, ch, memo)
    bkey = ("boot", ch["register_resolutions"], ch["boot_pooling"], ch["approx_point"])
    if bkey not in memo:
        storms = boot.boot_storms(
            results, sources_df, use_register=ch["register_resolutions"] == "apply", approx=ch["approx_point"]
        )
        memo[bkey] = storms
    storms = memo[bkey]
    if chars is None:
        chars = scenario.io_characteristics(results, iops.io_profile(results, sources_df), sources_df)
    from . import era  # the planning table by era (issue 16): documents pooled, seed rows from these observations

    plan = era.planning_rows(results, storms, chars, sources_df, obs=obs, choices=era.EraChoices.from_choices(ch))
    boot_model = plan[(plan["era"] == "seed") & (plan["phase"] == "boot")].reset_index(drop=True)  # one pooling
    return SimpleNamespace(
        choices=ch,
        obs=obs,
        specs=specs,
        spec=spec,
        model=model,
        pred=pred,
        storms=storms,
        boot_model=boot_model,
        chars=chars,
        plan=plan,
    )


# Functions of models.era that read a few of the analysis choices (an ``EraChoices`` argument;
# ``login_windows`` none): ``sensitivity`` computes each once per grid and set of options of the
# fields it reads, not once per specification (``choice_independent_once``). A name era no
# longer has is skipped.
CHOICE_INDEPENDENT = ("_modern_runs", "login_windows", "modern_profile")
# Pure functions of models.era that many specifications call with equal arguments built anew
# (document figures, pooled cells, boot rows, the era's variance floors): within the grid each
# runs once per argument *content* (the arguments' pickled bytes), not per specification.
CONTENT_KEYED = ("planning_rows", "era_heterogeneity", "boot_rows", "pool", "grouped_runs", "document_figures")
# The same, for pure functions of other modules of models (module, function): the records'
# semantics and the read + write sums, which the model stage's tables asked for 13 and 4 times
# with equal tables (about 0.8 s of the stage's 3.7 s, measured).
CONTENT_KEYED_ELSEWHERE = (("semantics", "observation_semantics"), ("iops.observations", "derived_totals"))


def _arg_key(v):
    """A hashable stand-in for an argument: tables by identity (the grid passes the same ones)."""
    return ("id", id(v)) if isinstance(v, (pd.DataFrame, pd.Series, dict, list)) else ("value", v)


class _FieldsRead:
    """An ``era.EraChoices`` that records which of its fields a function reads (``read``), as
    ``_ReadsRecorded`` does for ``raw.choices.Choices``."""

    def __init__(self, opts):
        self._opts, self.read = opts, set()

    def __getattr__(self, name: str):
        value = getattr(self._opts, name)
        self.read.add(name)
        return value


def _once_per_options(memo: dict, name: str, func):
    """``func`` computed once per set of arguments (tables by identity, ``_arg_key``) and options
    of the ``EraChoices`` fields it reads (its ``choices`` argument, recorded by ``_FieldsRead``
    on the first call); a copy of the result is returned. ``memo``: the block's."""
    import inspect

    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        opts = bound.arguments.get("choices")
        key = (name, tuple((k, _arg_key(v)) for k, v in bound.arguments.items() if k != "choices"))
        computed = memo.setdefault(key, [])

        def matches(read) -> bool:
            if opts is None or read is None:
                return opts is None and read is None
            return all(getattr(opts, f) == v for f, v in read)

        hit = [out for read, out, _kept in computed if matches(read)]
        if hit:
            out = hit[0]
        else:
            recorder = None if opts is None else _FieldsRead(opts)
            if recorder is not None:
                bound.arguments["choices"] = recorder
            out = func(*bound.args, **bound.kwargs)
            read = None if recorder is None else tuple((f, getattr(opts, f)) for f in sorted(recorder.read))
            computed.append((read, out, (args, kwargs)))  # the arguments kept alive: ids stay theirs
        return out.copy() if hasattr(out, "copy") else out

    return wrapper


def _content_key(*parts) -> bytes | None:
    """A digest of the pickled ``parts``; None for a part that cannot be pickled."""
    try:
        blob = pickle.dumps(parts, protocol=5)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.blake2b(blob, digest_size=20).digest()


def _once_per_content(memo: dict, name: str, func):
    """``func`` computed once per argument content (``_content_key``); a deep copy of the result is
    returned. ``memo``: the block's."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        key = _content_key(name, args, sorted(kwargs.items()))
        if key is None:  # an argument that cannot be pickled
            return func(*args, **kwargs)
        if ("content", key) not in memo:
            memo[("content", key)] = func(*args, **kwargs)
        return copy.deepcopy(memo[("content", key)])

    return wrapper


def _functions(pairs) -> dict:
    """{(module, name): function} of the ``(module under models, name)`` pairs that exist."""
    import importlib

    mods = [(importlib.import_module(f"{__package__}.{m}"), n) for m, n in pairs]
    return {(mod, n): getattr(mod, n) for mod, n in mods if hasattr(mod, n)}


@contextlib.contextmanager
def choice_independent_once(names: tuple[str, ...] = CHOICE_INDEPENDENT):
    """Within the block, each function ``names`` of ``models.era`` runs once per set of arguments
    (tables compared by identity, other arguments by value) and options of the ``EraChoices``
    fields it reads (``_once_per_options``: the grid's 83 specifications pass 12 distinct
    ``EraChoices``, but 7 distinct sets of the options ``_modern_runs`` reads and 4 of those
    ``modern_profile`` reads: 24 calls became 11, measured), and each of ``CONTENT_KEYED`` (and
    ``CONTENT_KEYED_ELSEWHERE``) once per argument content (``_once_per_content``: a hash of the
    pickled arguments, so equal tables built anew by another specification hit; an argument that
    cannot be pickled calls the function). A copy of the result is returned, so a caller changing
    it changes no other call's. The block ends with the functions restored."""
    from . import era

    memo: dict = {}
    by_options = {(era, n): getattr(era, n) for n in names if hasattr(era, n)}
    by_content = {(era, n): getattr(era, n) for n in CONTENT_KEYED if hasattr(era, n)}
    by_content |= _functions(CONTENT_KEYED_ELSEWHERE)
    try:
        for (mod, n), f in by_options.items():
            setattr(mod, n, _once_per_options(memo, n, f))
        for (mod, n), f in by_content.items():
            setattr(mod, n, _once_per_content(memo, f"{mod.__name__}.{n}", f))
        yield
    finally:
        for (mod, n), f in {**by_options, **by_content}.items():
            setattr(mod, n, f)


MODEL_TABLES = (
    "iops_model_exclusions",
    "iops_model_observations",
    "iops_model_coefficients",
    "iops_model_cv",
    "iops_model_cv_by_vendor",
    "boot_storms",
    "iops_per_desktop_model",
    "iops_model_lodo",
    "iops_calibration",
    "within_lab_effects",
    "iops_model_external",
    "boot_external",
    "iops_calibration_coverage",
    "observation_context",
    "rules_of_thumb",
    "io_profile",
    "headline_iops",
)  # the model stage's catalogue tables (notebook 04), besides sizing_inputs.json


def model_tables(
    results: pd.DataFrame,
    choices=None,
    sources_df: pd.DataFrame | None = None,
    memo: dict | None = None,
    run: SimpleNamespace | None = None,
) -> dict[str, pd.DataFrame]:
    """Every table of the model stage (``MODEL_TABLES``, catalogue names) under ``choices``
    (``raw.choices.Choices``; default: the declared defaults), computed by the one path the model
    stage (notebook 04) writes: ``planning_under`` for the observations, the fit, the boot storms
    and the planning table; leave-one-vendor-out, leave-one-document-out, leave-one-lab-out
    (``era.calibration``, its coverage) and the out-of-sample checks on them; what each
    observation was measured with, the documents' rules of thumb against the seed rows and the
    read share and I/O size per test (the Models chapter's tables). A table a choice leaves without
    rows (e.g. no model can be fitted when
    ``front_end_vantage = array_only`` leaves one document) is ``catalogue.empty``: its declared
    columns, never a partial header. ``sources_df``: sources.csv (``raw.sources.load_sources``,
    loaded by the caller: TypeError when None). ``memo``: as ``planning_under`` (shared across calls);
    ``run``: a ``planning_under`` result for these choices already computed."""
    from ..raw import sources
    from . import era

    sources.required(sources_df, "sensitivity.model_tables")
    run = run or planning_under(results, choices, sources_df, memo=memo)
    cv = iops.leave_one_vendor_out(run.obs, run.spec)
    plan, storms = run.plan, run.storms
    cal = era.calibration(results, storms, sources_df, obs=run.obs, choices=era.EraChoices.from_choices(run.choices))
    seed_rows = era.sizing_rows(plan)
    seed_rows = seed_rows[seed_rows["era"] == "seed"].reset_index(drop=True)  # what the Models chapter reads
    num_storms = storms.assign(peak_iops_per_rate=pd.to_numeric(storms["peak_iops_per_rate"]))
    boot_rows = plan[(plan["era"] == "seed") & (plan["phase"] == "boot")]
    pooled = (
        boot.fitted_storms(boot_rows, storms).index
        if (boot_rows["statistic"] == "peak_per_rate").any()
        else pd.Index([])
    )  # the storms the boot-rate model's peak_per_rate row pools
    return {
        "iops_model_exclusions": iops.exclusions(results, sources_df, choices=run.choices),
        "iops_model_observations": run.obs,
        "iops_model_coefficients": (
            iops.coefficients(run.model) if run.model is not None else catalogue.empty("iops_model_coefficients")
        ),
        "iops_model_cv": cv,
        "iops_model_cv_by_vendor": iops.cv_by_vendor(cv),
        "boot_storms": storms.assign(in_rate_model=storms.index.isin(pooled)),
        "iops_per_desktop_model": plan,
        "iops_model_lodo": era.leave_one_document_out(results, storms, sources_df),
        "iops_calibration": cal,
        "within_lab_effects": era.within_lab_effects(results, sources_df),
        "iops_model_external": era.external_evidence(results, plan, sources_df),
        "boot_external": boot.external_check(storms, plan[(plan["era"] == "seed") & (plan["phase"] == "boot")]),
        "iops_calibration_coverage": era.calibration_coverage(cal),
        "observation_context": iops.observation_context(run.obs, num_storms, sources_df),
        "rules_of_thumb": iops.rules_of_thumb(results, seed_rows.assign(worker_class=iops.ANY_CLASS)),
        "io_profile": iops.io_profile(results, sources_df),
        "headline_iops": iops.headline_iops(results, sources_df, run.choices),
    }


def _rows(plan: pd.DataFrame, **meta) -> pd.DataFrame:
    p = plan.copy()
    if "era" not in p.columns:
        p["era"] = DEFAULT_ERA
    return p.assign(**meta)


def sensitivity(
    results: pd.DataFrame, decl=None, sources_df: pd.DataFrame | None = None, planning=None
) -> pd.DataFrame:
    """The sensitivity table (columns ``SENSITIVITY_COLUMNS``): one-at-a-time rows in declared
    order (choice, option), then the specification curve; within each, the planning table's rows.

    ``decl``: ``raw.choices.declared()`` (default: the project's list). ``sources_df``:
    sources.csv (default: read here once for the whole grid, this being the stage's entry point).
    ``planning(results, choices) -> planning table``: default ``planning_under(...).plan`` on ``iops.prepare(results)``
    (the model stage's own path). Each distinct specification is computed once.
    """
    decl = decl or analysis.declared()
    base = decl.defaults()
    if planning is None:
        if sources_df is None:  # read once for the whole grid, not by each model function
            from ..raw import sources

            sources_df = sources.load_sources()
        prepared = iops.prepare(results, sources_df)
        chars = scenario.io_characteristics(results, iops.io_profile(results, sources_df), sources_df)
        memo: dict = {}

        def planning(_r, ch):
            from . import era  # the rows a sizing reads: one per era and cell (modern: MCS, or MCS and PVS pooled)

            return era.sizing_rows(planning_under(prepared, ch, sources_df, chars, memo).plan)

    cache: dict[str, pd.DataFrame] = {}

    def plan_of(ch):
        k = ch.key()
        if k not in cache:
            cache[k] = planning(results, ch)
        return cache[k]

    with choice_independent_once():
        return _grid(results, decl, base, plan_of)


def _grid(results: pd.DataFrame, decl, base, plan_of) -> pd.DataFrame:
    """``sensitivity``'s rows: one choice at a time, then the joint specifications."""
    default = _rows(plan_of(base))
    out = []
    for cid in decl.ids:
        for opt in decl.options[cid]:
            ch = base.with_options(**{cid: opt})
            out.append(
                _rows(
                    plan_of(ch),
                    kind="one_at_a_time",
                    choice_id=cid,
                    option=opt,
                    is_default=opt == decl.default[cid],
                    specification=ch.key(),
                )
            )
    joint = [c for c in decl.ids if decl.joint[c]]
    for combo in itertools.product(*(decl.options[c] for c in joint)):
        ch = base.with_options(**dict(zip(joint, combo)))
        k = ch.key()
        out.append(
            _rows(
                plan_of(ch),
                kind="joint",
                choice_id="joint",
                option=k,
                is_default=k == analysis.DEFAULT_KEY,
                specification=k,
            )
        )
    t = pd.concat(out, ignore_index=True)
    ref = default.drop_duplicates(["era", "phase", "statistic"]).set_index(["era", "phase", "statistic"])["estimate"]
    base_est = pd.Series(list(zip(t["era"], t["phase"], t["statistic"]))).map(ref).to_numpy(dtype=float)
    t["change"] = t["estimate"].to_numpy(dtype=float) / base_est - 1
    t["is_default"] = t["is_default"].astype(bool)
    return t.reindex(columns=SENSITIVITY_COLUMNS).reset_index(drop=True)


def _reference_rows(sens: pd.DataFrame) -> pd.DataFrame:
    """Rows of the pooled class ``any`` or, where a specification separates the worker classes,
    the reference class (knowledge): one comparable row per era, phase and statistic."""
    return sens[sens["worker_class"].isin([iops.ANY_CLASS, iops.REFERENCE_CLASS])]


RANKING_COLUMNS = [
    "choice_id",
    "max_abs_change",
    "row",
    "option",
    "max_abs_interval_change",
    "interval_row",
    "interval_option",
    "not_estimable",
]


def interval_change(sens: pd.DataFrame) -> pd.Series:
    """Per row of ``sens``: how far its 90 % interval moved from the default specification's
    interval of the same era, phase and statistic, the larger of |pi90_low / default pi90_low - 1|
    and |pi90_high / default pi90_high - 1| (ratio); NaN where either interval is missing (a lower
    bound has none)."""
    one = _reference_rows(sens[(sens["kind"] == "one_at_a_time") & (sens["specification"] == analysis.DEFAULT_KEY)])
    keys = ["era", "phase", "statistic"]
    d = one.drop_duplicates(keys).set_index(keys)[["pi90_low", "pi90_high"]]
    idx = pd.MultiIndex.from_frame(sens[keys])
    lo = sens["pi90_low"].to_numpy(dtype=float) / d["pi90_low"].reindex(idx).to_numpy(dtype=float) - 1
    hi = sens["pi90_high"].to_numpy(dtype=float) / d["pi90_high"].reindex(idx).to_numpy(dtype=float) - 1
    return pd.Series(np.fmax(np.abs(lo), np.abs(hi)), index=sens.index)


def ranking(sens: pd.DataFrame) -> pd.DataFrame:
    """The choices ordered by how far one flip moves a planning estimate of the pooled (or the
    reference, knowledge) class. Columns ``RANKING_COLUMNS``: choice_id,
    max_abs_change (largest |change| over the choice's other options and the planning rows; 0
    when none moves), row (``phase statistic`` it moves most), option (the option that does),
    max_abs_interval_change, interval_row, interval_option: the same for the rows' 90 % interval
    ends (``interval_change``: a choice such as ``tau2_source`` moves an interval, not an
    estimate; 0 and empty when no interval moves), not_estimable (an option leaves a row without an estimate)."""
    s = _reference_rows(sens[(sens["kind"] == "one_at_a_time") & ~sens["is_default"]])
    s = s.assign(_ic=interval_change(sens).reindex(s.index))
    rows = []
    for cid, g in s.groupby("choice_id", sort=False):
        a, b = g["change"].abs(), g["_ic"]
        i = a.idxmax() if a.notna().any() else None
        j = b.idxmax() if (b > 1e-12).any() else None  # no row named when no interval moves
        rows.append(
            {
                "choice_id": cid,
                "max_abs_change": float(a.max()) if i is not None else 0.0,
                "row": f"{g.at[i, 'phase']} {g.at[i, 'statistic']}" if i is not None else "",
                "option": g.at[i, "option"] if i is not None else "",
                "max_abs_interval_change": float(b.max()) if j is not None else 0.0,
                "interval_row": f"{g.at[j, 'phase']} {g.at[j, 'statistic']}" if j is not None else "",
                "interval_option": g.at[j, "option"] if j is not None else "",
                "not_estimable": bool(g["estimate"].isna().any()),
            }
        )
    out = pd.DataFrame(rows, columns=RANKING_COLUMNS)
    return out.sort_values(["max_abs_change", "choice_id"], ascending=[False, True]).reset_index(drop=True)


def row_movers(sens: pd.DataFrame, era: str | None = None, tol: float = 1e-9) -> pd.DataFrame:
    """Per planning row (era, phase, statistic; the pooled or the reference class) and per choice
    that moves it when flipped alone: the option that moves it most and how far. Rows of ``era``
    only when given (e.g. the report's era: the rows page 1 reads). Columns: era, phase,
    statistic, default_estimate (the row under the declared defaults, the planning table's unit),
    choice_id, option, estimate, change (estimate / default_estimate - 1), ordered by row then
    |change| descending. A row no choice moves has one line with empty choice_id and option and
    change 0; an option that leaves the row not estimable counts as a move (estimate NaN, change
    NaN)."""
    one = _reference_rows(sens[sens["kind"] == "one_at_a_time"])
    if era is not None:
        one = one[one["era"] == era]
    keys = ["era", "phase", "statistic"]
    default = one[one["specification"] == analysis.DEFAULT_KEY].drop_duplicates(keys).set_index(keys)["estimate"]
    out = []
    for k, g in one[~one["is_default"]].groupby(keys, sort=False):
        base = float(default.get(k, np.nan))
        moved = g[(g["change"].abs() > tol) | (g["estimate"].isna() & pd.notna(base))]
        if moved.empty:
            out.append(
                dict(zip(keys, k))
                | {"default_estimate": base, "choice_id": "", "option": "", "estimate": base, "change": 0.0}
            )
            continue
        moved = moved.assign(_a=moved["change"].abs().fillna(np.inf)).sort_values("_a", ascending=False)
        for cid, h in moved.groupby("choice_id", sort=False):
            r = h.iloc[0]
            out.append(
                dict(zip(keys, k))
                | {
                    "default_estimate": base,
                    "choice_id": cid,
                    "option": r["option"],
                    "estimate": float(r["estimate"]),
                    "change": float(r["change"]),
                }
            )
    cols = keys + ["default_estimate", "choice_id", "option", "estimate", "change"]
    return pd.DataFrame(out, columns=cols)


def tornado(sens: pd.DataFrame) -> pd.DataFrame:
    """Per choice and planning row (era, phase, statistic; the pooled or reference class): the
    lowest and highest change of the estimate over the choice's options, one at a time (the
    default's 0 included). Columns:
    choice_id, era, phase, statistic, low_change, low_option, high_change, high_option,
    not_estimable (options leaving the row without an estimate, space-separated)."""
    s = _reference_rows(sens[sens["kind"] == "one_at_a_time"])
    rows = []
    for (cid, era, phase, stat), g in s.groupby(["choice_id", "era", "phase", "statistic"], sort=False):
        ok = g[g["change"].notna()]
        lo = ok.loc[ok["change"].idxmin()] if len(ok) else None
        hi = ok.loc[ok["change"].idxmax()] if len(ok) else None
        rows.append(
            {
                "choice_id": cid,
                "era": era,
                "phase": phase,
                "statistic": stat,
                "low_change": min(0.0, lo["change"]) if lo is not None else 0.0,
                "low_option": lo["option"] if lo is not None else "",
                "high_change": max(0.0, hi["change"]) if hi is not None else 0.0,
                "high_option": hi["option"] if hi is not None else "",
                "not_estimable": " ".join(dict.fromkeys(g.loc[g["estimate"].isna(), "option"])),
            }
        )
    return pd.DataFrame(
        rows,
        columns=[
            "choice_id",
            "era",
            "phase",
            "statistic",
            "low_change",
            "low_option",
            "high_change",
            "high_option",
            "not_estimable",
        ],
    )
