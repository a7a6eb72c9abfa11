"""Sizing scenario: validate the report's parameters and size the storage for them, phase by phase.

Contract (shared with the report and the HTML calculator ``src/vdi_report/static/sizing.js``,
which implements the same formulas):

- ``validate(desktops, worker_class, concurrency, headroom, boot_window_min, raid, failover)``
  returns the typed parameters as a dict or raises ValueError with a plain message.
- ``size(params, inputs)`` returns one row per phase (boot, login, steady_state).
- ``inputs`` is the JSON-able dict ``build_inputs`` makes in the model stage (notebook 04) and
  writes to ``data/processed/sizing_inputs.json``: everything the formulas need, read from
  ``data/processed``.

Formulas: active = desktops x concurrency. Login (peak) and steady state (average): front-end
IOPS = active x IOPS per desktop (estimate and 90 % PI ends). Boot: rate = active /
boot_window_min desktops per minute; front-end peak IOPS = rate x peak IOPS per desktop booted
per minute (the boot-rate model). Every front-end figure / (1 - headroom). Back-end IOPS = FE x
(read_share + (1 - read_share) x write_penalty). Throughput (MB/s) = FE x io_size_kb x 1024 /
10^6 (KB binary, MB decimal, as the codebook says). ``failover = controller`` compares the demand
with what arrays demonstrated with one controller down.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# numpy and pandas are imported inside the functions that use them: the Makefile runs this module's
# CLI (``validate`` only) on every report-parameter change, and pandas alone takes about a second.

PHASES = ("boot", "login", "steady_state")
WORKER_CLASSES = ("task", "office", "knowledge", "power")  # Login VSI terms
# RAID write penalty: back-end I/Os per front-end write. The field's convention (shared/FIELD.md:
# community calculator vdicalc, storage.java): RAID 10 x2, RAID 5 x4, RAID 6 x6; none = x1.
WRITE_PENALTY = {"none": 1, "raid10": 2, "raid5": 4, "raid6": 6}
FAILOVER = ("none", "controller")
SIZE_COLUMNS = [
    "phase",
    "worker_class",
    "statistic",
    "active_desktops",
    "boot_rate_per_min",
    "per_desktop",
    "per_desktop_pi90_low",
    "per_desktop_pi90_high",
    "fe_iops",
    "fe_iops_pi90_low",
    "fe_iops_pi90_high",
    "read_share",
    "write_penalty",
    "be_iops",
    "be_iops_pi90_low",
    "be_iops_pi90_high",
    "io_size_kb",
    "throughput_mbps",
    "capacity_gb_per_desktop_low",
    "capacity_gb_per_desktop_high",
    "capacity_tb_high",
    "condition",
    "carried_by",
]
PHASE_STATISTIC = {"boot": "peak", "login": "peak", "steady_state": "average"}


def _number(name, x, hint):
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {hint}, got {x!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{name} must be {hint}, got {x!r}")
    return v


def validate(
    desktops, worker_class, concurrency=1.0, headroom=0.2, boot_window_min=30, raid="none", failover="none"
) -> dict:
    """Check the scenario parameters; returns ``{"desktops": int, "worker_class": str,
    "concurrency": float, "headroom": float, "boot_window_min": float, "raid": str,
    "failover": str}``.

    Raises ValueError with a plain message: desktops a positive whole number; worker_class one of
    ``WORKER_CLASSES`` (Login VSI terms); concurrency a fraction in (0, 1]; headroom a fraction in
    [0, 1); boot_window_min a positive number of minutes; raid one of ``WRITE_PENALTY``; failover
    ``none`` or ``controller``.
    """
    d = _number("desktops", desktops, "a positive whole number")
    if d <= 0 or d != int(d):
        raise ValueError(f"desktops must be a positive whole number, got {desktops!r}")
    if worker_class not in WORKER_CLASSES:
        raise ValueError(
            f"unknown worker_class {worker_class!r}; use one of {', '.join(WORKER_CLASSES)} (Login VSI terms)"
        )
    c = _number("concurrency", concurrency, "a fraction in (0, 1], e.g. 0.8 for 80 % of desktops active at once")
    if not 0 < c <= 1:
        raise ValueError(
            "concurrency must be a fraction in (0, 1], e.g. 0.8 for 80 % of desktops active at once, got "
            f"{concurrency!r}"
        )
    h = _number("headroom", headroom, "a fraction in [0, 1), e.g. 0.2 for 20 %")
    if not 0 <= h < 1:
        raise ValueError(f"headroom must be a fraction in [0, 1), e.g. 0.2 for 20 %, got {headroom!r}")
    b = _number("boot_window_min", boot_window_min, "a positive number of minutes")
    if b <= 0:
        raise ValueError(f"boot_window_min must be a positive number of minutes, got {boot_window_min!r}")
    if raid not in WRITE_PENALTY:
        raise ValueError(f"unknown raid {raid!r}; use one of {', '.join(WRITE_PENALTY)}")
    if failover not in FAILOVER:
        raise ValueError(f"unknown failover {failover!r}; use none or controller (sized with one controller down)")
    return {
        "desktops": int(d),
        "worker_class": worker_class,
        "concurrency": c,
        "headroom": h,
        "boot_window_min": b,
        "raid": raid,
        "failover": failover,
    }


def _median(values) -> float:
    v = [x for x in values if x is not None and not (isinstance(x, float) and math.isnan(x))]
    import numpy as np

    return float(np.median(v)) if v else float("nan")


def demonstrated(results: pd.DataFrame, sources_df: pd.DataFrame | None = None) -> pd.DataFrame:
    """What each tested array demonstrably carried per phase and condition: the highest front-end
    (or host or port) IOPS total of a test run, used in the analysis, exact or approximate.

    Columns: vendor, array (vendor, array of sources.csv and configuration), configuration, phase (boot, login,
    steady_state: a login_and_steady_state test counts for login with its peak and for steady
    state with its average), condition (normal, failover), statistic, fe_iops (IOPS), bound,
    fe_iops_floor (IOPS: the least the statement guarantees, i.e. results' value_low: an
    "approximately" value less ``normalize.APPROX_TOLERANCE``), desktops (of the test), record_id.
    """
    import pandas as pd

    keep = {
        "boot": ("boot",),
        "login": ("login", "login_and_steady_state"),
        "steady_state": ("steady_state", "login_and_steady_state"),
    }
    io = results[
        (results["metric"] == "iops")
        & results["used_in_analysis"]
        & results["vantage"].isin(["array_frontend", "host", "storage_port"])
        & results["statistic"].isin(["peak", "average"])
        & results["bound"].isin(["eq", "approx", "gt"])
        & (results["variant"] != "tuesday")
        & results["condition"].isin(["normal", "failover"])
    ]
    from .. import config
    from ..raw import sources

    arrays = (sources.load_sources() if sources_df is None else sources_df).set_index("source_id")["array"]
    rows = []
    for phase, srcs in keep.items():
        stat = PHASE_STATISTIC[phase]
        x = io[io["phase"].isin(srcs) & (io["statistic"] == stat)]
        for (sid, vendor, conf, cond), g in x.groupby(["source_id", "vendor", "configuration", "condition"], sort=True):
            t = g.sort_values(["value", "record_id"], ascending=[False, True]).iloc[0]
            conf_label = config.label("configuration", conf) if conf else ""
            rows.append(
                {
                    "vendor": vendor,
                    "array": f"{vendor} {arrays.get(sid, '')} {conf_label}".replace("  ", " ").strip(),
                    "configuration": conf,
                    "phase": phase,
                    "condition": cond,
                    "statistic": stat,
                    "fe_iops": float(t["value"]),
                    "bound": t["bound"],
                    "fe_iops_floor": float(t["value_low"]) if pd.notna(t["value_low"]) else float(t["value"]),
                    "desktops": float(t["desktops"]),
                    "record_id": t["record_id"],
                }
            )
    return pd.DataFrame(
        rows,
        columns=[
            "vendor",
            "array",
            "configuration",
            "phase",
            "condition",
            "statistic",
            "fe_iops",
            "bound",
            "fe_iops_floor",
            "desktops",
            "record_id",
        ],
    )


def io_characteristics(results: pd.DataFrame, profile: pd.DataFrame) -> pd.DataFrame:
    """Read share, I/O size and latency per sizing phase (boot, login, steady_state; and
    login_and_steady_state, the whole tests' own averages), the median over vendors of each
    vendor's value (derived, front end or host; back end excluded).

    ``profile``: ``iops.io_profile`` (read_share, kb_per_io per vendor, test, statistic, vantage).
    A phase takes the tests of ``demonstrated``'s mapping (login: peaks of login tests; steady
    state: averages of steady-state tests, else of whole login + steady-state tests). Latency:
    reported average latency (ms) at the front end or host, normal condition, stated values only
    (a bound is not a value to take a median of). Columns: phase,
    read_share, read_share_vendors, io_size_kb, io_size_vendors, latency_ms, latency_vendors,
    records.
    """
    import pandas as pd

    keep = {
        "boot": (("boot",), ("average", "peak")),
        "login": (("login", "login_and_steady_state"), ("peak",)),
        "steady_state": (("steady_state", "login_and_steady_state"), ("average",)),
        # the planning table's whole-test row: the whole login + steady-state tests' own averages
        "login_and_steady_state": (("login_and_steady_state",), ("average",)),
    }
    from ..raw import sources

    # Seeds only: external sources are an out-of-sample check, never pooled (sources.csv role).
    prof = profile[(profile["vantage"] != "array_backend") & (profile["role"] == "seed")]
    seeds = set(sources.load_sources().query("role == 'seed'")["source_id"])
    # Stated values only: a bound ("under 0.6 ms") is not a latency to take a median of.
    lat = results[
        (results["metric"] == "latency")
        & results["used_in_analysis"]
        & (results["condition"] == "normal")
        & results["source_id"].isin(seeds)
        & results["bound"].isin(["eq", "approx"])
        & (results["variant"] != "tuesday")
        & results["vantage"].isin(["array_frontend", "host"])
        & (results["statistic"] == "average")
    ]
    rows = []
    for phase, (srcs, stats) in keep.items():
        out = {"phase": phase}
        recs = []
        for col, name in (("read_share", "read_share"), ("kb_per_io", "io_size_kb")):
            p = prof[prof["phase"].isin(srcs) & prof["statistic"].isin(stats) & prof[col].notna()]
            # one value per vendor: its own phase before a whole-test window, then the first statistic listed
            p = p.assign(_w=(p["phase"] != srcs[0]).astype(int), _s=p["statistic"].map(stats.index)).sort_values(
                ["vendor", "_w", "_s", "test_id"]
            )
            per_vendor = p.drop_duplicates("vendor")
            out[name] = _median(per_vendor[col])
            out[f"{name.split('_kb')[0]}_vendors"] = ", ".join(per_vendor["vendor"])
            recs += list(per_vendor["records"])
        lt = lat[lat["phase"].isin(srcs)].sort_values(["vendor", "record_id"])
        lt = (
            lt.assign(_w=(lt["phase"] != srcs[0]).astype(int))
            .sort_values(["vendor", "_w", "record_id"])
            .drop_duplicates("vendor")
        )
        out["latency_ms"] = _median(lt["value"])
        out["latency_vendors"] = ", ".join(lt["vendor"])
        out["records"] = " ".join(recs + list(lt["record_id"]))
        rows.append(out)
    return pd.DataFrame(rows).rename(columns={"io_size_vendors": "io_size_vendors"})


def capacity_per_desktop(results: pd.DataFrame) -> pd.DataFrame:
    """Measured capacity per desktop: results.csv metric ``used_capacity_per_desktop`` outside
    the ``sizing`` phase (a sizing rule is not a measurement), used in the analysis. Columns:
    vendor, record_id, value (GB), bound, quote."""
    r = results[
        (results["metric"] == "used_capacity_per_desktop")
        & results["used_in_analysis"]
        & (results["phase"] != "sizing")
    ]
    return r[["vendor", "record_id", "value", "bound", "quote"]].sort_values("record_id").reset_index(drop=True)


def build_inputs(model: pd.DataFrame, demo: pd.DataFrame, capacity: pd.DataFrame) -> dict:
    """The JSON-able dict ``size`` (and sizing.js) read: written to
    ``data/processed/sizing_inputs.json`` by the model stage.

    ``model``: the planning table (``iops_per_desktop_model.csv``: rows per phase, worker_class,
    statistic with estimate, pi90_low, pi90_high, read_share, io_size_kb; boot rows
    ``peak_per_rate`` and ``io_per_boot``). ``demo``: ``demonstrated``. ``capacity``:
    ``capacity_per_desktop``. Keys: per_desktop {phase: {worker_class: {statistic, estimate,
    pi90_low, pi90_high}}}, boot {peak_per_rate, pi90_low, pi90_high, io_per_boot}, read_share
    {phase}, io_size_kb {phase}, write_penalty {raid}, capacity_gb_per_desktop {low, high,
    records}, demonstrated [rows of ``demo``].
    """

    def num(x):
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

    per = {}
    for phase in ("login", "steady_state"):
        m = model[(model["phase"] == phase) & (model["statistic"] == PHASE_STATISTIC[phase])]
        per[phase] = {
            r["worker_class"]: {
                "statistic": r["statistic"],
                "estimate": num(r["estimate"]),
                "pi90_low": num(r["pi90_low"]),
                "pi90_high": num(r["pi90_high"]),
            }
            for _, r in m.iterrows()
        }
    b = model[(model["phase"] == "boot") & (model["statistic"] == "peak_per_rate")].iloc[0]
    chars = model.drop_duplicates("phase").set_index("phase")
    cap = capacity[capacity["bound"].isin(["eq", "approx", "lt"])]
    return {
        "per_desktop": per,
        "boot": {
            "peak_per_rate": num(b["estimate"]),
            "pi90_low": num(b["pi90_low"]),
            "pi90_high": num(b["pi90_high"]),
            "io_per_boot": num(b["io_per_boot"]),
        },
        "read_share": {p: num(chars.at[p, "read_share"]) for p in PHASES},
        "io_size_kb": {p: num(chars.at[p, "io_size_kb"]) for p in PHASES},
        "write_penalty": dict(WRITE_PENALTY),
        "capacity_gb_per_desktop": {
            "low": num(cap["value"].min()) if len(cap) else None,
            "high": num(cap["value"].max()) if len(cap) else None,
            "records": " ".join(cap["record_id"]),
        },
        "demonstrated": [
            {k: (num(v) if k in ("fe_iops", "fe_iops_floor", "desktops") else v) for k, v in r.items()}
            for r in demo.to_dict("records")
        ],
    }


def read_inputs(path=None) -> dict:
    """``sizing_inputs.json`` as a dict (the catalogue's JSON document ``sizing_inputs``; the model
    stage writes it with ``catalogue.write("sizing_inputs", inputs)``). ``path``: another copy of
    the document (default: data/processed). Raises FileNotFoundError naming the stage that writes it."""
    from .. import catalogue

    default = catalogue.path("sizing_inputs")
    if path is None or Path(path).resolve() == default.resolve():
        return catalogue.read("sizing_inputs")
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"{p}: missing; the model stage (notebooks/04_iops_model.py) writes it")
    return json.loads(p.read_text(encoding="utf-8"))


def size(params: dict, inputs: dict) -> pd.DataFrame:
    """Size the scenario: one row per phase (boot, login, steady_state), columns ``SIZE_COLUMNS``.

    ``params``: the dict of ``validate`` (validated again here). ``inputs``: ``build_inputs``.
    Units: desktops; boot_rate_per_min desktops per minute (boot only); per_desktop IOPS per
    desktop (login, steady state) or IOPS per desktop-per-minute booted (boot); fe_iops,
    be_iops IOPS including headroom (estimate, ``_pi90_low``, ``_pi90_high``); read_share
    fraction; write_penalty; io_size_kb KB (binary); throughput_mbps MB/s (decimal);
    capacity_gb_per_desktop_low/high GB measured per desktop, capacity_tb_high TB for all
    desktops at the high end; worker_class the class used (``any`` when the model pools them);
    condition (``normal`` or ``failover``); carried_by: arrays that demonstrably carried at
    least fe_iops in that phase under that condition, with the record (``; ``-joined), or
    ``none demonstrated``. Raises ValueError for invalid parameters or inputs missing a phase.
    """
    import pandas as pd

    p = validate(**params)
    active = p["desktops"] * p["concurrency"]
    k = 1.0 / (1.0 - p["headroom"])
    wp = inputs["write_penalty"][p["raid"]]
    cond = "failover" if p["failover"] == "controller" else "normal"
    cap = inputs.get("capacity_gb_per_desktop", {})
    rows = []
    for phase in PHASES:
        if phase == "boot":
            b = inputs["boot"]
            rate = active / p["boot_window_min"]
            per = (b["peak_per_rate"], b["pi90_low"], b["pi90_high"])
            fe = tuple(rate * x * k for x in per)
            wc = "any"
        else:
            table = inputs["per_desktop"].get(phase, {})
            wc = p["worker_class"] if p["worker_class"] in table else "any"
            if wc not in table:
                raise ValueError(f"sizing inputs have no {phase} estimate for {p['worker_class']!r} nor a pooled row")
            e = table[wc]
            rate = float("nan")
            per = (e["estimate"], e["pi90_low"], e["pi90_high"])
            fe = tuple(active * x * k for x in per)
        rs = inputs["read_share"][phase]
        factor = rs + (1 - rs) * wp
        io = inputs["io_size_kb"][phase]
        # carried: the least the statement guarantees covers the demand ("approximately 41,021" is 36,919 at least)
        carried = [
            d
            for d in inputs["demonstrated"]
            if d["phase"] == phase and d["condition"] == cond and d.get("fe_iops_floor", d["fe_iops"]) >= fe[0]
        ]
        carried_txt = (
            "; ".join(
                f"{d['array']} ({'≈ ' if d.get('bound') == 'approx' else ''}{d['fe_iops']:,.0f} IOPS, {d['record_id']})"
                for d in carried
            )
            or "none demonstrated"
        )
        rows.append(
            {
                "phase": phase,
                "worker_class": wc,
                "statistic": PHASE_STATISTIC[phase],
                "active_desktops": active,
                "boot_rate_per_min": rate,
                "per_desktop": per[0],
                "per_desktop_pi90_low": per[1],
                "per_desktop_pi90_high": per[2],
                "fe_iops": fe[0],
                "fe_iops_pi90_low": fe[1],
                "fe_iops_pi90_high": fe[2],
                "read_share": rs,
                "write_penalty": wp,
                "be_iops": fe[0] * factor,
                "be_iops_pi90_low": fe[1] * factor,
                "be_iops_pi90_high": fe[2] * factor,
                "io_size_kb": io,
                "throughput_mbps": fe[0] * io * 1024 / 1e6,
                "capacity_gb_per_desktop_low": cap.get("low"),
                "capacity_gb_per_desktop_high": cap.get("high"),
                "capacity_tb_high": (p["desktops"] * cap["high"] / 1000) if cap.get("high") is not None else None,
                "condition": cond,
                "carried_by": carried_txt,
            }
        )
    return pd.DataFrame(rows, columns=SIZE_COLUMNS).astype(
        {c: float for c in SIZE_COLUMNS if c not in ("phase", "worker_class", "statistic", "condition", "carried_by")}
    )


ARGS = (
    ("--desktops", "desktops"),
    ("--worker", "worker_class"),
    ("--concurrency", "concurrency"),
    ("--headroom", "headroom"),
    ("--boot-window", "boot_window_min"),
    ("--raid", "raid"),
    ("--failover", "failover"),
)


def main(argv: list[str]) -> int:
    """``python -m vdi_report.models.scenario --desktops N --worker W --concurrency C --headroom H
    --boot-window B --raid R --failover F``: check the report's scenario parameters before any
    notebook runs (exit 2 with the reason; omitted options take validate's defaults)."""
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m vdi_report.models.scenario", description="Check the sizing scenario's parameters."
    )
    for flag, dest in ARGS:
        ap.add_argument(flag, dest=dest, required=dest in ("desktops", "worker_class"))
    a = vars(ap.parse_args(argv))
    try:
        validate(**{k: v for k, v in a.items() if v is not None})
    except (TypeError, ValueError) as exc:
        print(f"invalid report parameter: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
