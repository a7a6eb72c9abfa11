"""The table catalogue: every processed table declared once, read and written through one door.

Each entry of ``TABLES`` gives a table's path under ``data/processed``, every column with its
type (and, where the codebook has one, its vocabulary), the stage that writes it and what one
row is. ``write(name, df)`` checks the columns, validates the table (pandera, every problem at
once), puts the columns in the declared order and writes it atomically and byte-for-byte
deterministically (``files.write_csv``). ``read(name)`` gives the table back typed (text
columns as ``str`` with empty strings, numbers as float or int, flags as bool); pass
``validate=True`` to re-check it against the schema (the tests do; the stages need not, since
only ``write`` produces these files).

Tables with one file per source (``normalized``) take the key as a keyword:
``read("normalized", source_id="x")``.

Importing this module is cheap (no pandas, pandera or pint until a table is read or written),
so ``python -m vdi_report.stages`` can list the tables for the Makefile without them.

Every column's unit and meaning live in one file beside this module, ``catalogue_columns.csv``
(``column_doc(table, column)``; ``COLUMN_UNITS`` lists the units a column may carry).

Command line: ``python -m vdi_report.catalogue`` prints the README's data contract (Markdown, with
each column's unit and meaning);
``python -m vdi_report.catalogue --draft NAME path/to/table.csv STAGE`` prints a declaration
guessed from an existing file, to review and add to ``_TABLES``.
"""

from __future__ import annotations

import csv
import math
import re
import string
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from . import config
from .models.scenario import SIZE_COLUMNS as _SIZE_COLUMNS
from .models.scenario import TEXT_COLUMNS as _SIZE_TEXT
from .models.verdicts import KINDS as _KINDS
from .models.verdicts import VERDICT_COLUMNS as _VERDICT_COLUMNS
from .models.verdicts import VERDICTS as _VERDICTS

# array_verdicts.csv: its text and true/false columns (the others are numbers) and closed lists
_VERDICT_BOOL = ("at_limit",)
_VERDICT_TEXT = (
    "source_id vendor array configuration phase condition demonstrated_bound demonstrated_phase vantage latency_text "
    "busiest_resource busiest_text capability_status binding_resource status_text status_records verdict port_bound "
    "protection protection_source clone_type usable_bound capacity_text binding_constraint arrays_needed_kind "
    "proxy_verdict note record_ids"
).split()
_VERDICT_ISIN = {
    "verdict": _VERDICTS,
    "proxy_verdict": _VERDICTS,
    "arrays_needed_kind": _KINDS,
    "capability_status": ("at_limit", "not_stressed", "unknown"),
}

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# Units of results.csv (``value``, ``value_low``, ``value_high``): the normalized units of
# data/raw/metrics.csv plus the few printed ones kept as they are (see units.py).
RESULT_UNITS = (
    "IOPS",
    "ms",
    "MB/s",
    "min",
    "s",
    "%",
    "GB",
    "count",
    "USD",
    "KB",
    "MB",
    "GHz",
    "MHz",
    "W",
    "Gb/s",
    "ratio",
)


class TableError(ValueError):
    """A processed table that does not match its catalogue entry; the message names the table,
    the file and, for a value, the CSV line (header = line 1) and column."""


@dataclass(frozen=True)
class Col:
    """One column. ``dtype``: ``str`` (empty string = not stated), ``float`` (empty = NaN),
    ``int`` or ``bool`` (never empty). ``vocab``: a field of data/raw/vocabulary.csv whose
    values (or empty) the column takes; ``isin``: an explicit list; ``required``: text must
    not be empty; ``nullable``: a float may be NaN. ``doc``: unused, kept so older declarations
    still import; a column's unit and meaning live in ``catalogue_columns.csv`` (``column_doc``),
    and a test rejects an inline ``doc``."""

    name: str
    dtype: type = str
    vocab: str | None = None
    isin: tuple | None = None
    required: bool = False
    nullable: bool = True
    unique: bool = False
    doc: str = ""


def _cols(spec: str, dtype=str, **kw) -> list[Col]:
    """Several columns of one type from a space-separated list of names."""
    return [Col(n, dtype, **kw) for n in spec.split()]


@dataclass(frozen=True)
class Table:
    """A processed table: ``name``, ``path`` (relative to data/processed; ``{source_id}`` for
    one file per source), the writing ``stage`` (see stages.py), what one ``row`` is,
    ``columns`` (in file order) and ``key`` (columns that identify a row, checked unique)."""

    name: str
    path: str
    stage: str
    row: str
    columns: tuple[Col, ...]
    key: tuple[str, ...] = ()
    checks: tuple = field(default=(), compare=False)
    format: str = "csv"  # or "json": a JSON document (``columns``: its top-level keys; read gives a dict)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    @property
    def keys(self) -> list[str]:
        """Placeholders of ``path`` (e.g. ``["source_id"]``)."""
        return [f for _, f, _, _ in string.Formatter().parse(self.path) if f]

    def file(self, **keys) -> Path:
        """Absolute path of the table (or of one source's file)."""
        missing = set(self.keys) - set(keys)
        if missing:
            raise TypeError(f"table {self.name!r} needs {', '.join(sorted(missing))}=...")
        return config.PROCESSED_DIR / self.path.format(**keys)

    @cached_property
    def schema(self):
        """The pandera DataFrameSchema of every column (built on first use: pandera is slow to import)."""
        import pandera.pandas as pa

        cols = {}
        for c in self.columns:
            checks = []
            values = c.isin
            if c.vocab and c.vocab in config.VOCABULARY:
                values = tuple(r["value"] for r in config.VOCABULARY[c.vocab])
            if values is not None:
                allowed = list(values) + ([] if c.required or c.dtype is not str else [""])
                checks.append(pa.Check.isin(allowed, error=f"unknown {c.vocab or c.name} (see data/raw/README.md)"))
            if c.required:
                checks.append(pa.Check.str_length(min_value=1, error="must not be empty"))
            cols[c.name] = pa.Column(
                c.dtype, checks=checks, nullable=c.dtype is float and c.nullable, unique=c.unique, coerce=True
            )
        return pa.DataFrameSchema(
            cols,
            checks=[pa.Check(f, error=e) for f, e in self.checks],
            unique=list(self.key) or None,
            strict=True,
            ordered=True,
            name=self.name,
        )


# --------------------------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------------------------

_LOW_HIGH = (lambda d: d["value_low"] <= d["value_high"], "value_low <= value_high")

