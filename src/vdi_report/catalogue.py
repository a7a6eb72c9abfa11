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

Command line: ``python -m vdi_report.catalogue`` prints the README's data contract (Markdown);
``python -m vdi_report.catalogue --draft NAME path/to/table.csv STAGE`` prints a declaration
guessed from an existing file, to review and add to ``_TABLES``.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from . import config

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# Units of results.csv (``value``, ``value_low``, ``value_high``): the normalized units of
# data/raw/metrics.csv plus the few printed ones kept as they are (see units.py).
RESULT_UNITS = ("IOPS", "ms", "MB/s", "min", "s", "%", "GB", "count", "USD", "KB", "MB", "GHz", "Gb/s", "ratio")


class TableError(ValueError):
    """A processed table that does not match its catalogue entry; the message names the table,
    the file and, for a value, the CSV line (header = line 1) and column."""


@dataclass(frozen=True)
class Col:
    """One column. ``dtype``: ``str`` (empty string = not stated), ``float`` (empty = NaN),
    ``int`` or ``bool`` (never empty). ``vocab``: a field of data/raw/vocabulary.csv whose
    values (or empty) the column takes; ``isin``: an explicit list; ``required``: text must
    not be empty; ``nullable``: a float may be NaN."""

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
    format: str = "csv"  # or "json": a JSON document (no columns; read gives a dict)

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
            cols[c.name] = pa.Column(c.dtype, checks=checks, nullable=c.dtype is float and c.nullable,
                                     unique=c.unique, coerce=True)
        return pa.DataFrameSchema(cols, checks=[pa.Check(f, error=e) for f, e in self.checks],
                                  unique=list(self.key) or None, strict=True, ordered=True, name=self.name)


# --------------------------------------------------------------------------------------------
# The tables
# --------------------------------------------------------------------------------------------

_LOW_HIGH = (lambda d: d["value_low"] <= d["value_high"], "value_low <= value_high")

RESULT_COLUMNS_SPEC = (
    Col("source_id", required=True, doc="document (data/raw/sources.csv)"),
    Col("vendor", required=True),
    Col("record_id", required=True, unique=True, doc="raw record id (<record_prefix>-NNNN)"),
    Col("test_id", doc="test run within the document; empty for document-level facts"),
    Col("phase", vocab="phase", required=True),
    Col("metric", required=True, doc="data/raw/metrics.csv"),
    Col("statistic", vocab="statistic", required=True),
    Col("value", float, nullable=False, doc="reported number in the normalized unit"),
    Col("unit", isin=RESULT_UNITS, required=True),
    Col("value_low", float, nullable=False, doc="interval the printed value stands for"),
    Col("value_high", float, nullable=False),
    Col("bound", vocab="bound", required=True),
    Col("vantage", vocab="vantage"),
    Col("condition", vocab="condition"),
    Col("variant", vocab="variant"),
    Col("configuration", vocab="configuration"),
    Col("worker_class", vocab="worker_class"),
    Col("desktops", float, nullable=False, doc="desktops of the test (record, else the document's)"),
    Col("population"),
    *_cols("per_desktop per_desktop_low per_desktop_high", float, doc="derived: value / desktops"),
    Col("per_desktop_unit"),
    Col("kind", isin=("reported",), required=True),
    Col("comparison_group", doc="phase|metric|statistic|vantage"),
    Col("comparable", bool),
    Col("used_in_analysis", bool),
    Col("resolution", doc="audit register entry that sets the record aside"),
    Col("locator", required=True),
    Col("text_file", doc="the source's text file holding the quote"),
    Col("line", int),
    Col("value_text", required=True),
    Col("quote", required=True),
    Col("reported_value", float, nullable=False),
    Col("reported_unit", required=True),
    Col("vantage_note"),
    Col("note"),
    Col("aggregation", vocab="aggregation", doc="what a rate aggregates (array_total, single_desktop ...)"),
    Col("window", vocab="window", doc="over what it is measured (phase, test, interval ...)"),
    Col("load", vocab="load", doc="standard Login VSI/Login Enterprise workload or boosted I/O"),
)

