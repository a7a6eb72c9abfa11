"""Reading and validating ``data/raw`` (read-only: nothing here writes a file).

Every error names the file, the CSV line (header = line 1), the column and the offending value,
and all problems of a file are reported at once (pandera lazy validation).
"""

import functools
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from .. import config
from .units import CANONICAL_UNITS, metric_units

if TYPE_CHECKING:  # imported where a file is validated (0.3 s): not by every reader of this module
    import pandera.pandas as pa

RECORD_COLUMNS = [
    "record_id",
    "source_id",
    "text_file",
    "locator",
    "line",
    "quote",
    "value_text",
    "value",
    "value_high",
    "unit",
    "bound",
    "phase",
    "metric",
    "statistic",
    "vantage",
    "vantage_note",
    "aggregation",
    "window",
    "load",
    "test_id",
    "condition",
    "variant",
    "configuration",
    "worker_class",
    "desktops",
    "note",
    "image_file",
    "image_sha256",
]
# Image-sourced records (a number printed in a chart's legend): the image, relative to the
# source's text_dir, and its SHA-256; optional columns (absent or empty: the number is in the text).
IMAGE_COLUMNS = ("image_file", "image_sha256")
# Measurement qualifiers: optional columns (absent = empty), values from vocabulary.csv.
QUALIFIER_COLUMNS = ("aggregation", "window", "load")
SOURCE_COLUMNS = [
    "source_id",
    "vendor",
    "array",
    "title",
    "document_number",
    "published",
    "role",
    "text_dir",
    "text_files",
    "text_sha256",
    "record_prefix",
    "color",
    "desktops",
    "clone_type",
    "persistence",
    "workload",
    "broker",
    "load_tool",
    "guest_os",
    "platform",
    "lab",
]
ROLES = ("seed", "external")
LOCATOR_PATTERN = r"^(Table \d+|Figure \d+|Section \d+(\.\d+)*|(Section|Table|Figure): .+)$"


class RawDataError(ValueError):
    """Raw input that cannot be used; the message names file, line, column and value."""


# --------------------------------------------------------------------------------------------
# The one parser of printed values (value_text -> numbers)
# --------------------------------------------------------------------------------------------

# Number words the documents print instead of digits ("Dual controllers", "Two hosts",
# "at least twice"). Listed explicitly: a word not here is not read as a number.
NUMBER_WORDS = {
    "single": 1,
    "one": 1,
    "dual": 2,
    "two": 2,
    "twice": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
# A printed number: digits with thousands commas (``81,002``), a decimal point (``0.441``,
# ``.1``) or a decimal comma (``1,5GB``: a comma not followed by exactly three digits).
_NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+,\d{1,2}(?!\d)|\d+(?:\.\d+)?|\.\d+)(?:\.\d+)?")
_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
# A record whose value is a reading of a garbled print says so in its note: "read as 0.45".
READ_AS = re.compile(r"\bread as (-?\d+(?:\.\d+)?)(?:[-–](\d+(?:\.\d+)?))?")


def parse_printed(value_text: str) -> list[tuple[float, float]]:
    """The numbers printed in ``value_text``, in order, each as ``(number, half_step)``.

    ``half_step`` is half of the last printed digit (``441µs`` -> (441, 0.5), ``3.2K`` ->
    (3.2, 0.05), ``81,002`` -> (81002, 0.5)): the printed precision. Read:

    * digits with thousands commas (``216,000``), decimals (``0.59ms``, ``.1``) and a decimal
      comma (``1,5GB``: a comma followed by one or two digits);
    * units and prefixes glued to the number (``441µs``, ``3.2K``, ``US$30``, ``2vCPU``,
      ``x20``, ``10GBps``): letters and symbols around a number are ignored; ``K`` is part of
      the unit (``kIOPS``), so ``3.2K`` is 3.2;
    * qualifiers and signs (``~``, ``<``, ``up to``, ``almost``, ``+``) are ignored: they are
      the record's ``bound``, not its number;
    * ranges (``150-175``, ``360K to 700K``, ``between 3 and 4``, ``10/40Gbps``) give two
      numbers; ``2-node``, ``933-times`` one;
    * a ratio to one (``50:1``, ``4:1``) is its first number;
    * the words of ``NUMBER_WORDS`` (``Dual`` -> 2, ``twice`` -> 2), only when no digit is printed.

    Returns [] when nothing is printed as a number. Never raises.
    """
    text = re.sub(r"(\d)\s*:\s*1(?!\d)", r"\1", str(value_text))
    out = []
    for m in _NUMBER.finditer(text):
        tok = m.group(0)
        if re.fullmatch(r"\d+,\d{1,2}", tok):  # decimal comma
            tok = tok.replace(",", ".")
        plain = tok.replace(",", "")
        decimals = len(plain.split(".")[1]) if "." in plain else 0
        out.append((float(plain), 0.5 * 10**-decimals))
    if not out:
        out = [(float(NUMBER_WORDS[w.lower()]), 0.5) for w in _WORD.findall(text)]
    return out