RESULT_COLUMNS_SPEC = (
    Col("source_id", required=True),
    Col("vendor", required=True),
    Col("record_id", required=True, unique=True),
    Col("test_id"),
    Col("phase", vocab="phase", required=True),
    Col("metric", required=True),
    Col("statistic", vocab="statistic", required=True),
    Col("value", float, nullable=False),
    Col("unit", isin=RESULT_UNITS, required=True),
    Col("value_low", float, nullable=False),
    Col("value_high", float, nullable=False),
    Col("bound", vocab="bound", required=True),
    Col("vantage", vocab="vantage"),
    Col("condition", vocab="condition"),
    Col("variant", vocab="variant"),
    Col("configuration", vocab="configuration"),
    Col("worker_class", vocab="worker_class"),
    Col("desktops", float, nullable=False),
    Col("population"),
    *_cols("per_desktop per_desktop_low per_desktop_high", float),
    Col("per_desktop_unit"),
    Col("kind", isin=("reported",), required=True),
    Col("comparison_group"),
    Col("comparable", bool),
    Col("used_in_analysis", bool),
    Col("resolution"),
    Col("locator", required=True),
    Col("text_file"),
    Col("line", int),
    Col("value_text", required=True),
    Col("quote", required=True),
    Col("reported_value", float, nullable=False),
    Col("reported_unit", required=True),
    Col("vantage_note"),
    Col("note"),
    Col("aggregation", vocab="aggregation"),
    Col("window", vocab="window"),
    Col("load", vocab="load"),
    Col("image_file"),
)

# Headline columns of tests.csv: (metric, statistic) -> column (see normalize.build_tests).
TEST_HEADLINES = {
    ("iops", "peak"): "peak_iops",
    ("iops", "average"): "average_iops",
    ("latency", "peak"): "peak_latency_ms",
    ("latency", "average"): "average_latency_ms",
    ("throughput", "peak"): "peak_throughput_mbps",
    ("throughput", "average"): "average_throughput_mbps",
    ("storage_cpu_utilization", "peak"): "peak_storage_cpu_pct",
    ("storage_cpu_utilization", "average"): "average_storage_cpu_pct",
    ("duration", "single"): "duration_min",
}


def _headline_columns() -> list[Col]:
    out = []
    for (metric, _), col in TEST_HEADLINES.items():
        out += [Col(col, float), Col(f"{col}_vantage", vocab="vantage"), Col(f"{col}_bound", vocab="bound")]
        if metric == "iops":
            out.append(Col(f"{col}_per_desktop", float))
    return out


