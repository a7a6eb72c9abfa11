"""The ``scenario`` build stage: the report's sizing scenario and its per-array answers, computed
once and written through the catalogue; the report, its tables, the cost and capacity sections
and the CSVs beside the report only read them.

- ``sizing_scenario`` (``scenario.size`` of the report parameters, one row per phase, columns
  ``scenario.SIZE_COLUMNS``);
- ``array_verdicts`` (``verdicts.verdicts`` of that scenario with the buyer's quotes, one row
  per tested configuration, phase and condition, columns ``verdicts.VERDICT_COLUMNS``);
- ``boot_demand`` (``boot_demand_line``: the seed boot-rate model's peak boot IOPS against the
  boot rate, up to the scenario's rate: the Models chapter's boot-demand chart).

The buyer's quotes are the ``array_price_usd:`` rows of the cost assumptions as the cost stage
read them from ``COST_FILE`` (the catalogue's ``cost_assumptions``), so one file gives one set
of prices everywhere. Each table is also copied into the report's staging folder
(``build/publish``), from which the last build step publishes it beside the report.

``python -m vdi_report.models.scenario_stage name=value ...`` (the report parameters of
``stages.PARAMETERS`` by their papermill names, as the Make rule passes them; missing ones take
the validators' defaults).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

PUBLISHED = {"sizing_scenario": "sizing_scenario.csv", "array_verdicts": "array_verdicts.csv"}


def scenario_params(values: dict) -> dict:
    """The typed scenario of report parameters ``{name: value}`` (papermill names, e.g.
    ``desktops``): every scenario parameter (``parameters.SCENARIO``), validated by
    ``scenario.validate``, plus
    ``clone_type`` (``verdicts.validate_clone_type``), ``latency_target_ms``
    (``verdicts.validate_latency_target``) and ``profile_file`` (a path or "").
    Raises ValueError with the validators' plain messages."""
    from .. import parameters
    from . import scenario, verdicts

    p = scenario.validate(**{k: v for k, v in values.items() if k in parameters.SCENARIO_NAMES})
    p["clone_type"] = verdicts.validate_clone_type(values.get("clone_type", "linked") or "linked")
    p["latency_target_ms"] = verdicts.validate_latency_target(
        values.get("latency_target_ms", verdicts.DEFAULT_LATENCY_TARGET_MS)
    )
    p["profile_file"] = values.get("profile_file") or ""
    return p


def _none_for_nan(rows: list[dict]) -> list[dict]:
    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()} for r in rows]


def _size(params: dict, inputs: dict, profile: dict | None):
    """``scenario.size`` of the scenario ``params`` (``scenario_params``): its scenario parameters
    and clone type (capacity by clone type), the profile's file name recorded."""
    from .. import parameters
    from . import scenario

    return scenario.size(
        {k: v for k, v in params.items() if k in parameters.SCENARIO_NAMES or k == "clone_type"},
        inputs,
        profile,
        Path(params["profile_file"]).name if params.get("profile_file") else "",
    )


def sizing_of(values: dict):
    """The sizing scenario of report parameters ``values`` (papermill names; the others at their
    defaults), computed as the stage computes it and typed as the catalogue's ``sizing_scenario``
    (columns ``scenario.SIZE_COLUMNS``), without writing anything: what ``vdi-report size`` prints
    for any parameters. Reads ``sizing_inputs`` (FileNotFoundError naming the make target when
    the model stage has not run). Raises ValueError for an invalid parameter or profile file."""
    from .. import catalogue
    from . import scenario

    params = scenario_params(values)
    profile = scenario.read_profile(params["profile_file"]) if params["profile_file"] else None
    return catalogue.validate("sizing_scenario", _size(params, catalogue.read("sizing_inputs"), profile))


def compute(params: dict, inputs: dict, prices: dict, profile: dict | None = None):
    """(sizing, verdicts) DataFrames of the scenario ``params`` (``scenario_params``):
    ``scenario.size`` (columns ``scenario.SIZE_COLUMNS``) and ``verdicts.verdicts`` with
    ``prices`` (USD per array by ``source_id[:configuration]``; columns
    ``verdicts.VERDICT_COLUMNS``). ``profile``: ``scenario.read_profile`` of the profile file."""
    import pandas as pd

    from . import verdicts

    sizing = _size(params, inputs, profile)
    rows = verdicts.verdicts(_none_for_nan(sizing.to_dict("records")), inputs, params, prices)
    return sizing, pd.DataFrame(rows, columns=verdicts.VERDICT_COLUMNS)


