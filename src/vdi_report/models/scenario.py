"""Sizing scenario: validate the report's parameters and size the storage for them, phase by phase.

Contract (shared with the report and the HTML calculator ``src/vdi_report/static/sizing.js``,
which implements the same formulas):

- ``validate(desktops=..., ...)`` (the scenario parameters declared in ``parameters.PARAMETERS``)
  returns the typed parameters as a dict or raises ValueError with a plain message.
- ``size(params, inputs, profile, profile_file)`` returns one row per phase (boot, login,
  steady_state), recording every input it was computed from.
- ``inputs`` is the JSON-able dict ``build_inputs`` makes in the model stage (notebook 04) and
  writes to ``data/processed/sizing_inputs.json``: the planning figures of each era (``seed``:
  the 2016–2018 documents; ``modern``: the 2022–2024 documents), read from ``data/processed``.
- ``read_profile(path)`` reads an architect's own per-desktop figures (``PROFILE_FILE``), which
  replace the era's.

Formulas (k = 1 / (1 - headroom)). Boot: rate = desktops (all provisioned: an outage or
maintenance reboots every desktop, not the concurrent fraction) / boot_window_min desktops per
minute; front-end peak IOPS = rate x peak IOPS per desktop booted per minute x k (the boot storm
runs before users log on, as in the documents' tests). Login (the storm model): active = desktops x
concurrency; login rate = active / login_window_min; front-end peak IOPS = (active x steady IOPS
per desktop + I/O per logon x login rate / 60) x k, where I/O per logon = (the documents' login
peak per desktop - their steady state per desktop) x their login window in seconds
(``io_per_logon``, computed once in ``build_inputs``): the documents' own peak at their own
window, never below the steady state at any window. An architect's profile login peak is sized
as given unless the file states its window (``PROFILE_WINDOW_COLUMN``). Steady state: active x
average IOPS per desktop x k. Back-end
IOPS = FE x (read_share + (1 - read_share) x write_penalty). Throughput (MB/s) = FE x io_size_kb
x 1024 / 10^6 (KB binary, MB decimal, as the codebook says; NaN when the I/O size is not known).
A boot or login rate outside the documents' tested rates gets a ``warning``. ``failover =
controller`` compares the demand with what arrays demonstrated with one controller down.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .. import parameters
from ..config import BOUND_SIGNS, ERAS, SCENARIO_CLONE_TYPES, SCENARIO_PHASES, SCENARIO_USER_PHASES
from ..raw import choices as analysis

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# numpy and pandas are imported inside the functions that use them: the Makefile runs this module's
# CLI (``validate`` only) on every report-parameter change, and pandas alone takes about a second.

# RAID write penalty: back-end I/Os per front-end write. The field's convention (shared/FIELD.md:
# community calculator vdicalc, storage.java): RAID 10 x2, RAID 5 x4, RAID 6 x6; none = x1.
WRITE_PENALTY = {"none": 1, "raid10": 2, "raid5": 4, "raid6": 6}
# The columns of a sizing table (``size``; sizing_scenario.csv through the catalogue), in order, each
# with its type: text or a number (float; NaN where it does not apply).
SIZE_COLUMN_TYPES: dict[str, type] = {
    "phase": str,
    "worker_class": str,
    "statistic": str,
    "era": str,
    "figures": str,
    "note": str,
    "bound": str,
    "desktops": float,
    "concurrency": float,
    "headroom": float,
    "boot_window_min": float,
    "login_window_min": float,
    "reference_login_window_min": float,
    "raid": str,
    "failover": str,
    "clone_type": str,
    "active_desktops": float,
    "desktops_sized": float,
    "boot_rate_per_min": float,
    "login_rate_per_min": float,
    "per_desktop": float,
    "per_desktop_pi90_low": float,
    "per_desktop_pi90_high": float,
    "fe_iops": float,
    "fe_iops_pi90_low": float,
    "fe_iops_pi90_high": float,
    "read_share": float,
    "write_penalty": float,
    "be_iops": float,
    "be_iops_pi90_low": float,
    "be_iops_pi90_high": float,
    "io_size_kb": float,
    "throughput_mbps": float,
    "capacity_gb_per_desktop_low": float,
    "capacity_gb_per_desktop_high": float,
    "capacity_tb_high": float,
    "condition": str,
    "carried_by": str,
    "warning": str,
}
SIZE_COLUMNS = list(SIZE_COLUMN_TYPES)
TEXT_COLUMNS = tuple(c for c, kind in SIZE_COLUMN_TYPES.items() if kind is str)
PHASE_STATISTIC = {"boot": "peak", "login": "peak", "steady_state": "average"}
DEFAULT_ERA = "modern"
DEFAULT_CLONE_TYPE = "linked"  # CLONE_TYPE's default (stages.PARAMETERS; verdicts.validate_clone_type)
PROFILE_COLUMNS = ("phase", "iops_per_desktop", "read_share", "io_size_kb")
# Optional last column: the login window (minutes) over which the file's login peak was measured.
# Given, the login peak enters the storm model (steady state + I/O per logon x login rate) with that
# window as reference; absent, the login peak is sized as it is, never rescaled by the documents' windows.
PROFILE_WINDOW_COLUMN = "login_window_min"
# What a profile's iops_per_desktop means per phase (the planning table's units): boot IOPS per
# desktop booted per minute; login the login peak per desktop over the era's reference login
# window; steady state the average per desktop.
PROFILE_UNITS = {
    "boot": "IOPS per (desktop booted per minute)",
    "login": "IOPS per desktop (login peak)",
    "steady_state": "IOPS per desktop (average)",
}


def vocabulary_lists() -> dict[str, list[str]]:
    """The vocabulary's lists the JavaScript twins need (``sizing_inputs.json`` key ``lists``), as
    ``config`` derives them from ``data/raw/vocabulary.csv``: scenario_phases, scenario_user_phases,
    eras, clone_types (the scenario's CLONE_TYPE values) and bound_signs ({bound: the sign printed
    before a number, "" for eq})."""
    return {
        "scenario_phases": list(SCENARIO_PHASES),
        "scenario_user_phases": list(SCENARIO_USER_PHASES),
        "eras": list(ERAS),
        "clone_types": list(SCENARIO_CLONE_TYPES),
        "bound_signs": dict(BOUND_SIGNS),
    }


def validate(*args, **values) -> dict:
    """Check the scenario parameters (``parameters.SCENARIO``, positionally in declared order
    or by name; a missing one takes its declared default); returns them typed, e.g.
    ``{"desktops": int, "concurrency": float, "headroom": float, "boot_window_min": float, "raid":
    str, "failover": str, "era": str, "login_window_min": float}``. The scenario has no worker
    class: the planning rows are knowledge-worker rows.

    Raises ValueError with a plain message from each parameter's declared range or choices
    (``parameters.check``: desktops a positive whole number; concurrency a fraction in (0, 1];
    headroom a fraction in [0, 1); the windows positive numbers of minutes; raid one of
    ``WRITE_PENALTY``; failover ``none`` or ``controller``; era ``seed`` or ``modern``), TypeError
    for a name that is not a scenario parameter.
    """
    return parameters.check_scenario(*args, **values)


def _median(values) -> float:
    v = [x for x in values if x is not None and not (isinstance(x, float) and math.isnan(x))]
    import numpy as np

    return float(np.median(v)) if v else float("nan")


def demonstrated(results: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """What each tested array demonstrably carried per phase and condition: the highest front-end
    (or host or port) IOPS total of a test run, used in the analysis, exact or approximate.

    Columns: vendor, array (vendor, array of sources.csv and configuration), configuration, phase (boot, login,
    steady_state: a login_and_steady_state test counts for login with its peak and for steady
    state with its average), condition (normal, failover), statistic, fe_iops (IOPS), bound,
    fe_iops_floor (IOPS: the least the statement guarantees, i.e. results' value_low: an
    "approximately" value less ``normalize.APPROX_TOLERANCE``), desktops (of the test), record_id.
    ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when None).
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
        & ~results["variant"].isin(analysis.design_case_set_aside("login_variant"))
        & results["condition"].isin(["normal", "failover"])
    ]
    from .. import config
    from ..raw import sources

    arrays = sources.required(sources_df, "scenario.demonstrated").set_index("source_id")["array"]
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