_TABLES = [
    Table(
        "normalized",
        "normalized/{source_id}.csv",
        "normalize",
        "one reported number of one document (results.csv before cross-source columns)",
        RESULT_COLUMNS_SPEC,
        key=("record_id",),
        checks=(_LOW_HIGH,),
    ),
    Table(
        "results",
        "results.csv",
        "combine",
        "one reported number of any document",
        RESULT_COLUMNS_SPEC,
        key=("record_id",),
        checks=(_LOW_HIGH,),
    ),
    Table(
        "tests",
        "tests.csv",
        "combine",
        "one test run with its headline metrics",
        (
            *_cols("source_id test_id vendor phase", required=True),
            Col("condition", vocab="condition"),
            Col("variant", vocab="variant"),
            Col("configuration", vocab="configuration"),
            Col("desktops", float),
            Col("worker_class"),
            Col("clone_type", vocab="clone_type"),
            Col("persistence", vocab="persistence"),
            Col("lab"),
            *_cols(
                "load_tool load_tool_source probes probes_source provisioning provisioning_source "
                "profile_storage profile_storage_source write_cache write_cache_source"
            ),
            *_headline_columns(),
        ),
        key=("source_id", "test_id"),
    ),
    Table(
        "testbeds",
        "testbeds.csv",
        "combine",
        "one tested array (source and pool configuration) with its density",
        (
            *_cols("source_id vendor", required=True),
            Col("configuration", vocab="configuration"),
            *_cols("desktops drives raw_capacity_gb", float),
            Col("drive_layout"),
            *_cols("desktops_per_drive desktops_per_raw_tb", float),
            *_cols("locator record_ids"),
        ),
        key=("source_id", "configuration"),
    ),
    Table(
        "audit_findings",
        "audit_findings.csv",
        "audit",
        "one finding of an automated consistency rule",
        (
            Col("finding_id", required=True, unique=True),
            *_cols("rule severity source_id", required=True),
            *_cols("test_id metric record_ids locators lines values quotes"),
            *_cols("stated recomputed", float),
            *_cols("unit message register_ids"),
        ),
    ),
    # ---- stage iops_model (notebooks/04_iops_model.py, vdi_report.models.iops/boot/scenario) ----
    Table(
        "iops_per_desktop_model",
        "iops_per_desktop_model.csv",
        "iops_model",
        "planning-table cell of one era (`seed`: the 2016–2018 documents, `modern`: the 2022–2024 ones; never "
        "pooled): IOPS per desktop of one phase and statistic (boot rows: `peak_per_rate`, `io_per_boot`) pooled "
        "over documents (the unit of replication), with its interval, the documents behind it, the ratio of a "
        "modern row to the seed row of its cell, tested rates and the I/O profile beside it",
        (
            Col("era", vocab="era", required=True),
            Col("phase", vocab="phase", required=True),
            Col("worker_class", required=True),
            Col("statistic", isin=("peak", "average", "peak_per_rate", "io_per_boot"), required=True),
            Col("provisioning", required=True),
            Col("cell", required=True),
            Col("estimate", float),
            *_cols("pi90_low pi90_high", float),
            Col("bound", isin=("eq", "gt", "bounds", "assumed")),
            Col("interval_kind", required=True),
            Col("interval_spans", required=True),
            *_cols("tau2 i2", float),
            Col("tau2_source", isin=("", "own labs", "seed cell", "seed median")),
            Col("unit", required=True),
            *_cols("n_obs n_documents n_labs n_vendors", int),
            Col("labs"),
            *_cols("documents vendors"),
            Col("spec", required=True),
            Col("boot_rate_per_min", float),
            Col("io_per_boot", float),
            *_cols("rate_low rate_high", float),
            Col("login_window_min", float),
            *_cols("ratio_to_seed ratio_low ratio_high", float),
            Col("read_share", float),
            Col("read_share_basis"),
            Col("io_size_kb", float),
            Col("latency_ms", float),
            *_cols(
                "read_share_vendors io_size_vendors latency_vendors",
            ),
            Col("identifiable"),
            *_cols("load_tool probes profile_storage write_cache harness_lines"),
        ),
        key=("era", "provisioning", "phase", "worker_class", "statistic"),
    ),
    Table(
        "iops_model_observations",
        "iops_model_observations.csv",
        "iops_model",
        "per-desktop IOPS observation the model is fitted on (one cell of one document)",
        (
            *_cols("vendor source_id cell", required=True),
            Col("phase", vocab="phase", required=True),
            Col("statistic", vocab="statistic", required=True),
            Col("window", vocab="window"),
            Col("aggregation", vocab="aggregation"),
            Col("worker_class", vocab="worker_class"),
            Col("vantage", vocab="vantage"),
            Col("iops_per_desktop", float, nullable=False),
            *_cols("low high", float),
            Col("n_tests", int),
            Col("record_ids", required=True),
            Col("workload", float),
            *_cols("log_iops log_iops_vsi", float),
        ),
    ),
    Table(
        "iops_model_exclusions",
        "iops_model_exclusions.csv",
        "iops_model",
        "IOPS record the model leaves out, with the reason",
        (
            *_cols("source_id vendor", required=True),
            Col("role", isin=("seed", "external"), required=True),
            Col("record_id", required=True, unique=True),
            Col("test_id"),
            Col("phase", vocab="phase"),
            Col("statistic", vocab="statistic"),
            Col("vantage", vocab="vantage"),
            Col("aggregation", vocab="aggregation"),
            Col("window", vocab="window"),
            Col("load", vocab="load"),
            Col("worker_class", vocab="worker_class"),
            Col("iops_per_desktop", float),
            Col("reason", required=True),
        ),
    ),
    Table(
        "iops_model_coefficients",
        "iops_model_coefficients.csv",
        "iops_model",
        "model term (log IOPS per desktop) with its multiplicative factor",
        (
            Col("term", required=True, unique=True),
            *_cols("coef ci95_low ci95_high factor factor_low factor_high p_value", float),
        ),
    ),
    Table(
        "iops_model_cv",
        "iops_model_cv.csv",
        "iops_model",
        "held-out observation of leave-one-vendor-out (predicted from the other vendors only)",
        (
            *_cols("held_out trained_on", required=True),
            Col("n_train", int),
            Col("cell", required=True),
            Col("phase", vocab="phase", required=True),
            Col("statistic", vocab="statistic", required=True),
            Col("worker_class", vocab="worker_class"),
            Col("vantage", vocab="vantage"),
            Col("record_ids", required=True),
            *_cols("observed predicted pi90_low pi90_high log_error", float),
            Col("covered", float),
            Col("spec"),
        ),
    ),
    Table(
        "iops_model_cv_by_vendor",
        "iops_model_cv_by_vendor.csv",
        "iops_model",
        "held-out vendor of leave-one-vendor-out: error, coverage and sharpness",
        (
            Col("held_out", required=True, unique=True),
            Col("trained_on"),
            *_cols("n_obs n_predicted", int),
            Col("median_error_factor", float),
            Col("n_covered", int),
            *_cols("coverage sharpness max_sharpness", float),
            Col("vacuous", bool),
            Col("cells"),
        ),
    ),
    Table(
        "iops_model_external",
        "iops_model_external.csv",
        "iops_model",
        "observation of an external source predicted by the seed model (out-of-sample check)",
        (
            *_cols("source_id vendor", required=True),
            *_cols("broker load_tool guest_os platform test_id"),
            Col("configuration", vocab="configuration"),
            Col("variant", vocab="variant"),
            Col("cell", required=True),
            Col("worker_class", vocab="worker_class"),
            Col("observed", float),
            Col("bound", vocab="bound"),
            Col("status", isin=("exact", "lower bound", "upper bound"), required=True),
            *_cols("predicted pi90_low pi90_high", float),
            Col("ratio", float),
            Col("verdict", isin=("inside", "above", "below", "uninformative"), required=True),
            Col("covered", bool),
            Col("record_ids", required=True),
        ),
    ),
    Table(
        "iops_model_lodo",
        "iops_model_lodo.csv",
        "iops_model",
        "held-out document of leave-one-document-out, per era and cell: the row pooled from the era's other "
        "documents against the held-out document's figure",
        (
            Col("era", vocab="era", required=True),
            *_cols("cell held_out", required=True),
            Col("trained_on"),
            Col("n_train", int),
            *_cols("observed estimate pi90_low pi90_high", float),
            Col("interval_kind"),
            Col("ratio", float),
            Col("verdict", isin=("inside", "above", "below", "uninformative"), required=True),
        ),
    ),
    Table(
        "iops_calibration",
        "iops_calibration.csv",
        "iops_model",
        "held-out lab of leave-one-lab-out, per era, cell and provisioning with two labs or more: the interval "
        "for a new lab pooled from the other labs (τ² recomputed without the held-out lab) against the held-out "
        "lab's figure, beside the range of the other labs' runs the rows printed before",
        (
            Col("era", vocab="era", required=True),
            *_cols("cell provisioning held_out", required=True),
            Col("trained_on"),
            Col("n_train_labs", int),
            *_cols("observed estimate pi90_low pi90_high", float),
            Col("interval_spans", required=True),
            Col("tau2", float),
            Col("tau2_source"),
            Col("verdict", isin=("inside", "above", "below", "not checkable"), required=True),
            *_cols("range_low range_high", float),
            Col("range_verdict", isin=("inside", "above", "below"), required=True),
        ),
    ),
    Table(
        "within_lab_effects",
        "within_lab_effects.csv",
        "iops_model",
        "within-lab effect on the whole-test average: two runs of one lab that differ by one declared factor "
        "(provisioning, profile storage, the 2023 and 2024 editions' harness), reported values with their records",
        (
            Col("effect", isin=("provisioning", "profile_storage", "harness"), required=True),
            *_cols("comparison scope lab", required=True),
            *[
                c
                for side in ("a", "b")
                for c in (
                    *_cols(f"{side}_source_id {side}_document", required=True),
                    Col(f"{side}_configuration", vocab="configuration", required=True),
                    Col(f"{side}_phase", vocab="phase", required=True),
                    *_cols(f"{side}_read_iops {side}_write_iops {side}_desktops {side}_iops_per_desktop", float),
                    Col(f"{side}_record_ids", required=True),
                )
            ],
            Col("ratio", float),
            *_cols("value_basis also_differs", required=True),
        ),
    ),
    Table(
        "boot_storms",
        "boot_storms.csv",
        "iops_model",
        "boot storm of one document: boot rate, I/O per desktop boot, peak IOPS per desktop booted per minute",
        (
            *_cols("source_id vendor", required=True),
            Col("role", isin=("seed", "external"), required=True),
            Col("desktops", float),
            Col("duration_min", float),
            Col("duration_bound", vocab="bound"),
            Col("duration_record"),
            Col("boot_rate_per_min", float),
            Col("rate_bound", vocab="bound"),
            Col("peak_iops", float),
            Col("peak_bound", vocab="bound"),
            Col("peak_record"),
            Col("average_iops", float),
            Col("average_record"),
            Col("io_per_boot", float),
            Col("io_per_boot_bound", vocab="bound"),
            Col("peak_iops_per_rate", float),
            Col("peak_per_rate_bound", vocab="bound"),
            Col("vantage", vocab="vantage"),
            Col("provisioning"),
            Col("lab"),
            Col("in_rate_model", bool),
        ),
        key=("source_id",),
    ),
    Table(
        "boot_external",
        "boot_external.csv",
        "iops_model",
        "boot figure of an external document against the seeds' boot-rate model",
        (
            *_cols("source_id vendor", required=True),
            Col("statistic", isin=("peak_per_rate", "io_per_boot"), required=True),
            Col("observed", float),
            Col("bound", vocab="bound"),
            *_cols("estimate low high ratio", float),
            Col("inside", isin=("inside", "above", "below", "uninformative")),
            Col("boot_rate_per_min", float),
        ),
    ),
    Table(
        "iops_calibration_coverage",
        "iops_calibration_coverage.csv",
        "iops_model",
        "one kind of interval checked by leaving one lab out (iops_calibration): how many held-out labs fell "
        "inside it (models.era.calibration_coverage)",
        (
            Col("interval", required=True),
            *_cols("checked inside", int),
            Col("coverage", float),
            Col("not_checkable", int),
        ),
        key=("interval",),
    ),
    Table(
        "observation_context",
        "observation_context.csv",
        "iops_model",
        "one observation of the IOPS model or one seed boot storm, with what it was measured with "
        "(models.iops.observation_context)",
        (
            *_cols("vendor what", required=True),
            Col("worker_class"),
            *_cols("value low high", float),
            *_cols("bound records broker load_tool guest_os clone_type platform"),
        ),
    ),
    Table(
        "rules_of_thumb",
        "rules_of_thumb.csv",
        "iops_model",
        "one per-desktop IOPS rule a document quotes, beside the seed rows' steady-state average and login peak "
        "(models.iops.rules_of_thumb)",
        (
            Col("vendor", required=True),
            Col("record_id", required=True),
            *_cols("worker_class compared_class"),
            *_cols("rule_low rule_high rule_value", float),
            *_cols("bound audit"),
            *_cols("steady_avg steady_pi90_low steady_pi90_high login_peak login_pi90_low login_pi90_high", float),
            *_cols("steady_interval verdict"),
        ),
    ),
    Table(
        "io_profile",
        "io_profile.csv",
        "iops_model",
        "one test, phase, statistic and vantage that reports read and write IOPS or throughput and IOPS: read "
        "share and implied I/O size (models.iops.io_profile)",
        (
            *_cols("source_id role vendor", required=True),
            *_cols("test_id phase statistic vantage"),
            *_cols("read_share kb_per_io", float),
            Col("records"),
        ),
    ),
    Table(
        "headline_iops",
        "headline_iops.csv",
        "iops_model",
        "one test run and statistic (peak, average): the IOPS per desktop the model's record selection takes, "
        "as the report's headline table shows it (models.iops.headline_iops)",
        (
            *_cols("source_id test_id statistic", required=True),
            Col("iops_per_desktop", float),
            *_cols("bound vantage"),
            Col("derived", bool),
            Col("set_aside"),
        ),
        key=("source_id", "test_id", "statistic"),
    ),
    Table(
        "sizing_inputs",
        "sizing_inputs.json",
        "iops_model",
        "everything `scenario.size`, `verdicts.verdicts` and their JavaScript twins need "
        "(`scenario.build_inputs`, `verdicts.to_inputs`)",
        (
            Col("default_era"),
            Col("lists"),
            Col("parameters"),
            Col(
                "eras",
            ),
            Col("write_penalty"),
            Col("demonstrated"),
            Col("capability"),
            Col("arrays"),
            Col("capacity_by_clone"),
        ),
        format="json",
    ),
    # ---- stage scenario (vdi_report.models.scenario_stage): the report scenario, computed once ----
    Table(
        "sizing_scenario",
        "sizing_scenario.csv",
        "scenario",
        "one phase (boot, login, steady state) of the report's sizing scenario (`scenario.size`)",
        tuple(Col(c, str if c in _SIZE_TEXT else float, required=c == "phase") for c in _SIZE_COLUMNS),
        key=("phase",),
    ),
    Table(
        "array_verdicts",
        "array_verdicts.csv",
        "scenario",
        "one tested configuration, phase and condition at the report's scenario: capability, verdict, arrays "
        "needed and their kind, USD per desktop from the buyer's quote (`verdicts.verdicts`)",
        tuple(
            Col(
                c,
                bool if c in _VERDICT_BOOL else str if c in _VERDICT_TEXT else float,
                isin=_VERDICT_ISIN.get(c),
                required=c in ("source_id", "phase", "condition"),
            )
            for c in _VERDICT_COLUMNS
        ),
        key=("source_id", "configuration", "phase", "condition"),
    ),
    # ---- stage density_cost (notebooks/05_density_cost.py, vdi_report.models.density/cost) ----
    Table(
        "density",
        "density.csv",
        "density_cost",
        "utilization record: headroom and maximum desktops, whether and how it may be extrapolated",
        (
            *_cols("source_id vendor", required=True),
            Col("configuration", vocab="configuration"),
            Col("phase", vocab="phase", required=True),
            Col("condition", vocab="condition"),
            Col("variant", vocab="variant"),
            *_cols("resource metric", required=True),
            Col("statistic", vocab="statistic", required=True),
            *_cols("utilization_pct utilization_low utilization_high", float),
            Col("bound", vocab="bound", required=True),
            Col("desktops", float),
            Col("population"),
            Col("extrapolation", isin=("scales", "not extrapolated"), required=True),
            Col("reason"),
            Col("max_desktops", float),
            Col("max_bound", vocab="bound"),
            Col("max_desktops_failover", float),
            Col("failover_basis"),
            Col("phase_kind", isin=("user", "maintenance"), required=True),
            Col("record_id", required=True),
            Col("claim_id"),
        ),
    ),
    Table(
        "density_summary",
        "density_summary.csv",
        "density_cost",
        "tested array configuration: desktops demonstrated, busiest resource, extrapolated maxima, claims",
        (
            Col("vendor", required=True),
            Col("configuration", vocab="configuration"),
            *_cols("desktops_tested desktops_failover_tested", float),
            Col("busiest_resource"),
            Col("busiest_pct", float),
            Col("busiest_bound", vocab="bound"),
            Col("busiest_phase", vocab="phase"),
            Col("busiest_record"),
            Col("peak_max", float),
            Col("peak_bound", isin=("eq", "approx", "gt", "lt", "limit")),
            Col("peak_basis"),
            Col("average_max", float),
            Col("average_bound", isin=("eq", "approx", "gt", "lt", "limit")),
            Col("average_basis"),
            Col("peak_failover_max", float),
            Col("peak_failover_bound", isin=("eq", "approx", "gt", "lt", "limit")),
            Col("peak_failover_basis"),
            Col("boot_limit"),
            Col("port_max", float),
            Col("port_bound", isin=("approx", "lt")),
            *_cols("port_basis caveat consistency claims"),
        ),
        key=("vendor", "configuration"),
    ),
    Table(
        "cost_readings",
        "cost_readings.csv",
        "density_cost",
        "reading of a $-per-desktop claim (reported) with its consequence (derived)",
        (
            *_cols("vendor source_id record_id", required=True),
            Col("claim_usd", float),
            Col("reading", required=True),
            Col("density", float),
            Col("derivation"),
            Col("implied_price_usd", float),
            *_cols("verdict claim_id audit"),
            Col("usd_per_tested_desktop", float),
        ),
    ),
    Table(
        "cost",
        "cost.csv",
        "density_cost",
        "cost per desktop from an array price the cost assumptions state (empty when none is stated)",
        (
            *_cols("vendor source_id", required=True),
            *_cols("price_usd price_low price_high", float),
            Col("scope"),
            Col("density_case", isin=("demonstrated", "extrapolated peak maximum"), required=True),
            Col("desktops", float),
            *_cols("usd_per_desktop usd_per_desktop_low usd_per_desktop_high", float),
        ),
    ),
    Table(
        "sensitivity",
        "sensitivity.csv",
        "sensitivity",
        "planning-table row (era, phase, worker class, statistic) under one specification of the analysis "
        "choices (data/raw/analysis_choices.csv): one choice flipped at a time, or a combination of the joint "
        "choices (the specification curve)",
        (
            Col("kind", isin=("one_at_a_time", "joint"), required=True),
            Col("choice_id", required=True),
            Col("option", required=True),
            Col("is_default", bool),
            Col("specification", required=True),
            *_cols("era phase worker_class statistic", required=True),
            *_cols("estimate pi90_low pi90_high change n_obs", float),
            Col("spec"),
        ),
    ),
    Table(
        "sensitivity_ranking",
        "sensitivity_ranking.csv",
        "sensitivity",
        "one analysis choice: how far one flip moves a planning estimate and interval of the pooled or "
        "reference class (models.sensitivity.ranking), largest move first",
        (
            Col("choice_id", required=True),
            Col("max_abs_change", float),
            *_cols("row option"),
            Col("max_abs_interval_change", float),
            *_cols("interval_row interval_option"),
            Col("not_estimable", bool),
        ),
        key=("choice_id",),
    ),
    Table(
        "sensitivity_movers",
        "sensitivity_movers.csv",
        "sensitivity",
        "one planning row (era, phase, statistic; pooled or reference class) and one choice that moves it when "
        "flipped alone, with the option that moves it most (models.sensitivity.row_movers); a row no choice "
        "moves has one line with an empty choice",
        (
            *_cols("era phase statistic", required=True),
            Col("default_estimate", float),
            *_cols("choice_id option"),
            *_cols("estimate change", float),
        ),
        key=("era", "phase", "statistic", "choice_id"),
    ),
    Table(
        "sensitivity_tornado",
        "sensitivity_tornado.csv",
        "sensitivity",
        "one analysis choice and planning row (era, phase, statistic; pooled or reference class): the lowest and "
        "highest change of the estimate over the choice's options, one at a time (models.sensitivity.tornado)",
        (
            *_cols("choice_id era phase statistic", required=True),
            Col("low_change", float),
            Col("low_option"),
            Col("high_change", float),
            Col("high_option"),
            Col("not_estimable"),
        ),
        key=("choice_id", "era", "phase", "statistic"),
    ),
    Table(
        "cost_assumptions",
        "cost_assumptions.csv",
        "density_cost",
        "one assumption of the cost model as read from the cost file (COST_FILE), validated",
        (
            Col("name", required=True, unique=True),
            Col("value", float, nullable=False),
            Col("unit"),
            *_cols("low high", float),
            *_cols("basis scope source_or_rationale"),
        ),
        key=("name",),
    ),
    Table(
        "drive_mix",
        "drive_mix.csv",
        "density_cost",
        "one tested configuration of a document that tests several: its flash modules (FMD) and HDDs",
        (
            *_cols("source_id vendor configuration", required=True),
            *_cols("fmd hdd", float),
        ),
        key=("source_id", "configuration"),
    ),
    Table(
        "tiering_saving",
        "tiering_saving.csv",
        "density_cost",
        "one pair of configurations: the tiered configuration's drive-cost saving against a reference",
        (
            *_cols("source_id reference tiered", required=True),
            *_cols("claimed_fmd_only with_hdds break_even_ratio hdd_to_fmd_price_ratio", float),
        ),
        key=("source_id", "reference", "tiered"),
    ),
    Table(
        "tiering_saving_curve",
        "tiering_saving_curve.csv",
        "density_cost",
        "one pair of configurations at one HDD/FMD price ratio (0 to 1 by 0.01): the tiered configuration's "
        "drive-cost saving (the report's saving curve)",
        (
            *_cols("source_id reference tiered", required=True),
            *_cols("hdd_to_fmd_price_ratio with_hdds", float),
        ),
        key=("source_id", "reference", "tiered", "hdd_to_fmd_price_ratio"),
    ),
    Table(
        "boot_demand",
        "boot_demand.csv",
        "scenario",
        "one point of the boot-demand line of the report's scenario: peak front-end boot IOPS at a boot rate, "
        "from the seed boot row (rate × peak IOPS per desktop booted per minute), fitted up to "
        "models.boot.EXTRAPOLATION_FACTOR × the highest fitted rate, extrapolated beyond to the scenario's rate",
        (
            Col("part", isin=("model (fitted)", "extrapolated beyond the tested boot rates"), required=True),
            *_cols("boot_rate_per_min fe_iops fe_iops_low fe_iops_high scenario_boot_rate_per_min", float),
        ),
    ),
]
TABLES: dict[str, Table] = {t.name: t for t in _TABLES}