def boot_demand_line(model, storms, scenario_rate: float):
    """The boot-demand line of the Models chapter's chart: ``boot.demand_curve`` of ``model`` (the
    seed era's ``phase == boot`` planning rows) at 40 rates from 0 to the end of the fitted line
    (``boot.demand_line_extent`` of ``storms``, the ``boot_storms`` table), part ``boot.FITTED``;
    when ``scenario_rate`` (desktops per minute) lies beyond, 10 more rates from there to it, part
    ``boot.EXTRAPOLATED``. Columns: boot_rate_per_min, fe_iops, fe_iops_low, fe_iops_high (IOPS),
    part, scenario_boot_rate_per_min. Raises ValueError as ``demand_line_extent``."""
    import numpy as np
    import pandas as pd

    from . import boot

    storms = storms.assign(**{c: pd.to_numeric(storms[c]) for c in ("boot_rate_per_min", "peak_iops", "average_iops")})
    end, ext_end = boot.demand_line_extent(model, storms, scenario_rate)
    c = boot.demand_curve(model, np.linspace(0, end, 40)).assign(part=boot.FITTED)
    if ext_end > end:
        c = pd.concat(
            [c, boot.demand_curve(model, np.linspace(end, ext_end, 10)).assign(part=boot.EXTRAPOLATED)],
            ignore_index=True,
        )
    return c.assign(scenario_boot_rate_per_min=float(scenario_rate))


def run(values: dict) -> dict:
    """Compute and write the stage's tables for report parameters ``values`` (papermill names):
    reads ``sizing_inputs``, ``cost_assumptions``, ``iops_per_desktop_model`` and ``boot_storms``
    through the catalogue, writes ``sizing_scenario`` and ``array_verdicts`` (and their copies in
    the staging folder) and ``boot_demand``.
    Returns {table: path}. Raises PermissionError (``files.check_writable``: the folder, why and
    what to do) before anything is written when data/processed, the staging folder or reports/
    (where the tables are published) cannot be written."""
    from .. import catalogue, config, files
    from ..raw import sources
    from . import cost, scenario

    for folder in (config.PROCESSED_DIR, config.REPORT_STAGING_DIR, config.REPORTS_DIR):
        files.check_writable(folder)
    params = scenario_params(values)
    profile = scenario.read_profile(params["profile_file"]) if params["profile_file"] else None
    assumptions = catalogue.read("cost_assumptions")
    prices = cost.array_prices(assumptions, sources.load_sources(), "cost assumptions (COST_FILE)")
    sizing, rows = compute(params, catalogue.read("sizing_inputs"), prices, profile)
    out = {}
    for name, df in (("sizing_scenario", sizing), ("array_verdicts", rows)):
        out[name] = catalogue.write(name, df)
        files.write_csv(catalogue.read(name), config.REPORT_STAGING_DIR / PUBLISHED[name])
    plan = catalogue.read("iops_per_desktop_model")
    boot_rows = plan[(plan["era"] == "seed") & (plan["phase"] == "boot")]
    rate = params["desktops"] / params["boot_window_min"]  # an outage reboots every provisioned desktop
    out["boot_demand"] = catalogue.write(
        "boot_demand", boot_demand_line(boot_rows, catalogue.read("boot_storms"), rate)
    )
    return out


def main(argv: list[str]) -> int:
    """``name=value ...`` (the papermill names of ``stages.PARAMETERS``, as its Make rule passes
    them) -> ``run``; exit 2 with the reason for a bad parameter. (``stages`` is not imported: it
    would make every module of the package a code dependency of this stage.)"""
    values = {}
    for a in argv:
        name, sep, v = a.partition("=")
        if not sep:
            print(f"scenario stage: {a!r}: expected name=value", file=sys.stderr)
            return 2
        values[name] = v
    try:
        for name, p in run(values).items():
            print(f"wrote {name}: {p}")
    except PermissionError as exc:  # a folder it writes (or publishes into) is read-only: nothing written
        print(f"\nscenario stage not run: {exc}", file=sys.stderr)
        return 1
    except (ValueError, FileNotFoundError, TypeError) as exc:
        print(f"scenario stage: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    from ..files import end_process

    end_process(main(sys.argv[1:]))
