"""What the report shows beside the planning table: the documents' rules of thumb against the
fitted model, the I/O profile per document and the observations' context. (The planning table
``iops_per_desktop_model.csv`` itself is ``models.era.planning_rows``: by era, documents pooled.)"""

import numpy as np
import pandas as pd

from ...config import LOGIN_VSI_CLASSES
from .observations import ANY_CLASS, REFERENCE_CLASS


def interval_words(kind: str) -> str:
    """What a planning row's interval is, in a few words for a verdict, from its
    ``interval_kind`` (era.pool's wording; the lab is the unit of replication): ``range of one
    lab's runs`` (one lab, whatever its documents: no interval across labs), ``range of N labs``,
    ``90 % PI`` (a prediction interval for a new lab over three labs or more, their own τ²),
    ``90 % PI (τ² borrowed from the seed labs)`` (fewer labs, choice ``tau2_source``);
    ``interval`` when the kind is not stated."""
    import re

    if kind.startswith(("one lab's runs", "one document")):
        return "range of one lab's runs"
    m = re.match(r"range of (\d+) (labs|documents)", kind)
    if m:
        return f"range of {m.group(1)} {m.group(2)}"
    if "prediction interval" in kind:
        return "90 % PI (τ² borrowed from the seed labs)" if "borrowed from the seed labs" in kind else "90 % PI"
    return "interval"


def rules_of_thumb(results: pd.DataFrame, pred: pd.DataFrame) -> pd.DataFrame:
    """The documents' per-desktop IOPS rules (results.csv, phase ``sizing``, metric
    ``iops_per_desktop``) beside the model's steady-state average and login peak (the rule's
    class, or the pooled row ``any`` when the model cannot separate classes).

    Columns: vendor, record_id, worker_class, compared_class, rule_value, rule_low, rule_high,
    bound, steady_avg, steady_pi90_low, steady_pi90_high, login_peak, login_pi90_low,
    login_pi90_high (IOPS per desktop), steady_interval (``interval_words`` of the steady-state
    row: a 90 % PI only where three documents or more give one; one document's runs give a
    range, never a PI), verdict (rule inside, above or below that interval, named as it is:
    "above the range of one lab's runs"; ``not modelled`` for a class outside Login VSI),
    audit.
    """
    r = results[(results["phase"] == "sizing") & (results["metric"] == "iops_per_desktop")]
    r = r.drop_duplicates(["vendor", "value", "value_high", "bound", "worker_class"]).sort_values(
        ["vendor", "record_id"]
    )
    p = pred.set_index(["phase", "worker_class", "statistic"])
    # Boot rows are always pooled (boot storms are workload-independent): look at the other phases.
    pooled = ANY_CLASS in set(pred.loc[pred["phase"] != "boot", "worker_class"])
    missing = pd.Series({"estimate": np.nan, "pi90_low": np.nan, "pi90_high": np.nan, "interval_kind": ""})

    def cell(phase, wc, stat):
        return p.loc[(phase, wc, stat)] if (phase, wc, stat) in p.index else missing

    rows = []
    for _, x in r.iterrows():
        cls = x["worker_class"] if x["worker_class"] else REFERENCE_CLASS
        lo, hi = x["value_low"], x["value_high"]
        use = ANY_CLASS if pooled else cls
        row = {
            "vendor": x["vendor"],
            "record_id": x["record_id"],
            "worker_class": x["worker_class"] or "not stated",
            "compared_class": use if cls in LOGIN_VSI_CLASSES else "",
            "rule_low": lo,
            "rule_high": hi,
            "rule_value": x["value"],
            "bound": x["bound"],
            "audit": x["resolution"],
        }
        if cls in LOGIN_VSI_CLASSES:
            s, lp = cell("steady_state", use, "average"), cell("login", use, "peak")
            row.update(
                steady_avg=s["estimate"],
                steady_pi90_low=s["pi90_low"],
                steady_pi90_high=s["pi90_high"],
                login_peak=lp["estimate"],
                login_pi90_low=lp["pi90_low"],
                login_pi90_high=lp["pi90_high"],
            )
            what = interval_words(str(s.get("interval_kind", "") or ""))
            row["steady_interval"] = what
            if pd.isna(s["pi90_high"]):
                row["verdict"] = "model not estimable"
            elif lo > s["pi90_high"]:
                row["verdict"] = f"above the {what}"
            elif hi < s["pi90_low"]:
                row["verdict"] = f"below the {what}"
            else:
                row["verdict"] = f"inside the {what}"
        else:
            row["verdict"] = "not modelled (not a Login VSI class)"
        rows.append(row)
    return pd.DataFrame(rows)