# The results columns in file order (normalize builds its frames with them).
RESULT_COLUMNS = [c.name for c in RESULT_COLUMNS_SPEC]


def table(name: str) -> Table:
    """The catalogue entry ``name``; raises KeyError listing the known tables."""
    try:
        return TABLES[name]
    except KeyError:
        raise KeyError(f"no table {name!r} in the catalogue; known: {', '.join(TABLES)}") from None


def path(name: str, **keys) -> Path:
    """Absolute path of table ``name`` (``source_id=`` for per-source tables)."""
    return table(name).file(**keys)


def locate(file) -> tuple[str, dict]:
    """(table name, keys) of a path under data/processed; raises TableError for any other path."""
    p = Path(file).resolve()
    for t in _TABLES:
        pattern = re.escape(str(config.PROCESSED_DIR.resolve() / t.path))
        for k in t.keys:
            pattern = pattern.replace(re.escape("{" + k + "}"), f"(?P<{k}>[^/]+)")
        m = re.fullmatch(pattern, str(p))
        if m:
            return t.name, m.groupdict()
    raise TableError(f"{file}: not a table of the catalogue (data/processed)")


# --------------------------------------------------------------------------------------------
# Column documentation: unit and meaning of every column (catalogue_columns.csv)
# --------------------------------------------------------------------------------------------

