"""Observation semantics: what each per-desktop figure aggregates, over what window, under what load.

The raw records will carry ``aggregation``, ``window`` and ``load`` columns (rows of
``data/raw/vocabulary.csv``). Until they do, ``observation_semantics`` derives them from the
records; where the columns exist and are filled, their values win. Everything else in the models
reads only the three columns this module adds, so switching to the recorded columns is this one
function.

Derivation rules (used only where a record leaves the column empty):

- ``aggregation``: a total (metric ``iops``, ``read_iops`` ...) measured at the array (front end,
  back end, storage port, or vantage not stated) is ``array_total``; at the ESXi hosts
  ``host_total``; in the guest ``single_desktop``. A figure printed per desktop (metric
  ``iops_per_desktop``) is ``single_desktop`` when its document states a sample of desktops
  (metric ``sample_desktops``, e.g. "four representative desktops") for the same worker class,
  else the per-desktop share of a total (``array_total`` / ``host_total`` by its vantage).
- ``window``: ``test`` for an average of a test that spans login and steady state (phase
  ``login_and_steady_state``); ``phase`` otherwise (a peak of such a test is the login storm's).
- ``load``: empty for boot and other phases without user sessions; ``boosted`` when the source's
  ``workload`` (sources.csv) states an I/O target per desktop ("at 40 IOPS per desktop"), for a
  worker class that is not a Login VSI class (vocabulary definition not starting with "Login VSI",
  e.g. extreme power users driven by Vdbench), and for a ``mixed`` population of a document with
  such a class; ``standard`` otherwise.
"""

import re

import pandas as pd

from .. import config
from ..config import USER_PHASES
from ..raw import sources

ARRAY_VANTAGES = ("array_frontend", "array_backend", "storage_port", "")
IO_TARGET = re.compile(r"\bat\s+\d+(\.\d+)?\s*IOPS\s+per\b", re.IGNORECASE)


def login_vsi_classes() -> tuple[str, ...]:
    """Worker classes whose vocabulary definition (data/raw/vocabulary.csv) starts with
    "Login VSI": the standard workloads."""
    return config.LOGIN_VSI_CLASSES


def _source_facts(sources_df: pd.DataFrame) -> pd.DataFrame:
    return sources.required(sources_df, "semantics.observation_semantics").set_index("source_id")


def observation_semantics(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """``results`` (results.csv rows) with ``aggregation``, ``window``, ``load`` and ``role``
    (``seed``/``external`` from sources.csv) filled in; see the module docstring for the rules.
    ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when None).

    Recorded values (non-empty ``aggregation``/``window``/``load`` columns, once the raw records
    carry them) are kept as they are. Returns a copy; raises KeyError if a record's source_id is
    not in sources.csv.
    """
    r = results.copy()
    s = _source_facts(sources_df)
    standard = set(login_vsi_classes())
    boosted_sources = {sid for sid, w in s["workload"].items() if IO_TARGET.search(str(w))}
    nonstandard = {
        (sid, c) for sid, c in zip(r["source_id"], r["worker_class"]) if c and c != "mixed" and c not in standard
    }
    with_boosted_class = {sid for sid, _ in nonstandard}
    sampled = set(
        zip(
            r.loc[r["metric"] == "sample_desktops", "source_id"],
            r.loc[r["metric"] == "sample_desktops", "worker_class"],
        )
    )

    def aggregation(metric, source_id, worker_class, vantage) -> str:
        if metric == "iops_per_desktop" and (source_id, worker_class) in sampled:
            return "single_desktop"
        if vantage == "host":
            return "host_total"
        if vantage == "guest":
            return "single_desktop"
        return "array_total" if vantage in ARRAY_VANTAGES else ""

    def window(phase, statistic) -> str:
        if phase == "login_and_steady_state" and statistic == "average":
            return "test"
        return "phase"

    def load(phase, source_id, worker_class) -> str:
        if phase not in USER_PHASES:
            return ""
        if source_id in boosted_sources or (source_id, worker_class) in nonstandard:
            return "boosted"
        if worker_class == "mixed" and source_id in with_boosted_class:
            return "boosted"
        return "standard"

    # each rule over the columns it reads, row by row (a loop over the columns' values: DataFrame.apply
    # made a Series per row and took 2.9 s of the IOPS model stage's 10 s)
    derived = {
        "aggregation": (aggregation, ("metric", "source_id", "worker_class", "vantage")),
        "window": (window, ("phase", "statistic")),
        "load": (load, ("phase", "source_id", "worker_class")),
    }
    for col, (f, reads) in derived.items():
        given = r[col].fillna("").astype(str) if col in r.columns else pd.Series("", index=r.index)
        values = pd.Series([f(*row) for row in zip(*(r[c] for c in reads))], index=r.index, dtype=object)
        r[col] = given.where(given != "", values if len(r) else given)
    r["role"] = r["source_id"].map(s["role"])
    if r["role"].isna().any():
        raise KeyError(f"source_id(s) not in sources.csv: {sorted(r.loc[r['role'].isna(), 'source_id'].unique())}")
    return r