def check_printed_values(df: pd.DataFrame, path: Path) -> None:
    """Each record's ``value`` (and ``value_high``) must be what ``value_text`` prints.

    ``df``: records with ``value_text``, ``value``, ``value_high`` (float, NaN when empty) and
    ``note``. A record with an empty ``value_high`` must print one number equal to ``value``
    within its printed precision (``parse_printed``); a range must print two, equal to
    ``value`` and ``value_high`` in that order. A record whose print is garbled or compound
    (``045ms`` for 0.45 ms; ``3 minutes and 4-20 seconds``) states its reading in ``note`` as
    ``read as <value>`` (or ``read as <value>-<value_high>``), which must match the values.
    Non-finite numbers (``inf``, ``nan``) are rejected.

    Raises RawDataError listing ``path: line N: column 'value' = ...: value_text '...' prints
    ...`` for every record that disagrees (CSV line, header = line 1).
    """
    problems = []
    for i, r in df.reset_index(drop=True).iterrows():
        where = f"{path}: line {i + 2}"
        value, high = r["value"], r["value_high"]
        bad = [
            (c, v)
            for c, v in (("value", value), ("value_high", high))
            if v is not None and not (c == "value_high" and pd.isna(v)) and not math.isfinite(float(v))
        ]
        if bad:
            problems += [f"{where}: column {c!r} = {v!r}: not a finite number" for c, v in bad]
            continue
        want = [float(value)] + ([] if pd.isna(high) else [float(high)])
        note = READ_AS.search(str(r.get("note", "")))
        if note:
            read = [float(note.group(1))] + ([float(note.group(2))] if note.group(2) else [])
            if read != want:
                problems.append(
                    f"{where}: column 'value' = {value!r}: note says {note.group(0)!r} but value/value_high are {want}"
                )
            continue
        printed = parse_printed(r["value_text"])
        shown = " and ".join(f"{n:g}" for n, _ in printed) or "no number"
        if len(printed) != len(want):
            col = "value_high" if len(want) == 2 or len(printed) == 2 else "value"
            got = high if col == "value_high" else value
            problems.append(
                f"{where}: column {col!r} = {got!r}: value_text {r['value_text']!r} prints "
                f"{shown} ({len(printed)} number(s)), the record has {len(want)}"
            )
            continue
        for col, v, (n, half) in zip(("value", "value_high"), want, printed):
            if abs(v - n) > half + 1e-9 * max(1.0, abs(n)):
                problems.append(f"{where}: column {col!r} = {v:g}: value_text {r['value_text']!r} prints {n:g}")
    if problems:
        raise RawDataError(f"{len(problems)} problem(s) in {path}:\n  " + "\n  ".join(problems))


def _isin(values, what="value", codebook="data/raw/README.md"):
    import pandera.pandas as pa

    return pa.Check.isin(list(values), error=f"unknown {what} (see {codebook})")


def _text(*checks, **kw):
    import pandera.pandas as pa

    return pa.Column(str, checks=list(checks), **kw)