COLUMN_DOCS_FILE = Path(__file__).with_name("catalogue_columns.csv")
COLUMN_DOCS_HEADER = ["table", "column", "unit", "meaning"]
ALL_TABLES = "*"  # a ``table`` of ``*``: the meaning of a column name in every table that has no row of its own
# Units a documented column may carry (``unit`` of catalogue_columns.csv). Empty: text, flags and
# identifiers. ``fraction``: a share between 0 and 1, or a relative change (-0.2: 20 % lower);
# ``ratio``: one quantity over another of the same kind; ``ln(...)``: a natural logarithm;
# ``varies``: the meaning says what sets the unit (e.g. the row's statistic). Besides these,
# ``{column}`` (or ``{column} per desktop``) is the unit the row's ``column`` names (results'
# ``value`` is in its row's ``unit``).
COLUMN_UNITS = (
    "",
    "IOPS",
    "IOPS per desktop",
    "IOPS per (desktop booted per minute)",
    "I/O per desktop boot",
    "ms",
    "MB/s",
    "KB",
    "GB",
    "GB per desktop",
    "TB",
    "%",
    "min",
    "desktops",
    "desktops per minute",
    "desktops per drive",
    "desktops per TB",
    "drives",
    "USD",
    "USD per desktop",
    "count",
    "fraction",
    "ratio",
    "probability",
    "ln(ratio)",
    "ln(IOPS per desktop)",
    "(ln(IOPS per desktop))²",
    "varies",
)
_UNIT_OF_COLUMN = re.compile(r"\{(\w+)\}(?: per desktop)?")


