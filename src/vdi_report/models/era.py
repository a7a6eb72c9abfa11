"""Planning figures by era, the document as the unit of replication.

Two eras (``data/raw/vocabulary.csv``, field ``era``): ``seed`` (the four 2016–2018 documents:
Login VSI 4.x, Windows 7/10 1709, VMware Horizon, storage arrays) and ``modern`` (the external
documents, 2022–2024: Login Enterprise knowledge worker, Windows 10 22H2/11, Citrix MCS and
Provisioning on hyperconverged clusters). A document's era is its ``role`` in sources.csv
(``ERA_OF_ROLE``). Eras are never pooled: each era's rows come from its own documents only, and
the modern rows carry their ratio to the seed row of the same cell.

Pipeline: ``run_figures`` (one figure per test run and cell, with its status: an exact value, or
bounds) -> ``document_figures`` (one figure per document and cell: runs of one document are not
independent) -> ``pool`` (per era and cell, the lab as the unit of replication: a random-effects
meta-analysis of ln IOPS per desktop over labs, statsmodels ``combine_effects``; a 90 % prediction
interval for a new lab with the cell's own τ² from ``MIN_FOR_PI`` labs, else with τ² borrowed from
the seed labs, choice ``tau2_source``, or the range of the labs' runs) -> ``planning_rows``;
``leave_one_document_out`` checks each era's rows against each held-out document, ``calibration``
each cell's labs held out in turn (leave one lab out);
``external_evidence`` reads every external figure against the seed rows with its true status.
Every function here that takes ``sources_df`` reads sources.csv only as that argument
(``raw.sources.load_sources``, loaded once by the stage): None raises TypeError naming the function.

Cells (``CELLS``): ``login`` ``peak`` (the login storm's peak, IOPS per desktop),
``steady_state`` ``average``, and the whole-test average: ``login_and_steady_state`` (seed: a
Login VSI run, login storm and steady state) or ``full_run`` (modern: a whole Login Enterprise
run, whose window also holds the boot and an idle wait, register D-RA2053-08) — compared with
each other as the two eras' whole-test averages (``WHOLE_TEST``).

How a modern figure is read (the documents print controller read and write IOPS, no totals):
- read average + write average of one run = the run's total average (exact: an average of a sum
  is the sum of the averages);
- one direction's peak alone is a lower bound of the total peak (the total is at least either
  part at any instant): the larger of the read and write peaks;
- read peak + write peak is an upper bound (the two peaks need not coincide).
A run known only by bounds enters its document's figure at the geometric midpoint of its bounds
(an assumption, labelled); the row's interval then spans its runs' bounds.

Worker class: the planning rows are knowledge-worker rows. Seed observations of the Login VSI
classes ``PLANNING_CLASSES`` (office, knowledge, power: NetApp tested office workers, AccelStor
knowledge and power) enter; a task-worker sample (Hitachi's four representative light
desktops) does not: Login VSI defines task workers as a lighter workload, so pooling them pulls
the knowledge figure down. Variants that are not the daily design case are left out
(``EXCLUDED_VARIANTS``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from .. import catalogue
from ..config import ERAS
from . import harness

ERA_OF_ROLE = {"seed": "seed", "external": "modern"}
MIN_FOR_PI = 3  # documents: with fewer, the interval is the range of the documents (a PI from two points is vacuous)
PI_ALPHA = 0.10
PLANNING_CLASS = "knowledge"
PLANNING_CLASSES = ("office", "knowledge", "power")  # Login VSI classes behind a knowledge-worker row (task excluded)
EXCLUDED_VARIANTS = {  # under the default login_variant (monday)
    "tuesday": "Tuesday login (warm caches); Monday is the design case",
    "first_run": "first run: user profiles created for the first time, not the daily login",
}
LOGIN_VARIANTS = ("monday", "tuesday")  # choice login_variant (data/raw/analysis_choices.csv)


def excluded_variants(login_variant: str = "monday") -> dict[str, str]:
    """The run variants a planning row leaves out, with the reason: the first run (profiles created
    for the first time), and the login day the choice ``login_variant`` does not take (``monday``,
    the default, is the design case: cold caches; ``tuesday`` takes the warm-cache login instead).
    Raises ValueError for another login variant."""
    if login_variant not in LOGIN_VARIANTS:
        raise ValueError(f"login_variant must be one of {LOGIN_VARIANTS}, got {login_variant!r}")
    if login_variant == "monday":
        return dict(EXCLUDED_VARIANTS)
    return {
        "monday": "Monday login (cold caches); the choice login_variant takes Tuesday's",
        "first_run": EXCLUDED_VARIANTS["first_run"],
    }


WHOLE_TEST = "whole-test average"
CELLS = {
    ("login", "peak"): "login peak",
    ("steady_state", "average"): "steady-state average",
    ("login_and_steady_state", "average"): WHOLE_TEST,
    ("full_run", "average"): WHOLE_TEST,
}
STATUS = ("exact", "lower bound", "upper bound", "bounds")
RUN_COLUMNS = [
    "era",
    "source_id",
    "vendor",
    "lab",
    "provisioning",
    "test_id",
    "configuration",
    "variant",
    "worker_class",
    "phase",
    "statistic",
    "cell",
    "value",
    "low",
    "high",
    "status",
    "desktops",
    "record_ids",
]
DOC_COLUMNS = [
    "era",
    "source_id",
    "vendor",
    "lab",
    "provisioning",
    "cell",
    "phase",
    "statistic",
    "value",
    "low",
    "high",
    "status",
    "n_runs",
    "record_ids",
    "run_values",
]


def _gmean(x) -> float:
    v = np.asarray(list(x), dtype=float)
    v = v[~np.isnan(v)]
    if len(v) and (v == v[0]).all():
        return float(v[0])  # one value (or repeats of it): itself, without a round trip through ln
    return float(np.exp(np.log(v).mean())) if len(v) else np.nan


def _sources(sources_df: pd.DataFrame | None, caller: str = "era") -> pd.DataFrame:
    """``sources_df`` (sources.csv); TypeError naming ``caller`` when None (``raw.sources.required``)."""
    from ..raw import sources

    return sources.required(sources_df, caller)


def _setup() -> pd.DataFrame:
    """data/raw/test_setup.csv, one row per source and configuration (``raw.test_setup.wide``)."""
    from ..raw import test_setup

    return test_setup.setup_wide()


def provisioning_of(setup_wide: pd.DataFrame, source_id: str, configuration: str) -> str:
    """The provisioning of a modern run (data/raw/test_setup.csv, factor ``provisioning``: ``mcs``
    or ``pvs``); ``""`` when the file does not say."""
    from ..raw import test_setup

    return test_setup.lookup(setup_wide, source_id, configuration, "provisioning")[0]


PROVISIONING_POOLINGS = ("separate", "pooled")  # choice provisioning_pooling (data/raw/analysis_choices.csv)
CITRIX = ("mcs", "pvs")
PROVISIONING_REGISTER = ("D-RA2053-02", "D-RA2136-02")  # the register entries that keep MCS and Provisioning apart
SIZING_PROVISIONING = "mcs"  # the provisioning of the default modern rows (the boot storms were all MCS tests)


def provisioning_group(era: str, provisioning: pd.Series, pooling: str = "separate") -> pd.Series:
    """The provisioning a run's figure is pooled under: modern runs by their own (``mcs``,
    ``pvs``: register D-RA2053-02, D-RA2136-02, Provisioning serves reads from the provisioning
    server's memory) unless ``pooling == "pooled"`` (``mcs+pvs``); seed runs (VMware Horizon
    clones, no register entry against pooling them) under the era's clone types joined by ``+``.
    Raises ValueError for another pooling."""
    if pooling not in PROVISIONING_POOLINGS:
        raise ValueError(f"provisioning pooling must be one of {PROVISIONING_POOLINGS}, got {pooling!r}")
    p = provisioning.fillna("").astype(str)
    if era == "seed":
        return pd.Series("+".join(sorted(set(p) - {""})) or "not stated", index=p.index)
    if pooling == "pooled":  # a run whose provisioning test_setup.csv does not state stays "not stated"
        return p.where(~p.isin(CITRIX), "+".join(CITRIX)).replace("", "not stated")
    return p.replace("", "not stated")


def sizing_rows(plan: pd.DataFrame, provisioning: str = SIZING_PROVISIONING) -> pd.DataFrame:
    """The planning rows a sizing reads (one per era and cell): seed rows, and the modern rows of
    ``provisioning`` (or of MCS and Provisioning pooled, when the choice pools them)."""
    keep = (plan["era"] != "modern") | plan["provisioning"].isin([provisioning, "+".join(CITRIX)])
    return plan[keep].reset_index(drop=True)


def _seed_runs(results: pd.DataFrame, sources_df: pd.DataFrame, obs: pd.DataFrame | None = None) -> pd.DataFrame:
    """Seed observations of the IOPS model (``iops.observations``: one per document, cell and
    worker class, standard loads, front end preferred; ``obs`` when given, e.g. under a reviewer's
    analysis choices) of the ``PLANNING_CLASSES``."""
    from . import iops

    o = iops.observations(results, sources_df=sources_df) if obs is None else obs
    o = o[o["worker_class"].isin(PLANNING_CLASSES)]
    src = _sources(sources_df, "era._seed_runs").set_index("source_id")
    return pd.DataFrame(
        {
            "era": "seed",
            "source_id": o["source_id"],
            "vendor": o["vendor"],
            "lab": o["source_id"].map(src["lab"]),
            "provisioning": o["source_id"].map(src["clone_type"]),
            "test_id": "",
            "configuration": "",
            "variant": "",
            "worker_class": o["worker_class"],
            "phase": o["phase"],
            "statistic": o["statistic"],
            "cell": [CELLS[(p, s)] for p, s in zip(o["phase"], o["statistic"])],
            "value": o["iops_per_desktop"],
            "low": o["low"],
            "high": o["high"],
            "status": "exact",
            "desktops": np.nan,
            "record_ids": o["record_ids"],
        }
    )


PEAK_BOUND_POINTS = ("geometric_mid", "lower", "upper")  # choice peak_bounds_point (data/raw/analysis_choices.csv)
PROBE_HANDLINGS = ("separate", "pooled")  # choice probe_handling (data/raw/analysis_choices.csv)
# Documents whose Login Enterprise probes differ from the default modern rows' (test_setup.csv factor
# ``probes``), with the register entry that keeps them apart: the 2023 edition of RA-2022 ran the
# 2023 EUX Score's disk actions, which raised IOPS "up to 10 times" (ra-2022-06 L48); the 2024
# editions modified the EUX settings (their appendices, "EUX Setting Customization").
UNLIKE_PROBES = {"nutanix_ra2022_2023": "D-RA2022E-03"}
# Where profile I/O lands, of runs the modern rows leave out (test_setup.csv factor
# ``profile_storage``): on a file service of another cluster the desktop cluster's controllers do
# not count the profile I/O, so the run measures another data path (no 2024 run has it).
PROFILE_STORAGE_APART = ("file_service_separate",)
# The (phase, statistic) of a modern run that enter the cells: the whole Login Enterprise run's
# average (2024 editions, window test: boot, idle wait, logons and steady state, register
# D-RA2053-08), the login peak, and the 2023 edition's whole-test average (chart legends over
# 01:00-02:07, logons and steady state, no boot: ra-2022-07 L195, L271), which enters the same
# whole-test cell under probe_handling = pooled.
MODERN_CELLS = (("full_run", "average"), ("login", "peak"), ("login_and_steady_state", "average"))


PROFILE_STORAGES = ("storage_under_test", "any")  # choice profile_storage (data/raw/analysis_choices.csv)


@dataclass(frozen=True)
class EraChoices:
    """The analysis choices (data/raw/analysis_choices.csv) that reach the planning rows, in one
    object every caller passes (``planning_rows``, ``run_figures``, ``_modern_runs``, the
    sensitivity grid, the calibration): the option of each, by its choice id's meaning.

    register (``register_resolutions``: apply|ignore), peak_point (``peak_bounds_point``),
    probes (``probe_handling``), profile_storage (``profile_storage``: ``storage_under_test``
    leaves out runs whose profile I/O lands on a file service of another cluster, ``any`` keeps
    them), login_variant (``login_variant``: which login day's runs enter, ``excluded_variants``),
    provisioning_pooling, boot_pooling, boot_peak_average (``boot_peak_to_average``), tau2_source.
    Raises ValueError naming the field and its options for an option the code does not know."""

    register: str = "apply"
    peak_point: str = "geometric_mid"
    probes: str = "separate"
    profile_storage: str = "storage_under_test"
    login_variant: str = "monday"
    provisioning_pooling: str = "separate"
    boot_pooling: str = "geometric_mean"
    boot_peak_average: str = "none"
    tau2_source: str = "borrowed_seed"

    def __post_init__(self):
        from .boot import POOLINGS

        allowed = {
            "register": ("apply", "ignore"),
            "peak_point": PEAK_BOUND_POINTS,
            "probes": PROBE_HANDLINGS,
            "profile_storage": PROFILE_STORAGES,
            "login_variant": LOGIN_VARIANTS,
            "provisioning_pooling": PROVISIONING_POOLINGS,
            "boot_pooling": POOLINGS,
            "boot_peak_average": PEAK_TO_AVERAGE,
            "tau2_source": TAU2_SOURCES,
        }
        for f in fields(self):
            v = getattr(self, f.name)
            if v not in allowed[f.name]:
                raise ValueError(f"{f.name} one of {allowed[f.name]}; got {v!r}")

    @classmethod
    def from_choices(cls, ch) -> EraChoices:
        """The options of ``ch`` (a ``raw.choices.Choices`` or a mapping choice id -> option)."""
        return cls(**{f: ch[c] for f, c in CHOICE_IDS.items()})


CHOICE_IDS = {  # EraChoices field -> the choice id of data/raw/analysis_choices.csv
    "register": "register_resolutions",
    "peak_point": "peak_bounds_point",
    "probes": "probe_handling",
    "profile_storage": "profile_storage",
    "login_variant": "login_variant",
    "provisioning_pooling": "provisioning_pooling",
    "boot_pooling": "boot_pooling",
    "boot_peak_average": "boot_peak_to_average",
    "tau2_source": "tau2_source",
}


def _modern_runs(
    results: pd.DataFrame,
    sources_df: pd.DataFrame,
    choices: EraChoices | None = None,
    variants: bool = False,
) -> pd.DataFrame:
    """Per external run: the whole-test average (read + write averages, exact) and the login peak
    (bounds from the read and write peaks). Front-end (controller) figures, normal condition,
    records used in the analysis (``choices.register``: choice ``register_resolutions``;
    ``ignore`` uses the records the register sets aside too); ``variants``: keep the variants
    ``excluded_variants(choices.login_variant)`` leaves out too. A peak known by bounds enters at
    ``choices.peak_point`` (choice ``peak_bounds_point``): the geometric midpoint of its bounds
    (assumed), or the lower or upper bound. ``choices.probes`` (choice ``probe_handling``):
    ``separate`` leaves out the documents of ``UNLIKE_PROBES`` (another Login Enterprise probe
    setting), ``pooled`` keeps their runs (the 2023 edition's whole-test average, phase
    ``login_and_steady_state``, enters the whole-test cell). Runs whose profile I/O lands on a
    file service of another cluster (``PROFILE_STORAGE_APART``) are left out unless
    ``choices.profile_storage`` is ``any``. Columns ``RUN_COLUMNS`` (value, low, high: IOPS per
    desktop). ``choices``: ``EraChoices`` (default: the declared defaults)."""
    opts = choices or EraChoices()
    register, peak_point, probes = opts.register, opts.peak_point, opts.probes
    profiles_apart = opts.profile_storage == "any"
    from ..raw import test_setup
    from . import semantics

    r = semantics.observation_semantics(results, sources_df)
    if probes == "separate":
        r = r[~r["source_id"].isin(list(UNLIKE_PROBES))]
    r = r[
        (r["role"] == "external")
        & (r["used_in_analysis"] | (register == "ignore"))
        & (r["condition"].isin(["normal", ""]))
        & r["metric"].isin(["read_iops", "write_iops"])
        & (r["vantage"] == "array_frontend")
        & r["worker_class"].isin(PLANNING_CLASSES)
    ]
    if not variants:
        r = r[~r["variant"].isin(list(excluded_variants(opts.login_variant)))]
    keys = ["source_id", "vendor", "test_id", "configuration", "variant", "worker_class", "phase", "statistic"]
    lab = _sources(sources_df, "era._modern_runs").set_index("source_id")["lab"]
    setup = _setup()
    rows = []
    for k, g in r.groupby(keys, sort=True):
        phase, stat = k[-2], k[-1]
        if (phase, stat) not in MODERN_CELLS:
            continue
        if not profiles_apart and test_setup.lookup(setup, k[0], k[3], "profile_storage")[0] in PROFILE_STORAGE_APART:
            continue
        g = g.sort_values("record_id").drop_duplicates("metric")
        if set(g["metric"]) != {"read_iops", "write_iops"} or not g["bound"].isin(["eq", "approx"]).all():
            continue
        rd, wr = (g[g["metric"] == m].iloc[0] for m in ("read_iops", "write_iops"))
        n = float(rd["desktops"])
        ids = f"{rd['record_id']} {wr['record_id']}"
        base = dict(zip(keys, k)) | {
            "era": "modern",
            "lab": lab.get(k[0], k[0]),
            "provisioning": provisioning_of(setup, k[0], k[3]),
            "cell": CELLS[(phase, stat)],
            "desktops": n,
            "record_ids": ids,
        }
        if stat == "average":
            v = (rd["value"] + wr["value"]) / n
            rows.append(base | {"value": v, "low": v, "high": v, "status": "exact"})
        else:
            lo, hi = max(rd["value"], wr["value"]) / n, (rd["value"] + wr["value"]) / n
            point = {"geometric_mid": float(np.sqrt(lo * hi)), "lower": lo, "upper": hi}[peak_point]
            rows.append(base | {"value": point, "low": lo, "high": hi, "status": "bounds"})
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def run_figures(
    results: pd.DataFrame,
    sources_df: pd.DataFrame,
    obs: pd.DataFrame | None = None,
    choices: EraChoices | None = None,
) -> pd.DataFrame:
    """One figure per test run (seed: per worker class, as the IOPS model observes it) and cell,
    both eras. Columns ``RUN_COLUMNS``: value, low, high in IOPS per desktop; status ``exact``
    (low = high = value, or a printed range) or ``bounds`` (low: one direction's peak, high: the
    sum of the read and write peaks; value: their geometric midpoint, assumed, or the bound the
    choice ``peak_bounds_point`` names). ``choices``: ``EraChoices``, see ``_modern_runs``."""
    runs = [_seed_runs(results, sources_df, obs), _modern_runs(results, sources_df, choices)]
    return pd.concat(runs, ignore_index=True)[RUN_COLUMNS]


def grouped_runs(
    results: pd.DataFrame,
    sources_df: pd.DataFrame,
    obs: pd.DataFrame | None = None,
    choices: EraChoices | None = None,
) -> pd.DataFrame:
    """``run_figures`` under ``choices`` (``EraChoices``) with ``provisioning`` replaced by the
    group each run is pooled under (``provisioning_group`` under ``choices.provisioning_pooling``:
    seed runs under their era's clone types, modern runs by MCS and Provisioning apart, or
    pooled)."""
    opts = choices or EraChoices()
    runs = run_figures(results, sources_df, obs, opts)
    if len(runs):
        runs["provisioning"] = pd.concat(
            [
                provisioning_group(e, g["provisioning"], opts.provisioning_pooling)
                for e, g in runs.groupby("era", sort=False)
            ]
        ).reindex(runs.index)
    return runs


def document_figures(runs: pd.DataFrame) -> pd.DataFrame:
    """One figure per document, provisioning (``runs``' column, as grouped by the caller) and
    cell: the geometric mean of its runs (value), the lowest
    low and highest high of its runs; status ``exact`` when every run is, else ``bounds``.
    Columns ``DOC_COLUMNS`` (n_runs: runs or worker classes behind the figure; run_values: their
    values, a tuple, the replicates of ``lab_effects``)."""
    rows = []
    for (era, sid, prov, cell), g in runs.groupby(["era", "source_id", "provisioning", "cell"], sort=True):
        rows.append(
            {
                "era": era,
                "source_id": sid,
                "vendor": g["vendor"].iloc[0],
                "lab": g["lab"].iloc[0],
                "provisioning": prov,
                "cell": cell,
                "phase": g["phase"].iloc[0],
                "statistic": g["statistic"].iloc[0],
                "value": _gmean(g["value"]),
                "low": float(g["low"].min()),
                "high": float(g["high"].max()),
                "status": "exact" if (g["status"] == "exact").all() else "bounds",
                "n_runs": len(g),
                "record_ids": " ".join(g["record_ids"]),
                "run_values": tuple(float(x) for x in g["value"]),
            }
        )
    return pd.DataFrame(rows, columns=DOC_COLUMNS)


SPANS = {
    1: "one lab's runs",
    2: "range of 2 labs",
    "pi": "prediction interval for a new lab",
    "borrowed": "prediction interval for a new lab, τ² borrowed from the seed labs",
    "gt": "lower bound",
}

# Between-lab heterogeneity (issue 24): a random-effects meta-analysis of ln IOPS per desktop over
# labs, by ``statsmodels.stats.meta_analysis.combine_effects`` (maintained, already in the stack,
# gives the DerSimonian-Laird and Paule-Mandel τ² and I² of one call; PyMARE would add a dependency
# for the same estimators).
TAU2_SOURCES = ("borrowed_seed", "none")  # choice tau2_source (data/raw/analysis_choices.csv)
TAU2_ESTIMATOR = "dl"  # DerSimonian-Laird: closed form, defined from two labs (Paule-Mandel: "pm")


@functools.cache
def borrowed_z() -> float:
    """The normal quantile of the 90 % interval with τ² borrowed (1.645; scipy.stats.norm.ppf).
    A function, not a constant: importing scipy.stats took 1.5 s of every report notebook run,
    which never needs it."""
    from scipy import stats

    return float(stats.norm.ppf(1 - PI_ALPHA / 2))


# With τ² borrowed (fewer than MIN_FOR_PI labs in the cell), τ² is taken as known and the interval
# uses the normal quantile: the t quantile with the cell's own k - 1 degrees of freedom does not
# exist for one lab, and t with the 1 degree of freedom of a two-lab τ² (6.31) makes any interval
# vacuous. The interval is therefore optimistic about the uncertainty of τ² itself (it rests on two
# seed labs per cell): the leave-one-lab-out calibration (``calibration``) checks it.


def lab_effects(values: pd.Series, labs: pd.Series, replicates: pd.Series | None = None) -> pd.DataFrame:
    """One effect per lab on the log scale: ``effect`` = ln of the lab's figure (the geometric mean
    of its documents' ``values``), ``variance`` = the within-lab variance of that mean, var/n of
    its replicates' logs (sample variance, ddof 1): its documents when it has two or more, else its
    one document's runs (``replicates``: per document, the values of its runs; default: the
    document's value alone); NaN where the lab has a single replicate (``with_floor`` fills it).
    ``n`` replicates. Index: lab (sorted)."""
    rows = {}
    for lab, idx in values.groupby(labs, sort=True).groups.items():
        v = values.loc[idx].astype(float)
        if len(v) >= 2:
            reps = list(v)
        elif replicates is not None and isinstance(replicates.loc[idx[0]], (list, tuple)):
            reps = [float(x) for x in replicates.loc[idx[0]]]
        else:
            reps = [float(v.iloc[0])]
        logs = np.log(np.asarray(reps, dtype=float))
        var = float(logs.var(ddof=1) / len(logs)) if len(logs) >= 2 else np.nan
        rows[lab] = {"effect": float(np.log(_gmean(v))), "variance": var, "n": len(logs)}
    return pd.DataFrame.from_dict(rows, orient="index", columns=["effect", "variance", "n"])


def with_floor(effects: pd.DataFrame, floor: float) -> pd.DataFrame:
    """``effects`` with a lab of a single replicate given the within-lab variance ``floor`` (the
    median within-lab variance of its era's labs, ``variance_floor``); a measured variance below
    the floor is raised to it (two nearly equal runs do not make a lab more certain than the
    era's typical lab)."""
    e = effects.copy()
    f = 0.0 if floor is None or np.isnan(floor) else float(floor)
    e["variance"] = e["variance"].fillna(f).clip(lower=f)
    return e


def variance_floor(docs: pd.DataFrame) -> float:
    """The within-lab variance given to a lab with a single run: the median, over the era's cells,
    provisioning groups and labs with two or more replicates (``lab_effects``), of their within-lab
    variances of ln IOPS per desktop; NaN when no lab has two. ``docs``: ``document_figures`` of one
    era (with ``run_values``)."""
    v = []
    for _, d in docs.groupby(["provisioning", "cell"], sort=True):
        e = lab_effects(d["value"], d["lab"], d.get("run_values"))
        v += list(e["variance"].dropna())
    return float(np.median(v)) if v else np.nan


def meta_analysis(effects: pd.DataFrame) -> dict:
    """Random-effects meta-analysis of the labs' ``effects`` (``lab_effects`` after ``with_floor``)
    by ``combine_effects`` (``TAU2_ESTIMATOR``): ``mu`` (ln), ``se`` (of mu), ``tau2``, ``i2``,
    ``k`` labs. Where no lab has a within-lab variance (an era without a lab of two runs, e.g.
    leaving the one such lab out), the limit of DerSimonian-Laird as the variances go to zero:
    τ² = the sample variance of the effects, I² = 1. Raises ValueError with fewer than two labs
    (τ² is not estimable)."""
    from statsmodels.stats.meta_analysis import combine_effects

    if len(effects) < 2:
        raise ValueError(f"a meta-analysis needs two labs or more, got {len(effects)}")
    y, v = effects["effect"].to_numpy(dtype=float), effects["variance"].to_numpy(dtype=float)
    if (v <= 0).all():  # no within-lab variance known: the limit v -> 0 of DerSimonian-Laird
        tau2 = float(y.var(ddof=1))
        return {"mu": float(y.mean()), "se": float(np.sqrt(tau2 / len(y))), "tau2": tau2, "i2": 1.0, "k": len(y)}
    v = np.where(v > 0, v, v[v > 0].min())  # a lab of zero variance weighs as the most certain other lab
    r = combine_effects(y, v, method_re=TAU2_ESTIMATOR)
    tau2 = float(r.tau2)
    if tau2 >= 0:
        return {"mu": float(r.mean_effect_re), "se": float(r.sd_eff_w_re), "tau2": tau2, "i2": float(r.i2), "k": len(y)}
    # DerSimonian-Laird truncates τ² at zero (Q below its degrees of freedom; statsmodels returns the
    # negative moment estimate): the fixed-effect weights then, I² = 0
    w = 1.0 / v
    return {
        "mu": float((w * y).sum() / w.sum()),
        "se": float(np.sqrt(1.0 / w.sum())),
        "tau2": 0.0,
        "i2": 0.0,
        "k": len(y),
    }


def prediction_interval(mu: float, se: float, tau2: float, quantile: float) -> tuple[float, float]:
    """The prediction interval for a new lab on the IOPS scale (Higgins, Thompson & Spiegelhalter
    2009): exp(mu ± quantile · sqrt(τ² + se²)), ``se`` the random-effects standard error of mu
    (1/sqrt(Σ 1/(v + τ²)): with one lab v + τ², so a new lab differs from it by 2τ² + v);
    ``quantile``: t with k - 1 degrees of freedom for a cell's own τ², ``borrowed_z()`` for a
    borrowed one."""
    half = quantile * np.sqrt(tau2 + se**2)
    return float(np.exp(mu - half)), float(np.exp(mu + half))


def pool(
    values: pd.Series,
    lows: pd.Series | None = None,
    highs: pd.Series | None = None,
    labs: pd.Series | None = None,
    replicates: pd.Series | None = None,
    floor: float | None = None,
    borrowed: tuple[float, str] | None = None,
) -> dict:
    """Pool documents' figures (one per document) with the lab as the unit of replication.

    ``labs``: each document's lab (sources.csv ``lab``; default: every document its own lab).
    A lab's figure is the geometric mean of its documents' (documents of one lab share hardware
    family, images, harness and staff: they are not independent deployments); its within-lab
    variance on the log scale is ``lab_effects`` (``replicates``: per document, its runs' values),
    ``floor`` for a lab of one run (``with_floor``; default: the median of the measured ones here).

    Returns ``estimate``, ``pi90_low``, ``pi90_high``, ``interval_kind`` (in words),
    ``interval_spans`` (``SPANS``), ``tau2``, ``i2`` (NaN where not estimated), ``tau2_source``
    (``own labs``, ``seed cell``, ``seed median`` or ``""``), ``n_documents``, ``n_labs``, ``labs``.

    - ``MIN_FOR_PI`` labs or more: the random-effects mean of the labs (``meta_analysis``) and the
      90 % prediction interval for a new lab with the cell's own τ² and t with k - 1 degrees of
      freedom (``prediction_interval``).
    - fewer, and ``borrowed`` = (τ², source) given (choice ``tau2_source = borrowed_seed``): the
      labs' geometric mean, the labs weighing equally (with one or two labs a random-effects
      weighting would rest on a floor variance; the estimate stays the one the range rows had),
      its standard error sqrt(Σ(v + τ²))/k (one lab: v + τ², as random effects give), and the
      interval for a new lab with the normal quantile (``borrowed_z()``); I² of the cell's own labs
      where there are two.
    - fewer and nothing borrowed (``tau2_source = none``): the labs' geometric mean and, as
      interval, the range of their documents' runs or bounds (``lows``/``highs``): "one lab's runs"
      or "range of 2 labs", never an interval for a new lab.

    Every interval is widened to cover ``lows``/``highs`` (a run's bounds)."""
    v = pd.Series(values, dtype=float).dropna()
    lo = pd.Series(lows if lows is not None else values, dtype=float).loc[v.index]
    hi = pd.Series(highs if highs is not None else values, dtype=float).loc[v.index]
    lab = pd.Series(labs, dtype=str).loc[v.index] if labs is not None else pd.Series(v.index.astype(str), index=v.index)
    reps = pd.Series(replicates, dtype=object).loc[v.index] if replicates is not None else None
    n = len(v)
    out = {"tau2": np.nan, "i2": np.nan, "tau2_source": "", "n_documents": n}
    if n == 0:
        return out | {
            "estimate": np.nan,
            "pi90_low": np.nan,
            "pi90_high": np.nan,
            "interval_kind": "not estimable",
            "interval_spans": "not estimable",
            "n_labs": 0,
            "labs": [],
        }
    eff = lab_effects(v, lab, reps)
    if floor is None:
        floor = float(eff["variance"].median()) if eff["variance"].notna().any() else 0.0
    eff = with_floor(eff, floor)
    k = len(eff)
    lab_gmean = _gmean(v.groupby(lab, sort=True).agg(_gmean))  # the labs' geometric mean, no round trip via ln
    out |= {"n_labs": k, "labs": sorted(eff.index) if labs is not None else []}
    docs = f"{n} document{'s' if n > 1 else ''}"
    if k >= MIN_FOR_PI:
        m = meta_analysis(eff)
        from scipy import stats  # not at import: see borrowed_z

        low, high = prediction_interval(m["mu"], m["se"], m["tau2"], float(stats.t.ppf(1 - PI_ALPHA / 2, k - 1)))
        return out | {
            "estimate": float(np.exp(m["mu"])),
            "pi90_low": float(min(low, lo.min())),
            "pi90_high": float(max(high, hi.max())),
            "interval_kind": f"90 % prediction interval for a new lab over {k} labs ({docs}; random-effects "
            f"meta-analysis of ln, τ² {m['tau2']:.3f} of these labs, I² {m['i2']:.0%})",
            "interval_spans": SPANS["pi"],
            "tau2": m["tau2"],
            "i2": m["i2"],
            "tau2_source": "own labs",
        }
    if borrowed is not None:
        tau2, source = float(borrowed[0]), borrowed[1]
        mu = float(eff["effect"].mean())  # the labs weigh equally: the estimate stays their geometric mean
        se = float(np.sqrt((eff["variance"] + tau2).sum()) / k)
        low, high = prediction_interval(mu, se, tau2, borrowed_z())
        i2 = meta_analysis(eff)["i2"] if k >= 2 else np.nan
        return out | {
            "estimate": lab_gmean,
            "pi90_low": float(min(low, lo.min())),
            "pi90_high": float(max(high, hi.max())),
            "interval_kind": f"90 % prediction interval for a new lab, τ² {tau2:.3f} borrowed from the seed labs "
            f"({source}; {k} lab{'s' if k > 1 else ''} here, {docs}; normal quantile, τ² taken as known)",
            "interval_spans": SPANS["borrowed"],
            "tau2": tau2,
            "i2": i2,
            "tau2_source": source.split(":")[0],
        }
    kind = (
        f"one lab's runs ({docs}): their range, not an interval for a new lab"
        if k == 1
        else f"range of {k} labs and their runs ({docs}; too few labs for a prediction interval)"
    )
    return out | {
        "estimate": lab_gmean,
        "pi90_low": float(lo.min()),
        "pi90_high": float(hi.max()),
        "interval_kind": kind,
        "interval_spans": SPANS[k],
    }


def seed_tau2(docs: pd.DataFrame, boot_docs: pd.DataFrame | None = None, floor: float | None = None) -> dict:
    """τ² of the seed era, per cell with two labs or more (``meta_analysis`` of ``lab_effects``
    with the era's ``floor``): ``{cell: (tau2, n_labs)}`` and ``"median"``: (the median τ² over
    those cells, their count), NaN where no cell has two labs. ``docs``: seed ``document_figures``
    (with ``run_values``); ``boot_docs``: the seed boot figures (``_boot_docs``), cells
    ``BOOT_CELLS``' values."""
    allf = pd.concat([docs, boot_docs], ignore_index=True) if boot_docs is not None else docs
    if floor is None:
        floor = variance_floor(allf)
    out = {}
    for cell, d in allf.groupby("cell", sort=True):
        if d["lab"].nunique() >= 2:
            e = with_floor(lab_effects(d["value"], d["lab"], d.get("run_values")), floor)
            out[cell] = (meta_analysis(e)["tau2"], len(e))
    t = [x[0] for x in out.values()]
    out["median"] = (float(np.median(t)) if t else np.nan, len(t))
    return out


def borrowed_tau2(tau2s: dict, cell: str, source: str = "borrowed_seed") -> tuple[float, str] | None:
    """The τ² a cell of fewer than ``MIN_FOR_PI`` labs borrows under choice ``tau2_source``
    (``TAU2_SOURCES``): ``borrowed_seed``: the seed era's same cell (``seed_tau2``) where it has
    two labs or more, else the median over the seed cells; ``none``: None (no interval for a new
    lab). Returns (τ², source in words) or None (also when the seed labs give no τ²). Raises
    ValueError for another option."""
    if source not in TAU2_SOURCES:
        raise ValueError(f"tau2_source must be one of {TAU2_SOURCES}, got {source!r}")
    if source == "none":
        return None
    if cell in tau2s and not np.isnan(tau2s[cell][0]):
        return tau2s[cell][0], f"seed cell: the {tau2s[cell][1]} seed labs of this cell"
    med, n = tau2s.get("median", (np.nan, 0))
    if np.isnan(med):
        return None
    return med, f"seed median: the median over the {n} seed cells with two labs or more"


def login_windows(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """The login window behind each document's login peak: minutes for all its desktops to log
    in, and the login rate (desktops per minute = desktops ÷ window).

    From results.csv, records used in the analysis, worker classes ``PLANNING_CLASSES``: a
    session launch interval (metric ``login_interval``, s) x the test's desktops, else a stated
    login-phase duration (phase ``login``, metric ``duration``, exact or approximate, min) with
    the test's desktops. Columns: era, source_id, vendor, desktops, login_window_min,
    login_rate_per_min, record_id. One row per document that states one."""
    from . import semantics

    r = semantics.observation_semantics(results, sources_df)
    r = r[r["used_in_analysis"] & (r["worker_class"].isin(PLANNING_CLASSES) | (r["role"] == "external"))]
    rows = []
    for sid, g in r.groupby("source_id", sort=True):
        li = g[(g["metric"] == "login_interval") & g["bound"].isin(["eq", "approx"])].sort_values("record_id")
        du = g[(g["phase"] == "login") & (g["metric"] == "duration") & g["bound"].isin(["eq", "approx"])].sort_values(
            "record_id"
        )
        if len(li):
            x = li.iloc[0]
            window = float(x["desktops"]) * float(x["value"]) / 60.0
        elif len(du):
            x = du.iloc[0]
            window = float(x["value"])
        else:
            continue
        rows.append(
            {
                "era": ERA_OF_ROLE.get(x["role"], x["role"]),
                "source_id": sid,
                "vendor": x["vendor"],
                "desktops": float(x["desktops"]),
                "login_window_min": window,
                "login_rate_per_min": float(x["desktops"]) / window,
                "record_id": x["record_id"],
            }
        )
    return pd.DataFrame(
        rows, columns=["era", "source_id", "vendor", "desktops", "login_window_min", "login_rate_per_min", "record_id"]
    )


VERDICTS = ("inside", "above", "below", "uninformative")
STATUS_OF_BOUND = {"eq": "exact", "approx": "exact", "": "exact", "gt": "lower bound", "lt": "upper bound"}


def verdict(observed: float, status: str, low: float, high: float) -> str:
    """What a figure says about an interval ``low``–``high`` (same unit), by its status: an
    ``exact`` value is ``inside``, ``above`` or ``below``; a ``lower bound`` (the true figure is
    at least ``observed``) above the interval puts the figure ``above`` it, otherwise it cannot
    contradict the interval (``uninformative``); an ``upper bound`` below the interval puts it
    ``below``, otherwise ``uninformative``. Raises ValueError for another status or a missing
    number."""
    if any(pd.isna(x) for x in (observed, low, high)):
        raise ValueError(f"verdict needs observed, low and high, got {observed!r}, {low!r}, {high!r}")
    if status == "exact":
        return "inside" if low <= observed <= high else ("above" if observed > high else "below")
    if status == "lower bound":
        return "above" if observed > high else "uninformative"
    if status == "upper bound":
        return "below" if observed < low else "uninformative"
    raise ValueError(f"verdict: unknown status {status!r} (expected exact, lower bound or upper bound)")


ERA_PHASES = {
    "seed": {"login peak": "login", "steady-state average": "steady_state", WHOLE_TEST: "login_and_steady_state"},
    "modern": {"login peak": "login", "steady-state average": "steady_state", WHOLE_TEST: "full_run"},
}
BOOT_CELLS = {"peak_per_rate": "boot peak per boot rate", "io_per_boot": "boot I/O per desktop boot"}
BOOT_STATS = (
    ("peak_per_rate", "peak_iops_per_rate", "peak_per_rate_bound", "IOPS per (desktop booted per minute)"),
    ("io_per_boot", "io_per_boot", "io_per_boot_bound", "I/O per desktop boot"),
)
NOT_SEPARABLE = (
    "broker (Citrix MCS and Provisioning against VMware Horizon), load tool (Login Enterprise knowledge "
    "worker against Login VSI 4.x), desktop OS (Windows 10 22H2 and 11 against Windows 7 and 10 1709), "
    "platform (hyperconverged cluster counters against storage arrays), and for the whole-test average "
    "the window (a Login Enterprise run also holds the boot and an idle wait)"
)
PLANNING_COLUMNS = catalogue.table("iops_per_desktop_model").column_names  # the catalogue's declaration


def _labels(sources_df: pd.DataFrame | None, caller: str = "era") -> dict[str, str]:
    from .iops import document_labels

    return document_labels(_sources(sources_df, caller))


PEAK_TO_AVERAGE = ("none", "documents")  # choice boot_peak_to_average (data/raw/analysis_choices.csv)


def peak_to_average(storms: pd.DataFrame) -> dict:
    """The boot peak-to-average factor of the seed documents that state both a peak and an
    average of one boot storm (exact or approximate; NetApp: 117,752 ÷ 57,231 = 2.06, NTAP-0006
    over NTAP-0080, 000:L560): ``factor`` (their geometric mean; NaN without such a document) and
    ``sources`` (list of source ids)."""
    s = storms[
        (storms["role"] == "seed")
        & storms["peak_bound"].isin(["eq", "approx"])
        & storms["average_iops"].notna()
        & storms["peak_iops"].notna()
    ]
    s = s[~s["average_record"].eq("")]
    f = s["peak_iops"].astype(float) / s["average_iops"].astype(float)
    return {"factor": _gmean(f) if len(f) else np.nan, "sources": list(s["source_id"])}


def _boot_docs(storms: pd.DataFrame, era: str) -> pd.DataFrame:
    """The boot figures of one era's documents that are values (bound ``eq`` or ``approx``), one
    row per document and boot statistic, in ``document_figures``' columns (cell: ``BOOT_CELLS``;
    status exact; one replicate each)."""
    role = {v: k for k, v in ERA_OF_ROLE.items()}[era]
    s = storms[storms["role"] == role]
    b = []
    for stat, col, bcol, _ in BOOT_STATS:
        ok = s[s[bcol].isin(["eq", "approx"]) & s[col].notna()]
        prov = provisioning_group(
            era, ok["provisioning"] if "provisioning" in ok.columns else pd.Series("", index=ok.index)
        )
        b += [
            {
                "era": era,
                "source_id": x.source_id,
                "vendor": x.vendor,
                "lab": x.lab,
                "provisioning": prov.loc[x.Index],
                "cell": BOOT_CELLS[stat],
                "phase": "boot",
                "statistic": stat,
                "value": float(getattr(x, col)),
                "low": float(getattr(x, col)),
                "high": float(getattr(x, col)),
                "status": "exact",
                "n_runs": 1,
                "record_ids": "",
                "run_values": (float(getattr(x, col)),),
            }
            for x in ok.itertuples()
        ]
    return pd.DataFrame(b, columns=DOC_COLUMNS)


def boot_rows(
    storms: pd.DataFrame,
    era: str,
    pooling: str = "geometric_mean",
    peak_average: str = "none",
    floor: float | None = None,
    tau2s: dict | None = None,
    tau2_source: str = "borrowed_seed",
) -> list[dict]:
    """The boot rows of one era from ``boot.boot_storms`` (documents of the era's role): THE
    pooling of boot storms (``boot.rate_model`` reads it too). Per statistic (``peak_per_rate``,
    ``io_per_boot``) the documents' exact or approximate values pooled by ``pool`` over labs
    (sources.csv ``lab``); where an era has only lower bounds (an average boot IOPS in place of a
    peak), their geometric mean with bound ``gt`` and NO interval (a bound stays a bound: the
    geometric mean of lower bounds is a lower bound of the geometric mean of the peaks).

    ``pooling`` (choice ``boot_pooling``, ``boot.POOLINGS``): the estimate of an exact row is the
    labs' geometric mean, or the ``highest`` or ``lowest`` document's value; same interval.
    ``peak_average`` (choice ``boot_peak_to_average``, ``PEAK_TO_AVERAGE``): ``documents``
    turns a lower bound of the peak per boot rate into an estimate, the bound × the factor of
    ``peak_to_average`` (bound ``assumed``, no interval). ``floor``, ``tau2s``, ``tau2_source``:
    the era's within-lab variance floor (``variance_floor``), the seed τ² (``seed_tau2``) and the
    choice ``tau2_source`` (``borrowed_tau2``) for an exact row of fewer than ``MIN_FOR_PI`` labs;
    a bound keeps no interval and no τ². rate_low/high: the tested boot rates (desktops per minute)
    of the storms behind the row. Raises ValueError for another option."""
    from . import boot

    if pooling not in boot.POOLINGS:
        raise ValueError(f"pooling must be one of {boot.POOLINGS}, got {pooling!r}")
    if peak_average not in PEAK_TO_AVERAGE:
        raise ValueError(f"peak_average must be one of {PEAK_TO_AVERAGE}, got {peak_average!r}")
    role = {v: k for k, v in ERA_OF_ROLE.items()}[era]
    s = storms[storms["role"] == role]
    out = []
    for stat, col, bcol, unit in BOOT_STATS:
        ok = s[s[bcol].isin(["eq", "approx"]) & s[col].notna()]
        bound = "eq"
        if ok.empty:
            ok, bound = s[(s[bcol] == "gt") & s[col].notna()], "gt"
        if ok.empty:
            continue
        vals = ok[col].astype(float)
        borrowed = borrowed_tau2(tau2s, BOOT_CELLS[stat], tau2_source) if tau2s is not None else None
        p = pool(vals, labs=ok["lab"] if "lab" in ok.columns else None, floor=floor, borrowed=borrowed)
        if pooling != "geometric_mean" and bound == "eq":
            p["estimate"] = float(vals.agg("max" if pooling == "highest" else "min"))
        if bound == "gt":
            what = f"{len(ok)} document{'s' if len(ok) > 1 else ''}"
            p.update(
                pi90_low=np.nan,
                pi90_high=np.nan,
                tau2=np.nan,
                i2=np.nan,
                tau2_source="",
                interval_spans=SPANS["gt"],
                interval_kind=f"lower bound: the geometric mean of the lower bounds of {what} (average boot IOPS "
                "÷ boot rate: the peak is higher); no interval",
            )
            f = peak_to_average(storms)
            if peak_average == "documents" and stat == "peak_per_rate" and not np.isnan(f["factor"]):
                p["estimate"] *= f["factor"]
                bound = "assumed"
                p["interval_kind"] = (
                    f"assumed: the lower bound × the peak-to-average factor {f['factor']:.2f} of "
                    f"{', '.join(f['sources'])} (choice boot_peak_to_average); no interval"
                )
                p["interval_spans"] = "assumed from another document's peak-to-average"
        prov = provisioning_group(
            era, ok["provisioning"] if "provisioning" in ok.columns else pd.Series("", index=ok.index)
        )
        out.append(
            {
                "era": era,
                "phase": "boot",
                "worker_class": "any",
                "statistic": stat,
                "cell": BOOT_CELLS[stat],
                "provisioning": prov.iloc[0] if era == "seed" else "+".join(sorted(set(prov))),
                **p,
                "bound": bound,
                "unit": unit,
                "n_obs": len(ok),
                "vendors": ", ".join(sorted(set(ok["vendor"]))),
                "n_vendors": ok["vendor"].nunique(),
                "_sources": list(ok["source_id"]),
                "_records": [x for c in ("peak_record", "average_record") if c in ok.columns for x in ok[c] if x],
                "rate_low": float(ok["boot_rate_per_min"].astype(float).min()),
                "rate_high": float(ok["boot_rate_per_min"].astype(float).max()),
                "boot_rate_per_min": _gmean(ok["boot_rate_per_min"].astype(float)),
                "spec": "boot rate",
            }
        )
    io = [r for r in out if r["statistic"] == "io_per_boot"]
    for r in out:
        r["io_per_boot"] = io[0]["estimate"] if io else np.nan
    return out


BOOT_SHARE_BASIS = (
    "boot charts' read ÷ (read + write) averages (derived; the 2023 edition of RA-2022, same lab, "
    "earlier hardware: a boot runs no Login Enterprise session, so the probe setting that keeps that "
    "edition's IOPS apart, register D-RA2022E-03, does not reach it; its two charts of one boot, "
    "D-RA2022E-01, averaged)"
)


def modern_profile(results: pd.DataFrame, sources_df: pd.DataFrame, choices: EraChoices | None = None) -> pd.DataFrame:
    """Read share and latency of the modern documents per provisioning group
    (``provisioning_group`` under ``choices.provisioning_pooling``; under ``pooled`` the MCS and
    Provisioning groups are given too, for the boot rows, which are MCS storms) and phase
    (``full_run``, ``login``, ``boot``).

    Read share of a run: read ÷ (read + write) of its averages (whole runs and boots, exact) or
    of its login peaks (derived: the two peaks need not coincide); a run given by two charts
    (register D-RA2022E-01) the mean of the charts' shares; the mean of a document's runs, the
    median over documents. Boot shares come from the documents that chart a boot's read and write
    averages (``BOOT_SHARE_BASIS``: whatever ``choices.probes`` says, since a boot runs no
    session); a phase whose documents give no read/write split takes the whole runs' share,
    labelled as assumed in ``read_share_basis``. Run variants: those ``excluded_variants`` keeps
    under ``choices.login_variant``. Latency: stated average controller latencies of whole runs
    (bounds excluded), the median of each document's, then over documents. Index (provisioning,
    phase); columns read_share, read_share_basis, read_share_vendors, latency_ms, latency_vendors
    (documents behind each, comma-separated), read_share_records (the records behind the share)."""
    from . import semantics

    opts = choices or EraChoices()
    r = semantics.observation_semantics(results, sources_df)
    r = r[
        (r["role"] == "external")
        & r["used_in_analysis"]
        & (r["vantage"] == "array_frontend")
        & (r["condition"].isin(["normal", ""]))
        & (r["worker_class"].isin(PLANNING_CLASSES) | (r["phase"] == "boot"))
        & ~r["variant"].isin(list(excluded_variants(opts.login_variant)))
    ]
    setup = _setup()
    r = r.assign(_prov=[provisioning_of(setup, a, b) for a, b in zip(r["source_id"], r["configuration"])])
    r = r.assign(_group=provisioning_group("modern", r["_prov"], opts.provisioning_pooling))
    labels = _labels(sources_df, "era.modern_profile")
    keys = ["source_id", "test_id", "configuration", "_chart"]
    basis = {
        "full_run": "whole runs' read ÷ (read + write) averages (derived)",
        "login": "login peaks' read ÷ (read + write) peaks (derived; the two peaks need not coincide)",
        "boot": BOOT_SHARE_BASIS,
    }
    groups = sorted(set(r["_group"]))
    if opts.provisioning_pooling == "pooled":
        groups += sorted(set(r["_prov"]) & set(CITRIX))
    rows = []
    for group in groups:
        g = r[(r["_group"] == group) | (r["_prov"] == group)]
        shares = {}
        for phase, stat in (("full_run", "average"), ("login", "peak"), ("boot", "average")):
            x = g[(g["phase"] == phase) & (g["statistic"] == stat) & g["metric"].isin(["read_iops", "write_iops"])]
            if phase != "boot" and opts.probes == "separate":
                x = x[~x["source_id"].isin(list(UNLIKE_PROBES))]
            # a boot's charts apart (D-RA2022E-01: two charts of one boot); other phases' read and
            # write figures may sit in different tables of the same run
            x = x.assign(_chart=x["locator"] if phase == "boot" else "")
            x = x[x["bound"].isin(["eq", "approx"])].sort_values("record_id").drop_duplicates(keys + ["metric"])
            w = x.pivot_table(index=keys, columns="metric", values="value", aggfunc="first").dropna()
            if "read_iops" in w.columns and "write_iops" in w.columns and len(w):
                sh = w["read_iops"] / (w["read_iops"] + w["write_iops"])
                sh = sh.groupby(level=["source_id", "test_id", "configuration"]).mean()  # a run's charts
                sh = sh.groupby(level="source_id").mean()  # a document's runs
                used = w.index.get_level_values("source_id")
                recs = " ".join(x[x["source_id"].isin(used)]["record_id"])
                shares[phase] = (float(sh.median()), basis[phase], ", ".join(labels.get(s, s) for s in sh.index), recs)
        lat = g[
            (g["phase"] == "full_run")
            & (g["statistic"] == "average")
            & (g["metric"] == "latency")
            & g["bound"].isin(["eq", "approx"])
            & (~g["source_id"].isin(list(UNLIKE_PROBES)) | (opts.probes == "pooled"))
        ].drop_duplicates(keys[:3])
        lat = lat.groupby("source_id")["value"].median()
        whole = shares.get("full_run", (np.nan, "", "", ""))
        for phase in ("full_run", "login", "boot"):
            sh = shares.get(phase) or (
                whole[0],
                "assumed: the whole runs' share (the documents give no read/write split of this phase)"
                if not np.isnan(whole[0])
                else "",
                whole[2],
                whole[3],
            )
            rows.append(
                {
                    "provisioning": group,
                    "phase": phase,
                    "read_share": sh[0],
                    "read_share_basis": sh[1],
                    "read_share_vendors": sh[2],
                    "read_share_records": sh[3],
                    "latency_ms": float(lat.median()) if len(lat) else np.nan,
                    "latency_vendors": ", ".join(labels.get(s, s) for s in lat.index),
                }
            )
    cols = [
        "provisioning",
        "phase",
        "read_share",
        "read_share_basis",
        "read_share_vendors",
        "read_share_records",
        "latency_ms",
        "latency_vendors",
    ]
    return (
        pd.DataFrame(rows, columns=cols).drop_duplicates(["provisioning", "phase"]).set_index(["provisioning", "phase"])
    )


def era_heterogeneity(docs: pd.DataFrame, storms: pd.DataFrame, exclude_lab: str = "") -> tuple[dict, dict]:
    """(floors, tau2s): each era's within-lab variance floor (``variance_floor`` over its IOPS
    cells and boot figures, ``document_figures`` and ``_boot_docs``) and the seed τ² per cell
    (``seed_tau2``). ``exclude_lab``: computed without that lab's documents (leave one lab out)."""
    allf = {e: pd.concat([docs[docs["era"] == e], _boot_docs(storms, e)], ignore_index=True) for e in ERAS}
    allf = {e: d[d["lab"] != exclude_lab] for e, d in allf.items()}
    floors = {e: variance_floor(d) for e, d in allf.items()}
    return floors, seed_tau2(allf["seed"], None, floors["seed"])


def _choice_notes(d: pd.DataFrame, peak_point: str, labels: dict[str, str]) -> str:
    """What the choices ``peak_bounds_point`` and ``probe_handling`` did to a row pooled from the
    document figures ``d`` (``document_figures``), appended to its ``interval_kind``: how runs known
    by bounds enter, and which documents of another probe setting (``UNLIKE_PROBES``) it holds;
    ``""`` when neither applies."""
    out = ""
    if (d["status"] != "exact").any():
        out += (
            "; runs known by bounds (one direction's peak to the sum of read and write peaks) "
            + {
                "geometric_mid": "enter at their geometric midpoint (assumed)",
                "lower": "enter at their lower bound (choice peak_bounds_point)",
                "upper": "enter at their upper bound (choice peak_bounds_point)",
            }[peak_point]
        )
    unlike = sorted(set(d["source_id"]) & set(UNLIKE_PROBES))
    if unlike:
        out += (
            "; with "
            + ", ".join(f"{labels.get(x, x)} ({UNLIKE_PROBES[x]})" for x in unlike)
            + ", a document of the same lab run with other Login Enterprise probes (choice probe_handling)"
        )
    return out


def _fill(t: pd.DataFrame, rows: pd.Index, column: str, values) -> None:
    """``t.loc[row, column] = value`` for each of ``rows`` and ``values`` in turn, as one
    assignment per column (a new column starts as NaN; the column's dtype ends as the cell-by-cell
    assignments would leave it)."""
    if not len(rows):
        if column not in t.columns:
            t[column] = np.nan
        return
    if column not in t.columns:
        t[column] = np.nan
    col = t[column].astype(object)
    col.loc[rows] = list(values)
    t[column] = col.infer_objects() if col.map(lambda v: isinstance(v, (int, float, np.number))).all() else col


def planning_rows(
    results: pd.DataFrame,
    storms: pd.DataFrame,
    chars: pd.DataFrame,
    sources_df: pd.DataFrame,
    obs: pd.DataFrame | None = None,
    choices: EraChoices | None = None,
) -> pd.DataFrame:
    """The planning table ``iops_per_desktop_model.csv`` by era: columns ``PLANNING_COLUMNS``.
    ``obs``: the seed observations (``iops.observations`` under the analysis choices; default: the
    declared defaults); ``choices``: ``EraChoices`` (default: the declared defaults):
    boot_pooling, boot_peak_average (``boot_rows``); provisioning_pooling (``provisioning_group``:
    modern rows per provisioning, MCS and Provisioning apart, or pooled); register, peak_point,
    probes, profile_storage, login_variant as they reach the modern runs (``_modern_runs``);
    tau2_source (``borrowed_tau2``: a cell of fewer than ``MIN_FOR_PI`` labs borrows the seed
    labs' τ² for an interval for a new lab, or keeps the range of its labs' runs). tau2, i2,
    tau2_source: the between-lab heterogeneity behind the interval (``pool``; the era's within-lab
    variance floor ``variance_floor``).

    Per era (``ERAS``) and cell: the documents' figures pooled by ``pool`` (IOPS per desktop;
    ``n_documents``, ``documents``: the documents behind the row; ``n_obs``: their runs or worker
    classes), and the boot rows of ``boot_rows``. Login rows carry the documents' login windows
    (``login_window_min``: their geometric mean, the reference window of the per-desktop peak)
    and tested login rates (rate_low/high, desktops per minute); boot rows the tested boot rates.
    ``ratio_to_seed`` (and ratio_low/high: modern low ÷ seed high, modern high ÷ seed low): a
    modern row against the seed row of the same cell (empty on seed rows). read_share,
    io_size_kb, latency_ms: seed rows from ``chars`` (``scenario.io_characteristics``, by phase);
    modern rows from ``modern_profile`` (whole runs; the documents report no throughput, so no
    I/O size). identifiable: what the row can and cannot tell.
    """
    opts = choices or EraChoices()
    labels = _labels(sources_df, "era.planning_rows")
    docs = document_figures(grouped_runs(results, sources_df, obs, opts))
    win = login_windows(results, sources_df).set_index("source_id")
    floors, tau2s = era_heterogeneity(docs, storms)
    rows = []
    for era in ERAS:
        for (prov, cell), d in docs[docs["era"] == era].groupby(["provisioning", "cell"], sort=True):
            if cell not in ERA_PHASES[era]:
                continue
            phase = ERA_PHASES[era][cell]
            borrowed = borrowed_tau2(tau2s, cell, opts.tau2_source)
            p = pool(d["value"], d["low"], d["high"], d["lab"], d["run_values"], floors[era], borrowed)
            row = {
                "era": era,
                "phase": phase,
                "worker_class": PLANNING_CLASS,
                "statistic": d["statistic"].iloc[0],
                "cell": cell,
                "provisioning": prov,
                **p,
                "bound": "eq" if (d["status"] == "exact").all() else "bounds",
                "unit": "IOPS per desktop",
                "n_obs": int(d["n_runs"].sum()),
                "n_vendors": d["vendor"].nunique(),
                "vendors": ", ".join(sorted(set(d["vendor"]))),
                "_sources": list(d["source_id"]),
                "_records": " ".join(d["record_ids"]).split(),
                "spec": "documents pooled (geometric mean)",
            }
            row["interval_kind"] += _choice_notes(d, opts.peak_point, labels)
            if cell == "login peak":
                w = win.reindex(d["source_id"]).dropna(subset=["login_window_min"])
                row.update(
                    login_window_min=_gmean(w["login_window_min"]),
                    rate_low=float(w["login_rate_per_min"].min()),
                    rate_high=float(w["login_rate_per_min"].max()),
                )
            rows.append(row)
        rows += boot_rows(storms, era, opts.boot_pooling, opts.boot_peak_average, floors[era], tau2s, opts.tau2_source)
    t = pd.DataFrame(rows)
    row_sources = t.pop("_sources")
    conf = results.drop_duplicates("record_id").set_index("record_id")[["source_id", "configuration"]]
    row_runs = t.pop("_records").map(  # (source, configuration) of the records behind each row
        lambda ids: sorted({tuple(conf.loc[i]) for i in (ids if isinstance(ids, list) else []) if i in conf.index})
    )
    t["documents"] = row_sources.map(lambda s: ", ".join(labels.get(x, x) for x in s))
    t = harness.harness_columns(t, row_sources, labels, _setup(), row_runs)  # load tool, probes, profile storage
    t["labs"] = t["labs"].map(", ".join)
    seed = t[t["era"] == "seed"].set_index("cell")
    for i, r in t[t["era"] == "modern"].iterrows():
        if r["cell"] in seed.index and r["bound"] not in ("gt", "assumed"):
            s = seed.loc[r["cell"]]
            t.loc[i, ["ratio_to_seed", "ratio_low", "ratio_high"]] = [
                r["estimate"] / s["estimate"],
                r["pi90_low"] / s["pi90_high"],
                r["pi90_high"] / s["pi90_low"],
            ]
    ch = chars.set_index("phase")
    seed_rows = t.index[t["era"] == "seed"]
    keys = [p if p in ch.index else "steady_state" for p in t.loc[seed_rows, "phase"]]
    for c in ("read_share", "io_size_kb", "latency_ms", "read_share_vendors", "io_size_vendors", "latency_vendors"):
        values = ch.loc[keys, c].to_numpy() if c in ch.columns else np.full(len(keys), np.nan)
        _fill(t, seed_rows, c, values)
    t.loc[t["era"] == "seed", "read_share_basis"] = "the seeds' own phase (derived, median over vendors)"
    mp = modern_profile(results, sources_df, opts)
    found, keys = [], []
    for i, r in t[t["era"] == "modern"].iterrows():
        key = (r["provisioning"], r["phase"])
        if key not in mp.index:  # e.g. the MCS-only boot rows when MCS and Provisioning are pooled
            group = provisioning_group("modern", pd.Series([r["provisioning"]]), opts.provisioning_pooling).iloc[0]
            key = (group, r["phase"])
        if key in mp.index:
            found.append(i)
            keys.append(key)
    for c in mp.columns:
        _fill(t, pd.Index(found), c, np.array([mp.at[k, c] for k in keys], dtype=object))
    t.loc[t["era"] == "modern", "io_size_vendors"] = ""
    t["identifiable"] = np.where(
        t["phase"] == "boot",
        "no user session during boot: one row for every worker class; demand scales with the boot rate",
        np.where(
            t["era"] == "seed",
            "knowledge-worker row: Login VSI office, knowledge and power observations (task samples excluded); "
            "the worker class cannot be separated from the document",
            "Login Enterprise knowledge worker; the ratio to the seed row cannot separate " + NOT_SEPARABLE,
        ),
    )
    for c in (
        "documents",
        "labs",
        "read_share_vendors",
        "read_share_basis",
        "io_size_vendors",
        "latency_vendors",
        "interval_kind",
        "vendors",
    ):
        t[c] = t[c].fillna("")
    return t.reindex(columns=PLANNING_COLUMNS).reset_index(drop=True)


def leave_one_document_out(results: pd.DataFrame, storms: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Each era's rows against each of its documents held out: the row pooled (``pool``) from the
    era's other documents, and the held-out document's figure beside it. Cells with two or more
    documents (IOPS per desktop cells and the boot statistics with exact values). Columns: era,
    cell, held_out, trained_on (``;``-joined labels), n_train (documents), observed, estimate,
    pi90_low, pi90_high, interval_kind, ratio (observed ÷ estimate), verdict (``verdict``)."""
    labels = _labels(sources_df, "era.leave_one_document_out")
    docs = document_figures(grouped_runs(results, sources_df))
    docs = docs[(docs["era"] == "seed") | (docs["provisioning"] == SIZING_PROVISIONING)]  # the sizing rows' cells
    b = []
    for era in ERAS:
        role = {v: k for k, v in ERA_OF_ROLE.items()}[era]
        s = storms[storms["role"] == role]
        for stat, col, bcol, _ in BOOT_STATS:
            ok = s[s[bcol].isin(["eq", "approx"]) & s[col].notna()]
            b += [
                {
                    "era": era,
                    "source_id": x.source_id,
                    "lab": x.lab,
                    "cell": BOOT_CELLS[stat],
                    "value": float(getattr(x, col)),
                    "low": float(getattr(x, col)),
                    "high": float(getattr(x, col)),
                    "status": "exact",
                }
                for x in ok.itertuples()
            ]
    allf = pd.concat([docs, pd.DataFrame(b)], ignore_index=True)
    rows = []
    for (era, cell), g in allf.groupby(["era", "cell"], sort=False):
        if len(g) < 2:
            continue
        for i, h in g.iterrows():
            rest = g.drop(index=i)
            p = pool(rest["value"], rest["low"], rest["high"], rest["lab"])
            obs = float(h["value"])
            rows.append(
                {
                    "era": era,
                    "cell": cell,
                    "held_out": labels.get(h["source_id"], h["source_id"]),
                    "trained_on": "; ".join(labels.get(x, x) for x in rest["source_id"]),
                    "n_train": len(rest),
                    "observed": obs,
                    "estimate": p["estimate"],
                    "pi90_low": p["pi90_low"],
                    "pi90_high": p["pi90_high"],
                    "interval_kind": p["interval_kind"],
                    "ratio": obs / p["estimate"],
                    "verdict": verdict(obs, "exact", p["pi90_low"], p["pi90_high"]),
                }
            )
    return pd.DataFrame(rows, columns=catalogue.table("iops_model_lodo").column_names)


CALIBRATION_COLUMNS = catalogue.table("iops_calibration").column_names  # the catalogue's declaration


def calibration(
    results: pd.DataFrame,
    storms: pd.DataFrame,
    sources_df: pd.DataFrame,
    obs: pd.DataFrame | None = None,
    choices: EraChoices | None = None,
) -> pd.DataFrame:
    """Leave one lab out (``iops_calibration.csv``, columns ``CALIBRATION_COLUMNS``): in every era,
    cell and provisioning group with two labs or more (IOPS per desktop cells of
    ``document_figures`` under the choices, boot statistics with exact values), each lab held out
    in turn, its figure (``observed``: the geometric mean of its documents') against the interval
    ``pool`` gives from the other labs, with the within-lab floor and the seed τ² recomputed
    WITHOUT the held-out lab (``era_heterogeneity``: the lab must not inform the τ² that predicts
    it) and τ² borrowed as the choice ``tau2_source`` says (``borrowed_tau2``). ``choices``:
    ``EraChoices`` (default: the declared defaults), the runs read as the planning rows read them.

    Columns: era, cell, provisioning, held_out (the lab), trained_on (the other labs, ``;``),
    n_train_labs, observed, estimate, pi90_low, pi90_high (same unit as the row), interval_spans,
    tau2, tau2_source, verdict (``verdict``; ``not checkable`` where no τ² is left without the
    held-out lab), range_low, range_high, range_verdict: the interval the planning rows printed
    before issue 24 (the other labs' runs' range; an OLS prediction interval would need three
    other labs, which no cell has). A cell of one lab (every modern cell: the Nutanix documents)
    has no lab to hold out and no row: it cannot be checked. Only exact figures are held out."""
    opts = choices or EraChoices()
    tau2_source = opts.tau2_source
    docs = document_figures(grouped_runs(results, sources_df, obs, opts))
    allf = pd.concat([docs] + [_boot_docs(storms, e) for e in ERAS], ignore_index=True)
    rows = []
    for (era, cell, prov), g in allf.groupby(["era", "cell", "provisioning"], sort=True):
        if g["lab"].nunique() < 2 or (g["status"] != "exact").any():
            continue
        for lab in sorted(set(g["lab"])):
            h, rest = g[g["lab"] == lab], g[g["lab"] != lab]
            floors, tau2s = era_heterogeneity(docs, storms, exclude_lab=lab)
            args = (rest["value"], rest["low"], rest["high"], rest["lab"], rest["run_values"], floors[era])
            p = pool(*args, borrowed_tau2(tau2s, cell, tau2_source))
            r = pool(*args, None)
            o = _gmean(h["value"])
            ok = not (p["interval_spans"] in (SPANS[1], SPANS[2]) and tau2_source != "none")
            rows.append(
                {
                    "era": era,
                    "cell": cell,
                    "provisioning": prov,
                    "held_out": lab,
                    "trained_on": "; ".join(sorted(set(rest["lab"]))),
                    "n_train_labs": rest["lab"].nunique(),
                    "observed": o,
                    "estimate": p["estimate"],
                    "pi90_low": p["pi90_low"] if ok else np.nan,
                    "pi90_high": p["pi90_high"] if ok else np.nan,
                    "interval_spans": p["interval_spans"] if ok else "no τ² without the held-out lab",
                    "tau2": p["tau2"],
                    "tau2_source": p["tau2_source"],
                    "verdict": verdict(o, "exact", p["pi90_low"], p["pi90_high"]) if ok else "not checkable",
                    "range_low": r["pi90_low"],
                    "range_high": r["pi90_high"],
                    "range_verdict": verdict(o, "exact", r["pi90_low"], r["pi90_high"]),
                }
            )
    return pd.DataFrame(rows, columns=CALIBRATION_COLUMNS)


def calibration_coverage(cal: pd.DataFrame) -> pd.DataFrame:
    """Coverage of the leave-one-lab-out table (``calibration``): one row per interval, ``interval``
    (``prediction interval for a new lab``: the planning rows' intervals; ``range of the other
    labs' runs``: the intervals before issue 24), ``checked`` (held-out labs with an interval),
    ``inside`` (their figure inside it), ``coverage`` (inside ÷ checked, NaN when none),
    ``not_checkable``; the nominal coverage of a 90 % interval is 0.90."""
    out = []
    for name, v in (
        ("prediction interval for a new lab", cal["verdict"]),
        ("range of the other labs' runs", cal["range_verdict"]),
    ):
        checked = v[v != "not checkable"]
        n_in = int((checked == "inside").sum())
        out.append(
            {
                "interval": name,
                "checked": len(checked),
                "inside": n_in,
                "coverage": n_in / len(checked) if len(checked) else np.nan,
                "not_checkable": int((v == "not checkable").sum()),
            }
        )
    return pd.DataFrame(out)


WITHIN_LAB_COLUMNS = catalogue.table("within_lab_effects").column_names  # the catalogue's declaration
EFFECTS = {
    "provisioning": "Citrix MCS vs Citrix Provisioning",
    "profile_storage": "FSLogix profiles on Nutanix Files colocated vs on a dedicated cluster",
    "harness": "2023 edition (EUX 2023 disk actions on) vs 2024 edition (EUX settings modified)",
}


def within_lab_effects(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Within-lab effects on the whole-test average (``within_lab_effects.csv``, columns
    ``WITHIN_LAB_COLUMNS``): pairs of runs of one lab (the Nutanix documents, sources.csv ``lab``)
    that differ by one declared factor, each run's reported read and write IOPS averages and
    desktops with their records, its IOPS per desktop (derived: (read + write) ÷ desktops) and the
    ratio a ÷ b (derived). Effects (``EFFECTS``):

    - ``provisioning``: in every modern document, the Provisioning run's configuration against the
      MCS run of the same name with ``pvs`` read as ``mcs`` (e.g. g8_pvs_8n against g8_mcs_8n);
      a = MCS, b = Provisioning; one document, one harness;
    - ``profile_storage``: in one document, the run whose profile containers sit on the desktops'
      own cluster (test_setup.csv ``containers_same_storage``) against the run with them on a file
      service of another cluster (``file_service_separate``); one document, one harness;
    - ``harness``: a document of ``UNLIKE_PROBES`` (2023 EUX disk actions on) against each MCS
      run of the later edition of the same document number (sources.csv ``document_number``),
      runs without profile containers only; a = 2023 edition. The two editions also differ in
      hardware, software versions and window (``also_differs``), so the ratio is not the probes'
      effect alone.

    Every run is read as ``_modern_runs`` reads it (probe_handling ``pooled``, profiles apart kept).
    Zero rows when no pair exists."""
    from ..raw import test_setup

    runs = _modern_runs(results, sources_df, EraChoices(probes="pooled", profile_storage="any"))
    runs = runs[runs["cell"] == WHOLE_TEST].set_index(["source_id", "configuration"])
    src = _sources(sources_df, "era.within_lab_effects").set_index("source_id")
    setup = _setup()
    val = results.set_index("record_id")
    labels = _labels(sources_df, "era.within_lab_effects")

    def side(key):
        r = runs.loc[key]
        rd, wr = r["record_ids"].split()
        return {
            "source_id": key[0],
            "document": labels.get(key[0], key[0]),
            "configuration": key[1],
            "phase": r["phase"],
            "read_iops": float(val.at[rd, "value"]),
            "write_iops": float(val.at[wr, "value"]),
            "desktops": float(r["desktops"]),
            "iops_per_desktop": float(r["value"]),
            "record_ids": f"{rd} {wr}",
        }

    def profile(key):
        return test_setup.lookup(setup, key[0], key[1], "profile_storage")[0]

    pairs = []
    for key in runs.index:
        if runs.at[key, "provisioning"] == "pvs" and (key[0], key[1].replace("pvs", "mcs", 1)) in runs.index:
            pairs.append(("provisioning", (key[0], key[1].replace("pvs", "mcs", 1)), key, "one document, one harness"))
    for sid in sorted(set(runs.index.get_level_values(0))):
        keys = [k for k in runs.index if k[0] == sid]
        co = [k for k in keys if profile(k) == "containers_same_storage"]
        ded = [k for k in keys if profile(k) == "file_service_separate"]
        if len(co) == 1 and len(ded) == 1:
            pairs.append(("profile_storage", co[0], ded[0], "one document, one harness"))
    for sid in sorted(set(UNLIKE_PROBES) & set(runs.index.get_level_values(0))):
        later = src.index[(src["document_number"] == src.at[sid, "document_number"]) & (src.index != sid)]
        plain = [
            k
            for k in runs.index
            if runs.at[k, "provisioning"] == "mcs" and profile(k) in ("", "desktop_disk") and k[0] in set(later) | {sid}
        ]
        for a in [k for k in plain if k[0] == sid]:
            for b in [k for k in plain if k[0] != sid]:
                pairs.append(("harness", a, b, "one lab, two editions"))
    rows = []
    for effect, a, b, scope in pairs:
        sa, sb = side(a), side(b)
        basis = {x: test_setup.lookup(setup, x[0], x[1], "provisioning")[1] for x in (a, b)}
        assumed = [f"{x[1]}'s provisioning: test_setup.csv {b_}" for x, b_ in basis.items() if b_.endswith("(assumed)")]
        differs = {
            "provisioning": "nothing else declared (same document, hardware, harness and window)",
            "profile_storage": (
                "where the Nutanix Files VMs run (their disks count on the desktop cluster when colocated)"
            ),
            "harness": (
                f"hardware ({src.at[a[0], 'array']} against {src.at[b[0], 'array']}), software versions, desktops "
                f"({sa['desktops']:.0f} against {sb['desktops']:.0f}) and window ({sa['phase']}: logons and steady "
                f"state, no boot; {sb['phase']}: also boot and idle wait)"
            ),
        }[effect] + "".join(f"; {x}" for x in assumed)
        rows.append(
            {
                "effect": effect,
                "comparison": EFFECTS[effect],
                "scope": f"within-lab comparison: {scope}",
                "lab": str(src.at[a[0], "lab"]),
                **{f"a_{c}": v for c, v in sa.items()},
                **{f"b_{c}": v for c, v in sb.items()},
                "ratio": sa["iops_per_desktop"] / sb["iops_per_desktop"],
                "value_basis": "reported: read and write IOPS averages (chart legends or tables) and desktops; "
                "derived: IOPS per desktop = (read + write) ÷ desktops, ratio = a ÷ b",
                "also_differs": differs,
            }
        )
    out = pd.DataFrame(rows, columns=WITHIN_LAB_COLUMNS)
    order = {e: i for i, e in enumerate(EFFECTS)}
    return out.sort_values(
        ["effect", "a_source_id", "b_source_id"], key=lambda c: c.map(order) if c.name == "effect" else c
    ).reset_index(drop=True)


# The columns of ``iops_model_external.csv``, in file order: the catalogue's declaration (one source).
EXTERNAL_COLUMNS = catalogue.table("iops_model_external").column_names


def external_evidence(results: pd.DataFrame, plan: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Every external per-desktop IOPS figure read with its true status against the seed row of
    its cell (``iops_model_external.csv``): columns ``EXTERNAL_COLUMNS``.

    Per external run (``EXCLUDED_VARIANTS`` included: every figure is checked): the whole-test
    average (read + write averages of the run, ``exact``, bound ``eq``) against the seed
    whole-test row; the login peak as a ``lower bound`` (the larger of the read and write peaks,
    bound ``gt``) and an ``upper bound`` (their sum, bound ``lt``) against the seed login-peak
    row. observed, predicted (the seed row's estimate), pi90_low, pi90_high (its interval) in IOPS
    per desktop; ratio = observed ÷ predicted; verdict (``verdict``: inside, above, below,
    uninformative); covered = the seed interval contains the figure (``verdict == inside``, which
    only an exact value can be). Zero rows without external figures."""
    s = _sources(sources_df, "era.external_evidence").set_index("source_id")
    runs = _modern_runs(results, sources_df, variants=True)  # every run, each figure checked
    seed = plan[plan["era"] == "seed"].set_index("cell")
    rows = []
    for r in runs.itertuples():
        if r.cell not in seed.index:
            continue
        sr = seed.loc[r.cell]
        figs = (
            [(r.value, "eq", "exact")]
            if r.status == "exact"
            else [(r.low, "gt", "lower bound"), (r.high, "lt", "upper bound")]
        )
        ids = r.record_ids.split()
        for v, b, st in figs:
            rows.append(
                {
                    "source_id": r.source_id,
                    "vendor": r.vendor,
                    "test_id": r.test_id,
                    "configuration": r.configuration,
                    "variant": r.variant,
                    "cell": r.cell,
                    "worker_class": r.worker_class,
                    "observed": v,
                    "bound": b,
                    "status": st,
                    "predicted": sr["estimate"],
                    "pi90_low": sr["pi90_low"],
                    "pi90_high": sr["pi90_high"],
                    "ratio": v / sr["estimate"],
                    "verdict": verdict(v, st, sr["pi90_low"], sr["pi90_high"]),
                    "record_ids": " + ".join(ids) if b != "gt" else _larger(results, ids),
                }
            )
    out = pd.DataFrame(
        rows,
        columns=[c for c in EXTERNAL_COLUMNS if c not in ("broker", "load_tool", "guest_os", "platform", "covered")],
    )
    for col in ("broker", "load_tool", "guest_os", "platform"):
        out[col] = out["source_id"].map(s[col]) if len(out) else pd.Series(dtype=str)
    out["covered"] = out["verdict"] == "inside"
    order = {"whole-test average": 0, "login peak": 1}
    out = out.assign(_c=out["cell"].map(order), _s=out["status"].map({"exact": 0, "lower bound": 1, "upper bound": 2}))
    return out.sort_values(["source_id", "_c", "configuration", "variant", "_s"])[EXTERNAL_COLUMNS].reset_index(
        drop=True
    )


def _larger(results: pd.DataFrame, ids: list[str]) -> str:
    """The record id of the larger of two records (a lower bound rests on that record alone)."""
    v = results.set_index("record_id").loc[ids, "value"]
    return str(v.astype(float).idxmax())