@functools.cache
def records_schema():
    """The pandera schema of a source's records file (``data/raw/records/<source>.csv``)."""
    import pandera.pandas as pa  # slow to import (0.24 s): built where a raw file is validated

    return pa.DataFrameSchema(
        {
            "record_id": _text(pa.Check.str_matches(r"^[A-Z][A-Z0-9]*-\d{4}$"), unique=True),
            "source_id": _text(pa.Check.str_length(min_value=1)),
            # Which of the source's text files holds the quote; optional (empty or absent: the only one).
            "text_file": _text(required=False),
            "locator": _text(pa.Check.str_matches(LOCATOR_PATTERN)),
            "line": pa.Column(int, pa.Check.ge(1), coerce=True),
            "quote": _text(pa.Check.str_length(min_value=1)),
            "value_text": _text(pa.Check.str_length(min_value=1)),
            "value": pa.Column(float, coerce=True),
            "value_high": pa.Column(float, nullable=True, coerce=True),
            "unit": _text(_isin(CANONICAL_UNITS, "unit")),
            "bound": _text(_isin(config.BOUNDS, "bound")),
            "phase": _text(_isin(config.PHASES, "phase")),
            "metric": _text(_isin(metric_units(), "metric", "data/raw/metrics.csv")),
            "statistic": _text(_isin(config.STATISTICS, "statistic")),
            "vantage": _text(_isin(config.VANTAGES, "vantage")),
            "vantage_note": _text(),
            "aggregation": _text(_isin(config.AGGREGATIONS, "aggregation", "data/raw/vocabulary.csv"), required=False),
            "window": _text(_isin(config.WINDOWS, "window", "data/raw/vocabulary.csv"), required=False),
            "load": _text(_isin(config.LOADS, "load", "data/raw/vocabulary.csv"), required=False),
            "test_id": _text(),
            "condition": _text(_isin(config.CONDITIONS, "condition")),
            "variant": _text(_isin(config.VARIANTS, "variant")),
            "configuration": _text(_isin(config.CONFIGURATIONS, "configuration")),
            "worker_class": _text(_isin(config.WORKER_CLASSES, "worker class")),
            "desktops": pa.Column(float, [pa.Check.gt(0)], nullable=True, coerce=True),
            "note": _text(),
            "image_file": _text(pa.Check.str_matches(r"^(\S+\.(png|jpg|jpeg|gif|svg))?$"), required=False),
            "image_sha256": _text(pa.Check.str_matches(r"^([0-9a-f]{64})?$"), required=False),
        },
        checks=[
            pa.Check(
                lambda df: df.apply(lambda r: r["value_text"] in r["quote"], axis=1),
                error="value_text must occur in quote",
            ),
            pa.Check(lambda df: ~((df["unit"] == "count") & (df["value"] < 0)), error="a count cannot be negative"),
            pa.Check(
                lambda df: (df.get("image_file", "") == "") == (df.get("image_sha256", "") == ""),
                error=(
                    "image_file and image_sha256 go together (both set for a number read from a chart, else both empty)"
                ),
            ),
            pa.Check(
                lambda df: df["value_high"].isna() | (df["value_high"] >= df["value"]),
                error="value_high must not be below value",
            ),
        ],
        strict=True,
        ordered=False,
    )


@functools.cache
def sources_schema():
    """The pandera schema of ``data/raw/sources.csv``."""
    import pandera.pandas as pa  # slow to import (0.24 s): built where a raw file is validated

    return pa.DataFrameSchema(
        {
            "source_id": _text(pa.Check.str_matches(r"^[a-z0-9_]+$"), unique=True),
            **{c: _text() for c in ["vendor", "array", "title", "document_number", "published"]},
            "role": _text(_isin(ROLES, "role")),
            "text_dir": _text(_isin(config.TEXT_DIRS, "text_dir")),
            "text_files": _text(pa.Check.str_matches(r"^\S+( \S+)*$")),
            "text_sha256": _text(pa.Check.str_matches(r"^[0-9a-f]{64}( [0-9a-f]{64})*$")),
            "record_prefix": _text(pa.Check.str_matches(r"^[A-Z][A-Z0-9]*$"), unique=True),
            "color": _text(pa.Check.str_matches(r"^#[0-9A-Fa-f]{6}$")),
            "desktops": pa.Column(int, pa.Check.gt(0), coerce=True),
            "clone_type": _text(_isin(config.CLONE_TYPES, "clone type", "data/raw/vocabulary.csv")),
            "persistence": _text(_isin(config.PERSISTENCE, "persistence", "data/raw/vocabulary.csv")),
            "workload": _text(),
            **{c: _text() for c in ["broker", "load_tool", "guest_os", "platform"]},
            "lab": _text(pa.Check.str_length(min_value=1)),
        },
        checks=[
            pa.Check(
                lambda df: df["text_files"].str.split().str.len() == df["text_sha256"].str.split().str.len(),
                error="text_files and text_sha256 must list the same number of entries",
            )
        ],
        strict=True,
    )


def read_csv_text(path: Path) -> pd.DataFrame:
    """Read a raw CSV as strings (no NaN guessing). Raises RawDataError for a missing, empty or
    non-UTF-8 file, naming the file and, for bad bytes, the line."""
    path = Path(path)
    if not path.is_file():
        raise RawDataError(f"{path}: file not found")
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise RawDataError(f"{path}: line {line}: bytes are not UTF-8 ({exc.reason} at byte {exc.start})") from None
    if not data.strip():
        raise RawDataError(f"{path}: file is empty (expected a header row and records)")
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    except pd.errors.ParserError as exc:  # a ragged row: pandas names neither file nor header
        m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", str(exc))
        where = f"line {m.group(2)}: {m.group(3)} fields where the header has {m.group(1)}" if m else str(exc)
        raise RawDataError(
            f"{path}: {where}: a comma inside a value needs the whole value in double quotes (RFC 4180)"
        ) from None
    if df.empty:
        raise RawDataError(f"{path}: file has a header but no rows")
    return df