@dataclass(frozen=True)
class ColumnDoc:
    """A row of catalogue_columns.csv: ``table`` (a table name, or ``*``), ``column``, ``unit``
    (one of ``COLUMN_UNITS`` or ``{column}``), ``meaning`` (one line) and the CSV ``line``."""

    table: str
    column: str
    unit: str
    meaning: str
    line: int

    @property
    def unit_column(self) -> str | None:
        """The column whose value is the unit (``{unit}`` -> ``unit``), else None."""
        m = _UNIT_OF_COLUMN.fullmatch(self.unit)
        return m.group(1) if m else None


def read_column_docs(path: Path | str = COLUMN_DOCS_FILE) -> dict[tuple[str, str], ColumnDoc]:
    """catalogue_columns.csv as {(table, column): ColumnDoc}, read strictly with the standard
    library (cheap to import). Raises ValueError naming the file, the line (header = line 1) and
    the column for: a header other than ``table,column,unit,meaning``, a row with another number
    of fields, an empty table, column or meaning, a cell with surrounding spaces, a unit not in
    ``COLUMN_UNITS`` (nor ``{column}``), or a (table, column) given twice. Whether the rows match
    the catalogue is ``column_doc_problems``'s business."""
    path = Path(path)
    docs: dict[tuple[str, str], ColumnDoc] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        rows = csv.reader(fh, strict=True)
        header = next(rows, None)
        if header != COLUMN_DOCS_HEADER:
            raise ValueError(f"{path}: line 1: header {header!r}: expected {','.join(COLUMN_DOCS_HEADER)}")
        for row in rows:
            line = rows.line_num
            if len(row) != len(COLUMN_DOCS_HEADER):
                raise ValueError(f"{path}: line {line}: {len(row)} fields, expected {len(COLUMN_DOCS_HEADER)}")
            rec = dict(zip(COLUMN_DOCS_HEADER, row))
            for name, value in rec.items():
                if value != value.strip():
                    raise ValueError(f"{path}: line {line}: column {name!r} = {value!r}: spaces around the value")
                if not value and name != "unit":
                    raise ValueError(f"{path}: line {line}: column {name!r} is empty")
            if rec["unit"] not in COLUMN_UNITS and not _UNIT_OF_COLUMN.fullmatch(rec["unit"]):
                raise ValueError(
                    f"{path}: line {line}: column 'unit' = {rec['unit']!r}: not a unit of the catalogue "
                    f"(COLUMN_UNITS: {', '.join(repr(u) for u in COLUMN_UNITS)}, or {{column}})"
                )
            key = (rec["table"], rec["column"])
            if key in docs:
                raise ValueError(
                    f"{path}: line {line}: column 'column' = {rec['column']!r}: table {rec['table']!r} "
                    f"documents it already on line {docs[key].line}"
                )
            docs[key] = ColumnDoc(rec["table"], rec["column"], rec["unit"], rec["meaning"], line)
    return docs


@cache
def column_docs() -> dict[tuple[str, str], ColumnDoc]:
    """The shipped catalogue_columns.csv (``read_column_docs``), read once per process."""
    return read_column_docs()


def column_doc(table_name: str, column: str, docs: dict | None = None) -> ColumnDoc:
    """Unit and meaning of ``column`` of table ``table_name``: the table's own row of
    catalogue_columns.csv, else the ``*`` row of that column name. ``docs``: another reading
    (default ``column_docs()``). Raises KeyError for an unknown table or column, or a column
    that has no row (naming the file to add it to)."""
    t = table(table_name)
    if column not in t.column_names:
        raise KeyError(f"table {table_name!r} has no column {column!r}")
    docs = column_docs() if docs is None else docs
    doc = docs.get((table_name, column)) or docs.get((ALL_TABLES, column))
    if doc is None:
        raise KeyError(
            f"column {column!r} of table {table_name!r} is not documented: add a row "
            f"{table_name},{column},<unit>,<meaning> to {COLUMN_DOCS_FILE.name}"
        )
    return doc