def io_characteristics(results: pd.DataFrame, profile: pd.DataFrame, sources_df: pd.DataFrame) -> pd.DataFrame:
    """Read share, I/O size and latency per sizing phase (boot, login, steady_state; and
    login_and_steady_state, the whole tests' own averages), the median over vendors of each
    vendor's value (derived, front end or host; back end excluded).

    ``profile``: ``iops.io_profile`` (read_share, kb_per_io per vendor, test, statistic, vantage);
    ``sources_df``: sources.csv (``raw.sources.load_sources``; TypeError when None): its roles.
    A phase takes the tests of ``demonstrated``'s mapping (login: peaks of login tests; steady
    state: averages of steady-state tests, else of whole login + steady-state tests). Latency:
    reported average latency (ms) at the front end or host, normal condition, stated values only
    (a bound is not a value to take a median of). Columns: phase,
    read_share, read_share_vendors, io_size_kb, io_size_vendors, latency_ms, latency_vendors,
    records.
    """
    import pandas as pd

    from ..raw import sources

    sources.required(sources_df, "scenario.io_characteristics")

    keep = {
        "boot": (("boot",), ("average", "peak")),
        "login": (("login", "login_and_steady_state"), ("peak",)),
        "steady_state": (("steady_state", "login_and_steady_state"), ("average",)),
        # the planning table's whole-test row: the whole login + steady-state tests' own averages
        "login_and_steady_state": (("login_and_steady_state",), ("average",)),
    }
    # Seeds only: external sources are an out-of-sample check, never pooled (sources.csv role).
    prof = profile[(profile["vantage"] != "array_backend") & (profile["role"] == "seed")]
    seeds = set(sources_df.query("role == 'seed'")["source_id"])
    # Stated values only: a bound ("under 0.6 ms") is not a latency to take a median of.
    lat = results[
        (results["metric"] == "latency")
        & results["used_in_analysis"]
        & (results["condition"] == "normal")
        & results["source_id"].isin(seeds)
        & results["bound"].isin(["eq", "approx"])
        & ~results["variant"].isin(analysis.design_case_set_aside("login_variant"))
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


def _profile_window(where: str, phase: str, text: str, problems: list) -> float | None:
    """The profile's login window (minutes) from its cell ``text``, or None when empty; a problem
    (appended to ``problems``, naming ``where``, the column and the value) for a window on another
    row than login or a value that is not a positive number."""
    if text == "":
        return None
    try:
        w = float(text)
    except ValueError:
        w = float("nan")
    col = PROFILE_WINDOW_COLUMN
    if phase != "login":
        problems.append(f"{where}: column {col!r} = {text!r}: only the login row has a window")
    elif not (math.isfinite(w) and w > 0):
        problems.append(f"{where}: column {col!r} = {text!r}: expected a positive number of minutes, or empty")
    else:
        return w
    return None


def read_profile(path) -> dict:
    """An architect's own per-desktop figures (``PROFILE_FILE``): a CSV with the columns
    ``PROFILE_COLUMNS`` (optionally followed by ``PROFILE_WINDOW_COLUMN``) and one row per phase
    (boot, login, steady_state).

    iops_per_desktop: a positive number in the planning table's unit of the phase
    (``PROFILE_UNITS``); read_share: a fraction in [0, 1]; io_size_kb: a positive number of KB
    (binary), or empty when unknown (no throughput is then computed); login_window_min (login
    row only, optional): the minutes over which the login peak was measured. Returns ``{phase:
    {"iops_per_desktop": float, "read_share": float, "io_size_kb": float | None,
    "login_window_min": float | None}}``. Raises
    FileNotFoundError for a missing file and ValueError naming the file, line and column of
    every problem (unknown or missing column, unknown, repeated or missing phase, a value out
    of range)."""
    import csv

    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p}: profile file not found (PROFILE_FILE)")
    problems, out = [], {}
    with open(p, encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        cols = [c.strip() for c in (reader.fieldnames or [])]
        if tuple(cols) not in (PROFILE_COLUMNS, PROFILE_COLUMNS + (PROFILE_WINDOW_COLUMN,)):
            raise ValueError(
                f"{p}: line 1: columns must be {', '.join(PROFILE_COLUMNS)} (in this order; optionally "
                f"{PROFILE_WINDOW_COLUMN} last), got {', '.join(cols) or 'none'}"
            )
        for line, row in enumerate(reader, start=2):
            row = {k.strip(): (v or "").strip() for k, v in row.items() if k is not None}
            ph = row["phase"]
            if ph not in SCENARIO_PHASES:
                problems.append(
                    f"{p}: line {line}: column 'phase' = {ph!r}: expected one of {', '.join(SCENARIO_PHASES)}"
                )
                continue
            if ph in out:
                problems.append(f"{p}: line {line}: column 'phase' = {ph!r}: phase given twice")
                continue
            vals = {}
            for col, lo, hi, hint, optional in (
                ("iops_per_desktop", 0, None, "a positive number", False),
                ("read_share", 0, 1, "a fraction in [0, 1]", False),
                ("io_size_kb", 0, None, "a positive number of KB, or empty", True),
            ):
                txt = row.get(col, "")
                if txt == "" and optional:
                    vals[col] = None
                    continue
                try:
                    v = float(txt)
                except ValueError:
                    v = float("nan")
                ok = math.isfinite(v) and (v >= lo if col == "read_share" else v > lo) and (hi is None or v <= hi)
                if not ok:
                    problems.append(f"{p}: line {line}: column {col!r} = {txt!r}: expected {hint}")
                vals[col] = v
            vals[PROFILE_WINDOW_COLUMN] = _profile_window(
                f"{p}: line {line}", ph, row.get(PROFILE_WINDOW_COLUMN, ""), problems
            )
            out[ph] = vals
    missing = [ph for ph in SCENARIO_PHASES if ph not in out and not any(f"{ph!r}" in x for x in problems)]
    if missing:
        problems.append(
            f"{p}: missing phase row(s): {', '.join(missing)} (one row per phase: {', '.join(SCENARIO_PHASES)})"
        )
    if problems:
        raise ValueError(f"{len(problems)} problem(s) in the profile file:\n  " + "\n  ".join(problems))
    return out


def io_per_logon(login_peak, steady, window_min):
    """I/O per logon beyond the steady state (I/O per desktop logging on): (login peak per desktop
    - steady IOPS per desktop) x login window (s). The storm model: at a login rate r (desktops
    per minute), login demand = active desktops x steady + I/O per logon x r / 60, which gives back
    the measured peak at the measured window and never falls below the steady state at any window
    (a login peak below the steady state counts 0 I/O per logon). None when an input is missing."""
    if any(x is None or (isinstance(x, float) and math.isnan(x)) for x in (login_peak, steady, window_min)):
        return None
    return max(0.0, float(login_peak) - float(steady)) * float(window_min) * 60.0


def login_demand(active, steady, io_logon, login_window_min):
    """Login-storm IOPS (before headroom): active desktops x steady IOPS per desktop + I/O per
    logon x login rate (active ÷ window, per minute) ÷ 60. NaN when an input is missing."""
    if any(x is None or (isinstance(x, float) and math.isnan(x)) for x in (steady, io_logon)):
        return float("nan")
    return active * steady + io_logon * (active / login_window_min) / 60.0


def _era_inputs(model, era: str) -> dict:
    def num(x):
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

    from .era import sizing_rows

    m = sizing_rows(model)
    m = m[m["era"] == era]

    def row(phase, statistic):
        r = m[(m["phase"] == phase) & (m["statistic"] == statistic)]
        return r.iloc[0] if len(r) else None

    rows = {
        "boot": row("boot", "peak_per_rate"),
        "login": row("login", "peak"),
        "steady_state": row("steady_state", "average"),
    }
    notes = {"boot": "", "login": "", "steady_state": ""}
    if rows["steady_state"] is None:  # the modern documents report no steady-state average: their whole runs' stands in
        whole = m[(m["statistic"] == "average") & m["phase"].isin(["full_run", "login_and_steady_state"])]
        if len(whole):
            rows["steady_state"] = whole.iloc[0]
            notes["steady_state"] = (
                f"no {era} steady-state average: the whole-test average ({whole.iloc[0]['phase']}) stands in"
            )
    for ph, r in rows.items():
        if r is None:
            raise ValueError(f"planning table has no {era} row for {ph}")
        if r["bound"] == "gt":
            notes[ph] = (notes[ph] + "; " if notes[ph] else "") + "a lower bound (the documents give only an average)"
        elif r["bound"] == "bounds":
            notes[ph] = (notes[ph] + "; " if notes[ph] else "") + "the geometric midpoint of bounds (assumed)"
        elif r["bound"] == "assumed":
            notes[ph] = (notes[ph] + "; " if notes[ph] else "") + r["interval_kind"]
    w_ref = num(rows["login"]["login_window_min"])
    cols = ("estimate", "pi90_low", "pi90_high")
    iol = {c: io_per_logon(num(rows["login"][c]), num(rows["steady_state"][c]), w_ref) for c in cols}
    return {
        "io_per_logon": iol,
        "per_desktop": {
            ph: {
                "statistic": r["statistic"],
                "estimate": num(r["estimate"]),
                "pi90_low": num(r["pi90_low"]),
                "pi90_high": num(r["pi90_high"]),
                "bound": r["bound"],
            }
            for ph, r in rows.items()
        },
        "read_share": {ph: num(r["read_share"]) for ph, r in rows.items()},
        "io_size_kb": {ph: num(r["io_size_kb"]) for ph, r in rows.items()},
        "tested_rates": {ph: [num(rows[ph]["rate_low"]), num(rows[ph]["rate_high"])] for ph in ("boot", "login")},
        "login_window_min": num(rows["login"]["login_window_min"]),
        "notes": notes,
    }


def build_inputs(model, demo) -> dict:
    """The JSON-able dict ``size`` (and sizing.js) read: written to
    ``data/processed/sizing_inputs.json`` by the model stage.

    ``model``: the planning table by era (``era.planning_rows``). ``demo``: ``demonstrated``.
    Keys: default_era; eras {era: {per_desktop {phase:
    {statistic, estimate, pi90_low, pi90_high, bound}}, read_share {phase}, io_size_kb {phase}
    (null: not reported), tested_rates {boot, login: [low, high] desktops per minute},
    login_window_min (the documents' login window behind the login peak), notes {phase}}};
    write_penalty {raid}; demonstrated [rows of ``demo``]. (Capacity per desktop by era and clone
    type is ``verdicts.capacity``'s ``capacity_by_clone``, which the model stage adds.) Per phase:
    boot = the peak per desktop booted per minute, login = the login peak
    per desktop, steady state = the steady-state average (the whole-test average where an era
    has none, with a note).
    """

    def num(x):
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)

    return {
        "default_era": DEFAULT_ERA,
        "lists": vocabulary_lists(),
        "parameters": parameters.declaration(),  # the scenario parameters' ranges (JavaScript twin, calculator)
        "eras": {e: _era_inputs(model, e) for e in ERAS if (model["era"] == e).any()},
        "write_penalty": dict(WRITE_PENALTY),
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


def rate_warning(what: str, rate: float, tested) -> str:
    """``""`` when ``rate`` (desktops per minute) lies within the documents' tested rates
    ``[low, high]``, else a sentence saying the scenario extrapolates."""
    lo, hi = tested if tested else (None, None)
    if lo is None or hi is None or lo <= rate <= hi:
        return ""
    side = "above" if rate > hi else "below"

    def one(x: float) -> str:  # half up, as the JavaScript twin's Math.round(x * 10) / 10 (181.25 -> 181.3)
        return f"{math.floor(x * 10 + 0.5) / 10:,.1f}"

    span = one(lo) if lo == hi else f"{one(lo)}–{one(hi)}"
    return f"{what} rate {one(rate)} per minute is {side} the documents' tested {span} per minute: extrapolated"


def size(params: dict, inputs: dict, profile: dict | None = None, profile_file: str = ""):
    """Size the scenario: one row per phase (boot, login, steady_state), columns ``SIZE_COLUMNS``.

    ``params``: the dict of ``validate`` (validated again here), optionally with ``clone_type``
    (``SCENARIO_CLONE_TYPES``, default ``DEFAULT_CLONE_TYPE``). ``inputs``: ``build_inputs`` with
    the model stage's ``capacity_by_clone``: the capacity columns are its per-desktop figure of
    the scenario's era and clone type (``verdicts.capacity``: low, high GB per desktop; TB =
    desktops × high ÷ 1000), the figure the per-array answers read.
    ``profile``: ``read_profile`` (the architect's figures replace the era's per phase; no
    interval), ``profile_file`` its name (recorded). Formulas (k = 1 / (1 - headroom)):
    boot: rate = desktops (all provisioned: an outage reboots them all) ÷ boot window; FE = rate ×
    peak IOPS per desktop booted per minute × k. Login: active = desktops × concurrency; rate =
    active ÷ login window; FE = ``login_demand`` × k = (active × steady + I/O per logon × rate ÷
    60) × k, per_desktop = FE ÷ k ÷ active (a profile without a login window: active × its login
    peak × k, unscaled). An interval end missing (a lower bound: no interval) stays NaN.
    Steady state: FE = active × average per desktop × k. BE = FE × (read share + (1 − read share)
    × write penalty); throughput (MB/s) = FE × io_size_kb × 1024 ÷ 10^6 (NaN when the I/O size is
    unknown). bound: the era row's (``gt``: a lower bound, every IOPS figure of the phase is at
    least its value and has no interval; ``bounds``: the geometric midpoint of bounds, assumed;
    ``eq``: a value; a profile's figures are ``eq``). warning: a rate outside the documents'
    tested rates. Every input is recorded in
    the row (era, figures, desktops, concurrency, headroom, windows, raid, failover, profile).
    Raises ValueError for invalid parameters (an unknown clone type too) or inputs missing an era.
    """
    import pandas as pd

    clone = params.get("clone_type") or DEFAULT_CLONE_TYPE
    if clone not in SCENARIO_CLONE_TYPES:
        raise ValueError(f"unknown clone_type {clone!r}; use {' or '.join(SCENARIO_CLONE_TYPES)}")
    p = validate(**{k: v for k, v in params.items() if k != "clone_type"})
    if p["era"] not in inputs["eras"]:
        raise ValueError(f"sizing inputs have no {p['era']} era")
    e = inputs["eras"][p["era"]]
    active = p["desktops"] * p["concurrency"]
    k = 1.0 / (1.0 - p["headroom"])
    wp = inputs["write_penalty"][p["raid"]]
    cond = "failover" if p["failover"] == "controller" else "normal"
    # the one capacity per desktop (verdicts.capacity): the era's swap, the clone type's written space
    cap = ((inputs.get("capacity_by_clone") or {}).get("per_desktop", {}).get(p["era"]) or {}).get(clone) or {}
    w_ref = e["login_window_min"]
    nan = float("nan")

    def fl(x):
        return nan if x is None else float(x)

    if profile is not None:
        w_ref = profile["login"].get(PROFILE_WINDOW_COLUMN)
        steady = (profile["steady_state"]["iops_per_desktop"],) * 3
        iol = (io_per_logon(profile["login"]["iops_per_desktop"], steady[0], w_ref),) * 3
    else:
        st = e["per_desktop"]["steady_state"]
        steady = (st["estimate"], st["pi90_low"], st["pi90_high"])
        iol = tuple(e["io_per_logon"][c] for c in ("estimate", "pi90_low", "pi90_high"))
    steady, iol = tuple(map(fl, steady)), tuple(map(fl, iol))
    rows = []
    for phase in SCENARIO_PHASES:
        fig = e["per_desktop"][phase]
        if profile is not None:
            x = profile[phase]
            per = (x["iops_per_desktop"],) * 3
            rs, io, source = x["read_share"], x["io_size_kb"], f"profile {profile_file}".strip()
            note = ""
            if phase == "login":
                note = (
                    f"your login peak over your {w_ref:g}-minute window: steady state + I/O per logon x login rate"
                    if w_ref is not None
                    else "your login peak as given, not rescaled (the file gives no login window)"
                )
        else:
            per = (fig["estimate"], fig["pi90_low"], fig["pi90_high"])
            rs, io, source = e["read_share"][phase], e["io_size_kb"][phase], f"era {p['era']}"
            note = e["notes"].get(phase, "")
        per = tuple(map(fl, per))
        boot_rate = login_rate = float("nan")
        if phase == "boot":
            sized = float(p["desktops"])
            boot_rate = sized / p["boot_window_min"]
            fe = tuple(boot_rate * x * k for x in per)
            warn = rate_warning("boot", boot_rate, e["tested_rates"]["boot"])
        elif phase == "login":
            sized = active
            login_rate = active / p["login_window_min"]
            if profile is not None and w_ref is None:  # the architect's own peak, unscaled
                fe = tuple(active * x * k for x in per)
            else:
                fe = tuple(login_demand(active, s_, i_, p["login_window_min"]) * k for s_, i_ in zip(steady, iol))
                per = tuple(f / k / active for f in fe)
            warn = rate_warning("login", login_rate, e["tested_rates"]["login"])
        else:
            sized = active
            fe = tuple(active * x * k for x in per)
            warn = ""
        factor = nan if rs is None else rs + (1 - rs) * wp  # an unknown read share: back end unknown
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
                "worker_class": "knowledge" if phase != "boot" else "any",
                "statistic": PHASE_STATISTIC[phase],
                "era": p["era"],
                "figures": source,
                "note": note,
                "bound": "eq" if profile is not None else fig.get("bound") or "eq",
                "desktops": p["desktops"],
                "concurrency": p["concurrency"],
                "headroom": p["headroom"],
                "boot_window_min": p["boot_window_min"],
                "login_window_min": p["login_window_min"],
                "reference_login_window_min": fl(w_ref) if phase == "login" else float("nan"),
                "raid": p["raid"],
                "failover": p["failover"],
                "clone_type": clone,
                "active_desktops": active,
                "desktops_sized": sized,
                "boot_rate_per_min": boot_rate,
                "login_rate_per_min": login_rate,
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
                "io_size_kb": io if io is not None else float("nan"),
                "throughput_mbps": fe[0] * io * 1024 / 1e6 if io is not None else float("nan"),
                "capacity_gb_per_desktop_low": cap.get("low"),
                "capacity_gb_per_desktop_high": cap.get("high"),
                "capacity_tb_high": (p["desktops"] * cap["high"] / 1000) if cap.get("high") is not None else None,
                "condition": cond,
                "carried_by": carried_txt,
                "warning": warn,
            }
        )
    return pd.DataFrame(rows, columns=SIZE_COLUMNS).astype({c: float for c in SIZE_COLUMNS if c not in TEXT_COLUMNS})


ARGS = tuple((parameters.cli_flag(p), p.name) for p in parameters.SCENARIO)  # from the declaration


def main(argv: list[str]) -> int:
    """``python -m vdi_report.models.scenario [--desktops N --concurrency C --headroom H
    --boot-window B --raid R --failover F --era E --login-window L --profile FILE]``: check the
    report's scenario parameters (and the profile file, when given) before any notebook runs (exit
    2 with the reason; omitted options take validate's defaults)."""
    import argparse

    ap = argparse.ArgumentParser(
        prog="python -m vdi_report.models.scenario", description="Check the sizing scenario's parameters."
    )
    for flag, dest in ARGS:
        ap.add_argument(flag, dest=dest)
    ap.add_argument("--profile", dest="profile", default="")
    a = vars(ap.parse_args(argv))
    profile = a.pop("profile")
    try:
        validate(**{k: v for k, v in a.items() if v is not None})
        if profile:
            read_profile(profile)
    except (TypeError, ValueError, FileNotFoundError) as exc:
        print(f"invalid report parameter: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