def validate(df: pd.DataFrame, schema: "pa.DataFrameSchema", path: Path) -> pd.DataFrame:
    """Validate ``df`` read from ``path`` against ``schema``, reporting every failure at once.

    Raises RawDataError whose message lists ``path:line N: column 'c' = 'v': check`` per failure.
    """
    df = df.copy()
    for col in ("value_high", "desktops"):
        if col in df.columns and col in schema.columns and schema.columns[col].nullable:
            df[col] = df[col].replace("", None)
    import pandera.pandas as pa

    try:
        return schema.validate(df, lazy=True)
    except pa.errors.SchemaErrors as exc:
        raise RawDataError(_describe(exc.failure_cases, df, Path(path))) from None


# pandera's check names for a value that is not of the column's type, in the project's words
_TYPE_WORDS = {"float64": "not a number", "int64": "not a whole number"}


# pandera's names of the other checks the schemas use, in the project's words ({} = the check's argument)
_CHECK_WORDS = {
    "field_uniqueness": "a duplicate: another line has the same value, and each must be unique",
    "not_nullable": "empty, but the column needs a value",
    "isin": "not one of the allowed values {}",
    "greater_than_or_equal_to": "must be at least {}",
    "less_than_or_equal_to": "must be at most {}",
    "greater_than": "must be more than {}",
    "less_than": "must be less than {}",
    "in_range": "must lie in {}",
    "str_matches": "does not have the expected form {}",
}


def _check_words(check) -> str:
    """A pandera check name (``dtype('float64')``, ``field_uniqueness``, ``isin([...])``) in the
    project's words; an unknown check keeps pandera's name."""
    m = re.fullmatch(r"(?:coerce_dtype|dtype)\('(\w+)'\)", str(check))
    if m:
        return _TYPE_WORDS.get(m.group(1), f"not a {m.group(1)}") + " (fix the typo against the quote)"
    m = re.fullmatch(r"(\w+)(?:\((.*)\))?", str(check), flags=re.S)
    if m and m.group(1) in _CHECK_WORDS:
        return _CHECK_WORDS[m.group(1)].format(m.group(2) or "").rstrip()
    return str(check)


def _describe(failures: pd.DataFrame, df: pd.DataFrame, path: Path) -> str:
    lines = []
    # a value of the wrong type also breaks the table-wide checks that compare it: say it once
    typed = failures["check"].astype(str).str.contains("dtype")
    if typed.any():
        failures = failures[typed | failures["index"].notna()]
    for f in failures.itertuples(index=False):
        idx = f.index
        where = f"line {int(idx) + 2}" if pd.notna(idx) else "header"
        col = f.column if isinstance(f.column, str) and f.column in df.columns else None
        if col is None and pd.notna(idx) and f.schema_context == "DataFrameSchema":
            value = f"record {df.iloc[int(idx)].get('record_id', '?')}"
        elif col is not None and pd.notna(idx):
            value = f"column {col!r} = {df.iloc[int(idx)][col]!r}"
        else:
            value = f"column {f.column!r} ({f.failure_case})"
        lines.append(f"{path}: {where}: {value}: {_check_words(f.check)}")
    uniq = list(dict.fromkeys(lines))
    return f"{len(uniq)} problem(s) in {path}:\n  " + "\n  ".join(uniq)


_SOURCES_CACHE: dict = {}
# Written by the build's validation stage (``raw.validate --stamp``) once every raw input passed:
# a line per file whose content later steps may read without validating it again (``validated_line``).
VALIDATED_STAMP = config.PROJ_ROOT / "build" / "validated.stamp"


def validated_line(data: bytes) -> str:
    """The line of ``VALIDATED_STAMP`` saying that ``sources.csv`` with the bytes ``data`` passed
    ``sources_schema`` as this module defines it: the SHA-256 of the bytes and of this module's
    code (a changed schema validates again)."""
    import hashlib

    code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    return f"sources.csv {hashlib.sha256(data).hexdigest()} schema {code}"