def column_doc_problems(docs: dict | None = None) -> list[str]:
    """What keeps catalogue_columns.csv from documenting exactly the catalogue: a column of a
    table with no row (nor a ``*`` row of its name), a row naming a table or a column that does
    not exist, a ``*`` row no table uses (every table that has the column has its own row), and
    a ``{column}`` unit naming a column the table lacks. Empty when all is well."""
    docs = column_docs() if docs is None else docs
    where = COLUMN_DOCS_FILE.name
    problems, used = [], set()
    for t in _TABLES:
        for c in t.column_names:
            doc = docs.get((t.name, c)) or docs.get((ALL_TABLES, c))
            if doc is None:
                problems.append(f"{where}: no row documents column {c!r} of table {t.name!r}")
                continue
            used.add((doc.table, doc.column))
            ref = doc.unit_column
            if ref and ref not in t.column_names:
                problems.append(
                    f"{where}: line {doc.line}: unit {doc.unit!r} of {c!r} names a column table {t.name!r} lacks"
                )
    for (tname, c), doc in docs.items():
        if tname != ALL_TABLES and tname not in TABLES:
            problems.append(f"{where}: line {doc.line}: no table {tname!r} in the catalogue")
        elif tname != ALL_TABLES and c not in TABLES[tname].column_names:
            problems.append(f"{where}: line {doc.line}: table {tname!r} has no column {c!r}")
        elif tname == ALL_TABLES and (tname, c) not in used:
            problems.append(f"{where}: line {doc.line}: no table uses the shared row of {c!r}")
    return problems


def _unit_words(unit: str) -> str:
    """A unit as the data contract prints it (``{unit}`` -> the row's `unit`)."""
    ref = _UNIT_OF_COLUMN.fullmatch(unit)
    if ref:
        return f"the row's `{ref.group(1)}`" + unit[ref.end(1) + 1 :]
    return "unit varies" if unit == "varies" else unit


# --------------------------------------------------------------------------------------------
# Reading and writing
# --------------------------------------------------------------------------------------------


def _describe(t: Table, where: Path, failures, df) -> str:
    lines = []
    for f in failures.itertuples(index=False):
        idx = f.index
        at = f"line {int(idx) + 2}" if idx is not None and not (isinstance(idx, float) and math.isnan(idx)) else "table"
        col = f.column if isinstance(f.column, str) and f.column in df.columns else None
        what = f"column {col!r} = {f.failure_case!r}" if col else f"{f.column} ({f.failure_case})"
        lines.append(f"{where}: {at}: {what}: {f.check}")
    uniq = list(dict.fromkeys(lines))
    shown = uniq[:30] + ([f"... and {len(uniq) - 30} more"] if len(uniq) > 30 else [])
    return f"table {t.name!r}: {len(uniq)} problem(s):\n  " + "\n  ".join(shown)


def empty(name: str) -> pd.DataFrame:
    """A table with no rows and every declared column of ``name``, typed as declared (text
    ``object``, float ``float64``, int ``int64``, flag ``bool``): what a stage writes when an
    analysis choice leaves nothing to put in it (e.g. no model can be fitted), so the file keeps
    its declared header. Raises KeyError for an unknown table, TableError for a JSON entry."""
    import pandas as pd

    t = table(name)
    if t.format == "json":
        raise TableError(f"table {name!r} is a JSON document: it has no empty form")
    kinds = {str: object, float: "float64", int: "int64", bool: "bool"}
    return pd.DataFrame({c.name: pd.Series(dtype=kinds[c.dtype]) for c in t.columns})


def validate(name: str, df: pd.DataFrame, where: Path | str | None = None) -> pd.DataFrame:
    """``df`` checked against table ``name``'s schema (all problems at once) and coerced to its
    types, columns in catalogue order; missing text (NaN/None) becomes the empty string. A frame
    with no rows takes the declared columns it lacks (``empty``): an empty table is written
    with its whole declared header, never a partial one. Raises TableError naming the table,
    the file (``where``), the CSV line and the column of each failing value, or the missing and
    extra columns."""
    import pandera.pandas as pa

    t = table(name)
    where = where or t.path
    have, want = list(df.columns), t.column_names
    missing, extra = [c for c in want if c not in have], [c for c in have if c not in want]
    if len(df) == 0 and missing and not extra:
        df, missing = empty(name), []
    if missing or extra:
        raise TableError(
            f"table {name!r} ({where}): columns do not match the catalogue"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; not declared: {', '.join(extra)}" if extra else "")
        )
    df = df[want].reset_index(drop=True)
    text = [c.name for c in t.columns if c.dtype is str]
    df[text] = df[text].fillna("")  # text not stated is the empty string, as in the CSV file
    try:
        return t.schema.validate(df, lazy=True)
    except pa.errors.SchemaErrors as exc:
        raise TableError(_describe(t, where, exc.failure_cases, df)) from None


def _check_keys(t: Table, doc, where) -> None:
    """Raise TableError unless ``doc`` is a dict whose top-level keys are ``t``'s declared ones."""
    if not isinstance(doc, dict):
        raise TableError(f"table {t.name!r} ({where}): a JSON object expected, got {type(doc).__name__}")
    want = t.column_names
    missing, extra = [k for k in want if k not in doc], sorted(k for k in doc if k not in want)
    if missing or extra:
        raise TableError(
            f"table {t.name!r} ({where}): keys do not match the catalogue"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; not declared: {', '.join(extra)}" if extra else "")
        )


# Set by the build for the stage it runs (stages.make_rules): its name and the tables it declares,
# passed in the environment so that this module never imports stages (which imports it).
STAGE_ENV, READS_ENV, WRITES_ENV = "VDI_STAGE", "VDI_STAGE_READS", "VDI_STAGE_WRITES"


def check_declared(name: str, mode: str) -> None:
    """Within a stage of the build (``VDI_STAGE`` names it; ``VDI_STAGE_READS`` and
    ``VDI_STAGE_WRITES`` list its declared tables), refuse a table the stage does not declare in
    ``stages.py`` (OWID's rule: a step reads only what it declares): ``mode`` "read" allows the
    tables it reads or writes, "write" those it writes. Raises TableError naming the stage, the
    table and what it declares; outside the build (no ``VDI_STAGE``) nothing is checked."""
    import os

    stage_name = os.environ.get(STAGE_ENV, "")
    if not stage_name:
        return
    writes = os.environ.get(WRITES_ENV, "").split()
    allowed = writes if mode == "write" else [*os.environ.get(READS_ENV, "").split(), *writes]
    if name not in allowed:
        what = "writes" if mode == "write" else "reads"
        raise TableError(
            f"stage {stage_name} {mode}s table {name!r}, which it does not declare: it {what} "
            f"{', '.join(allowed) or 'no table'} (declare it in src/vdi_report/stages.py"
            + (", or set the table's stage in catalogue.py)" if mode == "write" else ": reads_tables or reads_stages)")
        )