def io_profile(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Read share and implied I/O size per vendor, test and statistic (derived).

    read_share = read IOPS / (read + write IOPS) where both are reported for the same test,
    statistic and vantage; kb_per_io = throughput (MB/s, decimal) x 10^6 / IOPS / 1024 (KB,
    binary, see units.py) where both are reported for the same test, statistic and vantage.
    Normal condition, records used in the analysis, sources of every role (``role`` says which:
    only seeds may be pooled; ``sources_df``: sources.csv, ``raw.sources.load_sources``, TypeError
    when None). Columns: source_id, role, vendor, test_id, phase, statistic,
    vantage, read_share, kb_per_io, records.
    """
    from ..semantics import observation_semantics

    r = results[
        results["used_in_analysis"]
        & (results["condition"] != "failover")
        & (results["test_id"] != "")
        & results["statistic"].isin(["peak", "average"])
    ]
    r = r.assign(role=observation_semantics(r, sources_df)["role"].to_numpy())
    # test ids are unique within a source only: the source is part of the key
    keys = ["source_id", "role", "vendor", "test_id", "phase", "statistic", "vantage"]
    pick = r[r["metric"].isin(["iops", "read_iops", "write_iops", "throughput"])].sort_values("record_id")
    pick = pick.drop_duplicates(keys + ["metric"])
    w = pick.pivot_table(index=keys, columns="metric", values="value", aggfunc="first")
    ids = pick.groupby(keys)["record_id"].agg(" ".join)
    w = w.reindex(columns=["iops", "read_iops", "write_iops", "throughput"])
    out = pd.DataFrame(
        {
            "read_share": w["read_iops"] / (w["read_iops"] + w["write_iops"]),
            "kb_per_io": w["throughput"] * 1e6 / w["iops"] / 1024,
            "records": ids,
        }
    ).reset_index()
    return (
        out.dropna(subset=["read_share", "kb_per_io"], how="all")
        .sort_values(["vendor", "test_id", "statistic"])
        .reset_index(drop=True)
    )


def observation_context(obs: pd.DataFrame, storms: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """What each observation behind the planning table was measured with: per observation of
    the IOPS model and per seed boot storm, the source's broker, load tool (Login VSI version),
    guest OS, clone type and platform (sources.csv). Columns: vendor, what (cell, or boot storm),
    worker_class, value (IOPS per desktop, or IOPS per desktop booted per minute), bound (of the
    value: ``eq`` for a model observation, the boot storm's ``peak_per_rate_bound``), low and high
    (a model observation's printed range, e.g. "between 3 and 4"), records,
    broker, load_tool, guest_os, clone_type, platform. ``sources_df``: sources.csv
    (``raw.sources.load_sources``; TypeError when None)."""
    from ...raw import sources

    s = sources.required(sources_df, "iops.observation_context").set_index("source_id")
    a = pd.DataFrame(
        {
            "source_id": obs["source_id"],
            "vendor": obs["vendor"],
            "what": obs["cell"],
            "worker_class": obs["worker_class"],
            "value": obs["iops_per_desktop"],
            "low": obs["low"],
            "high": obs["high"],
            "bound": "eq",
            "records": obs["record_ids"],
        }
    )
    st = storms[storms["role"] == "seed"]
    b = pd.DataFrame(
        {
            "source_id": st["source_id"],
            "vendor": st["vendor"],
            "what": "boot storm (peak IOPS per desktop/min)",
            "worker_class": "any",
            "value": st["peak_iops_per_rate"],
            "bound": st["peak_per_rate_bound"].replace("", "eq"),
            "records": (st["peak_record"].fillna("") + " " + st["duration_record"]).str.strip(),
        }
    )
    out = pd.concat([a, b], ignore_index=True)
    for c in ("broker", "load_tool", "guest_os", "clone_type", "platform"):
        out[c] = out["source_id"].map(s[c])
    return out.drop(columns="source_id")