def _typed(df: pd.DataFrame) -> pd.DataFrame:
    """``sources.csv`` read as text (``read_csv_text``) with the types ``sources_schema`` gives it
    (``desktops`` an int64): the frame ``validate`` returns for a valid file."""
    return df.assign(desktops=df["desktops"].astype("int64"))


def load_sources(raw_dir: Path = config.RAW_DIR) -> pd.DataFrame:
    """``sources.csv`` validated: one row per document, columns ``SOURCE_COLUMNS``.

    Validated once per file version (path, size, modification time) in a process and returned
    as a fresh copy each call: normalizing all sources asks for it several times per source. The
    project's own file whose content the build's validation stage passed (``VALIDATED_STAMP``,
    ``validated_line``) is read without validating it again: the same frame, without importing
    pandera (0.3 s of the report's kernel). Raises RawDataError for an invalid file.
    """
    path = Path(raw_dir) / "sources.csv"
    try:
        st = path.stat()
        key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    if key is None or key not in _SOURCES_CACHE:
        df = None
        if key is not None and Path(raw_dir).resolve() == config.RAW_DIR.resolve():
            try:
                passed = validated_line(path.read_bytes()) in VALIDATED_STAMP.read_text(encoding="utf-8").splitlines()
            except OSError:
                passed = False
            df = _typed(read_csv_text(path)) if passed else None
        if df is None:
            df = validate(read_csv_text(path), sources_schema(), path)
        if key is None:
            return df
        _SOURCES_CACHE.clear()
        _SOURCES_CACHE[key] = df
    return _SOURCES_CACHE[key].copy()


def required(sources_df: pd.DataFrame | None, caller: str) -> pd.DataFrame:
    """``sources_df`` (sources.csv as ``load_sources`` returns it) itself, for a model function
    ``caller`` (e.g. ``"era.planning_rows"``) that reads sources.csv only as an argument: a step
    reads only what it declares (issue 27), so its stage entry point loads the file once and
    passes it. Raises TypeError naming ``caller`` and the call to make when ``sources_df`` is None."""
    if sources_df is None:
        raise TypeError(
            f"{caller}: pass sources_df=vdi_report.raw.sources.load_sources() (sources.csv); "
            "model functions do not load it themselves"
        )
    return sources_df


def records_path(source_id: str, raw_dir: Path = config.RAW_DIR) -> Path:
    """Path of a source's records file; raises RawDataError for an unknown ``source_id``."""
    known = load_sources(raw_dir)["source_id"].tolist()
    if source_id not in known:
        raise RawDataError(f"unknown source {source_id!r}; sources.csv lists: {', '.join(known)}")
    return Path(raw_dir) / "records" / f"{source_id}.csv"


def load_records(source_id: str, raw_dir: Path = config.RAW_DIR) -> pd.DataFrame:
    """One source's digitized records, validated.

    Returns the columns ``RECORD_COLUMNS`` (``value``, ``value_high``, ``desktops`` as float,
    ``line`` as int, the rest as str). Raises RawDataError naming file, line, column and value
    for any problem, including records whose ``source_id`` is not the file's.
    """
    path = records_path(source_id, raw_dir)
    df = read_csv_text(path)
    df = validate(df, records_schema(), path)
    check_printed_values(df, path)
    wrong = df.index[df["source_id"] != source_id]
    if len(wrong):
        i = wrong[0]
        raise RawDataError(
            f"{path}: line {i + 2}: column 'source_id' = {df.at[i, 'source_id']!r}: expected {source_id!r}"
        )
    src = load_sources(raw_dir).set_index("source_id").loc[source_id]
    prefix = src["record_prefix"]
    wrong = df.index[~df["record_id"].str.startswith(prefix + "-")]
    if len(wrong):
        i = wrong[0]
        raise RawDataError(
            f"{path}: line {i + 2}: column 'record_id' = {df.at[i, 'record_id']!r}: "
            f"expected the prefix {prefix}- (record_prefix of {source_id} in sources.csv)"
        )
    for col in ("text_file", *QUALIFIER_COLUMNS, *IMAGE_COLUMNS):
        if col not in df.columns:
            df[col] = ""
    files = src["text_files"].split()
    df["text_file"] = df["text_file"].replace("", files[0])
    wrong = df.index[~df["text_file"].isin(files)]
    if len(wrong):
        i = wrong[0]
        raise RawDataError(
            f"{path}: line {i + 2}: column 'text_file' = {df.at[i, 'text_file']!r}: "
            f"expected one of the source's text_files: {', '.join(files)}"
        )
    return df[RECORD_COLUMNS]