def write(name: str, df: pd.DataFrame, **keys) -> Path:
    """Validate ``df`` as table ``name`` (see ``validate``) and write it atomically and
    deterministically to its path (``files.write_csv``). Returns the path written. Raises
    TableError for a table that does not match its entry, PermissionError under data/raw.
    For a JSON entry ``df`` is a JSON-able dict with the declared top-level keys (TableError
    otherwise; ``files.write_json``; ValueError for NaN)."""
    from . import files

    check_declared(name, "write")
    p = path(name, **keys)
    if table(name).format == "json":
        if not isinstance(df, dict):
            raise TableError(f"table {name!r} ({p.name}) is a JSON document: pass a dict, not {type(df).__name__}")
        if table(name).columns:
            _check_keys(table(name), df, p.name)
        return files.write_json(df, p)
    out = validate(name, df, p.relative_to(config.PROJ_ROOT) if config.PROJ_ROOT in p.parents else p)
    return files.write_csv(out, p)


def read(name: str, validate: bool = False, **keys) -> pd.DataFrame:
    """Table ``name`` with its declared types and columns (``source_id=`` for per-source tables).

    Text columns are ``str`` (empty string where not stated), ``float`` columns are float (NaN
    where empty; ``inf`` kept), ``int`` and ``bool`` columns are int and bool. Raises
    FileNotFoundError naming the build target when the file is missing, TableError naming
    file, line and column for a value of the wrong type or a column set that differs from the
    catalogue, and (``validate=True``) for any failed check. A JSON entry gives a dict
    (``validate=True`` checks its top-level keys).
    """
    import pandas as pd

    check_declared(name, "read")
    t = table(name)
    p = t.file(**keys)
    rel = p.relative_to(config.PROJ_ROOT) if config.PROJ_ROOT in p.parents else p
    if not p.is_file():
        raise FileNotFoundError(f"{rel} is missing: build it with `make {rel}` (stage {t.stage}) or `make report`")
    if t.format == "json":
        import json

        doc = json.loads(p.read_text(encoding="utf-8"))
        if validate and t.columns:
            _check_keys(t, doc, rel)
        return doc
    df = pd.read_csv(p, dtype=str, keep_default_na=False, encoding="utf-8")
    have, want = list(df.columns), t.column_names
    if have != want:
        missing, extra = [c for c in want if c not in have], [c for c in have if c not in want]
        raise TableError(
            f"table {name!r} ({rel}): header does not match the catalogue"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; not declared: {', '.join(extra)}" if extra else "")
            + ("; order differs" if not missing and not extra else "")
            + ": rebuild it"
        )
    for c in t.columns:
        if c.dtype is str:
            continue
        s = df[c.name]
        bad = pd.Series(False, index=s.index)
        if c.dtype is bool:
            conv = s.map({"True": True, "False": False})
            bad = conv.isna()
            conv = conv.astype(bool) if not bad.any() else conv
        else:
            conv = pd.to_numeric(s.replace("", None), errors="coerce")
            bad = conv.isna() & (s != "")
            if c.dtype is int:
                bad |= conv.isna() | (conv.notna() & (conv != conv.round()))
                conv = conv.astype("Int64") if bad.any() else conv.astype("int64")
            else:
                conv = conv.astype(float)
        if bad.any():
            i = bad.to_numpy().nonzero()[0][0]
            raise TableError(
                f"{rel}: line {i + 2}: column {c.name!r} = {s.iloc[i]!r}: "
                f"not a {c.dtype.__name__} (table {name!r}): rebuild it"
            )
        df[c.name] = conv
    if validate:
        df = globals()["validate"](name, df, rel)
    return df


# --------------------------------------------------------------------------------------------
# The README's data contract
# --------------------------------------------------------------------------------------------


def contract_markdown() -> str:
    """The data contract as Markdown: one bullet per table (path, writing stage, what a row is)
    and under it one bullet per column with its type, unit and meaning (``column_doc``). The
    README holds this text verbatim (a test checks it). Raises KeyError for an undocumented
    column."""
    abbrev = {str: [], float: ["float"], int: ["int"], bool: ["bool"]}
    out = []
    for t in _TABLES:
        if t.format == "json":
            out.append(
                f"- `data/processed/{t.path}` (stage `{t.stage}`): a JSON document: {t.row}."
                + (" Keys:" if t.columns else "")
            )
        else:
            out.append(f"- `data/processed/{t.path}` (stage `{t.stage}`): one row per {t.row}. Columns:")
        for c in t.columns:
            doc = column_doc(t.name, c.name)
            what = ", ".join(abbrev[c.dtype] + ([_unit_words(doc.unit)] if doc.unit else []))
            out.append(f"  - `{c.name}`" + (f" ({what})" if what else "") + f": {doc.meaning}")
    return "\n".join(out)


def draft(name: str, csv_path, stage: str) -> str:
    """A ``Table(...)`` declaration guessed from an existing CSV file, to review and paste into
    ``_TABLES``: a column is ``bool`` when it holds only True/False, ``int`` when only whole
    numbers, ``float`` when numbers (or empty), else text. Raises FileNotFoundError."""
    import pandas as pd

    d = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    cols = []
    for c in d.columns:
        filled = d[c][d[c] != ""]
        kind = "str"
        if len(filled) and filled.isin(["True", "False"]).all() and len(filled) == len(d):
            kind = "bool"
        elif len(filled) and pd.to_numeric(filled, errors="coerce").notna().all():
            kind = "int" if filled.str.fullmatch(r"-?\d+").all() and len(filled) == len(d) else "float"
        cols.append(f'Col("{c}")' if kind == "str" else f'Col("{c}", {kind})')
    return (
        f'    Table("{name}", "{Path(csv_path).name}", "{stage}", "<what one row is>",\n          ('
        + ", ".join(cols)
        + ")),"
    )


if __name__ == "__main__":  # pragma: no cover
    import sys

    if len(sys.argv) == 5 and sys.argv[1] == "--draft":  # --draft NAME CSV STAGE
        print(draft(*sys.argv[2:]))
    else:
        print(contract_markdown())