# Headline columns of tests.csv: (metric, statistic) -> column (see normalize.build_tests).
TEST_HEADLINES = {
    ("iops", "peak"): "peak_iops", ("iops", "average"): "average_iops",
    ("latency", "peak"): "peak_latency_ms", ("latency", "average"): "average_latency_ms",
    ("throughput", "peak"): "peak_throughput_mbps", ("throughput", "average"): "average_throughput_mbps",
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
    Table("normalized", "normalized/{source_id}.csv", "normalize",
          "one reported number of one document (results.csv before cross-source columns)",
          RESULT_COLUMNS_SPEC, key=("record_id",), checks=(_LOW_HIGH,)),
    Table("results", "results.csv", "combine", "one reported number of any document",
          RESULT_COLUMNS_SPEC, key=("record_id",), checks=(_LOW_HIGH,)),
    Table("tests", "tests.csv", "combine", "one test run with its headline metrics",
          (*_cols("source_id test_id vendor phase", required=True), Col("condition", vocab="condition"),
           Col("variant", vocab="variant"), Col("configuration", vocab="configuration"),
           Col("desktops", float), Col("worker_class"), Col("clone_type", vocab="clone_type"),
           Col("persistence", vocab="persistence"), *_headline_columns()),
          key=("source_id", "test_id")),
    Table("testbeds", "testbeds.csv", "combine", "one tested array (source and pool configuration) with its density",
          (*_cols("source_id vendor", required=True), Col("configuration", vocab="configuration"),
           *_cols("desktops drives raw_capacity_gb", float), Col("drive_layout"),
           *_cols("desktops_per_drive desktops_per_raw_tb", float), *_cols("locator record_ids")),
          key=("source_id", "configuration")),
    Table("audit_findings", "audit_findings.csv", "audit", "one finding of an automated consistency rule",
          (Col("finding_id", required=True, unique=True), *_cols("rule severity source_id", required=True),
           *_cols("test_id metric record_ids locators lines values quotes"), *_cols("stated recomputed", float),
           *_cols("unit message register_ids"))),
    Table("iops_per_desktop_model", "iops_per_desktop_model.csv", "iops_model",
          "predicted IOPS per desktop of one phase, worker class and statistic, with intervals",
          (*_cols("phase worker_class statistic"), *_cols("estimate pi90_low pi90_high ci95_low ci95_high", float),
           Col("spec"), Col("n_obs", int))),
    Table("iops_model_cv", "iops_model_cv.csv", "iops_model", "one held-out observation of leave-one-vendor-out",
          (*_cols("held_out trained_on"), Col("n_train", int), *_cols("phase statistic worker_class vantage record_ids"),
           *_cols("observed predicted pi90_low pi90_high log_error", float), Col("covered", int), Col("spec"))),
    Table("iops_model_coefficients", "iops_model_coefficients.csv", "iops_model", "one model term",
          (Col("term"), *_cols("coef ci95_low ci95_high factor factor_low factor_high p_value", float))),
    Table("iops_model_observations", "iops_model_observations.csv", "iops_model",
          "one per-desktop IOPS observation the model is fitted on",
          (*_cols("vendor source_id phase statistic worker_class vantage"), *_cols("iops_per_desktop low high", float),
           Col("n_tests", int), Col("record_ids"), *_cols("workload log_iops log_iops_vsi", float))),
    Table("density", "density.csv", "density_cost", "headroom and maximum desktops from one utilization record",
          (*_cols("source_id vendor configuration phase condition variant resource statistic"),
           *_cols("utilization_pct utilization_low utilization_high", float), Col("bound"), Col("desktops", float),
           Col("population"), *_cols("max_desktops max_desktops_low max_desktops_high", float), Col("max_bound"),
           Col("saturated", bool), Col("max_desktops_failover", float), *_cols("failover_basis phase_kind record_id"))),
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
    import re

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


def validate(name: str, df: pd.DataFrame, where: Path | str | None = None) -> pd.DataFrame:
    """``df`` checked against table ``name``'s schema (all problems at once) and coerced to its
    types, columns in catalogue order; missing text (NaN/None) becomes the empty string. Raises TableError naming the table, the file
    (``where``), the CSV line and the column of each failing value, or the missing and extra
    columns."""
    import pandera.pandas as pa

    t = table(name)
    where = where or t.path
    have, want = list(df.columns), t.column_names
    missing, extra = [c for c in want if c not in have], [c for c in have if c not in want]
    if missing or extra:
        raise TableError(f"table {name!r} ({where}): columns do not match the catalogue"
                         + (f"; missing: {', '.join(missing)}" if missing else "")
                         + (f"; not declared: {', '.join(extra)}" if extra else ""))
    df = df[want].reset_index(drop=True)
    text = [c.name for c in t.columns if c.dtype is str]
    df[text] = df[text].fillna("")  # text not stated is the empty string, as in the CSV file
    try:
        return t.schema.validate(df, lazy=True)
    except pa.errors.SchemaErrors as exc:
        raise TableError(_describe(t, where, exc.failure_cases, df)) from None


def write(name: str, df: pd.DataFrame, **keys) -> Path:
    """Validate ``df`` as table ``name`` (see ``validate``) and write it atomically and
    deterministically to its path (``files.write_csv``). Returns the path written. Raises
    TableError for a table that does not match its entry, PermissionError under data/raw.
    For a JSON entry ``df`` is a JSON-able dict (``files.write_json``; ValueError for NaN)."""
    from . import files

    p = path(name, **keys)
    if table(name).format == "json":
        if not isinstance(df, dict):
            raise TableError(f"table {name!r} ({p.name}) is a JSON document: pass a dict, not {type(df).__name__}")
        return files.write_json(df, p)
    out = validate(name, df, p.relative_to(config.PROJ_ROOT) if config.PROJ_ROOT in p.parents else p)
    return files.write_csv(out, p)


def read(name: str, validate: bool = False, **keys) -> pd.DataFrame:
    """Table ``name`` with its declared types and columns (``source_id=`` for per-source tables).

    Text columns are ``str`` (empty string where not stated), ``float`` columns are float (NaN
    where empty; ``inf`` kept), ``int`` and ``bool`` columns are int and bool. Raises
    FileNotFoundError naming the build target when the file is missing, TableError naming
    file, line and column for a value of the wrong type or a column set that differs from the
    catalogue, and (``validate=True``) for any failed check.
    """
    import pandas as pd

    t = table(name)
    p = t.file(**keys)
    rel = p.relative_to(config.PROJ_ROOT) if config.PROJ_ROOT in p.parents else p
    if not p.is_file():
        raise FileNotFoundError(f"{rel} is missing: build it with `make {rel}` (stage {t.stage}) or `make report`")
    if t.format == "json":
        import json

        return json.loads(p.read_text(encoding="utf-8"))
    df = pd.read_csv(p, dtype=str, keep_default_na=False, encoding="utf-8")
    have, want = list(df.columns), t.column_names
    if have != want:
        missing, extra = [c for c in want if c not in have], [c for c in have if c not in want]
        raise TableError(f"table {name!r} ({rel}): header does not match the catalogue"
                         + (f"; missing: {', '.join(missing)}" if missing else "")
                         + (f"; not declared: {', '.join(extra)}" if extra else "")
                         + ("; order differs" if not missing and not extra else "") + ": rebuild it")
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
            raise TableError(f"{rel}: line {i + 2}: column {c.name!r} = {s.iloc[i]!r}: "
                             f"not a {c.dtype.__name__} (table {name!r}): rebuild it")
        df[c.name] = conv
    if validate:
        df = globals()["validate"](name, df, rel)
    return df


# --------------------------------------------------------------------------------------------
# The README's data contract
# --------------------------------------------------------------------------------------------

def contract_markdown() -> str:
    """The data contract as Markdown: one bullet per table (path, writing stage, what a row is,
    columns with their types). The README holds this text verbatim (a test checks it)."""
    abbrev = {str: "", float: " (float)", int: " (int)", bool: " (bool)"}
    out = []
    for t in _TABLES:
        if t.format == "json":
            out.append(f"- `data/processed/{t.path}` (stage `{t.stage}`): a JSON document: {t.row}.")
            continue
        cols = ", ".join(f"`{c.name}`{abbrev[c.dtype]}" for c in t.columns)
        out.append(f"- `data/processed/{t.path}` (stage `{t.stage}`): one row per {t.row}. Columns: {cols}.")
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
    return (f'    Table("{name}", "{Path(csv_path).name}", "{stage}", "<what one row is>",\n          ('
            + ", ".join(cols) + ")),")


if __name__ == "__main__":  # pragma: no cover
    import sys

    if len(sys.argv) == 5 and sys.argv[1] == "--draft":  # --draft NAME CSV STAGE
        print(draft(*sys.argv[2:]))
    else:
        print(contract_markdown())
